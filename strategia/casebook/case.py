"""One case of the case book: a rule, the seed's words, a small position, the orders, and what
must follow, as a mediator checks it at the table.

A case is one TOML file: a scenario in the project's text format (maps/README.md; the states
Red and Blue are assumed where it names none) with three more tables:

    [case]
    id = "9.3-1"
    rules = ["9.3", "table 4"]
    title = "Приказ, противоречащий правилам, исполняется «в пределах возможного»"
    title_en = "An order against the rules is carried out as far as possible"
    source = "000, 9.3; 002, табл. 1"
    quote = "получив распоряжение продвинуть т.д. на 30 км. по холмистой местности, ..."
    example = true                     # the seed's own worked example
    reading = ""                       # the project's reading it checks ([r]), in words
    note = "т.д. в холмах — 20 км за ход (табл. 1)"   # the arithmetic, for the reader
    note_en = "..."

    [[step]]                           # in order: order, end_turn, ask, intervene, undo
    order = "1 т.д. на 5,1"            # (a side may be named: side = "red"; end_turn = 18:
                                       # eighteen ends of turn in a row)

    [[expect]]                         # what must follow: a unit, a step's result, the game,
    unit = "1 т.д."                    # a closed cell, or what a side is told (view = "blue")
    at = "4,1"

`clock = true` in [case] plays the game with clocks at the level's times (1.9, 5.2).

A case of seed 003's tactical rules says `kind = "tactical"`: its position is a skirmish (the
skirmish format, `strategia.tactical.skirmish`) and its steps and expectations are the tactical
game's (`strategia.casebook.tactical`).

Every problem of a case file is reported at once, with its place (`CaseError`).
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from strategia.core.errors import Problem, StrategiaError, unreadable
from strategia.core.i18n import Text
from strategia.tactical.skirmish import Skirmish, parse_skirmish
from strategia.theatre.scenario import Scenario
from strategia.theatre.scenario_io import parse_scenario

CASE_TABLES = frozenset({"case", "step", "expect"})
DEFAULT_STATES = [
    {"code": "R", "name": "Красные", "side": "red"},
    {"code": "B", "name": "Синие", "side": "blue"},
]
STEP_KINDS = ("order", "end_turn", "ask", "intervene", "undo")
SUBJECTS = ("unit", "result", "game", "closed", "view")
KINDS = ("game", "tactical")  # a case of the operational game, or of seed 003's tactical rules
TACTICAL_STEPS = ("card", "act", "advance", "report")  # strategia.casebook.tactical
TACTICAL_SUBJECTS = ("troop", "result", "game")
_CASE_KEYS: dict[str, type | tuple[type, ...]] = {
    "id": str, "rules": list, "title": str, "title_en": str, "source": str, "quote": str,
    "example": bool, "reading": str, "reading_en": str, "silent": str, "silent_en": str,
    "note": str, "note_en": str, "seed": int, "house": str, "clock": bool, "kind": str,
}  # fmt: skip
_REQUIRED = ("id", "rules", "title", "title_en", "source", "quote")


class CaseError(StrategiaError):
    """A case file that cannot be read: every problem with its place."""

    def __init__(self, path: str | Path, problems: Iterable[Problem]) -> None:
        self.path = str(path)
        self.problems = tuple(problems)
        lines = "\n".join(f"  - {p}" for p in self.problems)
        super().__init__(
            f"{path}: {len(self.problems)} problem(s) in the case\n{lines}",
            ru=f"{path}: в случае ошибок: {len(self.problems)}\n{lines}",
        )


@dataclass(frozen=True, slots=True)
class Step:
    """One thing done in a case: an order, an end of turn, a question, an intervention, an
    undo (`kind`), with its text and the side giving it, if named."""

    kind: str
    text: str = ""
    side: str = ""
    options: tuple[tuple[str, Any], ...] = ()

    def option(self, key: str, default: Any = None) -> Any:
        return dict(self.options).get(key, default)


@dataclass(frozen=True, slots=True)
class Expect:
    """What must follow: a `subject` (unit, result, game, closed), which one (`of`: a unit, a
    step's number, a cell), and the values expected (`fields`: name to value)."""

    subject: str
    of: Any
    fields: tuple[tuple[str, Any], ...]

    def to_json(self) -> dict[str, Any]:
        return {self.subject: self.of, **dict(self.fields)}


@dataclass(frozen=True)
class Case:
    """A case of the book (see the module)."""

    id: str
    rules: tuple[str, ...]
    title: Text
    source: str
    quote: str
    scenario: Scenario | None  # None for a tactical case, which has a `skirmish`
    steps: tuple[Step, ...]
    expects: tuple[Expect, ...]
    path: Path
    example: bool = False
    reading: Text | None = None
    silent: Text | None = None
    note: Text | None = None
    seed: int = 1
    house: str = ""  # house rules the case itself plays under (a case of a house rule)
    clock: bool = False  # played with clocks (1.9), each move the level's time
    meta: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    kind: str = "game"
    skirmish: Skirmish | None = None

    @property
    def rule(self) -> str:
        return self.rules[0]

    @property
    def is_tactical(self) -> bool:
        return self.kind == "tactical"

    @property
    def level(self) -> int:
        """The level the case is played at (0.2); 0 for a tactical case (seed 003 has none)."""
        return self.scenario.settings.level if self.scenario is not None else 0

    @property
    def chapter(self) -> str:
        """The chapter the case is printed under: the rule's number before its first dot, or
        the table's chapter ("table 9-1" under 9)."""
        r = self.rule.removeprefix("table ").removeprefix("табл. ")
        if self.rule.startswith("003"):
            return "003"
        if self.rule.startswith("table"):
            return "table"
        return r.split(".", 1)[0].split("-", 1)[0]


def load_case(path: str | Path) -> Case:
    """The case in `path`; a CaseError lists every problem of the file."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text)
    except (OSError, UnicodeDecodeError) as e:  # a binary file too: said in the reader's words
        en, ru = unreadable(e)
        raise CaseError(path, [Problem(str(path), en, ru=ru)]) from None
    except tomllib.TOMLDecodeError as e:
        raise CaseError(path, [Problem(str(path), str(e))]) from None
    problems: list[Problem] = []
    meta = data.get("case")
    if not isinstance(meta, dict):
        raise CaseError(path, [Problem(f"{path}: [case]", "missing: every case has one")])
    for key in meta:
        if key not in _CASE_KEYS:
            problems.append(Problem(f"{path}: case.{key}", "unknown key"))
        elif not isinstance(meta[key], _CASE_KEYS[key]):
            problems.append(Problem(f"{path}: case.{key}", f"expected {_CASE_KEYS[key]}"))
    problems += [Problem(f"{path}: case.{k}", "missing") for k in _REQUIRED if not meta.get(k)]
    kind = str(meta.get("kind", "game"))
    if kind not in KINDS:
        problems.append(Problem(f"{path}: case.kind", f"{kind!r}: expected one of {KINDS}"))
    is_tactical = kind == "tactical"
    kinds = TACTICAL_STEPS if is_tactical else STEP_KINDS
    subjects = TACTICAL_SUBJECTS if is_tactical else SUBJECTS
    steps = _steps(path, data.get("step", []), problems, kinds)
    expects = _expects(path, data.get("expect", []), len(steps), problems, subjects)
    sc: Scenario | None = None
    skirmish: Skirmish | None = None
    try:
        if is_tactical:
            skirmish = parse_skirmish(text, str(path))  # [case], [[step]]... are not its
        else:
            defaults = {} if "state" in data else {"state": DEFAULT_STATES}
            sc = parse_scenario(text, str(path), path.parent, others=CASE_TABLES, defaults=defaults)
    except StrategiaError as e:
        found = getattr(e, "problems", None)
        problems += list(found) if found else [Problem(str(path), str(e))]
    if problems or (sc is None and skirmish is None):
        raise CaseError(path, problems)
    return Case(
        id=meta["id"],
        rules=tuple(str(r) for r in meta["rules"]),
        title=Text(meta["title_en"], meta["title"]),
        source=meta["source"],
        quote=meta["quote"],
        scenario=sc,
        steps=steps,
        expects=expects,
        path=path,
        example=bool(meta.get("example", False)),
        reading=_text(meta, "reading"),
        silent=_text(meta, "silent"),
        note=_text(meta, "note"),
        seed=int(meta.get("seed", 1)),
        house=str(meta.get("house", "")),
        clock=bool(meta.get("clock", False)),
        meta=meta,
        kind=kind,
        skirmish=skirmish,
    )


def _text(meta: dict[str, Any], key: str) -> Text | None:
    ru, en = meta.get(key, ""), meta.get(f"{key}_en", "")
    return Text(en or ru, ru or en) if ru or en else None


def _steps(
    path: Path, raw: Any, problems: list[Problem], known: tuple[str, ...] = STEP_KINDS
) -> tuple[Step, ...]:
    out = []
    for n, s in enumerate(raw if isinstance(raw, list) else [], 1):
        where = f"{path}: step {n}"
        kinds = [k for k in known if k in s] if isinstance(s, dict) else []
        if len(kinds) != 1:
            problems.append(Problem(where, f"expected one of {', '.join(known)}"))
            continue
        kind = kinds[0]
        value = s[kind]
        text = "" if isinstance(value, bool) else str(value)
        options = tuple((k, v) for k, v in s.items() if k not in (kind, "side"))
        out.append(Step(kind, text, str(s.get("side", "")), options))
    if not isinstance(raw, list):
        problems.append(Problem(f"{path}: step", "expected [[step]] tables"))
    return tuple(out)


def _expects(
    path: Path,
    raw: Any,
    steps: int,
    problems: list[Problem],
    known: tuple[str, ...] = SUBJECTS,
) -> tuple[Expect, ...]:
    out = []
    if not isinstance(raw, list) or not raw:
        problems.append(Problem(f"{path}: expect", "a case expects something: [[expect]]"))
        return ()
    for n, e in enumerate(raw, 1):
        where = f"{path}: expect {n}"
        subjects = [k for k in known if k in e] if isinstance(e, dict) else []
        if len(subjects) != 1:
            problems.append(Problem(where, f"expected one subject: {', '.join(known)}"))
            continue
        subject = subjects[0]
        of = e[subject]
        if subject == "result" and not (isinstance(of, int) and 1 <= of <= steps):
            problems.append(Problem(where, f"result = {of!r}: expected a step, 1 to {steps}"))
            continue
        fields = tuple((k, v) for k, v in e.items() if k != subject)
        if not fields:
            problems.append(Problem(where, "nothing expected of it"))
            continue
        out.append(Expect(subject, of, fields))
    return tuple(out)


__all__ = ["Case", "CaseError", "Expect", "Step", "load_case"]
