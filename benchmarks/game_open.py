"""Opening and creating a long game at scale (issue 16): `Game.open` and `Game.new`, as ratios.

    .venv/bin/python benchmarks/game_open.py           # 1,000 divisions on 300 x 300, 10 turns
    .venv/bin/python benchmarks/game_open.py --quick   # 200 divisions on 100 x 100, 4 turns
    .venv/bin/python benchmarks/game_open.py --json    # the figures as JSON

The game is `turn.py`'s: a generated theatre whose fronts are in contact at turn 2, played on
through `Game` until its 10th turn: turn 2's strikes, blows and moves (`turn.contact_orders`),
then every division two cells ahead each turn (so that most of the 1,000 are still there), each
side's orders as text in one command, then End turn. Then, beside the same bare baseline
as `turn.py` (an 8-neighbour csgraph graph and one limited Dijkstra per division), round after
round: `Game.open` of the game file (from its newest snapshot), and `Game.new` of the scenario
(checked, written, its first snapshot kept and verified) on a fresh path. Medians over the rounds.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

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


def play(path: Path, turns: int) -> int:
    """Play the game at `path` on until its turn `turns`; the number of orders given."""
    given = 0
    g = Game.open(path)
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
    g.journal.close()
    return given


def opened(path: Path) -> None:
    Game.open(path).journal.close()


def created(sc: Scenario, folder: Path) -> Prepared:
    def setup() -> Path:
        new = folder / "new.game"
        for old in folder.glob("new.game*"):
            old.unlink()
        return new

    return Prepared(setup, lambda p: Game.new(sc, p, level=3, seed=1).journal.close())


def main(argv: list[str] | None = None) -> int:
    args = options(__doc__, argv)
    size, per_side, turns = (100, 100, 4) if args.quick else (300, 500, 10)
    runs = args.runs or (3 if args.quick else 5)
    rules = load_ruleset(level=3)
    sc = scenario(size, per_side)
    state = turn_two(sc, rules)
    with tempfile.TemporaryDirectory() as d:
        path = contact_game(sc, state, Path(d))
        t = time.perf_counter()
        given = play(path, turns)
        played = time.perf_counter() - t
        g = Game.open(path)
        reached, units, entries = g.state.turn, len(g.state.units), len(g.journal.entries)
        g.journal.close()
        print(f"{size} x {size}: turn {reached}, {units} units, {given} orders, "
              f"{entries} entries, played in {played:.1f} s", file=sys.stderr)  # fmt: skip
        base, opening, creating = side_by_side(
            [baseline(state, rules), lambda: opened(path), created(sc, Path(d))], runs
        )
        size_mb = path.stat().st_size / 1e6
    figures = {
        "size": size,
        "divisions": len(state.units),
        "turn": reached,
        "orders_given": given,
        "file_mb": round(size_mb, 2),
        "baseline_s": round(base, 4),
        "open_s": round(opening, 4),
        "open_ratio": round(opening / base, 2),
        "new_s": round(creating, 4),
        "new_ratio": round(creating / base, 2),
    }
    show(figures, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
