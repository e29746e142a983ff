"""The one way every order is carried out: `apply(state, order, rules)`, and the turn's advance.

The console, the command line, the teaching notebooks and the tests all come through here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from strategia.core.geometry import Cell
from strategia.core.i18n import Text
from strategia.engine import regroup, regroup_done
from strategia.engine.artillery import strike
from strategia.engine.battle import battle
from strategia.engine.columns import continue_column, march, transfer
from strategia.engine.facing import frontage, turn
from strategia.engine.movement import move
from strategia.engine.result import Cut, OrderError, Result
from strategia.engine.state import GameState, UnitState, where
from strategia.explain.trace import explain
from strategia.notation.orders import (
    Attack,
    FormCorps,
    Frontage,
    March,
    Merge,
    Move,
    Order,
    Strike,
    Transfer,
    TransferDivision,
    TransferRegiment,
    Turn,
)
from strategia.notation.refs import UnitRef
from strategia.rules import RuleSet

Handler = Callable[[GameState, Any, RuleSet], tuple[GameState, Result]]

HANDLERS: dict[type[Order], Handler] = {
    Move: move,
    Turn: turn,
    Frontage: frontage,
    March: march,
    Transfer: transfer,
    Attack: battle,
    Strike: strike,
    FormCorps: regroup.regroup,
    Merge: regroup.regroup,
    TransferRegiment: regroup.transfer_regiment,
    TransferDivision: regroup.transfer_division,
}
BY_ONE_DIVISION = (FormCorps, Merge, TransferRegiment, TransferDivision)  # never a corps' order


def acting_unit(order: Order) -> UnitRef:
    """The unit whose side gives the order: for a corps passing a division, the division."""
    return order.division if isinstance(order, TransferDivision) else order.unit


def apply(
    state: GameState, order: Order, rules: RuleSet, side: str | None = None
) -> tuple[GameState, Result]:
    """Carry out `order` for `side` (if given): the new state and what happened.

    Raises OrderError, changing nothing, for an order that makes no sense at all: a unit that is
    not on the map, or that belongs to another side.
    """
    handler = HANDLERS.get(type(order))
    if handler is None:
        raise OrderError(f"{order}: no rule carries out {type(order).__name__} orders yet")
    ref = acting_unit(order)
    if not isinstance(order, BY_ONE_DIVISION) and (members := corps_members(state, ref)):
        return _corps_order(state, order, rules, side, members)
    if ref not in state.units:
        raise OrderError(f"{order}: {ref} is not on the map")
    owner_side = state.side_of(ref)
    if side is not None and owner_side != side:
        raise OrderError(f"{order}: {ref} is {owner_side}'s, not {side}'s")
    return handler(state, order, rules)


def corps_members(state: GameState, ref: UnitRef) -> list[UnitState]:
    """The divisions now under a corps (empty for a division)."""
    if ref.echelon != "corps":
        return []
    return [u for u in state.units.values() if u.corps == ref]


def _corps_order(
    state: GameState, order: Order, rules: RuleSet, side: str | None, members: list[UnitState]
) -> tuple[GameState, Result]:
    """A corps' order carried out division by division: a move shifts every division by the
    same offset, the ones nearest the goal first (reconstructed: the seeds order corps but say
    nothing more of how); other orders go to every division as given."""
    lead = min(members, key=lambda u: u.cell.km(getattr(order, "to", u.cell)))
    title = Text(
        f"Order to {order.unit}: {len(members)} divisions",
        f"Приказ {order.unit}: {len(members)} дивизии",
    )
    outcomes: list[Text] = []
    cuts: list[Cut] = []
    with explain(title, rule="4.7") as ex:
        for u in sorted(members, key=lambda m: m.cell.km(getattr(order, "to", m.cell))):
            if isinstance(order, Move):
                d_lon, d_lat = lead.cell.offset(order.to)
                to = Cell(u.cell.lon + d_lon, u.cell.lat + d_lat)
                sub_order: Order = replace(order, unit=u.ref, to=to, via=())
            else:
                sub_order = replace(order, unit=u.ref)  # type: ignore[type-var]
            state, r = apply(state, sub_order, rules, side)  # its explanation nests under ours
            outcomes.append(r.outcome)
            cuts += r.cuts
        ex.set(len(members))
    outcome = Text("; ".join(t.en for t in outcomes), "; ".join(t.ru for t in outcomes))
    return state, Result(order.format("ru"), outcome, ex.freeze(), tuple(cuts))


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
        if u.busy.what == "regrouping":
            continue  # regroup.complete reports it
        if new.cells != u.cells or new.facing != u.facing or (u.busy and not new.busy):
            results.append(_note(u, new))
    after = state.with_units(changed)
    after, done = regroup_done.complete(after, rules, before=state)
    return after, results + done


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
    return Result(f"{before.ref} ({what})", where(after), ex.freeze())
