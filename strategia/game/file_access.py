"""A game file's bytes, read without costing this process SQLite's locks on it.

On POSIX, closing *any* descriptor of a file drops every lock the process holds on that file,
including those SQLite holds through its own connections (SQLite's «How To Corrupt An SQLite
Database File», 2.2). A process that has a game open and reads the file's bytes by itself, even
once, is then invisible to the others: the next process to close its connection believes it is
the last, checkpoints the log and deletes it, and the holder's later commands go into a deleted
file. So every connection to a game file is made here (`connect_tracked`) and counted against
its file; and the file's bytes are read here only (`file_bytes`, `copy_file`): in this process
when none of its connections is open on that file, else in a child process, whose descriptors
and locks are its own.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import threading
from collections import Counter
from pathlib import Path
from typing import Any

_held: Counter[tuple[int, int]] = Counter()  # (device, inode) -> connections open here
_lock = threading.Lock()
_CHILD_READ = (
    "import sys\n"
    "n = int(sys.argv[2])\n"
    "with open(sys.argv[1], 'rb') as f:\n"
    "    sys.stdout.buffer.write(f.read() if n < 0 else f.read(n))\n"
)
_CHILD_COPY = "import shutil, sys\nshutil.copyfile(sys.argv[1], sys.argv[2])\n"


def _key(path: Path) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino)


class TrackedConnection(sqlite3.Connection):
    """An SQLite connection counted, while open, among this process's holders of its file."""

    _held_key: tuple[int, int] | None = None

    def close(self) -> None:
        key, self._held_key = self._held_key, None
        try:
            super().close()
        finally:
            if key is not None:
                with _lock:
                    _held[key] -= 1
                    if _held[key] <= 0:
                        del _held[key]


def connect_tracked(path: Path, uri: str | None = None, **kwargs: Any) -> TrackedConnection:
    """`sqlite3.connect` (to `uri` if given, else to `path`), counted against `path`'s file
    until closed."""
    conn = sqlite3.connect(
        uri or str(path), factory=TrackedConnection, uri=uri is not None, **kwargs
    )
    assert isinstance(conn, TrackedConnection)
    key = _key(path)
    if key is not None:
        with _lock:
            _held[key] += 1
        conn._held_key = key
    return conn


def held_here(path: Path) -> bool:
    """Whether a connection of this process is open on `path`'s file."""
    key = _key(path)
    with _lock:
        return key is not None and key in _held


def file_bytes(path: Path, limit: int | None = None) -> bytes:
    """The bytes of `path` (its first `limit`); OSError as reading the file gives it."""
    path = Path(path)
    if not held_here(path):
        with path.open("rb") as f:
            return f.read() if limit is None else f.read(limit)
    n = -1 if limit is None else limit
    run = subprocess.run(
        [sys.executable, "-I", "-S", "-c", _CHILD_READ, str(path), str(n)],
        capture_output=True,
        check=False,
        timeout=120,
    )
    if run.returncode:
        raise OSError(f"{path}: cannot be read: {_last_line(run.stderr)}")
    return run.stdout


def copy_file(src: Path, dst: Path) -> None:
    """Copy `src` to `dst` (a new file) as `shutil.copyfile` does."""
    if not held_here(Path(src)):
        shutil.copyfile(src, dst)
        return
    run = subprocess.run(
        [sys.executable, "-I", "-S", "-c", _CHILD_COPY, str(src), str(dst)],
        capture_output=True,
        check=False,
        timeout=600,
    )
    if run.returncode:
        raise OSError(f"{src}: cannot be copied: {_last_line(run.stderr)}")


def _last_line(raw: bytes) -> str:
    lines = raw.decode("utf-8", "replace").strip().splitlines()
    return lines[-1] if lines else "the reader failed"


__all__ = ["TrackedConnection", "connect_tracked", "copy_file", "file_bytes", "held_here"]
