"""A process that holds a game open the way a screen's kernel does, driven line by line.

    python benchmarks/holder.py game|console|team GAME [SIDE]

holds GAME as a plain `Game` (a script, a notebook), as the mediator's `Console` (its kernel)
or as a side's `TeamScreen` (a kernel of `strategia serve`), then reads commands as JSON lines
on stdin and answers each with a JSON line on stdout:

    {"do": "order", "text": "21 т.д. на 35,35"}
        -> {"ok": true, "seq": 12, "kind": "order", "crc": "..."}
    {"do": "end-turn"} | {"do": "note", "text": ...} | {"do": "ask", "text": ...}
    {"do": "refresh"} | {"do": "locks"} | {"do": "close"}

An answer with "seq" is an acknowledged command: its entry (number, kind, checksum of its data)
must be in the game whatever happens to this process afterwards. "locks" tells how many POSIX
locks this process holds on the game file itself (`/proc/locks`): SQLite's shared lock must be
among them as long as the game is open. The first line it prints is `{"ready": PID, "locks": N}`.
Used by tests/test_shared_game.py and benchmarks/crash_trials.py (the *shared* trials).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

from strategia.core.errors import StrategiaError
from strategia.game.game import Game
from strategia.game.store import dumps, row_crc


def locks_on(path: Path, pid: int | None = None) -> int:
    """How many POSIX locks process `pid` (this one) holds on the file at `path`: the most of
    three readings of `/proc/locks`. The kernel hands that list out a page at a time and other
    processes' locks come and go between the pages, so one reading can miss an entry (the
    likely cause of one `lock_lost` in a full test run, with the other worker's games locking
    beside the trial, which 42 runs of the trial alone did not repeat); a lock really lost stays
    lost, and three readings do not all miss it."""
    st = os.stat(path)
    dev = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}"
    pid = os.getpid() if pid is None else pid
    return max(_locks_in(str(pid), dev) for _ in range(3))


def _locks_in(pid: str, dev: str) -> int:
    n = 0
    with open("/proc/locks", encoding="ascii") as f:
        for line in f:
            parts = line.split()
            at = parts.index("POSIX") if "POSIX" in parts else -1
            if at >= 0 and parts[at + 3] == pid and parts[at + 4] == dev:
                n += 1
    return n


class Holder:
    """A game held as `kind` holds it, and the commands it is driven with."""

    def __init__(self, kind: str, path: Path, side: str = "") -> None:
        self.kind, self.path = kind, path
        self.screen: Any = None
        if kind == "console":
            from strategia.ui.console import Console

            self.screen = Console.open(path, games=path.parent / "holder-games")
            self.game: Game = self.screen.game
        elif kind == "team":
            from strategia.ui.team import TeamScreen

            self.screen = TeamScreen(Game.open(path), side or "red")
            self.game = self.screen.game
        else:
            self.game = Game.open(path)

    def do(self, cmd: dict[str, Any]) -> dict[str, Any]:
        what, text = cmd.get("do"), str(cmd.get("text", ""))
        if what == "locks":
            return {"ok": True, "locks": locks_on(self.path)}
        if what == "refresh":
            if self.screen is not None:
                self.screen.catch_up()
            else:
                self.game.refresh()
            return {"ok": True, "last": self.game.journal.last_seq}
        if what == "close":
            self.game.journal.close()
            return {"ok": True}
        before = self.game.journal.last_seq
        try:
            if what == "order" and self.kind == "team":
                self.screen.channel.order(text)
            elif what == "order":
                self.game.order(text)
            elif what == "end-turn":
                self.game.end_turn()
            elif what == "note":
                self.game.intervene(text)
            elif what == "ask":
                self.game.ask(str(cmd.get("side") or self.game.side), text)
            else:
                return {"ok": False, "error": f"unknown command {what!r}"}
        except StrategiaError as e:
            return {"ok": False, "error": str(e).splitlines()[0]}
        if self.screen is not None:
            self.screen.refresh()
        e = self.game.journal.entries[-1]
        assert e.seq > before
        return {"ok": True, "seq": e.seq, "kind": e.kind, "crc": row_crc(dumps(e.data))}


def main(argv: list[str]) -> int:
    kind, path = argv[0], Path(argv[1])
    holder = Holder(kind, path, argv[2] if len(argv) > 2 else "")
    out = sys.stdout
    out.write(json.dumps({"ready": os.getpid(), "locks": locks_on(path)}) + "\n")
    out.flush()
    for line in sys.stdin:
        if line.strip():
            out.write(json.dumps(holder.do(json.loads(line)), ensure_ascii=False) + "\n")
            out.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
