"""A turn at 10,000 divisions a side (issue 16): time, memory and the cost of an order by size.

    .venv/bin/python benchmarks/scale.py           # 1,000, 4,000 and 20,000 divisions (600 x 600)
    .venv/bin/python benchmarks/scale.py --quick   # 500 and 1,000 divisions (tests run this)
    .venv/bin/python benchmarks/scale.py --json    # the figures as JSON

At each size, a generated theatre (`turn.scenario`, the same density of divisions at every
size) at turn 1: every moving division of both sides two cells ahead, carried out at level 3
(`turn.engine_turn`: the orders together, the new day), beside the bare baseline of `turn.py`
(an 8-neighbour csgraph graph and one limited Dijkstra per division) measured in the same run,
round after round. The cost of an order is the turn's median over its orders; its ratio to the
baseline's cost per search says whether an order costs more as the units grow. At the largest
size the same turn also goes through `Game` once (a new game file, each side's orders as text
in one command, End turn), and the peak memory of the process (`ru_maxrss`) is reported.
"""

from __future__ import annotations

import json
import resource
import sys
import tempfile
import time
from pathlib import Path

from turn import ahead, baseline, engine_turn, options, scenario, side_by_side

from strategia.engine import flow
from strategia.engine.state import GameState, initial_state
from strategia.game.game import Game
from strategia.notation.orders import Order
from strategia.rules import RuleSet, load_ruleset
from strategia.theatre.scenario import Scenario

QUICK = ((100, 250), (150, 500))
FULL = ((150, 500), (300, 2000), (600, 10_000))


def first_turn(sc: Scenario, rules: RuleSet) -> tuple[GameState, list[tuple[str, Order]]]:
    state, _ = flow.start(initial_state(sc, 3, rules), rules)
    return state, ahead(state, "red") + ahead(state, "blue")


def game_turn(sc: Scenario, orders: list[tuple[str, Order]]) -> tuple[float, float, int]:
    """Seconds for `Game.new`, then for the turn through `Game`; the units after it."""
    with tempfile.TemporaryDirectory() as d:
        t = time.perf_counter()
        g = Game.new(sc, Path(d) / "scale.game", level=3, seed=1)
        made = time.perf_counter() - t
        t = time.perf_counter()
        for side in ("red", "blue"):
            g.orders([o.format("ru") for s, o in orders if s == side], side)
        g.end_turn()
        played = time.perf_counter() - t
        units = len(g.state.units)
        g.journal.close()
    return made, played, units


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kB on Linux


def main(argv: list[str] | None = None) -> int:
    args = options(__doc__, argv)
    rules = load_ruleset(level=3)
    rows = []
    sizes = QUICK if args.quick else FULL
    for n, (size, per_side) in enumerate(sizes):
        t = time.perf_counter()
        sc = scenario(size, per_side)
        state, orders = first_turn(sc, rules)
        made = time.perf_counter() - t
        largest = n == len(sizes) - 1
        runs = args.runs or 3  # the median of 3 at every size: one round at the largest was noisy
        print(f"{size} x {size}: {len(state.units)} divisions, {len(orders)} orders, "
              f"generated in {made:.1f} s, {runs} runs", file=sys.stderr, flush=True)  # fmt: skip
        base, engine = side_by_side(
            [baseline(state, rules), lambda s=state, o=orders: engine_turn(s, o, rules)], runs
        )
        row = {
            "size": size,
            "divisions": len(state.units),
            "orders": len(orders),
            "baseline_s": round(base, 3),
            "engine_turn_s": round(engine, 3),
            "engine_ratio": round(engine / base, 2),
            "ms_per_order": round(1000 * engine / len(orders), 3),
            "ms_per_search": round(1000 * base / len(state.units), 3),
        }
        if largest:
            new_s, game_s, units = game_turn(sc, orders)
            row |= {
                "game_new_s": round(new_s, 2),
                "game_turn_s": round(game_s, 2),
                "game_ratio": round(game_s / base, 2),
                "units_after": units,
            }
        rows.append(row | {"peak_mb": round(peak_mb())})
    first, last = rows[0], rows[-1]
    growth = {
        "per_order_growth": round(last["ms_per_order"] / first["ms_per_order"], 2),
        "units_growth": round(last["divisions"] / first["divisions"], 1),
    }
    if args.json:
        print(json.dumps({"sizes": rows, **growth}, indent=2))
    else:
        for row in rows:
            print("  ".join(f"{k} {v}" for k, v in row.items()))
        print(f"an order costs {growth['per_order_growth']}x as much with "
              f"{growth['units_growth']}x the divisions")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
