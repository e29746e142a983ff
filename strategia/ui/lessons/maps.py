"""Static maps for the lessons: the same layers the console's map draws (`widgets.layers`),
drawn with matplotlib so that a lesson keeps them as images.

Coordinates are the grid's own, as on the console's map: x = longitude, y = latitude, a cell's
centre at its integer coordinates, so the axes' ticks are the seeds' cell numbers (longitude from
1 eastward, latitude from 1 northward). GeoJSON styles are Leaflet's (`color`, `weight`,
`fillColor`, `fillOpacity`, `dashArray`), read here as Leaflet reads them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import xarray as xr
from matplotlib.axes import Axes
from matplotlib.collections import LineCollection, PatchCollection
from matplotlib.colors import to_rgba
from matplotlib.patches import Polygon

from strategia.core.i18n import Lang, Text
from strategia.theatre import terrain
from strategia.ui.widgets import layers

PT = 0.6  # matplotlib points for a Leaflet pixel of line weight, at the lessons' scale
Window = tuple[int, int, int, int]  # lon0, lon1, lat0, lat1 (inclusive cells)
RGBA = tuple[float, float, float, float]
AXES = {
    "lon": Text("longitude (cells, eastward)", "долгота (клетки, к востоку)"),
    "lat": Text("latitude (cells, northward)", "широта (клетки, к северу)"),
}


def _dash(style: Mapping[str, Any]) -> Any:
    dash = style.get("dashArray")
    if not dash:
        return "solid"
    weight = max(float(style.get("weight", 3)), 1.0)
    return (0, tuple(float(x) / weight for x in str(dash).replace(",", " ").split()))


def _stroke(style: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "colors": [to_rgba(style.get("color", "#3388ff"), float(style.get("opacity", 1.0)))],
        "linewidths": [float(style.get("weight", 3)) * PT],
        "linestyles": [_dash(style)],
    }


def _key(style: Mapping[str, Any]) -> str:
    return repr(sorted(style.items()))


def draw_collection(
    ax: Axes, collection: Mapping[str, Any], style: Mapping[str, Any] | None = None, z: float = 2
) -> None:
    """Draw a GeoJSON FeatureCollection: polygons filled and outlined, lines stroked, points as
    dots; each feature's `style` property over `style` (as Leaflet's style callback does)."""
    lines: dict[str, tuple[dict[str, Any], list[Any]]] = {}
    patches: dict[str, tuple[dict[str, Any], list[Polygon]]] = {}
    points: list[tuple[float, float, dict[str, Any]]] = []
    for f in collection.get("features", []):
        st = {**(style or {}), **f.get("properties", {}).get("style", {})}
        g = f["geometry"]
        kind, coords = g["type"], g["coordinates"]
        if kind == "Polygon":
            patches.setdefault(_key(st), (st, []))[1].append(Polygon(coords[0], closed=True))
        elif kind == "LineString":
            lines.setdefault(_key(st), (st, []))[1].append(coords)
        elif kind == "MultiLineString":
            lines.setdefault(_key(st), (st, []))[1].extend(coords)
        elif kind == "Point":
            points.append((float(coords[0]), float(coords[1]), st))
    for st, polys in patches.values():
        fill = st.get("fill", True)
        face = to_rgba(st.get("fillColor", st.get("color", "#3388ff")), st.get("fillOpacity", 0.2))
        stroke = _stroke(st)
        weight = float(st.get("weight", 3)) if st.get("stroke", True) else 0.0
        ax.add_collection(
            PatchCollection(
                polys,
                facecolors=[face] if fill else ["none"],
                edgecolors=stroke["colors"] if weight else ["none"],
                linewidths=[weight * PT],
                linestyles=stroke["linestyles"],
                zorder=z,
            )
        )
    for st, segs in lines.values():
        ax.add_collection(LineCollection(segs, zorder=z + 0.1, capstyle="round", **_stroke(st)))
    for x, y, st in points:
        ax.plot(
            [x],
            [y],
            "o",
            ms=float(st.get("radius", 4)) * 1.2,
            mfc=st.get("fillColor", "#ffffff"),
            mec=st.get("color", "#000000"),
            mew=float(st.get("weight", 1)) * PT,
            zorder=z + 0.2,
        )


def window_around(ds: xr.Dataset, cells: Iterable[tuple[int, int]], margin: int = 3) -> Window:
    """The smallest window holding `cells` with `margin` cells round them, within the map."""
    w, h = terrain.size(ds)
    xs, ys = zip(*cells, strict=True)
    return (
        max(1, min(xs) - margin),
        min(w, max(xs) + margin),
        max(1, min(ys) - margin),
        min(h, max(ys) + margin),
    )


def draw_theatre(
    ax: Axes, ds: xr.Dataset, level: int, lang: Lang, window: Window | None = None
) -> Window:
    """The theatre as the console draws it: relief, borders, rivers, roads, railways, trails,
    places with their names; the axes numbered as the seeds number cells."""
    w, h = terrain.size(ds)
    win = window or (1, w, 1, h)
    ax.imshow(
        layers.relief_rgb(ds, level),
        extent=(0.5, w + 0.5, 0.5, h + 0.5),
        interpolation="nearest",
        zorder=0,
    )
    draw_collection(ax, layers.borders_geojson(ds), layers.BORDER_STYLE, z=1)
    draw_collection(ax, layers.routes_geojson(ds, level), z=1.2)
    draw_collection(ax, layers.rivers_geojson(ds), layers.RIVER_STYLE, z=1.4)
    places = layers.places_geojson(ds, level)
    draw_collection(ax, places, layers.PLACE_STYLE, z=5)
    x0, x1, y0, y1 = win
    for f in places["features"]:
        x, y = f["geometry"]["coordinates"]
        name = f["properties"].get("name")
        if name and x0 <= x <= x1 and y0 <= y <= y1:
            ax.annotate(
                name, (x, y), xytext=(4, 3), textcoords="offset points", fontsize=7, zorder=6
            )
    ax.set_xlim(x0 - 0.5, x1 + 0.5)
    ax.set_ylim(y0 - 0.5, y1 + 0.5)
    ax.set_aspect("equal")
    span = max(x1 - x0, y1 - y0)
    step = 1 if span <= 16 else 2 if span <= 30 else 5
    ax.set_xticks([x for x in range(x0, x1 + 1) if x == x0 or x % step == 0])
    ax.set_yticks([y for y in range(y0, y1 + 1) if y == y0 or y % step == 0])
    ax.tick_params(labelsize=7)
    ax.set_xlabel(AXES["lon"](lang), fontsize=8)
    ax.set_ylabel(AXES["lat"](lang), fontsize=8)
    return win


def draw_counters(ax: Axes, view_geojson: Mapping[str, Any], names: bool = True) -> None:
    """A view's counters as the console draws them (`layers.counters_geojson`), each named."""
    draw_collection(ax, layers.counters_geojson(dict(view_geojson)), z=7)
    if not names:
        return
    for f in view_geojson["features"]:
        p = f["properties"]
        x, y = f["geometry"]["coordinates"]
        label = str(p.get("unit") or "?")
        ax.annotate(
            label,
            (x, y + 0.45),
            ha="center",
            va="bottom",
            fontsize=6.5,
            zorder=9,
            bbox={"boxstyle": "round,pad=0.1", "fc": "#ffffffcc", "ec": "none"},
        )


