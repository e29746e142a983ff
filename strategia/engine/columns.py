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
from strategia.core.numbers import divisions, num
from strategia.core.numbers import turns as turns_text
from strategia.engine.capability import at_work
from strategia.engine.losses import fire_losses, interdicted
from strategia.engine.reach import ReachRequest, radius, reach_many
from strategia.engine.result import Cut, Result, cut
from strategia.engine.state import Busy, GameState, UnitState, where
from strategia.engine.transfer import TransferError, plan_transfer
from strategia.engine.unit_reach import FASTEST_KM, _blocked, _request, unit_costs
from strategia.explain.trace import explain, record
from strategia.notation.orders import March, Transfer
from strategia.rules import RuleSet
from strategia.rules.english import en
from strategia.theatre import terrain

APPROACH_TURNS = 3.0  # how far off the road a march may begin, in turns of ordinary movement


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
    """The shortest road route from the unit's cell through `points` ([] if a leg has none)."""
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


def _to_the_road(
    state: GameState, u: UnitState, rules: RuleSet
) -> tuple[list[Cell], list[float]] | None:
    """The way off the road to the nearest road cell at the unit's ordinary speed (4.8: the time
    to reach the road counts): its cells and the turns of each step; None if no road is near."""
    costs = unit_costs(state, u, rules, "forward")
    req = ReachRequest(u.cell, costs, tuple(range(8)), APPROACH_TURNS, None)
    r = reach_many([req], _blocked(state), radius(APPROACH_TURNS, FASTEST_KM))[0]
    road = state.grid.road
    found = [c for c in r.cells() if road[terrain.index(state.theatre, c)]]
    if not found:
        return None
    best = min(found, key=lambda c: (r.cost_to(c), c.km(u.cell)))
    path = r.path_to(best)
    times = [0.0] + [r.cost_to(b) - r.cost_to(a) for a, b in itertools.pairwise(path)]
    return path, times


