"""Units on the roads and railways: the march (4.8) and the transfer between cities (4.5).

Both are planned whole when ordered and carried on turn by turn by `advance` (the unit is busy
meanwhile): a march along roads in country free of the enemy with its halts, a transfer on the
transfer planner's schedule. Troops in transit are not combat-capable (9.17); a division on the
march defends at half its rating (4.8).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import replace

import numpy as np

from strategia.core.geometry import Cell
from strategia.core.i18n import Text
from strategia.engine.costs import reach_many
from strategia.engine.movement import _blocked, _request
from strategia.engine.result import Cut, Result, cut
from strategia.engine.state import Busy, GameState, UnitState, where
from strategia.engine.transfer import TransferError, plan_transfer
from strategia.explain.trace import explain
from strategia.notation.orders import March, Transfer
from strategia.rules import RuleSet
from strategia.theatre import terrain


def _enemy_near(state: GameState, u: UnitState) -> np.ndarray:
    """Cells with an enemy counter on them or beside them: not free of the enemy (4.8)."""
    side = state.scenario.state(u.owner).side
    enemy = np.zeros(terrain.size(state.theatre), dtype=bool)
    for o in state.units.values():
        if state.scenario.state(o.owner).side != side:
            for c in o.cells:
                enemy[terrain.index(state.theatre, c)] = True
    near = enemy.copy()
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            near |= terrain.shifted(enemy, dx, dy, False)
    return near


def _road_route(state: GameState, u: UnitState, rules: RuleSet, points: list[Cell]) -> list[Cell]:
    """The shortest road route through `points` ([] if a leg has none)."""
    route = [u.cell]
    for p in points:
        here = replace(u, cells=(route[-1],))
        req = replace(_request(state, here, rules, "road"), budget=1e6)
        r = max(abs(v) for v in route[-1].offset(p)) + 2
        leg = reach_many([req], _blocked(state), r)[0].path_to(p)
        if not leg:
            return []
        route += leg[1:]
    return route


def march(state: GameState, order: March, rules: RuleSet) -> tuple[GameState, Result]:
    """Plan and begin a march (4.8): +10 km for every 20 km travelled, 0.5 turn to form up."""
    u = state.unit(order.unit)
    title = Text(
        f"March of {u.ref} from {u.cell} to {order.to}", f"Марш {u.ref} из {u.cell} на {order.to}"
    )
    cuts: list[Cut] = []
    with explain(title, rule="4.8", unit="turn") as ex:
        problem = None
        if not rules.active("march"):
            problem = Text("the march is a level-2 rule (4.8)", "марш — правило 2 уровня (4.8)")
        elif u.busy is not None or u.left <= 0:
            problem = Text(
                f"{u.ref} has no time to form up this turn", f"у {u.ref} нет времени на построение"
            )
        elif not state.theatre["road"].values[terrain.index(state.theatre, u.cell)]:
            problem = Text(
                f"{u.ref} is not on a road at {u.cell}: a march goes by road",
                f"{u.ref} не на дороге",
            )
        route = [] if problem else _road_route(state, u, rules, [*order.halts, order.to])
        if not problem and not route:
            problem = Text(
                f"no road leads from {u.cell} to {order.to} through the halts", "нет дороги к цели"
            )
        if problem is not None:
            cuts.append(Cut(problem, "4.8"))
            ex.set(0.0)
            return state, Result(order.format("ru"), where(u), ex.freeze(), tuple(cuts))
        near = _enemy_near(state, u)
        for n, c in enumerate(route[1:], 1):
            if near[terrain.index(state.theatre, c)]:
                cuts.append(
                    cut(
                        "4.8",
                        f"the road at {c} is not free of the enemy: the march ends at "
                        f"{route[n - 1]}",
                        f"дорога у {c} не свободна от противника: марш до {route[n - 1]}",
                    )
                )
                route = route[:n]
                break
        km_cell = float(rules.value("scale", "cell_km"))
        km = [0.0]
        for a, b in itertools.pairwise(route):
            km.append(km[-1] + km_cell * math.hypot(*a.offset(b)))
        total = km[-1]
        v = float(rules.value("movement", "road", u.division.kind.key))
        bonus = float(rules.value("march", "bonus_km")) * math.floor(
            total / float(rules.value("march", "bonus_per_km"))
        )
        form_up = float(rules.value("march", "form_up_turns"))
        turns = form_up + (total - bonus) / v
        ex.step(
            Text("length of the march", "протяженность марша"),
            round(total, 3),
            unit="km",
            rule="4.8",
        )
        ex.step(
            Text("bonus for the whole march", "бонус за весь марш"), bonus, unit="km", rule="4.8"
        )
        ex.step(
            Text(
                "time: forming up + (length − bonus) / road speed",
                "время: построение + (длина − бонус) / скорость",
            ),
            round(turns, 4),
            unit="turn",
            rule="4.8",
        )
        pace = total / max(turns - form_up, 1e-9)
        ex.step(
            Text("pace on the march", "скорость на марше"),
            round(pace, 3),
            unit="km/turn",
            rule="4.8",
        )
        plan = _schedule(route, km, pace, u.left - form_up, order.halts, cuts)
        ex.step(
            Text("where it stops each turn", "где она к концу каждого хода"),
            " ".join(str(c) for c in plan),
            rule="4.8",
        )
        length = int(rules.value("march", "length"))
        first = plan[0]
        new = _on_road(u, route, first, length)
        busy = (
            Busy("march", float(len(plan) - 1), tuple(plan[1:]), plan=tuple(route))
            if len(plan) > 1
            else None
        )
        new = replace(new, spent=1.0, on_march=busy is not None, busy=busy)
        if busy is None:
            new = _arrived(new, rules)
        ex.set(round(turns, 4))
        return state.with_units([new]), Result(
            order.format("ru"), where(new), ex.freeze(), tuple(cuts)
        )


def _schedule(
    route: list[Cell],
    km: list[float],
    pace: float,
    first_turn: float,
    halts: tuple[Cell, ...],
    cuts: list[Cut],
) -> list[Cell]:
    """The cell reached at the end of each turn: as far as the pace allows, and no further than
    that turn's halt (9.3 if the halt is out of reach)."""
    plan: list[Cell] = []
    done = 0.0
    budget = max(first_turn, 0.0) * pace
    t = 0
    while True:
        limit = done + budget
        idx = max(i for i, d in enumerate(km) if d <= limit + 1e-9)
        if t < len(halts) and halts[t] in route:
            h = route.index(halts[t])
            if h <= idx:
                idx = max(h, route.index(plan[-1]) if plan else 0)
            else:
                cuts.append(
                    cut(
                        "9.3",
                        f"halt {halts[t]} is beyond the day's march: stops at {route[idx]}",
                        f"привал {halts[t]} недостижим за ход: остановка в {route[idx]}",
                    )
                )
        plan.append(route[idx])
        done = km[idx]
        budget = pace
        t += 1
        if idx == len(route) - 1 or t > 200:
            return plan


