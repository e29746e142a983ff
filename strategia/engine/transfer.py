"""Transfers of troops between cities (4.5): the route, the day's stages, the turns, the schedule.

A transfer takes `base_turns` plus `turns_per_node` for each transport node (a cell where more
than three routes meet), whatever the distance; the troops move at the end of each turn to the
next node. Readings taken:

- 4.5 as it reads (the default, `rail_transfer.count_every_node`): "a turn for each transport
  node", the troops moving "at the end of each turn to the next node": every node on the
  shortest route is a stop. Where the next node (or the goal) is more than `day_max_km` away,
  the comment's 200-800 rule adds a quasi-node: the farthest city within the day's reach, else
  the route cell at (or just short of) `day_max_km`.
- The other reading, kept as a house rule (`count_every_node = false`): a day's stage ends at
  the first node at least `day_min_km` and at most `day_max_km` away (nearer nodes are passed),
  and only those stops and the quasi-nodes are counted.
- The base turns are the assembly at the start (all but one) and the arrival; each stop holds
  the division `turns_per_node` turns. "On turn N" the division is where the schedule puts it at
  the end of turn N (turn 1 at the start, the last turn at the goal); a transfer attacked on
  turn N ends there.

At level 1 railways do not exist (a level-2 layer) and a transfer goes by road; from level 2
`rail_only` limits it to railways (by road it is a march, 4.8), or, set to 0 by a house rule,
lets it use roads and railways alike.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import xarray as xr
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra

from strategia.core.errors import StrategiaError
from strategia.core.geometry import Cell
from strategia.core.i18n import Text
from strategia.explain.trace import Explained, Trace, explain
from strategia.rules import RuleSet
from strategia.rules.english import en
from strategia.theatre import terrain

RULE = "4.5"
NETWORKS = {
    ("rail",): Text("railway", "железная дорога"),
    ("road",): Text("road", "дорога"),
    ("road", "rail"): Text("road or railway", "дорога или железная дорога"),
}
WHAT = {
    "assemble": Text("assembling at the point of departure", "сосредоточение в пункте отправки"),
    "node": Text("at a transport node", "в транспортном узле"),
    "quasi": Text("at a quasi-node", "в квазиузле"),
    "arrive": Text("at the destination", "в пункте назначения"),
}
READINGS = {
    True: Text(
        "4.5: a turn for each transport node on the way, and the troops move to the next node "
        "at the end of each turn (a quasi-node where the next is beyond a day's stage)",
        "4.5: по ходу на каждый транспортный узел на пути, войска перемещаются к следующему "
        "узлу по завершении хода (квазиузел, если следующий дальше дневного перегона)",
    ),
    False: Text(
        "house rule: only the nodes where a 200-800 km day's stage ends are counted "
        "(nodes passed are not, quasi-nodes are)",
        "правило по соглашению: считаются только узлы, где кончается дневной перегон 200-800 км "
        "(проезжаемые не считаются, квазиузлы считаются)",
    ),
}
RECOVERY = Text(
    "not combat-capable in transit (9.17); combat capability regained in",
    "в пути небоеспособны (9.17); боеспособность восстанавливается за",
)


class TransferError(StrategiaError):
    """A transfer that cannot be made: names the cells and the problem."""


class Position(NamedTuple):
    """Where a division in transfer is on a turn of it (at the end of that turn)."""

    turn: int
    cell: Cell
    what: str  # a key of WHAT

    @property
    def label(self) -> Text:
        return WHAT[self.what]


@dataclass(frozen=True, slots=True)
class TransferPlan:
    """A transfer planned by 4.5: route, stops (nodes and quasi-nodes), turns and schedule."""

    start: Cell
    goal: Cell
    network: tuple[str, ...]  # the route layers used: ("rail",), ("road",) or both
    route: tuple[Cell, ...]  # every cell, start and goal included
    km: float
    stops: tuple[Cell, ...]  # intermediate stops, in order
    quasi: tuple[bool, ...]  # for each stop: a quasi-node (not a transport node)
    stage_km: tuple[float, ...]  # each day's stage, len(stops) + 1 of them
    turns: int
    schedule: tuple[Position, ...]  # one per turn
    recovery_turns: int  # to regain combat capability after arrival (9.17)


def position_after(plan: TransferPlan, turns_elapsed: int) -> Cell:
    """Where the division is once `turns_elapsed` turns of the transfer have passed."""
    if turns_elapsed < 0:
        raise TransferError(f"transfer {plan.start} -> {plan.goal}: {turns_elapsed} turns elapsed")
    if turns_elapsed >= plan.turns:
        return plan.goal
    return plan.start if turns_elapsed == 0 else plan.schedule[turns_elapsed - 1].cell


def cut_short(plan: TransferPlan, at_turn: int) -> Cell:
    """Where a transfer attacked on turn `at_turn` (1-based) ends: its position on that turn."""
    if not 1 <= at_turn <= plan.turns:
        raise TransferError(
            f"transfer {plan.start} -> {plan.goal}: attacked on turn {at_turn}, "
            f"but the transfer lasts turns 1 to {plan.turns}"
        )
    return plan.schedule[at_turn - 1].cell


def plan_transfer(
    ds: xr.Dataset, start: Cell, goal: Cell, rules: RuleSet
) -> Explained[TransferPlan]:
    """The transfer of a division from city `start` to city `goal` (4.5), with its explanation."""
    where, where_ru = f"transfer {start} -> {goal}", f"переброска {start} → {goal}"
    for cell in (start, goal):
        if not terrain.on_map(ds, cell):
            w, h = terrain.size(ds)
            raise TransferError(
                f"{where}: {cell} is off the map, which is {w} x {h}",
                ru=f"{where_ru}: {cell} вне карты (карта {w} × {h})",
            )
        if ds["settlement"].values[terrain.index(ds, cell)] == 0:
            raise TransferError(
                f"{where}: {cell} is not a city", ru=f"{where_ru}: {cell} — не город"
            )
    if start == goal:
        raise TransferError(
            f"{where}: the start and the goal are the same cell",
            ru=f"{where_ru}: откуда и куда — одна клетка",
        )
    names = {c: n for n, c in terrain.places(ds)}

    def name(c: Cell) -> str:
        return f"{names[c]} ({c})" if c in names else str(c)

    title = Text(
        en(f"Transfer {name(start)} -> {name(goal)}"), f"Переброска {name(start)} → {name(goal)}"
    )
    with explain(title, rule=RULE, unit="turn") as ex:
        network = _network(rules, ex)
        net = NETWORKS[network]
        steps = np.logical_or.reduce([terrain.route_steps(ds, k, rules.level) for k in network])
        label = Text(en(f"shortest route by {net.en}"), f"кратчайший путь: {net.ru}")
        with explain(label, rule=RULE, unit="km") as g:
            path, dist = _shortest(ds, steps, float(rules.value("scale", "cell_km")), start, goal)
            if path is None:
                hint = _hint(ds, rules, start, goal, network)
                raise TransferError(
                    f"{where}: no {net.en} connects them{hint}",
                    ru=f"{where_ru}: их не соединяет {net.ru}",
                )
            g.step(Text("cells on the route", "клеток на пути"), len(path), rule=RULE)
            g.set(round(float(dist[-1]), 1))
        route = tuple(Cell(int(ds.lon[i]), int(ds.lat[j])) for i, j in path)
        label = Text("day's stages (200-800 km)", "дневные перегоны (200-800 км)")
        with explain(label, rule=RULE) as g:
            picked = _stages_explained(ds, rules, g, network, steps, path, dist, route, name)
        stops = tuple(route[i] for i, _ in picked)
        quasi = tuple(q for _, q in picked)
        with explain(Text("turns", "ходов"), rule=RULE, unit="turn") as g:
            base = int(rules.value("rail_transfer", "base_turns"))
            per = int(rules.value("rail_transfer", "turns_per_node"))
            turns = base + per * len(stops)
            g.step(Text(en(f"{base} + {per} × {len(stops)}")), turns, unit="turn", rule=RULE)
            g.set(turns)
        with explain(RECOVERY, rule=RULE, unit="turn") as g:
            recovery = int(rules.value("rail_transfer", "recovery_turns"))
            g.set(recovery)
        schedule = _schedule(start, goal, stops, quasi, base, per)
        with explain(Text("schedule (end of turn)", "график (на конец хода)"), rule=RULE) as g:
            for p in schedule:
                at = (f"turn {p.turn}: {name(p.cell)}, ", f"ход {p.turn}: {name(p.cell)}, ")
                g.step(Text(at[0] + p.label.en, at[1] + p.label.ru), rule=RULE)
        ends = [0, *(i for i, _ in picked), len(route) - 1]
        stage_km = tuple(round(float(dist[b] - dist[a]), 1) for a, b in itertools.pairwise(ends))
        km = round(float(dist[-1]), 1)
        ex.set(turns)
        return ex.explained(
            TransferPlan(
                start, goal, network, route, km, stops, quasi, stage_km, turns, schedule, recovery
            )
        )


def _stages_explained(
    ds: xr.Dataset,
    rules: RuleSet,
    g: Trace,
    network: tuple[str, ...],
    steps: np.ndarray,
    path: list[tuple[int, int]],
    dist: np.ndarray,
    route: tuple[Cell, ...],
    name: Callable[[Cell], str],
) -> list[tuple[int, bool]]:
    """The stops (route index, quasi) by the 200-800 rule, each node and stage recorded."""
    label = Text("transport nodes on the route", "транспортные узлы на пути")
    with explain(label, rule=RULE) as gn:
        min_roads = int(rules.value("rail_transfer", "node_min_roads"))
    if len(network) == 1:
        nodes = terrain.transport_nodes(ds, min_roads, network[0])
    else:
        nodes = steps.sum(axis=0) >= min_roads
    ii, jj = np.array(path).T
    is_node = np.asarray(nodes[ii, jj], dtype=bool)
    is_node[[0, -1]] = False
    every = bool(rules.value("rail_transfer", "count_every_node"))
    lo = float(rules.value("rail_transfer", "day_min_km"))
    hi = float(rules.value("rail_transfer", "day_max_km"))
    towns = ds["settlement"].values[ii, jj] > 0
    picked = (
        _every_node(dist, is_node, towns, hi) if every else _stages(dist, is_node, towns, lo, hi)
    )
    quasi = dict(picked)
    for i in np.flatnonzero(is_node).tolist():
        used = Text("a stop", "остановка") if i in quasi else Text("passed", "проезд")
        at = name(route[i])
        gn.step(
            Text(en(f"{at}: {used.en}"), f"{at}: {used.ru}"), _km(dist[i]), unit="km", rule=RULE
        )
    gn.set(int(is_node.sum()))
    ends = [*quasi, len(route) - 1]
    for n, (a, b) in enumerate(zip([0, *ends[:-1]], ends, strict=True), 1):
        kind = WHAT["arrive" if b == len(route) - 1 else "quasi" if quasi[b] else "node"]
        text = (f"{name(route[a])} -> {name(route[b])}", f"{name(route[a])} → {name(route[b])}")
        g.step(
            Text(en(f"stage {n}: {text[0]}, {kind.en}"), f"перегон {n}: {text[1]}, {kind.ru}"),
            _km(dist[b] - dist[a]),
            unit="km",
            rule=RULE,
        )
    g.step(READINGS[every], kind="note", rule=RULE)
    g.set(len(picked))
    return picked


def _km(x: float) -> float:
    return round(float(x), 1)


def _network(rules: RuleSet, ex: Trace) -> tuple[str, ...]:
    """The route layers a transfer may use at the game's level."""
    if not rules.active("rail_transfer", "rail_only"):
        ex.step(
            Text(
                en(f"level {rules.level}: railways are a level-2 layer; the transfer goes by road"),
                f"{rules.level} уровень: железных дорог нет (2 уровень); переброска по дорогам",
            ),
            kind="note",
            rule=RULE,
        )
        return ("road",)
    if int(rules.value("rail_transfer", "rail_only")) == 1:
        return ("rail",)
    return ("road", "rail")


