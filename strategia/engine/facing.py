"""Turning (4.3) and changing the frontage (4.6): orders that change a counter, not its place.

A change that needs more time than the turn has left begins now and finishes when the time is
served (the unit is busy until then).
"""

from __future__ import annotations

from dataclasses import replace

from strategia.core.geometry import Cell, Direction
from strategia.core.i18n import Text
from strategia.core.numbers import num, turns
from strategia.engine.conditions import passable
from strategia.engine.result import Cut, Result, cut
from strategia.engine.state import Busy, GameState, UnitState, where
from strategia.explain.trace import Trace, explain, record
from strategia.notation.orders import FaceRegiments, Frontage, Reform, Turn
from strategia.notation.refs import UnitRef
from strategia.rules import RuleSet
from strategia.rules.english import en
from strategia.theatre import terrain
from strategia.theatre.terrain import Relief


def _column(state: GameState, cell: Cell) -> str:
    relief = Relief(int(state.grid.relief[terrain.index(state.theatre, cell)]))
    return {Relief.HILLS: "hills", Relief.SWAMP: "swamp"}.get(relief, "default")


def _spend(
    u: UnitState,
    cost: float,
    busy_what: str,
    facing: Direction | None,
    target: tuple[Cell, ...],
    ex: Trace,
) -> UnitState:
    """Spend `cost` turns: now if the turn has room, else the rest is served on later turns."""
    if cost <= u.left + 1e-9:
        return replace(u, spent=round(u.spent + cost, 9))
    rest = round(cost - u.left, 9)
    ex.step(
        Text(
            en(f"not done this turn: {turns(rest)} more to serve"),
            f"не завершено в этот ход: еще {turns(rest, 'ru')}",
        ),
        rest,
        unit="turn",
        rule="4.3",
    )
    return replace(u, spent=1.0, busy=Busy(busy_what, rest, target, facing))


def turn(state: GameState, order: Turn, rules: RuleSet) -> tuple[GameState, Result]:
    """Turn a division to a new facing (4.3): 180° a turn (hills 1.5, swamp 2), 90° half a turn
    (swamp 1), at level 2 up to 45° a quarter; impossible on a river, a trail or a narrow."""
    u = state.unit(order.unit)
    cuts: list[Cut] = []
    title = Text(
        en(f"Turn of {u.ref} from {u.facing.en} to {order.facing.en}"),
        f"Поворот {u.ref}: с {u.facing.case('gen')} на {order.facing.ru}",
    )
    with explain(title, rule="4.3", unit="turn") as ex:
        diff = (order.facing.index - u.facing.index) % 8
        signed = diff - 8 if diff > 4 else diff
        steps = abs(signed)
        why = _cannot_turn(state, u)
        if why is not None or steps == 0:
            if why is None:
                why = Text(
                    en(f"{u.ref} already faces {order.facing.en}"),
                    f"{u.ref} уже фронтом на {order.facing.ru}",
                )
            cuts.append(Cut(why, "4.3"))
            ex.set(0.0)
            return state, Result(order.format("ru"), where(u), ex.freeze(), tuple(cuts))
        if state.level < 2 and steps % 2 == 1:
            if steps == 1:
                cuts.append(
                    cut(
                        "4.3",
                        "a turn of 45° is a level-2 rule: no turn",
                        "поворот на 45° — правило 2 уровня: поворот не выполнен",
                    )
                )
                ex.set(0.0)
                return state, Result(order.format("ru"), where(u), ex.freeze(), tuple(cuts))
            steps = 2
            cuts.append(
                cut(
                    "4.3",
                    "a turn of 135° at level 1: turned 90° (45° is a level-2 rule)",
                    "поворот на 135° на 1 уровне: выполнен поворот на 90°",
                )
            )
        new_facing = u.facing.turned(steps if signed > 0 else -steps)
        col = _column(state, u.cell)
        row = {4: "turn_180", 3: "turn_135", 2: "turn_90", 1: "turn_45"}[steps]
        cost = float(rules.value("turning", row, col))
        ex.step(
            Text(en(f"time for {45 * steps}°"), f"время поворота на {45 * steps}°"),
            cost,
            unit="turn",
            rule="4.3",
        )
        new = _spend(replace(u, facing=u.facing), cost, "turning", new_facing, (), ex)
        if new.busy is None:
            new = replace(new, facing=new_facing)
        if bool(state.grid.road[terrain.index(state.theatre, u.cell)]):
            new = replace(new, road_dropped=True)
            ex.step(
                Text(
                    "turned on a road: the rest of the move is off the road's speed",
                    "поворот на дороге: далее — по местности",
                ),
                kind="note",
                rule="4.3",
            )
        ex.set(cost)
        return state.with_units([new]), Result(
            order.format("ru"), where(new), ex.freeze(), tuple(cuts)
        )


