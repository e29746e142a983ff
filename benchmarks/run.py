"""Benchmarks: every unit's reachable area, one side's move orders, and the console's map layers.

    .venv/bin/python benchmarks/run.py             # the default scenario and a 300 x 300 one
    .venv/bin/python benchmarks/run.py --quick     # fewer runs and a 100 x 100 large case
    .venv/bin/python benchmarks/run.py --json      # the figures as JSON on stdout
    .venv/bin/python benchmarks/run.py --profile   # and where the move orders spend their time

Not a test. Each measurement runs after a warm-up, several times; the machine is shared and
noisy, so the median (and the min) in ms is what to compare. A measurement stops repeating
once it has taken `--budget` seconds and has run at least three times. Progress goes to stderr.
With the engine as of this writing the full run takes under a minute on 2 cores, `--quick` about
20 s. Each median is also given
as a ratio to `turn.py`'s bare baseline (an 8-neighbour csgraph graph of the theatre and one
limited Dijkstra a unit) measured in the same run on the same case.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import platform
import pstats
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import scipy
from turn import baseline

from strategia.core.geometry import Cell
from strategia.engine.apply import apply
from strategia.engine.forces import stationary
from strategia.engine.state import GameState, initial_state
from strategia.engine.unit_reach import reach_all
from strategia.game.views import mediator_view, to_geojson
from strategia.notation.orders import Move
from strategia.rules import RuleSet, load_ruleset
from strategia.theatre.generate import random_scenario
from strategia.theatre.scenario import Scenario
from strategia.theatre.scenario_io import load_scenario
from strategia.ui.widgets import layers

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ROOT / "maps" / "continental.toml"
BASE = "baseline (turn.py's)"  # the bare graph and one limited Dijkstra a unit, same run
AHEAD = 3  # cells ahead of a unit, in its facing, that its move order aims at


@dataclass(frozen=True)
class Timing:
    """One measurement: its runs in ms."""

    runs_ms: tuple[float, ...]

    @property
    def median_ms(self) -> float:
        return statistics.median(self.runs_ms)

    @property
    def min_ms(self) -> float:
        return min(self.runs_ms)

    def to_json(self) -> dict[str, Any]:
        return {
            "median_ms": round(self.median_ms, 3),
            "min_ms": round(self.min_ms, 3),
            "runs": len(self.runs_ms),
            "runs_ms": [round(t, 3) for t in self.runs_ms],
        }


@dataclass
class Case:
    """A scenario's figures."""

    name: str
    size: tuple[int, int]
    units: int = 0
    orders: int = 0
    moved: int = 0
    timings: dict[str, Timing] = field(default_factory=dict)


def measure(
    fn: Callable[[], object],
    repeats: int,
    budget: float,
    warmup: Callable[[], object] | None = None,
) -> Timing:
    """Time `fn` `repeats` times after one warm-up (`warmup`, else `fn` itself)."""
    (warmup or fn)()
    runs: list[float] = []
    start = time.perf_counter()
    while len(runs) < repeats:
        t = time.perf_counter()
        fn()
        runs.append((time.perf_counter() - t) * 1000)
        if len(runs) >= 3 and time.perf_counter() - start > budget:
            break
    return Timing(tuple(runs))


def move_orders(state: GameState, side: str, rules: RuleSet) -> list[Move]:
    """One forward move per unit of `side` that may move (not a fortress's garrison, 3.6), to
    the cell AHEAD cells ahead in its facing."""
    w, h = state.width, state.height
    orders = []
    for u in sorted(state.units.values(), key=lambda u: u.ref.number):
        if state.scenario.state(u.owner).side != side or stationary(u.ref, rules):
            continue
        to = u.cell.step(u.facing, AHEAD)
        to = Cell(min(max(to.lon, 1), w), min(max(to.lat, 1), h))
        if to != u.cell:
            orders.append(Move(u.ref, to))
    return orders


def execute(state: GameState, orders: list[Move], rules: RuleSet, side: str) -> GameState:
    """Every order applied in sequence."""
    for order in orders:
        state, _ = apply(state, order, rules, side)
    return state


def terrain_layers(scenario: Scenario, level: int) -> None:
    """The console's static layers: the terrain image and the vector layers."""
    ds = scenario.theatre
    layers.terrain_image(ds, level)
    layers.routes_geojson(ds, level)
    layers.rivers_geojson(ds)
    layers.borders_geojson(ds)
    layers.places_geojson(ds, level)


def units_layer(state: GameState) -> None:
    """What the console sends a page's map of the units: the mediator's view as the units
    layer's records, every counter (as a page that opens gets them; later only the changes)."""
    shown = layers.counters_geojson(to_geojson(mediator_view(state)), marks=False)
    records, corps, _ = layers.counter_records(shown)
    json.dumps({"type": "all", "units": records, "corps": corps}, ensure_ascii=False)


