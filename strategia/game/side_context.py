"""What a side's notation is checked against: its own units, corps, armies and fronts (1.6: an
order names only the side's own troops, and a refusal lists no other)."""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import dataclass
from typing import Any

from strategia.engine.state import GameState
from strategia.notation.refs import UnitRef
from strategia.rules.kinds import Side


class OwnUnits(Collection[UnitRef]):
    """A side's own units, corps, armies and fronts, as notation checks them: membership at
    once (a unit by its owner, a command by the order of battle), iteration only when an error
    lists them."""

    __slots__ = ("_commands", "_listed", "_own", "_state")

    def __init__(self, state: GameState, own: frozenset[str]) -> None:
        self._state, self._own = state, own
        self._listed, self._commands = _commands_of(state.scenario, own)

    def __contains__(self, ref: object) -> bool:
        if not isinstance(ref, UnitRef):
            return False
        u = self._state.units.get(ref)
        if u is not None:
            return u.owner in self._own
        if ref in self._commands:
            return True
        if ref not in self._state.known_units:  # no corps of that name on the map
            return False
        return any(u.corps == ref and u.owner in self._own for u in self._state.units.values())

    def __iter__(self) -> Iterator[UnitRef]:
        mine = [u for u in self._state.units.values() if u.owner in self._own]
        refs = [u.ref for u in mine] + [u.corps for u in mine if u.corps is not None]
        return iter(dict.fromkeys([*refs, *self._listed]))

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __bool__(self) -> bool:
        return bool(self._commands) or any(u.owner in self._own for u in self._state.units.values())


def _commands_of(
    scenario: Any, own: frozenset[str]
) -> tuple[tuple[UnitRef, ...], frozenset[UnitRef]]:
    """The fronts, armies and corps of the order of battle of the states `own`, in its order
    (kept with the scenario, which does not change)."""
    kept = scenario.__dict__.setdefault("_commands_of", {})
    if own not in kept:
        commands: list[UnitRef] = []
        for f in scenario.forces:
            if f.state in own:
                commands += [x.ref for x in f.fronts] + [x.ref for x in f.armies]
                commands += [x.ref for x in f.corps]
        listed = tuple(dict.fromkeys(commands))
        kept[own] = (listed, frozenset(listed))
    return kept[own]  # type: ignore[no-any-return]


@dataclass(frozen=True)
class SideContext:
    """What a side's orders and questions are read against: the map's size and the side's own
    units, corps, armies and fronts only, so that naming an enemy unit reads exactly as naming
    one that does not exist (1.6)."""

    width: int
    height: int
    known_units: Collection[UnitRef]


def side_context(state: GameState, side: str) -> SideContext:
    """The context `side`'s notation is checked against (see `SideContext`)."""
    side = Side.parse(side).key
    own = frozenset(s.code for s in state.scenario.states if s.side == side)
    return SideContext(state.width, state.height, OwnUnits(state, own))


__all__ = ["OwnUnits", "SideContext", "side_context"]
