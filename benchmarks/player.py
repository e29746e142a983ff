"""A computer player's move (issue 26): its time on the default scenario and at scale.

    .venv/bin/python benchmarks/player.py            # the default scenario; 1,000 divisions
    .venv/bin/python benchmarks/player.py --quick    # fewer rounds; 200 divisions (tests run this)
    .venv/bin/python benchmarks/player.py --json     # the figures as JSON

A move is everything the player does for its side through the channel: reading its view, its
journal and answers, its picture and plan, the engine's what-ifs of its blows, fire and moves,
its questions, and every order given (each one a command the game carries out and journals,
level 2) with its decision. Measured on a copy of a game file, fresh each round, opened before
the clock starts: on the default scenario (`maps/continental.toml`) at war, after a few turns
of the computer against itself; and on `turn.py`'s generated theatre with 1,000 divisions
(300 x 300) and the fronts in contact. Targets: under 2 s and under 20 s (the searching player,
`--think` unset); the one-move player (`greedy`) is timed beside it on the default scenario, and
the search's plans played out a second. Medians.
"""

from __future__ import annotations

import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from turn import options, scenario, show, turn_two

from strategia.cli.auto_cmd import play
from strategia.game.channel import channel
from strategia.game.game import Game
from strategia.notation.refs import Placement
from strategia.players import Player
from strategia.rules import load_ruleset

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ROOT / "maps" / "continental.toml"
SIDES = ("red", "blue", "green")


def players() -> dict[str, Player]:
    return {s: Player(s, posture="wait" if s == "green" else "attack@2", seed=n)
            for n, s in enumerate(SIDES)}  # fmt: skip


def default_game(folder: Path, turns: int) -> Path:
    """The default scenario at level 2, the computer against itself until `turns` is over."""
    path = folder / "default.game"
    g = Game.new(DEFAULT, path, level=2, seed=1)
    play(g, players(), turns)
    g.journal.close()
    return path


def big_game(folder: Path, size: int, per_side: int) -> Path:
    """`turn.py`'s theatre at turn 2, the fronts in contact, as a level-2 game."""
    rules = load_ruleset(level=3)
    sc = scenario(size, per_side)
    state = turn_two(sc, rules)
    forces = tuple(
        replace(f, deployment=tuple(Placement(u.ref, u.cells, u.facing)
                                    for u in state.units.values() if u.owner == f.state))
        for f in sc.forces
    )  # fmt: skip
    path = folder / "big.game"
    Game.new(replace(sc, forces=forces), path, level=2, seed=1).journal.close()
    return path


def timed_move(
    path: Path, folder: Path, runs: int, style: str = "balanced"
) -> tuple[float, int, int, float]:
    """The median time of the side to move's move on fresh copies of `path` (`--think` unset);
    its orders and decisions, and the plans its search played out a second (each plan on one
    enemy disposition; 0 for `greedy`, which does not search)."""
    times, orders, decisions, plans, spent = [], 0, 0, 0, 0.0
    for n in range(runs):
        copy = folder / f"round{n}-{style}.game"
        shutil.copy(path, copy)
        g = Game.open(copy)
        side = g.side
        p = Player(side, style, posture="attack@1", seed=1)
        ch = channel(g, side)
        t = time.perf_counter()
        done = p.move(ch)
        times.append(time.perf_counter() - t)
        orders, decisions = sum(d.order is not None for d in done), len(done)
        plans, spent = plans + p.searched, spent + p.search_seconds
        assert not p.refused, p.refused
        g.journal.close()
    return statistics.median(times), orders, decisions, round(plans / spent, 1) if spent else 0.0


def main(argv: list[str] | None = None) -> int:
    args = options(__doc__, argv)
    runs = args.runs or (1 if args.quick else 5)
    size, per_side = (100, 100) if args.quick else (300, 500)
    with tempfile.TemporaryDirectory() as d:
        folder = Path(d)
        default = default_game(folder, 3 if args.quick else 6)
        small_s, small_orders, small_decisions, small_rate = timed_move(default, folder, runs)
        print(f"default: {small_s:.3f} s, {small_orders} orders", file=sys.stderr)
        greedy_s, *_ = timed_move(default, folder, runs, "greedy")
        big = big_game(folder, size, per_side)
        big_s, big_orders, big_decisions, big_rate = timed_move(big, folder, runs)
    figures = {
        "default_move_s": round(small_s, 3),
        "default_orders": small_orders,
        "default_decisions": small_decisions,
        "default_plans_per_s": small_rate,
        "default_greedy_move_s": round(greedy_s, 3),
        "big_size": size,
        "big_divisions": 2 * per_side,
        "big_move_s": round(big_s, 3),
        "big_orders": big_orders,
        "big_decisions": big_decisions,
        "big_plans_per_s": big_rate,
    }
    show(figures, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
