"""The course of the war charted (issue 28): the Dataset's numbers against the journal, a side's
copy holding only what the side knows, `strategia game chart` (PNG, CSV, NetCDF, --json), the
whole game's report (`game report --whole`), and the console's «Ход войны» tab."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
import xarray as xr

from strategia.cli import main
from strategia.game import report_render as rr
from strategia.game.course import course
from strategia.game.game import Game
from strategia.game.scoring import strength_of
from strategia.game.trial import script_turn
from strategia.game.war_chart import OWN, chart_png, side_course
from strategia.game.whole_report import whole_page

ROOT = Path(__file__).parents[1]
DEFAULT = ROOT / "maps" / "continental.toml"


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Game:
    """The default scenario scripted for 16 moves at level 2 (the war begins on the way)."""
    g = Game.new(DEFAULT, tmp_path_factory.mktemp("c") / "war.game", level=2, seed=5)
    for _ in range(16):
        script_turn(g)
    return g


def test_the_course_is_the_journal_s(game: Game) -> None:
    """Each side's battles in a turn are the results' battles of that turn (a blow that found
    no battle and a strike are not battles); its forces after each turn are the strength of
    its divisions in the position the journal gives for the turn's end; losses are their fall."""
    ds = course(game)
    battles: Counter[tuple[int, str]] = Counter()
    for _, turn, _, r in game.results:
        b = r.battle
        if b is not None and b.outcome not in ("no_battle", "strike"):
            for side in {b.attacker, b.defender} - {""}:
                battles[(turn, side)] += 1
    for t in ds.turn.values[1:]:
        state = game.state_at(int(t) + 1)
        for side in ds.side.values:
            assert int(ds.battles.sel(turn=t, side=side)) == battles[(int(t), str(side))]
            assert float(ds.strength.sel(turn=t, side=side)) == pytest.approx(
                strength_of(state, str(side), game.rules), abs=1e-6
            )
    fall = ds.strength.shift(turn=1) - ds.strength
    assert (ds.losses[1:] == fall[1:].round(6)).all()
    assert sum(battles.values()) > 0 and bool(ds.at_war[-1])


def test_a_side_s_copy_holds_only_its_own_figures_and_the_enemy_it_knew(game: Game) -> None:
    whole = course(game)
    red = side_course(game, "red")
    assert set(red.data_vars) == {*OWN, "enemy_known", "at_war"} and "side" not in red.dims
    for k in OWN:
        assert (red[k] == whole[k].sel(side="red", drop=True)).all()
    known = red.enemy_known.values
    assert (known[1:] >= known[:-1]).all() and known[-1] > 0  # units known only accumulate
    assert red.attrs["side"] == "red"


def test_the_charts_draw_in_either_language(game: Game) -> None:
    for ds in (course(game), side_course(game, "blue")):
        for lang in ("ru", "en"):
            assert chart_png(ds, lang).startswith(b"\x89PNG")  # type: ignore[arg-type]


def test_the_command_line_writes_the_picture_and_the_figures(
    game: Game, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = str(game.journal.path)
    png, csv, nc = tmp_path / "w.png", tmp_path / "w.csv", tmp_path / "w.nc"
    args = ["game", "chart", path, "-o", str(png), "--csv", str(csv), "--netcdf", str(nc)]
    assert main(args) == 0
    assert "ход войны до конца хода" in capsys.readouterr().out
    assert png.read_bytes().startswith(b"\x89PNG")
    assert csv.read_text(encoding="utf-8").splitlines()[0].startswith("turn,side,strength")
    with xr.open_dataset(nc, engine="h5netcdf") as saved:
        assert (saved.strength == course(game).strength).all()
    assert main(["game", "chart", path, "--side", "red", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert "enemy_known" in data["data_vars"] and "score" not in data["data_vars"]
    bad = tmp_path / "x.png"
    assert main(["game", "chart", path, "--side", "purple", "-o", str(bad)]) == 2
    assert "«purple»" in capsys.readouterr().err and not bad.exists()


def test_the_whole_report_charts_scores_and_lists_every_battle(game: Game, tmp_path: Path) -> None:
    page = whole_page(game, "ru")
    assert "«Континентальная война»: отчет об игре" in page and "data:image/png;base64," in page
    assert f"На конец хода {int(course(game).turn.max())}" in page
    assert "Счет сейчас" in page and "Очки красных" in page and "Очки синих" in page
    fights = rr.fights(game.results)
    assert fights and page.count("<div class='sr-battle'") == len(fights)  # every battle's report
    own = whole_page(game, "en", "blue")
    assert "the game&#x27;s report for Blue" in own and "told when the war is over (1.1)" in own
    assert "Score of Red" not in own  # a side's copy: no other side's breakdown
    out = tmp_path / "r.html"
    assert main(["game", "report", str(game.journal.path), "--whole", "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_the_console_s_tab_draws_the_course_for_the_viewer(game: Game, tmp_path: Path) -> None:
    from strategia.ui.console import Console
    from strategia.ui.console.panels import TITLES

    console = Console(game, "ru", tmp_path / "games")
    tab = console.panels.course
    assert tab.widget.value == ""  # drawn when its tab is opened
    console.panels.tabs.selected_index = len(TITLES) - 1
    assert "data:image/png;base64," in tab.widget.value and "Цифры (CSV)" in tab.widget.value
    drawn = tab.drawn
    console.refresh()
    assert tab.drawn is drawn  # not drawn again: the game has not moved on
    console.set_viewer("red")
    assert tab.drawn != drawn and "war-red.csv" in tab.widget.value
