"""The one way every order is carried out: `apply(state, order, rules)`, and the turn's advance.

The console, the command line, the teaching notebooks and the tests all come through here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from strategia.core.collector import pausing_collector
from strategia.core.i18n import Text
from strategia.engine import conditions, refusals, regiments, regroup, regroup_done, statutes
from strategia.engine.artillery import strike
from strategia.engine.capability import at_work, carry_on
from strategia.engine.columns import column_turn, march, transfer
from strategia.engine.corps import corps_order
from strategia.engine.facing import frontage, reform, turn
from strategia.engine.result import Cut, OrderError, Result
from strategia.engine.state import Busy, GameState, UnitState, where
from strategia.explain.trace import explain, record
from strategia.notation.orders import (
    Attack,
    FaceRegiments,
    FormCorps,
    FormDivision,
    Frontage,
    March,
    Merge,
    Move,
    Order,
    Reform,
    SplitDivision,
    Statute,
    Strike,
    Transfer,
    TransferDivision,
    TransferRegiment,
    Turn,
)
from strategia.notation.refs import UnitRef
from strategia.rules import RuleSet
from strategia.rules.english import en
from strategia.rules.kinds import Formation, RegimentsFacing, side_name

Handler = Callable[[GameState, Any, RuleSet], tuple[GameState, Result]]

HANDLERS: dict[type[Order], Handler] = {
    Move: statutes.move,
    Turn: turn,
    Frontage: frontage,
    March: march,
    Transfer: transfer,
    Attack: statutes.blow,
    Strike: strike,
    FormCorps: regroup.regroup,
    Merge: regroup.regroup,
    TransferRegiment: regroup.transfer_regiment,
    TransferDivision: regroup.transfer_division,
    SplitDivision: regiments.split,
    Reform: reform,
    FaceRegiments: reform,
    FormDivision: regiments.form_division,
    Statute: statutes.record_statute,
}
WHOLE = (Attack, Statute)  # orders for a formation as a whole, never split among a corps' divisions
BY_ONE_DIVISION = (  # never a corps' order
    FormCorps,
    Merge,
    TransferRegiment,
    TransferDivision,
    SplitDivision,
    FormDivision,
)


def acting_unit(order: Order) -> UnitRef:
    """The unit whose side gives the order: for a corps passing a division, the division."""
    return order.division if isinstance(order, TransferDivision) else order.unit


def apply(
    state: GameState, order: Order, rules: RuleSet, side: str | None = None
) -> tuple[GameState, Result]:
    """Carry out `order` for `side` (if given): the new state and what happened.

    Raises OrderError, changing nothing, for an order that makes no sense at all: a unit that is
    not on the map, or that belongs to another side; or one of which nothing at all could be
    carried out (`refusals`: a garrison ordered to move, a blow no named unit is beside, a move
    whose first step breaks 4.2, an order of a rule above the game's level, a transfer not
    between cities).
    """
    return _apply(state, order, rules, side, check=True)


def _carry_out(
    state: GameState, order: Order, rules: RuleSet, side: str | None = None
) -> tuple[GameState, Result]:
    """`apply` for a corps' division: its share is cut as far as the rules go, never refused."""
    return _apply(state, order, rules, side, check=False)


def _apply(
    state: GameState, order: Order, rules: RuleSet, side: str | None, check: bool
) -> tuple[GameState, Result]:
    handler = HANDLERS.get(type(order))
    if handler is None:
        raise OrderError(
            en(f"{order.format('en')}: no rule carries out {type(order).__name__} orders yet"),
            ru=f"{order}: такие приказы пока не исполняются",
        )
    ref = acting_unit(order)
    if side is not None:
        _own_or_refuse(state, order, ref, side)
    if check:
        refusals.above_level(order, rules)
    if isinstance(order, WHOLE):  # the handler reads a corps named in it (9.8, 5.9)
        members = corps_members(state, ref)
        lead = members[0].ref if members else ref if ref in state.units else ref.division
        if isinstance(order, Attack):
            if check:
                refusals.blow_beside(state, order)
            return _blow(state, order, rules, lead)
        new, r = handler(state, order, rules)
        return new, r.of_side(state.side_of(lead))
    if not isinstance(order, BY_ONE_DIVISION) and (members := corps_members(state, ref)):
        if check and isinstance(order, Move):
            refusals.sector(order, members, rules)
        if check and isinstance(order, Transfer):
            refusals.transfer_cities(state, order, members)
        new, r = corps_order(state, order, rules, side, members, _carry_out)
        return new, r.of_side(state.side_of(members[0].ref))
    if ref not in state.units and ref.regiment is not None:
        ref = ref.division  # a regiment of a division on the map (9.8c: part of a division)
    if ref not in state.units:
        raise OrderError(
            en(f"{order.format('en')}: {ref} is not on the map"), ru=f"{order}: {ref} нет на карте"
        )
    refusals.garrison(order, ref, rules)
    if check and isinstance(order, Move):
        refusals.sector(order, [state.unit(ref)], rules)
    if check and isinstance(order, Transfer):
        refusals.transfer_cities(state, order, [state.unit(ref)])
    if (short := conditions.short_of(state, order, ref)) is not None:
        return state, conditions.cut_to_nothing(state, order, ref, short).of_side(
            state.side_of(ref)
        )
    new, r = handler(state, order, rules)
    return new, r.of_side(state.side_of(ref))


