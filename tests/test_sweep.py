"""Balance sweeps (issue 27) on a real LocalCluster: a sweep's numbers do not depend on how it
was run (1 or 2 workers, twice in a row, a worker killed in the middle), its results file and
kept games, the summary's figures against hand-computed ones, and the command's errors in both
languages (nothing written). The games are few and short: 4 games of 3 turns of the default
scenario, both sides bold and going to war at turn 1 or 2 (so that some games see battles)."""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
import xarray as xr
from distributed import Client

from strategia.cli import main
from strategia.game.game import Game
from strategia.sweep import dask_client, load, read_sweep, run, save
from strategia.sweep.spec import SweepError
from strategia.sweep.summary import newcombe, summary, wilson

ROOT = Path(__file__).parents[1]
SCENARIO = ROOT / "maps" / "continental.toml"
PLAYERS = "red=bold:attack@1-2,blue=bold:attack@1-2"
MIXED = "red=bold:attack@1-4,blue=bold:attack@1-4"  # seed 7, 3 turns: a draw, Red, Red, a draw


def small_sweep(**more: object) -> object:
    return read_sweep(SCENARIO, 4, 3, players=PLAYERS, seed=7, **more)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def two() -> Iterator[Client]:
    with dask_client(workers=2, dashboard=None) as client:
        client.wait_for_workers(2)
        yield client


@pytest.fixture(scope="module")
def reference(two: Client) -> xr.Dataset:
    return run(small_sweep(), two).results  # type: ignore[arg-type]


def test_the_same_seeds_give_the_same_dataset_twice_and_on_one_worker(
    two: Client, reference: xr.Dataset
) -> None:
    again = run(small_sweep(), two).results  # type: ignore[arg-type]
    xr.testing.assert_identical(reference, again)
    with dask_client(workers=1, dashboard=None) as one:
        alone = run(small_sweep(), one).results  # type: ignore[arg-type]
    xr.testing.assert_identical(reference, alone)
    # and the games are not all alike: the draws differ between games
    assert reference.sizes == {"variant": 1, "game": 4, "turn": 4, "side": 3}
    assert len({tuple(r) for r in reference["posture"].values}) > 1
    other = run(read_sweep(SCENARIO, 4, 3, players=PLAYERS, seed=8), two).results
    assert not other["game_seed"].equals(reference["game_seed"])


def test_a_worker_killed_in_the_middle_costs_nothing(two: Client, reference: xr.Dataset) -> None:
    killed: list[int] = []

    def kill_one(done: int, total: int) -> None:
        if killed or done < 1 or done == total:
            return
        busy = [w for w, keys in two.processing().items() if keys]
        if not busy:
            return
        pid = two.run(os.getpid, workers=busy[:1])[busy[0]]
        os.kill(pid, signal.SIGKILL)
        killed.append(pid)

    got = run(small_sweep(), two, progress=kill_one).results  # type: ignore[arg-type]
    assert killed, "no worker was busy when a game was done: nothing was killed"
    xr.testing.assert_identical(reference, got)
    assert not np.isnan(got["strength"].values).any()


def test_the_results_carry_what_was_played_and_round_trip_netcdf(
    reference: xr.Dataset, tmp_path: Path
) -> None:
    ds = reference
    for key in ("scenario", "scenario_digest", "seed", "engine", "house", "variants", "players"):
        assert key in ds.attrs, key
    assert ds.attrs["seed"] == 7 and ds.attrs["ratio_sides"] == "red,blue"
    players = {p["side"]: p for p in json.loads(ds.attrs["players"])}
    assert players["red"]["style"] == "bold" and players["green"]["posture"] == "wait"
    assert set(ds["attack_turn"].sel(side="red").values) <= {1, 2}
    # the course's own numbers: the start is every side's whole force, nothing lost
    assert (ds["losses"].isel(turn=0) == 0).all()
    assert (ds["strength"].isel(turn=0) > 0).all()
    path = save(ds, tmp_path / "r.nc")
    xr.testing.assert_identical(load(path), ds)
    with pytest.raises(SweepError, match="already there"):
        save(ds, path)
    save(ds, path, force=True)


