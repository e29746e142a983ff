"""Reachability: what a unit can reach this turn, and the cheapest path there (4.2-4.4).

`scipy.sparse.csgraph.dijkstra` searches a square window of cells around the unit, of the step
costs of its type (`strategia.engine.costs`), other counters' cells blocked. One unit's window is
a graph of fixed shape whose weights alone change, so its edges are laid out once per window
size and set of directions it may step in (`_template`) and each search only gathers the costs
and closes the edges into or out of a blocked cell; the windows of many units form one
block-diagonal graph searched in one call (`min_only`), so the reachable areas of a thousand
divisions cost one pass through compiled code.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import xarray as xr
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra

from strategia.core.geometry import Cell, Direction
from strategia.engine.costs import INF, StepCosts
from strategia.theatre.terrain import DELTAS


@dataclass(frozen=True, slots=True)
class Reach:
    """Where a unit can get this turn: cost in turns to every cell of a window around it."""

    origin: Cell
    corner: tuple[int, int]  # array index of the window's (0, 0) cell on the map
    dist: np.ndarray  # (n, n) turns; INF beyond reach
    pred: np.ndarray  # (n, n) flat window index of the previous cell; negative at the start
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

    def nearest(self, target: Cell) -> Cell:
        """The reachable cell nearest `target` (the cheaper of equally near ones, then the
        first in `cells`' order); the origin if none is reachable."""
        aa, bb = np.nonzero(self.mask)
        if not len(aa):
            return self.origin
        d_lon = target.lon - 1 - self.corner[0] - aa
        d_lat = target.lat - 1 - self.corner[1] - bb
        km = np.sqrt((d_lon * d_lon + d_lat * d_lat).astype(float)) * 10.0  # = Cell.km, exactly
        first = int(np.lexsort((self.dist[aa, bb], km))[0])  # a stable sort: ties keep order
        return self._cell(int(aa[first]), int(bb[first]))

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


@dataclass(frozen=True, slots=True)
class ReachRequest:
    """One unit's search: where it starts, its step costs, the directions it may step in."""

    origin: Cell
    costs: StepCosts
    directions: tuple[int, ...]  # indices into DELTAS
    budget: float
    sector: tuple[Direction, float] | None  # (facing, max degrees) the destination must lie in
    cost_factor: float = 1.0  # 2.0 for a level-3 withdrawal at half speed (4.4)

    def starting(self, origin: Cell, budget: float) -> ReachRequest:
        """The same search from `origin` on `budget` turns (made for every leg of a move, so
        without `dataclasses.replace`'s introspection)."""
        return ReachRequest(
            origin, self.costs, self.directions, budget, self.sector, self.cost_factor
        )


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


@dataclass(frozen=True, eq=False)
class _Template:
    """The edges of an n x n window's 8-neighbour graph in the directions a search may step
    in, in CSR order: each edge's source and target (flat window indices) and direction; the
    graph object whose weights each search sets. (A direction not taken has no edges: a
    closed edge is never followed, so the search is the same as with it closed.)"""

    n: int
    src: np.ndarray
    dst: np.ndarray
    k: np.ndarray
    a: np.ndarray  # the source's row and column in the window
    b: np.ndarray
    graph: csr_matrix


@lru_cache(maxsize=256)
def _template(n: int, directions: tuple[int, ...]) -> _Template:
    aa, bb = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    src, dst, ks = [], [], []
    for k, (dx, dy) in enumerate(DELTAS.tolist()):
        if k not in directions:
            continue
        ta, tb = aa + dx, bb + dy
        inside = (ta >= 0) & (ta < n) & (tb >= 0) & (tb < n)
        src.append((aa * n + bb)[inside])
        dst.append((ta * n + tb)[inside])
        ks.append(np.full(int(inside.sum()), k))
    s, d, k_ = np.concatenate(src), np.concatenate(dst), np.concatenate(ks)
    order = np.lexsort((d, s))
    s, d, k_ = s[order], d[order], k_[order]
    indptr = np.searchsorted(s, np.arange(n * n + 1)).astype(np.int32)
    graph = csr_matrix((np.ones(len(s)), d.astype(np.int32), indptr), shape=(n * n, n * n))
    return _Template(n, s, d, k_, s // n, s % n, graph)


@lru_cache(maxsize=1024)
def _cost_index(t: _Template, shape: tuple[int, int, int]) -> np.ndarray:
    """Each of the template's edges' flat index into a (8, W, H) cost array, for a window at
    (0, 0)."""
    _, wp, hp = shape
    return np.asarray(t.k * (wp * hp) + t.a * hp + t.b, dtype=np.intp)


def _one_weights(
    req: ReachRequest, blocked: np.ndarray, r: int, open_cells: tuple[Cell, ...]
) -> np.ndarray:
    """One request's window edges' weights, in its template's CSR order: the step costs
    gathered (times the request's factor, at least 1e-9), INF where the step enters or leaves
    a blocked cell."""
    w, h = blocked.shape
    n = 2 * r + 1
    t = _template(n, req.directions)
    i0, j0 = req.origin.lon - 1 - r, req.origin.lat - 1 - r
    padded, pad = _padded(req.costs, r)
    offset = (i0 + pad) * padded.shape[2] + (j0 + pad)
    data = padded.ravel().take(_cost_index(t, padded.shape) + offset)
    if req.cost_factor != 1.0:
        data *= req.cost_factor
    np.maximum(data, 1e-9, out=data)
    if min(i0, j0) >= 0 and i0 + n <= w and j0 + n <= h:  # the window inside the map
        win = (blocked[i0 : i0 + n, j0 : j0 + n] != 0).ravel()
    else:
        win = (_window(blocked, i0, j0, n, True) != 0).ravel()
    win[r * n + r] = False
    for c in open_cells:
        a, b = c.lon - 1 - i0, c.lat - 1 - j0
        if 0 <= a < n and 0 <= b < n and 0 < c.lon <= w and 0 < c.lat <= h:
            win[a * n + b] = False
    return _close(data, win, t)


def _close(data: np.ndarray, win: np.ndarray, t: _Template) -> np.ndarray:
    """`data` (the weights of `t`'s edges, the last axis) INF on the edges into or out of a
    cell `win` marks blocked (its last axis: the window's cells)."""
    shut = win[..., t.src]
    shut |= win[..., t.dst]
    data[shut] = INF
    return data


def search_one(
    req: ReachRequest, blocked: np.ndarray, r: int, open_cells: tuple[Cell, ...] = ()
) -> Reach:
    """One request's reachable window: its costs gathered into the window's fixed graph."""
    n = 2 * r + 1
    t = _template(n, req.directions)
    t.graph.data = _one_weights(req, blocked, r, open_cells)
    dist, pred = dijkstra(
        t.graph, directed=True, indices=r * n + r, limit=req.budget + 1e-9,
        return_predecessors=True,
    )  # fmt: skip
    corner = (req.origin.lon - 1 - r, req.origin.lat - 1 - r)
    return Reach(
        req.origin, corner, dist.reshape(n, n), pred.reshape(n, n), req.budget,
        _sector(r, req.sector), blocked.shape,
    )  # fmt: skip


@lru_cache(maxsize=256)
def _sector(r: int, sector: tuple[Direction, float] | None) -> np.ndarray:
    """The window's cells within `sector` (facing, max degrees) of its centre (4.2)."""
    n = 2 * r + 1
    if sector is None:
        return np.ones((n, n), dtype=bool)
    aa, bb = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    facing, max_deg = sector
    fx, fy = facing.delta
    offset_a, offset_b = aa - r, bb - r
    dot = (offset_a * fx + offset_b * fy) / math.hypot(fx, fy)
    length = np.hypot(offset_a, offset_b)
    with np.errstate(invalid="ignore", divide="ignore"):
        cosang = np.where(length > 0, dot / np.maximum(length, 1e-12), 1.0)
    out = np.asarray(cosang >= math.cos(math.radians(max_deg)) - 1e-9)
    out.setflags(write=False)
    return out


def reach_many(
    requests: list[ReachRequest], blocked: np.ndarray, r: int, open_cells: tuple[Cell, ...] = ()
) -> list[Reach]:
    """Every request's reachable window, searched together in one csgraph call.

    Cells where `blocked[i, j]` is nonzero (other counters) cannot be entered or passed
    through, but for `open_cells`; a unit's own cell is never blocked for it. The windows
    are one block-diagonal graph, each block its request's template with its own weights
    (`_one_weights`, gathered for the requests of one kind and facing at once), the blocks
    in the requests' order.
    """
    if not requests:
        return []
    if len(requests) == 1:
        return [search_one(requests[0], blocked, r, open_cells)]
    n = 2 * r + 1
    m, size = len(requests), n * n
    templates = [_template(n, q.directions) for q in requests]
    first = np.zeros(m + 1, dtype=np.int64)  # each block's first edge
    np.cumsum([len(t.src) for t in templates], out=first[1:])
    data = np.empty(int(first[-1]))
    indices = np.empty(int(first[-1]), dtype=np.int32)
    indptr = np.empty((m, size), dtype=np.int32)
    open_blocked = blocked != 0
    for c in open_cells:
        if 0 < c.lon <= blocked.shape[0] and 0 < c.lat <= blocked.shape[1]:
            open_blocked[c.lon - 1, c.lat - 1] = False
    framed = np.pad(open_blocked, r, constant_values=True)
    aa, bb = np.divmod(np.arange(size), n)
    groups: dict[tuple[int, tuple[int, ...]], list[int]] = {}
    for u, q in enumerate(requests):
        groups.setdefault((id(q.costs), q.directions), []).append(u)
    for members in groups.values():
        q, t, us = requests[members[0]], templates[members[0]], np.array(members)
        i0 = np.array([requests[u].origin.lon - 1 - r for u in members])
        j0 = np.array([requests[u].origin.lat - 1 - r for u in members])
        padded, pad = _padded(q.costs, r)
        offsets = (i0 + pad) * padded.shape[2] + (j0 + pad)
        weights = padded.ravel().take(_cost_index(t, padded.shape)[None] + offsets[:, None])
        factors = np.array([requests[u].cost_factor for u in members])
        if (factors != 1.0).any():
            weights *= factors[:, None]
        np.maximum(weights, 1e-9, out=weights)
        win = framed[i0[:, None] + r + aa, j0[:, None] + r + bb]
        win[:, r * n + r] = False
        _close(weights, win, t)
        at = first[us][:, None] + np.arange(len(t.src))
        data[at] = weights
        indices[at] = t.dst + size * us[:, None]
        indptr[us] = t.graph.indptr[:-1] + first[us][:, None]
    graph = csr_matrix(
        (data, indices, np.append(indptr.ravel(), np.int32(first[-1]))),
        shape=(m * size, m * size),
    )
    starts = np.arange(m) * size + r * n + r
    limit = max(req.budget for req in requests) + 1e-9
    dist, pred, _ = dijkstra(
        graph, directed=True, indices=starts, limit=limit, min_only=True, return_predecessors=True
    )
    pred = np.where(pred >= 0, pred - np.repeat(np.arange(m) * size, size), -1)
    dist, pred = dist.reshape(m, n, n), pred.reshape(m, n, n)
    out = []
    for u, q in enumerate(requests):
        corner = (q.origin.lon - 1 - r, q.origin.lat - 1 - r)
        allowed = _sector(r, q.sector)
        out.append(Reach(q.origin, corner, dist[u], pred[u], q.budget, allowed, blocked.shape))
    return out
