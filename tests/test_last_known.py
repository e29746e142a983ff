"""Last-known enemy positions (issue 28): an enemy unit a side identified earlier and does not
see now is shown where it was last seen, faded, with the turn («видели на ходу 1»), until it is
seen again or the side learns it moved; an answer to «где ...?» updates it as the side received
it. A mark carries only what the side was told then, never where the unit is now."""

from __future__ import annotations

from pathlib import Path

import pytest

from strategia.core.geometry import Cell
from strategia.game.channel import channel
from strategia.game.game import Game
from strategia.game.last_known import LastSeen, last_known, still_known
from strategia.game.trial import script_turn
from strategia.game.views import view_for
from strategia.notation.refs import UnitRef
from strategia.theatre.builder import ScenarioBuilder
from strategia.theatre.scenario import Scenario
from strategia.ui.team import TeamScreen
from strategia.ui.widgets.marks import last_known_geojson

ROOT = Path(__file__).parents[1]
DEFAULT = ROOT / "maps" / "continental.toml"


def _scenario() -> Scenario:
    """Red's 2 с.д. at 8,5 facing east, in contact with Blue's 101 с.д. at 9,5 facing west."""
    b = ScenarioBuilder.blank(16, 9).state("R", "К", "red", lon=(1, 8))
    b = b.state("B", "С", "blue", lon=(9, 16))
    b = b.place("R", "1 с.д. - 4,5 фронтом на восток", "2 с.д. - 8,5 фронтом на восток")
    return b.place("B", "101 с.д. - 9,5 фронтом на запад").build()


@pytest.fixture
def game(tmp_path: Path) -> Game:
    """Turn 1: Red sees 101 с.д. in contact at 9,5; 2 с.д. withdraws a cell (7,5), 101 с.д.
    withdraws a cell too (10,5). Turn 2: Red sees only a covering position (no designation)."""
    g = Game.new(_scenario(), tmp_path / "g.game", level=2, seed=3)
    red = channel(g, "red")
    assert [(str(s.unit), s.how) for s in red.view().seen] == [("101 с.д.", "contact")]
    red.order("2 с.д. отход на 5,5")
    g.end_turn()
    channel(g, "blue").order("101 с.д. отход на 12,5")
    g.end_turn()
    assert g.state.turn == 2 and g.state.unit(UnitRef.parse("101 с.д.")).cells == (Cell(10, 5),)
    return g


def test_a_unit_seen_earlier_is_marked_where_it_was_seen_not_where_it_is(game: Game) -> None:
    marks = last_known(channel(game, "red"))
    assert [m.to_json() for m in marks] == [
        {"unit": "101 с.д.", "cells": ["9,5"], "turn": 1, "how": "seen", "side": "blue"}
    ]
    assert marks[0].label("ru") == "101 с.д.: видели на ходу 1"
    assert marks[0].label("en") == "101 RD: seen on turn 1"
    (blue,) = last_known(channel(game, "blue"))  # Blue saw 2 с.д. in contact too, at 8,5
    assert (blue.unit, [str(c) for c in blue.cells], blue.turn) == ("2 с.д.", ["8,5"], 1)
    layer = last_known_geojson(marks, "ru")
    (feature,) = layer["features"]
    assert feature["properties"]["cell"] == "9,5" and feature["properties"]["kind"] == "last-known"
    assert feature["properties"]["style"]["dashArray"] and feature["properties"]["style"]["color"]


def test_seen_again_the_mark_is_gone(game: Game) -> None:
    """2 с.д. moves back up to 8,5 and 101 с.д. to 9,5: in contact, each sees the other again
    (turn 3), and neither has a mark left."""
    red = channel(game, "red")
    red.order("2 с.д. на 8,5")
    game.end_turn()
    channel(game, "blue").order("101 с.д. на 9,5")
    game.end_turn()
    seen = {str(s.unit) for s in red.view().seen if s.unit is not None}
    assert "101 с.д." in seen and last_known(red) == ()
    assert last_known(channel(game, "blue")) == ()


def test_a_mark_on_ground_the_side_now_observes_is_dropped() -> None:
    """8.2: a unit on ground open to the side's observation is seen there; if its last-known
    cells are all open and it is not seen, the side knows it moved: the mark goes. A mark one
    of whose cells is still hidden stays."""
    a = LastSeen("101 с.д.", (Cell(9, 5),), 1)
    b = LastSeen("102 с.д.", (Cell(9, 6), Cell(9, 7)), 1)
    c = LastSeen("103 с.д.", (Cell(12, 5),), 2)
    assert still_known([a, b, c], {"103 с.д."}, {Cell(9, 5), Cell(9, 6)}) == (b,)
    assert still_known([a, b, c], set(), set()) == (a, b, c)


