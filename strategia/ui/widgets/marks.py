"""The map's marks as plain values: place symbols (capital, city, fortress) and names, the
battles and strikes of the turn, units destroyed, the reach graded by its cost, the cell numbers
along the visible edges, and the legend that explains them. Pure functions, tested without a
browser; coordinates are the grid's own (a cell's centre at its integer lon, lat).
"""

from __future__ import annotations

import base64
import html
import math
from collections.abc import Iterable, Sequence
from typing import Any

import xarray as xr

from strategia.core.i18n import Lang
from strategia.core.numbers import num
from strategia.game.last_known import LastSeen
from strategia.theatre import terrain

PLACE_STYLE = {
    "capital": {"color": "#000000", "weight": 1, "fillColor": "#c62828", "fillOpacity": 1},
    "city": {"color": "#000000", "weight": 1.5, "fillColor": "#ffffff", "fillOpacity": 1},
    "fortress": {"color": "#212121", "weight": 2, "fillColor": "#9e9e9e", "fillOpacity": 0.9},
}
MARK_STYLE = {
    "battle": {"color": "#d50000", "weight": 3, "fillOpacity": 0},
    "strike": {"color": "#ff6d00", "weight": 2, "fillOpacity": 0},
    "destroyed": {"color": "#424242", "weight": 2.5, "fillOpacity": 0},
}


def _feature(geometry: dict[str, Any], props: dict[str, Any]) -> dict[str, Any]:
    return {"type": "Feature", "geometry": geometry, "properties": props}


def collection(features: list[dict[str, Any]]) -> dict[str, Any]:
    return {"type": "FeatureCollection", "features": features}


def _star(x: float, y: float, outer: float, inner: float, points: int = 5) -> list[list[float]]:
    ring = []
    for k in range(2 * points + 1):
        r = outer if k % 2 == 0 else inner
        a = math.pi / 2 + k * math.pi / points
        ring.append([round(x + r * math.cos(a), 4), round(y + r * math.sin(a), 4)])
    return ring


def _square(x: float, y: float, r: float) -> list[list[float]]:
    return [[x - r, y - r], [x + r, y - r], [x + r, y + r], [x - r, y + r], [x - r, y - r]]


def place_symbol(kind: str, x: float, y: float) -> dict[str, Any]:
    """A place's symbol: a star for a capital, a square for a city, a bastioned star for a
    fortress (drawn in the cell's upper right, clear of the counters' numbers)."""
    cx, cy = x + 0.3, y + 0.3
    if kind == "capital":
        ring = _star(cx, cy, 0.2, 0.08)
    elif kind == "fortress":
        ring = _star(cx, cy, 0.2, 0.12, points=4)
    else:
        ring = _square(cx, cy, 0.1)
    return {"type": "Polygon", "coordinates": [ring]}


def places(ds: xr.Dataset, level: int) -> list[dict[str, Any]]:
    """Capitals, cities and (from level 2) fortresses: kind, name and cell of each."""
    names = {(c.lon, c.lat): n for n, c in terrain.places(ds)}
    settlement = ds["settlement"].values
    fortress = ds["fortress"].values
    out = []
    for i in range(settlement.shape[0]):
        for j in range(settlement.shape[1]):
            fort = bool(fortress[i, j]) and level >= 2
            if settlement[i, j] == 0 and not fort:
                continue
            kind = (
                "capital" if settlement[i, j] == 2 else "city" if settlement[i, j] else "fortress"
            )
            x, y = i + 1, j + 1
            out.append({"kind": kind, "name": names.get((x, y), ""), "x": x, "y": y,
                        "fortress": fort})  # fmt: skip
            if fort and kind != "fortress":  # a fortified city: both symbols
                out.append({"kind": "fortress", "name": "", "x": x - 0.6, "y": y, "fortress": True})
    return out


def places_geojson(ds: xr.Dataset, level: int) -> dict[str, Any]:
    """The places' symbols, each styled by its kind."""
    return collection(
        [
            _feature(
                place_symbol(p["kind"], p["x"], p["y"]),
                {**p, "style": PLACE_STYLE[p["kind"]], "part": "place"},
            )
            for p in places(ds, level)
        ]
    )


def _swords(x: float, y: float) -> list[list[list[float]]]:
    r = 0.46
    return [
        [[x - r, y - r], [x + r, y + r]],
        [[x - r, y + r], [x + r, y - r]],
        [[x - r, y], [x, y + r], [x + r, y], [x, y - r], [x - r, y]],
    ]


def _burst(x: float, y: float) -> list[list[list[float]]]:
    out = []
    for k in range(8):
        a = k * math.pi / 4
        out.append(
            [
                [round(x + 0.15 * math.cos(a), 4), round(y + 0.15 * math.sin(a), 4)],
                [round(x + 0.45 * math.cos(a), 4), round(y + 0.45 * math.sin(a), 4)],
            ]
        )
    return out


