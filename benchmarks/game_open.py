"""Opening a long game at scale (issues 16 and 25): `Game.open` at several lengths, `Game.new`,
and the memory of an open game, as ratios to a bare baseline.

    .venv/bin/python benchmarks/game_open.py           # 1,000 divisions on 300 x 300
    .venv/bin/python benchmarks/game_open.py --quick   # 200 divisions on 100 x 100, short games
    .venv/bin/python benchmarks/game_open.py --json    # the figures as JSON

The game is `turn.py`'s: a generated theatre whose fronts are in contact at turn 2, played on
through `Game`: turn 2's strikes, blows and moves (`turn.contact_orders`), then every division
two cells ahead each turn (so that most of the 1,000 are still there), each side's orders as
text in one command, then End turn. It is played once to its longest length, a copy of the file
kept at each length (10, 25, 50 and 100 turns; --quick: 3 and 6). Then, beside the same bare
baseline as `turn.py` (an 8-neighbour csgraph graph and one limited Dijkstra per division),
round after round: `Game.open` of each copy (from its newest snapshot), and `Game.new` of the
scenario (checked, written, its first snapshot kept and verified) on a fresh path. Medians over
the rounds.

Memory, at the shortest and the longest length: what `tracemalloc` counts as allocated by
`Game.open` (the game held, after a collection; the scenario's first opening is made before,
as the processes that hold a game share it), and again after playing 5 more turns on that game
(--quick: 2), on a copy.
"""

from __future__ import annotations

import gc
import shutil
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

from turn import (
    Prepared,
    ahead,
    baseline,
    contact_game,
    contact_orders,
    options,
    scenario,
    show,
    side_by_side,
    turn_two,
)

from strategia.game.game import Game
from strategia.notation.orders import Order
from strategia.rules import load_ruleset
from strategia.theatre.scenario import Scenario


def play_on(g: Game, turns: int) -> int:
    """Play `g` on until its turn `turns`; the number of orders given."""
    given = 0
    rules = load_ruleset(level=3)
    while g.state.turn < turns:
        st = g.state
        orders: list[tuple[str, Order]] = (
            contact_orders(st, rules) if st.turn == 2 else ahead(st, "red") + ahead(st, "blue")
        )
        for side in ("red", "blue"):
            texts = [o.format("ru") for s, o in orders if s == side]
            given += len(g.orders(texts, side))
        g.end_turn()
    return given


def play(path: Path, turns: int) -> int:
    """Play the game at `path` on until its turn `turns`; the number of orders given."""
    g = Game.open(path)
    try:
        return play_on(g, turns)
    finally:
        g.journal.close()


def opened(path: Path) -> None:
    Game.open(path).journal.close()


def created(sc: Scenario, folder: Path) -> Prepared:
    def setup() -> Path:
        new = folder / "new.game"
        for old in folder.glob("new.game*"):
            old.unlink()
        return new

    return Prepared(setup, lambda p: Game.new(sc, p, level=3, seed=1).journal.close())


def memory(path: Path, folder: Path, more: int) -> dict[str, float]:
    """The memory `Game.open` of a copy of `path` holds, and after `more` turns played on it
    (MB, as `tracemalloc` counts it)."""
    copy = folder / "memory.game"
    for old in folder.glob("memory.game*"):
        old.unlink()
    shutil.copy(path, copy)
    opened(copy)  # the scenario begun once, as in a process that holds games
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        g = Game.open(copy)
        gc.collect()
        at_open = tracemalloc.get_traced_memory()[0] - before
        play_on(g, g.state.turn + more)
        gc.collect()
        after = tracemalloc.get_traced_memory()[0] - before
        g.journal.close()
    finally:
        tracemalloc.stop()
    return {"open_mb": round(at_open / 1e6, 1), f"after_{more}_turns_mb": round(after / 1e6, 1)}


def main(argv: list[str] | None = None) -> int:
    args = options(__doc__, argv)
    size, per_side, lengths = (100, 100, (3, 6)) if args.quick else (300, 500, (10, 25, 50, 100))
    more = 2 if args.quick else 5
    runs = args.runs or (3 if args.quick else 5)
    rules = load_ruleset(level=3)
    sc = scenario(size, per_side)
    state = turn_two(sc, rules)
    with tempfile.TemporaryDirectory() as d:
        folder = Path(d)
        path = contact_game(sc, state, folder)
        copies: dict[int, dict[str, Any]] = {}
        given, t = 0, time.perf_counter()
        for n in lengths:
            given += play(path, n)
            copy = folder / f"turn{n}.game"
            shutil.copy(path, copy)
            g = Game.open(copy)
            copies[n] = {"path": copy, "turn": g.state.turn, "units": len(g.state.units),
                         "entries": len(g.journal.entries), "orders_given": given,
                         "file_mb": round(copy.stat().st_size / 1e6, 2)}  # fmt: skip
            g.journal.close()
            print(f"{size} x {size}: turn {g.state.turn}, {copies[n]['units']} units, "
                  f"{given} orders, {copies[n]['entries']} entries, "
                  f"played in {time.perf_counter() - t:.1f} s", file=sys.stderr)  # fmt: skip
        timed = [baseline(state, rules)]
        timed += [(lambda p: lambda: opened(p))(c["path"]) for c in copies.values()]
        times = side_by_side([*timed, created(sc, folder)], runs)
        base, creating = times[0], times[-1]
        opens = [
            {"turns": n, **{k: v for k, v in c.items() if k != "path"},
             "open_s": round(s, 4), "open_ratio": round(s / base, 2)}
            for (n, c), s in zip(copies.items(), times[1:-1], strict=True)
        ]  # fmt: skip
        held = {
            f"{n}_turns": memory(copies[n]["path"], folder, more) for n in (lengths[0], lengths[-1])
        }
    longest = opens[-1]
    figures = {
        "size": size,
        "divisions": len(state.units),
        "baseline_s": round(base, 4),
        "opens": opens,
        "open_s": longest["open_s"],
        "open_ratio": longest["open_ratio"],
        "new_s": round(creating, 4),
        "new_ratio": round(creating / base, 2),
        "memory": held,
    }
    show(figures, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
