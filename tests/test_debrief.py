"""A side's debrief at the start of its move (issue 28): what happened to it since its last move,
from what it may know only (its channel), in Russian and English, on its screen first, at the
head of its journal on the command line, and as a page to print. Its leak test is in
test_leaks (every level, every side, the screen's and the command line's)."""

from __future__ import annotations

import json
from pathlib import Path

import ipywidgets as w
import pytest

from strategia.cli import main
from strategia.game.channel import channel
from strategia.game.debrief import debrief, last_move_end
from strategia.game.debrief_render import debrief_html, debrief_page, debrief_text
from strategia.game.game import Game
from strategia.theatre.builder import ScenarioBuilder
from strategia.theatre.scenario import Scenario
from strategia.ui.team import TeamScreen


def _scenario() -> Scenario:
    """Red on lon 1-8, Blue on 9-16: Red's 2 с.д. at 8,5 faces Blue's 101 с.д. at 9,5."""
    b = ScenarioBuilder.blank(16, 9).state("R", "К", "red", lon=(1, 8))
    b = b.state("B", "С", "blue", lon=(9, 16))
    b = b.place("R", "1 с.д. - 4,5 фронтом на восток", "2 с.д. - 8,5 фронтом на восток")
    return b.place("B", "101 с.д. - 9,5 фронтом на запад").build()


@pytest.fixture
def game(tmp_path: Path) -> Game:
    """Red's blow by 2 с.д. on 9,5 (level 2, seed 3): one round, each side loses half (the
    battle's record: 101 с.д. 4 regiments at 1.0 → 0.5, strength 1.0 → 0.5); 9,5 held; the war
    begins (9.1). Then Red ends its move."""
    g = Game.new(_scenario(), tmp_path / "g.game", level=2, seed=3)
    r = g.order("удар по 9,5: 2 с.д.")
    assert r is not None and r.battle is not None and r.outcome("ru") == "9,5 удержан"
    g.end_turn()
    return g


def test_the_side_struck_hears_of_the_blow_its_losses_and_the_war(game: Game) -> None:
    d = debrief(channel(game, "blue"))
    assert d.since == 1 and d.turn == 1  # Blue has not moved yet: since the game began
    assert [(x.unit, x.before, x.after, x.destroyed) for x in d.losses] == [
        ("101 с.д.", 1.0, 0.5, False)
    ]
    assert [t["kind"] for t in d.told] == ["result", "war"]
    ru, en = debrief_text(d, "ru"), debrief_text(d, "en")
    assert ru.splitlines()[:2] == [
        "Сводка для синих, ход 1 (с начала игры)",
        "Потери: 101 с.д.: −50\u00a0%, остается 0,5 дивизии.",
    ]
    assert "9,5 удержан" in ru and "Началась война (9.1)" in ru
    assert en.splitlines()[:2] == [
        "Debrief for Blue, turn 1 (since the game began)",
        "Losses: 101 RD: −50%, left 0.5 of a division.",
    ]
    assert "9,5 held" in en and "The war begins (9.1)" in en


def test_the_side_that_just_moved_has_heard_nothing_new_until_the_enemy_moves(
    game: Game,
) -> None:
    """Red's debrief counts from the End turn of its own move: nothing since. After Blue's
    move (its blow back on 8,5 by 101 с.д.), Red hears of it and of 2 с.д.'s loss."""
    red = channel(game, "red")
    d = debrief(red)
    assert d.since == last_move_end(red) == game.journal.last_seq and d.empty
    assert "Nothing happened to your troops." in debrief_text(d, "en")
    assert "С вашими войсками ничего не произошло." in debrief_text(d, "ru")
    channel(game, "blue").order("удар по 8,5: 101 с.д.")
    game.end_turn()
    d = debrief(red)
    assert d.since_turn == 1 and d.turn == 2 and not d.empty
    assert [x.unit for x in d.losses] == ["2 с.д."] and d.losses[0].before == 0.5
    assert any(t.get("battle", {}).get("target") == "8,5" for t in d.told)
    assert "(с конца вашего хода 1)" in debrief_text(d, "ru").splitlines()[0]


