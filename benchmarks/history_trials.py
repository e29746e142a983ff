"""Trials of one game's history with many holders: nothing lost, nothing done twice, nothing done
on a position that had moved on, and the game replays exactly.

    .venv/bin/python benchmarks/history_trials.py            # 200 trials (about 15 minutes)
    .venv/bin/python benchmarks/history_trials.py --quick    # 6 trials (tests/test_history.py)
    .venv/bin/python benchmarks/history_trials.py --json     # the counts as JSON on stdout

Each trial takes a copy of a game at war (levels 2 and 3 in turn, Blue played by the computer)
and starts three to five holders, each a process of its own that keeps the game open as its
kind does and acts through the same methods a person's clicks call:

- `console`: the mediator's console (`Console`): orders for the side to move, questions,
  interventions, Undo (of the entry its label names), End turn (of the move it shows), and the
  computer's moves when they are due (`Seats.play`: each claimed once);
- `team`: a side's screen (`TeamScreen`): orders (sealed at level 3) and questions, each decided
  on the position its screen last showed;
- `auto`: `strategia game auto`'s loop (`play_game`): the computer's sides, each move claimed;
- `cli`: the command line, a command after another (`game end-turn --side --turn`, `game undo
  --entry`, `game order --at`, `game ask --side --at`).

Every holder pauses at random between looking and acting, so commands decided on a position
race others; each dies at its own moment, killed (SIGKILL, inside a command too) or, one time
in four, closing the game. Every holder writes each command it was acknowledged (the entry
number, its kind and the checksum of its data) and each Undo with the entry it named.

Then the game must open with no manual step and
- `lost`: hold every acknowledged entry, as acknowledged;
- `replay`: replay without a difference (`Game.open(verify=True)`);
- `twice`: end each move once (no two End turns of one turn and side; at level 3 of one turn),
  claim each computer's move once, and give one plan («замысел хода») a computer's move;
- `unseen_undo`: take back by each Undo exactly the entry its undoer named.
Failures are counted; the run exits 1 if any is not zero. The figures go into the README.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import shutil
import signal
import sys
import tempfile
import time
import traceback
from collections import Counter
from contextlib import redirect_stderr, redirect_stdout, suppress
from pathlib import Path
from typing import Any

from strategia.cli import main as cli
from strategia.core.errors import StrategiaError
from strategia.core.geometry import Cell
from strategia.game.game import Game
from strategia.game.store import dumps, row_crc
from strategia.game.trial import play
from strategia.players import settings

DEFAULT = Path(__file__).resolve().parents[1] / "maps" / "continental.toml"
KINDS = ("console", "team", "auto", "cli")
FAILURES = ("lost", "unopened", "replay", "twice", "unseen_undo", "crashed")


# --- the holders ---------------------------------------------------------------------------------


def _ack(out: int, g: Game, before: int, what: str) -> None:
    """Write the command acknowledged, if it wrote an entry of kind `what` last."""
    g.refresh()
    if g.position <= before:
        return
    e = g.journal.entry(g.position)
    if e.kind == what:
        os.write(out, f"ack {e.seq} {e.kind} {row_crc(dumps(e.data))}\n".encode())
        if e.kind == "undo":
            os.write(out, f"undo {e.seq} {e.data['of']}\n".encode())


def _order_text(g: Game, side: str, rng: random.Random) -> str | None:
    mine = [u for u in g.state.units.values() if g.state.side_of(u.ref) == side]
    if not mine:
        return None
    u = rng.choice(sorted(mine, key=lambda x: x.ref.number))
    if rng.random() < 0.3:
        return f"{u.ref} поворот на {rng.choice(('север', 'юг', 'запад', 'восток'))}"
    dx, dy = u.facing.delta
    return f"{u.ref} на {Cell(u.cell.lon + dx, u.cell.lat + dy)}"


def _question(g: Game, side: str, rng: random.Random) -> str:
    theirs = [u for u in g.state.units.values() if g.state.side_of(u.ref) not in (side, "green")]
    u = rng.choice(sorted(theirs, key=lambda x: x.ref.number))
    return f"где {u.ref}?"


def _console(path: Path, rng: random.Random, out: int) -> None:
    from strategia.ui.console import Console

    c = Console.open(path, games=path.parent / f"games-{os.getpid()}")
    g = c.game
    while True:
        c.catch_up()
        time.sleep(rng.uniform(0, 0.08))  # the mediator looks, then clicks
        before, r = g.journal.last_seq, rng.random()
        if r < 0.35 and not g.simultaneous:
            text = _order_text(g, g.side, rng)
            if text:
                c.submit(text)
                _ack(out, g, before, "order")
        elif r < 0.5 and g.state.at_war:
            side = rng.choice(("red", "blue"))
            c.panels.recon_side.value = side
            c.panels.question.value = _question(g, side, rng)
            c.panels.do_ask()
            _ack(out, g, before, "ask")
        elif r < 0.6:
            c.panels.mediator.note.value = f"note {rng.getrandbits(32):08x}"
            c.panels.mediator.do_intervene()
            _ack(out, g, before, "intervention")
        elif r < 0.75:
            c.undo()
            _ack(out, g, before, "undo")
        else:
            c.end_turn()
            _ack(out, g, before, "end-turn")


def _team(path: Path, rng: random.Random, out: int) -> None:
    from strategia.ui.team import TeamScreen

    side = "red"
    t = TeamScreen(Game.open(path), side)
    g = t.game
    while True:
        t.catch_up()
        time.sleep(rng.uniform(0, 0.08))
        before = g.journal.last_seq
        if rng.random() < 0.7 or not g.state.at_war:
            text = _order_text(g, side, rng)
            if text:
                t.submit(text)
                _ack(out, g, before, "order")
        else:
            t.ask(_question(g, side, rng))
            _ack(out, g, before, "ask")


def _auto(path: Path, rng: random.Random, out: int) -> None:
    from strategia.cli.auto_cmd import players_of
    from strategia.sweep.play import play_game

    g = Game.open(path)
    players = players_of(g)
    while True:
        time.sleep(rng.uniform(0, 0.2))
        g.refresh()
        with suppress(StrategiaError):  # a command refused as stale: looked at again next round
            play_game(g, players, g.state.turn)


def _cli(path: Path, rng: random.Random, out: int) -> None:
    g = Game.open(path)
    while True:
        g.refresh()
        time.sleep(rng.uniform(0, 0.08))
        before, r = g.position, rng.random()
        at = ["--at", str(before)]
        if r < 0.35:
            args = ["game", "end-turn", str(path), "--turn", str(g.state.turn), *at]
            if not g.simultaneous:
                args += ["--side", g.side]
            what = "end-turn"
        elif r < 0.55:
            last = g.undoable()
            args = ["game", "undo", str(path), *at, "--entry", str(last.seq if last else 0)]
            what = "undo"
        elif r < 0.8:
            text = _order_text(g, "red", rng)
            args = ["game", "order", str(path), text or "", "--side", "red", *at]
            what = "order"
        else:
            if not g.state.at_war:
                continue
            args = ["game", "ask", str(path), "--side", "red", _question(g, "red", rng), *at]
            what = "ask"
        with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
            code = cli(args)
        if code == 0:
            _ack(out, g, before, what)


HOLDERS = {"console": _console, "team": _team, "auto": _auto, "cli": _cli}


def _holder(kind: str, path: Path, seed: int, out: int) -> None:
    rng = random.Random(seed)
    try:
        HOLDERS[kind](path, rng, out)
    except Exception:  # a holder that fails is what the trial looks for
        os.write(out, f"crashed {kind}\n".encode())
        traceback.print_exc()


def _spawn(kind: str, path: Path, seed: int, log: Path) -> int:
    pid = os.fork()
    if pid == 0:  # the child: hold the game until killed
        code = 0
        try:
            out = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
            _holder(kind, path, seed, out)
        except BaseException:
            code = 1
        finally:
            os._exit(code)
    return pid


# --- a trial -----------------------------------------------------------------------------------


def base_games(work: Path) -> dict[int, Path]:
    """Games of the default scenario at war, at levels 2 and 3, Blue the computer's."""
    out = {}
    for level in (2, 3):
        path = work / f"base{level}.game"
        computer = {"blue": settings("blue", "balanced", "attack@1")}
        g = Game.new(DEFAULT, path, level=level, computer=computer)
        play(g, 6)
        g.journal.close()
        out[level] = path
    return out


