"""Orders that would do nothing at all, refused before anything is carried out or journalled.

Rule 9.3 has the mediator carry out an order contrary to the rules «в пределах возможного» and
not tell the player; an order of which nothing at all is possible is refused instead, the way a
bad order is (`OrderError`: the order named, and why, in both languages; nothing written):

- a fortress garrison given a movement order (3.6: its artillery is fixed; garrisons never
  move, `fortresses.garrison_moves`);
- a blow (9.8) on a cell none of the units it names stands beside: none of them can strike it;
- a move forward or a withdrawal whose first leg lies more than 4.2's 30° off the facing (the
  back, for a withdrawal): not a step of it may be taken (`movement_limits.max_deviation`);
- an order of a rule of a higher level than the game's (0.2: splitting into regiments at level
  2, a march at level 1): the rule does not act in this game (`above_level`);
- a transfer (4.5, «между городами») to a cell that is no city, or by a division (every
  division of a corps) that stands in none (`transfer_cities`).

Each refusal reads only the side's own units and the map, never the enemy (1.6): a blow on a
cell with or without an enemy in it is refused in the same words. A corps' order is refused
only when every one of its divisions would be; one division's share that breaks a rule is cut,
as before (9.3). At level 3 an order is checked when the turn is carried out (the garrison, the
level and a transfer's destination at once: nothing changes them), and one refused then is
journalled as void (1.7).
"""

from __future__ import annotations

import math

from strategia.core.geometry import Cell
from strategia.core.numbers import num
from strategia.engine.fighters import member_of
from strategia.engine.forces import stationary
from strategia.engine.result import OrderError
from strategia.engine.state import GameState, UnitState
from strategia.notation.orders import Attack, Move, Order, Transfer
from strategia.notation.refs import UnitRef
from strategia.rules import RuleSet
from strategia.rules.english import en
from strategia.theatre import terrain

MOVING_NAMES = ("Move", "Turn", "Frontage", "March", "Transfer", "Reform", "FaceRegiments")
# The orders of a rule that acts from level 2 or 3 only (0.2): the rule data's entry (and row)
# that says its level, and the rule.
LEVELLED: dict[str, tuple[str, str | None, str]] = {
    "SplitDivision": ("regrouping", "split_turns", "4.9"),
    "FormDivision": ("regrouping", "regiments_to_division", "4.10"),
    "FormCorps": ("regrouping", None, "4.10"),
    "Merge": ("regrouping", None, "4.10"),
    "TransferRegiment": ("regrouping", "transfer_out", "4.11"),
    "TransferDivision": ("regrouping", "transfer_out", "4.11"),
    "Frontage": ("frontage", None, "4.6"),
    "March": ("march", None, "4.8"),
    "Reform": ("formations", None, "9.6"),
    "FaceRegiments": ("formations", None, "9.6"),
}


def garrison(order: Order, ref: UnitRef, rules: RuleSet) -> None:
    """3.6: a movement order to a fortress garrison is refused (it cannot be carried out at
    all, whatever the position)."""
    if type(order).__name__ in MOVING_NAMES and stationary(ref, rules):
        raise OrderError(
            en(
                f"{order.format('en')}: {ref} is a fortress garrison with fixed artillery: "
                "garrisons never move (3.6)"
            ),
            ru=f"{order}: {ref} — гарнизон крепости со стационарной артиллерией: гарнизоны не "
            "перемещаются (3.6)",
        )


def above_level(order: Order, rules: RuleSet) -> None:
    """0.2: an order of a rule that does not act at the game's level is refused (the rule is
    not in play: nothing of the order can be carried out, whatever the position)."""
    found = LEVELLED.get(type(order).__name__)
    if found is None:
        return
    entry, row, rule = found
    if rules.active(entry, row):
        return
    e = rules.entry(entry)
    level = e.level if row is None else min(p.level for p in e.rows[row].values())
    raise OrderError(
        en(
            f"{order.format('en')}: rule {rule} acts from level {level}; this game is played at "
            f"level {rules.level} (0.2): the order cannot be given"
        ),
        ru=f"{order}: правило {rule} действует с {level} уровня, а игра идет на {rules.level} "
        "уровне (0.2): такой приказ отдать нельзя",
    )


def transfer_to_city(state: GameState, order: Transfer) -> None:
    """4.5: a transfer goes between cities: one to a cell that is no city is refused."""
    if not _city(state, order.to):
        raise OrderError(
            en(
                f"{order.format('en')}: {order.to} is no city: a transfer goes from a city to a "
                "city (4.5)"
            ),
            ru=f"{order}: {order.to} — не город: переброска идет из города в город (4.5)",
        )


