"""A whole turn at scale against its bare graph searches (issue 16), as ratios.

    .venv/bin/python benchmarks/turn.py            # 1,000 divisions on 300 x 300
    .venv/bin/python benchmarks/turn.py --quick    # 200 divisions on 100 x 100 (tests run this)
    .venv/bin/python benchmarks/turn.py --json     # the figures as JSON

The scenario is a random theatre (`strategia.theatre.generate`) whose two sides stand along the
border. Turn 1: every division that can moves two cells ahead, and the artillery comes up behind
the divisions in contact; turn 2, the fronts in contact:
each artillery division strikes the nearest enemy in range, each division beside an enemy
attacks it (one blow a cell), the others move two cells ahead. The turn is carried out at level 3,
every side's orders together (`flow.execute_together`, then the new day).

The same turn is carried out by the engine alone (`flow.execute_together`, the new day) as a
game carries it out, each result's explanation kept to its first step (what the journal keeps;
the steps below are worked out again when read), and again with every explanation built whole
(`engine_whole`, as a lesson shows one); and through `Game`, as a game file on disk plays it:
each side's orders given as text in one command (`Game.orders`: parsed, journaled, synced
once), then End turn (the engine, the end-turn
bookkeeping, the results journaled, the snapshot kept and verified, synced). Each round of the
Game turn starts from a fresh copy of the game file at turn 2, opened before the clock starts.

The heavier turn (issue 25): each side's reach shown (every unit's reachable area, as a
side's map shows it, `unit_reach.reach_all`) before its orders; a blow from every division beside
an enemy on a cell its side has not struck yet (so about twice the blows), the strikes and the
moves as above; two End turns (turn 2, then turn 3 with the same kind of orders from where turn
2 left the units; the turn-3 orders are worked out beforehand, untimed); the journal on disk.
Its baseline is two bare runs (one a turn).

The baseline, measured in the same run: an 8-neighbour `scipy.sparse.csgraph` graph of the
theatre's step costs for one unit type, and one limited Dijkstra search per division from its cell
(a move order's bare cost). The baseline, the engine and the Game turn run in turn, round after
round; each figure is a median over the rounds, and the ratio to the baseline's median is what the
README quotes.
"""

from __future__ import annotations

import argparse
import gc
import json
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra

from strategia.core.geometry import Cell
from strategia.engine import flow
from strategia.engine.artillery import in_range
from strategia.engine.costs import speeds, step_costs
from strategia.engine.state import GameState, initial_state
from strategia.engine.unit_reach import reach_all
from strategia.explain.trace import heads_only
from strategia.game.game import Game
from strategia.notation.orders import Attack, Move, Order, Strike
from strategia.notation.refs import Placement
from strategia.rules import RuleSet, load_ruleset
from strategia.rules.kinds import DivisionKind
from strategia.theatre import terrain
from strategia.theatre.generate import random_scenario
from strategia.theatre.scenario import Scenario

NOT_ATTACKING = (DivisionKind.ARTILLERY, DivisionKind.ANTI_TANK, DivisionKind.FORTRESS)


def median_s(fn: Callable[[], object], runs: int) -> float:
    """The median wall time of `runs` calls of `fn` after one warm-up, in seconds."""
    return side_by_side([fn], runs)[0]


def side_by_side(fns: list[Callable[[], object] | Prepared], runs: int) -> list[float]:
    """The median wall time of each of `fns` over `runs` rounds, each round calling every one
    in turn (so that the shared machine's load falls on all of them alike), after a warm-up.
    A `Prepared` one is given what its `setup` (untimed) returns."""
    each = [f if isinstance(f, Prepared) else _plain(f) for f in fns]
    for f in each:
        f.run(f.setup())
    times: list[list[float]] = [[] for _ in fns]
    for _ in range(runs):
        for f, ts in zip(each, times, strict=True):
            ready = f.setup()
            gc.collect()
            t = time.perf_counter()
            f.run(ready)
            ts.append(time.perf_counter() - t)
    return [statistics.median(ts) for ts in times]


def _plain(fn: Callable[[], object]) -> Prepared:
    return Prepared(lambda: None, lambda _: fn())


@dataclass(frozen=True)
class Prepared:
    """What to time (`run`) and what it needs, made before the clock starts (`setup`)."""

    setup: Callable[[], Any]
    run: Callable[[Any], object]


