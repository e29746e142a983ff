"""A balance sweep's speed (issue 27): 40 games of 10 turns of the default scenario on 1 and on
2 local Dask workers, against the same games played alone in this process.

    .venv/bin/python benchmarks/sweep.py              # 40 games of 10 turns, once (5-12 minutes)
    .venv/bin/python benchmarks/sweep.py --repeat 3   # three rounds, the medians reported
    .venv/bin/python benchmarks/sweep.py --quick      # 4 games of 2 turns (the tests run this)
    .venv/bin/python benchmarks/sweep.py --json       # the figures as JSON

The games are `strategia sweep maps/continental.toml`'s with the default players (every side
balanced, Red and Blue going to war at a turn from 1 to 5 drawn for each game, Green waiting),
seed 1. *Alone*: each game's task (`strategia.sweep.play.play_task`) called here, one after
another: the bare cost of the games.
*On K workers*: a local cluster of K processes as `strategia sweep` starts it
(`strategia.sweep.run.dask_client`), started and every worker warmed by a short game
(`Client.run`: its imports paid) before the clock starts; the games submitted and their results
gathered into the Dataset; the wall time from the first submission to the Dataset. A round
plays the three (alternating their order from round to round); the figures are each round's and
their medians.

Figures: `speedup` (the time on 1 worker over the time on 2; the target is at least 1.7), and
`per_game_ratio` (a game's time on 1 worker, the sweep's wall time over its games, over the mean
time of a game alone; the target is at most 1.3: no per-task overhead that matters). The machine
has 2 cores shared with other work, so beside the wall times are the CPU times, which what else
the machine does moves much less: `per_game_cpu_ratio` (the worker process's CPU time a game,
its game and Dask's bookkeeping in it, over a game's CPU time alone), `cpu_share` (the workers'
CPU time over the wall time times the workers: how much of its cores a sweep was given; well
under 1, the machine was busy elsewhere), `main_cpu_s` (this process's: the client, the
scheduler and the nannies), `task_overhead_ratio`, the 1-worker sweep's wall time over its
games' own compute time in the worker (Dask's task stream), and `per_game_paired_ratio`: the
first 10 games played once more each, here and on the 1-worker cluster in turn (a task
submitted and its result back), the median of their ratios: a game against itself alone under
the same load, seconds apart, not minutes. `load` is the load average at the
end of each part; the targets are a check (`checks`), the run's figures the machine's as much as
the sweep's.
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

from distributed import Client, get_task_stream

from strategia.sweep import dask_client, read_sweep, run, tasks
from strategia.sweep.play import play_task
from strategia.sweep.spec import Sweep

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ROOT / "maps" / "continental.toml"
PAIRS = 10  # games timed alone and on the 1-worker cluster in turn


def cpu_time() -> float:
    """This process's CPU time (user and system, all its threads), seconds."""
    t = os.times()
    return t.user + t.system


def warm() -> None:
    """A short game played here: a fresh worker's first game pays its imports and caches."""
    play_task(tasks(read_sweep(DEFAULT, 1, 1, seed=99))[0])


def alone(sweep: Sweep) -> dict[str, float]:
    """Each game of the sweep played here, timed (wall and CPU)."""
    walls, cpus = [], []
    for t in tasks(sweep):
        w0, c0 = time.perf_counter(), cpu_time()
        play_task(t)
        cpus.append(cpu_time() - c0)
        walls.append(time.perf_counter() - w0)
    return {
        "total_s": round(sum(walls), 3),
        "median_s": round(statistics.median(walls), 3),
        "mean_s": round(statistics.mean(walls), 4),
        "cpu_mean_s": round(statistics.mean(cpus), 4),
        "load": round(os.getloadavg()[0], 2),
    }


def paired(sweep: Sweep, client: Client, n: int) -> dict[str, float]:
    """The first `n` games each played here and on the cluster (submitted alone, its result
    back), one after the other (which first alternating): the ratio of a game's time there to
    its time here, under the same load."""
    ratios, here, there = [], [], []
    for k, t in enumerate(tasks(sweep)[:n]):
        times = {}
        for where in ("here", "there") if k % 2 == 0 else ("there", "here"):
            t0 = time.perf_counter()
            if where == "here":
                play_task(t)
            else:
                client.submit(play_task, t, pure=False).result()
            times[where] = time.perf_counter() - t0
        here.append(times["here"])
        there.append(times["there"])
        ratios.append(times["there"] / times["here"])
    return {
        "games": n,
        "alone_median_s": round(statistics.median(here), 3),
        "worker_median_s": round(statistics.median(there), 3),
        "ratio_median": round(statistics.median(ratios), 3),
    }


