"""Trials of the game store: writers killed, a full disk, damaged bytes (issue 17).

    .venv/bin/python benchmarks/crash_trials.py            # the long run (about 15 minutes)
    .venv/bin/python benchmarks/crash_trials.py --quick    # a handful of each (tests/test_crash.py)
    .venv/bin/python benchmarks/crash_trials.py --json     # the counts as JSON on stdout

- *kill*: one to three writer processes play the same game at once (orders of the side to
  move, ends of turns, the mediator's notes), each printing what it was acknowledged; each is
  killed (SIGKILL) at its own random moment. Then the game must open with no manual step, hold
  every acknowledged entry, and replay (every result and snapshot re-derived) without a
  difference: a writer that computed against a stale state would show there.
- *full*: a writer fills the disk: a small tmpfs where this process may mount one (root),
  else a file-size limit (RLIMIT_FSIZE) in the writer, half the time killing it at the limit
  (SIGXFSZ, a write torn at the limit), half the time refusing the write (EFBIG). The same
  checks, and the game must go on once there is room again.
- *damage*: a finished game file has bytes flipped (anywhere, in the header rows, in SQLite's
  file header) or is cut short; and (*header*, not in `--quick`) every one of the 800 bits of
  SQLite's file header is flipped in turn. Opening it and reading its whole journal (opening
  reads only the move in progress; an earlier entry is checked when read) must either give the
  very same game (the byte was unused) or report the damage with its place (an entry, a header
  copy, a page, bytes); never a different game, never a traceback. `recover` must then save
  the header and a prefix of the entries.

Failures are counted (`lost`, `unopened`, `replay`, `silent`, `unplaced`, `crashed`); the run
exits 1 if any is not zero. Not a unit test: the figures go into the README.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import re
import resource
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter
from pathlib import Path
from typing import Any

from strategia.core.errors import StrategiaError
from strategia.core.geometry import Cell
from strategia.game.game import Game
from strategia.game.store import StoreError, StoreWriteError, dumps, row_crc
from strategia.game.trial import play

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ROOT / "maps" / "continental.toml"
PLACE = re.compile(
    r"entry \d+|pages? \d+|bytes \d+|table \w+|the header|the tail|snapshot after entry \d+"
    r"|tree \d+|freelist|schema|line \d+|the file's header"
)
DIRECTIONS = ("север", "юг", "восток", "запад", "северо-восток", "юго-запад")


# --- a writer (a forked child) ---------------------------------------------------------------


def _writer(path: Path, wid: int, seed: int, out: int, stop_after_errors: int = 0) -> None:
    """Play the game at `path` until killed, writing `wid seq kind crc` for every command the
    store acknowledged (after it returned) to the pipe `out`."""
    rng = random.Random(seed)
    try:
        g = Game.open(path)
    except StoreWriteError:  # no room to open it (a full disk): refused, and said so
        os.write(out, f"refused {wid}\n".encode())
        return
    errors = 0
    while True:
        try:
            g.refresh()
            side, r = g.side, rng.random()
            if r < 0.35:
                g.intervene(f"w{wid} note {rng.getrandbits(32):08x}")
            elif r < 0.9:
                mine = [
                    u
                    for u in g.state.units.values()
                    if g.state.side_of(u.ref) == side and u.busy is None and u.left > 0
                ]
                if not mine:
                    continue
                u = rng.choice(mine)
                if rng.random() < 0.5:
                    g.order(f"{u.ref} поворот на {rng.choice(DIRECTIONS)}", side)
                else:
                    dx, dy = rng.choice(((0, 1), (1, 0), (0, -1), (-1, 0)))
                    to = Cell(u.cell.lon + dx, u.cell.lat + dy)
                    g.order(f"{u.ref} на {to}", side)
            else:
                g.end_turn()
        except StoreWriteError:
            os.write(out, f"refused {wid}\n".encode())
            errors += 1
            if stop_after_errors and errors >= stop_after_errors:
                return
            continue
        except StoreError as e:  # a full disk or a kill must never look like damage
            os.write(out, f"damaged {wid} {str(e).splitlines()[-1]}\n".encode())
            return
        except StrategiaError:
            errors += 1
            if stop_after_errors and errors >= stop_after_errors:
                return
            continue
        e = g.journal.entries[-1]
        os.write(out, f"{wid} {e.seq} {e.kind} {row_crc(dumps(e.data))}\n".encode())


def _spawn(path: Path, wid: int, seed: int, limit: int | None = None, kill_at_limit: bool = True,
           stop_after_errors: int = 0) -> tuple[int, int]:  # fmt: skip
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: a writer
        os.close(read)
        code = 0
        try:
            if limit is not None:
                resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
                if not kill_at_limit:
                    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            _writer(path, wid, seed, write, stop_after_errors)
        except BaseException:
            traceback.print_exc()
            code = 3
        os._exit(code)
    os.close(write)
    return pid, read


def _run(writers: list[tuple[int, int]], kill_at: list[float], timeout: float) -> list[str]:
    """Read the writers' acknowledgements, killing each at its moment (all by `timeout`);
    their lines, and a line "crashed PID" for a writer that ended on an exception."""
    start = time.monotonic()
    fds = {fd: pid for pid, fd in writers}
    data = {fd: b"" for _, fd in writers}
    pending = sorted(zip(kill_at, [pid for pid, _ in writers], strict=True))
    while fds:
        now = time.monotonic() - start
        while pending and (pending[0][0] <= now or now >= timeout):
            _kill(pending.pop(0)[1])
        wait = pending[0][0] - now if pending else 0.5
        ready, _, _ = select.select(list(fds), [], [], max(0.0, min(wait, 0.5)))
        for fd in ready:
            chunk = os.read(fd, 65536)
            if chunk:
                data[fd] += chunk
            else:
                os.close(fd)
                del fds[fd]
    lines = [line for b in data.values() for line in b.decode().split("\n") if line.strip()]
    for pid, _ in writers:
        _, status = os.waitpid(pid, 0)
        if os.WIFEXITED(status) and os.WEXITSTATUS(status) == 3:
            lines.append(f"crashed {pid}")
    return lines


def _kill(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)


# --- checks -------------------------------------------------------------------------------------


def _check(path: Path, acks: list[str], counts: Counter[str]) -> Game | None:
    """Open the game (no manual step), find every acknowledged entry, replay it all."""
    try:
        g = Game.open(path)
    except Exception as e:  # any failure to open is what the trial looks for
        counts["unopened"] += 1
        print(f"  UNOPENED {path.name}: {type(e).__name__}: {e}", file=sys.stderr)
        return None
    entries = g.journal.entries
    for line in acks:
        if line.startswith("crashed"):
            counts["writer_crashed"] += 1
            print(f"  WRITER CRASHED in {path.name} (its traceback is above)", file=sys.stderr)
        elif line.startswith("damaged"):
            counts["writer_saw_damage"] += 1
            print(f"  WRITER SAW DAMAGE in {path.name}: {line}", file=sys.stderr)
        elif line.startswith("refused"):
            counts["writes_refused"] += 1
    for line in [a for a in acks if a[:1].isdigit()]:
        _, seq, kind, crc = line.split()
        n = int(seq)
        ok = n <= len(entries) and entries[n - 1].kind == kind
        ok = ok and row_crc(dumps(entries[n - 1].data)) == crc
        counts["acknowledged"] += 1
        if not ok:
            counts["lost"] += 1
            print(f"  LOST {path.name}: entry {seq} ({kind})", file=sys.stderr)
    counts["entries"] += len(entries) - 1
    verified = Game.open(path, verify=True)
    bad = [p for p in verified.replay_problems if not p.startswith("note: ")]
    if bad:
        counts["replay"] += 1
        print(f"  REPLAY {path.name}: {bad[:3]}", file=sys.stderr)
    g.journal.close()
    verified.journal.close()
    return g


def kill_trials(base: Path, work: Path, n: int, rng: random.Random, quick: bool) -> Counter[str]:
    counts: Counter[str] = Counter()
    for k in range(n):
        path = work / f"kill{k}.game"
        shutil.copyfile(base, path)
        writers = [_spawn(path, w, rng.getrandbits(32)) for w in range(rng.choice((1, 2, 2, 3, 3)))]
        span = (0.3, 1.0) if quick else (0.3, 2.5)
        acks = _run(writers, [rng.uniform(*span) for _ in writers], span[1] + 5)
        counts["trials"] += 1
        counts[f"writers_{len(writers)}"] += 1
        _check(path, acks, counts)
        for p in work.glob(f"kill{k}.game*"):
            p.unlink()
    return counts


def _tmpfs(mount: Path, size: int) -> bool:
    if os.geteuid() != 0:
        return False
    r = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(mount)],
        capture_output=True,
        check=False,
    )
    return r.returncode == 0


def full_trials(base: Path, work: Path, n: int, rng: random.Random) -> Counter[str]:
    counts: Counter[str] = Counter()
    size = base.stat().st_size
    for k in range(n):
        mount = work / f"disk{k}"
        mount.mkdir()
        tmpfs = k % 2 == 0 and _tmpfs(mount, size + rng.randrange(16, 160) * 1024)
        path = mount / "g.game"
        shutil.copyfile(base, path)
        kind = "tmpfs" if tmpfs else "rlimit-kill" if k % 4 == 1 else "rlimit-efbig"
        counts[f"full_{kind}"] += 1
        limit = None if tmpfs else size + rng.randrange(4, 160) * 1024
        writers = [
            _spawn(path, w, rng.getrandbits(32), limit, kind == "rlimit-kill", 40)
            for w in range(1 if not tmpfs else rng.choice((1, 2)))
        ]
        acks = _run(writers, [30.0 for _ in writers], 30.0)
        counts["trials"] += 1
        if tmpfs:  # on the full disk: opened, or refused for want of room, never "damaged"
            try:
                Game.open(path).journal.close()
                counts["opened_on_full_disk"] += 1
            except StoreWriteError:
                counts["refused_on_full_disk"] += 1
            except Exception as e:
                counts["damage_on_full_disk"] += 1
                print(f"  DAMAGE ON A FULL DISK: {type(e).__name__}: {e}", file=sys.stderr)
            subprocess.run(["mount", "-o", "remount,size=64m", str(mount)], check=True)
        g = _check(path, acks, counts)
        if g is not None:  # with room again, the game goes on
            try:
                again = Game.open(path)
                again.intervene("room again")
                again.journal.close()
                counts["went_on"] += 1
            except StrategiaError as e:
                counts["stuck"] += 1
                print(f"  STUCK {kind}: {e}", file=sys.stderr)
        if tmpfs and subprocess.run(["umount", str(mount)], check=False).returncode:
            counts["left_open"] += 1  # a file this process forgot to close
            subprocess.run(["umount", "-l", str(mount)], check=False)
        shutil.rmtree(mount, ignore_errors=True)
    return counts


def damage_trials(base: Path, work: Path, n: int, rng: random.Random) -> Counter[str]:
    counts: Counter[str] = Counter()
    original = Game.open(base)
    raw = base.read_bytes()
    header_at = raw.find(b"[scenario]")
    for k in range(n):
        data = bytearray(raw)
        how = ("flip", "flip", "flip", "header-row", "file-header", "cut")[k % 6]
        if how == "flip":
            for _ in range(rng.choice((1, 1, 2, 3))):
                data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        elif how == "header-row":
            data[header_at + rng.randrange(2000)] ^= 1 << rng.randrange(8)
        elif how == "file-header":
            data[rng.randrange(100)] ^= 1 << rng.randrange(8)
        else:
            del data[rng.randrange(len(data)) :]
        path = work / f"damaged{k}.game"
        path.write_bytes(bytes(data))
        counts["trials"] += 1
        counts[f"damage_{how}"] += 1
        outcome = _damaged(path, original, counts)
        counts[outcome] += 1
        if outcome == "reported" and not _recover(path, original, counts):
            counts[f"unrecoverable_{how}"] += 1
        for p in work.glob(f"damaged{k}.game*"):
            if p.is_dir():
                shutil.rmtree(p)
            else:
                p.unlink()
    return counts


def header_sweep(base: Path, work: Path) -> Counter[str]:
    """Every bit of SQLite's 100-byte file header flipped in turn: each must be harmless, or
    reported and then recovered whole."""
    counts: Counter[str] = Counter()
    original = Game.open(base)
    raw = base.read_bytes()
    for at in range(800):
        data = bytearray(raw)
        data[at // 8] ^= 1 << (at % 8)
        path = work / "sweep.game"
        path.write_bytes(bytes(data))
        counts["trials"] += 1
        outcome = _damaged(path, original, counts)
        counts[outcome] += 1
        if outcome == "reported" and not _recover(path, original, counts):
            counts["unrecoverable_header"] += 1
        for p in work.glob("sweep.game*"):
            shutil.rmtree(p) if p.is_dir() else p.unlink()
    return counts


def _damaged(path: Path, original: Game, counts: Counter[str]) -> str:
    """Open the damaged copy and read its whole journal (opening reads only the move in
    progress: earlier entries are checked when read)."""
    try:
        g = Game.open(path)
        try:
            entries = list(g.journal.entries)
            g.journal_text()
        except BaseException:
            g.journal.close()
            raise
    except StrategiaError as e:
        if PLACE.search(str(e)):
            return "reported"
        print(f"  UNPLACED: {e}", file=sys.stderr)
        return "unplaced"
    except Exception as e:  # a traceback: what must never happen
        print(f"  CRASHED: {type(e).__name__}: {e}", file=sys.stderr)
        return "crashed"
    same = entries == list(original.journal.entries) and g.state == original.state
    problems = list(g.journal.problems)
    g.journal.close()
    if not same:
        print(f"  SILENT: {path.name} opened as a different game", file=sys.stderr)
        return "silent"
    if problems:
        return "reported" if all(PLACE.search(str(p)) for p in problems) else "unplaced"
    return "harmless"


def _recover(path: Path, original: Game, counts: Counter[str]) -> bool:
    """Whether `recover` saved the header and a prefix of the entries."""
    try:
        g = Game.open(path, recover=True)
    except StrategiaError as e:
        counts["unrecoverable"] += 1
        if os.environ.get("TRIALS_VERBOSE"):
            print(f"  unrecoverable: {e}", file=sys.stderr)
        return False
    except Exception as e:
        counts["crashed"] += 1
        print(f"  CRASHED on recover: {type(e).__name__}: {e}", file=sys.stderr)
        return False
    kept = g.journal.entries
    if kept != original.journal.entries[: len(kept)]:
        counts["silent"] += 1
        print(f"  SILENT on recover: {path.name}", file=sys.stderr)
    else:
        counts["recovered"] += 1
        counts["entries_kept"] += len(kept) - 1
        counts["entries_lost"] += len(original.journal.entries) - len(kept)
    g.journal.close()
    return True


def base_game(work: Path) -> Path:
    """A game of the default scenario, two turns in, with notes: what the trials start from."""
    g = Game.new(DEFAULT, work / "base.game", level=2)
    play(g, 2)
    g.intervene("rain", Cell.parse("33,24"), 2)
    g.journal.close()
    return work / "base.game"


FAILURES = (
    "lost", "unopened", "replay", "silent", "unplaced", "crashed", "stuck", "writer_crashed",
    "writer_saw_damage", "damage_on_full_disk", "left_open", "unrecoverable_header",
)  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--kills", type=int)
    ap.add_argument("--full", type=int)
    ap.add_argument("--damage", type=int)
    ap.add_argument("--seed", type=int, default=17)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    kills = args.kills if args.kills is not None else 4 if args.quick else 210
    full = args.full if args.full is not None else 2 if args.quick else 40
    damage = args.damage if args.damage is not None else 18 if args.quick else 300
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="strategia-trials-") as tmp:
        work = Path(tmp)
        base = base_game(work)
        results: dict[str, Any] = {}
        for name, run in (
            ("kill", lambda: kill_trials(base, work, kills, rng, args.quick)),
            ("full", lambda: full_trials(base, work, full, rng)),
            ("damage", lambda: damage_trials(base, work, damage, rng)),
            ("header", lambda: header_sweep(base, work) if not args.quick else Counter()),
        ):
            t = time.monotonic()
            counts = run()
            results[name] = {**dict(sorted(counts.items())), "seconds": round(time.monotonic() - t)}
            print(f"{name}: {results[name]}", file=sys.stderr)
    failures = {f: sum(r.get(f, 0) for r in results.values()) for f in FAILURES}
    results["failures"] = failures
    results["seconds"] = round(time.monotonic() - started)
    if args.json:
        print(json.dumps(results, indent=1))
    else:
        for name, r in results.items():
            print(f"{name}: {r}")
    return 1 if any(failures.values()) else 0


if __name__ == "__main__":
    raise SystemExit(main())