def _shortest(
    ds: xr.Dataset, steps: np.ndarray, cell_km: float, start: Cell, goal: Cell
) -> tuple[list[tuple[int, int]] | None, np.ndarray]:
    """The shortest route (array indices) along `steps`, with the km to each of its cells."""
    _, w, h = steps.shape
    ids = np.arange(w * h).reshape(w, h)
    rows, cols, km = [], [], []
    for k, (dx, dy) in enumerate(terrain.DELTAS.tolist()):
        ii, jj = np.nonzero(steps[k])
        ok = (ii + dx >= 0) & (ii + dx < w) & (jj + dy >= 0) & (jj + dy < h)
        rows.append(ids[ii[ok], jj[ok]])
        cols.append(ids[ii[ok] + dx, jj[ok] + dy])
        km.append(np.full(int(ok.sum()), cell_km * math.hypot(dx, dy)))
    graph = csr_matrix(
        (np.concatenate(km), (np.concatenate(rows), np.concatenate(cols))), shape=(w * h, w * h)
    )
    s, g = int(ids[terrain.index(ds, start)]), int(ids[terrain.index(ds, goal)])
    dist, pred = dijkstra(graph, directed=True, indices=s, return_predecessors=True)
    if not np.isfinite(dist[g]):
        return None, np.zeros(0)
    chain = [g]
    while chain[-1] != s:
        chain.append(int(pred[chain[-1]]))
    chain.reverse()
    return [divmod(c, h) for c in chain], np.asarray(dist[chain], dtype=float)


