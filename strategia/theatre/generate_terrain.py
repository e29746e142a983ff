"""Random theatres for quick trials: plausible relief, states and routes (`generate` adds forces).

    >>> ds = random_theatre(64, 44, seed=7)

One seeded `numpy.random.Generator` makes everything: the same arguments give an identical
theatre. Relief lies in patches (smoothed noise cut at the requested shares), mountains in ranges,
water as a sea on one edge and lakes. Red holds the east, Blue the west of a wavy border; Greens
hold bands along the south and north edges. Each state's land is one piece with its capital;
roads join every city, railways run from the capitals to the main cities, rivers run along grid
lines to the far edge or to water. The arrays are built directly with numpy, for speed.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping

import numpy as np
import xarray as xr
from scipy import ndimage
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra, minimum_spanning_tree, shortest_path

from strategia.core.errors import StrategiaError
from strategia.theatre import terrain
from strategia.theatre.terrain import DELTAS, Relief

DEFAULT_SIZE = (64, 44)  # the default scenario's
DEFAULT_SHARES = {"mountains": 0.05, "forest": 0.18, "swamp": 0.05, "hills": 0.10, "water": 0.04}
MAIN_STATES = (("R", "Красная Федерация", "red"), ("B", "Синяя Конфедерация", "blue"))
GREEN_CODES = "GHJKLMNPQSTUVWXYZ"
DEPLOYABLE = (Relief.PLAIN, Relief.FOREST, Relief.HILLS)
# the share of each division kind in a side's forces; the rest are с.д.
_ROAD_COST = np.array([1.0, 5.0, 2.0, 4.0, 1.6, np.inf])  # a road builder's effort, by Relief
_STEP = np.hypot(DELTAS[:, 0], DELTAS[:, 1])
_DIR = np.zeros((3, 3), dtype=np.int64)
_DIR[DELTAS[:, 0] + 1, DELTAS[:, 1] + 1] = np.arange(8)
_STEMS = "Красн Син Бел Черн Нов Стар Верхн Нижн Бор Лес Озер Камен Ольх Берез Дуб Сосн Яр Луг"
_ENDS = "оград овск ево ино ец ое одар ополь огорск ичи ов янск"

Rng = np.random.Generator
Ij = tuple[int, int]


def _smooth(rng: Rng, shape: tuple[int, ...], sigma: float) -> np.ndarray:
    """White noise smoothed over `sigma` cells, scaled to mean 0 and deviation 1."""
    g = ndimage.gaussian_filter(rng.standard_normal(shape), sigma, mode="wrap")
    return np.asarray((g - g.mean()) / max(float(g.std()), 1e-12))


def _top(score: np.ndarray, free: np.ndarray, k: int) -> np.ndarray:
    """The `k` free cells of highest score."""
    idx = np.flatnonzero(free)
    out = np.zeros(free.shape, dtype=bool)
    out.flat[idx[np.argsort(-score.flat[idx], kind="stable")[: max(k, 0)]]] = True
    return out


def _states(rng: Rng, w: int, h: int, n: int) -> np.ndarray:
    """State codes 1..n: Red east, Blue west of a wavy border; Greens in bands south and north."""
    i, j = np.arange(w)[:, None], np.arange(h)[None, :]
    border = w / 2 + _smooth(rng, (h,), max(1.0, h / 8)) * w / 14
    st = np.where(i >= border[None, :], 1, 2).astype(np.int8)
    greens, band = n - 2, max(2, h // 6)
    for g in range(greens):
        south = g % 2 == 0
        parts = (greens + 1) // 2 if south else greens // 2
        edge = (band + _smooth(rng, (w,), max(1.0, w / 10)) * band / 3)[:, None]
        inside = (j < edge) if south else (j >= h - edge)
        st[inside & (i * parts // w == g // 2)] = 3 + g
    return st


def _relief(rng: Rng, st: np.ndarray, shares: Mapping[str, float]) -> np.ndarray:
    """Relief in patches: a sea on the south or north edge and lakes, ranges, then blobs."""
    w, h = st.shape
    relief = np.zeros((w, h), dtype=np.int8)
    n_water = round(shares["water"] * w * h)
    lat = np.broadcast_to(np.arange(h, dtype=float)[None, :], (w, h))
    depth = lat if rng.random() < 0.5 else h - 1 - lat
    sea = _top(-depth + 2 * _smooth(rng, (w, h), 3), np.ones((w, h), bool), int(n_water * 0.6))
    on_border = np.zeros((w, h), dtype=bool)
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        on_border |= terrain.shifted(st, dx, dy, 0) != st
    lakes = _top(_smooth(rng, (w, h), 1.5), ~sea & ~on_border, n_water - int(sea.sum()))
    relief[sea | lakes] = Relief.WATER
    free = ~(sea | lakes)
    ranges = -np.abs(_smooth(rng, (w, h), 4)) + 0.6 * _smooth(rng, (w, h), 10)
    for kind, score in (
        (Relief.MOUNTAINS, ranges),
        (Relief.SWAMP, _smooth(rng, (w, h), 2.5)),
        (Relief.FOREST, _smooth(rng, (w, h), 3)),
        (Relief.HILLS, _smooth(rng, (w, h), 3)),
    ):
        patch = _top(score, free, round(shares[kind.name.lower()] * w * h))
        relief[patch] = kind
        free &= ~patch
    return relief


def _capitals(st: np.ndarray, relief: np.ndarray, n: int) -> list[Ij]:
    """Each state's capital: the open cell deepest inside its land."""
    good = np.isin(relief, DEPLOYABLE)
    out: list[Ij] = []
    for s in range(1, n + 1):
        own = (st == s) & (relief != Relief.WATER)
        if not own.any():
            raise StrategiaError(
                f"state {s} has no land: make the map larger or less watery",
                ru=f"у государства {s} нет суши: увеличьте карту или уменьшите воду",
            )
        depth = ndimage.distance_transform_edt(np.pad(own, 1))[1:-1, 1:-1]
        score = np.where(own, depth + 1e4 * good, -1.0)
        i, j = np.unravel_index(int(np.argmax(score)), st.shape)
        out.append((int(i), int(j)))
    return out


