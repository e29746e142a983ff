"""The theatre map: ipyleaflet in Simple CRS with no web tiles, every layer built from `layers`
and `marks`.

The map starts where its counters can be read: the whole theatre if it fits its box with
counters of `LEGIBLE_PX` or more, else zoomed to the units it is told to start at (`start_at`),
the box filled with ground; "Whole map" (`fit`) shows the whole theatre. Either view is taken
again whenever the box changes size. Cell numbers follow the visible edges at every zoom; a
readout in its corner tells the cell under the cursor and what is hovered. It only draws what it
is given and reports clicks, hovers and the cursor; the console decides what they mean.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import ipyleaflet as L
import ipywidgets as w
import xarray as xr

from strategia.core.i18n import Lang, Text
from strategia.theatre import terrain
from strategia.ui.widgets import layers, marks
from strategia.ui.widgets.units_layer import UnitsLayer

Click = Callable[[float, float, dict[str, Any] | None], None]
Hover = Callable[[float, float, dict[str, Any] | None], None]

MAP_HEIGHT = "calc(100vh - 120px)"  # the window's height below the console's head and tools
BANNER_HEIGHT = "22px"  # the war's banner, a line above the map (`MapView.banner`)
COUNTER = 0.84  # a counter's side in cells (`counters._square`)
# A counter's side in pixels at the working zoom: its number (seven-segment digits, 0.26 of a
# cell tall for one or two digits, `layers.digit_height`) is then 7 px tall, its strokes 3 px
# apart, where it reads at a glance; the whole continental theatre gives 10 px counters in a
# 1280x800 window and 17 px in 1920x1080, so there the map starts zoomed to the units.
LEGIBLE_PX = 22.0
# the tabs beside the map: a share of the width within bounds, the map taking the rest
PANEL_WIDTH = {"flex": "0 0 auto", "width": "36%", "min_width": "460px", "max_width": "640px"}
LAYER_NAMES = {
    "terrain": Text("terrain", "рельеф"),
    "borders": Text("borders", "границы"),
    "rivers": Text("rivers", "реки"),
    "routes": Text("roads and railways", "дороги"),
    "places": Text("places", "города"),
    "names": Text("names", "названия"),
    "reach": Text("reach", "досягаемость"),
    "fights": Text("fights", "бои"),
    "last_known": Text("last known", "последние сведения"),
    "units": Text("units", "войска"),
    "grid": Text("grid numbers", "номера клеток"),
}
WHOLE = Text("Whole map", "Вся карта")  # the console's own button says the same (console.status)
# the map's controls' titles (a tooltip): Leaflet's are English whatever the page speaks
CONTROLS = {
    "zoom_in": Text("Zoom in", "Приблизить"),
    "zoom_out": Text("Zoom out", "Отдалить"),
    "layers": Text("Layers", "Слои"),
}
LABEL_CSS = (
    "<style>.sg-map .leaflet-div-icon{background:none;border:none;pointer-events:none}"
    ".sg-label{font:bold 11px sans-serif;color:#111;text-align:center;"
    "text-shadow:0 0 2px #fff,0 0 2px #fff,0 0 3px #fff;white-space:nowrap}"
    ".sg-readout{font:12px sans-serif;background:#fffd;"
    "padding:2px 6px;border-radius:3px;max-width:360px}</style>"
)


def _label(x: float, y: float, text: str, css: str = "sg-label", width: int = 40) -> L.Marker:
    icon = L.DivIcon(
        html=f"<div class='{css}'>{text}</div>", icon_size=(width, 14), icon_anchor=(width // 2, 7)
    )
    return L.Marker(location=(y, x), icon=icon, draggable=False, keyboard=False)


def zoom_titles(map_: L.Map, lang: Lang) -> None:
    """The map's zoom buttons titled in `lang` (ipyleaflet's are English)."""
    zoom = map_.zoom_control_instance
    if zoom is not None:
        zoom.zoom_in_title = CONTROLS["zoom_in"](lang)
        zoom.zoom_out_title = CONTROLS["zoom_out"](lang)


def beside(
    map_: w.Widget, panel: w.Widget, above: w.Widget | None = None, **panel_layout: str
) -> w.HBox:
    """The map and the panel beside it in one row: the panel `PANEL_WIDTH` wide, the map filling
    the rest of the row, with `above` (the war's banner) on a line of its own over the map."""
    column = [map_] if above is None else [above, map_]
    return w.HBox(
        [
            w.VBox(column, layout=w.Layout(flex="1 1 0", min_width="0")),
            w.Box([panel], layout=w.Layout(**PANEL_WIDTH, **panel_layout)),
        ],
        layout=w.Layout(flex_flow="row nowrap", width="100%"),
    )


class MapView:
    """The map widget with its layers: terrain, borders, rivers, routes, places and their names,
    grid numbers, reach, fights, units (`UnitsLayer`: every counter on one canvas, drawn by
    the browser from a compact record each) and a readout."""

    def __init__(
        self,
        ds: xr.Dataset,
        level: int,
        on_click: Click,
        lang: Lang = "ru",
        height: str = MAP_HEIGHT,
    ) -> None:
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
            layout=w.Layout(height=height, min_height="380px", width="100%", flex="0 0 auto"),
        )
        self.map.add_class("sg-map")
        zoom_titles(self.map, lang)
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
        self._named = marks.place_names(ds, level)
        self.names = L.ImageOverlay(
            url=self._names_url(), bounds=marks.names_bounds(self.size),
            name=LAYER_NAMES["names"](lang),
        )  # fmt: skip
        self.reach = L.GeoJSON(data=marks.collection([]), name=LAYER_NAMES["reach"](lang))
        self.fights = L.GeoJSON(data=marks.collection([]), name=LAYER_NAMES["fights"](lang))
        self.last_known = L.GeoJSON(
            data=marks.collection([]), name=LAYER_NAMES["last_known"](lang)
        )  # where a side last knew enemy units to be, faded
        self.units = UnitsLayer(
            name=LAYER_NAMES["units"](lang), words={"layers": CONTROLS["layers"](lang)}
        )
        self.labels = L.LayerGroup(layers=[], name=LAYER_NAMES["grid"](lang))
        for layer in (self.terrain, self.borders, self.rivers, self.routes, self.places, self.names,
                      self.reach, self.last_known, self.fights, self.units.layer,
                      self.labels):  # fmt: skip
            self.map.add(layer)
        self.readout = w.HTML(LABEL_CSS)
        self.map.add(L.LayersControl(position="topright"))
        # the units layer's drawing in the browser lives in a control of the map (no size)
        self.map.add(L.WidgetControl(widget=self.units.widget, position="bottomright",
                                     transparent_bg=True))  # fmt: skip
        self.map.add(L.WidgetControl(widget=self.readout, position="topright", transparent_bg=True))
        # the start of the war, for a line of its own above the map (`beside`): one line, held
        # whether or not there is anything to say, so that the map never moves for it
        self.banner = w.HTML(
            layout=w.Layout(height=BANNER_HEIGHT, width="100%", margin="0", flex="0 0 auto")
        )
        self.banner.add_class("sg-banner")
        self.units.on_click(self._feature_click)
        self.units.on_hover(self._feature_hover)
        self.fights.on_hover(self._feature_hover)
        self.last_known.on_hover(self._feature_hover)
        self.map.on_interaction(self._interaction)
        self.map.observe(self._moved, names=["bounds"])
        self.map.observe(self._zoomed, names=["zoom"])
        self.units_built = 0
        self.focus: list[tuple[int, int]] | None = None  # the cells to start at; None: whole map
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
        """Show the whole theatre as large as the box allows (and keep to it on a resize)."""
        self.focus = None
        self._frame()

    def whole_button(self, lang: Lang = "ru") -> w.Button:
        """A "Whole map" button on the map, beside its zoom buttons: it shows the whole theatre
        (`fit`). (The console has its own, among its tools.)"""
        button = w.Button(description=WHOLE(lang), icon="expand", layout=w.Layout(width="auto"))
        button.on_click(lambda _: self.fit())
        self.map.add(L.WidgetControl(widget=button, position="topleft"))
        return button

    def start_at(self, cells: list[tuple[int, int]]) -> None:
        """Start at these cells (the units the viewer follows), at a zoom where counters can be
        read, unless the whole theatre shows them so (`start_view`); kept to on a resize."""
        self.focus = list(cells)
        self._frame()

    def _frame(self) -> None:
        w_, h_ = self.size
        box = self.box() or (880.0, 600.0)
        if self.focus is None:
            center, zoom = ((h_ + 1) / 2, (w_ + 1) / 2), self.fit_zoom(w_, h_, box)
        else:
            center, zoom = start_view(self.size, box, self.focus)
        self.map.center = center
        self.map.zoom = zoom

    def _moved(self, _: Any = None) -> None:
        """After every move of the view: in a box of another size (the window resized, the panel
        shown) the view is taken again (`_frame`); the edge numbers follow the view."""
        box = self.box()
        resized = box is not None and (
            self._box is None or abs(box[0] - self._box[0]) > 2 or abs(box[1] - self._box[1]) > 2
        )
        if box is not None:
            self._box = box
        if resized:
            self._frame()
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

    def _names_url(self) -> str:
        """The place names as one picture, their letters the same size at the map's zoom."""
        return marks.names_url(self._named, self.size, float(self.map.zoom))

    def _zoomed(self, _: Any = None) -> None:
        url = self._names_url()
        if self.names.url != url:
            self.names.url = url

    def show_banner(self, html: str) -> None:
        """`html` as the banner above the map ("": none)."""
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

    def mark_at(self, x: float, y: float) -> dict[str, Any] | None:
        """The properties of the fight's or last-known mark on the cell at (x, y), if there is
        one: its title says what it is («101 с.д.: видели на ходу 6»)."""
        cell = f"{round(x)},{round(y)}"
        for layer in (self.fights, self.last_known):
            for f in layer.data.get("features", []):
                if f["properties"].get("cell") == cell:
                    return dict(f["properties"])
        return None

    def _interaction(self, **event: Any) -> None:
        kind = event.get("type")
        lat, lng = event.get("coordinates", (0, 0))
        x, y = float(lng), float(lat)
        if kind == "click":  # a mark clicked says what it is; the click is the cell's
            mark = self.mark_at(x, y)
            if mark is not None and self.on_hover is not None:
                self.on_hover(x, y, mark)
            self.on_click(x, y, None)
        elif kind == "mousemove" and self.on_hover is not None and self.on_drag is None:
            self.on_hover(x, y, self.mark_at(x, y))  # over a mark: what it is, as it moves
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
        self._named = marks.place_names(ds, level)
        self.names.bounds = marks.names_bounds(self.size)
        self.names.url = self._names_url()

    def show_units(self, collection: dict[str, Any]) -> None:
        """The counters of `collection` (`layers.counters_geojson`): only the counters that
        changed are sent again (`UnitsLayer`)."""
        self.units.show(collection)
        self.units_built += 1

    def show_reach(self, cells: list[tuple[int, int]]) -> None:
        self.show_reach_costs([(x, y, 0.0) for x, y in cells])

    def show_reach_costs(self, costs: list[tuple[int, int, float]]) -> None:
        """The reachable cells shaded by what they cost (turn fractions)."""
        self.reach.data = marks.reach_geojson(costs)

    def show_fights(self, items: list[tuple[str, int, int, str]]) -> None:
        self.fights.data = marks.fight_marks(items)

    def show_last_known(self, collection: dict[str, Any]) -> None:
        """The side's last-known marks (`marks.last_known_marks`); resent only when changed."""
        if collection != self.last_known.data:
            self.last_known.data = collection

    def go_to(self, x: float, y: float, zoom: float | None = None) -> None:
        """Centre the map on a cell (closer in if `zoom` is given), as far as the theatre's
        edges allow when it is larger than the box (no empty margin beside the ground)."""
        zoom = zoom if zoom is not None and zoom > self.map.zoom else float(self.map.zoom)
        box = self.box()
        self.map.zoom = zoom
        self.map.center = (y, x) if box is None else within(self.size, box, zoom, x, y)


