"""Cases of seed 003's tactical rules (`kind = "tactical"`): the position is a skirmish, the steps
are the tactical game's (the same `TacticalGame` the console and `strategia tactical` play), and
the expectations are read off its table.

    [skirmish] [[obstacle]] [[road]] [[unit]]      the skirmish (strategia/tactical/skirmish.py)
    [[step]] card = "1/Тульский"                   phase 1: an order card; before = "move; form
             before = "move; form square"          square", after = "..." (after fire),
                                                   attack = "..." (whom it attacks)
    [[step]] act = "1/Тульский"                    a unit acts now (phases 2, 3, 5, 6)
             actions = "move 4; restore"
    [[step]] advance = true                        on to the next phase; to = "fire" (or 4): on
                                                   until that phase
    [[step]] report = "1/Тульский"                 a result the mediator enters: kind (artillery,
             kind = "musketry" casualties = 2      musketry, test, melee, wavering), casualties
                                                   (figures), condition, outcome, by
    [[expect]] troop = "1/Тульский"                a unit (отряд) on the table: `TROOP`'s fields
               at = [30, 17.2] formation = "square"
    [[expect]] result = 2  explained = {"003 formation changes" = "2/5"}
    [[expect]] game = true  turn = 1  phase = 3

Times are turns as the seed writes them ("2/5", 1), distances cm, bearings degrees (0 up the
table, 90 to the right), formations and conditions by their keys (`strategia.tactical.units`).
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from strategia.casebook.case import TACTICAL_STEPS, TACTICAL_SUBJECTS, Case, Expect, Step
from strategia.casebook.probes import compare
from strategia.core.errors import StrategiaError
from strategia.core.i18n import Lang, Text
from strategia.core.numbers import num
from strategia.explain.trace import Step as Explanation
from strategia.rules import RuleSet
from strategia.tactical.actions import format_actions, parse_actions
from strategia.tactical.data import ruler, turns
from strategia.tactical.game import TacticalGame
from strategia.tactical.moving import is_moving
from strategia.tactical.phases import Phase, ReportKind
from strategia.tactical.skirmish import Table
from strategia.tactical.units import Condition, Formation, Unit

STEP_KINDS = TACTICAL_STEPS
SUBJECTS = TACTICAL_SUBJECTS
RULESET = "tactical"


@dataclass(frozen=True, slots=True)
class Done:
    """What a tactical step gave: its explanation, or the refusal it met."""

    explanation: Explanation | None = None
    refused: Text | None = None


def _kind(key: Any, kind: type[Formation] | type[Condition], lang: Lang) -> str:
    try:
        return kind.parse(str(key)).text(lang)
    except StrategiaError:
        return str(key)


def _point(v: Any, lang: Lang) -> str:
    if isinstance(v, list) and len(v) == 2:
        return f"({num(float(v[0]), lang)}; {num(float(v[1]), lang)})"
    return str(v)


def _pending(u: Unit) -> str:
    return u.pending.target if u.pending is not None else ""


# a troop's fields: the label, how it is read off the unit, how a value is shown (None: as is)
Reader = Callable[[Unit, RuleSet], Any]
Shown = Callable[[Any, Lang], str] | None
TROOP: dict[str, tuple[Text, Reader, Shown]] = {
    "at": (Text("stands at (cm)", "стоит в (см)"), lambda u, r: [round(u.x, 4), round(u.y, 4)],
           lambda v, lang: _point(v, lang)),
    "facing": (Text("faces (degrees)", "фронтом на (градусов)"), lambda u, r: round(u.facing, 4),
               None),
    "formation": (Text("formation", "строй"), lambda u, r: u.formation.key,
                  lambda v, lang: _kind(v, Formation, lang)),
    "condition": (Text("condition", "состояние"), lambda u, r: u.condition.key,
                  lambda v, lang: _kind(v, Condition, lang)),
    "moving": (Text("counts as moving", "считается двигающимся"), lambda u, r: is_moving(u, r),
               None),
    "moved": (Text("moved this turn (cm)", "прошел за ход (см)"),
              lambda u, r: round(float(u.moved), 4), None),
    "ruler": (Text("by the ruler (cm)", "по линейке (см)"),
              lambda u, r: float(ruler(u.moved, r)), None),
    "spent": (Text("part of the turn spent", "затрачено хода"), lambda u, r: turns(u.spent),
              None),
    "figures": (Text("figures", "фигурок"), lambda u, r: u.figures, None),
    "pending": (Text("still changing formation to", "еще перестраивается в"),
                lambda u, r: _pending(u), lambda v, lang: _kind(v, Formation, lang) if v else "—"),
    "pending_left": (Text("turns of it left", "осталось хода"),
                     lambda u, r: turns(u.pending.left) if u.pending else 0, None),
    "frontage": (Text("frontage (cm)", "фронт (см)"), lambda u, r: u.footprint(r)[0], None),
    "depth": (Text("depth (cm)", "глубина (см)"), lambda u, r: u.footprint(r)[1], None),
}  # fmt: skip


def _explained(e: Explanation) -> dict[str, Any]:
    """Each rule id and the value of the first step citing it (numbers, and the seed's
    fractions of a turn, "2/5")."""
    out: dict[str, Any] = {}
    for s in e.walk():
        if s.rule and s.rule not in out and isinstance(s.value, int | float | bool | str):
            out[s.rule] = s.value
    return out


RESULT: dict[str, tuple[Text, Callable[[Explanation], Any]]] = {
    "explained": (Text("steps of the explanation", "шаги объяснения"), _explained),
    "cut": (Text("not carried out, by rule", "не выполнено, по правилу"),
            lambda e: [s.rule for s in e.walk() if s.kind == "cut"]),
    "cut_reason": (Text("what was not carried out", "что не выполнено"),
                   lambda e: " | ".join(s.label("ru") for s in e.walk() if s.kind == "cut")),
}  # fmt: skip
GAME: dict[str, tuple[Text, Callable[[TacticalGame], Any]]] = {
    "turn": (Text("turn", "ход"), lambda g: g.battle.turn),
    "phase": (Text("phase", "этап"), lambda g: g.phase.number),
}
LABELS: dict[str, Text] = {
    **{k: v[0] for k, v in TROOP.items()},
    **{k: v[0] for k, v in RESULT.items()},
    **{k: v[0] for k, v in GAME.items()},
    "refused": Text("refused", "отказано"),
}


def shown(name: str, v: Any, lang: Lang) -> str | None:
    """A troop's value as the book shows it in `lang`, where it is a key (None: as any value)."""
    entry = TROOP.get(name)
    if entry is not None and entry[2] is not None:
        return entry[2](v, lang)
    return None


