"""What an order needs of its units when it is carried out: one table, checked in one place.

Every order passes `apply` (`strategia.engine.apply`), and `apply` asks `short_of` before any
handler runs, so a condition is checked when the order is carried out (at level 3, when the turn
is; 1.7), never only when it was given. An order whose acting unit lacks what the order needs is
carried out «в пределах возможного» (9.3): as far as nothing at all, with the rule in the
mediator's record (`cut_to_nothing`), and the handler is not called. A blow's attackers are
checked one by one (`without_spent`): those that have used their move take no part, and a blow
none of whose attackers may strike is cut to nothing as well.

The needs (`NEEDS`):

- a share of the unit's move this turn: any part of it for a move, a turn, a change of frontage or
  formation, forming up for a march, an artillery strike (9.7: fire takes the rest of the
  battery's turn) and a blow (4.2-4.4, 4.6, 4.8, 9.6, 9.8: an attack takes the rest of the
  attackers' turn, so a division strikes once a move); a whole turn for a rail transfer (4.5: it
  begins with a whole turn);
- nothing of the turn for a regrouping (4.9-4.11: it takes whole turns of its own, begun from the
  next if this one is used) and a movement statute (5.9: a standing order, no action).

Work that lasts several turns is checked again when each turn of it is carried out
(`cell_open`): a change of frontage or a river crossing ends on its cell only if the cell is
still free and passable (4.6, 4.12), and a march goes on only along a road free of the enemy
(4.8, `strategia.engine.columns.column_turn`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from strategia.core.geometry import Cell
from strategia.core.i18n import Text
from strategia.core.numbers import turns
from strategia.engine.costs import speeds
from strategia.engine.result import Cut, Result
from strategia.engine.state import GameState, UnitState, where
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
from strategia.theatre import terrain
from strategia.theatre.terrain import Relief


class Share(Enum):
    """How much of its move this turn a unit needs to carry an order out."""

    NONE = "none"  # takes no time of this turn (a statute; a regrouping's whole turns)
    SOME = "some"  # any part of it: the order goes as far as the rest allows
    WHOLE = "whole"  # the whole turn, untouched


@dataclass(frozen=True, slots=True)
class Need:
    """What an order needs of its acting unit when it is carried out, and the rule that says so."""

    share: Share
    rule: str


NEEDS: dict[type[Order], Need] = {
    Move: Need(Share.SOME, "9.3"),
    Turn: Need(Share.SOME, "4.3"),
    Frontage: Need(Share.SOME, "4.6"),
    March: Need(Share.SOME, "4.8"),
    Transfer: Need(Share.WHOLE, "4.5"),
    Attack: Need(Share.SOME, "9.8"),
    Strike: Need(Share.SOME, "9.7"),
    Reform: Need(Share.SOME, "9.6"),
    FaceRegiments: Need(Share.SOME, "9.6"),
    SplitDivision: Need(Share.NONE, "4.9"),
    FormCorps: Need(Share.NONE, "4.10"),
    Merge: Need(Share.NONE, "4.10"),
    FormDivision: Need(Share.NONE, "4.10"),
    TransferRegiment: Need(Share.NONE, "4.11"),
    TransferDivision: Need(Share.NONE, "4.11"),
    Statute: Need(Share.NONE, "5.9"),
}


def lacks_time(u: UnitState, need: Need) -> Cut | None:
    """Why `u` cannot carry out an order needing `need` this turn, or None: busy with work that
    lasts (for a blow: not combat-capable, 9.17), or short of the share of its move it needs."""
    if need.share is Share.NONE:
        return None
    if u.busy is not None:
        doing, still = u.busy.label, (turns(u.busy.left), turns(u.busy.left, "ru"))
        if need.rule == "9.8":
            return Cut(
                Text(
                    en(f"{u.ref} is not combat-capable now ({doing.en})"),
                    f"{u.ref} сейчас небоеспособна ({doing.ru})",
                ),
                "9.17",
            )
        return Cut(
            Text(
                en(f"{u.ref} is busy ({doing.en}, {still[0]} left)"),
                f"{u.ref} занята ({doing.ru}, осталось {still[1]})",
            ),
            "9.3",
        )
    if need.share is Share.WHOLE and u.spent > 0:
        return Cut(
            Text(
                en(f"{u.ref} has used part of this turn: the order needs a whole turn"),
                f"{u.ref} уже использовала часть хода: приказу нужен целый ход",
            ),
            need.rule,
        )
    if u.left > 0:
        return None
    if need.rule == "9.8":
        return Cut(
            Text(
                en(f"{u.ref} has used this turn: an attack takes the rest of a turn, one a move"),
                f"{u.ref} уже использовала ход: атака занимает остаток хода, одна за ход",
            ),
            "9.8",
        )
    return Cut(Text(en(f"{u.ref} has used this turn"), f"{u.ref} уже использовала ход"), need.rule)


def short_of(state: GameState, order: Order, ref: UnitRef) -> Cut | None:
    """Why the unit `ref` (on the map) cannot carry out `order` now, or None."""
    need = NEEDS.get(type(order))
    return None if need is None else lacks_time(state.unit(ref), need)


def cut_to_nothing(state: GameState, order: Order, ref: UnitRef, why: Cut) -> Result:
    """`order` carried out as far as nothing at all (9.3): the unit stays as it is, and the
    mediator's record says why, with the rule."""
    u = state.unit(ref)
    title = Text(en(f"{order.format('en')}: not carried out"), f"{order}: не исполнен")
    with explain(title, rule="9.3", unit="turn") as ex:
        record(why.reason, None, kind="cut", rule=why.rule)
        ex.set(0.0)
    return Result(order.format("ru"), where(u), ex.freeze(), (why,))


