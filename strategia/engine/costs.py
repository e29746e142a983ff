"""What each step on the grid costs a unit, in turns, and what it can reach this turn.

A step goes to one of the eight neighbours: 10 km straight, 10·√2 km diagonally. Off the roads
half the step is in the cell left and half in the cell entered, each at table 4's speed for its
relief; along a road (bridges and passes included, 4.2) or a trail the whole step is at the
route's speed. A step over a river adds the turns table 4 gives for the crossing; a road step
over a river is a bridge and adds nothing. The cheapest of the ways open to the unit is its cost.

Reachability runs `scipy.sparse.csgraph.dijkstra` over a window of cells around each unit; the
windows of many units form one block-diagonal graph searched in one call (`min_only`), so the
reachable areas of a thousand divisions cost one pass through compiled code.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import xarray as xr
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra

from strategia.core.geometry import Cell, Direction
from strategia.rules import RuleSet
from strategia.rules.kinds import DivisionKind
from strategia.theatre import terrain
from strategia.theatre.terrain import DELTAS, RELIEF_TERRAIN_KEY, TRAIL_TERRAIN_KEY, Relief

INF = math.inf
HOW = ("ground", "road", "trail")
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

    @property
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

    `how[k, i, j]` is 0 off the roads, 1 along a road, 2 along a trail; `river[k, i, j]` the
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


# --- reachability ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Reach:
    """Where a unit can get this turn: cost in turns to every cell of a window around it."""

    origin: Cell
    corner: tuple[int, int]  # array index of the window's (0, 0) cell on the map
    dist: np.ndarray  # (n, n) turns; INF beyond reach
    pred: np.ndarray  # (n, n) flat window index of the previous cell; -1 at the start
    budget: float
    allowed: np.ndarray  # (n, n) bool: may end its move here (sector of 4.2, not blocked)
    shape: tuple[int, int]  # the map's size

    @property
    def mask(self) -> np.ndarray:
        return np.asarray((self.dist <= self.budget + 1e-9) & self.allowed, dtype=bool)

    def _cell(self, a: int, b: int) -> Cell:
        return Cell(self.corner[0] + a + 1, self.corner[1] + b + 1)

    def _ab(self, cell: Cell) -> tuple[int, int] | None:
        a, b = cell.lon - 1 - self.corner[0], cell.lat - 1 - self.corner[1]
        n = self.dist.shape[0]
        return (a, b) if 0 <= a < n and 0 <= b < n else None

    def cost_to(self, cell: Cell) -> float:
        ab = self._ab(cell)
        return INF if ab is None else float(self.dist[ab])

    def reachable(self, cell: Cell) -> bool:
        ab = self._ab(cell)
        return ab is not None and bool(self.mask[ab])

    def cells(self) -> list[Cell]:
        return [self._cell(int(a), int(b)) for a, b in zip(*np.nonzero(self.mask), strict=True)]

    def path_to(self, cell: Cell) -> list[Cell]:
        """The cheapest path from the origin to `cell` (both included); [] if not reached."""
        ab = self._ab(cell)
        if ab is None or not np.isfinite(self.dist[ab]):
            return []
        n = self.dist.shape[0]
        out = []
        node = ab[0] * n + ab[1]
        while node >= 0:
            a, b = divmod(int(node), n)
            out.append(self._cell(a, b))
            node = int(self.pred[a, b])
        return out[::-1]

    def to_dataarray(self, ds: xr.Dataset) -> xr.DataArray:
        """The reachable area as a (lon, lat) boolean mask over the whole map."""
        w, h = self.shape
        full = np.zeros((w, h), dtype=bool)
        n = self.dist.shape[0]
        i0, j0 = self.corner
        a0, b0 = max(0, -i0), max(0, -j0)
        a1, b1 = min(n, w - i0), min(n, h - j0)
        full[i0 + a0 : i0 + a1, j0 + b0 : j0 + b1] = self.mask[a0:a1, b0:b1]
        return xr.DataArray(
            full, coords={"lon": ds.lon, "lat": ds.lat}, dims=("lon", "lat"), name="reach"
        )


@dataclass(frozen=True)
class ReachRequest:
    """One unit's search: where it starts, its step costs, the directions it may step in."""

    origin: Cell
    costs: StepCosts
    directions: tuple[int, ...]  # indices into DELTAS
    budget: float
    sector: tuple[Direction, float] | None  # (facing, max degrees) the destination must lie in
    cost_factor: float = 1.0  # 2.0 for a level-3 withdrawal at half speed (4.4)


def radius(budget: float, fastest_km: float) -> int:
    """The window half-size that holds every cell reachable on `budget` turns."""
    return max(1, math.ceil(budget * fastest_km / 10.0) + 1)


PAD = 32  # the margin kept around cached cost arrays: windows up to this radius need no copy


def _padded(costs: StepCosts, r: int) -> tuple[np.ndarray, int]:
    """The cost array with a margin of at least `r` cells of INF, and that margin."""
    pad = max(PAD, r)
    key = (id(costs), pad)
    if key not in _PADDED:
        if len(_PADDED) > 64:
            _PADDED.clear()
        _PADDED[key] = (
            costs,
            np.pad(costs.cost, ((0, 0), (pad, pad), (pad, pad)), constant_values=INF),
        )
    return _PADDED[key][1], pad


