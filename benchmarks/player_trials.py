"""Trials of the computer player (issue 26): whole games, and what they show.

    .venv/bin/python benchmarks/player_trials.py            # every trial (about 15 minutes)
    .venv/bin/python benchmarks/player_trials.py --quick    # short games at each level (tests)
    .venv/bin/python benchmarks/player_trials.py --json     # the figures as JSON

- *self*: the computer against itself for 30 turns at levels 1, 2 and 3, on the default scenario
  (`maps/continental.toml`, the Greens played too, waiting to be attacked) and on random
  theatres (`strategia.theatre.generate`, 64 x 44, 30 divisions a side), in several styles:
  every game must finish without an exception, a refused order or a hang, and at most 5 % of
  the computer's orders may be cut by 9.3 (the mediator's record of each result; a river
  crossing begun, to go on next turn, is counted apart as a crossing, not a cut: table 4).
- *script*: the balanced computer against the old trial script (`strategia.game.trial`) with
  the same forces, on 10 random theatres, as Red and as Blue, level 2: it should score higher
  at turn 20 (`strategia.game.scoring`) in at least 8 of the 10 as either colour.
- *mirror*: the computer against itself on 20 mirrored random theatres
  (`strategia.theatre.mirror`: the same ground and forces either side of the middle), level 2,
  20 turns: neither colour should win more than 65 % of the games. *mirror_blue_first* plays
  the same games with Blue moving first (a house rule, 1.8), to tell the colour from the order
  of the moves.

The plans-that-last trials (`trial_watch` says what each figure counts):

- *passive*: the balanced player attacking from turn 1 against a side that gives no orders,
  default scenario, 15 turns, levels 1, 2 and 3: at least 15 blows, 5 fire orders, and the
  passive side loses at least 25 % of its strength;
- *versus*: the balanced player against `greedy` (the one-move player) on 20 mirrored random
  theatres as each colour (40 games, level 2, 20 turns): it should win at least 75 %;
  *versus_default* the same on the default scenario, as either colour;
- *self_mirror*: the balanced player against itself on 40 mirrored theatres: neither colour
  should win more than 60 %;
- in every game: a battery with a target in reach fires at least one move in three; at most
  2 % of the units' moves undo their previous move.

A game that has not ended in `HANG_SECONDS` counts as a hang (an error). `checks` says which of
the targets the figures meet; `--quick` plays a game or two of each kind, 4 turns (too few to
judge the shares of wins: a test asserts what they can show).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import signal
import statistics
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import Any

from trial_watch import Watch

from strategia.cli.auto_cmd import records
from strategia.engine import flow
from strategia.game import trial
from strategia.game.channel import channel
from strategia.game.game import Game
from strategia.players import Player
from strategia.theatre.generate import random_scenario
from strategia.theatre.mirror import mirrored_scenario
from strategia.theatre.scenario import Scenario
from strategia.theatre.scenario_io import load_scenario

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ROOT / "maps" / "continental.toml"
STYLES = [("balanced", "balanced"), ("bold", "cautious"), ("cautious", "bold")]
HANG_SECONDS = 900
BLUE_FIRST = '[ruleset]\nname = "continental"\n\n[first_move]\nside = "blue"\n'


def script_orders(g: Game, side: str) -> None:
    """The trial script's orders for one side, not ending the move (level 3, beside a
    computer side): `trial.script_turn`'s, for that side alone."""
    mine = sorted((u for u in g.state.units.values() if g.state.side_of(u.ref) == side),
                  key=lambda u: u.ref.number)  # fmt: skip
    trial._attack(g, side)
    trial._strikes(g, side, mine)
    movers = [u for u in mine if u.division.kind.key not in ("artillery", "fortress")]
    for u in movers[:6]:
        dx, dy = u.facing.delta
        lon = min(g.state.width, max(1, u.cell.lon + 2 * dx))
        lat = min(g.state.height, max(1, u.cell.lat + 2 * dy))
        g.order(f"{u.ref} на {lon},{lat}", side)