def on_workers(sweep: Sweep, workers: int, pairs: int = 0) -> dict[str, Any]:
    """The sweep on a local cluster of `workers` processes: its start, its wall time, the
    games' own time in the workers (Dask's task stream), the CPU time of the workers and of
    this process meanwhile, and the machine's load; then `pairs` games timed here and there
    in turn (`paired`)."""
    t0 = time.perf_counter()
    with dask_client(workers=workers, dashboard=None) as client:
        client.wait_for_workers(workers)
        client.run(warm)  # on every worker
        started = time.perf_counter() - t0
        before, main0 = client.run(cpu_time), cpu_time()
        t1 = time.perf_counter()
        with get_task_stream(client) as stream:
            ds = run(sweep, client).results
        wall = time.perf_counter() - t1
        after, main1 = client.run(cpu_time), cpu_time()
        pair = paired(sweep, client, pairs) if pairs else None
    assert ds.sizes["game"] == sweep.games
    compute = [
        sum(s["stop"] - s["start"] for s in r["startstops"] if s["action"] == "compute")
        for r in stream.data
    ]
    used = sum(after[w] - before[w] for w in after)
    return {
        **({"paired": pair} if pair else {}),
        "start_s": round(started, 3),
        "wall_s": round(wall, 3),
        "compute_s": round(sum(compute), 3),
        "compute_median_s": round(statistics.median(compute), 3),
        "cpu_s": round(used, 3),
        "cpu_share": round(used / (wall * workers), 3),
        "main_cpu_s": round(main1 - main0, 3),
        "load": round(os.getloadavg()[0], 2),
    }


def one_round(sweep: Sweep, k: int) -> dict[str, Any]:
    """The sweep alone, on 1 and on 2 workers (the order reversed in odd rounds), and its
    figures."""
    parts: dict[str, Any] = {}
    order = ["one_worker", "two_workers", "alone"]
    for part in order if k % 2 == 0 else order[::-1]:
        if part == "alone":
            parts[part] = alone(sweep)
        else:
            two = part.startswith("two")
            parts[part] = on_workers(sweep, 1 + two, 0 if two else min(sweep.games, PAIRS))
    one, two, solo = parts["one_worker"], parts["two_workers"], parts["alone"]
    n = sweep.games
    return {
        **parts,
        "speedup": round(one["wall_s"] / two["wall_s"], 3),
        "per_game_s": round(one["wall_s"] / n, 3),
        "per_game_ratio": round(one["wall_s"] / n / solo["mean_s"], 3),
        "per_game_cpu_ratio": round(one["cpu_s"] / n / solo["cpu_mean_s"], 3),
        "per_game_paired_ratio": one["paired"]["ratio_median"],
        "task_overhead_ratio": round(one["wall_s"] / one["compute_s"], 3),
    }


def medians(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The median of each figure over the rounds (of the parts' figures too)."""
    out: dict[str, Any] = {}
    for key, value in rows[0].items():
        if isinstance(value, dict):
            out[key] = medians([r[key] for r in rows])
        else:
            out[key] = round(statistics.median(r[key] for r in rows), 3)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("--quick", action="store_true")
    p.add_argument("--repeat", type=int, default=1, help="rounds (the medians reported)")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    games, turns = (4, 2) if args.quick else (40, 10)
    sweep = read_sweep(DEFAULT, games, turns, seed=1)
    rounds = [one_round(sweep, k) for k in range(max(1, args.repeat))]
    m = medians(rounds)
    out: dict[str, Any] = {
        "games": games,
        "turns": turns,
        "repeat": len(rounds),
        "alone_total_s": m["alone"]["total_s"],
        "alone_median_s": m["alone"]["median_s"],
        "alone_mean_s": m["alone"]["mean_s"],
        **{k: v for k, v in m.items() if k != "alone"},
        "alone": m["alone"],
        "rounds": rounds,
    }
    out["checks"] = {
        "speedup_at_least_1.7": out["speedup"] >= 1.7,
        "per_game_within_1.3": out["per_game_ratio"] <= 1.3,
        "per_game_cpu_within_1.3": out["per_game_cpu_ratio"] <= 1.3,
        "per_game_paired_within_1.3": out["per_game_paired_ratio"] <= 1.3,
    }
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    print(f"{games} games of {turns} turns of {DEFAULT.name}, {len(rounds)} round(s), medians")
    print(f"  alone: {out['alone_total_s']} s ({out['alone_median_s']} s a game, median; "
          f"{m['alone']['cpu_mean_s']} s CPU, mean; load {m['alone']['load']})")  # fmt: skip
    for part in ("one_worker", "two_workers"):
        r = m[part]
        print(f"  {part.replace('_', ' ')}: {r['wall_s']} s (CPU share {r['cpu_share']}, "
              f"this process {r['main_cpu_s']} s CPU; load {r['load']})")  # fmt: skip
    print(
        f"  speed-up {out['speedup']}x; a game on 1 worker {out['per_game_ratio']}x alone "
        f"(CPU {out['per_game_cpu_ratio']}x; in turn with it {out['per_game_paired_ratio']}x; "
        f"{out['task_overhead_ratio']}x its games' own)"
    )
    print(f"  checks: {out['checks']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