def _cross(x: float, y: float) -> list[list[list[float]]]:
    r = 0.3
    circle = [
        [round(x + 0.4 * math.cos(t), 4), round(y + 0.4 * math.sin(t), 4)]
        for t in (k * math.pi / 8 for k in range(17))
    ]
    return [[[x - r, y - r], [x + r, y + r]], [[x - r, y + r], [x + r, y - r]], circle]


def fight_marks(items: Iterable[tuple[str, int, int, str]]) -> dict[str, Any]:
    """Marks for the turn's fights and losses: (kind, x, y, title) with kind "battle" (crossed
    swords), "strike" (a burst) or "destroyed" (a struck-out circle)."""
    draw = {"battle": _swords, "strike": _burst, "destroyed": _cross}
    return collection(
        [
            _feature(
                {"type": "MultiLineString", "coordinates": draw[kind](x, y)},
                {"kind": kind, "title": title, "cell": f"{x},{y}", "style": MARK_STYLE[kind]},
            )
            for kind, x, y, title in items
        ]
    )


LAST_KNOWN_STYLE = {"weight": 1.5, "dashArray": "4 3", "opacity": 0.7, "fillOpacity": 0.1}


def last_known_marks(
    items: Iterable[tuple[str, Sequence[tuple[int, int]], str, str]],
) -> dict[str, Any]:
    """Faded, dashed squares where a side last knew enemy units to be: (colour, cells, unit,
    title) each, the title telling the turn (`game.last_known`: «101 с.д.: видели на ходу 6»)."""
    features = []
    for colour, cells, unit, title in items:
        style = {**LAST_KNOWN_STYLE, "color": colour, "fillColor": colour}
        for x, y in cells:
            features.append(
                _feature(
                    {"type": "Polygon", "coordinates": [_square(x, y, 0.42)]},
                    {"kind": "last-known", "unit": unit, "title": title, "cell": f"{x},{y}",
                     "style": style},
                )
            )  # fmt: skip
    return collection(features)


def last_known_geojson(seen: Iterable[LastSeen], lang: Lang) -> dict[str, Any]:
    """A side's last-known marks (`game.last_known`) as the map's layer, each in its side's
    colour (grey: an answer's, the side not told)."""
    from strategia.ui.widgets.layers import SIDE_COLOURS

    return last_known_marks(
        (SIDE_COLOURS.get(m.side, "#616161"), [(c.lon, c.lat) for c in m.cells], m.unit,
         m.label(lang))
        for m in seen
    )  # fmt: skip


def reach_geojson(costs: Sequence[tuple[int, int, float]]) -> dict[str, Any]:
    """Reachable cells shaded by their cost in turns (light: near, deep: the whole turn)."""
    features = []
    for x, y, cost in costs:
        share = max(0.0, min(1.0, cost))
        style = {"color": "#f9a825", "weight": 0, "fillColor": _ramp(share), "fillOpacity": 0.45}
        features.append(
            _feature(
                {"type": "Polygon", "coordinates": [_square(x, y, 0.5)]},
                {"kind": "reach", "cost": round(cost, 3), "style": style},
            )
        )
    return collection(features)


def _ramp(share: float) -> str:
    """Yellow for a cell reached at once, to deep orange for one that takes the whole turn."""
    r, g, b = 255, int(235 - 120 * share), int(59 - 59 * share)
    return f"#{r:02x}{g:02x}{b:02x}"


STEPS = (1, 2, 5, 10, 20, 50)


def edge_labels(
    bounds: tuple[tuple[float, float], tuple[float, float]],
    zoom: float,
    size: tuple[int, int],
    spacing_px: float = 30.0,
) -> list[tuple[float, float, str]]:
    """Cell numbers along the visible west and south edges at this zoom: (x, y, text), as many
    as fit `spacing_px` apart, on the round numbers of their step."""
    (south, west), (north, east) = bounds
    w, h = size
    scale = 2.0**zoom  # pixels a cell
    step = next((s for s in STEPS if s * scale >= spacing_px), STEPS[-1])
    inset = 9.0 / scale  # the labels sit just inside the edge
    out = []
    x_lo, x_hi = max(1, math.ceil(west + 0.5)), min(w, math.floor(east - 0.5))
    y_lo, y_hi = max(1, math.ceil(south + 0.5)), min(h, math.floor(north - 0.5))
    bottom = max(south, 0.5) + inset  # the theatre's edge where it is in view, else the view's
    left = max(west, 0.5) + inset * 1.6
    for x in range(x_lo, x_hi + 1):
        if x % step == 0 or x == 1:
            out.append((float(x), bottom, str(x)))
    for y in range(y_lo, y_hi + 1):
        if y % step == 0:
            out.append((left, float(y), str(y)))
    return out


_SVG = "<svg width='16' height='14' viewBox='-8 -7 16 14' style='vertical-align:middle'>{}</svg>"


