"""The map's counters as plain values: each counter's features (a square over its cells
coloured by side, the arm's symbol, the number in segment digits, a bar for the strength, a
mark on the side it faces), built once for what the counter shows; the corps' outlines; and the
counters as compact records for the map's units layer (`units_layer`), with how it draws them. Pure
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
UNKNOWN_COLOUR = "#555555"  # a side the map has no colour for
HALF = 0.42  # half a counter's side, in cells
FILL_OPACITY = 0.8
EDGE = ("#222222", 1)  # a counter's edge: colour, pixels
CHOSEN = "#ffeb3b"  # the selected counter's edge (3 px) and facing mark
INK = ("#ffffff", 1)  # the marks on a counter: symbol, number, formation
SYMBOL_AT = (0.0, -0.12)  # the arm's symbol's centre, from the counter's cell
DIGITS_AT = (-0.36, 0.1)  # the number's bottom-left corner
BAR = (-0.36, -0.38, 0.72, 0.08)  # the strength bar: left, bottom, length at full strength, height
FACING = (0.4, 0.5, 4)  # the facing mark from 0.4 to 0.5 of a cell towards the side faced; pixels
SUPPORTING = (((0.1, 0.16), (0.17, 0.34), (0.24, 0.16)),)  # Λ: two regiments ahead, one behind
FRONT_LINE = (((0.27, 0.2), (0.39, 0.2)), ((0.27, 0.3), (0.39, 0.3)))  # =: facing the front line
CORPS_STYLE = {"color": "#000000", "weight": 1, "dashArray": "4 3", "fillOpacity": 0}


def _collection(features: list[dict[str, Any]]) -> dict[str, Any]:
    return {"type": "FeatureCollection", "features": features}


def _square(cells: list[tuple[int, int]]) -> list[list[list[float]]]:
    """A counter's outline over its cells: the rectangle over a row or column of cells (a
    division stretched to 1x2, 4.6, 4.8), the band along a diagonal when its cells lie
    corner to corner (a march along a diagonal road), never the cells beside them."""
    corners = sorted(
        {(_r(x + dx), _r(y + dy)) for x, y in cells for dx in (-HALF, HALF) for dy in (-HALF, HALF)}
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


def counters_geojson(
    view_geojson: dict[str, Any], selected: str | None = None, marks: bool = True
) -> dict[str, Any]:
    """A view's counters (from `views.to_geojson`) for the map, all in one collection: a square
    over the counter's cells coloured by side, the arm's symbol, the number in segment digits, a
    bar for the strength, a mark on the side it faces. Only what the view knows is drawn.
    `marks=False`: the counters' squares and the corps' outlines only (the map's units layer
    draws the rest from each counter's record, `counter_records`).

    Each counter's features are built once for what it shows (`unit_features`, kept while the
    counter stays the same), so a redraw costs only the counters that changed."""
    features: list[dict[str, Any]] = corps_outlines(view_geojson)
    for f in view_geojson["features"]:
        features += unit_features(f, selected, marks)
    return _collection(features)


_DRAWN: dict[str, list[dict[str, Any]]] = {}  # a counter's record -> its features (read-only)
_DRAWN_MAX = 60_000


def unit_features(
    feature: dict[str, Any], selected: str | None = None, marks: bool = True
) -> list[dict[str, Any]]:
    """One counter's features (counter, marks, strength, facing; the counter alone without
    `marks`) from its `views.to_geojson` feature; the same objects again while the counter,
    and whether it is selected, stay the same (they must not be changed by the caller)."""
    p = feature["properties"]
    chosen = selected is not None and p.get("unit") == selected
    key = json.dumps([p, feature["geometry"]["coordinates"], chosen, marks], sort_keys=True,
                     ensure_ascii=False)  # fmt: skip
    drawn = _DRAWN.get(key)
    if drawn is None:
        if len(_DRAWN) >= _DRAWN_MAX:
            _DRAWN.clear()
        drawn = _DRAWN[key] = _draw_unit(feature, chosen, marks)
    return drawn


def _draw_unit(f: dict[str, Any], chosen: bool, with_marks: bool = True) -> list[dict[str, Any]]:
    features: list[dict[str, Any]] = []
    p = dict(f["properties"])
    cells = [_xy(c) for c in p.get("cells", [])] or [_xy(f["geometry"]["coordinates"])]
    side = str(p.get("side", ""))
    colour = SIDE_COLOURS.get(side, UNKNOWN_COLOUR)
    label = p.get("unit") or _kind_label(p.get("kind")) or "?"
    strengths = p.get("strengths")
    strength = sum(strengths) / len(strengths) if strengths else None
    if strength is not None:
        label = f"{label} {strength:.0%}"
    style = {
        "color": CHOSEN if chosen else EDGE[0],
        "weight": 3 if chosen else EDGE[1],
        "fillColor": colour,
        "fillOpacity": FILL_OPACITY,
    }
    props = {**p, "label": label, "style": style, "part": "counter"}
    features.append(
        {
            "type": "Feature",
            "geometry": {"type": "Polygon", "coordinates": _square(cells)},
            "properties": props,
        }
    )
    if not with_marks:
        return features
    x, y = cells[0]
    ink = {"color": INK[0], "weight": INK[1]}
    marks: list[list[list[float]]] = []
    if p.get("kind"):
        marks += _symbol(str(p["kind"]), x + SYMBOL_AT[0], y + SYMBOL_AT[1])
    unit = str(p.get("unit") or "")
    number = unit.split(" ")[0] if unit else ""
    if number.isdigit():
        beside = p.get("formation") == "supporting" or p.get("regiments") == "front_line"
        at = (x + DIGITS_AT[0], y + DIGITS_AT[1])
        marks += _digits(number, *at, digit_height(len(number), beside))
    if p.get("formation") == "supporting":  # Λ: two regiments ahead, one behind (9.6)
        marks += _moved(SUPPORTING, x, y)
    if p.get("regiments") == "front_line":  # =: the regiments face the front line (9.6)
        marks += _moved(FRONT_LINE, x, y)
    if marks:
        features.append(
            {
                "type": "Feature",
                "geometry": {"type": "MultiLineString", "coordinates": marks},
                "properties": {"part": "marks", "unit": p.get("unit"), "style": ink},
            }
        )
    if strength is not None:
        left, bottom, full, tall = BAR
        long = full * strength
        bar = _moved(
            (((left, bottom), (left + long, bottom), (left + long, bottom + tall),
              (left, bottom + tall), (left, bottom)),), x, y,
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
        tip = [_r(x + FACING[1] * d.delta[0]), _r(y + FACING[1] * d.delta[1])]
        base = [_r(x + FACING[0] * d.delta[0]), _r(y + FACING[0] * d.delta[1])]
        features.append(
            {
                "type": "Feature",
                "geometry": {"type": "LineString", "coordinates": [base, tip]},
                "properties": {
                    "part": "facing",
                    "unit": p.get("unit"),
                    "style": {"color": CHOSEN if chosen else "#111111", "weight": FACING[2]},
                },
            }
        )
    return features


BAR_STYLE = {"color": "#ffffff", "weight": 0, "fillColor": "#ffffff", "fillOpacity": 0.9}
FACING_INK = "#111111"


def look() -> dict[str, Any]:
    """How the browser's units layer (`units_layer`, counters.js) draws a counter from its
    record (`counter_records`): the same shapes, sizes and colours as `unit_features`, sent
    once with the layer. Lines are lists of [x, y] in cells from the counter's cell, y up; a
    digit's strokes are in a 1 x 2 box, laid out as `_digits_at` lays them out."""
    from strategia.rules.kinds import DivisionKind

    def lines(value: tuple[tuple[tuple[float, float], ...], ...]) -> list[Any]:
        return [[[_r(a), _r(b)] for a, b in line] for line in value]

    kinds = sorted({k.key for k in DivisionKind} | {"fortress"})
    return {
        "half": HALF, "colours": SIDE_COLOURS, "unknown": UNKNOWN_COLOUR,
        "fill_opacity": FILL_OPACITY, "edge": list(EDGE), "chosen": CHOSEN, "ink": list(INK),
        "symbols": {k: lines(_symbol_at(k)) for k in kinds}, "symbol_at": list(SYMBOL_AT),
        "digits": {d: lines(_digits_at(d, 2.0)) for d in _DIGITS}, "digits_at": list(DIGITS_AT),
        "digit_advance": 1.5, "supporting": lines(SUPPORTING), "front_line": lines(FRONT_LINE),
        "bar": list(BAR), "bar_fill": [BAR_STYLE["fillColor"], BAR_STYLE["fillOpacity"]],
        "facing": list(FACING), "facing_ink": FACING_INK,
        "corps": [CORPS_STYLE["color"], CORPS_STYLE["weight"], [4, 3]],
    }  # fmt: skip


