"""Every action says what it did, and no panel outlives what it tells of: the mediator's decision
on a sealed order named to its side and at the console, chosen from the orders themselves; the
team's «запечатан» note gone once the turn is carried out; the moves ended headed by whose and
which they are; the «Ход войны» charts of one view never shown for another; a last-known mark
telling what it is when hovered or clicked."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from strategia.core.geometry import Cell
from strategia.game.channel import channel
from strategia.game.game import Game
from strategia.game.last_known import LastSeen
from strategia.ui.console import Console, course_tab
from strategia.ui.team import TeamScreen
from strategia.ui.widgets import marks

ROOT = Path(__file__).parents[1]
DEFAULT = ROOT / "maps" / "continental.toml"
COURSE = 7  # the «Ход войны» tab: the last of the console's eight


def test_an_amendment_is_chosen_from_the_sealed_orders_and_says_what_it_did(
    tmp_path: Path,
) -> None:
    """No order is chosen until the mediator chooses one: Amend with none chosen is refused,
    nothing written; chosen, the order is put into the box to be corrected; done, the panel
    says what was done as Blue is told it, and no order is chosen again."""
    path = tmp_path / "g.game"
    Game.new(DEFAULT, path, level=3)
    c = Console(Game.open(path), "en", tmp_path)
    channel(Game.open(path), "blue").order("101 с.д. на 28,33")
    assert c.catch_up()
    sealed = c.panels.sealed
    assert sealed.entry.value is None and sealed.text.value == ""
    sealed.note.value = "the road is taken"
    n = len(c.game.journal.entries)
    sealed.do_amend()
    assert (
        "no order is chosen" in sealed.error.value and "nothing was amended" in sealed.error.value
    )
    assert len(c.game.journal.entries) == n
    sealed.entry.value = next(v for _, v in sealed.entry.options if v is not None)
    assert sealed.text.value == "101 RD to 28,33"
    sealed.text.value = "101 RD to 28,32"
    sealed.do_amend()
    said = "order «101 RD to 28,33» amended to «101 RD to 28,32»: the road is taken"
    assert said in sealed.done.value and "told to Blue" in sealed.done.value
    assert sealed.entry.value is None and sealed.text.value == ""
    assert said in channel(c.game, "blue").journal_text("en")
    ru = channel(c.game, "blue").journal_text("ru")
    assert "приказ «101 с.д. на 28,33» исправлен на «101 с.д. на 28,32»: the road" in ru
    c.end_turn()  # the turn carried out: the decision told of it is done with
    assert sealed.done.value == ""


@pytest.mark.parametrize(("lang", "note"), [("ru", "запечатан на ход 1"), ("en", "sealed for")])
def test_the_team_s_sealed_note_goes_once_the_turn_is_carried_out(
    tmp_path: Path, lang: str, note: str
) -> None:
    path = tmp_path / "g.game"
    Game.new(DEFAULT, path, level=3)
    team = TeamScreen(Game.open(path), "blue", lang)
    team.submit("101 с.д. на 28,33")
    assert note in team.form.result.value
    Game.open(path).end_turn()  # the mediator carries the turn out
    assert team.catch_up()
    assert team.form.result.value == ""


def test_the_moves_ended_are_headed_by_whose_and_which_they_are(tmp_path: Path) -> None:
    """Level 2: Red's End turn, then Blue's move by the computer: each move's results under its
    own heading, in the order they were ended; the turn passed, what was told of the turn
    before is gone; a move with no results is said to have none; level 3 in English: the turn
    carried out."""
    c = Console.open(DEFAULT, lang="ru", level=2, games=tmp_path / "ru")
    c.submit("21 т.д. на 35,35")
    c.end_turn()
    shown = c.panels.orders.result.value
    assert shown.startswith("<p><b>Конец хода красных, ход 1</b></p>")
    c.panels.computer.rows["blue"][0].value = "computer"  # Blue's turn: the computer moves
    shown = c.panels.orders.result.value  # its move told after the one told already
    red, blue = shown.find("Конец хода красных, ход 1"), shown.find("Конец хода синих, ход 1")
    assert 0 < red < blue, shown
    assert c.game.side == "green"
    c.panels.computer.rows["red"][0].value = "computer"
    c.end_turn()  # Green's move ended here, then the computer's Red and Blue move in turn 2
    shown = c.panels.orders.result.value
    heads = ["Конец хода зеленых, ход 1", "Конец хода красных, ход 2", "Конец хода синих, ход 2"]
    at = [shown.find(h) for h in heads]
    assert 0 < at[0] < at[1] < at[2] and "ход 1</b></p><p><i>без событий" in shown, shown
    assert "Конец хода синих, ход 1" not in shown and "Конец хода красных, ход 1" not in shown
    en = Console.open(DEFAULT, lang="en", level=3, games=tmp_path / "en")
    en.end_turn()
    assert en.panels.orders.result.value.startswith("<p><b>Turn 1 carried out</b></p>")
    assert "nothing to report" in en.panels.orders.result.value


def test_the_course_charts_of_one_view_are_never_shown_for_another(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The mediator's charts drawn; Red's view chosen with the tab open: while Red's are being
    drawn the tab says so, the mediator's picture gone; chosen with the tab closed: the tab is
    emptied at once, and drawn when opened."""
    c = Console.open(DEFAULT, lang="ru", level=2, games=tmp_path)
    c.panels.tabs.selected_index = COURSE
    mediator = c.panels.course.widget.value
    assert "<img" in mediator
    seen: list[str] = []
    side_course = course_tab.side_course

    def drawing(g: Game, side: str) -> Any:
        seen.append(c.panels.course.widget.value)
        return side_course(g, side)

    monkeypatch.setattr(course_tab, "side_course", drawing)
    c.view_choice.value = "red"
    assert seen and "графики для красных строятся" in seen[0] and "<img" not in seen[0]
    red = c.panels.course.widget.value
    assert "<img" in red and red != mediator
    c.panels.tabs.selected_index = 0
    c.view_choice.value = "blue"
    assert c.panels.course.widget.value == ""
    c.panels.tabs.selected_index = COURSE
    assert "<img" in c.panels.course.widget.value and c.panels.course.widget.value != red


@pytest.mark.parametrize(
    ("lang", "title"), [("ru", "101 с.д.: видели на ходу 6"), ("en", "101 RD: seen on turn 6")]
)
def test_a_last_known_mark_says_what_it_is_on_hover_and_click(
    tmp_path: Path, lang: str, title: str
) -> None:
    """On the team's map and the console's: the mouse moving over the mark keeps its title in
    the readout (not the cell's alone); a click on it says it too, and targets the cell."""
    g = Game.new(DEFAULT, tmp_path / "g.game", level=2)
    mark = LastSeen("101 с.д.", (Cell(30, 30),), 6, "seen", "blue")
    team, console = TeamScreen(g, "red", lang), Console(g, lang, tmp_path)
    for screen in (team, console):
        view = screen.mapview
        view.show_last_known(marks.last_known_geojson([mark], lang))
        view._interaction(type="mousemove", coordinates=(29.8, 30.2))
        assert title in view.readout.value and "30,30" in view.readout.value
        view._interaction(type="mousemove", coordinates=(30.0, 33.0))
        assert title not in view.readout.value
        view._interaction(type="click", coordinates=(30.1, 29.9))
        assert title in view.readout.value
    assert team.form.fields["cell"].value == "30,30"
    assert console.panels.orders.fields["cell"].value == "30,30"