def scenario(size: int, per_side: int, seed: int = 11) -> Scenario:
    return random_scenario(size, size, seed=seed, divisions_per_side=per_side)


def ahead(state: GameState, side: str) -> list[tuple[str, Order]]:
    """Every moving division of `side` two cells ahead."""
    out: list[tuple[str, Order]] = []
    staying = (DivisionKind.ARTILLERY, DivisionKind.FORTRESS)
    for u in sorted(state.units.values(), key=lambda u: u.ref.number):
        if state.side_of(u.ref) != side or u.division.kind in staying:
            continue
        dx, dy = u.facing.delta
        to = Cell(
            min(state.width, max(1, u.cell.lon + 2 * dx)),
            min(state.height, max(1, u.cell.lat + 2 * dy)),
        )
        out.append((side, Move(u.ref, to)))
    return out


def contact_orders(
    state: GameState, rules: RuleSet, heavy: bool = False
) -> list[tuple[str, Order]]:
    """Turn 2's orders: strikes, blows on enemies beside, and moves for the rest (`heavy`: a
    cell may be struck once by each side, not once in all)."""
    orders: list[tuple[str, Order]] = []
    struck: set[Cell] = set()
    busy: set[Any] = set()
    enemy = {s: np.argwhere(state.enemy_mask(s)) for s in ("red", "blue")}
    for side in ("red", "blue"):
        if heavy:
            struck = set()
        foes = [Cell(int(i) + 1, int(j) + 1) for i, j in enemy[side]]
        for u in sorted(state.units.values(), key=lambda u: u.ref.number):
            if state.side_of(u.ref) != side:
                continue
            if u.division.kind is DivisionKind.ARTILLERY:
                near = [
                    c for c in foes if abs(c.lon - u.cell.lon) <= 3 and abs(c.lat - u.cell.lat) <= 3
                ]
                near = [c for c in near if in_range(u.cell, c, rules)]
                if near:
                    orders.append(
                        (side, Strike(u.ref, min(near, key=lambda c: (c.km(u.cell), c.lon, c.lat))))
                    )
                    busy.add(u.ref)
                continue
            if u.division.kind in NOT_ATTACKING:
                continue
            for c in (
                Cell(u.cell.lon + dx, u.cell.lat + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)
            ):
                if (
                    c != u.cell
                    and c not in struck
                    and any(state.side_of(o.ref) not in (side, "green") for o in state.occupants(c))
                ):
                    orders.append((side, Attack(c, ((u.ref,),))))
                    struck.add(c)
                    busy.add(u.ref)
                    break
        orders += [(s, o) for s, o in ahead(state, side) if o.unit not in busy]
    return orders


def artillery_forward(state: GameState) -> GameState:
    """Each artillery division set one or two cells behind a division of its side in contact
    (as if it had come up in the night), so that turn 2's strikes are in range."""
    enemy = {s: state.enemy_mask(s) for s in ("red", "blue")}
    moved = []
    for side in ("red", "blue"):
        front = [
            u
            for u in sorted(state.units.values(), key=lambda u: u.ref.number)
            if state.side_of(u.ref) == side
            and u.division.kind is not DivisionKind.ARTILLERY
            and enemy[side][
                max(0, u.cell.lon - 2) : u.cell.lon + 1, max(0, u.cell.lat - 2) : u.cell.lat + 1
            ].any()
        ]
        guns = [
            u
            for u in sorted(state.units.values(), key=lambda u: u.ref.number)
            if state.side_of(u.ref) == side and u.division.kind is DivisionKind.ARTILLERY
        ]
        taken = {c for u in state.units.values() for c in u.cells}
        lons, lats = range(1, state.width + 1), range(1, state.height + 1)
        water = state.theatre["relief"].values == terrain.Relief.WATER
        for i, gun in enumerate(guns):
            if not front:
                break
            f = front[(i * 7) % len(front)]
            dx, dy = f.facing.delta
            behind = (Cell(f.cell.lon - k * dx + s * dy, f.cell.lat - k * dy - s * dx)
                      for k in (2, 1) for s in (0, 1, -1))  # fmt: skip
            c = next(
                (
                    c
                    for c in behind
                    if c not in taken
                    and c.lon in lons
                    and c.lat in lats
                    and not water[c.lon - 1, c.lat - 1]
                ),
                None,
            )
            if c is not None:
                taken.add(c)
                moved.append(replace(gun, cells=(c,), facing=f.facing))
    return state.with_units(moved)