def _quarters_up(zoom: float) -> float:
    return math.ceil(zoom * 4 - 1e-9) / 4


def start_view(
    size: tuple[int, int],
    box: tuple[float, float],
    cells: list[tuple[int, int]],
    legible: float = LEGIBLE_PX,
) -> tuple[tuple[float, float], float]:
    """The map's first view in a box of `box` pixels, as (centre (lat, lng), zoom): the whole
    theatre if its counters are `legible` pixels or more so; else the box around `cells` (a cell
    of margin), at least at the zoom where counters are `legible` and at most twice that, never
    showing beyond the theatre's edge (the ground fills the box), centred on the cells as far as
    the edges allow."""
    w, h = size
    whole = MapView.fit_zoom(w, h, box)
    if COUNTER * 2.0**whole >= legible:
        return ((h + 1) / 2, (w + 1) / 2), whole
    near = _quarters_up(math.log2(legible / COUNTER))
    cover = _quarters_up(math.log2(max(box[0] / w, box[1] / h)))
    xs = [float(c[0]) for c in cells] or [(w + 1) / 2]
    ys = [float(c[1]) for c in cells] or [(h + 1) / 2]
    span = (max(xs) - min(xs) + 3, max(ys) - min(ys) + 3)
    around = math.floor(math.log2(min(box[0] / span[0], box[1] / span[1])) * 4) / 4
    zoom = min(max(near, cover, min(around, near + 1)), 7.0)
    return within(size, box, zoom, (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2), zoom


def front(
    own: list[tuple[int, int]], enemy: list[tuple[int, int]], radius: int = 5
) -> list[tuple[int, int]]:
    """The cells a side's map starts at (`start_at`): where its units meet the enemy's it knows
    of. The contact is the side's unit nearest a known enemy unit (of those equally near, the
    one with the most enemy units within `radius` cells); the cells are that unit's and that
    enemy's, and every unit of either within `radius` cells of them. Where the side knows of
    no enemy unit, its own units."""
    if not own or not enemy:
        return list(own)

    def apart(a: tuple[int, int], b: tuple[int, int]) -> int:
        return max(abs(a[0] - b[0]), abs(a[1] - b[1]))

    def crowd(a: tuple[int, int]) -> int:
        return sum(apart(a, e) <= radius for e in enemy)

    near = min(apart(a, e) for a in own for e in enemy)
    pairs = [(a, e) for a in own for e in enemy if apart(a, e) == near]
    mine, theirs = max(pairs, key=lambda pair: (crowd(pair[0]), -pair[0][1], -pair[0][0]))
    return [c for c in [*own, *enemy] if min(apart(c, mine), apart(c, theirs)) <= radius]


def within(
    size: tuple[int, int], box: tuple[float, float], zoom: float, x: float, y: float
) -> tuple[float, float]:
    """The centre (lat, lng) nearest (x, y) at which a box of `box` pixels at `zoom` stays
    inside the theatre, along each axis where the theatre is the larger (else its middle)."""
    scale = 2.0**zoom

    def inside(mid: float, half: float, n: int) -> float:
        return min(max(mid, 0.5 + half), n + 0.5 - half) if 2 * half < n else (n + 1) / 2

    return inside(y, box[1] / 2 / scale, size[1]), inside(x, box[0] / 2 / scale, size[0])


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