def march(state: GameState, order: March, rules: RuleSet) -> tuple[GameState, Result]:
    """Plan and begin a march (4.8): half a turn to form up, the time to reach the road, then
    the roads at 1.5 times the road speed («+10 km for every 20 km actually travelled»)."""
    u = state.unit(order.unit)
    title = Text(
        en(f"March of {u.ref} from {u.cell} to {order.to}"),
        f"Марш {u.ref} из {u.cell} на {order.to}",
    )
    cuts: list[Cut] = []
    with explain(title, rule="4.8", unit="turn") as ex:
        problem = None
        if not rules.active("march"):
            problem = Text("the march is a level-2 rule (4.8)", "марш — правило 2 уровня (4.8)")
        elif u.busy is not None:
            problem = Text(
                en(f"{u.ref} is busy: no time to form up this turn"),
                f"{u.ref} занята: нет времени на построение",
            )
        approach: tuple[list[Cell], list[float]] | None = ([u.cell], [0.0])
        if problem is None and not state.grid.road[terrain.index(state.theatre, u.cell)]:
            approach = _to_the_road(state, u, rules)
            if approach is None:
                problem = Text(
                    en(
                        f"no road within {turns_text(APPROACH_TURNS)} of {u.cell}: "
                        "a march goes by road"
                    ),
                    f"нет дороги ближе {turns_text(APPROACH_TURNS, 'ru')} от {u.cell}: "
                    "марш идет по дорогам",
                )
        route: list[Cell] = []
        if problem is None and approach is not None:
            start = replace(u, cells=(approach[0][-1],))
            route = _road_route(state, start, rules, [*(order.via or order.halts), order.to])
            if not route:
                problem = Text(
                    en(
                        f"no road leads from {start.cell} to {order.to}"
                        + (" through the named roads" if order.via else "")
                    ),
                    f"нет дороги из {start.cell} на {order.to}"
                    + (" через названные дороги" if order.via else ""),
                )
        if problem is not None or approach is None:
            cuts.append(Cut(problem or Text(""), "4.8"))
            ex.set(0.0)
            return state, Result(order.format("ru"), where(u), ex.freeze(), tuple(cuts))
        path = approach[0] + route[1:]
        near = _enemy_near(state, u)
        for n, c in enumerate(path[1:], 1):
            if near[terrain.index(state.theatre, c)]:
                cuts.append(
                    cut(
                        "4.8",
                        en(
                            f"the road at {c} is not free of the enemy: "
                            f"the march ends at {path[n - 1]}"
                        ),
                        f"дорога у {c} не свободна от противника: марш до {path[n - 1]}",
                    )
                )
                path = path[:n]
                break
        on_road = path[len(approach[0]) - 1 :]
        km_cell = float(rules.value("scale", "cell_km"))
        legs = [km_cell * math.hypot(*a.offset(b)) for a, b in itertools.pairwise(on_road)]
        total = sum(legs)
        v = float(rules.value("movement", "road", u.division.kind.key))
        bonus, per = (float(rules.value("march", k)) for k in ("bonus_km", "bonus_per_km"))
        factor = 1.0 + bonus / per
        form_up = float(rules.value("march", "form_up_turns"))
        to_road = sum(approach[1][: len(path)])
        ex.step(Text("forming up", "подготовка к маршу"), form_up, unit="turn", rule="4.8")
        if len(approach[0]) > 1:
            ex.step(
                Text(
                    en(f"to the road at {approach[0][-1]}"), f"выход на дорогу в {approach[0][-1]}"
                ),
                round(to_road, 4),
                unit="turn",
                rule="4.8",
            )
        ex.step(
            Text("length on the roads", "протяженность по дорогам"),
            round(total, 3),
            unit="km",
            rule="4.8",
        )
        ex.step(
            Text(
                en(f"speed on the march: (1 + {num(bonus)}/{num(per)}) × {num(v)}"),
                f"скорость на марше: (1 + {num(bonus, 'ru')}/{num(per, 'ru')}) × {num(v, 'ru')}",
            ),
            round(factor * v, 4),
            unit="km/turn",
            rule="4.8",
        )
        turns = form_up + to_road + total / (factor * v)
        ex.step(
            Text(
                en(f"time: {num(form_up)} + {num(to_road)} + {num(total)} / {num(factor * v)}"),
                f"время: {num(form_up, 'ru')} + {num(to_road, 'ru')} + {num(total, 'ru')} / "
                f"{num(factor * v, 'ru')}",
            ),
            round(turns, 4),
            unit="turn",
            rule="4.8",
        )
        times = approach[1][: len(approach[0])] + [leg / (factor * v) for leg in legs]
        times = times[: len(path)]
        plan = _schedule(path, times, u.left, form_up, order.halts, cuts)
        ex.step(
            Text("where it stops each turn", "где она к концу каждого хода"),
            " ".join(str(c) for c in plan),
            rule="4.8",
        )
        length = int(rules.value("march", "length"))
        new = _on_road(state, u, path, plan[0], length)
        busy = (
            Busy("march", float(len(plan) - 1), tuple(plan[1:]), plan=tuple(path))
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
    path: list[Cell],
    times: list[float],
    first_turn: float,
    form_up: float,
    halts: tuple[Cell, ...],
    cuts: list[Cut],
) -> list[Cell]:
    """The cell the head has reached at the end of each turn. The column moves on without a
    break: forming up first, then each step of `path` in `times[i]` turns (the first is 0), the
    march's distance counted whole (4.8), not turn by turn. A halt stops it for the rest of its
    turn (9.3 if the halt is out of that turn's reach)."""
    arrive = list(itertools.accumulate(times, initial=form_up))[1:]
    plan: list[Cell] = []
    end = first_turn
    while True:
        t = len(plan)
        pos = max(i for i, at in enumerate(arrive) if at <= end + 1e-9)
        if t < len(halts) and halts[t] in path:
            stop = path.index(halts[t])
            if plan and stop < path.index(plan[-1]):
                pass  # a halt already passed: nothing to wait for
            elif stop <= pos:
                wait = end - arrive[stop]
                arrive = arrive[: stop + 1] + [at + wait for at in arrive[stop + 1 :]]
                pos = stop
            else:
                cuts.append(
                    cut(
                        "9.3",
                        en(f"halt {halts[t]} is beyond the day's march: stops at {path[pos]}"),
                        f"привал {halts[t]} недостижим за ход: остановка в {path[pos]}",
                    )
                )
        plan.append(path[pos])
        if pos == len(path) - 1 or t > 200:
            return plan
        end += 1.0


