"""Movement (chapter 4): moving forward, along roads and back, turning, changing the frontage.

Every order is carried out as far as the rules allow (9.3): a т.д. ordered 30 km through hills
moves 20. What was cut, and why, is in the result for the mediator; the player's account says
only where the unit is. An order that makes no sense at all (a unit of another side, a unit with
nothing to do) raises an `OrderError` and changes nothing.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from strategia.core.geometry import Cell, Direction
from strategia.core.i18n import Text
from strategia.core.numbers import num, quantity, turns
from strategia.engine.capability import at_work
from strategia.engine.costs import (
    HOW,
    INF,
    STEP_KM,
    StepCosts,
    speeds,
)
from strategia.engine.facing import road_dropped
from strategia.engine.losses import fire_losses, interdicted
from strategia.engine.no_way import no_way
from strategia.engine.reach import ReachRequest, radius, reach_many
from strategia.engine.result import Cut, Result, cut
from strategia.engine.state import Busy, GameState, UnitState, where
from strategia.engine.unit_reach import FASTEST_KM, _blocked, _request
from strategia.engine.war import crossing
from strategia.explain.trace import Trace, explain, record, tracing
from strategia.notation.orders import Frontage, Move, Turn
from strategia.rules import RuleSet
from strategia.rules.english import en
from strategia.theatre import terrain
from strategia.theatre.terrain import RELIEF_TERRAIN_KEY, TRAIL_TERRAIN_KEY, Relief

_HOW_WORDS = {
    "road": ("road", "дорога"),
    "trail": ("trail", "тропа"),
    "ground": ("off the roads", "местность"),
    HOW[3]: ("along the road at the ground's pace", "вдоль дороги со скоростью местности"),
}


def _label_step(
    state: GameState, costs: StepCosts, a: Cell, b: Cell, cost: float, rules: RuleSet
) -> None:
    """Record one step with its cost and the table cells the cost comes from."""
    if not tracing():
        return
    ds = state.theatre
    k = Direction.from_delta(*a.offset(b)).index
    i, j = terrain.index(ds, a)
    how = HOW[int(costs.how[k, i, j])]
    relief = state.grid.relief
    ra, rb = Relief(int(relief[i, j])), Relief(int(relief[terrain.index(ds, b)]))
    km = float(STEP_KM[k])
    col = costs.speeds.kind.key if costs.speeds.kind.key != "fortress" else "rifle"
    where_en, where_ru = _HOW_WORDS[how]
    label = Text(
        en(
            f"{a} → {b}: {num(km)} km, {where_en}, {RELIEF_TERRAIN_KEY[ra]} → "
            f"{RELIEF_TERRAIN_KEY[rb]}"
        ),
        f"{a} → {b}: {num(km, 'ru')} км, {where_ru}",
    )
    with explain(label, rule="table 4", unit="turn") as g:
        if how == "road":
            rules.value("movement", "road", col)
        else:
            keys = TRAIL_TERRAIN_KEY if how == "trail" else {}
            for row in sorted({keys.get(r, RELIEF_TERRAIN_KEY[r]) for r in (ra, rb)}):
                if row in rules.entry("movement").rows and rules.active("movement", row):
                    rules.value("movement", row, col)
            if costs.crosses[k, i, j]:
                rules.value("movement", "river", col)
        g.set(round(cost, 6))


def _full_path(
    state: GameState, u: UnitState, rules: RuleSet, mode: str, target: Cell
) -> tuple[list[Cell], float]:
    """The cheapest path for `u` to `target` whatever the budget: (path, cost); ([], INF) if
    none."""
    return _path(state, state.side_of(u.ref), _request(state, u, rules, mode), u.cell, target)


def _path(
    state: GameState, side: str, request: ReachRequest, origin: Cell, target: Cell
) -> tuple[list[Cell], float]:
    """The cheapest path from `origin` to `target` on `request`'s step costs, whatever the
    budget: (path, cost); ([], INF) if none.

    A target held only by `side` may be entered (and the counters collide, 4.12); one held by
    the enemy is not (the search would find it closed: no way).
    """
    if state.enemy_at(target, side):  # a counter's cell, not opened to it
        return [], INF
    d = max(abs(x) for x in origin.offset(target)) + 2
    r = reach_many([request.starting(origin, 50.0)], _blocked(state), d, (target,))[0]
    return r.path_to(target), r.cost_to(target)


def _sector_ok(u: UnitState, target: Cell, mode: str, max_dev: float) -> tuple[bool, float]:
    if mode == "road" or target == u.cell:
        return True, 0.0
    facing = u.facing if mode == "forward" else u.facing.turned(4)
    fx, fy = facing.delta
    dx, dy = u.cell.offset(target)
    cos = (dx * fx + dy * fy) / (math.hypot(fx, fy) * math.hypot(dx, dy))
    angle = math.degrees(math.acos(max(-1.0, min(1.0, cos))))
    return angle <= max_dev + 1e-9, angle


def move(state: GameState, order: Move, rules: RuleSet) -> tuple[GameState, Result]:
    """Carry out a movement order as far as possible (4.2-4.4, 4.7, 4.12, 9.3)."""
    u = state.unit(order.unit)
    mode = order.mode
    words = {"forward": ("forward", "поступательно"), "road": ("along roads", "по дорогам"),
             "withdraw": ("withdrawing", "отход")}[mode]  # fmt: skip
    title = Text(
        en(f"Move of {u.ref} from {u.cell}, {words[0]}"),
        f"Перемещение {u.ref} из {u.cell}, {words[1]}",
    )
    cuts: list[Cut] = []
    rule = {"forward": "4.2", "road": "4.1", "withdraw": "4.4"}[mode]
    with explain(title, rule=rule, unit="turn") as ex:
        if u.busy is not None:
            doing, still = u.busy.label, (turns(u.busy.left), turns(u.busy.left, "ru"))
            why = Text(
                en(f"{u.ref} is busy ({doing.en}, {still[0]} left): it does not move"),
                f"{u.ref} занята ({doing.ru}, осталось {still[1]}): не перемещается",
            )
            return _unchanged(state, u, order, ex, [Cut(why, "9.3")])
        if u.left <= 0:
            why = Text(en(f"{u.ref} has used this turn"), f"{u.ref} уже использовала ход")
            return _unchanged(state, u, order, ex, [Cut(why, "9.3")])
        ex.step(Text("share of the turn left", "остаток хода"), u.left, unit="turn", rule="4.3")
        if mode == "road" and u.road_dropped:
            cuts.append(road_dropped(u.ref, rules))
        max_dev = float(rules.value("movement_limits", "max_deviation"))
        req = _request(state, u, rules, mode)
        if req.cost_factor != 1.0:
            rules.value("withdrawal", "speed_factor_level3")
            ex.step(
                Text(
                    "withdrawal at level 3: each step takes",
                    "отход на 3 уровне: каждый шаг занимает",
                ),
                req.cost_factor,
                unit="× its time",
                rule="4.4",
            )
        side = state.side_of(u.ref)
        pos, left = u.cell, u.left
        steps: list[tuple[Cell, Cell, float]] = []
        fording: tuple[Cell, Cell, float] | None = None
        for target in (*order.via, order.to):
            ok, angle = _sector_ok(u, target, mode, max_dev)
            if not ok:
                cuts.append(
                    cut(
                        "4.2",
                        en(
                            f"{target} lies {num(angle)}° off the facing; "
                            f"movement may deviate at most {num(max_dev)}°"
                        ),
                        f"{target}: отклонение {num(angle, 'ru')}° больше допустимых "
                        f"{num(max_dev, 'ru')}°",
                    )
                )
                break
            leg, cost = _path(state, side, req, pos, target)
            if not leg:
                leg, cost = _towards(state, req.starting(pos, left), target)
                here = u.but(cells=(pos,), spent=1.0 - left)
                cuts.append(no_way(state, here, target, rules))
            for a, b in itertools.pairwise(leg):
                k = Direction.from_delta(*a.offset(b)).index
                step = (
                    float(req.costs.cost[(k, *terrain.index(state.theatre, a))]) * req.cost_factor
                )
                if state.enemy_at(b, side):
                    cuts.append(
                        cut(
                            "9.8",
                            en(f"{b} is held by the enemy: stopped at {a} (an attack is an order)"),
                            f"{b} занята противником: остановлена в {a} (атака — отдельный приказ)",
                        )
                    )
                    break
                i, j = terrain.index(state.theatre, a)
                if (
                    step > left + 1e-9
                    and req.costs.crosses[k, i, j]
                    and np.isfinite(step)
                    and left > 0
                ):
                    fording = (a, b, round(step - left, 9))
                    cuts.append(
                        cut(
                            "table 4",
                            en(
                                f"crossing the river from {a} to {b} takes {turns(step)}: begun, "
                                f"{turns(fording[2])} more to go"
                            ),
                            f"переправа из {a} в {b} занимает {turns(step, 'ru')}: начата, "
                            f"осталось {turns(fording[2], 'ru')}",
                        )
                    )
                    break
                if step > left + 1e-9:
                    cuts.append(
                        cut(
                            "9.3",
                            en(
                                f"the way to {target} costs {turns(cost)}, with "
                                f"{turns(u.left)} left: stopped at {a}"
                            ),
                            f"путь до {target} стоит {turns(cost, 'ru')}, оставалось "
                            f"{turns(u.left, 'ru')}: остановлена в {a}",
                        )
                    )
                    break
                left = round(left - step, 9)
                steps.append((a, b, step))
            pos = steps[-1][1] if steps else pos
            if pos != target:
                break
        steps, left = _stacking(state, u, steps, left, rules, cuts)
        for a, b, step in steps:
            _label_step(state, req.costs, a, b, step, rules)
        path = [u.cell] + [b for _, b, _ in steps]
        used = round(u.left - left, 9)
        new = _arrive(state, u, path, mode, used, cuts, rules)
        if fording is not None:
            a, b, rest = fording
            _label_step(state, req.costs, a, b, round(left + rest, 9), rules)
            new = new.but(cells=(a,), spent=1.0, busy=Busy("crossing", rest, (b,)))
            used = round(u.left, 9)
        ex.step(Text("turns used", "затрачено ходов"), used, unit="turn")
        ex.set(used)

        hit, fired_at = interdicted(state, new, path, rules)
        lost = fire_losses(state, new, hit, fired_at)
        if hit is None:
            gone = state.with_units([], [u.ref])
            outcome = Text(
                en(f"{u.ref} destroyed by interdiction fire at {fired_at}"),
                f"{u.ref} уничтожена огнем на отсечение в {fired_at}",
            )
            return crossing(gone, u.owner, path[1:], str(u.ref)), Result(
                order.format("ru"), outcome, ex.freeze(), tuple(cuts), losses=lost
            )
        new = hit
        new_state = state.with_units([new, *_collisions(state, new, rules)])
        new_state = crossing(new_state, u.owner, path[1:], str(u.ref))
        return new_state, Result(
            order.format("ru"), where(new), ex.freeze(), tuple(cuts), losses=lost
        )


def _stacking(
    state: GameState,
    u: UnitState,
    steps: list[tuple[Cell, Cell, float]],
    left: float,
    rules: RuleSet,
    cuts: list[Cut],
) -> tuple[list[tuple[Cell, Cell, float]], float]:
    """Level 2: at most 5 regiments on a cell (4.12); a move that would end on more stops short."""
    if not steps or not rules.active("stacking", "max_regiments"):
        return steps, left
    end = steps[-1][1]
    there = sum(len(o.division.regiments) for o in state.occupants(end) if o.ref != u.ref)
    if there == 0:
        return steps, left
    cap = int(rules.value("stacking", "max_regiments"))
    total = there + len(u.division.regiments)
    if total <= cap:
        return steps, left
    cuts.append(
        cut(
            "4.12",
            en(
                f"{end} would hold {quantity(total, 'regt')}, at most {cap}: stopped at "
                f"{steps[-1][0]}"
            ),
            f"в {end} оказалось бы {quantity(total, 'regt', 'ru')}, не более {cap}: "
            f"остановлена в {steps[-1][0]}",
        )
    )
    return steps[:-1], round(left + steps[-1][2], 9)


def _towards(state: GameState, req: ReachRequest, target: Cell) -> tuple[list[Cell], float]:
    """The path to the reachable cell nearest `target` when no path reaches it (`req`: the
    unit's search from where it stands, on what it has left)."""
    r = reach_many([req], _blocked(state), radius(req.budget, FASTEST_KM))[0]
    best = r.nearest(target)
    return r.path_to(best) or [req.origin], r.cost_to(best)


def _arrive(
    state: GameState,
    u: UnitState,
    path: list[Cell],
    mode: str,
    used: float,
    cuts: list[Cut],
    rules: RuleSet,
) -> UnitState:
    """The unit at the end of its path: facing, counter shape (4.6, 4.7), time used."""
    head = path[-1]
    facing = u.facing
    if mode == "road" and len(path) > 1:
        facing = Direction.from_delta(*path[-2].offset(head))
        if facing != u.facing:
            record(
                Text(
                    en(f"turned with the road to face {facing.en}"),
                    f"развернута по дороге фронтом на {facing.ru}",
                ),
                None,
                kind="note",
                rule="4.2",
            )
    cells: tuple[Cell, ...] = (head,)
    if len(u.cells) == 2 and len(path) > 1:
        d_lon, d_lat = u.cells[0].offset(u.cells[1])
        tail = Cell(head.lon + d_lon, head.lat + d_lat)
        if (
            terrain.on_map(state.theatre, tail)
            and not state.occupants(tail)
            and _passable(state, u, tail, rules)
        ):
            cells = (head, tail)
        else:
            cuts.append(
                cut(
                    "4.6",
                    en(f"no room for the second square at {tail}: the front contracts to {head}"),
                    f"нет места для второй клетки {tail}: фронт сжат в {head}",
                )
            )
    elif len(u.cells) == 2:
        cells = u.cells
    if (
        state.level >= 2
        and len(path) > 1
        and bool(state.grid.narrows[terrain.index(state.theatre, head)])
    ):
        cells = (head, path[-2])
        record(
            Text(
                en(f"in a narrow: stretched to 1x2 along its path, {head} and {path[-2]}"),
                f"в узости: вытянута 1*2 вдоль пути, {head} и {path[-2]}",
            ),
            None,
            kind="note",
            rule="4.7",
        )
    return u.but(cells=cells, facing=facing, spent=round(u.spent + used, 9))


def _passable(state: GameState, u: UnitState, cell: Cell, rules: RuleSet) -> bool:
    sp = speeds(u.division.kind, rules)
    relief = Relief(int(state.grid.relief[terrain.index(state.theatre, cell)]))
    return sp.ground.get(relief, 0.0) > 0


def _collisions(state: GameState, new: UnitState, rules: RuleSet) -> list[UnitState]:
    """4.12: divisions that end on one cell lose their next turn and are not combat-capable."""
    others = list(
        {o.ref: o for c in new.cells for o in state.occupants(c) if o.ref != new.ref}.values()
    )
    if not others:
        return []
    lost = float(rules.value("stacking", "collision_lost_turns"))
    busy = Busy("collided", lost)
    return [at_work(o, busy, rules) for o in [*others, new]]


def _unchanged(
    state: GameState, u: UnitState, order: Move | Turn | Frontage, ex: Trace, cuts: list[Cut]
) -> tuple[GameState, Result]:
    ex.set(0.0)
    return state, Result(order.format("ru"), where(u), ex.freeze(), tuple(cuts))
