"""A game file's bytes, read without costing this process SQLite's locks on it.

On POSIX, closing *any* descriptor of a file drops every lock the process holds on that file,
including those SQLite holds through its own connections (SQLite's «How To Corrupt An SQLite
Database File», 2.2). A process that has a game open and reads the file's bytes by itself, even
once, is then invisible to the others: the next process to close its connection believes it is
the last, checkpoints the log and deletes it, and the holder's later commands go into a deleted
file. So every connection to a game file is made here (`connect_tracked`) and counted against
its file; and the file's bytes are read here only (`file_bytes`, `copy_file`, `probe`): in this
process when none of its connections is open on that file, else in a child process (or not at
all), whose descriptors and locks are its own.

Who else has a game open is asked of the kernel, through the locks SQLite itself holds while a
connection is open (a read lock on the database file's shared range, and one on a byte of its
`-shm` index): `fcntl`'s F_GETLK (POSIX: whether a lock would conflict, and whose) and, on
Linux, `/proc/locks` (every process's). They are SQLite's own, kept by the kernel and gone when
a process dies, so nothing here can go stale.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import sqlite3
import struct
import subprocess
import sys
import threading
import weakref
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
    """An SQLite connection counted, while open, among this process's holders of its file
    (until closed, or collected unclosed: SQLite closes it then, and its locks go with it)."""

    _held_key: tuple[int, int] | None = None
    _box: list[tuple[int, int] | None]

    def close(self) -> None:
        self._held_key = None
        try:
            super().close()
        finally:
            box = getattr(self, "_box", None)
            if box is not None:
                _release(box)


def _release(box: list[tuple[int, int] | None]) -> None:
    """Count a connection's file as no longer held by it (once)."""
    with _lock:
        key, box[0] = box[0], None
        if key is not None:
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
        conn._box = [key]
        weakref.finalize(conn, _release, conn._box)
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


def probe(path: Path, offset: int, size: int) -> tuple[bytes, int | None] | None:
    """`size` bytes of the file at `path` from `offset`, and whether another process has the
    file open through SQLite (a lock on it: its process id, 0 if the kernel does not say which;
    None if none). None when a connection of this process has the file open (then nothing is
    read: closing a descriptor of it here would drop that connection's locks)."""
    if held_here(path):
        return None
    fd = os.open(path, os.O_RDONLY)
    try:
        return os.pread(fd, size, offset), _conflict(fd)
    finally:
        os.close(fd)


def holders(path: Path, sides: tuple[str, ...] = ("-shm",)) -> list[int]:
    """The processes that have the game at `path` open through SQLite (locks on the file or on
    its index beside it, `path` + each of `sides`), by process id (this one's too, if it has;
    0 for one the kernel does not name); [] if none."""
    found: set[int] = set()
    locked = lock_owners([path, *(Path(f"{path}{s}") for s in sides)])
    for pids in locked or []:
        found |= pids
    if locked is None and held_here(path):  # else the kernel's list says whether it is
        found.add(os.getpid())
    if path.exists() and not held_here(path):
        with _no_error():
            fd = os.open(path, os.O_RDONLY)
            try:
                other = _conflict(fd)
            finally:
                os.close(fd)
            if other is not None and (other or not found):
                found.add(other)
    return sorted(found)


def lock_owners(paths: list[Path]) -> list[set[int]] | None:
    """For each of the files `paths`, the processes holding a lock on it (POSIX, OFD or
    flock; 0 for one the kernel does not name), as `/proc/locks` lists them (an empty set for
    a file that is not there); None where the system has no such list."""
    keys: list[str | None] = []
    for p in paths:
        try:
            st = os.stat(p)
        except OSError:
            keys.append(None)
            continue
        keys.append(f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}")
    best: list[set[int]] | None = None
    for _ in range(3):  # handed out a page at a time: one reading can miss an entry
        try:
            with open("/proc/locks", encoding="ascii") as f:  # not the game file: the kernel's
                text = f.read()
        except OSError:
            return None
        found: dict[str, set[int]] = {}
        for line in text.splitlines():
            parts = line.split()
            for k, word in enumerate(parts):
                if word in ("POSIX", "FLOCK", "OFDLCK"):
                    if len(parts) > k + 4 and parts[k + 3].lstrip("-").isdigit():
                        found.setdefault(parts[k + 4], set()).add(max(int(parts[k + 3]), 0))
                    break
        got = [set(found.get(key, ())) if key else set() for key in keys]
        best = got if best is None else [a | b for a, b in zip(best, got, strict=True)]
        if not any(keys):
            break
    return best


def open_name(key: tuple[int, int]) -> str | None:
    """Where the file this process has open as `key` (device, inode) is now: its path, ending
    in " (deleted)" if it was removed; None where the system does not tell."""
    fds = Path("/proc/self/fd")
    with _no_error():
        for link in fds.iterdir():
            with _no_error():
                st = os.stat(link)
                if (st.st_dev, st.st_ino) == key:
                    return os.readlink(link)
    return None


_FLOCK = {"linux": "hhqqi", "darwin": "qqihh"}


def _conflict(fd: int) -> int | None:
    """Whether another process holds a lock on the file of `fd` (F_GETLK for a write lock over
    the whole file): its process id (0 if not told), or None."""
    layout = _FLOCK.get(sys.platform)
    if layout is None:
        return None
    if layout == "hhqqi":
        ask = struct.pack(layout, fcntl.F_WRLCK, 0, 0, 0, 0)
    else:
        ask = struct.pack(layout, 0, 0, 0, fcntl.F_WRLCK, 0)
    try:
        got = struct.unpack(layout, fcntl.fcntl(fd, fcntl.F_GETLK, ask))
    except OSError:
        return None
    kind, pid = (got[0], got[4]) if layout == "hhqqi" else (got[3], got[2])
    if kind == fcntl.F_UNLCK:
        return None
    return max(int(pid), 0)


class _no_error:
    """Leave out what cannot be read (a file gone meanwhile, a process's list closed)."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: object, value: object, tb: object) -> bool:
        return isinstance(value, OSError)


def _last_line(raw: bytes) -> str:
    lines = raw.decode("utf-8", "replace").strip().splitlines()
    return lines[-1] if lines else "the reader failed"


__all__ = [
    "TrackedConnection",
    "connect_tracked",
    "copy_file",
    "file_bytes",
    "held_here",
    "holders",
    "lock_owners",
    "open_name",
    "probe",
]