def road_dropped(ref: UnitRef, rules: RuleSet) -> Cut:
    """What a unit that turned on a road this move loses of an order to go by road (4.3): the
    road's speed (`road_turn`); it keeps to the road at the ground's pace, as far as that goes
    (9.3), or, by a house rule, finds no road at all."""
    ground = bool(rules.value("road_turn", "ground_pace"))
    if ground:
        why = cut(
            "4.3",
            en(
                f"{ref} turned on a road this turn: no road speed for the rest of the move; along "
                "the road at the speed of the ground"
            ),
            f"{ref} повернула на дороге в этот ход: до конца хода без скорости дороги; вдоль "
            "дороги со скоростью местности",
        )
    else:
        why = cut(
            "4.3",
            en(f"{ref} turned on a road this turn: no movement by road for the rest of the move"),
            f"{ref} повернула на дороге в этот ход: до конца хода движения по дороге нет",
        )
    record(why.reason, None, kind="cut", rule="4.3")
    return why


def reform(
    state: GameState, order: Reform | FaceRegiments, rules: RuleSet
) -> tuple[GameState, Result]:
    """A division takes up a formation, or turns its regiments (9.6, level 2): the time the rule
    data gives (`formations`)."""
    u = state.unit(order.unit)
    if isinstance(order, Reform):
        what, key, new_key = "formation", "change_turns", order.formation.key
        title = Text(
            en(f"{u.ref}: formation {order.formation.en}"),
            f"{u.ref}: построение {order.formation.ru}",
        )
        same = u.formation is order.formation
    else:
        what, key, new_key = "regiments", "regiments_turns", order.regiments.key
        title = Text(
            en(f"{u.ref}: regiments {order.regiments.en}"), f"{u.ref}: полки {order.regiments.ru}"
        )
        same = u.regiments is order.regiments
    with explain(title, rule="9.6", unit="turn") as ex:
        why = None
        if not rules.active("formations"):
            why = Text(
                "formations are a level-2 rule (9.6, tables 7-10)",
                "построения — правило 2 уровня (9.6, таблицы 7-10)",
            )
        elif u.busy is not None:
            why = Text(en(f"{u.ref} is busy this turn"), f"{u.ref} занята в этот ход")
        elif same:
            why = Text(en(f"{u.ref} already so"), f"{u.ref} уже в таком построении")
        if why is not None:
            ex.set(0.0)
            return state, Result(order.format("ru"), where(u), ex.freeze(), (Cut(why, "9.6"),))
        cost = float(rules.value("formations", key))
        new = _spend(u, cost, "reforming", None, (), ex)
        if new.busy is None and isinstance(order, Reform):
            new = replace(new, formation=order.formation)
        elif new.busy is None and isinstance(order, FaceRegiments):
            new = replace(new, regiments=order.regiments)
        elif new.busy is not None:
            new = replace(new, busy=replace(new.busy, plan=(what, new_key)))
        ex.set(cost)
        return state.with_units([new]), Result(order.format("ru"), where(new), ex.freeze())