def test_zarr_round_trips_and_either_store_is_written_whole_or_not_at_all(
    reference: xr.Dataset, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = save(reference, tmp_path / "r.zarr")
    assert path.is_dir() and (path / ".zmetadata").is_file()  # a Zarr store, not NetCDF
    xr.testing.assert_identical(load(path), reference)
    xr.testing.assert_identical(load(save(reference, tmp_path / "r.nc")), load(path))
    with pytest.raises(SweepError, match="already there"):
        save(reference, path)
    other = reference.assign_attrs(seed=99)
    save(other, path, force=True)  # a store replaced by a store
    assert load(path).attrs["seed"] == 99
    # a failure in the middle of writing leaves the old results whole and nothing beside them
    real = xr.Dataset.to_zarr

    def broken(self: xr.Dataset, store: object, **kw: object) -> None:
        real(self[["strength"]], store, **kw)  # type: ignore[call-overload]
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(xr.Dataset, "to_zarr", broken)
    with pytest.raises(SweepError, match="No space left on device.*nothing was written"):
        save(reference, path, force=True)
    monkeypatch.undo()
    xr.testing.assert_identical(load(path), other)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.nc", "r.zarr"]
    # a folder that is not a Zarr store is not replaced, even with --force; nor a file
    mine = tmp_path / "mine.zarr"
    mine.mkdir()
    (mine / "notes.txt").write_text("mine")
    (tmp_path / "file.zarr").write_text("mine")
    for there in (mine, tmp_path / "file.zarr"):
        with pytest.raises(SweepError, match="not a Zarr store; it is not replaced"):
            save(reference, there, force=True)
    assert (mine / "notes.txt").read_text() == "mine"
    with pytest.raises(SweepError, match="not a Zarr store of a sweep's results"):
        load(mine)


def test_a_kept_game_is_an_ordinary_game_that_replays(two: Client, tmp_path: Path) -> None:
    sweep = read_sweep(SCENARIO, 1, 2, players=PLAYERS, seed=3)
    ran = run(sweep, two, keep=True)
    from strategia.sweep.run import keep_games

    (path,) = keep_games(tmp_path / "kept", ran.games)
    g = Game.open(path, verify=True)
    assert g.replay_problems == []
    assert g.state.turn == 3 and set(g.computer_sides()) == {"red", "blue", "green"}
    assert Path(f"{path}-count").exists()


def test_kept_by_outcome_are_exactly_the_games_with_those_outcomes_and_each_replays(
    two: Client, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from strategia.sweep.run import game_name, keep_games
    from strategia.sweep.spec import read_outcomes

    # going to war at turn 4 of 3 is a draw on points, sooner Red leads: the outcomes differ
    sweep = read_sweep(SCENARIO, 4, 3, players=MIXED, seed=7)
    runs = {}
    for asked in ("blue,draw", "красные"):  # between them every outcome, each game once
        only = read_outcomes(asked, sweep)
        runs[asked] = ran = run(sweep, two, keep=True, keep_only=only)
        winners = [str(w) for w in ran.results["winner"].sel(variant="base").values]
        assert winners == ["draw", "red", "red", "draw"]
        want = [game_name(sweep, 0, k) for k, w in enumerate(winners) if w in only]
        assert [name for name, _ in ran.games] == want, (asked, winners)
        for path in keep_games(tmp_path / asked, ran.games):
            code, out, err = cli(capsys, "game", "replay", str(path), "--lang", "en")
            assert code == 0 and "reproduced" in out and "no count" not in err, err
    assert [n for n, _ in runs["blue,draw"].games] == ["base-0000.game", "base-0003.game"]
    assert [n for n, _ in runs["красные"].games] == ["base-0001.game", "base-0002.game"]
    xr.testing.assert_identical(runs["blue,draw"].results, runs["красные"].results)
    assert read_outcomes("red,blue,draw", sweep) == ("red", "blue", "draw")
    assert read_outcomes("Ничья, r,red", sweep) == ("draw", "red")


def test_variants_play_the_same_games_under_their_house_rules(tmp_path: Path) -> None:
    blue_first = ROOT / "maps" / "house" / "blue-first.toml"
    sweep = read_sweep(SCENARIO, 2, 1, players=PLAYERS, variants=["base=", f"blue={blue_first}"])
    assert [v.name for v in sweep.variants] == ["base", "blue"]
    with dask_client(workers=1, dashboard=None) as client:
        ds = run(sweep, client).results
    assert list(ds["variant"].values) == ["base", "blue"]
    assert ds["rules_digest"].values[0] != ds["rules_digest"].values[1]
    variants = json.loads(ds.attrs["variants"])
    assert variants[1]["house"][0]["text"] == blue_first.read_text(encoding="utf-8")
    s = summary(ds)
    assert {d.what for d in s.differences} == {"red", "blue", "draw", "ratio"}


# --- the summary's figures ----------------------------------------------------------------


def _made(winners: list[list[str]], strength: np.ndarray, battles: np.ndarray) -> xr.Dataset:
    """A results Dataset made by hand: the winners, red's and blue's strengths, battles."""
    v, n = len(winners), len(winners[0])
    turns = strength.shape[2]
    ds = xr.Dataset(
        {
            "strength": (("variant", "game", "turn", "side"), strength),
            "battles": (("variant", "game", "turn", "side"), battles),
            "winner": (("variant", "game"), np.array(winners, dtype=str)),
        },
        coords={
            "variant": [f"v{k}" for k in range(v)],
            "game": np.arange(n),
            "turn": np.arange(turns),
            "side": ["red", "blue"],
        },
        attrs={"scenario": "hand", "contenders": "red,blue", "ratio_sides": "red,blue"},
    )
    return ds


def test_the_summary_against_hand_computed_figures() -> None:
    """Win rates: 7 of 20 by hand (the summary module's docstring) gives 0.1812 to 0.5671;
    Newcombe's own example (1998, table II: 56/70 − 48/80, method 10) gives 0.0524 to 0.3339.
    Force ratios: red 3 against blue 2 in every game is 1.5, the interval the value itself; two
    games of 1 and 2 have the mean 1.5 and the t interval 1.5 ± 12.706 · 0.5 (t with 1 degree
    of freedom, the standard error 0.7071 / √2 = 0.5): −4.853 to 7.853."""
    w = wilson(7, 20)
    assert (round(w.low, 4), round(w.high, 4)) == (0.1812, 0.5671)
    d = newcombe(48, 80, 56, 70)
    assert (round(d.value, 4), round(d.low, 4), round(d.high, 4)) == (0.2, 0.0524, 0.3339)
    winners = [["red"] * 7 + ["blue"] * 10 + ["draw"] * 3, ["red"] * 12 + ["blue"] * 8]
    strength = np.zeros((2, 20, 3, 2))
    strength[..., 0], strength[..., 1] = 3.0, 2.0
    strength[1, :, 2, 0] = np.where(np.arange(20) % 2, 2.0, 4.0)  # v1's last turn: 1 or 2
    battles = np.zeros((2, 20, 3, 2), dtype=int)
    battles[0, :5, 2, 0] = 1  # five games of v0 see a battle at turn 2
    battles[0, 5:6, 1, 1] = 1  # one at turn 1
    s = summary(_made(winners, strength, battles))
    red0 = next(x for x in s.wins if x.variant == "v0" and x.side == "red")
    assert (red0.wins, red0.games) == (7, 20)
    assert (round(red0.rate.low, 4), round(red0.rate.high, 4)) == (0.1812, 0.5671)
    curve = s.ratios[0]
    assert curve.turns == (0, 1, 2)
    assert all(i.value == i.low == i.high == 1.5 for i in curve.ratio)
    last = s.ratios[1].ratio[-1]
    assert last.value == pytest.approx(1.5)
    # 20 games of 1 and 2: s = √(20/19 · 0.25) = 0.51299, s/√20 = 0.11471, t(19) = 2.09302
    assert (round(last.low, 3), round(last.high, 3)) == (1.260, 1.740)
    b0 = s.first_battles[0]
    assert (b0.without, b0.earliest, b0.latest) == (14, 1, 2)
    assert b0.turn.value == pytest.approx((5 * 2 + 1) / 6)
    red_diff = next(x for x in s.differences if x.what == "red")
    hand = newcombe(7, 20, 12, 20)
    assert red_diff.difference == hand and red_diff.difference.value == pytest.approx(0.25)
    ratio_diff = next(x for x in s.differences if x.what == "ratio")
    assert ratio_diff.difference.value == pytest.approx(0.0)
    two_games = summary(_made([["red", "blue"]], np.array([[[[1.0, 1.0]], [[2.0, 1.0]]]]),
                              np.zeros((1, 2, 1, 2), dtype=int)))  # fmt: skip
    r = two_games.ratios[0].ratio[0]
    assert (round(r.low, 3), round(r.high, 3)) == (-4.853, 7.853)
    text = s.text("ru")
    assert "7 из 20" in text and "35 % [18,1; 56,7]" in text
    assert "7 of 20, 35 % [18.1; 56.7]" in s.text("en")


def test_the_picture_is_drawn(reference: xr.Dataset, tmp_path: Path) -> None:
    from strategia.sweep.plot import save_plot

    path = save_plot(reference, tmp_path / "b.png", "ru")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    again = save_plot(reference, tmp_path / "c.png", "ru")
    assert again.read_bytes() == path.read_bytes()


# --- the command ---------------------------------------------------------------------------


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("args", "en", "ru"),
    [
        (["/nowhere/x.toml"], "/nowhere/x.toml: no such scenario file",
         "/nowhere/x.toml: нет такого файла сценария"),
        ([str(SCENARIO), "--house", "/nowhere/h.toml"],
         "--house /nowhere/h.toml: the house-rules file cannot be read",
         "--house /nowhere/h.toml: файл домашних правил не читается"),
        ([str(SCENARIO), "--variant", "x=/nowhere/h.toml"],
         "--variant x /nowhere/h.toml: the house-rules file cannot be read",
         "--variant x /nowhere/h.toml: файл домашних правил не читается"),
        ([str(SCENARIO), "--players", "red=reckless"], "no style 'reckless'", "нет стиля 'reckless'"),
        ([str(SCENARIO), "--keep-only", "red,purple"],
         "--keep-only red,purple: 'purple' is not an outcome of this sweep (one of red, blue, "
         "draw)", "--keep-only red,purple: 'purple' — не исход этого прогона (можно: red, blue, "
         "draw; или «ничья»)"),
        ([str(SCENARIO), "--keep-only", "green"],  # green waits: it never wins a sweep's game
         "'green' is not an outcome of this sweep", "'green' — не исход этого прогона"),
        ([str(SCENARIO), "--scheduler", "tcp://127.0.0.1:9", "--timeout", "1"],
         "--scheduler tcp://127.0.0.1:9: no Dask scheduler answered there in 1 s",
         "--scheduler tcp://127.0.0.1:9: планировщик Dask там не ответил за 1 с"),
    ],
)  # fmt: skip
def test_bad_input_is_refused_in_both_languages_and_nothing_is_written(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, args: list[str], en: str, ru: str
) -> None:
    out, kept = tmp_path / "r.nc", tmp_path / "kept"
    common = ["--games", "2", "--turns", "1", "--out", str(out), "--keep", str(kept)]
    for lang, words in (("en", en), ("ru", ru)):
        code, stdout, err = cli(capsys, "sweep", *args, *common, "--lang", lang)
        assert code == 2 and words in err, err
        assert err.startswith("strategia sweep: " + ("error" if lang == "en" else "ошибка"))
        assert stdout == ""
    assert list(tmp_path.iterdir()) == []


def test_a_results_file_there_is_refused_without_force(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "r.nc"
    out.write_bytes(b"mine")
    args = ["sweep", str(SCENARIO), "--games", "1", "--turns", "1", "--out", str(out)]
    code, _, err = cli(capsys, *args, "--lang", "en")
    assert code == 2 and f"{out}: the file is already there" in err and "--force" in err
    code, _, err = cli(capsys, *args, "--lang", "ru")
    assert code == 2 and f"{out}: такой файл уже есть" in err
    assert out.read_bytes() == b"mine"


def test_keep_only_without_keep_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    args = ["sweep", str(SCENARIO), "--games", "1", "--turns", "1", "--keep-only", "draw",
            "--out", str(tmp_path / "r.nc")]  # fmt: skip
    code, _, err = cli(capsys, *args, "--lang", "en")
    assert code == 2 and "--keep-only draw: which games to keep, with --keep DIR only" in err
    code, _, err = cli(capsys, *args, "--lang", "ru")
    assert code == 2 and "--keep-only draw: какие игры сохранить — только вместе с" in err
    assert list(tmp_path.iterdir()) == []


def test_summary_and_plot_commands(
    capsys: pytest.CaptureFixture[str], reference: xr.Dataset, tmp_path: Path
) -> None:
    path = save(reference, tmp_path / "r.nc")
    code, out, _ = cli(capsys, "sweep", "summary", str(path), "--json")
    assert code == 0
    data = json.loads(out)
    assert {w["side"] for w in data["wins"]} == {"red", "blue", "draw"}
    assert sum(w["wins"] for w in data["wins"]) == 4
    assert [t["turn"] for t in data["force_ratio"][0]["by_turn"]] == [0, 1, 2, 3]
    code, out, _ = cli(capsys, "sweep", "summary", str(path), "--lang", "ru")
    assert code == 0 and "соотношение сил красных : синих" in out.lower()
    code, out, _ = cli(capsys, "sweep", "plot", str(path), "-o", str(tmp_path / "b.png"))
    assert code == 0 and (tmp_path / "b.png").exists()
    store = save(reference, tmp_path / "r.zarr")  # the same from a Zarr store
    code, out, _ = cli(capsys, "sweep", "summary", str(store), "--json")
    assert code == 0 and json.loads(out) == data
    code, out, _ = cli(capsys, "sweep", "plot", str(store), "-o", str(tmp_path / "z.png"))
    assert code == 0 and (tmp_path / "z.png").read_bytes() == (tmp_path / "b.png").read_bytes()
    (tmp_path / "bad.nc").write_bytes(b"not netcdf")
    code, _, err = cli(capsys, "sweep", "summary", str(tmp_path / "bad.nc"), "--lang", "en")
    assert code == 2 and "not a NetCDF file of a sweep's results" in err


def test_a_sweep_from_the_command_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out, kept = tmp_path / "r.zarr", tmp_path / "kept"
    code, stdout, err = cli(
        capsys, "sweep", str(SCENARIO), "--games", "3", "--turns", "3", "--workers", "1",
        "--players", MIXED, "--seed", "7", "--out", str(out), "--keep", str(kept),
        "--keep-only", "blue,draw", "--json",
    )  # fmt: skip
    assert code == 0, err
    data = json.loads(stdout)
    assert "games" in err or "игры" in err  # the progress, on stderr
    ds = load(out)
    assert out.is_dir() and ds.sizes["game"] == 3 and data["keep_only"] == ["blue", "draw"]
    assert [str(w) for w in ds["winner"].sel(variant="base").values] == ["draw", "red", "red"]
    assert [Path(p).name for p in data["kept"]] == ["base-0000.game"]
    assert sorted(p.name for p in kept.iterdir()) == ["base-0000.game", "base-0000.game-count"]
    code, stdout, err = cli(capsys, "game", "replay", data["kept"][0], "--lang", "en")
    assert code == 0 and "reproduced" in stdout and "no count" not in err


def test_the_builder_tries_its_scenario_n_times_with_a_progress_bar(tmp_path: Path) -> None:
    from strategia.theatre.builder import ScenarioBuilder
    from strategia.theatre.generate import random_scenario
    from strategia.ui.builder.panel import BuilderPanel

    blank = BuilderPanel.blank(20, 12, "en")
    assert blank.tries.try_it() is None  # nothing to play: its problems said, nothing run
    assert "two sides that go to war" in blank.tries.status.value
    assert blank.tries.result.value == ""
    sc = random_scenario(24, 16, seed=3, divisions_per_side=4)
    panel = BuilderPanel(ScenarioBuilder.edit(sc), "ru")
    tries = panel.tries
    tries.workers, tries.folder = 1, tmp_path
    tries.games.value, tries.turns.value = 3, 2
    assert tries.button.description == "Сыграть 3 раз"
    ds = tries.try_it()
    assert ds is not None and ds.sizes["game"] == 3 and ds.sizes["turn"] == 3
    assert (tries.progress.value, tries.progress.max) == (3, 3)
    assert "сыграно партий: 3" in tries.status.value
    assert "<img src='data:image/png;base64," in tries.result.value
    assert "победы" in tries.result.value and not tries.button.disabled