def _on_road(
    state: GameState, u: UnitState, route: list[Cell], head: Cell, length: int
) -> UnitState:
    """The division stretched along the road behind its head: 1x2 on the march from its first
    turn (4.8), when the head has not yet left the cell it set out from as afterwards."""
    i = route.index(head)
    cells = route[max(0, i - length + 1) : i + 1][::-1] or [head]
    ahead = route[i + 1 : i + 2]
    while len(cells) < length:
        tail = _behind(state, u, cells, ahead)
        if tail is None:
            break
        cells.append(tail)
    return replace(u, cells=tuple(cells[:length]))


def _behind(state: GameState, u: UnitState, cells: list[Cell], ahead: list[Cell]) -> Cell | None:
    """The cell the column's rest stands on behind `cells[-1]`, the march having begun there
    (4.8): a land cell against the way the column goes, in the state it stands in if it can,
    on the road if the road goes on behind, else free of other counters if one is, else the one
    straight behind; not held by the enemy. None if there is none (the map's edge or the sea)."""
    last = cells[-1]
    front = cells[-2] if len(cells) > 1 else (ahead[0] if ahead else None)
    if front is None:
        return None
    bx, by = front.offset(last)
    side = state.scenario.state(u.owner).side
    g = state.grid
    options = []
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            c = Cell(last.lon + dx, last.lat + dy)
            back = (dx * bx + dy * by) / math.hypot(dx, dy) / math.hypot(bx, by) if dx or dy else 0
            if back <= 0 or not g.on_map(c) or c in cells or c in ahead:
                continue
            if g.relief_at(c) is terrain.Relief.WATER or state.enemy_at(c, side):
                continue
            i = terrain.index(state.theatre, c)
            abroad = g.state[i] != g.state[terrain.index(state.theatre, last)]
            options.append((abroad, not g.road[i], bool(state.occupied[i]), -back, c.lon, c.lat, c))
    return min(options)[-1] if options else None


def _blocked_ahead(state: GameState, u: UnitState, passed: list[Cell]) -> Cell | None:
    """The first cell of this turn's way that is no longer free of the enemy (4.8: a march goes
    only through space free of the enemy, checked on every turn of it), or None."""
    side = state.side_of(u.ref)
    for c in passed:
        if any(state.side_of(o.ref) != side for o in state.beside([c])):
            return c
    return None


def _march_stopped(
    state: GameState, u: UnitState, route: list[Cell], stop: Cell, rules: RuleSet
) -> tuple[UnitState, Result]:
    """A march that meets the enemy ends before the cell that is not free (4.8), the division
    recovering from it there."""
    i = route.index(stop) if stop in route else 0
    head = route[i - 1] if i > 0 and route[i - 1] != u.cell else u.cell
    title = Text(en(f"{u.ref}: the march goes on"), f"{u.ref}: марш продолжается")
    why = cut(
        "4.8",
        en(f"the road at {stop} is no longer free of the enemy: the march ends at {head}"),
        f"дорога у {stop} больше не свободна от противника: марш закончен в {head}",
    )
    with explain(title, rule="4.8") as ex:
        record(why.reason, None, kind="cut", rule="4.8")
        ex.set(0.0)
    arrived = replace(_arrived(replace(u, cells=(head,)), rules), spent=1.0)
    label = u.busy.label.ru if u.busy is not None else "марш"
    return arrived, Result(f"{u.ref} ({label})", where(arrived), ex.freeze(), (why,))


def _arrived(u: UnitState, rules: RuleSet) -> UnitState:
    rest = float(rules.value("march", "recovery_turns"))
    return at_work(replace(u, cells=u.cells[:1], on_march=False), Busy("recovering", rest), rules)


