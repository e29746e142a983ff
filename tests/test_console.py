"""The console without dead ends (issue 14), driven from pytest as the buttons drive it: opening
games again and again, resuming after a reload, clicks that select or target, every order from
the form, interventions listed and taken back, undo that says what it undoes, the history
slider, errors beside their inputs, the readout, and a Russian page with no English in it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import ipywidgets as w
import pytest
from test_russian import assert_russian

from strategia.core.geometry import Cell
from strategia.game.game import Game
from strategia.notation import FORMS, Order
from strategia.notation.refs import UnitRef
from strategia.ui.console import Console
from strategia.ui.widgets import marks
from strategia.ui.widgets.order_form import order_menu

ROOT = Path(__file__).parents[1]
DEFAULT = ROOT / "maps" / "continental.toml"
U21 = UnitRef.parse("21 т.д.")


@pytest.fixture
def console(tmp_path: Path) -> Console:
    return Console.open(DEFAULT, lang="en", level=2, games=tmp_path / "games")


def test_opening_games_again_and_again(console: Console, tmp_path: Path) -> None:
    first = console.game.journal.path
    assert first.parent == tmp_path / "games"  # where the console's settings say
    console.submit("21 т.д. на 35,35")
    m = console.panels.mediator
    for _n in range(2):
        m.open_path.value = str(DEFAULT)
        m.do_open()
        m = console.panels.mediator  # the tab is rebuilt with the console
        assert (
            console.game.journal.path != first and console.game.journal.path.parent == first.parent
        )
        assert console.game.state.unit(U21).cell == Cell(37, 35)
        console.submit("21 т.д. на 36,35")  # the order goes to the game on the screen
        assert console.game.state.unit(U21).cell == Cell(36, 35)
        assert console.panels.orders.c is console
    m.open_path.value = str(first)
    m.do_open()
    assert console.game.journal.path == first
    assert console.game.state.unit(U21).cell == Cell(35, 35)
    m = console.panels.mediator
    m.open_path.value = str(tmp_path / "nothing.game")
    m.do_open()
    assert "no such file" in m.open_error.value and console.game.journal.path == first


def test_a_reloaded_page_resumes_its_game(tmp_path: Path) -> None:
    games = tmp_path / "games"
    a = Console.resume(DEFAULT, "en", games=games)
    a.submit("21 т.д. на 35,35")
    b = Console.resume(DEFAULT, "en", games=games)  # the page reloaded
    assert b.game.journal.path == a.game.journal.path
    assert b.game.state.unit(U21).cell == Cell(35, 35)
    b.game.end_game()
    c = Console.resume(DEFAULT, "en", games=games)  # that war is over: a new one
    assert c.game.journal.path != a.game.journal.path


def test_clicks_select_the_side_to_move_and_target_cells(console: Console) -> None:
    blue = UnitRef.parse("110 с.д.")  # Blue's, at 29,39; Red is to move
    console.click(29, 39, {"unit": str(blue)})
    assert console.selected is None and console.panels.target.value == "29,39"
    console.click(37, 35)
    assert console.selected == U21
    console.click(37, 35, {"unit": "21 т.д."})  # its own cell: never a target
    assert console.panels.target.value == "29,39" and console.selected == U21
    console.click(29, 39, {"unit": str(blue)})  # an enemy counter: its cell is the target
    assert console.selected == U21 and console.panels.target.value == "29,39"
    assert console.panels.order_text() == "21 TD to 29,39"  # the English console's notation
    console.click(37, 36)  # 22 т.д., Red's too: selected
    assert console.selected == UnitRef.parse("22 т.д.")


def test_every_declared_order_can_be_given_from_the_form(console: Console) -> None:
    menu = order_menu("en")
    assert [f for _, f in menu] == [f for f in FORMS if issubclass(f.cls, Order)]
    form = console.panels.orders
    console.click(37, 35)
    for _, f in menu:
        form.kind.value = f
        shown = {c.description for c in form.form_box.children}
        assert shown, f.ru
        assert "?" not in form.order_text() or any(
            isinstance(c, w.Text) and not c.value for c in form.form_box.children
        )
    by_title = {f.title("en"): f for _, f in menu}
    form.kind.value = by_title["formation"]
    form.fields["formation"].value = form.fields["formation"].options[1][1]
    assert form.order_text() == "21 TD formation supporting"
    assert form.give_order() is not None
    form.kind.value = by_title["turn the regiments"]
    form.fields["regiments"].value = form.fields["regiments"].options[1][1]
    assert form.order_text() == "21 TD regiments towards the front line"
    form.kind.value = by_title["form a corps"]
    form.fields["unit+others"].value = "21 TD, 22 TD"
    form.fields["corps"].value = "10 TC"
    assert form.order_text() == "form 10 TC from 21 TD, 22 TD"
    form.kind.value = by_title["attack"]
    form.fields["cell"].value = "33,24"
    form.fields["support"].value = "41 SPD"
    assert form.order_text() == "attack 33,24: 21 TD supported by 41 SPD"
    form.kind.value = by_title["move forward"]  # its formation is optional: none unless chosen
    form.fields["cell"].value = "35,35"
    assert form.fields["formation"].value is None and form.order_text() == "21 TD to 35,35"
    form.fields["formation"].value = form.fields["formation"].options[1][1]
    assert form.order_text() == "21 TD to 35,35 formation supporting"
    form.kind.value = by_title["movement statute"]  # 5.9
    form.fields["unit"].value = "5 TC"
    form.fields["echelons+rest"].value = "21 TD; the rest"
    form.fields["gap"].value = "5"
    assert form.fields["formation"].value is None
    assert form.order_text() == "movement statute 5 TC: echelons 21 TD; the rest at 5 km intervals"
    assert form.give_order() is not None and console.game.state.statutes


def test_a_counter_shows_its_formation_and_regiments(console: Console) -> None:
    console.submit("21 т.д. построение опорное")
    console.submit("22 т.д. полки к линии фронта")
    feats = console.mapview.units.data["features"]
    mine = {f["properties"]["unit"]: f["properties"] for f in feats if f["properties"].get("part") == "counter"}  # fmt: skip
    assert mine["21 т.д."]["formation"] == "supporting"
    assert mine["22 т.д."]["regiments"] == "front_line"
    console.hover(37, 35, {"unit": "21 т.д.", "part": "marks"})
    text = console.mapview.readout.value
    assert "21 TD" in text and "tank division" in text and "supporting" in text
    assert "facing W" in text and "5 TC" in text and "37,35" in text


def test_readout_of_cells_places_and_reach(console: Console) -> None:
    console.hover(57.2, 27.9)
    assert "57,28" in console.mapview.readout.value and "Краснодол" in console.mapview.readout.value
    console.click(37, 35)
    assert console.reach_costs
    (x, y), cost = next(iter(console.reach_costs.items()))
    console.hover(x, y)
    assert "reach: takes" in console.mapview.readout.value
    shades = {f["properties"]["style"]["fillColor"] for f in console.mapview.reach.data["features"]}
    assert len(shades) > 1  # graded by cost


def test_interventions_are_checked_listed_and_taken_back(console: Console) -> None:
    m = console.panels.mediator
    m.note.value = "rain"
    m.note_cell.value = "99,99"
    m.do_intervene()
    assert "off the map" in m.note_error.value and not console.game.intervention_list()
    m.note.value, m.note_cell.value, m.note_turns.value = "rain", "33,24", 3
    m.do_intervene()
    assert m.note_error.value == "" and "33,24" in m.interventions.value
    assert "3 turns" in m.interventions.value
    assert console.undo_button.description == "Undo: rain"
    console.submit("21 т.д. на 35,35")
    assert console.undo_button.description == "Undo: 21 TD to 35,35"
    console.undo()
    assert console.undo_button.description == "Undo: rain"
    console.undo()
    assert console.game.intervention_list() == [] and console.undo_button.disabled


def test_the_history_slider_shows_the_game_as_it_was(console: Console) -> None:
    console.submit("21 т.д. на 35,35")
    console.submit("22 т.д. на 35,36")
    j = console.panels.journal
    assert j.slider.max == 3
    j.slider.value = 2  # after the first order
    cells = {
        f["properties"]["unit"]: f["properties"]["cells"]
        for f in console.mapview.units.data["features"]
        if f["properties"].get("part") == "counter"
    }
    assert cells["21 т.д."] == ["35,35"] and cells["22 т.д."] == ["37,36"]
    assert "history" in console.status.value and "entry 2 of 3" in j.where.value
    console.submit("21 т.д. на 34,35")
    assert (
        "back to now" in console.message.value.lower()
        or "back to now" in console.panels.orders.free_error.value.lower()
    )
    j.now.click()
    assert console.history is None and console.game.state.unit(U21).cell == Cell(35, 35)


def test_errors_stand_beside_their_inputs(console: Console) -> None:
    form = console.panels.orders
    console.submit("21 т.д. на 35,35")
    form.show_result("", console.last)
    assert form.result.value
    form.free.value = "21 т.д. поворот на луну"
    form.give_free()
    assert "unknown direction &#x27;луну&#x27;" in form.free_error.value and form.result.value == ""
    assert form.form_error.value == ""
    form.free.value = "21 т.д. поворот на юг"
    form.give_free()
    assert form.free_error.value == ""


def test_find_a_unit(console: Console) -> None:
    console.find_box.value = "21 т.д."
    console.find("21 т.д.")
    assert console.selected == U21 and tuple(console.mapview.map.center) == (35, 37)
    console.find("999 с.д.")
    assert "999 с.д." in console.message.value


def test_edge_labels_follow_the_zoom() -> None:
    far = marks.edge_labels(((0.5, 0.5), (44.5, 64.5)), 3.5, (64, 44))
    near = marks.edge_labels(((20.5, 30.5), (25.5, 40.5)), 6.0, (64, 44))
    assert {t for _, _, t in far} >= {"10", "20", "60"} and "7" not in {t for _, _, t in far}
    assert {t for _, _, t in near} >= {"31", "35", "40", "21", "25"}


def _texts(widget: Any) -> list[str]:
    """Every text a widget tree shows: HTML, descriptions, options, tab titles, placeholders
    (file names and paths left out: they are names, not words)."""
    out: list[str] = []
    if "sg-lang" in getattr(widget, "_dom_classes", ()):  # the language switch names English
        return out
    if isinstance(widget, w.HTML | w.Label):
        out.append(str(widget.value))
    for attr in ("description", "placeholder", "tooltip"):
        v = getattr(widget, attr, None)
        if isinstance(v, str):
            out.append(re.sub(r"[\w./-]+\.(toml|game|html|md)\b", "", v))
    if isinstance(widget, w.widgets.widget_selection._Selection):
        out += [str(label) for label in widget._options_labels]
    if isinstance(widget, w.Tab):
        out += [str(t) for t in widget.titles]
    for c in getattr(widget, "children", ()) or ():
        out += _texts(c)
    return out


def test_the_russian_console_has_no_english(tmp_path: Path) -> None:
    g = Game.new(DEFAULT, tmp_path / "r.game", level=2)
    c = Console(g, lang="ru", games=tmp_path)
    c.click(37, 35)
    c.submit("21 т.д. на 35,35")
    c.submit("21 т.д. поворот на луну")
    c.hover(37, 35, {"unit": "22 т.д."})
    c.panels.mediator.do_intervene()
    texts = [*_texts(c.widget), c.mapview.readout.value]
    for tab in range(len(c.panels.tabs.children)):
        c.panels.tabs.selected_index = tab
    assert_russian(texts, "console")
    c.lang_choice.value = "en"
    assert c.lang == "en" and "Turn 1" in c.status.value and c.game is g
