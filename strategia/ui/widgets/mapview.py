"""The theatre map: ipyleaflet in Simple CRS with no web tiles, every layer built from `layers`
and `marks`.

The map fits the theatre to its box on load and whenever the box changes size; cell numbers
follow the visible edges at every zoom; a readout in its corner tells the cell under the cursor
and what is hovered. It only draws what it is given and reports
clicks, hovers and the cursor; the console decides what they mean.
"""

from __future__ import annotations

import html
import math
from collections.abc import Callable
from typing import Any

import ipyleaflet as L
import ipywidgets as w
import xarray as xr

from strategia.core.i18n import Lang, Text
from strategia.theatre import terrain
from strategia.ui.widgets import layers, marks

Click = Callable[[float, float, dict[str, Any] | None], None]
Hover = Callable[[float, float, dict[str, Any] | None], None]

MAP_HEIGHT = "calc(100vh - 185px)"  # the window's height below the console's head
LAYER_NAMES = {
    "terrain": Text("terrain", "рельеф"),
    "borders": Text("borders", "границы"),
    "rivers": Text("rivers", "реки"),
    "routes": Text("roads and railways", "дороги"),
    "places": Text("places", "города"),
    "names": Text("names", "названия"),
    "reach": Text("reach", "досягаемость"),
    "fights": Text("fights", "бои"),
    "units": Text("units", "войска"),
    "grid": Text("grid numbers", "номера клеток"),
}
LABEL_CSS = (
    "<style>.sg-map .leaflet-div-icon{background:none;border:none;pointer-events:none}"
    ".sg-label{font:bold 11px sans-serif;color:#111;text-align:center;"
    "text-shadow:0 0 2px #fff,0 0 2px #fff,0 0 3px #fff;white-space:nowrap}"
    ".sg-name{font:11px sans-serif;color:#222;white-space:nowrap;text-align:center;"
    "text-shadow:0 0 2px #fff,0 0 2px #fff}.sg-readout{font:12px sans-serif;background:#fffd;"
    "padding:2px 6px;border-radius:3px;max-width:360px}</style>"
)