def _blow(
    state: GameState, order: Attack, rules: RuleSet, lead: UnitRef
) -> tuple[GameState, Result]:
    """A blow by the attackers that have not used their move (`conditions.without_spent`)."""
    if lead not in state.units:  # the battle names what is missing
        new, r = statutes.blow(state, order, rules)
        return new, r.of_side(state.side_of(lead))
    side = state.side_of(lead)
    left, cuts = conditions.without_spent(state, order)
    if left is None:
        return state, conditions.cut_to_nothing(state, order, lead, cuts[0]).of_side(side)
    new, r = statutes.blow(state, left, rules)
    if cuts:
        r = Result(order.format("ru"), r.outcome, r.explanation, (*cuts, *r.cuts), r.battle, side)
    return new, r.of_side(side)


def _own_or_refuse(state: GameState, order: Order, ref: UnitRef, side: str) -> None:
    """Refuse an order of `side` for a unit not its own in the same words whether the unit is
    the enemy's or not there at all (1.6: a refusal tells nothing of the enemy)."""
    members = corps_members(state, ref)
    unit = ref if ref in state.units or ref.regiment is None else ref.division
    owners = {state.side_of(m.ref) for m in members} or (
        {state.side_of(unit)} if unit in state.units else set()
    )
    if owners != {side}:
        raise OrderError(
            en(f"{order.format('en')}: {side_name(side, 'en')} has no unit {ref} on the map"),
            ru=f"{order}: у {side_name(side, 'ru', 'gen')} нет {ref} на карте",
        )


def corps_members(state: GameState, ref: UnitRef) -> list[UnitState]:
    """The divisions now under a corps (empty for a division)."""
    if ref.echelon != "corps":
        return []
    return [u for u in state.units.values() if u.corps == ref]


@pausing_collector  # every unit made anew
def advance(
    state: GameState, rules: RuleSet, sides: set[str] | None = None
) -> tuple[GameState, list[Result]]:
    """A new turn for the units of `sides` (all if None): time resets, work in hand goes on.

    Work goes on by `capability.carry_on`: collided units sit the whole turn out (4.12), turns,
    frontage changes and river crossings that needed more than one turn finish, marches and
    transfers reach their next position, recovering units regain combat capability once their
    lost turn is over (4.5, 4.8, 9.17).
    """
    changed: list[UnitState] = []
    gone: list[UnitRef] = []
    results: list[Result] = []
    for u in state.units.values():
        if sides is not None and state.scenario.state(u.owner).side not in sides:
            continue
        if u.busy is None:
            if u.spent != 0.0 or u.road_dropped:  # (one with its turn whole stays as it is)
                changed.append(u.but(spent=0.0, road_dropped=False))
            continue
        fresh = u.but(spent=0.0, road_dropped=False)
        if u.busy.what in ("march", "transfer"):
            moved, fired = column_turn(state, fresh, rules)
            if moved is None:
                gone.append(u.ref)
            else:
                changed.append(moved)
            results += [fired.of_side(state.side_of(u.ref))] if fired is not None else []
            if moved is not None and fired is None and moved.cells != u.cells:
                results.append(_note(state, u, moved, None))
            continue
        new, why = _carry_on(state, fresh, rules)
        changed.append(new)
        if u.busy.what == "regrouping":
            continue  # regroup.complete reports it
        if new.cells != u.cells or new.facing != u.facing or not new.busy:
            results.append(_note(state, u, new, why))
    after = state.with_units(changed, gone)
    after, done = regroup_done.complete(after, rules, before=state)
    return after, results + done


def _carry_on(state: GameState, u: UnitState, rules: RuleSet) -> tuple[UnitState, Cut | None]:
    """A turn of the unit's work, and why its end could not be carried out, if it could not."""
    b = u.busy
    assert b is not None
    new, over = carry_on(u, rules)
    if over and b.what in ("frontage", "crossing") and b.target:
        rule, shared = ("4.6", False) if b.what == "frontage" else ("table 4", True)
        for c in b.target:
            if c not in u.cells and (why := conditions.cell_open(state, u, c, rule, shared, rules)):
                return new, why  # the cell is no longer open to it: it stays where it stands
    return _finished(new, b, over, rules), None


def _finished(new: UnitState, b: Busy, over: bool, rules: RuleSet) -> UnitState:
    """The unit as the work `b` leaves it (done, if `over`)."""
    if over and b.then:  # the work that follows (after a march, joining: 4.11)
        rest = round(max(float(b.then[1]) - new.left, 0.0), 9)
        work = Busy(str(b.then[0]), rest, plan=tuple(b.then[2:]))
        return at_work(replace(new, spent=1.0), work, rules)
    if over and b.what == "reforming" and b.plan:
        if b.plan[0] == "formation":
            return replace(new, formation=Formation.from_key(str(b.plan[1])))
        return replace(new, regiments=RegimentsFacing.from_key(str(b.plan[1])))
    if over and b.what == "turning" and b.facing is not None:
        return replace(new, facing=b.facing)
    if over and b.what in ("frontage", "crossing") and b.target:
        return replace(new, cells=b.target)
    return new


def _note(state: GameState, before: UnitState, after: UnitState, why: Cut | None) -> Result:
    what = before.busy.label if before.busy else Text("")
    with explain(
        Text(en(f"{before.ref}: {what.en} goes on"), f"{before.ref}: {what.ru} продолжается"),
        rule="4.12",
    ) as ex:
        if why is not None:
            record(why.reason, None, kind="cut", rule=why.rule)
        ex.set(after.spent)
    by = state.side_of(before.ref)
    cuts = () if why is None else (why,)
    return Result(f"{before.ref} ({what.ru})", where(after), ex.freeze(), cuts, by=by)
