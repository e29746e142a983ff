"""The issue-16 benchmarks' quick modes run and print their figures with their baselines (the
figures themselves are `make bench`'s, not a test's: the machine is shared and noisy)."""

from __future__ import annotations

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
        ("turn.py", ("baseline_s", "engine_ratio", "game_ratio")),
    ],
)
def test_a_quick_benchmark(script: str, figures: tuple[str, ...]) -> None:
    out = _quick(script)
    assert all(out[f] > 0 for f in figures), out


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
    assert out["kernel_end_turn_s"] > 0


def test_the_computer_player_s_move_benchmark_quick() -> None:
    out = _quick("player.py")
    assert out["big_divisions"] == 200 and out["default_move_s"] > 0 and out["big_move_s"] > 0
    assert out["default_orders"] > 0 and out["big_orders"] > 0


def test_the_computer_player_s_trials_quick() -> None:
    """Short games of the computer at each level, against itself, the old script and its mirror
    image (issue 26): no exception, no refused order, no hang, few orders cut by 9.3, and the
    script beaten as either colour; the shares of wins need the full trials' 20 games."""
    out = _quick("player_trials.py", timeout=300)
    s = out["summary"]
    assert s["games"] == 8 and s["orders"] > 500, s
    assert {r["level"] for r in out["games"]["self"]} == {1, 2, 3}
    assert {r["map"] for r in out["games"]["self"]} == {"default", "random"}
    judged = {k: v for k, v in s["checks"].items() if v is not None}
    assert set(judged) >= {
        "no_exception",
        "no_refused_order",
        "no_hang",
        "cut_at_most_5_percent",
        "beats_the_script_8_of_10_as_either_colour",
    }
    assert all(judged.values()), s  # fmt: skip
    assert s["checks"]["mirror_neither_colour_over_65_percent"] is None  # 1 game: not judged
    assert s["script_wins"] == {"red": "1/1", "blue": "1/1"}


def test_the_sweep_benchmark_quick_times_one_and_two_workers_and_the_games_alone() -> None:
    out = _quick("sweep.py", timeout=400)
    assert (out["games"], out["turns"]) == (4, 2)
    assert all(out[f] > 0 for f in ("alone_total_s", "alone_median_s", "speedup", "per_game_ratio"))
    assert out["one_worker"]["wall_s"] > 0 and out["two_workers"]["wall_s"] > 0
    assert set(out["checks"]) == {"speedup_at_least_1.7", "per_game_within_1.3"}