def play_game(g: Game, sides: dict[str, Player | str], turns: int) -> dict[str, Any]:
    """Play `g` until turn `turns` is over, each side by its player, "script", or "none" (it
    gives no orders); what the computer did and how long its moves took (`trial_watch`)."""
    start, slowest, moves, times = g.journal.last_seq, 0.0, 0, []
    watch = Watch()
    t0 = time.perf_counter()

    def computer(who: Player, side: str) -> None:
        nonlocal slowest, moves
        watch.before(g.state, side, g.rules)
        t = time.perf_counter()
        done = who.move(channel(g, side))
        times.append(time.perf_counter() - t)
        slowest, moves = max(slowest, times[-1]), moves + 1
        watch.after(g.state, side, done)

    while g.phase != "peace" and g.state.turn <= turns:
        if g.simultaneous:
            for side in flow.sides_in_order(g.state, g.rules):
                who = sides.get(side, "script")
                if isinstance(who, Player):
                    computer(who, side)
                elif side != "green" and who != "none":
                    script_orders(g, side)
            g.end_turn()
            watch.see(g.state)
            continue
        who = sides.get(g.side, "script")
        if isinstance(who, Player):
            computer(who, g.side)
            g.end_turn()
        elif who == "none":
            g.end_turn()
        else:
            trial.script_turn(g)
        watch.see(g.state)
    given = records(g, start, "en")
    computers = {s for s, w in sides.items() if isinstance(w, Player)}
    mine = [r for r in given if r["side"] in computers]
    return {
        "turn": g.state.turn,
        "orders": len(mine),
        "cut": sum(any(not c.endswith("[table 4]") for c in r["cut"]) for r in mine),
        "crossings": sum(any(c.endswith("[table 4]") for c in r["cut"]) for r in mine),
        "refused": sum(len(w.refused) for w in sides.values() if isinstance(w, Player)),
        "refusals": [o for w in sides.values() if isinstance(w, Player) for o in w.refused],
        "slowest_move_s": round(slowest, 3),
        "median_move_s": round(statistics.median(times), 3) if times else 0.0,
        **watch.figures(g.state),
        "moves": moves,
        "seconds": round(time.perf_counter() - t0, 1),
        "scores": {s: g.score(s).value for s in ("red", "blue")},
        "at_war": g.state.at_war,
    }


def _scenario(kind: str, seed: int, level: int) -> Scenario:
    if kind == "default":
        return load_scenario(DEFAULT)
    if kind == "mirror":
        return mirrored_scenario(64, 44, seed=seed, divisions_per_side=30, level=level)
    return random_scenario(64, 44, seed=seed, divisions_per_side=30, level=level)


class Hang(Exception):
    pass


def _hang(signum: int, frame: object) -> None:
    raise Hang(f"the game did not end in {HANG_SECONDS} s")


def one(job: dict[str, Any]) -> dict[str, Any]:
    """One trial game (a job of the pool): its settings and what came of it."""
    with tempfile.TemporaryDirectory() as d:
        signal.signal(signal.SIGALRM, _hang)
        signal.alarm(HANG_SECONDS)
        try:
            sc = _scenario(job["map"], job["seed"], job["level"])
            house = []
            if job.get("house"):
                (Path(d) / "house.toml").write_text(job["house"], encoding="utf-8")
                house = [str(Path(d) / "house.toml")]
            g = Game.new(
                sc, Path(d) / "trial.game", level=job["level"], seed=job["seed"], house=house
            )
            sides: dict[str, Player | str] = {}
            for side in flow.sides_in_order(g.state, g.rules):
                what = job["sides"].get(side, "balanced:wait" if side == "green" else "script")
                if what in ("script", "none"):
                    sides[side] = what
                    continue
                style, _, posture = what.partition(":")
                sides[side] = Player(side, style or "balanced", posture or "attack@3",
                                     seed=job["seed"] * 10 + len(sides),
                                     think=job.get("think"))  # fmt: skip
            out = play_game(g, sides, job["turns"])
            g.journal.close()
            return {**job, **out, "error": None}
        except Exception:
            return {**job, "error": traceback.format_exc()}
        finally:
            signal.alarm(0)


