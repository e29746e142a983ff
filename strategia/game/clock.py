"""The planning clock (1.9, 5.2): how long a move may take, and how much of it is left.

A game with a clock gives each move the level's time from the rules: at levels 1-2 (1.9 is a
level-2 rule) `turn_order.clock_move` (reconstructed: 1.9 says three to five minutes), at level 3
`clock_level3` for every side at once; the first move of each side has the planning time of 5.2
(`planning_minutes`) when `planning_first_move` holds. The mediator may set another time per move
when the game is made, and extend a move (journalled); time not used is not carried over ("без
накопления", 1.9). Pure functions over the journal's entries and the rules.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

from strategia.core.errors import InactiveRuleError
from strategia.game.store import Entry
from strategia.rules import RuleSet


def utc_now() -> dt.datetime:
    """The time now (UTC), as the journal's entries are stamped."""
    return dt.datetime.now(dt.UTC)


@dataclass(frozen=True, slots=True)
class Clock:
    """The clock of the move in progress: its time (minutes, the extensions included), when it
    began, and the rule the time comes from."""

    minutes: float
    extended: float
    began: dt.datetime
    rule: str

    def left(self, now: dt.datetime | None = None) -> float:
        """Seconds left (0 once the time is up)."""
        at = now if now is not None else utc_now()
        return max(0.0, self.minutes * 60 - (at - self.began).total_seconds())

    def up(self, now: dt.datetime | None = None) -> bool:
        return self.left(now) <= 0


def move_minutes(
    rules: RuleSet, level: int, first: bool, override: float = 0.0
) -> tuple[float, str]:
    """The time of one move and its rule: the planning time for a side's first move (5.2), else
    `override` if set, else the level's time (1.9). Raises InactiveRuleError at level 1."""
    per_move = (
        rules.value("turn_order", "clock_level3")
        if level >= 3
        else rules.value("turn_order", "clock_move")
    )
    if first and rules.value("turn_order", "planning_first_move"):
        return float(rules.value("turn_order", "planning_minutes")), "5.2"
    return (float(override) if override > 0 else float(per_move)), "1.9"


def clock_of(
    entries: Sequence[Entry], rules: RuleSet, level: int, sides: int, override: float = 0.0
) -> Clock | None:
    """The clock of the move in progress, from the journal of a game of `sides` sides (None if
    the game has not begun). Levels 1-2: the sides move in turn, so the first `sides` moves are
    each side's first; level 3: the first turn is everyone's first move."""
    began: Entry | None = None
    moves = 0  # moves ended before this one (level 3: turns)
    for e in entries:
        if e.kind in ("game", "end-turn"):
            began = e
            moves += e.kind == "end-turn"
    if began is None:
        return None
    first = moves == 0 if level >= 3 else moves < sides
    minutes, rule = move_minutes(rules, level, first, override)
    after = False
    extended = 0.0
    for e in entries:
        after = after or e is began
        if after and e.kind == "extend":
            extended += float(e.data["minutes"])
    start = dt.datetime.fromisoformat(began.time)
    return Clock(minutes + extended, extended, start, rule)


def check_clock_level(rules: RuleSet) -> None:
    """Raise InactiveRuleError where the level has no clock (1.9 is a level-2 rule)."""
    rules.value("turn_order", "clock_move")


__all__ = ["Clock", "InactiveRuleError", "check_clock_level", "clock_of", "move_minutes"]