def test_the_team_screen_and_the_console_draw_the_marks_faded(game: Game, tmp_path: Path) -> None:
    screen = TeamScreen(game, "red", lang="ru")
    data = screen.mapview.last_known.data
    assert [f["properties"]["title"] for f in data["features"]] == ["101 с.д.: видели на ходу 1"]
    from strategia.ui.console import Console

    console = Console(game, "en", tmp_path / "games")
    assert console.mapview.last_known.data["features"] == []  # the mediator sees the truth
    console.set_viewer("red")
    titles = [f["properties"]["title"] for f in console.mapview.last_known.data["features"]]
    assert titles == ["101 RD: seen on turn 1"]


def test_in_a_long_game_every_mark_is_what_the_side_saw_or_was_told_then(tmp_path: Path) -> None:
    """The default scenario scripted for 20 moves, a question asked at war: each seen mark is
    the unit's cells in the side's view at the start of the mark's turn, never read from the
    state now; the unit is not in the side's view now; an answer's mark has the cells the
    answer gave and the turn it was given."""
    g = Game.new(DEFAULT, tmp_path / "long.game", level=2, seed=5)
    for _ in range(20):
        script_turn(g)
    for side in ("red", "blue"):
        ch = channel(g, side)
        marks = last_known(ch)
        assert marks, side
        now = {str(s.unit) for s in ch.view().seen if s.unit is not None}
        for m in marks:
            assert m.unit not in now
            if m.how == "seen":
                then = view_for(g.state_at(m.turn), side, g.rules).seen
                assert m.cells == next(s.cells for s in then if str(s.unit) == m.unit)
    red = channel(g, "red")
    target = next(m.unit for m in last_known(red))
    a = red.ask(f"где {target}?")
    mark = next(m for m in last_known(red) if m.unit == target)
    assert mark.how == "answer" and mark.turn == a["turn"]
    assert [str(c) for c in mark.cells] == a["answer"]["ru"].removeprefix("в ").split(" и ")
    assert mark.label("ru") == f"{target}: сообщено на ходу {a['turn']}"


# --- the mediator's truth view ------------------------------------------------------------------


def test_the_truth_view_sets_the_side_s_picture_beside_the_truth(game: Game) -> None:
    """Red believes 101 с.д. at 9,5 (seen on turn 1); it is at 10,5: a wrong belief; Red has
    nothing of the enemy in sight by name, knows of every enemy unit (the only one), was given
    no answer. Blue's mark of 2 с.д. at 8,5 is wrong too (2 с.д. is at 7,5)."""
    from strategia.game.truth import truth_view
    from strategia.ui.console.truth import summary, truth_html

    t = truth_view(game, "red")
    assert t.in_sight == () and t.unknown == () and t.false_answers == ()
    ((belief),) = t.beliefs
    assert belief.mark.unit == "101 с.д." and belief.actual == ("10,5",) and not belief.right
    assert summary(t, "ru") == (
        "Красные: в поле зрения 0 частей противника; отметок неверных — 1, верных — 0; "
        "не знают о 0 частях; ложных ответов — 0."
    )
    assert summary(t, "en") == (
        "Red: 0 units of the enemy in sight; 1 mark wrong, 0 right; 0 units unknown to it; "
        "0 false answers."
    )
    page = truth_html(t, "ru")
    assert "считает в 9,5 (ход 1); на самом деле в 10,5" in page and "пунктирные квадраты" in page
    assert truth_view(game, "blue").wrong[0].actual == ("7,5",)


def test_the_console_s_truth_view_draws_the_side_s_marks_over_the_truth(
    game: Game, tmp_path: Path
) -> None:
    from strategia.ui.console import Console

    console = Console(game, "en", tmp_path / "games")
    truth = console.panels.truth
    assert truth.report.value == "" and console.mapview.last_known.data["features"] == []
    truth.side.value = "red"
    assert console.viewer == "mediator" and console.truth_side == "red"
    titles = [f["properties"]["title"] for f in console.mapview.last_known.data["features"]]
    assert titles == ["101 RD: seen on turn 1"]
    assert "believed at 9,5 (turn 1); actually at 10,5" in truth.report.value
    units = {f["properties"].get("unit") for f in console.units_geojson()["features"]}
    assert "101 с.д." in units  # the truth: the mediator's counters
    truth.side.value = ""
    assert console.mapview.last_known.data["features"] == [] and truth.report.value == ""