def _hint(ds: xr.Dataset, rules: RuleSet, start: Cell, goal: Cell, network: tuple[str, ...]) -> str:
    """Why a railway-only transfer fails where a road would serve."""
    if network != ("rail",):
        return ""
    path, _ = _shortest(ds, terrain.route_steps(ds, "road", rules.level), 1.0, start, goal)
    return "; a road does: by road it is a march (4.8)" if path is not None else ""


def _stages(
    dist: np.ndarray, is_node: np.ndarray, is_town: np.ndarray, lo: float, hi: float
) -> list[tuple[int, bool]]:
    """The route indices where a day's stage ends short of the goal, each with `quasi`."""
    last, cur, eps = len(dist) - 1, 0, 1e-6
    picked: list[tuple[int, bool]] = []
    while True:
        ahead = np.arange(cur + 1, last)
        reach = dist[ahead] - dist[cur]
        in_day = ahead[(reach >= lo - eps) & (reach <= hi + eps)]
        nodes = in_day[is_node[in_day]]
        if nodes.size:
            picked.append((int(nodes[0]), False))
        elif dist[last] - dist[cur] <= hi + eps:
            return picked
        else:
            towns = in_day[is_town[in_day]]
            within = ahead[reach <= hi + eps]
            nxt = towns[-1] if towns.size else within[-1] if within.size else cur + 1
            picked.append((int(nxt), True))
        cur = picked[-1][0]


