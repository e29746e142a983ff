"""Drawing lines on the theatre: routes cell to cell, rivers along grid lines, and back again.

Routes (roads, railways, trails) are written as cells; between two cells that are not neighbours
a straight line of cells is drawn. Rivers are written as grid corners with half-integer
coordinates (`10.5,4.5` is the corner between cells 10 and 11 of longitude, 4 and 5 of
latitude), joined by straight segments along the grid lines.
"""

from __future__ import annotations

import itertools
import re
from collections import defaultdict
from fractions import Fraction

import numpy as np

from strategia.core.errors import StrategiaError
from strategia.core.geometry import Cell, Direction
from strategia.notation.refs import NotationError, parse_cell

Vertex = tuple[Fraction, Fraction]


def cell_line(a: Cell, b: Cell) -> list[Cell]:
    """The straight line of cells from `a` to `b`, each a neighbour of the last (both included)."""
    d_lon, d_lat = a.offset(b)
    n = max(abs(d_lon), abs(d_lat))
    if n == 0:
        return [a]
    # k·d/n rounded half up, in whole numbers: ⌊(2·k·d + n) / 2n⌋
    return [
        Cell(a.lon + (2 * k * d_lon + n) // (2 * n), a.lat + (2 * k * d_lat + n) // (2 * n))
        for k in range(n + 1)
    ]


def parse_route(text: str, size: tuple[int, int] | None = None) -> list[Cell]:
    """The cells of a route written as waypoints (`10,5 20,5 25,10`), filled with straight lines;
    with the map's `size`, a waypoint off the map is refused before any line is drawn."""
    tokens = text.split()
    if not tokens:
        raise StrategiaError(
            f"{text!r}: a route needs at least one cell",
            ru=f"{text!r}: в пути нужна хоть одна клетка",
        )
    try:
        points = [parse_cell(t) for t in tokens]
    except NotationError as e:
        raise StrategiaError(f"{text!r}: {e}", ru=f"{text!r}: {e.say('ru')}") from None
    if size is not None:
        w, h = size
        for p in points:
            if not (1 <= p.lon <= w and 1 <= p.lat <= h):
                raise StrategiaError(
                    f"route cell {p} off the map, which is {w} x {h}",
                    ru=f"клетка пути {p} вне карты (карта {w} × {h})",
                )
    cells = [points[0]]
    for p in points[1:]:
        cells += cell_line(cells[-1], p)[1:]
    return cells


def draw_route(mask: np.ndarray, cells: list[Cell], origin: tuple[int, int] = (1, 1)) -> None:
    """Set the direction bits of a route along `cells` in the bitmask array `mask`, in place."""
    w, h = mask.shape
    for a, b in itertools.pairwise(cells):
        d_lon, d_lat = a.offset(b)
        if max(abs(d_lon), abs(d_lat)) != 1:
            raise StrategiaError(
                f"route step {a} -> {b}: cells are not neighbours",
                ru=f"шаг пути {a} -> {b}: клетки не соседние",
            )
        ia, ja = a.lon - origin[0], a.lat - origin[1]
        ib, jb = b.lon - origin[0], b.lat - origin[1]
        for i, j, c in ((ia, ja, a), (ib, jb, b)):
            if not (0 <= i < w and 0 <= j < h):
                raise StrategiaError(
                    f"route cell {c} off the map, which is {w} x {h}",
                    ru=f"клетка пути {c} вне карты (карта {w} × {h})",
                )
        k = Direction.from_delta(d_lon, d_lat).index
        mask[ia, ja] |= np.uint8(1 << k)
        mask[ib, jb] |= np.uint8(1 << ((k + 4) % 8))


_VERTEX = re.compile(r"^\s*(\d+(?:\.5)?)\s*,\s*(\d+(?:\.5)?)\s*$")


def parse_vertex(text: str) -> Vertex:
    m = _VERTEX.match(text)
    if not m:
        raise StrategiaError(
            f"{text!r}: a river corner is written like 10.5,4.5 (between cells)",
            ru=f"{text!r}: угол реки пишется так: 10.5,4.5 (между клетками)",
        )
    x, y = Fraction(m.group(1)), Fraction(m.group(2))
    if x.denominator != 2 or y.denominator != 2:
        raise StrategiaError(
            f"{text!r}: a river runs between cells: both coordinates end in .5",
            ru=f"{text!r}: река идет между клетками: обе координаты кончаются на .5",
        )
    return x, y


def parse_river(text: str) -> list[Vertex]:
    """A river's corners (`10.5,4.5 10.5,9.5 14.5,9.5`); consecutive ones share a grid line."""
    vertices = [parse_vertex(t) for t in text.split()]
    if len(vertices) < 2:
        raise StrategiaError(
            f"{text!r}: a river needs at least two corners",
            ru=f"{text!r}: у реки нужны хотя бы два угла",
        )
    for a, b in itertools.pairwise(vertices):
        if a[0] != b[0] and a[1] != b[1]:
            raise StrategiaError(
                f"{text!r}: {_fmt_vertex(a)} -> {_fmt_vertex(b)} is not along a grid line "
                "(one coordinate must stay the same)",
                ru=f"{text!r}: {_fmt_vertex(a)} -> {_fmt_vertex(b)} не по линии сетки "
                "(одна координата должна остаться той же)",
            )
    return vertices


def _fmt_vertex(v: Vertex) -> str:
    return f"{float(v[0]):g},{float(v[1]):g}"


def draw_river(
    river_e: np.ndarray,
    river_n: np.ndarray,
    vertices: list[Vertex],
    origin: tuple[int, int] = (1, 1),
) -> None:
    """Set the river edges along the corners, in place."""
    w, h = river_e.shape
    for a, b in itertools.pairwise(vertices):
        if a[0] == b[0]:  # along a meridian line: east edges of the cells west of it
            i = int(a[0] - Fraction(1, 2)) - origin[0]
            lo, hi = sorted((a[1], b[1]))
            for lat in range(int(lo + Fraction(1, 2)), int(hi + Fraction(1, 2))):
                j = lat - origin[1]
                if 0 <= i < w and 0 <= j < h:
                    river_e[i, j] = True
                elif i == -1 and 0 <= j < h:
                    continue  # the map's west edge: nothing to cross
                else:
                    raise StrategiaError(
                        f"river segment {_fmt_vertex(a)} -> {_fmt_vertex(b)} leaves the map",
                        ru=f"участок реки {_fmt_vertex(a)} -> {_fmt_vertex(b)} уходит за карту",
                    )
        else:  # along a parallel: north edges of the cells south of it
            j = int(a[1] - Fraction(1, 2)) - origin[1]
            lo, hi = sorted((a[0], b[0]))
            for lon in range(int(lo + Fraction(1, 2)), int(hi + Fraction(1, 2))):
                i = lon - origin[0]
                if 0 <= i < w and 0 <= j < h:
                    river_n[i, j] = True
                elif j == -1 and 0 <= i < w:
                    continue
                else:
                    raise StrategiaError(
                        f"river segment {_fmt_vertex(a)} -> {_fmt_vertex(b)} leaves the map",
                        ru=f"участок реки {_fmt_vertex(a)} -> {_fmt_vertex(b)} уходит за карту",
                    )


def _chains(edges: dict[object, set[object]]) -> list[list[object]]:
    """Split an undirected graph into paths, straight runs kept whole (Euler-style walks)."""
    adj = {k: set(v) for k, v in edges.items()}
    chains: list[list[object]] = []

    def walk(start: object) -> list[object]:
        path = [start]
        cur = start
        while adj.get(cur):
            nxt = min(adj[cur], key=repr)
            adj[cur].discard(nxt)
            adj[nxt].discard(cur)
            path.append(nxt)
            cur = nxt
        return path

    for start in sorted((k for k in adj if len(adj[k]) % 2 == 1), key=repr):
        if adj[start]:
            chains.append(walk(start))
    for start in sorted(adj, key=repr):
        while adj[start]:
            chains.append(walk(start))
    return chains


def _compress(points: list[tuple[int, int]] | list[Vertex]) -> list[int]:
    """Indices of the points to keep: ends and direction changes."""
    keep = [0]
    for k in range(1, len(points) - 1):
        d1 = (points[k][0] - points[k - 1][0], points[k][1] - points[k - 1][1])
        d2 = (points[k + 1][0] - points[k][0], points[k + 1][1] - points[k][1])
        if d1 != d2:
            keep.append(k)
    keep.append(len(points) - 1)
    return keep


def route_paths(mask: np.ndarray, origin: tuple[int, int] = (1, 1)) -> list[str]:
    """A route bitmask written back as waypoint lines (what `parse_route` reads)."""
    edges: dict[object, set[object]] = defaultdict(set)
    for i, j in zip(*np.nonzero(mask), strict=True):
        for d in Direction:
            if int(mask[i, j]) >> d.index & 1:
                a = (int(i) + origin[0], int(j) + origin[1])
                b = (a[0] + d.delta[0], a[1] + d.delta[1])
                edges[a].add(b)
                edges[b].add(a)
    out = []
    for chain in _chains(edges):
        pts = [(int(p[0]), int(p[1])) for p in chain]  # type: ignore[index]
        out.append(" ".join(f"{pts[k][0]},{pts[k][1]}" for k in _compress(pts)))
    return out


def river_paths(
    river_e: np.ndarray, river_n: np.ndarray, origin: tuple[int, int] = (1, 1)
) -> list[str]:
    """River edges written back as corner lines (what `parse_river` reads)."""
    half = Fraction(1, 2)
    edges: dict[object, set[object]] = defaultdict(set)
    for i, j in zip(*np.nonzero(river_e), strict=True):
        x = Fraction(int(i) + origin[0]) + half
        a, b = (x, Fraction(int(j) + origin[1]) - half), (x, Fraction(int(j) + origin[1]) + half)
        edges[a].add(b)
        edges[b].add(a)
    for i, j in zip(*np.nonzero(river_n), strict=True):
        y = Fraction(int(j) + origin[1]) + half
        a, b = (Fraction(int(i) + origin[0]) - half, y), (Fraction(int(i) + origin[0]) + half, y)
        edges[a].add(b)
        edges[b].add(a)
    out = []
    for chain in _chains(edges):
        pts: list[Vertex] = chain  # type: ignore[assignment]
        out.append(" ".join(_fmt_vertex(pts[k]) for k in _compress(pts)))
    return out
