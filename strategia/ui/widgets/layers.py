"""The map's data as plain values: the terrain as a PNG, routes, rivers, borders and places as
GeoJSON, the units of a view as one GeoJSON collection (drawn by `counters`, whose functions are
named here too). Pure functions, tested without a browser.

Coordinates are the grid's own: x = longitude, y = latitude, one unit a cell, a cell's centre at
its integer coordinates (Leaflet's Simple CRS draws them as they are).
"""

from __future__ import annotations

import base64
import io
import json
from typing import Any

import numpy as np
import xarray as xr
from PIL import Image

from strategia.theatre import terrain
from strategia.theatre.terrain import DELTAS, Relief
from strategia.ui.widgets.counters import (  # the counters' drawing, kept under these names
    BAR_STYLE,
    SIDE_COLOURS,
    corps_outlines,
    counter_records,
    counters_geojson,
    digit_height,
    look,
    unit_features,
)
from strategia.ui.widgets.relief import shade

__all__ = [
    "BAR_STYLE", "SIDE_COLOURS", "corps_outlines", "counter_records", "counters_geojson",
    "digit_height", "look", "unit_features",
]  # fmt: skip

RELIEF_RGB = {
    Relief.PLAIN: (236, 232, 204),
    Relief.MOUNTAINS: (168, 140, 112),
    Relief.FOREST: (150, 190, 130),
    Relief.SWAMP: (170, 200, 190),
    Relief.HILLS: (214, 200, 150),
    Relief.WATER: (150, 190, 228),
}
ROUTE_STYLE = {
    "road": {"color": "#7b5e3b", "weight": 2},
    "rail": {"color": "#333333", "weight": 2, "dashArray": "6 3"},
    "trail": {"color": "#8d6e63", "weight": 1, "dashArray": "2 3"},
}
BORDER_STYLE = {"color": "#6a1b9a", "weight": 2, "dashArray": "8 4"}
RIVER_STYLE = {"color": "#1e88e5", "weight": 3}
PLACE_STYLE = {
    "radius": 5,
    "color": "#000000",
    "fillColor": "#ffffff",
    "fillOpacity": 1,
    "weight": 2,
}
REACH_STYLE = {"color": "#ffeb3b", "weight": 0, "fillColor": "#ffeb3b", "fillOpacity": 0.35}
PIXELS = 8  # image pixels a cell: enough to keep the cells crisp when Leaflet scales it
MAX_IMAGE = 1600  # pixels a side of the terrain image, at most (unless a cell would get < 4)


def png(rgb: np.ndarray) -> bytes:
    """A PNG file of an (height, width, 3) uint8 image."""
    out = io.BytesIO()
    Image.fromarray(rgb, "RGB").save(out, "PNG", compress_level=6)
    return out.getvalue()