def _label(x: float, y: float, text: str, css: str = "sg-label", width: int = 40) -> L.Marker:
    icon = L.DivIcon(
        html=f"<div class='{css}'>{text}</div>", icon_size=(width, 14), icon_anchor=(width // 2, 7)
    )
    return L.Marker(location=(y, x), icon=icon, draggable=False, keyboard=False)


class MapView:
    """The map widget with its layers: terrain, borders, rivers, routes, places and their names,
    grid numbers, reach, fights, units (one GeoJSON layer for all counters) and a readout."""

    def __init__(self, ds: xr.Dataset, level: int, on_click: Click, lang: Lang = "ru") -> None:
        self.ds = ds
        self.level = level
        self.on_click = on_click
        self.on_drag: Callable[[str, float, float], None] | None = None
        self.on_hover: Hover | None = None
        w_, h_ = terrain.size(ds)
        self.size = (w_, h_)
        self.map = L.Map(
            crs=L.projections.Simple,
            layers=(),
            center=((h_ + 1) / 2, (w_ + 1) / 2),
            zoom=self.fit_zoom(w_, h_),
            zoom_snap=0.25,
            zoom_delta=0.5,
            min_zoom=0,
            max_zoom=7,
            scroll_wheel_zoom=True,
            attribution_control=False,
            layout=w.Layout(height=MAP_HEIGHT, min_height="380px", width="100%"),
        )
        self.map.add_class("sg-map")
        url, bounds = layers.terrain_image(ds, level)
        self.terrain = L.ImageOverlay(url=url, bounds=bounds, name=LAYER_NAMES["terrain"](lang))
        self.borders = L.GeoJSON(
            data=layers.borders_geojson(ds),
            style=layers.BORDER_STYLE,
            name=LAYER_NAMES["borders"](lang),
        )
        self.rivers = L.GeoJSON(
            data=layers.rivers_geojson(ds),
            style=layers.RIVER_STYLE,
            name=LAYER_NAMES["rivers"](lang),
        )
        self.routes = L.GeoJSON(
            data=layers.routes_geojson(ds, level),
            name=LAYER_NAMES["routes"](lang),
        )
        self.places = L.GeoJSON(
            data=marks.places_geojson(ds, level),
            name=LAYER_NAMES["places"](lang),
        )
        self.names = L.LayerGroup(layers=self._names(), name=LAYER_NAMES["names"](lang))
        self.reach = L.GeoJSON(data=marks.collection([]), name=LAYER_NAMES["reach"](lang))
        self.fights = L.GeoJSON(data=marks.collection([]), name=LAYER_NAMES["fights"](lang))
        self.units = L.GeoJSON(data=marks.collection([]), name=LAYER_NAMES["units"](lang))
        self.labels = L.LayerGroup(layers=[], name=LAYER_NAMES["grid"](lang))
        for layer in (self.terrain, self.borders, self.rivers, self.routes, self.places,
                      self.names, self.reach, self.fights, self.units, self.labels):  # fmt: skip
            self.map.add(layer)
        self.readout = w.HTML(LABEL_CSS)
        self.map.add(L.LayersControl(position="topright"))
        self.map.add(L.WidgetControl(widget=self.readout, position="topright", transparent_bg=True))
        # a banner over the map (the start of the war): on the screen without moving the layout
        self.banner = w.HTML(layout=w.Layout(max_width="560px"))
        self.map.add(
            L.WidgetControl(widget=self.banner, position="bottomleft", transparent_bg=True)
        )
        self.units.on_click(self._feature_click)
        self.units.on_hover(self._feature_hover)
        self.fights.on_hover(self._feature_hover)
        self.map.on_interaction(self._interaction)
        self.map.observe(self._moved, names=["bounds"])
        self.units_built = 0
        self._box: tuple[float, float] | None = None
        self.labels_drawn = 0

    @staticmethod
    def fit_zoom(width: int, height: int, pixels: tuple[float, float] = (880, 600)) -> float:
        """The zoom (in quarters) at which the whole theatre fits a box of `pixels`."""
        scale = min(pixels[0] / (width + 1), pixels[1] / (height + 1))
        return math.floor(math.log2(max(scale, 1e-6)) * 4) / 4

    def box(self) -> tuple[float, float] | None:
        """The map's box in pixels, from the bounds the browser last reported (in Simple CRS a
        map unit is 2**zoom pixels)."""
        b = self.map.bounds
        if not b or len(b) != 2:
            return None
        (south, west), (north, east) = b
        scale = 2.0 ** float(self.map.zoom)
        width, height = round((east - west) * scale), round((north - south) * scale)
        return (float(width), float(height)) if width > 0 and height > 0 else None

    def fit(self) -> None:
        """Show the whole theatre as large as the box allows."""
        w_, h_ = self.size
        box = self.box() or (880.0, 600.0)
        zoom = self.fit_zoom(w_, h_, box)
        center = ((h_ + 1) / 2, (w_ + 1) / 2)
        self.map.center = center
        self.map.zoom = zoom

    def _moved(self, _: Any = None) -> None:
        """After every move of the view: a box of another size (the window resized, the panel
        shown) is fitted again; the edge numbers follow the view."""
        box = self.box()
        resized = box is not None and (
            self._box is None or abs(box[0] - self._box[0]) > 2 or abs(box[1] - self._box[1]) > 2
        )
        if box is not None:
            self._box = box
        if resized:
            self.fit()
        self.draw_labels()

    def draw_labels(self) -> None:
        """Cell numbers along the visible west and south edges, spaced for this zoom."""
        b = self.map.bounds
        if not b or len(b) != 2:
            return
        (south, west), (north, east) = b
        items = marks.edge_labels(((south, west), (north, east)), float(self.map.zoom), self.size)
        self.labels.layers = tuple(_label(x, y, t) for x, y, t in items)
        self.labels_drawn += 1

    def _names(self) -> list[L.Marker]:
        return [
            _label(p["x"], p["y"] + 0.62, html.escape(p["name"]), "sg-name", 140)
            for p in marks.places(self.ds, self.level)
            if p["name"]
        ]

    def show_banner(self, html: str) -> None:
        """`html` as a banner in the map's corner ("": none)."""
        if self.banner.value != html:
            self.banner.value = html

    def show_readout(self, html: str) -> None:
        self.readout.value = LABEL_CSS + (f"<div class='sg-readout'>{html}</div>" if html else "")

    def _feature_click(self, feature: dict[str, Any] | None = None, **_: Any) -> None:
        if feature is None:
            return
        x, y = _centre(feature)
        self.on_click(x, y, feature.get("properties"))

    def _feature_hover(self, feature: dict[str, Any] | None = None, **_: Any) -> None:
        if feature is not None and self.on_hover is not None:
            x, y = _centre(feature)
            self.on_hover(x, y, feature.get("properties"))

    def _interaction(self, **event: Any) -> None:
        kind = event.get("type")
        lat, lng = event.get("coordinates", (0, 0))
        if kind == "click":
            self.on_click(float(lng), float(lat), None)
        elif kind == "mousemove" and self.on_hover is not None and self.on_drag is None:
            self.on_hover(float(lng), float(lat), None)
        if kind in ("mousedown", "mousemove", "mouseup") and self.on_drag is not None:
            self.on_drag(str(kind), float(lng), float(lat))

    def redraw_theatre(self, ds: xr.Dataset, level: int) -> None:
        """Redraw the terrain and its lines after the theatre changed (the scenario builder)."""
        self.ds, self.level, self.size = ds, level, terrain.size(ds)
        url, bounds = layers.terrain_image(ds, level)
        self.terrain.url = url
        self.terrain.bounds = bounds
        self.borders.data = layers.borders_geojson(ds)
        self.rivers.data = layers.rivers_geojson(ds)
        self.routes.data = layers.routes_geojson(ds, level)
        self.places.data = marks.places_geojson(ds, level)
        self.names.layers = tuple(self._names())

    def show_units(self, collection: dict[str, Any]) -> None:
        self.units.data = collection
        self.units_built += 1

    def show_reach(self, cells: list[tuple[int, int]]) -> None:
        self.show_reach_costs([(x, y, 0.0) for x, y in cells])

    def show_reach_costs(self, costs: list[tuple[int, int, float]]) -> None:
        """The reachable cells shaded by what they cost (turn fractions)."""
        self.reach.data = marks.reach_geojson(costs)

    def show_fights(self, items: list[tuple[str, int, int, str]]) -> None:
        self.fights.data = marks.fight_marks(items)

    def go_to(self, x: float, y: float, zoom: float | None = None) -> None:
        """Centre the map on a cell (closer in if `zoom` is given)."""
        zoom = zoom if zoom is not None and zoom > self.map.zoom else float(self.map.zoom)
        self.map.zoom = zoom
        self.map.center = (y, x)


def _centre(feature: dict[str, Any]) -> tuple[float, float]:
    g = feature["geometry"]
    coords = g["coordinates"]
    if g["type"] == "Point":
        return float(coords[0]), float(coords[1])
    if g["type"] == "LineString":
        ring = coords
    else:
        ring = coords[0] if g["type"] == "Polygon" else [p for line in coords for p in line]
    xs = [c[0] for c in ring]
    ys = [c[1] for c in ring]
    return (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
