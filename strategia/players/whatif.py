"""The engine's own what-if on the side's picture: a `GameState` of what the side knows, and
the engine's functions run on it (`battle.battle`, `artillery.strike`, `apply` for any order).

The state holds the side's own units as they are and each enemy it knows of as a division of
the kind seen (с.д. when not known) at full strength, at its last-known cells, facing as seen
(else the way its state's troops face, 6.3). A blow's expected result is the battle the engine
fights on that state; an order is tried on it before it is given, so that an order the engine
would cut (9.3) or refuse is not given at all. What the side does not know (an enemy's losses,
a counter it has not found) is not in the state, and may make the game's result differ.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from strategia.core.errors import StrategiaError
from strategia.core.geometry import Cell
from strategia.core.layered import Layered
from strategia.engine.apply import apply
from strategia.engine.result import Cut, Result
from strategia.engine.state import GameState, UnitState
from strategia.explain.trace import heads_only, quiet
from strategia.notation.orders import Attack, Order
from strategia.notation.refs import UnitRef
from strategia.players.picture import Picture
from strategia.rules import RuleSet
from strategia.rules.kinds import DivisionKind, Formation
from strategia.rules.units import Division, new_division
from strategia.theatre.scenario import Scenario

FAKE = 900_001  # the numbers given to enemy counters known by position only


@dataclass(frozen=True)
class Tried:
    """An order tried on the picture: the state after it, its result (None: refused, with
    `refused` saying why), and what it cost each side in divisions of level-1 rating (9.6)."""

    order: Order
    state: GameState
    result: Result | None
    refused: str = ""
    enemy_lost: float = 0.0
    own_lost: float = 0.0

    @property
    def cuts(self) -> tuple[Cut, ...]:
        return self.result.cuts if self.result is not None else ()

    @property
    def clean(self) -> bool:
        """Carried out on the picture whole: neither refused nor cut (9.3)."""
        return self.result is not None and not self.result.cuts

    @property
    def fording(self) -> bool:
        """Carried out but for a river crossing begun, to go on next turn (table 4)."""
        cuts = self.cuts
        return self.result is not None and bool(cuts) and all(c.rule == "table 4" for c in cuts)

    @property
    def ratio(self) -> float | None:
        """The engine's force ratio of a battle (first echelons with support, 9.8)."""
        b = self.result.battle if self.result is not None else None
        if b is None or b.defence <= 0:
            return None
        return round(b.attack / b.defence, 3)

    @property
    def outcome(self) -> str:
        b = self.result.battle if self.result is not None else None
        return b.outcome if b is not None else ""


def picture_state(
    sc: Scenario, rules: RuleSet, picture: Picture, level: int, war_with: Iterable[str] = ()
) -> GameState:
    """The side's picture as a game state (see the module)."""
    units: dict[UnitRef, UnitState] = {u.ref: u for u in picture.own}
    taken = {c for u in picture.own for c in u.cells}
    n = FAKE
    for k in picture.enemies:
        if any(c in taken for c in k.cells):
            continue
        ref = k.ref
        if ref is None or ref in units or ref.regiment is not None:
            ref, n = UnitRef(n, k.kind), n + 1
        units[ref] = UnitState(
            ref=ref,
            owner=k.owner,
            division=full_division(ref.number, k.kind, rules),
            cells=k.cells,
            facing=k.facing or sc.default_facing(k.owner, k.cell),
            formation=k.formation or Formation.LINEAR,
        )
    own = {u.owner for u in picture.own}
    wars = frozenset((min(a, b), max(a, b)) for a in own for b in war_with if a != b)
    return GameState(
        scenario=sc,
        level=level,
        turn=picture.turn,
        units=Layered(units),
        at_war=picture.at_war,
        wars=wars if picture.at_war else frozenset(),
        engaged=picture.engaged,
    )


_FULL: dict[tuple[DivisionKind, int], tuple[RuleSet, Division]] = {}


def full_division(number: int, kind: DivisionKind, rules: RuleSet) -> Division:
    """A division of `kind` at full strength (table 1), numbered `number`."""
    key = (kind, id(rules))
    if key not in _FULL or _FULL[key][0] is not rules:
        _FULL[key] = (rules, new_division(1, kind, rules))
    return replace(_FULL[key][1], number=number)


def rating(kind: DivisionKind, rules: RuleSet) -> float:
    """A division's level-1 rating at full strength (9.6), what scoring counts it for."""
    with quiet():
        return float(rules.param("initial_ratings", kind.key, "rating").value)


def strength(state: GameState, refs: Iterable[UnitRef], rules: RuleSet) -> float:
    """The units' level-1 ratings times their strength (9.6), summed."""
    total = 0.0
    for r in refs:
        u = state.units.get(r)
        if u is not None:
            total += rating(u.division.kind, rules) * u.division.strength
    return total


def attempt(
    state: GameState, order: Order, rules: RuleSet, side: str, losses: bool = False
) -> Tried:
    """`order` carried out on `state` by the engine, as the side would give it; with `losses`,
    what it cost each side (of the units on and around its target, and its own)."""
    try:
        with heads_only():  # its cuts and battle are read, not its explanation
            new, result = apply(state, order, rules, side)
    except StrategiaError as e:
        return Tried(order, state, None, str(e))
    if not losses:
        return Tried(order, new, result)
    refs = set(_named(order))
    target = getattr(order, "target", None)
    if isinstance(target, Cell):
        refs |= {u.ref for u in state.beside([target])}
    own = [r for r in refs if r in state.units and state.side_of(r) == side]
    theirs = [r for r in refs if r in state.units and state.side_of(r) != side]
    own_lost = strength(state, own, rules) - strength(new, own, rules)
    enemy_lost = strength(state, theirs, rules) - strength(new, theirs, rules)
    return Tried(order, new, result, "", round(enemy_lost, 6), round(own_lost, 6))


def _named(order: Order) -> list[UnitRef]:
    """The units an order names (a blow's attackers and supporters, else its unit)."""
    if isinstance(order, Attack):
        return [*order.attackers, *order.support]
    return [order.unit]


def free_cells(state: GameState, cells: Iterable[Cell]) -> list[Cell]:
    """The cells no counter stands on."""
    return [c for c in cells if not state.occupants(c)]


__all__ = ["FAKE", "Tried", "attempt", "full_division", "picture_state", "rating", "strength"]
