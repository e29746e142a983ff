"""Where the map starts, as plain values (issue 24): counters large enough to read their numbers,
the box filled with ground, the whole theatre when it fits so; the numbers drawn as large as the
counter allows. The browser tests measure the same on the screen (tests/test_layout_browser.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from strategia.core.i18n import Text
from strategia.engine.state import initial_state
from strategia.game.views import mediator_view, to_geojson
from strategia.theatre.scenario_io import load_scenario
from strategia.ui.widgets import layers
from strategia.ui.widgets.mapview import COUNTER, LEGIBLE_PX, MapView, front, start_view, within
from strategia.ui.widgets.notes import war_banner_html

ROOT = Path(__file__).parents[1]
DEFAULT = ROOT / "maps" / "continental.toml"
BOXES = [(786.0, 680.0), (1246.0, 960.0)]  # the console's map at 1280x800 and 1920x1080


def _units() -> list[tuple[int, int]]:
    st = initial_state(load_scenario(DEFAULT), 2)
    return [(u.cell.lon, u.cell.lat) for u in st.units.values()]


def _view(
    size: tuple[int, int], box: tuple[float, float], centre: tuple[float, float], zoom: float
):  # type: ignore[no-untyped-def]
    scale = 2.0**zoom
    (y, x), (hw, hh) = centre, (box[0] / 2 / scale, box[1] / 2 / scale)
    return x - hw, x + hw, y - hh, y + hh


@pytest.mark.parametrize("box", BOXES)
def test_the_theatre_starts_zoomed_to_the_units_with_counters_to_read(
    box: tuple[float, float],
) -> None:
    size = (64, 44)
    assert COUNTER * 2.0 ** MapView.fit_zoom(*size, box) < LEGIBLE_PX  # the whole map: too small
    centre, zoom = start_view(size, box, _units())
    assert COUNTER * 2.0**zoom >= LEGIBLE_PX
    assert COUNTER * 2.0**zoom <= 2.5 * LEGIBLE_PX
    west, east, south, north = _view(size, box, centre, zoom)
    # the ground fills the box: the view stays inside the theatre's edges
    assert west >= 0.5 - 1e-6 and east <= size[0] + 0.5 + 1e-6
    assert south >= 0.5 - 1e-6 and north <= size[1] + 0.5 + 1e-6


def test_a_theatre_that_fits_with_counters_to_read_is_shown_whole() -> None:
    size = (16, 9)
    centre, zoom = start_view(size, BOXES[0], [(2, 8), (16, 8)])
    assert zoom == MapView.fit_zoom(*size, BOXES[0]) and centre == (5.0, 8.5)


def test_units_in_a_corner_are_shown_there_within_the_edges() -> None:
    size, box = (64, 44), BOXES[0]
    centre, zoom = start_view(size, box, [(2, 2), (4, 3)])
    west, east, south, north = _view(size, box, centre, zoom)
    assert abs(west - 0.5) < 1e-6 and abs(south - 0.5) < 1e-6  # as far into the corner as it goes
    assert COUNTER * 2.0**zoom <= 2.5 * LEGIBLE_PX  # a few units: closer, but not without end
    assert start_view(size, box, [])[0] == (22.5, 32.5)  # no units: the middle


def test_a_counters_number_is_as_large_as_its_counter_allows() -> None:
    assert layers.digit_height(1) == layers.digit_height(2) == 0.26
    for n in range(1, 7):
        for marks in (False, True):
            h = layers.digit_height(n, marks)
            assert h / 2 * (1.5 * n - 0.5) <= (0.42 if marks else 0.72) + 1e-9
    st = initial_state(load_scenario(DEFAULT), 2)
    coll = layers.counters_geojson(to_geojson(mediator_view(st)))
    for f in coll["features"]:
        if f["properties"]["part"] == "marks":
            xs = [p[0] for line in f["geometry"]["coordinates"] for p in line]
            ys = [p[1] for line in f["geometry"]["coordinates"] for p in line]
            cx, cy = round(sum(xs) / len(xs)), round(sum(ys) / len(ys))
            assert max(abs(x - cx) for x in xs) <= 0.42 and max(abs(y - cy) for y in ys) <= 0.42


def test_going_to_a_cell_by_the_edge_keeps_the_ground_in_the_box() -> None:
    size, box, zoom = (64, 44), BOXES[1], 4.75
    assert within(size, box, zoom, 29, 34) == (44.5 - box[1] / 2 / 2**zoom, 29)
    assert within(size, box, zoom, 30, 20) == (20, 30)  # in the middle: where it was asked
    assert within(size, box, 3.0, 60, 40) == (22.5, 32.5)  # the whole theatre in view: its middle


def test_a_sides_map_starts_on_its_front() -> None:
    """Where the side's units meet the enemy's it knows of, not the middle of its own units;
    of two contacts, the one with more enemy units about; its own units where it knows none."""
    own = [(2, 2), (3, 2), (20, 20), (21, 20), (30, 5)]
    enemy = [(23, 20), (24, 21), (40, 40), (32, 5)]
    cells = front(own, enemy)
    assert {(20, 20), (21, 20), (23, 20), (24, 21)} <= set(cells)
    assert not {(2, 2), (40, 40), (30, 5), (32, 5)} & set(cells)
    for box in BOXES:  # a view started there shows the contact, at a zoom counters are read
        centre, zoom = start_view((64, 44), box, cells)
        west, east, south, north = _view((64, 44), box, centre, zoom)
        assert west <= 21 <= east and west <= 23 <= east and south <= 20 <= north
        assert COUNTER * 2.0**zoom >= LEGIBLE_PX
    assert front(own, []) == own


def test_the_war_banner_is_one_line_whole_in_its_tooltip() -> None:
    said = Text("The war begins (9.1)", "Началась война (9.1): «Красные» перешли границу")
    banner = war_banner_html(said, "ru")
    assert "white-space:nowrap" in banner and "text-overflow:ellipsis" in banner
    assert "title='Началась война (9.1): «Красные» перешли границу'" in banner
    assert war_banner_html(None, "ru") == ""