def transfer(state: GameState, order: Transfer, rules: RuleSet) -> tuple[GameState, Result]:
    """Begin a transfer between cities (4.5) on the planner's schedule."""
    u = state.unit(order.unit)
    title = Text(
        en(f"Transfer of {u.ref} from {u.cell} to {order.to}"),
        f"Переброска {u.ref} из {u.cell} в {order.to}",
    )
    cuts: list[Cut] = []
    with explain(title, rule="4.5", unit="turn") as ex:
        if u.busy is not None:
            cuts.append(
                cut(
                    "4.5",
                    en(f"{u.ref} is busy: a transfer begins with a whole turn"),
                    f"{u.ref} занята: переброска начинается с целого хода",
                )
            )
            ex.set(0.0)
            return state, Result(order.format("ru"), where(u), ex.freeze(), tuple(cuts))
        try:
            plan = plan_transfer(state.theatre, u.cell, order.to, rules)
        except TransferError as e:
            cuts.append(Cut(Text(str(e), e.say("ru")), "4.5"))
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
                    en(f"the route is closed at {shut[0]} by artillery fire"),
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
                            en(
                                f"{pos.cell} will hold {divisions(len(at))} in transit: at most "
                                f"{cap}"
                            ),
                            f"в узле {pos.cell} уже будет {divisions(len(at), 'ru')} в пути: "
                            f"не более {cap}",
                        )
                    )
                    ex.set(0.0)
                    return state, Result(order.format("ru"), where(u), ex.freeze(), tuple(cuts))
        cells = tuple(pos.cell for pos in p.schedule)
        work = Busy("transfer", float(len(cells) - 1), cells[1:], plan=p.route)
        new = at_work(replace(u, cells=(cells[0],), spent=1.0), work, rules)
        ex.set(float(p.turns))
        return state.with_units([new]), Result(
            order.format("ru"), where(new), ex.freeze(), tuple(cuts)
        )


def column_turn(
    state: GameState, u: UnitState, rules: RuleSet
) -> tuple[UnitState | None, Result | None]:
    """One more turn of a march or a transfer: the head to the next position of the plan. Fire on
    the cells it passes (9.7d) weakens it, and a transfer fired on ends there (4.5); the unit
    (None if destroyed) and the account of the fire, if any."""
    b = u.busy
    assert b is not None and b.what in ("march", "transfer")
    nxt, rest = b.target[0], b.target[1:]
    route = [c if isinstance(c, Cell) else Cell.parse(str(c)) for c in b.plan]
    passed = route[route.index(u.cell) + 1 : route.index(nxt) + 1] if u.cell in route else [nxt]
    title = Text(en(f"{u.ref}: {b.label.en} goes on"), f"{u.ref}: {b.label.ru} продолжается")
    fired: Result | None = None  # a march fired on that goes on: the account of its losses
    with explain(title, rule="4.5" if b.what == "transfer" else "4.8") as ex:
        hit, at = interdicted(state, u, [u.cell, *passed], rules)
        lost = fire_losses(state, u, hit, at)
        if hit is None or at is not None:
            ex.set(0.0)
            if hit is None:
                text = Text(en(f"{u.ref} destroyed at {at}"), f"{u.ref} уничтожена в {at}")
                return None, Result(f"{u.ref} ({b.label.ru})", text, ex.freeze(), losses=lost)
            if hit.busy is not None and hit.busy.what == "recovering":  # a transfer cut short
                moved = replace(hit, cells=(at,) if at else hit.cells, spent=1.0)
                return moved, Result(
                    f"{u.ref} ({b.label.ru})", where(moved), ex.freeze(), losses=lost
                )
            u = hit
            fired = Result(f"{u.ref} ({b.label.ru})", where(u), ex.freeze(), losses=lost)
    if b.what == "march":
        if (stop := _blocked_ahead(state, u, passed)) is not None:
            return _march_stopped(state, u, route, stop, rules)
        new = _on_road(state, u, route, nxt, int(rules.value("march", "length")))
        if rest:
            going = replace(new, spent=1.0, busy=replace(b, left=float(len(rest)), target=rest))
            return going, _told_where(fired, going)
        arrived = _arrived(new, rules)
        if arrived.busy is not None and b.then:  # the work that follows the march (4.11)
            arrived = replace(arrived, busy=replace(arrived.busy, then=b.then))
        return replace(arrived, spent=1.0), _told_where(fired, arrived)
    new = replace(u, cells=(nxt,), spent=1.0)
    if rest:
        return replace(new, busy=replace(b, left=float(len(rest)), target=rest)), None
    recovery = float(rules.value("rail_transfer", "recovery_turns"))
    return at_work(new, Busy("recovering", recovery), rules), None


def _told_where(fired: Result | None, u: UnitState) -> Result | None:
    """The account of fire on a march that goes on (9.7d), saying where the column now is."""
    if fired is None:
        return None
    return Result(fired.order, where(u), fired.explanation, losses=fired.losses)


__all__ = ["column_turn", "march", "transfer"]
