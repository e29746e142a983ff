"""The map's counters as one layer drawn by the browser: a compact record a counter
(`counters.counter_records`) sent once, then only the records that changed, and drawn on one
canvas with one style a kind (`counters.look`, `counters.js`).

Chosen by measurement (README, "Performance"): at 1,000 divisions the GeoJSON layers this
replaces had the kernel build and round every mark's coordinates (0.36 s of a first End turn)
and the browser keep some 1,000 SVG paths; the records are about 100 kB, and the canvas is
drawn again in a few milliseconds. The layer's place in the map's layers control is an empty layer
group (`layer`); the drawing follows it on and off the map.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import anywidget
import ipyleaflet as L
import ipywidgets as w
import traitlets

from strategia.ui.widgets import counters, marks


class CountersWidget(anywidget.AnyWidget):
    """The browser's half of the layer: it finds the map its `toggle` layer group is on,
    draws the records it is sent into that map's pane and reports clicks and hovers on a
    counter by its key; it titles the map's layers control with `words`. It shows nothing
    itself (it lives in a control of the map)."""

    _esm = Path(__file__).with_name("counters.js")
    toggle = traitlets.Instance(L.LayerGroup, allow_none=True).tag(
        sync=True, **w.widget_serialization
    )
    look = traitlets.Dict().tag(sync=True)
    words = traitlets.Dict().tag(sync=True)  # the map's controls' titles: {"layers": "Слои"}


Callback = Callable[..., None]


class UnitsLayer:
    """The map's counters. `show` takes what `counters.counters_geojson` makes (kept as
    `data`) and sends the browser only the records that changed since the last (`sent` counts
    them); callbacks given to `on_click` and `on_hover` are called with the counter's feature,
    as on a GeoJSON layer."""

    def __init__(self, name: str = "", words: dict[str, str] | None = None) -> None:
        self.layer = L.LayerGroup(layers=[], name=name)
        self.widget = CountersWidget(toggle=self.layer, look=counters.look(), words=words or {})
        self.widget.on_msg(self._message)
        self.data: dict[str, Any] = marks.collection([])
        self.records: dict[str, dict[str, Any]] = {}
        self.corps: list[list[float]] = []
        self.features: dict[str, dict[str, Any]] = {}
        self.rev = 0  # the records' revision: a browser that missed one asks for them all
        self.sent = 0  # records sent, all told (tests and benchmarks read it)
        self._click: list[Callback] = []
        self._hover: list[Callback] = []

    def on_click(self, callback: Callback) -> None:
        self._click.append(callback)

    def on_hover(self, callback: Callback) -> None:
        self._hover.append(callback)

    def show(self, collection: dict[str, Any]) -> None:
        self.data = collection
        records, corps, self.features = counters.counter_records(collection)
        new = {r["k"]: r for r in records}
        changed = [r for k, r in new.items() if self.records.get(k) != r]
        gone = [k for k in self.records if k not in new]
        if not changed and not gone and corps == self.corps:
            return
        message: dict[str, Any] = {"type": "changes", "base": self.rev, "rev": self.rev + 1,
                                   "set": changed, "gone": gone}  # fmt: skip
        if corps != self.corps:
            message["corps"] = corps
        self.records, self.corps, self.rev = new, corps, self.rev + 1
        self.widget.send(message)
        self.sent += len(changed)

    def everything(self) -> dict[str, Any]:
        """The message that gives a browser every record (on its first view, or after it
        missed a change)."""
        return {"type": "all", "rev": self.rev, "units": list(self.records.values()),
                "corps": self.corps}  # fmt: skip

    def _message(self, _: Any, content: dict[str, Any], buffers: Any = None) -> None:
        kind = content.get("type")
        if kind == "ready":
            if content.get("rev") != self.rev:
                self.widget.send(self.everything())
                self.sent += len(self.records)
            return
        feature = self.features.get(str(content.get("key")))
        if feature is None:
            return
        for callback in self._click if kind == "click" else self._hover if kind == "hover" else []:
            callback(event=kind, feature=feature, properties=feature["properties"])
