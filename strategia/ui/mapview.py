"""The theatre map: ipyleaflet in Simple CRS with no web tiles, every layer built from `layers`.

The map only draws what it is given and reports clicks; the console decides what they mean.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipyleaflet as L
import ipywidgets as w
import xarray as xr

from strategia.ui import layers

Click = Callable[[float, float, dict[str, Any] | None], None]


def _style(feature: dict[str, Any]) -> dict[str, Any]:
    return dict(feature["properties"].get("style", {}))


class MapView:
    """The map widget with its layers: terrain, borders, rivers, routes, places, grid, reach,
    units (one GeoJSON layer for all counters)."""

    def __init__(self, ds: xr.Dataset, level: int, on_click: Click) -> None:
        self.ds = ds
        self.on_click = on_click
        self.on_drag: Callable[[str, float, float], None] | None = None
        w_, h_ = ds.sizes["lon"], ds.sizes["lat"]
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
            layout=w.Layout(height="620px", width="100%"),
        )
        url, bounds = layers.terrain_image(ds, level)
        self.terrain = L.ImageOverlay(url=url, bounds=bounds, name="terrain")
        self.borders = L.GeoJSON(
            data=layers.borders_geojson(ds), style=layers.BORDER_STYLE, name="borders"
        )
        self.rivers = L.GeoJSON(
            data=layers.rivers_geojson(ds), style=layers.RIVER_STYLE, name="rivers"
        )
        self.routes = L.GeoJSON(
            data=layers.routes_geojson(ds, level), style_callback=_style, name="routes"
        )
        self.places = L.GeoJSON(
            data=layers.places_geojson(ds, level),
            point_style=layers.PLACE_STYLE,
            name="places",
        )
        self.reach = L.GeoJSON(
            data=layers.cells_geojson([]), style=layers.REACH_STYLE, name="reach"
        )
        self.units = L.GeoJSON(data=layers.cells_geojson([]), style_callback=_style, name="units")
        self.labels = L.LayerGroup(
            layers=[
                L.Marker(
                    location=(y, x),
                    icon=L.DivIcon(html=f"<b>{t}</b>", icon_size=(24, 12)),
                    draggable=False,
                )
                for x, y, t in layers.grid_labels(ds)
            ],
            name="grid",
        )
        for layer in (
            self.terrain,
            self.borders,
            self.rivers,
            self.routes,
            self.places,
            self.labels,
            self.reach,
            self.units,
        ):
            self.map.add(layer)
        self.map.add(L.LayersControl(position="topright"))
        self.units.on_click(self._feature_click)
        self.map.on_interaction(self._interaction)
        self.units_built = 0

    @staticmethod
    def fit_zoom(width: int, height: int, pixels: tuple[int, int] = (880, 600)) -> float:
        """The zoom (in quarters) at which the whole theatre fits the map's box."""
        import math

        scale = min(pixels[0] / (width + 1), pixels[1] / (height + 1))
        return math.floor(math.log2(scale) * 4) / 4

    def _feature_click(self, feature: dict[str, Any] | None = None, **_: Any) -> None:
        if feature is None:
            return
        coords = feature["geometry"]["coordinates"]
        ring = coords[0] if feature["geometry"]["type"] == "Polygon" else coords
        xs = [c[0] for c in ring]
        ys = [c[1] for c in ring]
        self.on_click((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2, feature.get("properties"))

    def _interaction(self, **event: Any) -> None:
        kind = event.get("type")
        lat, lng = event.get("coordinates", (0, 0))
        if kind == "click":
            self.on_click(float(lng), float(lat), None)
        elif kind in ("mousedown", "mousemove", "mouseup") and self.on_drag is not None:
            self.on_drag(str(kind), float(lng), float(lat))

    def redraw_theatre(self, ds: xr.Dataset, level: int) -> None:
        """Redraw the terrain and its lines after the theatre changed (the scenario builder)."""
        self.ds = ds
        url, bounds = layers.terrain_image(ds, level)
        self.terrain.url = url
        self.terrain.bounds = bounds
        self.borders.data = layers.borders_geojson(ds)
        self.rivers.data = layers.rivers_geojson(ds)
        self.routes.data = layers.routes_geojson(ds, level)
        self.places.data = layers.places_geojson(ds, level)

    def show_units(self, collection: dict[str, Any]) -> None:
        self.units.data = collection
        self.units_built += 1

    def show_reach(self, cells: list[tuple[int, int]]) -> None:
        self.reach.data = layers.cells_geojson(cells)
