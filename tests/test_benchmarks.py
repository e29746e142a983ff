"""The issue-16 benchmarks' quick modes run and print their figures with their baselines (the
figures themselves are `make bench`'s, not a test's: the machine is shared and noisy)."""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).parents[1]
CHROMIUM = Path("/usr/bin/chromium")


def _quick(script: str, timeout: int = 120) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    run = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / script), "--quick", "--json"],
        capture_output=True, text=True, timeout=timeout, check=False, cwd=ROOT, env=env,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-3000:]
    return dict(json.loads(run.stdout))


@pytest.mark.parametrize(
    ("script", "figures"),
    [
        (
            "turn.py",
            (
                "baseline_s",
                "engine_ratio",
                "engine_whole_ratio",
                "game_ratio",
                "heavy_engine_ratio",
                "heavy_game_ratio",
            ),
        ),
    ],
)
def test_a_quick_benchmark(script: str, figures: tuple[str, ...]) -> None:
    out = _quick(script)
    assert all(out[f] > 0 for f in figures), out


def test_the_engine_and_map_benchmark_quick_times_every_case_beside_its_baseline() -> None:
    """run.py, the first of `make bench`: the default scenario and a generated one, each
    timing with its ratio to the same case's bare baseline; the red side's moves all given
    (a fortress's garrison, which never moves (3.6), is given none)."""
    out = _quick("run.py")
    assert [c["name"] for c in out["cases"]][0] == "continental" and len(out["cases"]) == 2
    for case in out["cases"]:
        timings = case["timings"]
        assert timings["baseline (turn.py's)"]["ratio"] == 1.0
        assert {"red moves (apply each)", "map: units layer (view + records)"} <= set(timings)
        assert all(t["median_ms"] > 0 and t["ratio"] > 0 for t in timings.values()), timings
        assert case["moved"] > 0 and case["orders"] > 0


def test_the_game_open_benchmark_quick_opens_two_lengths_and_measures_memory() -> None:
    out = _quick("game_open.py")
    assert all(out[f] > 0 for f in ("baseline_s", "open_ratio", "new_ratio")), out
    assert [o["turns"] for o in out["opens"]] == [3, 6]
    assert all(o["open_ratio"] > 0 and o["entries"] > 1 for o in out["opens"])
    assert set(out["memory"]) == {"3_turns", "6_turns"}
    assert all(m["open_mb"] >= 0 and "after_2_turns_mb" in m for m in out["memory"].values())


def test_the_scale_benchmark_quick() -> None:
    out = _quick("scale.py")
    assert [r["divisions"] for r in out["sizes"]] == [500, 1000]
    last = out["sizes"][-1]
    assert last["units_after"] == 1000 and last["game_ratio"] > 0 and last["peak_mb"] > 0
    assert out["per_order_growth"] > 0


@pytest.mark.browser
def test_the_browser_benchmark_quick() -> None:
    if not CHROMIUM.exists():
        pytest.skip("no Chromium here (install Debian's chromium: apt-get install -y chromium)")
    pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    out = _quick("browser.py", timeout=300)
    assert out["divisions"] == 200 and out["open_s"] > 0 and out["end_turn_s"] > 0
    assert out["team_open_s"] > 0 and out["preheat"]
    assert out["kernel_end_turn_s"] > 0


def test_the_computer_player_s_move_benchmark_quick() -> None:
    out = _quick("player.py", timeout=300)
    assert out["big_divisions"] == 200 and out["default_move_s"] > 0 and out["big_move_s"] > 0
    assert out["default_orders"] > 0 and out["big_orders"] > 0
    assert out["default_greedy_move_s"] > 0 and out["default_plans_per_s"] > 0


@functools.cache
def _trials() -> dict[str, Any]:
    """The player's quick trials, played once for the tests that read them."""
    return _quick("player_trials.py", timeout=600)


def test_the_computer_player_s_trials_quick() -> None:
    """Short games of the computer at each level, against itself, the old script and its mirror
    image (issue 26): no exception, no refused order, no hang, few orders cut by 9.3, and the
    script beaten as either colour; the shares of wins need the full trials' 20 games."""
    out = _trials()
    s = out["summary"]
    assert s["games"] == 13 and s["orders"] > 1000, s
    assert {r["level"] for r in out["games"]["self"]} == {1, 2, 3}
    assert {r["map"] for r in out["games"]["self"]} == {"default", "random"}
    judged = {k: v for k, v in s["checks"].items() if v is not None}
    these = {
        "no_exception",
        "no_refused_order",
        "no_hang",
        "cut_at_most_5_percent",
        "beats_the_script_8_of_10_as_either_colour",
    }
    assert set(judged) >= these
    assert all(judged[k] for k in these), s  # fmt: skip
    assert s["checks"]["mirror_neither_colour_over_65_percent"] is None  # 1 game: not judged
    assert s["script_wins"] == {"red": "1/1", "blue": "1/1"}