def trial(
    base: Path, work: Path, rng: random.Random, counts: Counter[str], keep: Path | None = None
) -> None:
    path = work / "war.game"
    shutil.copyfile(base, path)
    log = work / "acks.log"
    log.write_text("")
    kinds = ["console", rng.choice(("team", "cli")), rng.choice(("auto", "console", "team"))]
    kinds += rng.sample(KINDS, rng.randint(0, 2))
    pids = {_spawn(k, path, rng.getrandbits(32), log): k for k in kinds}
    counts["holders"] += len(pids)
    start = time.monotonic()
    dies = {pid: rng.uniform(0.8, 3.0) for pid in pids}
    alive = set(pids)
    while alive:
        now = time.monotonic() - start
        for pid in sorted(alive):
            if now >= dies[pid]:
                os.kill(pid, signal.SIGKILL)  # at any point, inside a command too
                with suppress(ChildProcessError):
                    os.waitpid(pid, 0)
                alive.discard(pid)
        time.sleep(0.02)
    failed = sum(counts[k] for k in FAILURES)
    check(path, log.read_text().splitlines(), counts)
    if keep is not None and sum(counts[k] for k in FAILURES) > failed:
        aside = keep / f"trial{counts['trials']}"
        shutil.copytree(work, aside, dirs_exist_ok=True)
        print(f"  kept in {aside}", file=sys.stderr)
    for p in work.iterdir():
        if p.is_dir():
            shutil.rmtree(p, ignore_errors=True)
        else:
            p.unlink()