def _play(g: TacticalGame, step: Step) -> Done:
    """Do one step of a tactical case; what it gave, or what refused it."""
    try:
        if step.kind == "card":
            before, after = str(step.option("before", "")), str(step.option("after", ""))
            return Done(g.card(step.text, before, after, step.option("attack")))
        if step.kind == "act":
            return Done(g.act(step.text, str(step.option("actions", ""))))
        if step.kind == "report":
            return Done(
                g.report(
                    step.text,
                    str(step.option("kind", "")),
                    casualties=int(step.option("casualties", 0)),
                    outcome=str(step.option("outcome", "")),
                    condition=step.option("condition"),
                    by=step.option("by"),
                )
            )
        to = step.option("to")
        done = g.advance()
        if to is not None:
            target = Phase.parse(str(to))
            for _ in range(len(Phase) - 1):
                if g.phase is target:
                    break
                done = g.advance()
        return Done(done)
    except StrategiaError as e:
        return Done(refused=Text(str(e), e.say("ru")))


def _read(g: TacticalGame, done: list[Done], e: Expect, name: str) -> Any:
    if e.subject == "troop":
        return TROOP[name][1](g.table.unit(str(e.of)), g.rules)
    if e.subject == "game":
        return GAME[name][1](g)
    d = done[int(e.of) - 1]
    if name == "refused":
        return d.refused("ru") if d.refused is not None else None
    if d.refused is not None or d.explanation is None:
        return {"refused": d.refused("ru") if d.refused else None}
    return RESULT[name][1](d.explanation)


Checked = tuple[Expect, tuple[tuple[str, Any], ...], bool]


@dataclass(frozen=True)
class Played:
    """A tactical case as it played: what each step gave, each expectation with the values
    found, or the error that stopped it; the table before and after, and the rules."""

    done: list[Done]
    checks: list[Checked]
    error: Text | None = None
    tables: tuple[Table, Table] | None = None
    rules: RuleSet | None = None