def test_the_plans_that_last_trials_quick() -> None:
    """The quick trials' figures of the lasting plan: against a side that gives no orders (the
    default scenario, 15 turns, levels 1-3) the balanced player strikes blows at every level,
    fires at levels 2 and 3 (its batteries marched within reach, 4.8) and costs the passive
    side more than it loses; it beats `greedy` on one mirrored theatre as either colour; its
    batteries with a target in reach fire, and its units seldom undo a move. The full trials
    judge the issue's figures (README, the computer player's section)."""
    out = _trials()
    s = out["summary"]
    passive = s["passive"]
    assert set(passive) == {"1", "2", "3"}, passive
    for level, p in passive.items():
        assert p["blows"] >= 5 and p["passive_lost"] > max(0.1, p["own_lost"]), (level, p)
        assert level == "1" or p["fire"] >= 5, (level, p)
    assert s["versus"] == {"red": "1/1", "blue": "1/1"}, s["versus"]
    assert s["checks"]["guns_with_a_target_fire_one_move_in_three"] is True
    assert s["undone_share"] is not None and s["undone_share"] <= 0.04, s["undone_share"]


def test_the_sweep_benchmark_quick_times_one_and_two_workers_and_the_games_alone() -> None:
    out = _quick("sweep.py", timeout=400)
    assert (out["games"], out["turns"]) == (4, 2)
    assert all(out[f] > 0 for f in ("alone_total_s", "alone_median_s", "speedup", "per_game_ratio"))
    assert out["one_worker"]["wall_s"] > 0 and out["two_workers"]["wall_s"] > 0
    assert set(out["checks"]) == {
        "speedup_at_least_1.7",
        "per_game_within_1.3",
        "per_game_cpu_within_1.3",
        "per_game_paired_within_1.3",
    }
    assert out["per_game_cpu_ratio"] > 0 and out["two_workers"]["cpu_share"] > 0
    assert out["one_worker"]["paired"]["games"] == 4 and out["per_game_paired_ratio"] > 0


def test_the_table_puts_every_figure_beside_its_baseline() -> None:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import table

    out: dict[str, Any] = {
        "browser.py": {"baseline_s": 0.2, "divisions": 1000, "open_s": 4.0, "end_turn_s": 1.5,
                       "team_open_s": 2.0, "default_units": 79, "default_open_s": 2.5,
                       "default_team_open_s": 2.2},
        "game_open.py": {"divisions": 982, "baseline_s": 0.16,
                         "opens": [{"turns": 10, "open_s": 0.04}, {"turns": 100, "open_s": 0.06}],
                         "memory": {"10_turns": {"open_mb": 3.7, "after_5_turns_mb": 4.1}}},
        "turn.py": {"baseline_s": 0.2, "engine_turn_s": 0.4, "engine_whole_s": 0.5,
                    "game_turn_s": 0.6,
                    "heavy_baseline_s": 0.4, "heavy_engine_s": 1.0, "heavy_game_s": 1.6,
                    "heavy_moves": [889, 800], "heavy_strikes": [43, 40], "heavy_attacks": [120, 60]},
        "scale.py": {"sizes": [{"divisions": 1000, "ms_per_order": 0.5},
                               {"divisions": 20000, "ms_per_order": 0.55}],
                     "per_order_growth": 1.1, "units_growth": 20.0},
    }  # fmt: skip
    rows = table.table(out)
    text = table.render(rows)
    assert len(rows) == 14, text
    assert "| … engine alone, every explanation built whole | 0.5 s | 0.2 s | 2.50x |  |  |" in text
    assert (
        "| console open, default scenario (79 units) | 2.5 s | 0.2 s | 12.50x | < 3 s | yes |"
        in text
    )
    assert (
        "End turn to the map redrawn, 1000 divisions | 1.5 s | 0.2 s | 7.50x | < 1 s | no" in text
    )
    assert (
        "1689 moves, 83 strikes, 180 blows, two End turns) | 1.6 s | 0.4 s | 4.00x | <= 2.5x"
        in text
    )
    assert table.table({})[0][1] == "not measured (no Chromium)"