def turn_two(sc: Scenario, rules: RuleSet) -> GameState:
    """The position at the start of turn 2: turn 1's moves carried out, the new day begun."""
    state = initial_state(sc, 3, rules)
    state, _ = flow.start(state, rules)
    state, _ = flow.execute_together(state, ahead(state, "red") + ahead(state, "blue"), rules)
    state, _ = flow.new_day(state, rules)
    state, _ = flow.advance(state, rules)
    return artillery_forward(state)


def engine_turn(
    state: GameState, orders: list[tuple[str, Order]], rules: RuleSet, whole: bool = False
) -> GameState:
    """The turn by the engine as a game carries it out: each result's explanation kept to its
    first step (what the journal keeps, `heads_only`; the steps below are worked out again when
    read); `whole`: every explanation built whole, as a lesson or `strategia move` shows it."""
    with heads_only(not whole):
        state, _ = flow.execute_together(state, orders, rules)
        state, _ = flow.new_day(state, rules)
        state, _ = flow.advance(state, rules)
    return state


def contact_game(sc: Scenario, state: GameState, folder: Path) -> Path:
    """A level-3 game file whose first turn is `state`'s position (every unit deployed where it
    stands, facing as it faces)."""
    forces = tuple(
        replace(
            f,
            deployment=tuple(
                Placement(u.ref, u.cells, u.facing)
                for u in state.units.values()
                if u.owner == f.state
            ),
        )
        for f in sc.forces
    )
    path = folder / "contact.game"
    Game.new(replace(sc, forces=forces), path, level=3, seed=1).journal.close()
    return path


def game_turn(path: Path, folder: Path, orders: list[tuple[str, Order]]) -> Prepared:
    """The turn through `Game` on a fresh copy of the game file `path`: each side's orders as
    text in one command, then End turn."""
    texts = {s: [o.format("ru") for side, o in orders if side == s] for s, _ in orders}

    def setup() -> Game:
        copy = folder / "turn.game"
        for old in folder.glob("turn.game*"):
            old.unlink()
        shutil.copy(path, copy)
        return Game.open(copy)

    def run(g: Game) -> None:
        for side, given in texts.items():
            g.orders(given, side)
        g.end_turn()
        g.journal.close()

    return Prepared(setup, run)


def show_reach(state: GameState, rules: RuleSet) -> None:
    """Every unit's reachable area, side by side, as each side's map shows it."""
    for side in ("red", "blue"):
        reach_all(state, rules, [r for r in state.units if state.side_of(r) == side])


def heavy_engine(
    state: GameState, turns: list[list[tuple[str, Order]]], rules: RuleSet
) -> GameState:
    """The heavier turn by the engine alone: each turn, both sides' reach, then the orders."""
    for orders in turns:
        show_reach(state, rules)
        state = engine_turn(state, orders, rules)
    return state


def heavy_turns(
    path: Path, folder: Path, state: GameState, rules: RuleSet
) -> tuple[list[list[tuple[str, Order]]], GameState]:
    """The heavier turn's orders for turns 2 and 3 (turn 3's from where turn 2 leaves the game,
    played once on a copy, untimed), and the state the engine starts from."""
    first = contact_orders(state, rules, heavy=True)
    copy = folder / "heavy-probe.game"
    shutil.copy(path, copy)
    g = Game.open(copy)
    for side in ("red", "blue"):
        g.orders([o.format("ru") for s, o in first if s == side], side)
    g.end_turn()
    second = contact_orders(g.state, rules, heavy=True)
    g.journal.close()
    return [first, second], state


def heavy_game(path: Path, folder: Path, turns: list[list[tuple[str, Order]]]) -> Prepared:
    """The heavier turn through `Game` on a fresh copy of the game file: each turn, each side's
    reach shown, its orders as text in one command, then End turn; two turns."""
    texts = [{s: [o.format("ru") for side, o in orders if side == s] for s, _ in orders}
             for orders in turns]  # fmt: skip

    def setup() -> Game:
        copy = folder / "heavy.game"
        for old in folder.glob("heavy.game*"):
            old.unlink()
        shutil.copy(path, copy)
        return Game.open(copy)

    def run(g: Game) -> None:
        for given in texts:
            show_reach(g.state, g.rules)
            for side, orders in given.items():
                g.orders(orders, side)
            g.end_turn()
        g.journal.close()

    return Prepared(setup, run)