def progress(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def run_case(
    name: str,
    setup: Callable[[], Scenario],
    rules: RuleSet,
    repeats: int,
    budget: float,
) -> tuple[Case, GameState, list[Move]]:
    progress(f"{name}: setting up")
    scenario = setup()
    case = Case(name, (scenario.width, scenario.height))
    case.timings["setup: scenario"] = measure(setup, repeats, budget)
    case.timings["setup: initial_state"] = measure(
        lambda: initial_state(scenario, rules.level), repeats, budget
    )
    state = initial_state(scenario, rules.level)
    case.units = len(state.units)
    case.timings[BASE] = measure(baseline(state, rules), repeats, budget)
    progress(f"{name}: reach_all over {case.units} units")
    case.timings["reach_all (every unit)"] = measure(
        lambda: reach_all(state, rules), repeats, budget
    )
    orders = move_orders(state, "red", rules)
    case.orders = len(orders)
    progress(f"{name}: {case.orders} move orders of the Red side, applied in sequence")
    last: dict[str, GameState] = {}

    def moves() -> None:
        last["after"] = execute(state, orders, rules, "red")

    def warmup() -> None:  # the first few orders: a whole pass may take minutes
        execute(state, orders[:10], rules, "red")

    case.timings["red moves (apply each)"] = measure(moves, repeats, budget, warmup)
    progress(f"{name}: the map's layers (terrain, routes, the units' one GeoJSON layer)")
    case.timings["map: terrain layers"] = measure(
        lambda: terrain_layers(scenario, rules.level), repeats, budget
    )
    case.timings["map: units layer (view + records)"] = measure(
        lambda: units_layer(state), repeats, budget
    )
    after = last["after"]
    case.moved = sum(after.unit(o.unit).cells != state.unit(o.unit).cells for o in orders)
    return case, state, orders


def profile(state: GameState, orders: list[Move], rules: RuleSet, top: int = 25) -> str:
    """cProfile of the move orders applied in sequence: the top functions by cumulative time."""
    prof = cProfile.Profile()
    prof.enable()
    execute(state, orders, rules, "red")
    prof.disable()
    out = io.StringIO()
    pstats.Stats(prof, stream=out).sort_stats("cumulative").print_stats(top)
    return out.getvalue()


def machine() -> dict[str, Any]:
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
    return {
        "cores": os.cpu_count(),
        "usable_cores": usable,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "scipy": scipy.__version__,
        "platform": platform.platform(),
    }


def report(info: dict[str, Any], cases: list[Case]) -> str:
    lines = [
        f"machine: {info['cores']} cores ({info['usable_cores']} usable), "
        f"Python {info['python']}, numpy {info['numpy']}, scipy {info['scipy']}",
        "",
        f"{'case':<34} {'measurement':<34} {'runs':>4} {'median ms':>11} {'min ms':>11}"
        f" {'x baseline':>10}",
    ]
    for c in cases:
        label = f"{c.name} {c.size[0]}x{c.size[1]}, {c.units} units"
        base = c.timings[BASE].median_ms
        for what, t in c.timings.items():
            lines.append(
                f"{label:<34} {what:<34} {len(t.runs_ms):>4} {t.median_ms:>11.1f} {t.min_ms:>11.1f}"
                f" {t.median_ms / base:>10.2f}"
            )
            label = ""
        moves = c.timings["red moves (apply each)"]
        lines.append(
            f"{'':<34} {c.orders} orders, {c.moved} units moved; "
            f"{moves.median_ms / max(c.orders, 1):.2f} ms an order (median)"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 runs, a 100 x 100 large case")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--profile", action="store_true", help="profile the large case's moves")
    parser.add_argument("--repeats", type=int, help="runs a measurement (default 7, quick 3)")
    parser.add_argument("--budget", type=float, help="seconds a measurement may repeat for")
    parser.add_argument("--seed", type=int, default=1, help="the generated scenario's seed")
    args = parser.parse_args(argv)
    repeats = args.repeats or (3 if args.quick else 7)
    budget = args.budget if args.budget is not None else (20.0 if args.quick else 60.0)
    size, per_side = (100, 100) if args.quick else (300, 500)
    rules = load_ruleset("continental", level=2)
    cases = []
    case, _, _ = run_case("continental", lambda: load_scenario(DEFAULT), rules, repeats, budget)
    cases.append(case)
    large, state, orders = run_case(
        "random",
        lambda: random_scenario(size, size, seed=args.seed, divisions_per_side=per_side),
        rules,
        repeats,
        budget,
    )
    cases.append(large)
    info = machine()
    if args.json:
        payload = {
            "machine": info,
            "repeats": repeats,
            "budget_s": budget,
            "cases": [
                {
                    **asdict(c),
                    "timings": {
                        k: {
                            **t.to_json(),
                            "ratio": round(t.median_ms / c.timings[BASE].median_ms, 2),
                        }
                        for k, t in c.timings.items()
                    },
                    "ms_per_order": round(
                        c.timings["red moves (apply each)"].median_ms / max(c.orders, 1), 3
                    ),
                }
                for c in cases
            ],
        }
        print(json.dumps(payload, indent=2, ensure_ascii=False))
    else:
        print(report(info, cases))
    out = sys.stderr if args.json else sys.stdout
    if args.profile:
        progress("profiling the large case's first 50 move orders")
        text = profile(state, orders[:50], rules)
        print(f"first 50 move orders of the large case\n{text}", file=out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