def _cannot_turn(state: GameState, u: UnitState) -> Text | None:
    if u.busy is not None:
        if u.busy.what == "crossing":
            return Text(
                en(f"{u.ref} is crossing a river: no turning on a river"),
                f"{u.ref} переправляется: поворот на реке невозможен",
            )
        what = u.busy.label
        return Text(en(f"{u.ref} is busy ({what.en})"), f"{u.ref} занята ({what.ru})")
    if state.level >= 2:
        i, j = terrain.index(state.theatre, u.cell)
        if state.grid.trail[i, j] and state.grid.narrows[i, j]:
            return Text(
                en(f"{u.ref} is on a trail: no turning on trails"),
                f"{u.ref} на тропе: поворот невозможен",
            )
        if state.grid.narrows[i, j]:
            return Text(
                en(f"{u.ref} is in a narrow: no turning there"),
                f"{u.ref} в узости: поворот невозможен",
            )
    return None


def frontage(state: GameState, order: Frontage, rules: RuleSet) -> tuple[GameState, Result]:
    """Stretch a division's front to 1x2 or contract it to 1x1, 10 km a turn (4.6, level 2)."""
    u = state.unit(order.unit)
    verb = ("Extend", "Растянуть") if order.extend else ("Contract", "Сжать")
    title = Text(
        en(f"{verb[0]} the front of {u.ref} to {order.cell}"),
        f"{verb[1]} фронт {u.ref}: {order.cell}",
    )
    cuts: list[Cut] = []
    with explain(title, rule="4.6", unit="turn") as ex:
        why = _frontage_problem(state, u, order, rules)
        if why is not None:
            cuts.append(Cut(why, "4.6"))
            ex.set(0.0)
            return state, Result(order.format("ru"), where(u), ex.freeze(), tuple(cuts))
        km = float(rules.value("scale", "cell_km"))
        pace = float(rules.value("frontage", "km_per_turn"))
        cost = km / pace
        ex.step(
            Text(
                en(f"{num(km)} km at {num(pace)} km a turn"),
                f"{num(km, 'ru')} км по {num(pace, 'ru')} км за ход",
            ),
            cost,
            unit="turn",
            rule="4.6",
        )
        cells = (u.cell, order.cell) if order.extend else (order.cell,)
        new = _spend(
            replace(u, cells=cells if cost <= u.left + 1e-9 else u.cells),
            cost,
            "frontage",
            None,
            cells,
            ex,
        )
        ex.set(cost)
        return state.with_units([new]), Result(
            order.format("ru"), where(new), ex.freeze(), tuple(cuts)
        )


def _frontage_problem(
    state: GameState, u: UnitState, order: Frontage, rules: RuleSet
) -> Text | None:
    if not rules.active("frontage"):
        return Text(
            "changing the frontage is a level-2 rule (4.6)",
            "изменение ширины фронта — правило 2 уровня (4.6)",
        )
    if u.busy is not None:
        return Text(en(f"{u.ref} is busy this turn"), f"{u.ref} занята в этот ход")
    if not order.extend:
        if len(u.cells) != 2:
            return Text(en(f"{u.ref} already stands on one square"), f"{u.ref} уже на одной клетке")
        if order.cell not in u.cells:
            return Text(
                en(f"{order.cell} is not one of its squares {u.cells[0]}, {u.cells[1]}"),
                f"{order.cell} — не ее клетка",
            )
        return None
    if len(u.cells) != 1:
        return Text(en(f"{u.ref} already stands on two squares"), f"{u.ref} уже на двух клетках")
    d_lon, d_lat = u.cell.offset(order.cell)
    if abs(d_lon) + abs(d_lat) != 1:
        return Text(
            en(
                f"{order.cell} is not beside {u.cell} (the front grows along the grid by one "
                f"square)"
            ),
            f"{order.cell} не рядом с {u.cell}",
        )
    if Direction.from_delta(d_lon, d_lat) in (u.facing, u.facing.turned(4)):
        return Text(
            en(f"{order.cell} lies ahead or behind: the front grows sideways"),
            f"{order.cell} впереди или позади: фронт растягивается вбок",
        )
    if not terrain.on_map(state.theatre, order.cell) or state.occupants(order.cell):
        return Text(
            en(f"{order.cell} is taken or off the map"), f"{order.cell} занята или вне карты"
        )
    why = passable(state, u, order.cell, "4.6", rules)  # «при условии проходимости местности»
    return None if why is None else why.reason
