"""The one way every order is carried out: `apply(state, order, rules)`, and the turn's advance.

The console, the command line, the teaching notebooks and the tests all come through here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from strategia.engine.columns import continue_column, march, transfer
from strategia.engine.facing import frontage, turn
from strategia.engine.movement import move
from strategia.engine.result import OrderError, Result
from strategia.explain import explain
from strategia.i18n import Text
from strategia.orders import Frontage, March, Move, Order, Transfer, Turn
from strategia.rules import RuleSet
from strategia.state import GameState, UnitState

HANDLERS: dict[type, Callable[[GameState, Any, RuleSet], tuple[GameState, Result]]] = {
    Move: move,
    Turn: turn,
    Frontage: frontage,
    March: march,
    Transfer: transfer,
}


def apply(
    state: GameState, order: Order, rules: RuleSet, side: str | None = None
) -> tuple[GameState, Result]:
    """Carry out `order` for `side` (if given): the new state and what happened.

    Raises OrderError, changing nothing, for an order that makes no sense at all: a unit that is
    not on the map, or that belongs to another side.
    """
    if order.unit not in state.units:
        raise OrderError(f"{order}: {order.unit} is not on the map")
    owner_side = state.side_of(order.unit)
    if side is not None and owner_side != side:
        raise OrderError(f"{order}: {order.unit} is {owner_side}'s, not {side}'s")
    handler: Callable[[GameState, Any, RuleSet], tuple[GameState, Result]] | None = HANDLERS.get(
        type(order)
    )
    if handler is None:
        raise OrderError(f"{order}: no rule carries out {type(order).__name__} orders yet")
    return handler(state, order, rules)


def advance(
    state: GameState, rules: RuleSet, sides: set[str] | None = None
) -> tuple[GameState, list[Result]]:
    """A new turn for the units of `sides` (all if None): time resets, work in hand goes on.

    Collided units sit the turn out (4.12); turns, frontage changes and river crossings that
    needed more than one turn finish; marches and transfers reach their next position;
    recovering units regain combat capability (4.5, 4.8).
    """
    changed: list[UnitState] = []
    results: list[Result] = []
    for u in state.units.values():
        if sides is not None and state.scenario.state(u.owner).side not in sides:
            continue
        fresh = replace(u, spent=0.0, road_dropped=False)
        if u.busy is None:
            changed.append(fresh)
            continue
        new = _carry_on(fresh, rules)
        changed.append(new)
        if new.cells != u.cells or new.facing != u.facing or (u.busy and not new.busy):
            results.append(_note(u, new))
    return state.with_units(changed), results


def _carry_on(u: UnitState, rules: RuleSet) -> UnitState:
    b = u.busy
    assert b is not None
    if b.what in ("march", "transfer"):
        return continue_column(u, rules)
    if b.left > 1.0 + 1e-9:
        return replace(u, spent=1.0, busy=replace(b, left=round(b.left - 1.0, 9)))
    done = replace(u, spent=round(b.left, 9), busy=None, combat_capable=True)
    if b.what == "turning" and b.facing is not None:
        return replace(done, facing=b.facing)
    if b.what in ("frontage", "crossing") and b.target:
        return replace(done, cells=b.target)
    return done


def _note(before: UnitState, after: UnitState) -> Result:
    what = before.busy.what if before.busy else ""
    with explain(
        Text(f"{before.ref}: {what} goes on", f"{before.ref}: {what} продолжается"), rule="4.12"
    ) as ex:
        ex.set(after.spent)
    from strategia.engine.movement import _where

    return Result(f"{before.ref} ({what})", _where(after), ex.freeze())
