"""What each step on the grid costs a unit, in turns (table 4).

A step goes to one of the eight neighbours: 10 km straight, 10·√2 km diagonally. Off the roads
half the step is in the cell left and half in the cell entered, each at table 4's speed for its
relief; along a road (bridges and passes included, 4.2) or a trail the whole step is at the
route's speed. A step over a river adds the turns table 4 gives for the crossing; a road step
over a river is a bridge and adds nothing. The cheapest of the ways open to the unit is its cost.

What a unit can reach with these costs is `strategia.engine.reach`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
import xarray as xr

from strategia.core.geometry import Cell
from strategia.rules import RuleSet
from strategia.rules.kinds import DivisionKind
from strategia.theatre import terrain
from strategia.theatre.terrain import DELTAS, RELIEF_TERRAIN_KEY, TRAIL_TERRAIN_KEY, Relief

INF = math.inf
HOW = ("ground", "road", "trail", "road at the ground's pace")
STEP_KM = np.array([10.0 * math.hypot(dx, dy) for dx, dy in DELTAS.tolist()])


@dataclass(frozen=True, eq=False)
class Speeds:
    """Table 4's column for one unit type at one level: km a turn by terrain, river turns."""

    kind: DivisionKind
    ground: dict[Relief, float]  # 0: not off a route ("по тропам" or impassable)
    trails_only: frozenset[Relief]
    road: float
    trail: dict[Relief, float]  # trail speed by the relief it runs through
    river_turns: float  # INF: impassable

    @cached_property
    def key(self) -> tuple[Any, ...]:
        """A hashable summary, for caches."""
        return (
            self.kind,
            tuple(sorted(self.ground.items())),
            self.trails_only,
            self.road,
            tuple(sorted(self.trail.items())),
            self.river_turns,
        )

    def describe(self, relief: Relief, how: str) -> str:
        if how == "road":
            return "road"
        if how == "trail":
            return TRAIL_TERRAIN_KEY.get(relief, RELIEF_TERRAIN_KEY[relief])
        return RELIEF_TERRAIN_KEY[relief]


def _speed(value: Any) -> float:
    return 0.0 if isinstance(value, str) else float(value)


_SPEEDS: dict[tuple[int, DivisionKind], tuple[RuleSet, Speeds]] = {}


def speeds(kind: DivisionKind, rules: RuleSet) -> Speeds:
    """A unit type's speeds from table 4 (read through the rules; cached per ruleset)."""
    hit = _SPEEDS.get((id(rules), kind))
    if hit is not None and hit[0] is rules:
        return hit[1]
    if len(_SPEEDS) > 256:
        _SPEEDS.clear()
    sp = _speeds(kind, rules)
    _SPEEDS[(id(rules), kind)] = (rules, sp)
    return sp


def _speeds(kind: DivisionKind, rules: RuleSet) -> Speeds:
    col = kind.key if kind is not DivisionKind.FORTRESS else "rifle"
    ground: dict[Relief, float] = {Relief.WATER: 0.0}
    trails_only = set()
    for relief in (Relief.PLAIN, Relief.MOUNTAINS, Relief.FOREST, Relief.SWAMP, Relief.HILLS):
        row = RELIEF_TERRAIN_KEY[relief]
        if not rules.active("movement", row):
            continue
        value = rules.value("movement", row, col)
        ground[relief] = _speed(value)
        if value == "trails":
            trails_only.add(relief)
    trail: dict[Relief, float] = {}
    for relief, row in TRAIL_TERRAIN_KEY.items():
        if rules.active("movement", row):
            trail[relief] = _speed(rules.value("movement", row, col))
    river = rules.value("movement", "river", col)
    return Speeds(
        kind=kind,
        ground=ground,
        trails_only=frozenset(trails_only),
        road=_speed(rules.value("movement", "road", col)),
        trail=trail,
        river_turns=INF if river == "impassable" else float(river),
    )


@dataclass(frozen=True)
class StepCosts:
    """For one unit type: `cost[k, i, j]` turns for the step from cell (i, j) in direction k.

    `how[k, i, j]` is 0 off the roads, 1 along a road, 2 along a trail (3 along a road at the
    ground's pace, `roads_at_ground_pace`); `river[k, i, j]` the
    turns of a river crossing included in the cost; `crosses[k, i, j]` whether the step fords
    a river (not by a bridge).
    """

    speeds: Speeds
    cost: np.ndarray
    how: np.ndarray
    river: np.ndarray
    crosses: np.ndarray


def _by_relief(relief: np.ndarray, table: dict[Relief, float], default: float = 0.0) -> np.ndarray:
    lut = np.full(len(Relief), default, dtype=float)
    for r, v in table.items():
        lut[int(r)] = v
    return np.asarray(lut[relief], dtype=float)


