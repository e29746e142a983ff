"""The console without a browser: map data as plain values, and its actions driven from pytest."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from strategia.core.geometry import Cell
from strategia.engine.state import initial_state
from strategia.game.game import Game
from strategia.game.views import mediator_view, to_geojson, view_for
from strategia.notation.refs import UnitRef
from strategia.theatre.scenario_io import load_scenario
from strategia.ui.console import Console
from strategia.ui.widgets import layers

ROOT = Path(__file__).parents[1]
DEFAULT = ROOT / "maps" / "continental.toml"


@pytest.fixture
def console(tmp_path: Path) -> Console:
    return Console.open(DEFAULT, lang="en", level=2, games=tmp_path)


def test_terrain_image_is_a_png_of_crisp_cells() -> None:
    ds = load_scenario(DEFAULT).theatre
    url, bounds = layers.terrain_image(ds, 2)
    assert url.startswith("data:image/png;base64,")
    import base64

    data = base64.b64decode(url.split(",", 1)[1])
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert (width, height) == (64 * layers.PIXELS, 44 * layers.PIXELS)
    assert bounds == ((0.5, 0.5), (44.5, 64.5))


def test_vector_layers_of_the_default_theatre() -> None:
    ds = load_scenario(DEFAULT).theatre
    routes = layers.routes_geojson(ds, 2)["features"]
    assert {f["properties"]["kind"] for f in routes} == {"road", "rail", "trail"}
    assert len(layers.routes_geojson(ds, 1)["features"]) < len(
        routes
    )  # no railways or trails at level 1
    rivers = layers.rivers_geojson(ds)["features"]
    assert len(rivers) == 1 and rivers[0]["geometry"]["type"] == "MultiLineString"
    assert all(len(segment) == 2 for segment in rivers[0]["geometry"]["coordinates"])
    assert all(
        float(c).is_integer() is False
        for f in rivers
        for c in f["geometry"]["coordinates"][0]
        if False
    )
    places = {f["properties"]["name"]: f for f in layers.places_geojson(ds, 2)["features"]}
    assert places["Краснодол"]["properties"]["kind"] == "capital" and places["Краснодол"][
        "geometry"
    ]["coordinates"] == [57, 28]
    assert places["Южная крепость"]["properties"]["fortress"]
    assert layers.borders_geojson(ds)["features"]
    assert (1.0, -0.3, "1") in layers.grid_labels(ds)


def test_counters_one_collection_for_all_units() -> None:
    st = initial_state(load_scenario(DEFAULT), 2)
    view = to_geojson(mediator_view(st))
    coll = layers.counters_geojson(view, selected="21 т.д.")
    counters = [f for f in coll["features"] if f["properties"].get("part") == "counter"]
    assert len(counters) == len(st.units)
    sel = [f for f in counters if f["properties"]["unit"] == "21 т.д."][0]
    assert (
        sel["properties"]["style"]["color"] == "#ffeb3b"
        and sel["properties"]["label"] == "21 т.д. 100%"
    )
    parts = {f["properties"]["part"] for f in coll["features"]}
    assert parts == {"counter", "marks", "strength", "facing", "corps"}
    outline = [
        f
        for f in coll["features"]
        if f["properties"].get("corps") == "5 т.к." and f["properties"]["part"] == "corps"
    ]
    assert len(outline) == 1  # 21 т.д. and 22 т.д. in one dashed footprint


def test_a_side_sees_on_the_map_only_what_its_view_holds() -> None:
    st = initial_state(load_scenario(DEFAULT), 2)
    coll = layers.counters_geojson(to_geojson(view_for(st, "blue", st.scenario.rules(2))))
    text = json.dumps(coll, ensure_ascii=False)
    for u in st.units.values():
        if st.side_of(u.ref) == "red":
            assert f'"{u.ref}"' not in text


def test_select_a_unit_shade_its_reach_and_target_a_cell(console: Console) -> None:
    console.click(37, 35)
    assert console.selected == UnitRef.parse("21 т.д.")
    assert console.mapview.reach.data["features"]
    assert "21 TD" in console.panels.orders.unit_info.value  # an English console
    console.click(35, 35)
    assert console.panels.target.value == "35,35"
    assert console.panels.order_text() == "21 TD to 35,35"


def test_give_an_order_end_the_turn_and_see_the_counter_move(console: Console) -> None:
    console.click(37, 35)
    console.click(35, 35)
    result = console.submit(console.panels.order_text())
    assert result is not None and result.outcome.en.startswith("21 TD - 35,35")
    counters = [
        f
        for f in console.mapview.units.data["features"]
        if f["properties"].get("unit") == "21 т.д." and f["properties"]["part"] == "counter"
    ]
    assert counters[0]["properties"]["cells"] == ["35,35"]
    before = console.mapview.units_built
    console.end_turn()
    assert console.game.side == "blue" and console.mapview.units_built > before
    assert "Blue</b> to move" in console.status.value


def _inside(ring: list[list[float]], x: float, y: float) -> bool:
    """Whether (x, y) lies inside the closed ring (even-odd rule)."""
    hit = False
    for (x0, y0), (x1, y1) in itertools.pairwise(ring):
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            hit = not hit
    return hit


def test_a_marching_division_is_drawn_as_its_column_from_the_first_turn(console: Console) -> None:
    """4.8: «Дивизия на марше растягивается в прямоугольник 1*2 ... На подготовку к маршу уходит
    0.5 хода». 4 с.д. stands at 33,25 on the road (table 4: 10 km a turn, 15 on the march). In
    its first turn it forms up for half a turn and covers 7.5 of the 10 km to 33,24, so its head
    is still at 33,25; the column stretches behind it along the road to 34,26 (the road goes on
    south-east; 33,26 straight behind is off the road and holds 5 с.д.). The map draws it over
    both cells, corner to corner, and over neither of the cells beside them (33,26, 34,25), as
    the mediator sees it and as Red sees its own division."""
    console.submit("4 с.д. марш на 45,25")
    assert console.game.state.unit(UnitRef.parse("4 с.д.")).on_march
    for viewer in ("mediator", "red"):
        console.set_viewer(viewer)
        for coll in (console.units_geojson(), console.mapview.units.data):
            counter = next(
                f
                for f in coll["features"]
                if f["properties"].get("unit") == "4 с.д." and f["properties"]["part"] == "counter"
            )
            assert counter["properties"]["cells"] == ["33,25", "34,26"]
            ring = counter["geometry"]["coordinates"][0]
            assert _inside(ring, 33, 25) and _inside(ring, 34, 26)
            assert not _inside(ring, 33, 26) and not _inside(ring, 34, 25)


def test_cut_orders_are_shown_to_the_mediator_only(console: Console) -> None:
    console.click(37, 35)
    console.submit("21 т.д. на 30,35")  # through a swamp: as near as it can
    assert "cut by the rules" in console.panels.result.value
    console.set_viewer("red")
    console.panels.show_result("x", console.last)
    assert "cut by the rules" not in console.panels.result.value


def test_errors_are_shown_not_raised(console: Console) -> None:
    console.submit("110 с.д. на 30,39")
    assert "Red&#x27;s move" in console.message.value
    console.submit("полная чушь")
    assert "no order word" in console.message.value


def test_battles_are_listed_with_their_breakdowns(tmp_path: Path) -> None:
    from strategia.theatre.builder import ScenarioBuilder

    b = (
        ScenarioBuilder.blank(14, 7)
        .state("R", "К", "red", lon=(1, 6))
        .state("B", "С", "blue", lon=(7, 14))
    )
    b = b.place("R", "1 с.д. - 6,3 фронтом на восток").place("B", "101 с.д. - 7,3 фронтом на запад")
    c = Console(Game.new(b.build(), tmp_path / "b.game", level=2), lang="ru")
    c.submit("удар по 7,3: 1 с.д.")
    b = c.panels.battles
    assert b.list.options
    b.list.value = b.list.options[0][1]
    assert "Бой за 7,3, ход 1." in b.report.value and "9.8в" in b.report.value
    assert "<table>" in b.report.value and "Полный расчет" in b.report.value
    assert "download=" in b.files.value and ".html" in b.files.value
    assert ("battle", 7, 3, "7,3 удержан") in c.fight_marks()


def test_recon_interventions_undo_and_views(console: Console) -> None:
    console.submit("21 т.д. на 35,35")
    console.undo()
    assert console.game.state.unit(UnitRef.parse("21 т.д.")).cell == Cell(37, 35)
    m = console.panels.mediator
    m.note.value = "rain"
    m.note_cell.value = "33,24"
    m.do_intervene()
    assert "rain" in m.interventions.value and "33,24" in m.interventions.value
    console.panels.recon_side.value = "blue"
    console.panels.question.value = "где 21 т.д.?"
    assert console.panels.do_ask() is None and "no war yet" in console.panels.ask_error.value
    assert "questions left <b>15</b> / 15" in console.panels.answers.value
    for side in ("blue", "red", "mediator"):
        console.set_viewer(side)
        assert console.viewer == side


def test_open_an_existing_game(console: Console, tmp_path: Path) -> None:
    console.submit("21 т.д. на 35,35")
    path = console.game.journal.path
    again = Console.open(path, lang="ru")
    assert again.game.state.unit(UnitRef.parse("21 т.д.")).cell == Cell(35, 35)
    console.panels.mediator.open_path.value = str(path)
    console.panels.mediator.do_open()
    assert console.game.journal.path == path


def test_peace_talks_end_the_game_from_the_console(console: Console) -> None:
    m = console.panels.mediator
    m.peace.click()
    assert console.game.phase != "peace" and m.peace_ask.layout.display == "flex"
    m.peace_no.click()
    assert console.game.phase != "peace" and m.peace_ask.layout.display == "none"
    m.peace.click()
    m.peace_yes.click()
    assert console.game.phase == "peace" and "peace" in console.status.value
    console.submit("21 т.д. на 35,35")
    assert "peace talks" in console.message.value