_PADDED: dict[tuple[int, int], tuple[StepCosts, np.ndarray]] = {}


def _window(a: np.ndarray, i0: int, j0: int, n: int, fill: bool) -> np.ndarray:
    """The n x n window of a 2-d array from (i0, j0), `fill` outside it."""
    out = np.full((n, n), fill, dtype=a.dtype)
    w, h = a.shape
    a0, b0 = max(0, -i0), max(0, -j0)
    a1, b1 = min(n, w - i0), min(n, h - j0)
    if a1 > a0 and b1 > b0:
        out[a0:a1, b0:b1] = a[i0 + a0 : i0 + a1, j0 + b0 : j0 + b1]
    return out


def reach_many(requests: list[ReachRequest], blocked: np.ndarray, r: int) -> list[Reach]:
    """Every request's reachable window, searched together in one csgraph call.

    `blocked[i, j]` cells cannot be entered or passed through (other counters); a unit's own
    cell is never blocked for it.
    """
    if not requests:
        return []
    w, h = blocked.shape
    n = 2 * r + 1
    m = len(requests)
    size = n * n
    aa, bb = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    i0 = np.array([q.origin.lon - 1 - r for q in requests])
    j0 = np.array([q.origin.lat - 1 - r for q in requests])
    if m <= 4:
        win_block = np.stack(
            [_window(blocked, int(i), int(j), n, True) for i, j in zip(i0, j0, strict=True)]
        )
    else:
        padded_blocked = np.pad(blocked, r, constant_values=True)
        win_block = padded_blocked[
            i0[:, None, None] + r + aa[None], j0[:, None, None] + r + bb[None]
        ]
    win_block[:, r, r] = False
    factor = np.array([q.cost_factor for q in requests])[:, None, None]
    dirs = np.zeros((m, 8), dtype=bool)
    for u, q in enumerate(requests):
        dirs[u, list(q.directions)] = True
    win_cost = np.empty((8, m, n, n))
    groups: dict[int, list[int]] = {}
    for u, q in enumerate(requests):
        groups.setdefault(id(q.costs), []).append(u)
    for members in groups.values():
        padded, pad = _padded(requests[members[0]].costs, r)
        idx = np.array(members)
        if len(members) == 1:
            u = members[0]
            a0, b0 = int(i0[u]) + pad, int(j0[u]) + pad
            win_cost[:, u] = padded[:, a0 : a0 + n, b0 : b0 + n] * factor[u]
        else:
            ia = i0[idx][:, None, None] + pad + aa[None]
            jb = j0[idx][:, None, None] + pad + bb[None]
            win_cost[:, idx] = padded[:, ia, jb] * factor[idx][None]
    rows: list[np.ndarray] = []
    cols: list[np.ndarray] = []
    vals: list[np.ndarray] = []
    for k in range(8):
        dx, dy = (int(v) for v in DELTAS[k])
        ta, tb = aa + dx, bb + dy
        inside = (ta >= 0) & (ta < n) & (tb >= 0) & (tb < n)
        tac, tbc = np.clip(ta, 0, n - 1), np.clip(tb, 0, n - 1)
        ok = inside[None] & np.isfinite(win_cost[k]) & dirs[:, k][:, None, None]
        ok &= ~win_block[:, tac, tbc] & ~win_block
        u_idx, a_idx, b_idx = np.nonzero(ok)
        rows.append(u_idx * size + a_idx * n + b_idx)
        cols.append(u_idx * size + (a_idx + dx) * n + (b_idx + dy))
        vals.append(np.maximum(win_cost[k][ok], 1e-9))
    graph = csr_matrix(
        (np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))),
        shape=(m * size, m * size),
    )
    corners = list(zip(i0.tolist(), j0.tolist(), strict=True))
    starts = np.array([u * size + r * n + r for u in range(m)])
    limit = max(req.budget for req in requests) + 1e-9
    dist, pred, _ = dijkstra(
        graph, directed=True, indices=starts, limit=limit, min_only=True, return_predecessors=True
    )
    out = []
    for u, req in enumerate(requests):
        d = dist[u * size : (u + 1) * size].reshape(n, n)
        p = pred[u * size : (u + 1) * size].copy()
        p = np.where(p >= 0, p - u * size, -1).reshape(n, n)
        allowed = np.ones((n, n), dtype=bool)
        if req.sector is not None:
            facing, max_deg = req.sector
            fx, fy = facing.delta
            norm = math.hypot(fx, fy)
            offset_a, offset_b = aa - r, bb - r
            dot = (offset_a * fx + offset_b * fy) / norm
            length = np.hypot(offset_a, offset_b)
            with np.errstate(invalid="ignore", divide="ignore"):
                cosang = np.where(length > 0, dot / np.maximum(length, 1e-12), 1.0)
            allowed = cosang >= math.cos(math.radians(max_deg)) - 1e-9
        out.append(Reach(req.origin, corners[u], d, p, req.budget, allowed, (w, h)))
    return out