def _connect(st: np.ndarray, relief: np.ndarray, capitals: list[Ij]) -> None:
    """Make each state's land one piece with its capital, in place: strays go to a neighbour."""
    land = relief != Relief.WATER
    st[~land] = 0
    for s, (i, j) in enumerate(capitals, start=1):
        lab, _ = ndimage.label(st == s)
        st[(lab > 0) & (lab != lab[i, j])] = 0
    while (gap := land & (st == 0)).any():
        grown = False
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            nb = terrain.shifted(st, dx, dy, 0)
            fill = land & (st == 0) & (nb > 0)
            st[fill] = nb[fill]
            grown |= bool(fill.any())
        if not grown:  # islands nobody reaches sink
            relief[gap] = Relief.WATER
            break


def _river(rng: Rng, relief: np.ndarray, east: np.ndarray, north: np.ndarray) -> int:
    """Draw one river flowing north or south along grid lines, to the far edge or to water.

    Works on grid corners (x, y), x in 0..w: a meridian segment is an east edge, a parallel
    segment a north edge. Returns the number of edges drawn.
    """
    w, h = relief.shape
    water = relief == Relief.WATER
    x = int(rng.integers(max(1, w // 6), max(2, w - w // 6)))
    down = bool(rng.random() < 0.5)
    y, dy = (h, -1) if down else (0, 1)
    drawn, run, side = 0, 0, 0
    while 0 <= y + dy <= h:
        if run > 0 and 1 <= x + side <= w - 1:  # a bend: along the parallel
            lo = min(x, x + side)
            if water[lo, y - 1] or water[lo, y]:
                break
            north[lo, y - 1] = True
            x, run = x + side, run - 1
        else:  # downstream along the meridian
            lo = min(y, y + dy)
            if water[x - 1, lo] or water[x, lo]:
                break
            east[x - 1, lo] = True
            y, run = y + dy, 0
            if 0 < y < h and rng.random() < 0.35:
                run, side = int(rng.integers(1, 4)), int(rng.choice([-1, 1]))
        drawn += 1
    return drawn


def _spaced(rng: Rng, candidates: np.ndarray, k: int, r: int, blocked: np.ndarray) -> list[Ij]:
    """Up to `k` random candidate cells at least `r` + 1 apart and off `blocked` (updated)."""
    h = candidates.shape[1]
    out: list[Ij] = []
    for f in rng.permutation(np.flatnonzero(candidates)).tolist():
        if len(out) >= k:
            break
        i, j = divmod(f, h)
        if not blocked[i, j]:
            out.append((i, j))
            blocked[max(0, i - r) : i + r + 1, max(0, j - r) : j + r + 1] = True
    return out


def _draw(mask: np.ndarray, path: np.ndarray) -> None:
    """Set a route's direction bits along a path of neighbouring cells ((L, 2) indices)."""
    d = np.diff(path, axis=0)
    k = _DIR[d[:, 0] + 1, d[:, 1] + 1]
    np.bitwise_or.at(mask, (path[:-1, 0], path[:-1, 1]), (1 << k).astype(np.uint8))
    np.bitwise_or.at(mask, (path[1:, 0], path[1:, 1]), (1 << ((k + 4) % 8)).astype(np.uint8))


Links = dict[tuple[int, int], tuple[np.ndarray, float]]  # (city, city): (path, cost)


def _links(
    rng: Rng, relief: np.ndarray, crossings: np.ndarray, cities: list[Ij], extra: int
) -> Links:
    """Roads joining every city: the cheapest ways between neighbouring cities.

    One multi-source Dijkstra over the land shares it out among the cities; where two shares
    meet lies the cheapest way between those cities. A minimum spanning tree of these links,
    and the `extra` cheapest others, are built.
    """
    w, h = relief.shape
    cell = _ROAD_COST[relief] * np.exp(0.25 * _smooth(rng, (w, h), 2))
    flat = np.arange(w * h).reshape(w, h)
    rows, cols, vals = [], [], []
    for k, (dx, dy) in enumerate(DELTAS.tolist()):
        weight = _STEP[k] * (cell + terrain.shifted(cell, dx, dy, np.inf)) / 2 + 6.0 * crossings[k]
        ok = np.isfinite(weight)
        rows.append(flat[ok])
        cols.append(terrain.shifted(flat, dx, dy, -1)[ok])
        vals.append(weight[ok])
    r, c, v = np.concatenate(rows), np.concatenate(cols), np.concatenate(vals)
    nodes = np.array([i * h + j for i, j in cities])
    graph = csr_matrix((v, (r, c)), shape=(w * h, w * h))
    dist, pred, src = dijkstra(graph, indices=nodes, min_only=True, return_predecessors=True)
    which = np.full(w * h + 1, -1)
    which[nodes] = np.arange(len(nodes))
    share = which[np.where(src >= 0, src, w * h)]
    ok = (share[r] >= 0) & (share[c] >= 0) & (share[r] < share[c])
    r, c, cost = r[ok], c[ok], (dist[r] + v + dist[c])[ok]
    key = share[r] * len(nodes) + share[c]
    order = np.lexsort((cost, key))
    best = order[np.r_[True, key[order][1:] != key[order][:-1]]]
    pa, pb = share[r[best]], share[c[best]]
    tree = minimum_spanning_tree(csr_matrix((cost[best], (pa, pb)), shape=(len(nodes),) * 2))
    if tree.nnz < len(nodes) - 1:
        raise StrategiaError(
            "the cities cannot all be joined by roads: try another seed",
            ru="города не соединить дорогами: попробуйте другое зерно",
        )
    index = {(int(a), int(b)): t for t, (a, b) in enumerate(zip(pa, pb, strict=True))}
    chosen = {index[min(a, b), max(a, b)] for a, b in zip(*tree.nonzero(), strict=True)}
    rest = [t for t in np.argsort(cost[best], kind="stable").tolist() if t not in chosen]
    chosen |= set(rest[:extra])

    def trace(node: int) -> list[int]:
        out = [node]
        while pred[out[-1]] >= 0:
            out.append(int(pred[out[-1]]))
        return out

    links: Links = {}
    for t in sorted(chosen):
        e = best[t]
        path = trace(int(r[e]))[::-1] + trace(int(c[e]))
        links[(int(pa[t]), int(pb[t]))] = (np.stack(divmod(np.array(path), h), axis=1), cost[e])
    return links


def _railways(links: Links, hub_of: list[int], main: list[int]) -> set[tuple[int, int]]:
    """The road links a railway follows: from each main city to its capital, and between the
    first two capitals (`hub_of[c]`: the capital of city c's state)."""
    n = len(hub_of)
    a, b = zip(*links, strict=True)
    graph = csr_matrix(([cost for _, cost in links.values()], (a, b)), shape=(n, n))
    hubs = sorted(set(hub_of))
    _, pred = shortest_path(graph, directed=False, indices=hubs, return_predecessors=True)
    out: set[tuple[int, int]] = set()
    for city, hub in [*((m, hub_of[m]) for m in main), (1, 0)]:
        row = pred[hubs.index(hub)]
        while city != hub and row[city] >= 0:
            prev = int(row[city])
            out.add((min(prev, city), max(prev, city)))
            city = prev
    return out


def _ensure_node(mask: np.ndarray, land: np.ndarray, at: Ij) -> None:
    """Give the cell `at` four route directions or more, with spurs to land neighbours."""
    i, j = at
    w, h = mask.shape
    for k in (0, 2, 4, 6, 1, 3, 5, 7):
        a, b = i + int(DELTAS[k, 0]), j + int(DELTAS[k, 1])
        if bin(int(mask[i, j])).count("1") >= 4:
            return
        if 0 <= a < w and 0 <= b < h and land[a, b] and not int(mask[i, j]) >> k & 1:
            _draw(mask, np.array([[i, j], [a, b]]))


def _trails(rng: Rng, relief: np.ndarray, trail: np.ndarray) -> None:
    """Short straight trails from random mountain, forest and swamp cells, in place."""
    w, h = relief.shape
    rough = np.flatnonzero(np.isin(relief, (Relief.MOUNTAINS, Relief.FOREST, Relief.SWAMP)))
    for f in rng.permutation(rough)[: max(2, w * h // 400)].tolist():
        (dx, dy), steps = DELTAS[int(rng.integers(8))].tolist(), int(rng.integers(3, 9))
        cells = [divmod(f, h)]
        while len(cells) < steps:
            a, b = cells[-1][0] + dx, cells[-1][1] + dy
            if not (0 <= a < w and 0 <= b < h) or relief[a, b] == Relief.WATER:
                break
            cells.append((a, b))
        if len(cells) >= 2:
            _draw(trail, np.array(cells))


def _names(rng: Rng, n: int) -> list[str]:
    """`n` different place names."""
    words = [s + e for s in _STEMS.split() for e in _ENDS.split()]
    order = [words[p] for p in rng.permutation(len(words)).tolist()]
    m = len(order)
    return [order[t % m] + (f" {t // m + 1}" if t >= m else "") for t in range(n)]


def _rivers(rng: Rng, relief: np.ndarray, east: np.ndarray, north: np.ndarray, n: int) -> None:
    """`n` rivers, each at least a third of the map long (five tries each), in place."""
    for _ in range(n):
        for _attempt in range(5):
            e, n_ = np.zeros_like(east), np.zeros_like(north)
            across = rng.random() < 0.5  # flowing east or west: the same walk, transposed
            drawn = _river(rng, relief.T, n_.T, e.T) if across else _river(rng, relief, e, n_)
            if drawn >= min(relief.shape) // 3:
                east |= e
                north |= n_
                break


def _routes(
    rng: Rng, ds: xr.Dataset, capitals: list[Ij], cities: int, roads: int | None
) -> list[Ij]:
    """Cities, the roads joining them all and the railways, in place; the cities' cells."""
    st, relief = ds["state"].values, ds["relief"].values
    w, h = st.shape
    blocked = np.zeros((w, h), dtype=bool)
    for i, j in capitals:
        blocked[max(0, i - 2) : i + 3, max(0, j - 2) : j + 3] = True
    spacing = max(2, int(0.5 * math.sqrt(w * h / max(cities, 1))))
    towns = _spaced(rng, (st > 0) & np.isin(relief, DEPLOYABLE), cities, spacing, blocked)
    sites = capitals + towns
    extra = len(sites) // 3 if roads is None else roads
    links = _links(rng, relief, terrain.river_crossings(ds), sites, extra)
    road, rail = ds["road"].values, ds["rail"].values
    for path, _ in links.values():
        _draw(road, path)
    ends = np.bincount(np.array(list(links)).ravel(), minlength=len(sites))
    main = [c for c in range(len(sites)) if ends[c] >= 3 or c < len(capitals)]
    hub_of = [int(st[i, j]) - 1 for i, j in sites]
    for pair in sorted(_railways(links, hub_of, main)):
        _draw(rail, links[pair][0])
    for mask in (road, rail):  # the main capitals are transport nodes (4.5)
        for at in capitals[:2]:
            _ensure_node(mask, relief != Relief.WATER, at)
    return towns


def _fortresses(rng: Rng, st: np.ndarray, open_land: np.ndarray) -> list[Ij]:
    """Fortresses of Red and Blue within 40 km of each other's border, spread along it."""
    k, h = max(1, round(st.shape[1] / 12)), st.shape[1]
    forts: list[Ij] = []
    for s in (1, 2):
        dist = ndimage.distance_transform_edt(st != 3 - s)
        near = (st == s) & open_land & (dist >= 1.5) & (dist <= 4)
        forts += _spaced(rng, near, k, max(2, h // (2 * k + 2)), np.zeros(st.shape, bool))
    return forts


def random_theatre(
    width: int,
    height: int,
    *,
    seed: int,
    shares: Mapping[str, float] | None = None,
    rivers: int = 4,
    cities: int | None = None,
    roads: int | None = None,
    states: int = 2,
    name: str = "Случайный театр",
) -> xr.Dataset:
    """A random theatre, valid per `terrain.check` and identical for the same arguments.

    `shares`: the share of the map each relief kind covers (mountains, forest, swamp, hills,
    water; missing ones as in DEFAULT_SHARES; plain is the rest). `rivers`: how many rivers.
    `cities`: cities besides the capitals (default one per 300 cells). `roads`: road links
    beyond the fewest that join every city (default a third of the cities). `states`: Red and
    Blue, and `states` - 2 Green neutrals.
    """
    if width < 8 or height < 8:
        raise StrategiaError(
            f"theatre size {width} x {height}: both must be at least 8",
            ru=f"размер театра {width} × {height}: обе стороны не меньше 8",
        )
    if not 2 <= states <= 2 + len(GREEN_CODES):
        raise StrategiaError(
            f"states={states}: from 2 to {2 + len(GREEN_CODES)}",
            ru=f"states={states}: от 2 до {2 + len(GREEN_CODES)}",
        )
    share = {**DEFAULT_SHARES, **(shares or {})}
    if set(share) != set(DEFAULT_SHARES) or min(share.values()) < 0 or sum(share.values()) > 0.9:
        raise StrategiaError(
            f"shares {shares}: of {', '.join(DEFAULT_SHARES)}, summing to <= 0.9",
            ru=f"доли {shares}: из {', '.join(DEFAULT_SHARES)}, в сумме не больше 0,9",
        )
    rng = np.random.default_rng(seed)
    st = _states(rng, width, height, states)
    relief = _relief(rng, st, share)
    st[relief == Relief.WATER] = 0
    capitals = _capitals(st, relief, states)
    _connect(st, relief, capitals)
    ds = terrain.blank(width, height, name)
    ds["relief"].values[:] = relief
    ds["state"].values[:] = st
    _rivers(rng, relief, ds["river_e"].values, ds["river_n"].values, rivers)
    n_towns = max(2 * states, width * height // 300) if cities is None else cities
    towns = _routes(rng, ds, capitals, n_towns, roads)
    _trails(rng, relief, ds["trail"].values)
    for t, (i, j) in enumerate(capitals + towns):
        ds["settlement"].values[i, j] = 2 if t < states else 1
    forts = _fortresses(rng, st, np.isin(relief, DEPLOYABLE) & (ds["settlement"].values == 0))
    ds["fortress"].values[tuple(np.array(forts, dtype=int).reshape(-1, 2).T)] = True
    kinds = ["capitals"] * states + ["cities"] * len(towns) + ["fortresses"] * len(forts)
    sites = capitals + towns + forts
    places = [
        {"name": ("Крепость " if kind == "fortresses" else "") + nm, "lon": i + 1, "lat": j + 1,
         "kind": kind}
        for nm, kind, (i, j) in zip(_names(rng, len(sites)), kinds, sites, strict=True)
    ]  # fmt: skip
    greens = [(c, f"Зелёная республика {c}", "green") for c in GREEN_CODES[: states - 2]]
    ds.attrs["states"] = json.dumps(
        [{"code": c, "name": n, "side": s} for c, n, s in (*MAIN_STATES, *greens)],
        ensure_ascii=False,
    )
    ds.attrs["places"] = json.dumps(places, ensure_ascii=False)
    return ds
