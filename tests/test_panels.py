"""The panels tell the truth (issue 24): a side's view holds none of the mediator's texts, an
order taken back is shown undone, the inputs are cleared when the turn passes, the history
view shows the game as it was (its header, its units) with the game's commands disabled, the
reconnaissance tab asks for the side to move and shows the question forms, and the start of
the war (9.1) is announced on every screen and in every journal, each side told what it may
know."""

from __future__ import annotations

from pathlib import Path

import pytest

from strategia.core.geometry import Cell
from strategia.game.channel import channel
from strategia.game.game import Game
from strategia.game.trial import script_turn
from strategia.game.war_news import banner, news
from strategia.notation.refs import UnitRef
from strategia.theatre.builder import ScenarioBuilder
from strategia.theatre.scenario import Scenario
from strategia.ui.console import Console
from strategia.ui.team import TeamScreen
from strategia.ui.widgets.notes import question_examples, war_banner_html

ROOT = Path(__file__).parents[1]
DEFAULT = ROOT / "maps" / "continental.toml"
U21 = UnitRef.parse("21 т.д.")


@pytest.fixture
def console(tmp_path: Path) -> Console:
    return Console.open(DEFAULT, lang="en", level=2, games=tmp_path / "games")


# --- a side's view, undo, the turn passing -------------------------------------------------------


def test_switching_to_a_side_clears_the_mediator_s_texts(console: Console) -> None:
    """Red's last order, cut (9.3), is shown to the mediator with its cuts «for the mediator»;
    switching the view to Blue (or Red) leaves none of it, nor the battle report chosen."""
    console.submit("21 т.д. на 30,35")  # through a swamp: as near as it can
    form = console.panels.orders
    assert "for the mediator" in form.result.value
    console.submit("21 т.д. поворот на луну")
    assert form.free_error.value == "" and "луну" in console.message.value + form.free_error.value
    console.panels.battles.report.value = "<p>a report</p>"
    for viewer in ("blue", "red"):
        console.view_choice.value = viewer
        assert console.viewer == viewer
        assert form.result.value == "" and "mediator" not in form.result.value
        assert console.message.value == "" and console.panels.battles.report.value == ""


def test_an_order_taken_back_is_shown_undone(console: Console) -> None:
    console.submit("21 т.д. на 35,35")
    form = console.panels.orders
    assert "21 TD - 35,35" in form.result.value
    console.undo()
    assert "<s>21 TD to 35,35</s>" in form.result.value and "undone" in form.result.value
    assert "21 TD - 35,35" not in form.result.value
    assert console.game.state.unit(U21).cell == Cell(37, 35)


def test_the_inputs_are_cleared_when_the_turn_passes(console: Console, tmp_path: Path) -> None:
    form, p = console.panels.orders, console.panels
    console.click(37, 35)
    form.fields["cell"].value = "35,35"
    form.free.value = "21 т.д. на 35,35"
    p.question.value = "где 110 с.д.?"
    p.mediator.note.value = "rain"
    form.free_error.value = "<div>an error</div>"
    console.end_turn()
    assert form.fields["cell"].value == "" and form.fields["unit"].value == ""
    assert form.free.value == "" and form.free_error.value == ""
    assert p.question.value == "" and p.mediator.note.value == ""
    # a team's screen: the mediator ends the move, the screen catches up and clears its form
    g = console.game
    blue = TeamScreen(Game.open(g.journal.path), "blue", "en")
    blue.form.free.value = "110 с.д. на 29,38"
    blue.question.value = "где 21 т.д.?"
    console.end_turn()
    assert blue.catch_up()
    assert blue.form.free.value == "" and blue.question.value == ""


# --- looking back --------------------------------------------------------------------------------


def test_the_history_view_shows_the_game_as_it_was_and_its_commands_are_disabled(
    console: Console,
) -> None:
    """Entry 2 is Red's first order: the header shows turn 1 with Red to move (the game is now
    at Blue's move), a unit clicked is shown as it was; End turn, Undo, the order buttons and
    Ask are disabled, and «back to now» shows in the tools, until the game is shown now."""
    console.submit("21 т.д. на 35,35")
    console.submit("22 т.д. на 35,36")
    console.end_turn()
    assert "<b>Blue</b> to move" in console.status.value
    console.panels.journal.slider.value = 2
    assert console.history == 2
    assert "<b>Red</b> to move" in console.status.value and "history" in console.status.value
    assert "Turn 1" in console.status.value
    commands = [console.end_button, console.undo_button, console.panels.orders.give,
                console.panels.orders.free_go, console.panels.ask,
                console.panels.mediator.intervene]  # fmt: skip
    assert all(b.disabled for b in commands)
    n = len(console.game.journal.entries)
    console.panels.question.value = "где 110 с.д.?"
    console.panels.do_ask()  # Enter in the box: refused all the same, nothing written
    console.panels.mediator.note.value = "rain"
    console.panels.mediator.do_intervene()
    assert "back to now" in console.panels.ask_error.value.lower()
    assert "back to now" in console.panels.mediator.note_error.value.lower()
    assert len(console.game.journal.entries) == n
    assert console.back_button.layout.display != "none"
    assert console.back_button.description == "Back to now"
    console.click(37, 36, {"unit": "22 т.д."})  # where 22 т.д. stood then
    assert console.inspected == UnitRef.parse("22 т.д.")
    assert "<b>22 TD</b>" in console.panels.journal.unit.value
    assert "37,36" in console.panels.journal.unit.value  # not yet at 35,36
    assert console.selected is None
    console.back_button.click()
    assert console.history is None and console.back_button.layout.display == "none"
    assert not any(b.disabled for b in commands if b is not console.undo_button)
    assert "<b>Blue</b> to move" in console.status.value


