"""The course of the war charted (issue 28): the Dataset's numbers against the journal, a side's
copy holding only what the side knows, `strategia game chart` (PNG, CSV, NetCDF, --json), the
whole game's report (`game report --whole`), and the console's «Ход войны» tab."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
import xarray as xr

from strategia.cli import main
from strategia.core.geometry import Cell
from strategia.engine.state import UnitState
from strategia.game import report_render as rr
from strategia.game.channel import channel
from strategia.game.course import course
from strategia.game.fronts import front_of
from strategia.game.game import Game
from strategia.game.last_known import seen_at
from strategia.game.scoring import enemies_at_war, strength_of
from strategia.game.trial import script_turn
from strategia.game.war_chart import OWN, chart_png, side_course
from strategia.game.whole_report import whole_page
from strategia.notation.refs import UnitRef

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
    its divisions in the position the journal gives for the turn's end; they fall by the
    losses (the records' strength destroyed, never negative) and rise by the reserves
    arrived."""
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
    fall = ds.strength.shift(turn=1) - ds.strength + ds.reinforcements
    assert np.allclose(ds.losses[1:], fall[1:], atol=1e-3) and (ds.losses >= 0).all()
    assert float(ds.reinforcements.sel(turn=5).sum()) > 0  # M+5's reserves, with turn 6
    assert sum(battles.values()) > 0 and bool(ds.at_war[-1])


def test_a_side_s_copy_holds_only_its_own_figures_and_the_enemy_it_knew(game: Game) -> None:
    whole = course(game)
    red = side_course(game, "red")
    assert set(red.data_vars) == {
        *OWN, "enemy_known", "at_war", "enemy_estimate", "force_ratio",
    } and "side" not in red.dims  # fmt: skip
    for k in OWN:
        assert (red[k] == whole[k].sel(side="red", drop=True)).all()
    known = red.enemy_known.values
    assert (known[1:] >= known[:-1]).all() and known[-1] > 0  # units known only accumulate
    assert red.attrs["side"] == "red"


def test_the_forces_by_arm_are_the_divisions_of_each_kind(game: Game) -> None:
    """At the start Red has 20 с.д. (rated 1), 10 т.д. (2), 5 м.д. (1.5), 2 сау.д. (3), 1 пт.д.
    (0.9), 2 а.д. (0.4) and 2 fortresses (1.1): 20 + 20 + 7.5 + 6 + 0.9 + 0.8 + 2.2 = 57.4, its
    `strength`. After every turn the arms sum to the strength, and each arm is the sum over
    the divisions of that kind of rating times strength in the turn's position."""
    ds = course(game)
    assert list(ds.arm.values)[:3] == ["rifle", "tank", "motorised"]
    assert list(ds.arm_ru.values)[:3] == ["с.д.", "т.д.", "м.д."]
    assert list(ds.arm_en.values)[:3] == ["RD", "TD", "MD"]
    red = ds.strength_by_arm.sel(turn=0, side="red")
    assert [float(red.sel(arm=a)) for a in ("rifle", "tank", "motorised", "sp_gun")] == [
        20.0, 20.0, 7.5, 6.0,
    ]  # fmt: skip
    assert float(red.sum()) == pytest.approx(57.4)
    np.testing.assert_allclose(ds.strength_by_arm.sum("arm"), ds.strength, atol=1e-5)
    last = int(ds.turn.max())
    state = game.state_at(last + 1)
    by_hand: Counter[tuple[str, str]] = Counter()
    for u in state.units.values():
        rating = {"rifle": 1, "tank": 2, "motorised": 1.5, "sp_gun": 3, "anti_tank": 0.9,
                  "artillery": 0.4, "cavalry": 0.5, "fortress": 1.1}[u.division.kind.key]  # fmt: skip
        by_hand[(state.side_of(u.ref), u.division.kind.key)] += rating * u.division.strength
    for (side, arm), value in by_hand.items():
        got = float(ds.strength_by_arm.sel(turn=last, side=side, arm=arm))
        assert got == pytest.approx(value, abs=1e-5)


