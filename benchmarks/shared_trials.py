"""Trials of one game shared by many processes, as a classroom shares it (issue 22).

    .venv/bin/python benchmarks/shared_trials.py            # 200 trials (about 12 minutes)
    .venv/bin/python benchmarks/shared_trials.py --quick    # 6 trials (tests/test_shared_game.py)
    .venv/bin/python benchmarks/shared_trials.py --json     # the counts as JSON on stdout

Each trial starts one to three *holders* on a copy of a game two turns in: processes that
keep it open as the mediator's console, a team's screen (`strategia serve`'s kernels) or a
script does (`benchmarks/holder.py`), each giving commands (notes, orders, ends of turns) and
printing what it was acknowledged. Beside them, the `strategia` command runs one command
after another, readers and writers alike (`game show`, `journal`, `report`, `score`,
`replay`, `export`, `intervene`, `ask`, `order`, `end-turn`, `undo`), each a process of its
own that opens the game, closes it and ends. Every holder checks that it still holds SQLite's
lock on the file after each command, and dies at its own random moment: killed (SIGKILL, at
any point, inside a command too) or, one time in four, closing the game and ending.

Then the game must open with no manual step, hold every entry acknowledged to a holder and
every note the command line was acknowledged, and replay without a difference. Failures are
counted (`lost`, `unopened`, `replay`, `lock_lost`, `crashed`); the run exits 1 if any is not
zero. Not a unit test: the figures go into the README.
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
import threading
import time
import traceback
from collections import Counter
from contextlib import redirect_stderr, redirect_stdout, suppress
from pathlib import Path
from typing import Any

from crash_trials import DIRECTIONS, _check, base_game
from holder import Holder, locks_on

from strategia.cli import main as cli
from strategia.core.geometry import Cell
from strategia.game.store import GameStore

KINDS = ("game", "console", "team")
READERS = (
    ["show"], ["show", "--side", "blue", "--json"], ["journal"], ["journal", "--side", "red"],
    ["report", "--turn", "1"], ["score"], ["replay"], ["export"],
)  # fmt: skip


def _holder(path: Path, kind: str, wid: int, seed: int, dies_at: float, out: int) -> None:
    """Hold the game as `kind`, give commands until the moment to die, print each one
    acknowledged (`wid seq kind crc`) and a `lock_lost` line if the lock on the file went."""
    rng = random.Random(seed)
    side = rng.choice(("red", "blue"))
    held = Holder(kind, path, side)
    clean = rng.random() < 0.25
    end = time.monotonic() + dies_at + (0 if clean else 600)
    if not clean:  # killed at an arbitrary point, inside a command too
        threading.Timer(dies_at, os.kill, (os.getpid(), signal.SIGKILL)).start()
    while time.monotonic() < end:
        if locks_on(path) < 1:
            os.write(out, f"lock_lost {wid} {kind}\n".encode())
        r = rng.random()
        if r < 0.3:
            cmd = {"do": "note", "text": f"w{wid} note {rng.getrandbits(32):08x}"}
        elif r < 0.85:
            cmd = {"do": "order", "text": _order(held, side, rng)}
        elif r < 0.95 and kind != "team":
            cmd = {"do": "end-turn"}
        else:
            cmd = {"do": "refresh"}
        held.do({"do": "refresh"})
        answer = held.do(cmd)
        if "seq" in answer:
            os.write(out, f"{wid} {answer['seq']} {answer['kind']} {answer['crc']}\n".encode())
        time.sleep(rng.uniform(0, 0.05))
    held.do({"do": "close"})


def _order(held: Holder, side: str, rng: random.Random) -> str:
    g = held.game
    mover = side if held.kind == "team" else g.side
    mine = [u for u in g.state.units.values() if g.state.side_of(u.ref) == mover and u.left > 0]
    if not mine:
        return "1 с.д. на 1,1"  # refused: nothing is written
    u = rng.choice(mine)
    if rng.random() < 0.5:
        return f"{u.ref} поворот на {rng.choice(DIRECTIONS)}"
    dx, dy = rng.choice(((0, 1), (1, 0), (0, -1), (-1, 0)))
    return f"{u.ref} на {Cell(u.cell.lon + dx, u.cell.lat + dy)}"


def _commands(path: Path, seed: int, until: float, out: int) -> None:
    """Run the command line's commands one after another until `until`, each in a process of
    its own; print `cli-note TEXT` for every note it was acknowledged."""
    rng = random.Random(seed)
    end = time.monotonic() + until
    n = 0
    while time.monotonic() < end:
        r = rng.random()
        if r < 0.55:
            args = ["game", *rng.choice(READERS)]
        elif r < 0.8:
            note = f"cli note {rng.getrandbits(32):08x}"
            args = ["game", "intervene", note]
        else:
            args = ["game", *rng.choice((["end-turn"], ["undo"], ["order", "--side", "red",
                                         "23 т.д. поворот на север"]))]  # fmt: skip
        args.insert(2, str(path))
        if args[1] == "export":
            args.append(str(path.with_name(f"export{n}.jsonl")))
        code = _run_cli(args)
        n += 1
        if code == 0 and args[1] == "intervene":
            os.write(out, f"cli-note {args[3]}\n".encode())


def _run_cli(args: list[str]) -> int:
    pid = os.fork()
    if pid == 0:
        code = 3
        try:
            with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
                code = cli(args)
        except BaseException:
            traceback.print_exc()
        os._exit(code)
    _, status = os.waitpid(pid, 0)
    return os.WEXITSTATUS(status) if os.WIFEXITED(status) else -1


def _fork(body: Any, *args: Any) -> tuple[int, int]:
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        code = 0
        try:
            body(*args, write)
        except BaseException:
            traceback.print_exc()
            code = 3
        os._exit(code)
    os.close(write)
    return pid, read


def _collect(procs: list[tuple[int, int]], timeout: float) -> list[str]:
    """Every line the processes print, and `crashed PID` for one that ended on an exception."""
    import select

    start, fds = time.monotonic(), {fd: b"" for _, fd in procs}
    open_fds = set(fds)
    while open_fds and time.monotonic() - start < timeout:
        ready, _, _ = select.select(list(open_fds), [], [], 0.5)
        for fd in ready:
            chunk = os.read(fd, 65536)
            if chunk:
                fds[fd] += chunk
            else:
                os.close(fd)
                open_fds.discard(fd)
    lines = []
    for pid, fd in procs:
        with suppress(ProcessLookupError):
            if fd in open_fds:
                os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
        if os.WIFEXITED(status) and os.WEXITSTATUS(status) == 3:
            lines.append(f"crashed {pid}")
        lines += [x for x in fds[fd].decode().split("\n") if x.strip()]
    return lines


def shared_trials(base: Path, work: Path, n: int, rng: random.Random, quick: bool) -> Counter[str]:
    counts: Counter[str] = Counter()
    span = (0.8, 2.0) if quick else (0.8, 4.0)
    for k in range(n):
        folder = work / f"shared{k}"
        folder.mkdir()
        path = folder / "g.game"
        shutil.copyfile(base, path)
        kinds = [rng.choice(KINDS) for _ in range(rng.choice((1, 2, 2, 3)))]
        for kind in kinds:
            counts[f"holder_{kind}"] += 1
        procs = [
            _fork(_holder, path, kind, w, rng.getrandbits(32), rng.uniform(*span))
            for w, kind in enumerate(kinds)
        ]
        procs.append(_fork(_commands, path, rng.getrandbits(32), span[1]))
        lines = _collect(procs, span[1] + 60)
        counts["trials"] += 1
        counts["lock_lost"] += sum(1 for x in lines if x.startswith("lock_lost"))
        notes = [x.split(" ", 1)[1] for x in lines if x.startswith("cli-note ")]
        g = _check(path, [x for x in lines if not x.startswith(("cli-note", "lock_lost"))], counts)
        if g is not None:
            with GameStore.open(path) as store:  # `_check` closed its game
                found = {e.data.get("text") for e in store.entries if e.kind == "intervention"}
            counts["cli_acknowledged"] += len(notes)
            lost = [x for x in notes if x not in found]
            counts["lost"] += len(lost)
            for x in lost:
                print(f"  LOST {path}: the command line's note {x!r}", file=sys.stderr)
        shutil.rmtree(folder, ignore_errors=True)
    return counts


FAILURES = ("lost", "unopened", "replay", "lock_lost", "crashed", "writer_crashed")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--trials", type=int)
    ap.add_argument("--seed", type=int, default=22)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    n = args.trials if args.trials is not None else 6 if args.quick else 200
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="strategia-shared-") as tmp:
        import strategia.ui.console.console
        import strategia.ui.team.screen  # noqa: F401

        work = Path(tmp)
        counts = shared_trials(base_game(work), work, n, random.Random(args.seed), args.quick)
    results: dict[str, Any] = {"shared": dict(sorted(counts.items()))}
    results["failures"] = {f: counts.get(f, 0) for f in FAILURES}
    results["seconds"] = round(time.monotonic() - started)
    print(json.dumps(results, indent=1) if args.json else results)
    return 1 if any(results["failures"].values()) else 0


if __name__ == "__main__":
    raise SystemExit(main())
