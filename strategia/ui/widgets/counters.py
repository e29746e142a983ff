"""The map's counters as plain values: each counter's features (a square over its cells
coloured by side, the arm's symbol, the number in segment digits, a bar for the strength, a
mark on the side it faces), built once for what the counter shows; the corps' outlines; and the
counters grouped by squares of the map for the map's units layer (`mapview.UnitsLayer`). Pure
functions, tested without a browser; coordinates are the grid's own (a cell's centre at its
integer lon, lat).
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import numpy as np

from strategia.core.geometry import Direction

SIDE_COLOURS = {"red": "#c62828", "blue": "#1565c0", "green": "#2e7d32", "black": "#212121"}


def _collection(features: list[dict[str, Any]]) -> dict[str, Any]:
    return {"type": "FeatureCollection", "features": features}


def _square(cells: list[tuple[int, int]]) -> list[list[list[float]]]:
    """A counter's outline over its cells: the rectangle over a row or column of cells (a
    division stretched to 1x2, 4.6, 4.8), the band along a diagonal when its cells lie
    corner to corner (a march along a diagonal road), never the cells beside them."""
    corners = sorted(
        {(_r(x + dx), _r(y + dy)) for x, y in cells for dx in (-0.42, 0.42) for dy in (-0.42, 0.42)}
    )
    if len(corners) <= 2:
        return [[list(p) for p in [*corners, corners[0]]]]

    def turn(o: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list[tuple[float, float]] = []
    upper: list[tuple[float, float]] = []
    for p in corners:
        while len(lower) >= 2 and turn(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    for p in reversed(corners):
        while len(upper) >= 2 and turn(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    hull = lower[:-1] + upper[:-1]  # counter-clockwise from the south-west corner
    return [[list(p) for p in [*hull, hull[0]]]]


# seven-segment digits: segments as ((x0, y0), (x1, y1)) in a 1 x 2 box, y up
_SEG = {
    "a": ((0, 2), (1, 2)), "b": ((1, 2), (1, 1)), "c": ((1, 1), (1, 0)), "d": ((0, 0), (1, 0)),
    "e": ((0, 0), (0, 1)), "f": ((0, 1), (0, 2)), "g": ((0, 1), (1, 1)),
}  # fmt: skip
_DIGITS = {
    "0": "abcdef", "1": "bc", "2": "abdeg", "3": "abcdg", "4": "bcfg", "5": "acdfg",
    "6": "acdefg", "7": "abc", "8": "abcdefg", "9": "abcdfg",
}  # fmt: skip


def _r(v: float) -> float:
    """A coordinate as sent to the map: to a thousandth of a cell (100 m)."""
    return round(v, 3)


def _moved(lines: tuple[tuple[tuple[float, float], ...], ...], x: float, y: float) -> list[Any]:
    return [[[_r(x + a), _r(y + b)] for a, b in line] for line in lines]


@cache
def _digits_at(number: str, height: float) -> tuple[tuple[tuple[float, float], ...], ...]:
    w = height / 2
    out = []
    for n, ch in enumerate(number):
        left = n * w * 1.5
        for seg in _DIGITS.get(ch, ""):
            (ax, ay), (bx, by) = _SEG[seg]
            out.append(((left + ax * w, ay * w), (left + bx * w, by * w)))
    return _chain(out)


def _chain(
    segments: list[tuple[tuple[float, float], tuple[float, float]]],
) -> tuple[tuple[tuple[float, float], ...], ...]:
    """Segments joined end to end into as few line strings as a greedy walk finds (the same
    strokes, fewer lines to send and draw)."""
    left = list(segments)
    lines: list[list[tuple[float, float]]] = []
    while left:
        line = list(left.pop(0))
        grown = True
        while grown:
            grown = False
            for k, (a, b) in enumerate(left):
                if a == line[-1] or b == line[-1]:
                    line.append(b if a == line[-1] else a)
                elif a == line[0] or b == line[0]:
                    line.insert(0, b if a == line[0] else a)
                else:
                    continue
                del left[k]
                grown = True
                break
        lines.append(line)
    return tuple(tuple(line) for line in lines)


def digit_height(digits: int, marks: bool = False) -> float:
    """How tall a counter's number is drawn, in cells: 0.26 (a third of the counter, so that it
    can be read on a counter of some 20 px), less for a long number, to fit the counter's width
    (its left 0.42 if the marks of its formation stand at the right)."""
    room = 0.42 if marks else 0.72
    return min(0.26, 2 * room / (1.5 * max(digits, 1) - 0.5))


def _digits(number: str, x0: float, y0: float, height: float) -> list[list[list[float]]]:
    """The number as seven-segment line strings, bottom-left at (x0, y0)."""
    return _moved(_digits_at(number, height), x0, y0)


@cache
def _symbol_at(kind: str) -> tuple[tuple[tuple[float, float], ...], ...]:
    w, h = 0.21, 0.11
    frame = [(-w, -h), (w, -h), (w, h), (-w, h), (-w, -h)]
    lines = [frame]
    cross = [[(-w, -h), (w, h)], [(-w, h), (w, -h)]]
    oval = [(0.15 * np.cos(t), 0.07 * np.sin(t)) for t in np.linspace(0, 2 * np.pi, 13)]
    dot = [(0.03 * np.cos(t), 0.03 * np.sin(t)) for t in np.linspace(0, 2 * np.pi, 7)]
    if kind in ("rifle", "motorised", "fortress"):
        lines += cross
    if kind in ("tank", "motorised", "sp_gun"):
        lines.append(oval)
    if kind in ("artillery", "sp_gun", "fortress"):
        lines.append(dot)
    if kind == "anti_tank":
        lines.append([(-w, -h), (0, h), (w, -h)])
    if kind == "cavalry":
        lines.append([(-w, -h), (w, h)])
    return tuple(tuple((float(a), float(b)) for a, b in line) for line in lines)


def _symbol(kind: str, x: float, y: float) -> list[list[list[float]]]:
    """The arm's symbol in a small frame centred at (x, y): X infantry, an oval tanks, a dot
    artillery, a chevron anti-tank, a slash cavalry (after the usual map signs)."""
    return _moved(_symbol_at(kind), x, y)


def counters_geojson(view_geojson: dict[str, Any], selected: str | None = None) -> dict[str, Any]:
    """A view's counters (from `views.to_geojson`) for the map, all in one collection: a square
    over the counter's cells coloured by side, the arm's symbol, the number in segment digits, a
    bar for the strength, a mark on the side it faces. Only what the view knows is drawn.

    Each counter's features are built once for what it shows (`unit_features`, kept while the
    counter stays the same), so a redraw costs only the counters that changed."""
    features: list[dict[str, Any]] = corps_outlines(view_geojson)
    for f in view_geojson["features"]:
        features += unit_features(f, selected)
    return _collection(features)


_DRAWN: dict[str, list[dict[str, Any]]] = {}  # a counter's record -> its features (read-only)
_DRAWN_MAX = 60_000


def unit_features(feature: dict[str, Any], selected: str | None = None) -> list[dict[str, Any]]:
    """One counter's features (counter, marks, strength, facing) from its `views.to_geojson`
    feature; the same objects again while the counter, and whether it is selected, stay the
    same (they must not be changed by the caller)."""
    p = feature["properties"]
    chosen = selected is not None and p.get("unit") == selected
    key = json.dumps([p, feature["geometry"]["coordinates"], chosen], sort_keys=True,
                     ensure_ascii=False)  # fmt: skip
    drawn = _DRAWN.get(key)
    if drawn is None:
        if len(_DRAWN) >= _DRAWN_MAX:
            _DRAWN.clear()
        drawn = _DRAWN[key] = _draw_unit(feature, chosen)
    return drawn


def _draw_unit(f: dict[str, Any], chosen: bool) -> list[dict[str, Any]]:
    features: list[dict[str, Any]] = []
    p = dict(f["properties"])
    cells = [_xy(c) for c in p.get("cells", [])] or [_xy(f["geometry"]["coordinates"])]
    side = str(p.get("side", ""))
    colour = SIDE_COLOURS.get(side, "#555555")
    label = p.get("unit") or _kind_label(p.get("kind")) or "?"
    strengths = p.get("strengths")
    strength = sum(strengths) / len(strengths) if strengths else None
    if strength is not None:
        label = f"{label} {strength:.0%}"
    style = {
        "color": "#ffeb3b" if chosen else "#222222",
        "weight": 3 if chosen else 1,
        "fillColor": colour,
        "fillOpacity": 0.8,
    }
    props = {**p, "label": label, "style": style, "part": "counter"}
    features.append(
        {
            "type": "Feature",
            "geometry": {"type": "Polygon", "coordinates": _square(cells)},
            "properties": props,
        }
    )
    x, y = cells[0]
    ink = {"color": "#ffffff", "weight": 1}
    marks: list[list[list[float]]] = []
    if p.get("kind"):
        marks += _symbol(str(p["kind"]), x, y - 0.12)
    unit = str(p.get("unit") or "")
    number = unit.split(" ")[0] if unit else ""
    if number.isdigit():
        beside = p.get("formation") == "supporting" or p.get("regiments") == "front_line"
        marks += _digits(number, x - 0.36, y + 0.1, digit_height(len(number), beside))
    if p.get("formation") == "supporting":  # Λ: two regiments ahead, one behind (9.6)
        marks += _moved((((0.1, 0.16), (0.17, 0.34), (0.24, 0.16)),), x, y)
    if p.get("regiments") == "front_line":  # =: the regiments face the front line (9.6)
        marks += _moved((((0.27, 0.2), (0.39, 0.2)), ((0.27, 0.3), (0.39, 0.3))), x, y)
    if marks:
        features.append(
            {
                "type": "Feature",
                "geometry": {"type": "MultiLineString", "coordinates": marks},
                "properties": {"part": "marks", "unit": p.get("unit"), "style": ink},
            }
        )
    if strength is not None:
        long = 0.72 * strength
        bar = _moved(
            (((-0.36, -0.38), (-0.36 + long, -0.38), (-0.36 + long, -0.3), (-0.36, -0.3),
              (-0.36, -0.38)),), x, y,
        )  # fmt: skip
        features.append(
            {
                "type": "Feature",
                "geometry": {"type": "Polygon", "coordinates": bar},
                "properties": {"part": "strength", "unit": p.get("unit"), "style": BAR_STYLE},
            }
        )
    facing = p.get("facing")
    if facing:
        d = Direction.from_key(str(facing))
        tip = [_r(x + 0.5 * d.delta[0]), _r(y + 0.5 * d.delta[1])]
        base = [_r(x + 0.4 * d.delta[0]), _r(y + 0.4 * d.delta[1])]
        features.append(
            {
                "type": "Feature",
                "geometry": {"type": "LineString", "coordinates": [base, tip]},
                "properties": {
                    "part": "facing",
                    "unit": p.get("unit"),
                    "style": {"color": "#ffeb3b" if chosen else "#111111", "weight": 4},
                },
            }
        )
    return features


BAR_STYLE = {"color": "#ffffff", "weight": 0, "fillColor": "#ffffff", "fillOpacity": 0.9}
BUCKET = 24  # cells a side of a square of the map whose counters are sent together


def unit_buckets(collection: dict[str, Any], size: int = BUCKET) -> dict[str, list[dict[str, Any]]]:
    """`counters_geojson`'s features grouped for the map's layers: "corps" (the corps'
    outlines), and one group a square of `size` x `size` cells (named "x,y" by its square),
    holding the counters whose leading cell lies in it with their marks, bar and facing, in
    the collection's order. A counter that moves or changes changes only its squares' groups."""
    out: dict[str, list[dict[str, Any]]] = {"corps": []}
    where = "corps"
    for f in collection["features"]:
        part = f["properties"].get("part")
        if part == "corps":
            out["corps"].append(f)
            continue
        if part == "counter" or where == "corps":
            x, y = _ring_start(f)
            where = f"{(x - 1) // size},{(y - 1) // size}"
        out.setdefault(where, []).append(f)
    return out


def _ring_start(f: dict[str, Any]) -> tuple[int, int]:
    cells = f["properties"].get("cells")
    if cells:
        return _xy(cells[0])
    g = f["geometry"]
    c = g["coordinates"]
    while isinstance(c[0], list):
        c = c[0]
    return round(c[0]), round(c[1])


def bucket_collection(features: list[dict[str, Any]]) -> dict[str, Any]:
    """One group of `unit_buckets` as the map's layer draws it: each counter a feature of its
    own (what a click or a hover finds), then all the group's marks as one line feature, its
    strength bars as one polygon feature and its facing marks as one line feature a style,
    none of them answering the pointer (`interactive` false: a click goes to the counter
    beneath). The browser then draws a path a counter and three a group, not four a counter."""
    out: list[dict[str, Any]] = []
    ink: list[Any] = []
    bars: list[Any] = []
    facing: dict[str, list[Any]] = {}
    for f in features:
        part = f["properties"].get("part")
        g = f["geometry"]
        if part == "marks":
            ink += g["coordinates"]
        elif part == "strength":
            bars.append(g["coordinates"])
        elif part == "facing":
            facing.setdefault(f["properties"]["style"]["color"], []).append(g["coordinates"])
        else:
            out.append(f)
    if ink:
        out.append(_merged("MultiLineString", ink, "marks", {"color": "#ffffff", "weight": 1}))
    if bars:
        out.append(_merged("MultiPolygon", bars, "strength", BAR_STYLE))
    for colour, lines in facing.items():
        out.append(_merged("MultiLineString", lines, "facing", {"color": colour, "weight": 4}))
    return _collection(out)


def _merged(kind: str, coordinates: list[Any], part: str, style: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "Feature",
        "geometry": {"type": kind, "coordinates": coordinates},
        "properties": {"part": part, "style": {**style, "interactive": False}},
    }


def _xy(value: object) -> tuple[int, int]:
    """A cell as (x, y) from "lon,lat" or [lon, lat]."""
    parts: list[Any] = value.split(",") if isinstance(value, str) else list(value)  # type: ignore[call-overload]
    return int(parts[0]), int(parts[1])


def _kind_label(kind: object) -> str:
    from strategia.rules.kinds import DivisionKind

    for k in DivisionKind:
        if k.key == kind:
            return k.ru
    return ""


def corps_outlines(view_geojson: dict[str, Any]) -> list[dict[str, Any]]:
    """A dashed outline round each corps' divisions (its footprint, 4.7) where the view knows it."""
    members: dict[str, list[tuple[int, int]]] = {}
    for f in view_geojson["features"]:
        corps = f["properties"].get("corps")
        if corps:
            members.setdefault(str(corps), []).extend(
                _xy(c) for c in f["properties"].get("cells", [])
            )
    style = {"color": "#000000", "weight": 1, "dashArray": "4 3", "fillOpacity": 0}
    out = []
    for corps, cells in members.items():
        x0, x1 = min(x for x, _ in cells) - 0.5, max(x for x, _ in cells) + 0.5
        y0, y1 = min(y for _, y in cells) - 0.5, max(y for _, y in cells) + 0.5
        ring = [[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]]
        geometry = {"type": "Polygon", "coordinates": [ring]}
        out.append(
            {
                "type": "Feature",
                "geometry": geometry,
                "properties": {"part": "corps", "corps": corps, "style": style},
            }
        )
    return out