def _svg(kind: str) -> str:
    shapes = {
        "capital": "<polygon points='0,-6 1.8,-2 6,-2 2.6,1 4,6 0,3 -4,6 -2.6,1 -6,-2 -1.8,-2' "
        "fill='#c62828' stroke='#000' stroke-width='0.7'/>",
        "city": "<rect x='-3' y='-3' width='6' height='6' fill='#fff' stroke='#000'/>",
        "fortress": "<polygon points='0,-6 2,-2 6,0 2,2 0,6 -2,2 -6,0 -2,-2' fill='#9e9e9e' "
        "stroke='#212121' stroke-width='1.2'/>",
        "battle": "<path d='M-6,-6L6,6M-6,6L6,-6' stroke='#d50000' stroke-width='2'/>",
        "strike": "<path d='M0,-6V-2M0,2V6M-6,0H-2M2,0H6M-4,-4L-1.5,-1.5M4,4L1.5,1.5M-4,4L-1.5,1.5"
        "M4,-4L1.5,-1.5' stroke='#ff6d00' stroke-width='1.6'/>",
        "destroyed": "<circle r='5.5' fill='none' stroke='#424242' stroke-width='1.4'/>"
        "<path d='M-4,-4L4,4M-4,4L4,-4' stroke='#424242' stroke-width='1.6'/>",
        "supporting": "<path d='M-4,4L0,-4L4,4' fill='none' stroke='#222' stroke-width='1.6'/>",
        "front_line": "<path d='M-5,-2H5M-5,2H5' stroke='#222' stroke-width='1.6'/>",
    }
    return _SVG.format(shapes[kind])


_MARK_NAMES = [
    ("capital", "capital", "столица"),
    ("city", "city", "город"),
    ("fortress", "fortress", "крепость"),
    ("battle", "battle this turn", "бой в этот ход"),
    ("strike", "artillery strike", "артиллерийский удар"),
    ("destroyed", "destroyed this turn", "уничтожена в этот ход"),
    ("supporting", "supporting formation", "опорное построение"),
    ("front_line", "regiments towards the front line", "полки к линии фронта"),
]


def legend_marks(lang: Lang = "ru") -> str:
    """The legend's part for places, fights and the counters' formation marks."""
    return " &nbsp; ".join(f"{_svg(k)} {ru if lang == 'ru' else en}" for k, en, ru in _MARK_NAMES)


def cost_text(cost: float, lang: Lang) -> str:
    """A reachable cell's cost as the readout writes it: «0,35 хода»."""
    from strategia.core.numbers import turns

    return turns(round(cost, 2), lang) if cost > 0 else num(0, lang)


# --- place names as one picture -------------------------------------------------------------------

NAME_PX = 11  # the names' size on the screen at every zoom (as the cell numbers, 11 px)
NAME_MARGIN = 4.0  # map units round the theatre, so that names at its edges are not cut


def names_bounds(size: tuple[int, int]) -> tuple[tuple[float, float], tuple[float, float]]:
    """The names picture's bounds ((south, west), (north, east)) in map units: the theatre's
    cells and `NAME_MARGIN` round them."""
    w, h = size
    m = NAME_MARGIN
    return ((0.5 - m, 0.5 - m), (h + 0.5 + m, w + 0.5 + m))


def names_svg(named: Iterable[tuple[float, float, str]], size: tuple[int, int], zoom: float) -> str:
    """Every place name as one SVG picture over `names_bounds(size)`, each centred at its
    (x, y) in map units, written `NAME_PX` pixels high at `zoom` (a map unit is 2**zoom
    pixels) with a white halo: the names as one layer, not a marker each."""
    (south, west), (north, east) = names_bounds(size)
    unit = 2.0 ** float(zoom)
    px = round(NAME_PX / unit, 4)
    texts = "".join(
        f"<text x='{round(x - west, 3)}' y='{round(north - y, 3)}'>{html.escape(name)}</text>"
        for x, y, name in named
    )
    return (
        "<svg xmlns='http://www.w3.org/2000/svg' preserveAspectRatio='none' "
        f"viewBox='0 0 {round(east - west, 3)} {round(north - south, 3)}'>"
        f"<g font-family='sans-serif' font-size='{px}' fill='#222' text-anchor='middle' "
        f"dominant-baseline='central' stroke='#fff' stroke-width='{round(3 * px / NAME_PX, 4)}' "
        f"stroke-linejoin='round' paint-order='stroke'>{texts}</g></svg>"
    )


def names_url(named: Iterable[tuple[float, float, str]], size: tuple[int, int], zoom: float) -> str:
    """`names_svg` as a data URL for an image overlay."""
    svg = names_svg(named, size, zoom).encode("utf-8")
    return "data:image/svg+xml;base64," + base64.b64encode(svg).decode("ascii")


def place_names(ds: xr.Dataset, level: int) -> list[tuple[float, float, str]]:
    """Each named place's name and where it is written: just above its symbol."""
    return [(p["x"], p["y"] + 0.62, p["name"]) for p in places(ds, level) if p["name"]]