def baseline(state: GameState, rules: RuleSet) -> Callable[[], object]:
    """The bare searches: an 8-neighbour graph of a rifle division's step costs and one limited
    Dijkstra from each division's cell."""
    ds = state.theatre
    costs = step_costs(ds, speeds(DivisionKind.RIFLE, rules), state.level, frozenset())
    w, h = terrain.size(ds)
    sources = [(u.cell.lon - 1) * h + (u.cell.lat - 1) for u in state.units.values()]

    def run() -> object:
        ids = np.arange(w * h).reshape(w, h)
        rows, cols, vals = [], [], []
        for k, (dx, dy) in enumerate(terrain.DELTAS.tolist()):
            c = costs.cost[k]
            ii, jj = np.nonzero(np.isfinite(c))
            ok = (ii + dx >= 0) & (ii + dx < w) & (jj + dy >= 0) & (jj + dy < h)
            rows.append(ids[ii[ok], jj[ok]])
            cols.append(ids[ii[ok] + dx, jj[ok] + dy])
            vals.append(c[ii[ok], jj[ok]] + 1e-9)
        graph = csr_matrix(
            (np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))),
            shape=(w * h, w * h),
        )
        for s in sources:
            dijkstra(graph, indices=s, limit=1.0)
        return graph

    return run


def options(doc: str | None, argv: list[str] | None) -> argparse.Namespace:
    """The benchmarks' common options: --quick, --json, --runs."""
    p = argparse.ArgumentParser(description=(doc or "").split("\n\n")[0])
    p.add_argument("--quick", action="store_true")
    p.add_argument("--json", action="store_true")
    p.add_argument("--runs", type=int, default=None)
    return p.parse_args(argv)


def show(figures: dict[str, Any], as_json: bool) -> None:
    """The figures as JSON, or one per line."""
    if as_json:
        print(json.dumps(figures, indent=2))
        return
    width = max(map(len, figures)) + 2
    for k, v in figures.items():
        print(f"{k:>{width}}: {v}")


def counted(orders: list[tuple[str, Order]]) -> dict[str, int]:
    return {
        "moves": sum(isinstance(o, Move) for _, o in orders),
        "strikes": sum(isinstance(o, Strike) for _, o in orders),
        "attacks": sum(isinstance(o, Attack) for _, o in orders),
    }


def main(argv: list[str] | None = None) -> int:
    args = options(__doc__, argv)
    size, per_side = (100, 100) if args.quick else (300, 500)
    runs = args.runs or (3 if args.quick else 5)
    rules = load_ruleset(level=3)
    sc = scenario(size, per_side)
    state = turn_two(sc, rules)
    orders = contact_orders(state, rules)
    counts = {"divisions": len(state.units), **counted(orders)}
    print(f"{size} x {size}, {counts}", file=sys.stderr)
    with tempfile.TemporaryDirectory() as d:
        path = contact_game(sc, state, Path(d))
        g = Game.open(path)
        assert g.state.units == state.units, "the game starts where the engine's turn does"
        g.journal.close()
        turns, _ = heavy_turns(path, Path(d), state, rules)
        heavy = {f"heavy_{k}": [counted(t)[k] for t in turns] for k in counted(turns[0])}
        print(f"heavier turn: {heavy}", file=sys.stderr)
        base, engine, whole, game, engine2, game2 = side_by_side(
            [
                baseline(state, rules),
                lambda: engine_turn(state, orders, rules),
                lambda: engine_turn(state, orders, rules, whole=True),
                game_turn(path, Path(d), orders),
                lambda: heavy_engine(state, turns, rules),
                heavy_game(path, Path(d), turns),
            ],
            runs,
        )
    figures = {
        "size": size,
        **counts,
        "baseline_s": round(base, 4),
        "engine_turn_s": round(engine, 4),
        "engine_ratio": round(engine / base, 2),
        "engine_whole_s": round(whole, 4),
        "engine_whole_ratio": round(whole / base, 2),
        "game_turn_s": round(game, 4),
        "game_ratio": round(game / base, 2),
        **heavy,
        "heavy_baseline_s": round(2 * base, 4),
        "heavy_engine_s": round(engine2, 4),
        "heavy_engine_ratio": round(engine2 / (2 * base), 2),
        "heavy_game_s": round(game2, 4),
        "heavy_game_ratio": round(game2 / (2 * base), 2),
    }
    show(figures, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