def _inv(km_per_turn: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore"):
        return np.where(km_per_turn > 0, 1.0 / np.maximum(km_per_turn, 1e-12), INF)


_CACHE: dict[tuple[Any, ...], tuple[xr.Dataset, StepCosts]] = {}


def step_costs(
    ds: xr.Dataset,
    sp: Speeds,
    level: int,
    closed_roads: frozenset[Cell] = frozenset(),
    use_roads: bool = True,
) -> StepCosts:
    """The step costs of one unit type on the theatre (cached per theatre, speeds and closures)."""
    key = (id(ds), sp.key, level, closed_roads, use_roads)
    if key in _CACHE:  # the entry keeps `ds` alive, so its id cannot be reused by another map
        return _CACHE[key][1]
    relief = terrain.relief_at_level(ds, level)
    w, h = relief.shape
    inv_ground = _inv(_by_relief(relief, sp.ground))
    inv_trail = _inv(_by_relief(relief, sp.trail, default=0.0))
    # a trail through open ground or hills goes at the ground's pace
    inv_trail = np.where(np.isin(relief, list(sp.trail)), inv_trail, inv_ground)
    roads = terrain.route_steps(ds, "road", level) if use_roads else np.zeros((8, w, h), bool)
    trails = terrain.route_steps(ds, "trail", level)
    if closed_roads:
        shut = np.zeros((w, h), dtype=bool)
        for c in closed_roads:
            if terrain.on_map(ds, c):
                shut[terrain.index(ds, c)] = True
        for k, (dx, dy) in enumerate(DELTAS.tolist()):
            roads[k] &= ~shut & ~terrain.shifted(shut, dx, dy, True)
    crossings = terrain.river_crossings(ds)
    cost = np.full((8, w, h), INF)
    how = np.zeros((8, w, h), dtype=np.int8)
    river = np.zeros((8, w, h))
    crosses = np.zeros((8, w, h), dtype=bool)
    for k, (dx, dy) in enumerate(DELTAS.tolist()):
        half = STEP_KM[k] / 2
        on_map = terrain.shifted(np.ones((w, h), bool), dx, dy, False)
        ground = half * (inv_ground + terrain.shifted(inv_ground, dx, dy, INF))
        trail = half * (inv_trail + terrain.shifted(inv_trail, dx, dy, INF))
        trail = np.where(trails[k], trail, INF)
        ford = np.where(crossings[k], sp.river_turns, 0.0)
        off_route = np.where(ford > 0, ground + ford, ground)
        on_trail = np.where(ford > 0, trail + ford, trail)
        road = np.where(roads[k], STEP_KM[k] / sp.road if sp.road > 0 else INF, INF)
        best = np.minimum(np.minimum(off_route, on_trail), road)
        choice = np.where(best == road, 1, np.where(best == on_trail, 2, 0)).astype(np.int8)
        cost[k] = np.where(on_map, best, INF)
        how[k] = choice
        river[k] = np.where(choice == 1, 0.0, ford)
        crosses[k] = crossings[k] & (choice != 1)
    result = StepCosts(sp, cost, how, river, crosses)
    if len(_CACHE) > 256:
        _CACHE.clear()
    _CACHE[key] = (ds, result)
    return result


def roads_at_ground_pace(
    ds: xr.Dataset, sp: Speeds, level: int, closed_roads: frozenset[Cell] = frozenset()
) -> StepCosts:
    """The road steps only, each at the pace of the ground it crosses (4.3: a turn on a road
    drops the road's speed for the rest of the move, so an order to go by road keeps to the
    road at the speed of the ground; a bridge still carries it over the river). Every other
    step is closed (cached like `step_costs`)."""
    key = ("ground pace", id(ds), sp.key, level, closed_roads)
    if key in _CACHE:
        return _CACHE[key][1]
    road = step_costs(ds, sp, level, closed_roads)
    inv_ground = _inv(_by_relief(terrain.relief_at_level(ds, level), sp.ground))
    cost = np.full(road.cost.shape, INF)
    for k, (dx, dy) in enumerate(DELTAS.tolist()):
        pace = STEP_KM[k] / 2 * (inv_ground + terrain.shifted(inv_ground, dx, dy, INF))
        cost[k] = np.where((road.how[k] == 1) & np.isfinite(road.cost[k]), pace, INF)
    none = np.zeros(cost.shape, dtype=bool)
    how = np.full(cost.shape, HOW.index("road at the ground's pace"), dtype=np.int8)
    result = StepCosts(sp, cost, how, np.zeros(cost.shape), none)
    _CACHE[key] = (ds, result)
    return result