def pixels_for(width: int, height: int) -> int:
    """Image pixels a cell: PIXELS on a small theatre, fewer on a large one, so the image stays
    within MAX_IMAGE pixels a side (the page opens quickly; at least 4, for the texture)."""
    return max(4, min(PIXELS, MAX_IMAGE // max(width, height, 1)))


def relief_rgb(ds: xr.Dataset, level: int) -> np.ndarray:
    """The relief as an (height, width, 3) uint8 image, one pixel a cell, rows north to south."""
    relief = terrain.relief_at_level(ds, level)
    lut = np.array([RELIEF_RGB[Relief(k)] for k in range(len(Relief))], dtype=np.uint8)
    return np.asarray(lut[relief.T[::-1]])  # rows north to south, columns west to east


def terrain_image(
    ds: xr.Dataset, level: int
) -> tuple[str, tuple[tuple[float, float], tuple[float, float]]]:
    """The relief as a PNG data URL and its bounds ((south, west), (north, east)) in map units."""
    relief = terrain.relief_at_level(ds, level)
    rgb = relief_rgb(ds, level)
    w, h = terrain.size(ds)
    k = pixels_for(w, h)
    rgb = shade(relief, np.repeat(np.repeat(rgb, k, axis=0), k, axis=1), k)
    url = "data:image/png;base64," + base64.b64encode(png(rgb)).decode("ascii")
    return url, ((0.5, 0.5), (h + 0.5, w + 0.5))


def _collection(features: list[dict[str, Any]]) -> dict[str, Any]:
    return {"type": "FeatureCollection", "features": features}


def routes_geojson(ds: xr.Dataset, level: int) -> dict[str, Any]:
    """Roads, railways and trails: one feature per kind, its segments between cell centres."""
    features = []
    for route in ("road", "rail", "trail"):
        mask = terrain.route_mask(ds, route, level)
        segments: list[list[list[int]]] = []
        for k in range(4):  # each segment once: the directions N, NE, E, SE
            dx, dy = (int(v) for v in DELTAS[k])
            ii, jj = np.nonzero((mask >> k) & 1)
            segments += [
                [[i + 1, j + 1], [i + 1 + dx, j + 1 + dy]]
                for i, j in zip(ii.tolist(), jj.tolist(), strict=True)
            ]
        if segments:
            features.append(_lines(segments, {"kind": route, "style": ROUTE_STYLE[route]}))
    return _collection(features)


def rivers_geojson(ds: xr.Dataset) -> dict[str, Any]:
    """Rivers along the grid lines between cells, as one feature."""
    segments = []
    for i, j in zip(*np.nonzero(ds["river_e"].values), strict=True):
        x, y = int(i) + 1.5, int(j) + 1.0
        segments.append([[x, y - 0.5], [x, y + 0.5]])
    for i, j in zip(*np.nonzero(ds["river_n"].values), strict=True):
        x, y = int(i) + 1.0, int(j) + 1.5
        segments.append([[x - 0.5, y], [x + 0.5, y]])
    return _collection([_lines(segments, {"kind": "river"})] if segments else [])


def _lines(segments: list[Any], props: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "Feature",
        "geometry": {"type": "MultiLineString", "coordinates": segments},
        "properties": props,
    }


def borders_geojson(ds: xr.Dataset) -> dict[str, Any]:
    """State borders: the grid lines between cells of different states."""
    st = ds["state"].values
    features: list[list[list[float]]] = []  # the segments
    east = (
        (st != terrain.shifted(st, 1, 0, -1))
        & (terrain.shifted(st, 1, 0, -1) != -1)
        & ((st > 0) | (terrain.shifted(st, 1, 0, 0) > 0))
    )
    north = (
        (st != terrain.shifted(st, 0, 1, -1))
        & (terrain.shifted(st, 0, 1, -1) != -1)
        & ((st > 0) | (terrain.shifted(st, 0, 1, 0) > 0))
    )
    for i, j in zip(*np.nonzero(east), strict=True):
        x, y = int(i) + 1.5, int(j) + 1.0
        features.append([[x, y - 0.5], [x, y + 0.5]])
    for i, j in zip(*np.nonzero(north), strict=True):
        x, y = int(i) + 1.0, int(j) + 1.5
        features.append([[x - 0.5, y], [x + 0.5, y]])
    return _collection([_lines(features, {"kind": "border"})] if features else [])


def places_geojson(ds: xr.Dataset, level: int) -> dict[str, Any]:
    """Capitals, cities and (level 2) fortresses as points with their names."""
    names = {(c.lon, c.lat): n for n, c in terrain.places(ds)}
    features = []
    settlement = ds["settlement"].values
    fortress = ds["fortress"].values if level >= 2 else np.zeros_like(settlement, dtype=bool)
    for i, j in zip(*np.nonzero((settlement > 0) | fortress), strict=True):
        x, y = int(i) + 1, int(j) + 1
        kind = (
            "capital" if settlement[i, j] == 2 else "city" if settlement[i, j] == 1 else "fortress"
        )
        props = {"kind": kind, "name": names.get((x, y), ""), "fortress": bool(fortress[i, j])}
        features.append(
            {
                "type": "Feature",
                "geometry": {"type": "Point", "coordinates": [x, y]},
                "properties": props,
            }
        )
    return _collection(features)


def grid_labels(ds: xr.Dataset, every: int = 5) -> list[tuple[float, float, str]]:
    """Coordinate labels as the seeds write cells: (x, y, text) along the south and west edges."""
    w, h = terrain.size(ds)
    out = [(float(x), -0.3, str(x)) for x in range(1, w + 1) if x == 1 or x % every == 0]
    out += [(-0.4, float(y), str(y)) for y in range(1, h + 1) if y == 1 or y % every == 0]
    return out


def cells_geojson(cells: list[tuple[int, int]], kind: str = "reach") -> dict[str, Any]:
    """Cells (a reachable area, a target) as squares."""
    return _collection(
        [
            {
                "type": "Feature",
                "geometry": {
                    "type": "Polygon",
                    "coordinates": [
                        [
                            [x - 0.5, y - 0.5],
                            [x + 0.5, y - 0.5],
                            [x + 0.5, y + 0.5],
                            [x - 0.5, y + 0.5],
                            [x - 0.5, y - 0.5],
                        ]
                    ],
                },
                "properties": {"kind": kind},
            }
            for x, y in cells
        ]
    )


_RELIEF_NAMES = {
    Relief.PLAIN: ("plain", "равнина"), Relief.MOUNTAINS: ("mountains", "горы"),
    Relief.FOREST: ("forest", "лес"), Relief.SWAMP: ("swamp", "болото"),
    Relief.HILLS: ("hills", "холмы"), Relief.WATER: ("water", "вода"),
}  # fmt: skip
_LINES = [
    ("#1e88e5", "solid", "river", "река"), ("#7b5e3b", "solid", "road", "дорога"),
    ("#333333", "dashed", "railway", "ж.д."), ("#8d6e63", "dotted", "trail", "тропа"),
    ("#6a1b9a", "dashed", "border", "граница"),
]  # fmt: skip
_COUNTER = (
    "counter: the side's colour, the arm (✕ infantry, oval tanks, dot artillery), "
    "number, bar: strength, mark: facing; dashed: a corps",
    "фишка: цвет стороны, род войск (✕ пехота, овал танки, точка артиллерия), "
    "номер, полоса — численность, метка — фронт; пунктир — корпус",
)


def legend_html(lang: str = "ru") -> str:
    """The map's legend: relief colours, lines and counters."""
    k = 1 if lang == "ru" else 0
    swatch = "<span style='background:rgb{};padding:0 8px;border:1px solid #999'></span> {}"
    line = "<span style='border-top:3px {} {};display:inline-block;width:18px'></span> {}"
    items = [swatch.format(RELIEF_RGB[r], n[k]) for r, n in _RELIEF_NAMES.items()]
    items += [line.format(st, c, (en, ru)[k]) for c, st, en, ru in _LINES]
    return "<div style='font-size:11px'>" + " &nbsp; ".join(items) + f"<br>{_COUNTER[k]}</div>"


def size_of(collection: dict[str, Any]) -> int:
    """The collection's JSON size in bytes (what goes to the browser)."""
    return len(json.dumps(collection, ensure_ascii=False))