def _every_node(
    dist: np.ndarray, is_node: np.ndarray, is_town: np.ndarray, hi: float
) -> list[tuple[int, bool]]:
    """Every node on the route is a stop (4.5); a quasi-node where the next stop is beyond a
    day's stage of `hi` km: the farthest city within it, else the farthest route cell."""
    last, cur, eps = len(dist) - 1, 0, 1e-6
    picked: list[tuple[int, bool]] = []
    for target in [*np.flatnonzero(is_node).tolist(), last]:
        while dist[target] - dist[cur] > hi + eps:
            ahead = np.arange(cur + 1, target)
            within = ahead[dist[ahead] - dist[cur] <= hi + eps]
            towns = within[is_town[within]]
            nxt = int(towns[-1] if towns.size else within[-1] if within.size else cur + 1)
            picked.append((nxt, True))
            cur = nxt
        if target != last:
            picked.append((int(target), False))
            cur = int(target)
    return picked


def _schedule(
    start: Cell, goal: Cell, stops: tuple[Cell, ...], quasi: tuple[bool, ...], base: int, per: int
) -> tuple[Position, ...]:
    """Where the division is on each turn: the base turns are the assembly and the arrival."""
    cells = [(start, "assemble")] * max(base - 1, 0)
    for cell, q in zip(stops, quasi, strict=True):
        cells += [(cell, "quasi" if q else "node")] * per
    if base >= 1:
        cells.append((goal, "arrive"))
    elif cells:
        cells[-1] = (goal, "arrive")
    return tuple(Position(t, c, w) for t, (c, w) in enumerate(cells, 1))