def play(case: Case, house: Sequence[Path] = ()) -> Played:
    """Play a tactical case (under the house rules of the tactical rule set among `house`)."""
    assert case.skirmish is not None
    with tempfile.TemporaryDirectory(prefix="strategia-case-") as tmp:
        houses: list[str | Path] = [h for h in house if ruleset_of(h) == RULESET]
        if case.house:
            own = Path(tmp) / "case-house.toml"
            own.write_text(case.house, encoding="utf-8")
            houses.insert(0, own)
        try:
            g = TacticalGame.new(case.skirmish, house=houses)
        except StrategiaError as e:
            return Played([], [], Text(str(e), e.say("ru")))
        start = g.table
        done = [_play(g, s) for s in case.steps]
        checks = [_check(g, done, e) for e in case.expects]
    return Played(done, checks, None, (start, g.table), g.rules)


def _check(g: TacticalGame, done: list[Done], e: Expect) -> Checked:
    actual: list[tuple[str, Any]] = []
    passed = True
    for name, expected in e.fields:
        try:
            value = _read(g, done, e, name)
        except (KeyError, StrategiaError) as err:
            value = {"error": f"cannot be read: {err}"}
        actual.append((name, value))
        passed = passed and compare(name, expected, value)
    return e, tuple(actual), passed


def ruleset_of(path: str | Path) -> str:
    """The rule set a house-rules file is for (`[ruleset] name`; the operational by default)."""
    import tomllib

    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return ""
    return str(data.get("ruleset", {}).get("name", "continental"))


def step_text(s: Step, lang: Lang) -> str:
    """A tactical step as the book prints it, the actions in the reader's language."""
    ru = lang == "ru"

    def actions(text: str) -> str:
        try:
            return format_actions(parse_actions(text), lang)
        except StrategiaError:
            return text

    if s.kind == "card":
        parts = [f"{'карточка' if ru else 'order card'} {s.text}"]
        for key, (r, en) in (("before", ("до стрельбы", "before fire")),
                             ("after", ("после стрельбы", "after fire"))):  # fmt: skip
            if s.option(key):
                parts.append(f"{r if ru else en}: {actions(str(s.option(key)))}")
        if s.option("attack"):
            parts.append(f"{'атакует' if ru else 'attacks'} {s.option('attack')}")
        return "; ".join(parts)
    if s.kind == "act":
        return f"{s.text}: {actions(str(s.option('actions', '')))}"
    if s.kind == "report":
        try:
            what = ReportKind.parse(str(s.option("kind", ""))).text(lang)
        except StrategiaError:
            what = str(s.option("kind", ""))
        lost = int(s.option("casualties", 0))
        figures = f", {'потери' if ru else 'casualties'} {lost} {'фиг.' if ru else 'fig.'}"
        by = f", {'кем' if ru else 'by'}: {s.option('by')}" if s.option("by") else ""
        return f"{'посредник' if ru else 'mediator'}: {s.text}, {what}{figures if lost else ''}{by}"
    to = s.option("to")
    if to is not None:
        phase = Phase.parse(str(to))
        return f"{'до этапа' if ru else 'on to phase'} {phase.number} ({phase.text(lang)})"
    return "следующий этап" if ru else "next phase"


def position(case: Case, lang: Lang) -> str:
    """The skirmish in words: the table, its obstacles and roads, the units as they stand."""
    sk = case.skirmish
    assert sk is not None
    ru = lang == "ru"
    rows = [f"{'стол' if ru else 'table'}: {num(sk.width, lang)} × {num(sk.height, lang)} "
            f"{'см' if ru else 'cm'}"]  # fmt: skip

    def pts(points: Sequence[tuple[float, float]]) -> str:
        return " ".join(f"({num(x, lang)}; {num(y, lang)})" for x, y in points)

    for o in sk.obstacles:
        shape = pts(o.polygon or o.line)
        rows.append(f"{o.kind.text(lang)}{f' «{o.name}»' if o.name else ''}: {shape}")
    for r in sk.roads:
        rows.append(f"{'дорога' if ru else 'road'}: {pts(r.line)}")
    for u in sk.units:
        side = {"red": Text("Red", "красные"), "blue": Text("Blue", "синие")}.get(u.side)
        who = side(lang) if side else u.side
        figures = f"{u.figures} {'фиг.' if ru else 'figures'}"
        rows.append(
            f"{u.name} ({who}): {u.kind_text()(lang)}, {figures}, {pts([(u.x, u.y)])}, "
            f"{'фронт' if ru else 'facing'} {num(u.facing, lang)}°"
        )
    return "\n".join(rows)


__all__ = [
    "LABELS",
    "STEP_KINDS",
    "SUBJECTS",
    "TROOP",
    "Done",
    "Played",
    "play",
    "position",
    "ruleset_of",
    "shown",
    "step_text",
]
