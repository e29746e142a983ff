"""A side's debrief at the start of its move: what happened to it since its last move, read
from what the side may know only (its channel: what it was told, its own units, its view).

- what it was told since (the enemy's blows and strikes on it as it saw them, the answers to
  its questions, the mediator's announcements, the start of the war, its sealed orders' fate);
- its own losses: each of its divisions weaker than when its last move ended, or destroyed;
- the divisions that arrived (mobilisation, 6.4);
- the enemy units it identified since (named in its view now, not then).

"Since its last move": after the End turn that ended the side's previous move (levels 1-2); at
level 3, where every side's orders are carried out at the End turn, since the End turn before
the last one, so that the debrief tells the turn just carried out. Rendering is in
`debrief_render`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from strategia.engine.state import GameState, UnitState
from strategia.game.channel import SideChannel
from strategia.game.views import view_for

EPSILON = 1e-9


@dataclass(frozen=True)
class Loss:
    """One of the side's divisions weaker than before (strength 1.0 = a whole division)."""

    unit: str  # as the journal writes it (21 т.д.)
    before: float
    after: float  # 0 when destroyed

    @property
    def destroyed(self) -> bool:
        return self.after <= EPSILON

    def to_json(self) -> dict[str, Any]:
        return {"unit": self.unit, "before": self.before, "after": self.after,
                "destroyed": self.destroyed}  # fmt: skip


@dataclass(frozen=True)
class Identified:
    """An enemy unit the side identified since its last move, where it saw it."""

    unit: str
    cells: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"unit": self.unit, "cells": list(self.cells)}


@dataclass(frozen=True)
class Debrief:
    """What happened to `side` between entry `since` (its last move's end) and now."""

    side: str
    turn: int  # the turn now
    since: int  # the journal entry after which it counts (1: the game's start): the mediator's
    since_turn: int
    since_told: int  # the side's own journal's items up to there (what it was told of, only)
    told: tuple[dict[str, Any], ...]  # items of `SideChannel.told`
    losses: tuple[Loss, ...]
    arrived: tuple[str, ...]
    identified: tuple[Identified, ...]

    @property
    def empty(self) -> bool:
        return not (self.told or self.losses or self.arrived or self.identified)

    def to_json(self) -> dict[str, Any]:
        return {
            "side": self.side,
            "turn": self.turn,
            # the side's own count: its journal's items before (never the whole journal's
            # entries, which would count the enemy's orders and questions, 1.6)
            "since": {"entry": self.since_told, "turn": self.since_turn},
            "told": list(self.told),
            "losses": [x.to_json() for x in self.losses],
            "arrived": list(self.arrived),
            "identified": [x.to_json() for x in self.identified],
        }


def last_move_end(ch: SideChannel) -> int:
    """The entry the side's debrief counts from (see the module)."""
    g = ch.game
    ends = g.journal.seqs("end-turn")
    if g.simultaneous:
        return ends[-2] if len(ends) >= 2 else 1
    for seq in reversed(ends):
        if g.journal.entry(seq).data.get("side") == ch.side:
            return seq
    return 1


def debrief(ch: SideChannel) -> Debrief:
    """The side's debrief now (see the module)."""
    g = ch.game
    since = last_move_end(ch)
    then = g.state_after(since) if since > 1 else g.start
    entries = ch.told_entries()
    told = tuple(d for seq, d in entries if seq > since and d["kind"] != "sealed")
    asked_then: list[dict[str, Any]] = [
        {k: d[k] for k in ("turn", "question", "answer") if k in d}
        for seq, d in entries
        if seq <= since and d["kind"] == "answer"
    ]
    seen_then = _identified(view_for(then, ch.side, g.rules, asked_then).seen)
    seen_now = _identified(ch.view().seen)
    return Debrief(
        side=ch.side,
        turn=g.state.turn,
        since=since,
        since_turn=then.turn,
        since_told=sum(1 for seq, d in entries if seq <= since and d["kind"] != "sealed"),
        told=told,
        losses=_losses(_own(then, ch.side), _own(g.state, ch.side)),
        arrived=tuple(sorted(set(_own(g.state, ch.side)) - set(_own(then, ch.side)), key=_key)),
        identified=tuple(
            Identified(unit, cells)
            for unit, cells in sorted(seen_now.items(), key=_by_unit)
            if unit not in seen_then
        ),
    )


def _own(state: GameState, side: str) -> dict[str, UnitState]:
    return {str(u.ref): u for u in state.units.values() if state.side_of(u.ref) == side}


def _losses(then: dict[str, UnitState], now: dict[str, UnitState]) -> tuple[Loss, ...]:
    out = []
    for name in sorted(then, key=_key):
        before = then[name].division.strength
        unit = now.get(name)
        after = 0.0 if unit is None or unit.division.destroyed else unit.division.strength
        if after < before - EPSILON:
            out.append(Loss(name, round(before, 6), round(after, 6)))
    return tuple(out)


def _identified(seen: Any) -> dict[str, tuple[str, ...]]:
    return {str(s.unit): tuple(str(c) for c in s.cells) for s in seen if s.unit is not None}


def _key(name: str) -> tuple[int, str]:
    head = name.split(" ", 1)
    return (int(head[0]), name) if head[0].isdigit() else (0, name)


def _by_unit(item: tuple[str, tuple[str, ...]]) -> tuple[int, str]:
    return _key(item[0])


__all__ = ["Debrief", "Identified", "Loss", "debrief", "last_move_end"]
