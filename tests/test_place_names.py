"""The place names as one layer (issue 25): one SVG picture over the theatre instead of a marker
widget a name, written at the same size on the screen at every zoom, each where the marker wrote
it (centred just above its place's symbol)."""

from __future__ import annotations

import base64
import re
import xml.etree.ElementTree as ET
from pathlib import Path

from strategia.theatre.scenario_io import load_scenario
from strategia.theatre.terrain import places
from strategia.ui.widgets import marks
from strategia.ui.widgets.mapview import MapView

ROOT = Path(__file__).parents[1]
DEFAULT = ROOT / "maps" / "continental.toml"


def _svg(url: str) -> ET.Element:
    head, data = url.split(",", 1)
    assert head == "data:image/svg+xml;base64"
    return ET.fromstring(base64.b64decode(data).decode("utf-8"))


def test_a_name_is_written_where_its_marker_stood_at_eleven_pixels() -> None:
    """A 10 x 8 theatre: its bounds are (0.5, 0.5)-(8.5, 10.5) and 4 units more each way, so
    the picture's viewBox is 10 + 8 = 18 wide, 8 + 8 = 16 high, its top-left at map
    (x, y) = (-3.5, 12.5). A name at (3, 5.62) is at (3 + 3.5, 12.5 - 5.62) = (6.5, 6.88) in it.
    At zoom 2 a map unit is 4 px, so 11 px is 2.75 units; at zoom 0, 11 units."""
    named = [(3.0, 5.62, "Ставок"), (9.0, 1.62, "A & B")]
    assert marks.names_bounds((10, 8)) == ((-3.5, -3.5), (12.5, 14.5))
    root = _svg(marks.names_url(named, (10, 8), 2.0))
    assert root.attrib["viewBox"] == "0 0 18.0 16.0"
    g = root[0]
    assert g.attrib["font-size"] == "2.75"
    texts = [(t.attrib["x"], t.attrib["y"], t.text) for t in g]
    assert texts == [("6.5", "6.88", "Ставок"), ("12.5", "10.88", "A & B")]
    assert _svg(marks.names_url(named, (10, 8), 0.0))[0].attrib["font-size"] == "11.0"


def test_the_default_scenario_s_names_are_all_in_one_picture() -> None:
    sc = load_scenario(DEFAULT)
    ds = sc.theatre
    named = marks.place_names(ds, 2)
    assert sorted(n for *_, n in named) == sorted(n for n, _ in places(ds))
    written = [t.text for t in _svg(marks.names_url(named, (64, 44), 3.0))[0]]
    assert sorted(written) == sorted(n for *_, n in named)


def test_the_map_holds_one_names_layer_that_follows_the_zoom() -> None:
    """The names are one image overlay (not a marker and an icon widget a name); when the map
    zooms in by one, the letters' size in map units halves, so on the screen it stays 11 px."""
    sc = load_scenario(DEFAULT)
    view = MapView(sc.theatre, 2, lambda *_: None, "ru")
    before = _svg(view.names.url)[0].attrib["font-size"]
    view.map.zoom = float(view.map.zoom) + 1
    after = _svg(view.names.url)[0].attrib["font-size"]
    assert abs(float(after) - float(before) / 2) < 1e-4  # written to 4 decimals
    assert not re.search(r"sg-name", repr(view.map.layers))
    assert [tuple(c) for c in view.names.bounds] == list(marks.names_bounds(view.size))
