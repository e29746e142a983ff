"""The units a side knows by name (1.6), which is what its reconnaissance questions (8.3) are read
against, never the whole game.

A side knows its own units, corps, armies and fronts, and of the enemy what it was shown or told:
the counters its view identifies (open sectors, in sight of its troops), the armies and fronts it
is told of by number (6.2) and the units named in its own battles. The map is public. So a
question's refusal, its completion (`где 21?` read as `где 21 т.д.?`) and its price depend on
nothing the side may not know. What it asked before is not knowledge: an answer may be false, and
«не обнаружена» tells nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from typing import Any

from strategia.core.errors import StrategiaError
from strategia.engine.result import Result
from strategia.engine.state import GameState
from strategia.game.accounts import told
from strategia.game.questions import Question, parse_question
from strategia.game.side_context import side_context
from strategia.game.views import view_for
from strategia.notation.refs import KnownUnits, UnitRef
from strategia.rules import RuleSet
from strategia.rules.kinds import Side


def known_units(
    state: GameState,
    side: str,
    rules: RuleSet,
    results: Iterable[Result] = (),
) -> KnownUnits:
    """The units `side` knows by name: its own, and the enemy's it was shown or told (see the
    module); `results` are the game's results, of which the side's account is taken."""
    side = Side.parse(side).key
    view = view_for(state, side, rules)
    learned = {s.unit for s in view.seen if s.unit is not None}
    learned |= {a.army for a in view.armies} | {a.front for a in view.armies if a.front}
    for r in results:
        account = told(r, side)
        if account is not None and account.battle is not None:
            learned |= {u for f in account.battle.units if (u := _unit(f.unit)) is not None}
    return KnownUnits(side_context(state, side).known_units, frozenset(learned))


@dataclass(frozen=True)
class QuestionContext:
    """What a side's question is read against: the map (its size, places and features) and the
    units the side knows, worked out only when a question leaves a unit's type open."""

    theatre: Any
    width: int
    height: int
    learned: Callable[[], Collection[UnitRef]]

    @property
    def known_units(self) -> Collection[UnitRef]:
        return self.learned()


def question_context(
    state: GameState,
    side: str,
    rules: RuleSet,
    results: Iterable[Result] = (),
) -> QuestionContext:
    """The context `side`'s questions are read against (see `QuestionContext`)."""
    return QuestionContext(
        state.theatre,
        state.width,
        state.height,
        lambda: known_units(state, side, rules, results),
    )


def side_question(
    text: str,
    state: GameState,
    side: str,
    rules: RuleSet,
    results: Iterable[Result] = (),
) -> Question:
    """`text` read as `side`'s question: any designation as written, a bare number completed
    from the side's own knowledge only; a NotationError that names no unit the side does not
    know."""
    return parse_question(text, question_context(state, side, rules, results))


def _unit(text: str) -> UnitRef | None:
    try:
        return UnitRef.parse(text).division
    except StrategiaError:
        return None


__all__ = ["QuestionContext", "known_units", "question_context", "side_question"]