def test_the_force_ratio_in_each_sector_is_recomputed_from_the_position(game: Game) -> None:
    """Blue's and Red's states border along longitudes 30-31 (diagonal neighbours count)
    from latitude 15 to 39 (north of it the Green principality lies between them, south of
    it the Green republic): 25 latitudes in 3 bands of 8⅓, 15-22, 23-31 and 32-39. In the
    last position each side's forces in a band are its units whose leading cell lies within
    6 cells (chessboard) of a border cell, rating times strength; Red's ratio is its forces
    over Blue's and those of any side at war with it, NaN where they have none."""
    ds = course(game)
    assert ds.attrs["front_axis"] == "lat"
    assert list(ds.sector_lo.values) == [15, 23, 32] and list(ds.sector_hi.values) == [22, 31, 39]
    sc = game.scenario
    grid = sc.theatre["state"].values
    side_of = {k + 1: s.side for k, s in enumerate(sc.states)}
    w, h = grid.shape
    line = set()
    for i in range(w):
        for j in range(h):
            me = side_of.get(int(grid[i, j]), "")
            if me in ("", "green"):
                continue
            near = {side_of.get(int(grid[a, b]), "") for a in range(max(i - 1, 0), min(i + 2, w))
                    for b in range(max(j - 1, 0), min(j + 2, h))}  # fmt: skip
            if near - {me, "", "green"}:
                line.add((i + 1, j + 1))
    assert {lon for lon, _ in line} == {30, 31}
    assert min(lat for _, lat in line) == 15 and max(lat for _, lat in line) == 39
    last = int(ds.turn.max())
    state = game.state_at(last + 1)
    bands = [(15, 22), (23, 31), (32, 39)]
    forces: Counter[tuple[str, int]] = Counter()
    for u in state.units.values():
        c = u.cell
        if min(max(abs(c.lon - a), abs(c.lat - b)) for a, b in line) > 6:
            continue
        for k, (lo, hi) in enumerate(bands):
            if lo <= c.lat <= hi:
                forces[(state.side_of(u.ref), k)] += strength_of_unit(u, game)
    foes = {"blue", *enemies_at_war(state, "red")}
    for k in range(3):
        enemy = sum(forces[(f, k)] for f in foes)
        got = float(ds.force_ratio.sel(turn=last, side="red", sector=k + 1))
        assert enemy > 0 and got == pytest.approx(forces[("red", k)] / enemy, abs=1e-5)
        assert float(ds.sector_strength.sel(turn=last, side="blue", sector=k + 1)) == (
            pytest.approx(forces[("blue", k)], abs=1e-5)
        )
    assert np.isnan(ds.force_ratio.sel(side="green")).all()  # Green at war with nobody


def strength_of_unit(u: UnitState, game: Game) -> float:
    return float(game.rules.value("initial_ratings", u.division.kind.key, "rating")) * (
        u.division.strength
    )


def test_a_side_s_force_ratio_is_over_the_enemy_it_saw(game: Game) -> None:
    """Red's estimate of the enemy in a sector is the enemy units its views identified by the
    start of the next turn, each where it was last seen and counted a whole division of the
    kind its designation names, never the enemy's true forces: before the war it has seen
    nobody (the estimate 0, the ratio NaN, though Blue's forces face it)."""
    red = side_course(game, "red")
    whole = course(game)
    assert float(red.enemy_estimate.sel(turn=0).sum()) == 0.0
    assert np.isnan(red.force_ratio.sel(turn=0)).all()
    assert float(whole.sector_strength.sel(turn=0, side="blue").sum()) > 0
    ch = channel(game, "red")
    front = front_of(game.scenario)
    seen: dict[str, tuple[str, Cell]] = {}
    for t in red.turn.values:
        if t + 1 <= game.state.turn:
            seen |= {u: (s, cells[0]) for u, (cells, s) in seen_at(ch, int(t) + 1).items()}
        by_hand = [0.0, 0.0, 0.0]
        for unit, (_, cell) in seen.items():
            k = front.sector_of(cell)
            if k is not None:
                kind = UnitRef.parse(unit).kind
                by_hand[k] += float(game.rules.value("initial_ratings", kind.key, "rating"))
        assert list(red.enemy_estimate.sel(turn=t).values) == pytest.approx(by_hand)
    assert float(red.enemy_estimate.isel(turn=-1).sum()) > 0
    mine, theirs = red.sector_strength.values, red.enemy_estimate.values
    seen_ratio = np.where(theirs > 0, mine / np.where(theirs > 0, theirs, 1), np.nan)
    np.testing.assert_allclose(red.force_ratio.values, seen_ratio, atol=1e-5)
    assert not np.allclose(red.force_ratio.values[-1], whole.force_ratio.sel(side="red")[-1])


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
    lines = csv.read_text(encoding="utf-8").splitlines()
    head = lines[0].split(",")
    assert lines[0].startswith("turn,side,strength")
    # a row a turn and side (6 positions, 3 sides); the arms and sectors spread over columns
    assert len(lines) == 1 + 6 * 3 and len({len(x.split(",")) for x in lines}) == 1
    assert "strength_by_arm_rifle" in head and "force_ratio_3" in head and "arm" not in head
    red0 = dict(zip(head, lines[1].split(","), strict=True))
    assert (red0["side"], red0["strength_by_arm_tank"], red0["force_ratio_1"]) == (
        "red", "20.0", "2.225",
    )  # 10 т.д. rated 2; sector 1: Red 8.9 against Blue 4 (8.9 / 4 = 2.225)  # fmt: skip
    whole = course(game)
    with xr.open_dataset(nc, engine="h5netcdf") as saved:
        assert (saved.strength == whole.strength).all()
        assert (saved.strength_by_arm == whole.strength_by_arm).all()
        assert saved.force_ratio.equals(whole.force_ratio)  # NaN where the enemy has none
        assert list(saved.arm_ru.values)[:2] == ["с.д.", "т.д."]
    assert main(["game", "chart", path, "--side", "red", "--json"]) == 0
    out = capsys.readouterr().out
    data = json.loads(out, parse_constant=lambda c: pytest.fail(f"{c} is not JSON"))
    assert "enemy_known" in data["data_vars"] and "score" not in data["data_vars"]
    assert data["data_vars"]["force_ratio"]["data"][0] == [None, None, None]  # nobody seen yet
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
