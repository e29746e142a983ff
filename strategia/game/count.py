"""The number of entries the store acknowledged, kept apart from the game file (`NAME-count`).

SQLite keeps the newest commands in its write-ahead log until it copies them into the file; a
bit flipped or a cut in the log's committed part makes it stop reading at the damage and open
the game as it was before, with no error. So once a command is committed, the number of its
last entry is recorded beside the game, and a game opened with fewer entries than that is
damaged, and said to be. The count is a lower bound: it is written after the commit it counts
(a crash between the two leaves it behind, never ahead), and only ever grows.

The file holds two slots, written in turn, each with its game's identity (the header's
checksum) and a checksum of its own, so a torn write leaves the other slot whole; writers take
turns with `flock` on it (not a POSIX lock: closing this file cannot touch SQLite's locks on
the game, and flock is the kernel's, not the store's).
"""

from __future__ import annotations

import fcntl
import os
import re
import zlib
from pathlib import Path

from strategia.game.sqlite_file import COUNT_SUFFIX, fsync_dir

SLOT = 64
_LINE = re.compile(rb"strategia-count/1 ([0-9a-f]{8}) ([0-9]{1,18}) ([0-9a-f]{8})\s*$")


def count_path(path: Path) -> Path:
    """Where the count of the game at `path` is kept."""
    return Path(f"{path}{COUNT_SUFFIX}")


def _crc(game_id: str, seq: int) -> str:
    return f"{zlib.crc32(f'{game_id} {seq}'.encode()):08x}"


def _slot(game_id: str, seq: int) -> bytes:
    line = f"strategia-count/1 {game_id} {seq} {_crc(game_id, seq)}".encode()
    return line.ljust(SLOT - 1) + b"\n"


def slots(raw: bytes) -> list[tuple[str, int]]:
    """The whole slots of a count file's bytes: (game id, last entry)."""
    out = []
    for k in range(2):
        m = _LINE.match(raw[k * SLOT : (k + 1) * SLOT])
        if m is not None:
            game_id, seq = m.group(1).decode(), int(m.group(2))
            if m.group(3).decode() == _crc(game_id, seq):
                out.append((game_id, seq))
    return out


def read(path: Path) -> list[tuple[str, int]]:
    """The slots kept for the game at `path` (none if there is no count file)."""
    try:
        with count_path(path).open("rb") as f:  # not the game file: its locks are untouched
            return slots(f.read(2 * SLOT))
    except OSError:
        return []


def acknowledged(found: list[tuple[str, int]], game_id: str) -> int | None:
    """The last entry acknowledged for game `game_id`, from its slots; None if none is its."""
    mine = [seq for gid, seq in found if gid == game_id]
    return max(mine) if mine else None


def record(path: Path, game_id: str, seq: int) -> None:
    """Record that entries up to `seq` of game `game_id` are committed (if more than kept)."""
    where = count_path(path)
    fd = os.open(where, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        raw = os.pread(fd, 2 * SLOT, 0)
        found = slots(raw)
        kept = acknowledged(found, game_id)
        if kept is not None and kept >= seq:
            return
        if kept is None:  # a new count (or another game's, left by a file removed by hand)
            os.ftruncate(fd, 0)
            os.pwrite(fd, _slot(game_id, seq) * 2, 0)
        else:
            os.pwrite(fd, _slot(game_id, seq), (seq % 2) * SLOT)
        os.fsync(fd)
        if not raw:
            fsync_dir(where)
    finally:
        os.close(fd)


__all__ = ["acknowledged", "count_path", "read", "record", "slots"]
