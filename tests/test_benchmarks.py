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