def check(path: Path, acks: list[str], counts: Counter[str]) -> None:
    """The game after a trial: opened, every acknowledged entry in it, nothing done twice, each
    Undo of the entry named, and replayed exactly."""
    try:
        g = Game.open(path)
    except Exception as e:
        counts["unopened"] += 1
        print(f"  UNOPENED: {type(e).__name__}: {e}", file=sys.stderr)
        return
    last = g.journal.last_seq
    entries = {e.seq: e for e in g.journal.stream(1, last)}
    for line in acks:
        parts = line.split()
        if parts[0] == "crashed":
            counts["crashed"] += 1
        elif parts[0] == "ack":
            seq, kind, crc = int(parts[1]), parts[2], parts[3]
            counts["acknowledged"] += 1
            e = entries.get(seq)
            if e is None or e.kind != kind or row_crc(dumps(e.data)) != crc:
                counts["lost"] += 1
                print(f"  LOST: entry {seq} ({kind})", file=sys.stderr)
        elif parts[0] == "undo":
            counts["undos"] += 1
            e = entries.get(int(parts[1]))
            if e is None or e.kind != "undo" or int(e.data["of"]) != int(parts[2]):
                counts["unseen_undo"] += 1
    counts["entries"] += last - 1
    counts["twice"] += _twice(g, list(entries.values()))
    verified = Game.open(path, verify=True)
    bad = [p for p in verified.replay_problems if not p.startswith("note: ")]
    if bad:
        counts["replay"] += 1
        print(f"  REPLAY: {bad[:3]}", file=sys.stderr)
    verified.journal.close()
    g.journal.close()


def _twice(g: Game, entries: list[Any]) -> int:
    """Moves ended twice, computer's moves claimed twice, plans given twice in one move."""
    ends: Counter[tuple[int, str]] = Counter()
    claims: Counter[tuple[int, str]] = Counter()
    plans: Counter[tuple[int, str]] = Counter()
    undone = {int(e.data["of"]) for e in entries if e.kind == "undo"}
    for e in entries:
        if e.kind == "end-turn":
            side = "" if g.simultaneous else str(e.data["side"])
            ends[(g.turn_of(e.seq), side)] += 1
        elif e.kind == "claim":
            claims[(int(e.data["turn"]), str(e.data["side"]))] += 1
        elif e.kind == "decision" and e.data.get("goal") == "plan" and e.seq not in undone:
            plans[(int(e.data["turn"]), str(e.data["side"]))] += 1
    named = {"End turn": ends, "claim": claims, "plan": plans}
    twice = [(what, k) for what, c in named.items() for k, n in c.items() if n > 1]
    for what, k in twice:
        print(f"  TWICE: {what} {k} in {g.journal.path}", file=sys.stderr)
    return len(twice)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="6 trials, for the tests")
    ap.add_argument("--trials", type=int, help="how many trials (200; --quick: 6)")
    ap.add_argument("--seed", type=int, default=38, help="the trials' random seed")
    ap.add_argument("--json", action="store_true", help="the counts as JSON on stdout")
    ap.add_argument("--keep", type=Path, help="copy each failing trial's game into this folder")
    args = ap.parse_args(argv)
    n = args.trials if args.trials is not None else 6 if args.quick else 200
    rng = random.Random(args.seed)
    counts: Counter[str] = Counter({k: 0 for k in FAILURES})
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="strategia-history-") as tmp:
        root = Path(tmp)
        bases = base_games(root)
        work = root / "work"
        work.mkdir()
        for k in range(n):
            trial(bases[2 if k % 2 == 0 else 3], work, rng, counts, args.keep)
            counts["trials"] += 1
    counts["seconds"] = round(time.monotonic() - t0)
    if args.json:
        print(json.dumps(dict(counts)))
    else:
        for key, value in sorted(counts.items()):
            print(f"{key:>14}: {value}")
    return 1 if any(counts[k] for k in FAILURES) else 0


if __name__ == "__main__":
    raise SystemExit(main())
