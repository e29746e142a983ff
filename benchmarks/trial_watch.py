"""What the computer player's trials watch in a game (`player_trials.py`), read from the game's
true state by the benchmark (never by the player): its blows and fire, its batteries' use of the
targets in their reach, the moves its units undo, and the strength each side loses.

- a *blow* is an order «удар по ...», *fire* an order «... огонь ...» (9.7);
- a battery *has a target in reach* in a move when, at war, an enemy division stands in its
  reach at the game's level (9.7a) on a cell not beside the side's own troops (9.7b): it then
  counts as used if it fires in that move;
- a unit *undoes its previous move* when a move brings it back to the cell it left in its
  previous move (A to B, then B to A);
- a side's *strength lost*: the strength (1.0 a full division) its divisions lost from the most
  they had, the destroyed ones' whole, over the most all its divisions had.
"""

from __future__ import annotations

from typing import Any

from strategia.core.geometry import Cell
from strategia.engine.artillery_reach import in_range
from strategia.engine.state import GameState
from strategia.notation.refs import UnitRef
from strategia.players import Decision
from strategia.rules import RuleSet


class Watch:
    """The figures of one game (see the module), fed before and after each computer move."""

    def __init__(self) -> None:
        self.blows: dict[str, int] = {}
        self.fire: dict[str, int] = {}
        self.gun_moves = 0  # batteries' moves with a target in reach
        self.gun_fired = 0  # ... in which they fired
        self.unit_moves = 0  # units' moves that changed their cell
        self.undone = 0
        self.peak: dict[UnitRef, tuple[str, float]] = {}
        self._last: dict[UnitRef, tuple[Cell, Cell]] = {}  # a unit's last move: from, to
        self._before: dict[UnitRef, Cell] = {}
        self._targets: set[UnitRef] = set()

    def see(self, state: GameState) -> None:
        """Every division's strength, kept at its most."""
        for u in state.units.values():
            side = state.side_of(u.ref)
            old = self.peak.get(u.ref, (side, 0.0))[1]
            self.peak[u.ref] = (side, max(old, u.division.strength))

    def before(self, state: GameState, side: str, rules: RuleSet) -> None:
        self.see(state)
        mine = [u for u in state.units.values() if state.side_of(u.ref) == side]
        self._before = {u.ref: u.cell for u in mine}
        self._targets = set()
        if not state.at_war:
            return
        contact = {
            Cell(c.lon + dx, c.lat + dy)
            for u in mine
            for c in u.cells
            for dx in (-1, 0, 1)
            for dy in (-1, 0, 1)
        }
        enemies = [
            e.cell
            for e in state.units.values()
            if state.side_of(e.ref) not in (side, "green") and e.cell not in contact
        ]
        for u in mine:
            if u.division.kind.key != "artillery" or u.busy is not None or u.left <= 0:
                continue
            if any(in_range(u.cell, c, rules) for c in enemies):
                self._targets.add(u.ref)

    def after(self, state: GameState, side: str, done: list[Decision]) -> None:
        self.see(state)
        orders = [d.order or "" for d in done]
        self.blows[side] = self.blows.get(side, 0) + sum(o.startswith("удар") for o in orders)
        self.fire[side] = self.fire.get(side, 0) + sum(" огонь " in o for o in orders)
        fired = {r for d in done if d.goal.key == "strike" for r in d.units}
        self.gun_moves += len(self._targets)
        self.gun_fired += len(self._targets & fired)
        for ref, was in self._before.items():
            u = state.units.get(ref)
            if u is None or u.cell == was:
                continue
            self.unit_moves += 1
            last = self._last.get(ref)
            if last is not None and last == (u.cell, was):
                self.undone += 1
            self._last[ref] = (was, u.cell)

    def lost(self, state: GameState, side: str) -> float:
        """The share of its strength `side` lost (see the module)."""
        self.see(state)
        most = sum(v for s, v in self.peak.values() if s == side)
        now = {u.ref: u.division.strength for u in state.units.values()}
        gone = sum(v - now.get(r, 0.0) for r, (s, v) in self.peak.items() if s == side)
        return round(gone / most, 4) if most else 0.0

    def figures(self, state: GameState) -> dict[str, Any]:
        return {
            "blows": dict(self.blows),
            "fire": dict(self.fire),
            "gun_moves_with_target": self.gun_moves,
            "gun_fired": self.gun_fired,
            "unit_moves": self.unit_moves,
            "undone": self.undone,
            "lost": {s: self.lost(state, s) for s in ("red", "blue")},
        }


__all__ = ["Watch"]