def without_spent(state: GameState, order: Attack) -> tuple[Attack | None, list[Cut]]:
    """A blow without the attackers that have used their move (9.8: an attack takes the rest of
    the attackers' turn): the blow left (None if no one may strike) and what was cut. A corps is
    left out only when every one of its divisions has used its move."""
    need = NEEDS[Attack]
    cuts: list[Cut] = []
    echelons: list[tuple[UnitRef, ...]] = []
    for refs in order.echelons:
        kept: list[UnitRef] = []
        for ref in refs:
            units = _units_named(state, ref)
            whys = [w for u in units if (w := lacks_time(u, need)) is not None]
            if units and len(whys) == len(units):
                cuts.append(whys[0])
            else:
                kept.append(ref)
        if kept:
            echelons.append(tuple(kept))
    if not cuts:
        return order, []
    if not echelons:
        return None, cuts
    return Attack(order.target, tuple(echelons), order.support, order.defence, order.pursue), cuts


def _units_named(state: GameState, ref: UnitRef) -> list[UnitState]:
    if ref.echelon == "corps":
        return [u for u in state.units.values() if u.corps == ref]
    unit = ref if ref in state.units or ref.regiment is None else ref.division
    return [state.unit(unit)] if unit in state.units else []


def passable(state: GameState, u: UnitState, cell: Cell, rule: str, rules: RuleSet) -> Cut | None:
    """Why the ground of `cell` is not passable for `u`'s kind (table 4: water, or a relief the
    kind crosses only along roads and trails, where the cell has none), or None."""
    if not terrain.on_map(state.theatre, cell):
        return Cut(Text(en(f"{cell} is off the map"), f"{cell} вне карты"), rule)
    at = terrain.index(state.theatre, cell)
    relief = Relief(int(state.grid.relief[at]))
    if relief == Relief.WATER:
        return Cut(Text(en(f"{cell} is water"), f"{cell} — вода"), rule)
    if speeds(u.division.kind, rules).ground.get(relief, 0.0) > 0 or state.grid.road[at]:
        return None
    return Cut(
        Text(
            en(f"{cell} ({relief.name.lower()}) is impassable for {u.ref} off the roads (table 4)"),
            f"{cell}: местность непроходима для {u.ref} вне дорог (табл. 4)",
        ),
        rule,
    )


def cell_open(
    state: GameState, u: UnitState, cell: Cell, rule: str, shared: bool, rules: RuleSet
) -> Cut | None:
    """Why `u` may not end a turn's work on `cell`, or None: not passable for it (`passable`),
    or taken since the order was given (by an enemy; with `shared` False, by anyone: a 1x2
    card's square, 4.6)."""
    if (why := passable(state, u, cell, rule, rules)) is not None:
        return why
    side = state.side_of(u.ref)
    others = [o for o in state.occupants(cell) if o.ref != u.ref]
    if any(not shared or state.side_of(o.ref) != side for o in others):
        return Cut(
            Text(
                en(f"{cell} is taken: {u.ref} stays where it stands"),
                f"{cell} занята: {u.ref} остается на месте",
            ),
            "4.12",
        )
    return None


__all__ = [
    "NEEDS",
    "Need",
    "Share",
    "cell_open",
    "cut_to_nothing",
    "lacks_time",
    "passable",
    "short_of",
    "without_spent",
]