MARK_SUPPORTING, MARK_FRONT_LINE = 1, 2  # a record's `m`: the formation's marks drawn


def counter_records(
    collection: dict[str, Any],
) -> tuple[list[dict[str, Any]], list[list[float]], dict[str, dict[str, Any]]]:
    """`counters_geojson`'s counters as the browser's units layer draws them: one compact
    record a counter, in the collection's order — `k` its key (the unit's name; "?x,y#n" for
    troops seen without one), `c` its cells as [x0, y0, x1, y1, ...] (the first where its marks
    stand), `r` its outline when it covers more than one cell, `s` the side, `t` the kind, `n`
    the number and `h` its digits' height, `m` the formation's marks (`MARK_SUPPORTING`,
    `MARK_FRONT_LINE`), `q` the strength (None: unknown), `d` the facing as [dx, dy] (None),
    `sel` 1 when selected. Then the corps' outlines as [x0, y0, x1, y1], and each key's
    counter feature (what a click or a hover on it reports)."""
    records: list[dict[str, Any]] = []
    corps: list[list[float]] = []
    features: dict[str, dict[str, Any]] = {}
    nameless = 0
    for f in collection["features"]:
        p = f["properties"]
        part = p.get("part")
        if part == "corps":
            ring = f["geometry"]["coordinates"][0]
            corps.append([ring[0][0], ring[0][1], ring[2][0], ring[2][1]])
            continue
        if part != "counter":
            continue
        cells = [_xy(c) for c in p.get("cells", [])] or [_xy(f["geometry"]["coordinates"])]
        unit = str(p.get("unit") or "")
        if unit:
            key = unit
        else:
            key = f"?{cells[0][0]},{cells[0][1]}#{nameless}"
            nameless += 1
        number = unit.split(" ")[0] if unit else ""
        number = number if number.isdigit() else ""
        beside = p.get("formation") == "supporting" or p.get("regiments") == "front_line"
        strengths = p.get("strengths")
        facing = p.get("facing")
        record: dict[str, Any] = {
            "k": key, "c": [v for cell in cells for v in cell], "s": str(p.get("side", "")),
            "t": str(p.get("kind") or ""), "n": number,
            "h": _r(digit_height(len(number), beside)) if number else 0,
            "m": (MARK_SUPPORTING if p.get("formation") == "supporting" else 0)
            | (MARK_FRONT_LINE if p.get("regiments") == "front_line" else 0),
            "q": _r(sum(strengths) / len(strengths)) if strengths else None,
            "d": list(Direction.from_key(str(facing)).delta) if facing else None,
            "sel": int(p.get("style", {}).get("color") == CHOSEN),
        }  # fmt: skip
        if len(cells) > 1:
            record["r"] = f["geometry"]["coordinates"][0]
        records.append(record)
        features[key] = f
    return records, corps, features


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
    style = CORPS_STYLE
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