def test_at_level_3_the_debrief_tells_the_turn_just_carried_out(tmp_path: Path) -> None:
    """Every side's orders are carried out at the End turn: the debrief of turn 2 counts from
    the start (no End turn before the last) and tells the blow of turn 1 to both sides; the
    debrief of turn 3 tells turn 2's results (none: no losses)."""
    g = Game.new(_scenario(), tmp_path / "l3.game", level=3, seed=3)
    assert channel(g, "red").order("удар по 9,5: 2 с.д.") is None  # sealed
    g.end_turn()
    for side, unit in (("red", "2 с.д."), ("blue", "101 с.д.")):
        d = debrief(channel(g, side))
        assert d.turn == 2 and d.since == 1 and [x.unit for x in d.losses] == [unit]
        assert "(с начала игры)" in debrief_text(d, "ru", g.simultaneous).splitlines()[0]
    g.end_turn()
    d = debrief(channel(g, "blue"))
    assert d.since == g.journal.seqs("end-turn")[-2] and d.losses == () and d.turn == 3
    assert "(итоги хода 2)" in debrief_text(d, "ru", g.simultaneous).splitlines()[0]
    assert "(the results of turn 2)" in debrief_text(d, "en", g.simultaneous).splitlines()[0]


def _widgets(root: w.Widget) -> list[w.Widget]:
    return [root, *(x for c in getattr(root, "children", ()) for x in _widgets(c))]


def test_the_team_screen_shows_it_first_with_a_page_to_print(game: Game) -> None:
    screen = TeamScreen(game, "blue", lang="en")
    tabs = next(x for x in _widgets(screen.widget) if isinstance(x, w.Tab))
    assert tabs.children[0].children[0] is screen.debrief  # the Orders tab, first
    assert "Debrief for Blue, turn 1" in screen.debrief.value
    assert "101 RD: −50%, left 0.5 of a division" in screen.debrief.value
    assert "download='debrief-blue-1.html'" in screen.debrief.value
    page = debrief_page(debrief(channel(game, "blue")), "ru")
    assert page.startswith("<!DOCTYPE html>") and "Сводка для синих, ход 1" in page
    assert "<details open>" in debrief_html(debrief(channel(game, "blue")), "ru")


def test_the_command_line_prints_it_and_heads_the_side_s_journal_with_it(
    game: Game, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = str(game.journal.path)
    assert main(["game", "debrief", path, "--side", "blue", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["losses"] == [{"unit": "101 с.д.", "before": 1.0, "after": 0.5,
                               "destroyed": False}]  # fmt: skip
    assert main(["game", "journal", path, "--side", "blue", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Debrief for Blue, turn 1") and "\n\n«" in out
    page = tmp_path / "d.html"
    assert (
        main(["game", "debrief", path, "--side", "blue", "--format", "html", "-o", str(page)]) == 0
    )
    assert "Сводка для синих" in page.read_text(encoding="utf-8")
    assert main(["game", "debrief", path, "--side", "purple"]) == 2
    assert "«purple»" in capsys.readouterr().err


def test_the_debriefs_entry_counts_only_what_the_side_was_told_of(game: Game) -> None:
    """`since.entry` in a side's JSON counts the items of its own journal, never the whole
    journal's entries: the enemy's orders, questions and undone orders change nothing."""
    blue = channel(game, "blue")
    blue.order("удар по 8,5: 101 с.д.")
    game.end_turn()  # Blue's move ends: its debrief counts from here
    red = channel(game, "red")
    red.order("1 с.д. на 5,5")
    game.undo()
    red.ask("есть ли войска в 12,5?")
    red.order("1 с.д. на 5,5")
    game.end_turn()
    mine = debrief(blue).to_json()["since"]
    told_before = [d for seq, d in blue.told_entries() if seq <= debrief(blue).since]
    assert mine["entry"] == len(told_before) < debrief(blue).since
    again = Game.open(game.journal.path)
    red_again = channel(again, "red")
    red_again.ask("есть ли войска в 13,5?")  # more of the enemy's: the same count
    assert debrief(channel(again, "blue")).to_json()["since"] == mine