# --- reconnaissance ------------------------------------------------------------------------------


def test_the_recon_tab_asks_for_the_side_to_move_and_shows_the_forms(console: Console) -> None:
    p = console.panels
    assert p.recon_side.value == "red" and console.game.side == "red"
    forms = p.ask_forms.value
    for q in question_examples("en"):
        assert q in forms
    assert "where is 17 RD?" in forms and p.ask_error.value == ""  # before any error
    console.end_turn()
    assert console.game.side == "blue" and p.recon_side.value == "blue"
    console.view_choice.value = "red"
    assert p.recon_side.value == "red"
    ru = Console(console.game, lang="ru", games=console.games)
    assert "где 17 с.д.?" in ru.panels.ask_forms.value
    team = TeamScreen(console.game, "red", "ru")
    assert "сколько дивизий в 40,21?" in team.ask_forms.value


# --- the start of the war (9.1) -------------------------------------------------------------------


def _three() -> Scenario:
    """Red lon 1-6, Blue 7-14 (lat 1-5), Green 7-14 (lat 6-9): Red's 1 с.д. at 6,3 faces east,
    next to Blue's border; Blue's 101 с.д. far off at 12,3, Green's 201 с.д. at 12,8."""
    b = ScenarioBuilder.blank(14, 9).state("R", "Красные", "red", lon=(1, 6))
    b = b.state("B", "Синие", "blue", lon=(7, 14), lat=(1, 5))
    b = b.state("G", "Зеленые", "green", lon=(7, 14), lat=(6, 9))
    b = b.place("R", "1 с.д. - 6,3 фронтом на восток").place("B", "101 с.д. - 12,3")
    return b.place("G", "201 с.д. - 12,8").build()


def test_each_side_is_told_of_the_war_s_start_as_much_as_it_may_know(tmp_path: Path) -> None:
    """9.1: Red's 1 с.д. crosses into Blue at 7,3 on turn 1: the war begins. The mediator and
    Red are told the unit and the cell; Blue, whose border it is, the cell (its own ground),
    never the unit; Green, neither. One line in each side's journal and the mediator's."""
    g = Game.new(_three(), tmp_path / "w.game", level=2)
    assert banner(g.state) is None and channel(g, "blue").war() is None
    n = len(g.journal.entries)
    g.order("1 с.д. на 7,3")
    assert len(g.journal.entries) == n + 1 and g.state.at_war
    ws = g.state.war_log[0]
    assert (ws.turn, ws.violator, ws.victim, ws.cell, ws.unit, ws.began) == (
        1, "R", "B", Cell(7, 3), "1 с.д.", True
    )  # fmt: skip
    said = {s: channel(g, s).war() for s in ("red", "blue", "green")}
    mediator = banner(g.state)
    assert mediator is not None and mediator.ru == (
        "Началась война (9.1), ход 1: 1 с.д. государства «Красные» перешла границу государства "
        "«Синие» в 7,3"
    )
    assert mediator.en == (
        "The war begins (9.1), turn 1: 1 RD of «Красные» crossed the border of «Синие» at 7,3"
    )
    assert said["red"] == mediator
    assert said["blue"] is not None and said["blue"].ru == (
        "Началась война (9.1), ход 1: войска государства «Красные» перешли границу государства "
        "«Синие» в 7,3"
    )
    assert said["green"] is not None and "7,3" not in said["green"].ru
    assert "1 с.д." not in said["green"].ru and "1 с.д." not in said["blue"].ru
    for side, told in said.items():
        assert told is not None
        journal = channel(g, side).journal_text("ru")
        assert journal.count("(9.1)") == 1 and told.ru in journal, side
        assert [d for d in channel(g, side).told() if d["kind"] == "war"], side
    assert g.journal_text("ru").count(mediator.ru) == 1
    again = Game.open(g.journal.path)  # after reopening, from the state's record
    assert [x.text for x in news(again, "blue")] == [said["blue"]]


def test_the_war_banner_is_on_every_screen(tmp_path: Path) -> None:
    g = Game.new(_three(), tmp_path / "w.game", level=2)
    c = Console(g, lang="ru", games=tmp_path)
    blue = TeamScreen(Game.open(g.journal.path), "blue", "ru")
    assert c.war_line.value == "" and blue.war_line.value == ""
    c.submit("1 с.д. на 7,3")
    assert "Началась война (9.1), ход 1: 1 с.д. государства «Красные»" in c.war_line.value
    blue.catch_up()
    assert "войска государства «Красные» перешли границу государства «Синие» в 7,3" in (
        blue.war_line.value
    )
    assert "1 с.д." not in blue.war_line.value
    c.view_choice.value = "green"  # the console shown as a side: that side's words
    assert "Началась война" in c.war_line.value and "7,3" not in c.war_line.value
    c.view_choice.value = "mediator"
    c.panels.journal.slider.value = 1  # before the crossing: peace
    assert c.war_line.value == ""
    assert war_banner_html(None, "ru") == ""


def test_a_scripted_war_is_announced_once_to_both_sides(tmp_path: Path) -> None:
    g = Game.new(DEFAULT, tmp_path / "s.game", level=2, seed=5)
    while not g.state.at_war:
        script_turn(g)
    for side in ("red", "blue"):
        lines = [x for x in channel(g, side).journal_text("en").splitlines() if "(9.1)" in x]
        assert len(lines) == 1 and "The war begins (9.1)" in lines[0]
