"""Running the case book: each case played through the same `Game` any game is played through
(a case of seed 003 through the same `TacticalGame`, `tactical`), its expectations read off the
game after its steps (`probes`), and, under house rules, what changes against the book's own
rules.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from strategia.casebook import tactical
from strategia.casebook.case import Case, Expect, Step, load_case
from strategia.casebook.probes import Done, compare, read
from strategia.core.collector import collector_paused
from strategia.core.errors import StrategiaError
from strategia.core.geometry import Cell
from strategia.core.i18n import Text
from strategia.engine.state import GameState
from strategia.game.game import Game

BOOK = Path(__file__).parent / "cases"


@dataclass(frozen=True, slots=True)
class Check:
    """One expectation of a case, checked: the values expected and those found."""

    expect: Expect
    actual: tuple[tuple[str, Any], ...]
    passed: bool

    @property
    def expected(self) -> dict[str, Any]:
        return self.expect.to_json()

    def actual_json(self) -> dict[str, Any]:
        return {self.expect.subject: self.expect.of, **dict(self.actual)}


@dataclass(frozen=True)
class CaseRun:
    """A case as it played: each expectation checked, or the error that stopped it; under
    house rules (`house`), whether anything came out otherwise than under the book's rules."""

    case: Case
    checks: tuple[Check, ...] = ()
    error: Text | None = None
    house: tuple[str, ...] = ()
    changed: bool | None = None
    done: list[Any] = field(default_factory=list, compare=False, repr=False)
    start: GameState | None = field(default=None, compare=False, repr=False)
    end: GameState | None = field(default=None, compare=False, repr=False)
    played: tactical.Played | None = field(default=None, compare=False, repr=False)

    @property
    def passed(self) -> bool:
        return self.error is None and all(c.passed for c in self.checks)

    def to_json(self) -> dict[str, Any]:
        c = self.case
        out: dict[str, Any] = {
            "id": c.id,
            "rule": c.rule,
            "rules": list(c.rules),
            "title": c.title.to_json(),
            "quote": c.quote,
            "source": c.source,
            "level": c.level or None,
            "kind": c.kind,
            "example": c.example,
            "reading": c.reading.to_json() if c.reading else None,
            "passed": self.passed,
            "expected": [k.expected for k in self.checks] or [e.to_json() for e in c.expects],
            "actual": [k.actual_json() for k in self.checks],
            "changed": self.changed,
        }
        if self.error is not None:
            out["error"] = self.error.to_json()
        return out


def load_book(folder: Path = BOOK, rule: str | None = None) -> list[Case]:
    """Every case of the book, in the order of its file names read as numbers (4.2-1 before
    4.10-1); only those of `rule` if given (a rule id or its start: "9.7" takes 9.7, 9.7a,
    9.7b...)."""
    cases = [load_case(p) for p in sorted(Path(folder).glob("*.toml"), key=_numbered)]
    if rule:
        cases = [c for c in cases if any(_under(r, rule) for r in c.rules)]
    return cases


def _numbered(path: Path) -> list[tuple[int, str]]:
    """A file name's sorting key: its numbers as numbers, the rest as text."""
    return [(int(x), "") if x.isdigit() else (-1, x) for x in re.split(r"(\d+)", path.name)]


def _under(rule: str, wanted: str) -> bool:
    return rule == wanted or (
        rule.startswith(wanted) and not rule[len(wanted) : len(wanted) + 1].isdigit()
    )


def run_case(case: Case, house: Sequence[Path] = ()) -> CaseRun:
    """Play `case` in a game of its own (under `house` rules, and its own if it has any) and
    check what it expects."""
    if case.is_tactical:
        p = tactical.play(case, house)
        checks_t = tuple(Check(e, actual, ok) for e, actual, ok in p.checks)
        return CaseRun(case, checks_t, p.error, tuple(map(str, house)), done=p.done, played=p)
    assert case.scenario is not None
    with tempfile.TemporaryDirectory(prefix="strategia-case-") as tmp:
        houses = [str(h) for h in house if tactical.ruleset_of(h) != tactical.RULESET]
        if case.house:
            own = Path(tmp) / "case-house.toml"
            own.write_text(case.house, encoding="utf-8")
            houses.insert(0, str(own))
        try:
            with collector_paused():
                g = Game.new(
                    case.scenario,
                    Path(tmp) / "case.game",
                    seed=case.seed,
                    house=houses,
                    clock=case.clock or None,
                )
        except StrategiaError as e:
            return CaseRun(case, error=_text(e), house=tuple(map(str, house)))
        start = g.state
        done = [_play(g, s) for s in case.steps]
        checks = tuple(_check(g, done, e) for e in case.expects)
        g.journal.close()
    return CaseRun(case, checks, house=tuple(map(str, house)), done=done, start=start, end=g.state)


def run_book(cases: Sequence[Case], house: Sequence[Path] = ()) -> list[CaseRun]:
    """Every case; under `house` rules each is played twice, and `changed` says whether the
    house rules change anything it checks."""
    runs = []
    for case in cases:
        book = run_case(case)
        if not house:
            runs.append(book)
            continue
        under = run_case(case, house)
        changed = under.error != book.error or [k.actual for k in under.checks] != [
            k.actual for k in book.checks
        ]
        runs.append(
            CaseRun(case, under.checks, under.error, under.house, changed, under.done,
                    under.start, under.end, under.played)
        )  # fmt: skip
    return runs


def _play(g: Game, step: Step) -> Done:
    """Do one step of a case; what it gave, or what refused it."""
    try:
        if step.kind == "order":
            r = g.order(step.text, step.side or None)
            return Done(results=(r,) if r is not None else ())
        if step.kind == "end_turn":  # `end_turn = 18`: eighteen in a row
            times = int(step.text) if step.text.isdigit() else 1
            return Done(results=tuple(r for _ in range(times) for r in g.end_turn()))
        if step.kind == "ask":
            return Done(answer=g.ask(step.side, step.text, lie=step.option("lie")))
        if step.kind == "intervene":
            cell = step.option("cell")
            g.intervene(step.text, Cell.parse(cell) if cell else None, step.option("turns"))
            return Done()
        g.undo()
        return Done()
    except StrategiaError as e:
        return Done(refused=_text(e))


def _check(g: Game, done: list[Done], e: Expect) -> Check:
    actual: list[tuple[str, Any]] = []
    passed = True
    for name, expected in e.fields:
        if name == "of":
            continue
        try:
            value = read(e.subject, e.of, name, g, done, e.fields)
        except (KeyError, StrategiaError) as err:
            value = {"error": f"cannot be read: {err}"}
        actual.append((name, value))
        passed = passed and compare(name, expected, value)
    return Check(e, tuple(actual), passed)


def _text(e: StrategiaError) -> Text:
    return Text(str(e), e.say("ru"))


__all__ = ["BOOK", "CaseRun", "Check", "load_book", "run_book", "run_case"]