def jobs(quick: bool) -> dict[str, list[dict[str, Any]]]:
    """The trials' games."""
    if quick:
        turns = 4
        self_games = [
            {"map": "default", "seed": 1, "level": lv, "turns": turns,
             "sides": {"red": "balanced:attack@2", "blue": "bold:attack@2"}}
            for lv in (1, 2, 3)
        ] + [{"map": "random", "seed": 2, "level": 3, "turns": turns,
              "sides": {"red": "cautious:attack@1", "blue": "balanced:attack@1"}}]  # fmt: skip
        return {
            "self": self_games,
            "script": [{"map": "random", "seed": 3, "level": 2, "turns": turns,
                        "sides": {side: "balanced"}} for side in ("red", "blue")],
            "mirror": [{"map": "mirror", "seed": 4, "level": 2, "turns": turns,
                        "sides": {"red": "balanced:attack@1", "blue": "balanced:attack@1"}}],
            "mirror_blue_first": [{"map": "mirror", "seed": 4, "level": 2, "turns": turns,
                                   "sides": {"red": "balanced:attack@1",
                                             "blue": "balanced:attack@1"},
                                   "house": BLUE_FIRST}],
            "passive": passive(),
            "versus": versus([5], 6, "mirror"),
        }  # fmt: skip
    self_games = []
    for lv in (1, 2, 3):
        self_games.append({"map": "default", "seed": 1, "level": lv, "turns": 30,
                           "sides": {"red": "balanced", "blue": "balanced"}})  # fmt: skip
        for n, (a, b) in enumerate(STYLES):
            self_games.append({"map": "random", "seed": 11 + n + 3 * lv, "level": lv,
                               "turns": 30, "sides": {"red": a, "blue": b}})  # fmt: skip
    script = [
        {"map": "random", "seed": s, "level": 2, "turns": 20, "sides": {side: "balanced"}}
        for s in range(1, 11)
        for side in ("red", "blue")
    ]
    mirror = [
        {"map": "mirror", "seed": s, "level": 2, "turns": 20,
         "sides": {"red": "balanced", "blue": "balanced"}}
        for s in range(1, 21)
    ]  # fmt: skip
    blue_first = [{**j, "house": BLUE_FIRST} for j in mirror]
    self_mirror = [
        {"map": "mirror", "seed": s, "level": 2, "turns": 20,
         "sides": {"red": "balanced:attack@1", "blue": "balanced:attack@1"}}
        for s in range(1, 41)
    ]  # fmt: skip
    return {
        "self": self_games,
        "script": script,
        "mirror": mirror,
        "mirror_blue_first": blue_first,
        "passive": passive(),
        "versus": versus(range(1, 21), 20, "mirror"),
        "versus_default": versus([1], 20, "default"),
        "self_mirror": self_mirror,
    }


def passive() -> list[dict[str, Any]]:
    """The balanced player, attacking from turn 1, against a side that gives no orders: the
    default scenario, 15 turns, at levels 1, 2 and 3 (the Greens give none either)."""
    return [
        {"map": "default", "seed": 1, "level": lv, "turns": 15,
         "sides": {"red": "balanced:attack@1", "blue": "none", "green": "none"}}
        for lv in (1, 2, 3)
    ]  # fmt: skip


def versus(seeds: Any, turns: int, kind: str) -> list[dict[str, Any]]:
    """The balanced player against `greedy` on each theatre, as each colour, level 2."""
    return [
        {"map": kind, "seed": s, "level": 2, "turns": turns, "balanced": side,
         "sides": {side: "balanced:attack@1",
                   ("blue" if side == "red" else "red"): "greedy:attack@1"}}
        for s in seeds
        for side in ("red", "blue")
    ]  # fmt: skip


