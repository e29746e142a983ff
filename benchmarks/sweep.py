"""A balance sweep's speed (issue 27): 40 games of 10 turns of the default scenario on 1 and on
2 local Dask workers, against the same games played alone in this process.

    .venv/bin/python benchmarks/sweep.py            # 40 games of 10 turns (about 12 minutes)
    .venv/bin/python benchmarks/sweep.py --quick    # 4 games of 2 turns (the tests run this)
    .venv/bin/python benchmarks/sweep.py --json     # the figures as JSON

The games are `strategia sweep maps/continental.toml`'s with the default players (every side
balanced, Red and Blue going to war at a turn from 1 to 5 drawn for each game, Green waiting),
seed 1. *Alone*: each game's task (`strategia.sweep.play.play_task`) called here, one after
another: the bare cost of the games. *On K workers*: a `LocalCluster` of K processes (started
before the clock starts, its workers warmed by one game each), the games submitted and their
results gathered into the Dataset; the wall time from the first submission to the Dataset.

Figures: `speedup` (the time on 1 worker over the time on 2; the target is at least 1.7), and
`per_game_ratio` (the time a game on 1 worker, the sweep's wall time over its games, over the
mean time of a game alone; the target is at most 1.3: no per-task overhead that matters). The
games alone are timed one by one, and their median is reported too; so are the games' own time
in the workers (Dask's task stream) and `task_overhead_ratio`, the 1-worker sweep's wall time
over it: what Dask itself adds, whatever else the machine is doing. The machine has 2 cores
shared with other work (`load`: the load average at the end of each part): the figures are the
run's, the targets a check (`checks`).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from distributed import get_task_stream

from strategia.sweep import dask_client, read_sweep, run, tasks
from strategia.sweep.play import play_task
from strategia.sweep.spec import Sweep

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ROOT / "maps" / "continental.toml"


def alone(sweep: Sweep) -> list[float]:
    """Each game of the sweep played here, timed."""
    out = []
    for t in tasks(sweep):
        t0 = time.perf_counter()
        play_task(t)
        out.append(time.perf_counter() - t0)
    return out


def on_workers(sweep: Sweep, workers: int) -> dict[str, float]:
    """The sweep on a local cluster of `workers` processes: its start, its wall time, the
    games' own time in the workers (Dask's task stream: each task's compute) and the machine's
    load meanwhile."""
    t0 = time.perf_counter()
    with dask_client(workers=workers, dashboard=None) as client:
        client.wait_for_workers(workers)
        warm = read_sweep(DEFAULT, workers, 1, seed=99)  # each worker imports and reads once
        run(warm, client)
        started = time.perf_counter() - t0
        t1 = time.perf_counter()
        with get_task_stream(client) as stream:
            ds = run(sweep, client).results
        wall = time.perf_counter() - t1
    assert ds.sizes["game"] == sweep.games
    compute = [
        sum(s["stop"] - s["start"] for s in r["startstops"] if s["action"] == "compute")
        for r in stream.data
    ]
    return {
        "start_s": round(started, 3),
        "wall_s": round(wall, 3),
        "compute_s": round(sum(compute), 3),
        "compute_median_s": round(statistics.median(compute), 3),
        "load": round(os.getloadavg()[0], 2),
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("--quick", action="store_true")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    games, turns = (4, 2) if args.quick else (40, 10)
    sweep = read_sweep(DEFAULT, games, turns, seed=1)
    one = on_workers(sweep, 1)
    two = on_workers(sweep, 2)
    times = alone(sweep)
    load_alone = round(os.getloadavg()[0], 2)
    mean_alone = sum(times) / len(times)
    out: dict[str, Any] = {
        "games": games,
        "turns": turns,
        "alone_total_s": round(sum(times), 3),
        "alone_median_s": round(statistics.median(times), 3),
        "alone_mean_s": round(mean_alone, 3),
        "alone_load": load_alone,
        "one_worker": one,
        "two_workers": two,
        "per_game_s": round(one["wall_s"] / games, 3),
        "per_game_ratio": round(one["wall_s"] / games / mean_alone, 3),
        # what Dask adds to a game, apart from the machine: the wall time over the games' own
        "task_overhead_ratio": round(one["wall_s"] / one["compute_s"], 3),
        "speedup": round(one["wall_s"] / two["wall_s"], 3),
    }
    out["checks"] = {
        "speedup_at_least_1.7": out["speedup"] >= 1.7,
        "per_game_within_1.3": out["per_game_ratio"] <= 1.3,
    }
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        print(f"{games} games of {turns} turns of {DEFAULT.name}")
        print(f"  alone: {out['alone_total_s']} s ({out['alone_median_s']} s a game, median)")
        print(f"  1 worker: {one['wall_s']} s ({out['per_game_s']} s a game, "
              f"{out['per_game_ratio']}x alone; "
              f"{out['task_overhead_ratio']}x its games' own)")  # fmt: skip
        print(f"  2 workers: {two['wall_s']} s (speed-up {out['speedup']}x)")
        print(f"  checks: {out['checks']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
