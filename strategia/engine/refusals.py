"""Orders that would do nothing at all, refused before anything is carried out or journalled.

Rule 9.3 has the mediator carry out an order contrary to the rules «в пределах возможного» and
not tell the player; an order of which nothing at all is possible is refused instead, the way a
bad order is (`OrderError`: the order named, and why, in both languages; nothing written):

- a fortress garrison given a movement order (3.6: its artillery is fixed; garrisons never
  move, `fortresses.garrison_moves`);
- a blow (9.8) on a cell none of the units it names stands beside: none of them can strike it;
- a move forward or a withdrawal whose first leg lies more than 4.2's 30° off the facing (the
  back, for a withdrawal): not a step of it may be taken (`movement_limits.max_deviation`).

Each refusal reads only the side's own units and the map, never the enemy (1.6): a blow on a
cell with or without an enemy in it is refused in the same words. A corps' order is refused
only when every one of its divisions would be; one division's share that breaks a rule is cut,
as before (9.3). At level 3 an order is checked when the turn is carried out (the garrison at
once: nothing changes that), and one refused then is journalled as void (1.7).
"""

from __future__ import annotations

import math

from strategia.core.geometry import Cell
from strategia.core.numbers import num
from strategia.engine.fighters import member_of
from strategia.engine.forces import stationary
from strategia.engine.result import OrderError
from strategia.engine.state import GameState, UnitState
from strategia.notation.orders import Attack, Move, Order
from strategia.notation.refs import UnitRef
from strategia.rules import RuleSet
from strategia.rules.english import en

MOVING_NAMES = ("Move", "Turn", "Frontage", "March", "Transfer", "Reform", "FaceRegiments")


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


__all__ = ["blow_beside", "garrison", "off_sector", "sector"]