def summary(done: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """What the trials show."""
    out: dict[str, Any] = {}
    every = [r for rs in done.values() for r in rs]
    errors = [r for r in every if r.get("error")]
    ok = [r for r in every if not r.get("error")]
    orders = sum(r["orders"] for r in ok)
    cut = sum(r["cut"] for r in ok)
    out["games"] = len(every)
    out["errors"] = len(errors)
    out["refused"] = sum(r["refused"] for r in ok)
    out["orders"] = orders
    out["cut"] = cut
    out["cut_share"] = round(cut / orders, 4) if orders else 0.0
    out["cut_share_by_level"] = {
        lv: round(sum(r["cut"] for r in ok if r["level"] == lv)
                  / max(1, sum(r["orders"] for r in ok if r["level"] == lv)), 4)
        for lv in sorted({r["level"] for r in ok})
    }  # fmt: skip
    out["slowest_move_s"] = max((r["slowest_move_s"] for r in ok), default=0.0)
    out["unfinished"] = sum(1 for r in ok if r["turn"] <= r["turns"])
    wins: dict[str, list[bool]] = {"red": [], "blue": []}
    for r in done.get("script", []):
        if r.get("error"):
            continue
        side = next(iter(r["sides"]))
        other = "blue" if side == "red" else "red"
        wins[side].append(r["scores"][side] > r["scores"][other])
    out["script_wins"] = {s: f"{sum(w)}/{len(w)}" for s, w in wins.items()}
    for kind in ("mirror", "mirror_blue_first"):
        colour = {"red": 0, "blue": 0, "draw": 0}
        for r in done.get(kind, []):
            if r.get("error"):
                continue
            a, b = r["scores"]["red"], r["scores"]["blue"]
            colour["red" if a > b else "blue" if b > a else "draw"] += 1
        out[kind] = colour
    out.update(issue_figures(done))
    out["error_texts"] = [r["error"] for r in errors][:3]
    out["checks"] = checks(out, done)
    return out


def _won(r: dict[str, Any], side: str) -> bool:
    other = "blue" if side == "red" else "red"
    return bool(r["scores"][side] > r["scores"][other])


def issue_figures(done: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """The figures of the plans-that-last trials: against a passive side, against `greedy`,
    against itself on mirrored theatres, the batteries' use and the moves undone."""
    out: dict[str, Any] = {}
    ok = {k: [r for r in rs if not r.get("error")] for k, rs in done.items()}
    out["passive"] = {
        r["level"]: {"blows": r["blows"].get("red", 0), "fire": r["fire"].get("red", 0),
                     "passive_lost": r["lost"]["blue"], "own_lost": r["lost"]["red"],
                     "median_move_s": r["median_move_s"]}
        for r in ok.get("passive", [])
    }  # fmt: skip
    for kind in ("versus", "versus_default"):
        games = ok.get(kind, [])
        won = {c: [_won(r, r["balanced"]) for r in games if r["balanced"] == c]
               for c in ("red", "blue")}  # fmt: skip
        out[kind] = {c: f"{sum(w)}/{len(w)}" for c, w in won.items()}
    games = ok.get("self_mirror", [])
    out["self_mirror"] = {c: sum(_won(r, c) for r in games) for c in ("red", "blue")}
    out["self_mirror_games"] = len(games)
    every = [r for rs in ok.values() for r in rs]
    moves = sum(r.get("gun_moves_with_target", 0) for r in every)
    fired = sum(r.get("gun_fired", 0) for r in every)
    out["guns_fired_share"] = round(fired / moves, 3) if moves else None
    unit_moves = sum(r.get("unit_moves", 0) for r in every)
    out["undone_share"] = round(sum(r.get("undone", 0) for r in every) / unit_moves, 4) if (
        unit_moves) else None  # fmt: skip
    return out


def issue_checks(out: dict[str, Any]) -> dict[str, bool | None]:
    """Which of the plans-that-last targets the figures meet (None: not played, or too few)."""
    passive = out.get("passive", {})
    versus = [tuple(map(int, v.split("/"))) for v in out.get("versus", {}).values()]
    played = sum(n for _, n in versus)
    default = [tuple(map(int, v.split("/"))) for v in out.get("versus_default", {}).values()]
    mirror = out.get("self_mirror", {})
    n_mirror = out.get("self_mirror_games", 0)
    return {
        "passive_15_blows_5_fire_25_percent_at_each_level": (
            all(p["blows"] >= 15 and p["fire"] >= 5 and p["passive_lost"] >= 0.25
                for p in passive.values()) if len(passive) == 3 else None
        ),
        "beats_greedy_75_percent_of_40": (
            sum(w for w, _ in versus) >= 0.75 * played if played >= 40 else None
        ),
        "beats_greedy_on_the_default_as_either_colour": (
            all(w == n for w, n in default) if default and all(n for _, n in default) else None
        ),
        "self_mirror_neither_colour_over_60_percent": (
            max(mirror.values()) <= 0.6 * n_mirror if n_mirror >= 40 else None
        ),
        "guns_with_a_target_fire_one_move_in_three": (
            out["guns_fired_share"] >= 1 / 3 if out.get("guns_fired_share") is not None else None
        ),
        "at_most_2_percent_of_moves_undone": (
            out["undone_share"] <= 0.02 if out.get("undone_share") is not None else None
        ),
    }  # fmt: skip


def checks(out: dict[str, Any], done: dict[str, list[dict[str, Any]]]) -> dict[str, bool | None]:
    """Which targets of the issue the figures meet; None where too few games were played to
    judge (`--quick`: a game or two; beating the script is then judged game by game)."""
    hung = any("did not end" in (r.get("error") or "") for rs in done.values() for r in rs)
    script = [tuple(map(int, v.split("/"))) for v in out["script_wins"].values()]
    script = [(won, n) for won, n in script if n]
    mirror = out["mirror"]
    played = sum(mirror.values())
    return {
        "no_exception": out["errors"] == 0,
        "no_refused_order": out["refused"] == 0,
        "no_hang": not hung and out["unfinished"] == 0,
        "cut_at_most_5_percent": out["cut_share"] <= 0.05,
        "beats_the_script_8_of_10_as_either_colour": (
            all(won >= (0.8 * n if n >= 10 else n) for won, n in script) if script else None
        ),
        "mirror_neither_colour_over_65_percent": (
            max(mirror["red"], mirror["blue"]) <= 0.65 * played if played >= 10 else None
        ),
        **issue_checks(out),
    }


def _brief(r: dict[str, Any]) -> dict[str, Any]:
    """A game's figures in a line (what `--processes` tells of each game as it ends)."""
    keys = ("map", "seed", "level", "sides", "scores", "blows", "fire", "lost", "median_move_s",
            "seconds", "error")  # fmt: skip
    return {k: r.get(k) for k in keys}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("--quick", action="store_true")
    p.add_argument("--json", action="store_true")
    p.add_argument(
        "--only",
        action="append",
        choices=(
            "self",
            "script",
            "mirror",
            "mirror_blue_first",
            "passive",
            "versus",
            "versus_default",
            "self_mirror",
        ),
    )
    p.add_argument("--think", type=float, help="seconds the search may spend in a move")
    p.add_argument("--first", type=int, help="play only the first N games of each kind")
    p.add_argument("--processes", type=int, default=2)
    args = p.parse_args(argv)
    todo = jobs(args.quick)
    if args.only:
        todo = {k: todo[k] for k in args.only}
    if args.first is not None:
        todo = {k: js[: args.first] for k, js in todo.items()}
    if args.think is not None:
        todo = {k: [{**j, "think": args.think} for j in js] for k, js in todo.items()}
    flat = [(k, j) for k, js in todo.items() for j in js]
    if args.processes > 1 and len(flat) > 1:
        with multiprocessing.Pool(args.processes) as pool:
            results = []
            for r in pool.imap(one, [j for _, j in flat]):  # each game told as it ends
                results.append(r)
                print(json.dumps(_brief(r), ensure_ascii=False), file=sys.stderr, flush=True)
    else:
        results = [one(j) for _, j in flat]
    done: dict[str, list[dict[str, Any]]] = {k: [] for k in todo}
    for (k, _), r in zip(flat, results, strict=True):
        done[k].append(r)
    figures = summary(done)
    if args.json:
        print(json.dumps({"summary": figures, "games": done}, indent=2, ensure_ascii=False))
    else:
        for k, v in figures.items():
            print(f"{k:>20}: {v}")
        for k, rs in done.items():
            for r in rs:
                if r.get("error"):
                    print(k, r["map"], r["seed"], r["level"], "ERROR", file=sys.stderr)
                    continue
                print(f"{k:>7} {r['map']:>7} seed {r['seed']:>2} level {r['level']} "
                      f"{r['sides']} orders {r['orders']} cut {r['cut']} refused "
                      f"{r['refused']} scores {r['scores']} slowest {r['slowest_move_s']} s "
                      f"({r['seconds']} s)")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
