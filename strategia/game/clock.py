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
    entries: Sequence[Entry], rules: RuleSet, level: int, first: bool, override: float = 0.0
) -> Clock | None:
    """The clock of the move in progress, `first` if it is the sides' first (turn 1), from the
    journal's entries since that move began (None if the game has not begun)."""
    extended = 0.0
    for e in reversed(entries):  # back to the move's start only
        if e.kind in ("game", "end-turn"):
            minutes, rule = move_minutes(rules, level, first, override)
            start = dt.datetime.fromisoformat(e.time)
            return Clock(minutes + extended, extended, start, rule)
        if e.kind == "extend":
            extended += float(e.data["minutes"])
    return None


def check_clock_level(rules: RuleSet) -> None:
    """Raise InactiveRuleError where the level has no clock (1.9 is a level-2 rule)."""
    rules.value("turn_order", "clock_move")


__all__ = ["Clock", "InactiveRuleError", "check_clock_level", "clock_of", "move_minutes"]