def draw_cells(
    ax: Axes,
    cells: Sequence[tuple[int, int]],
    colour: str | Sequence[RGBA] = "#ffeb3b",
    alpha: float = 0.45,
    z: float = 3,
    hatch: str | None = None,
) -> None:
    """Cells shaded over the map (a reachable area; `colour` one for all or one RGBA a cell), or
    hatched (the ground a side observes)."""
    polys = [
        Polygon(
            [(x - 0.5, y - 0.5), (x + 0.5, y - 0.5), (x + 0.5, y + 0.5), (x - 0.5, y + 0.5)],
            closed=True,
        )
        for x, y in cells
    ]
    faces = [to_rgba(colour, 0 if hatch else alpha)] if isinstance(colour, str) else list(colour)
    edges = [to_rgba(colour, alpha)] if hatch and isinstance(colour, str) else ["none"]
    ax.add_collection(
        PatchCollection(
            polys, facecolors=faces, edgecolors=edges, linewidths=[0], hatch=hatch, zorder=z
        )
    )


def cost_colours(costs: Sequence[float], budget: float) -> list[RGBA]:
    """A cell's shade by the share of the turn it costs: pale near, strong at the limit."""
    out = []
    for c in costs:
        t = float(np.clip(c / budget if budget else 1.0, 0, 1))
        out.append((1.0, 0.92 - 0.55 * t, 0.25 - 0.2 * t, 0.35 + 0.3 * t))
    return out