def _on_road(u: UnitState, route: list[Cell], head: Cell, length: int) -> UnitState:
    """The division stretched along the road behind its head (1x2 on the march, 4.8)."""
    i = route.index(head)
    cells = tuple(route[max(0, i - length + 1) : i + 1][::-1]) or (head,)
    return replace(u, cells=cells[:length])


def _arrived(u: UnitState, rules: RuleSet) -> UnitState:
    rest = float(rules.value("march", "recovery_turns"))
    return replace(
        u, cells=u.cells[:1], on_march=False, busy=Busy("recovering", rest), combat_capable=False
    )


def transfer(state: GameState, order: Transfer, rules: RuleSet) -> tuple[GameState, Result]:
    """Begin a transfer between cities (4.5) on the planner's schedule."""
    u = state.unit(order.unit)
    title = Text(
        f"Transfer of {u.ref} from {u.cell} to {order.to}",
        f"Переброска {u.ref} из {u.cell} в {order.to}",
    )
    cuts: list[Cut] = []
    with explain(title, rule="4.5", unit="turn") as ex:
        if u.busy is not None or u.spent > 0:
            cuts.append(
                cut(
                    "4.5",
                    f"{u.ref} must begin a transfer with a whole turn",
                    f"{u.ref}: переброска начинается с целого хода",
                )
            )
            ex.set(0.0)
            return state, Result(order.format("ru"), where(u), ex.freeze(), tuple(cuts))
        try:
            plan = plan_transfer(state.theatre, u.cell, order.to, rules)
        except TransferError as e:
            cuts.append(Cut(Text(str(e)), "4.5"))
            ex.set(0.0)
            return state, Result(order.format("ru"), where(u), ex.freeze(), tuple(cuts))
        p = plan.value
        roads_shut = [
            c for c in p.route if "road" in p.network and state.closed(c, "road-transfer")
        ]
        shut = roads_shut + [c for c in p.route if state.closed(c, "bridge")]
        if shut:
            cuts.append(
                cut(
                    "9.7c",
                    f"the route is closed at {shut[0]} by artillery fire",
                    f"путь закрыт огнем артиллерии в {shut[0]}",
                )
            )
            ex.set(0.0)
            return state, Result(order.format("ru"), where(u), ex.freeze(), tuple(cuts))
        if rules.active("rail_transfer", "node_capacity"):
            cap = int(rules.value("rail_transfer", "node_capacity"))
            moving = [
                o.busy.target
                for o in state.units.values()
                if o.busy is not None and o.busy.what == "transfer"
            ]
            for k, pos in enumerate(p.schedule[1:-1], 1):
                at = [t for t in moving if len(t) >= k and t[k - 1] == pos.cell]
                if len(at) >= cap:
                    cuts.append(
                        cut(
                            "4.12",
                            f"{pos.cell} will hold {len(at)} divisions in transit: at most {cap}",
                            f"в узле {pos.cell} уже будет {len(at)} дивизии в пути: не более {cap}",
                        )
                    )
                    ex.set(0.0)
                    return state, Result(order.format("ru"), where(u), ex.freeze(), tuple(cuts))
        cells = tuple(pos.cell for pos in p.schedule)
        new = replace(
            u,
            cells=(cells[0],),
            spent=1.0,
            busy=Busy("transfer", float(len(cells) - 1), cells[1:], plan=(p.recovery_turns,)),
            combat_capable=False,
        )
        ex.set(float(p.turns))
        return state.with_units([new]), Result(
            order.format("ru"), where(new), ex.freeze(), tuple(cuts)
        )


def continue_column(u: UnitState, rules: RuleSet) -> UnitState:
    """One more turn of a march or a transfer: the next position on the plan."""
    assert u.busy is not None
    b = u.busy
    nxt, rest = b.target[0], b.target[1:]
    if b.what == "march":
        route = list(b.plan)
        new = _on_road(u, route, nxt, int(rules.value("march", "length")))
        if rest:
            return replace(new, spent=1.0, busy=replace(b, left=float(len(rest)), target=rest))
        return replace(_arrived(new, rules), spent=1.0)
    new = replace(u, cells=(nxt,), spent=1.0)
    if rest:
        return replace(new, busy=replace(b, left=float(len(rest)), target=rest))
    recovery = float(rules.value("rail_transfer", "recovery_turns"))
    return replace(new, busy=Busy("recovering", recovery), combat_capable=False)


__all__ = ["continue_column", "march", "transfer"]