def transfer_cities(state: GameState, order: Transfer, units: list[UnitState]) -> None:
    """4.5: a transfer to a cell that is no city, or by units none of which stands in a city
    (a corps' divisions: each entrains where it stands), is refused."""
    transfer_to_city(state, order)
    if not units or any(_city(state, u.cell) for u in units):
        return
    u = units[0]
    if len(units) > 1:
        names = ", ".join(str(m.ref) for m in units)
        raise OrderError(
            en(
                f"{order.format('en')}: none of {names} stands in a city: a transfer begins in "
                "a city (4.5)"
            ),
            ru=f"{order}: ни одна из частей ({names}) не стоит в городе: переброска начинается "
            "в городе (4.5)",
        )
    raise OrderError(
        en(
            f"{order.format('en')}: {u.ref} stands at {u.cell}, which is no city: a transfer "
            "begins in a city (4.5)"
        ),
        ru=f"{order}: {u.ref} стоит в {u.cell}, а это не город: переброска начинается в городе "
        "(4.5)",
    )


def at_once(state: GameState, order: Order, ref: UnitRef, rules: RuleSet) -> None:
    """What is refused when a level-3 order is sealed, before the turn is carried out: nothing
    the turn's other orders do changes it (the garrison, the level, a transfer's destination)."""
    garrison(order, ref, rules)
    above_level(order, rules)
    if isinstance(order, Transfer):
        transfer_to_city(state, order)


def _city(state: GameState, cell: Cell) -> bool:
    ds = state.theatre
    return terrain.on_map(ds, cell) and bool(ds["settlement"].values[terrain.index(ds, cell)])


def blow_beside(state: GameState, order: Attack) -> None:
    """9.8: a blow none of whose named units stands beside its target is refused (each unit
    that may strike must touch the cell). Units not on the map are left to the battle's own
    error."""
    units: list[UnitState] = []
    for refs in order.echelons:
        for ref in refs:
            if ref.echelon == "corps":
                units += [u for u in state.units.values() if u.corps == ref]
                continue
            m = member_of(state, ref)
            if m is None:
                return
            units.append(m.unit)
    if not units or any(_beside(u, order.target) for u in units):
        return
    names = ", ".join(dict.fromkeys(str(r) for e in order.echelons for r in e))
    raise OrderError(
        en(
            f"{order.format('en')}: none of {names} stands beside {order.target}: no unit can "
            "strike it (9.8)"
        ),
        ru=f"{order}: ни одна из частей ({names}) не стоит рядом с {order.target}: удар нанести "
        "некому (9.8)",
    )


def _beside(u: UnitState, target: Cell) -> bool:
    return min(c.chebyshev(target) for c in u.cells) == 1


def off_sector(u: UnitState, order: Move, rules: RuleSet) -> tuple[Cell, float, float] | None:
    """The first leg of a forward move or a withdrawal if it lies beyond 4.2's deviation from
    the facing (the back, for a withdrawal): its cell, its angle and the most allowed; None if
    a step may be taken."""
    if order.mode == "road":
        return None
    first = order.via[0] if order.via else order.to
    if first in u.cells:
        return None
    facing = u.facing if order.mode == "forward" else u.facing.turned(4)
    fx, fy = facing.delta
    dx, dy = u.cell.offset(first)
    cos = (dx * fx + dy * fy) / (math.hypot(fx, fy) * math.hypot(dx, dy))
    angle = math.degrees(math.acos(max(-1.0, min(1.0, cos))))
    most = float(rules.get("movement_limits", "max_deviation", default=30))
    return None if angle <= most + 1e-9 else (first, angle, most)


def sector(order: Move, units: list[UnitState], rules: RuleSet) -> None:
    """4.2: a move of which every unit's first leg is off its sector is refused. `units` are
    the divisions carrying it out (a corps': each with its own leg, by the corps' offset)."""
    found = []
    for u in units:
        if order.formation is not None and order.formation is not u.formation:
            return  # it re-forms, at least (9.6)
        why = off_sector(u, order if len(units) == 1 else _shifted(order, units, u), rules)
        if why is None:
            return
        found.append((u, why))
    if not found:
        return
    u, (first, angle, most) = found[0]
    back = order.mode == "withdraw"
    off = f"its back ({u.facing.turned(4).en})" if back else f"its facing ({u.facing.en})"
    ru = (
        f"от направления отхода (на {u.facing.turned(4).ru})"
        if back
        else f"от направления фронта (на {u.facing.ru})"
    )
    raise OrderError(
        en(
            f"{order.format('en')}: {first} lies {num(angle)}° off {off}; a move may deviate at "
            f"most {num(most)}° (4.2): not a step of it can be taken"
        ),
        ru=f"{order}: {first} отклоняется на {num(angle, 'ru')}° {ru}, а допустимо не более "
        f"{num(most, 'ru')}° (4.2): ни шага по этому приказу сделать нельзя",
    )


def _shifted(order: Move, units: list[UnitState], u: UnitState) -> Move:
    """A division's share of a corps' move: the leading division's offset (`corps.corps_order`)."""
    lead = min(units, key=lambda m: m.cell.km(order.to))
    d_lon, d_lat = lead.cell.offset(order.to)
    return Move(u.ref, Cell(u.cell.lon + d_lon, u.cell.lat + d_lat), (), order.mode)


__all__ = [
    "above_level", "at_once", "blow_beside", "garrison", "off_sector", "sector", "transfer_cities",
    "transfer_to_city",
]  # fmt: skip
