"""The mediator's truth view (issue 28): a side's picture of the enemy beside the truth.

For the side chosen: the enemy units it has in sight now (right by their nature), the units it
believes in where they are not (its last-known marks, `last_known`, whose cells are not where
the unit is now, or a unit no longer on the map), the marks that still hold, the enemy units it
does not know of at all, and the answers it was given that were false (8.3). For the mediator
only: a side never receives it (it is the truth).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from strategia.game.channel import channel
from strategia.game.game import Game
from strategia.game.last_known import LastSeen, last_known


@dataclass(frozen=True)
class Belief:
    """A last-known mark beside where the unit really is (no cells: no longer on the map)."""

    mark: LastSeen
    actual: tuple[str, ...]

    @property
    def right(self) -> bool:
        return tuple(str(c) for c in self.mark.cells) == self.actual

    def to_json(self) -> dict[str, Any]:
        return {**self.mark.to_json(), "actual": list(self.actual), "right": self.right}


@dataclass(frozen=True)
class Truth:
    """A side's picture of the enemy against the truth (see the module)."""

    side: str
    in_sight: tuple[str, ...]
    beliefs: tuple[Belief, ...]
    unknown: tuple[tuple[str, tuple[str, ...]], ...]  # unit, where it is
    false_answers: tuple[dict[str, Any], ...]  # turn, question, answer given, the truth

    @property
    def wrong(self) -> tuple[Belief, ...]:
        return tuple(b for b in self.beliefs if not b.right)

    def to_json(self) -> dict[str, Any]:
        return {
            "side": self.side,
            "in_sight": list(self.in_sight),
            "beliefs": [b.to_json() for b in self.beliefs],
            "unknown": [{"unit": u, "cells": list(c)} for u, c in self.unknown],
            "false_answers": list(self.false_answers),
        }


def truth_view(game: Game, side: str) -> Truth:
    """`side`'s picture of the enemy beside the truth, now."""
    ch = channel(game, side)
    state = game.state
    enemy = {
        str(u.ref): tuple(str(c) for c in u.cells)
        for u in state.units.values()
        if state.side_of(u.ref) != side and not u.division.destroyed
    }
    sight = sorted({str(s.unit) for s in ch.view().seen if s.unit is not None} & set(enemy))
    marks = last_known(ch)
    known = set(sight) | {m.unit for m in marks}
    false: tuple[dict[str, Any], ...] = tuple(
        {k: a[k] for k in ("turn", "question", "answer", "truth") if k in a}
        for a in game.answers
        if a.get("side") == side and not a.get("true", True)
    )
    return Truth(
        side=side,
        in_sight=tuple(sight),
        beliefs=tuple(Belief(m, enemy.get(m.unit, ())) for m in marks),
        unknown=tuple((u, c) for u, c in sorted(enemy.items()) if u not in known),
        false_answers=false,
    )


__all__ = ["Belief", "Truth", "truth_view"]
