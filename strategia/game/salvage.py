"""Salvaging a damaged game file: the header and the entries up to the first damage.

Refused while any process has the game open (`pairing.refuse_held`: it would go on writing
into the file set aside). The damaged file (with its write-ahead log) is set aside as
`NAME.damaged` and read from a copy, so nothing is lost if more can be saved by hand later; a
log that is not the file's (`pairing.check_pair`) is kept aside with it but not read. The
copy's SQLite file header has its fixed fields written back first (a flipped byte there makes
SQLite refuse the whole file); then each row is read on its own, so one damaged page costs
only the rows on it, and each row's checksum is checked. The game is then rebuilt from what
was saved (`Game.open(recover=True)`).
"""

from __future__ import annotations

import json
import os
import sqlite3
import tempfile
from contextlib import suppress
from pathlib import Path

from strategia.core.errors import Problem
from strategia.game import pairing
from strategia.game.file_access import copy_file
from strategia.game.sqlite_file import (
    COUNT_SUFFIX,
    HEADER_TABLES,
    PAGE_SIZE,
    SIDE_FILES,
    connect,
    fixed_header,
    fsync_dir,
    header_damage,
    row_crc,
)
from strategia.game.store import Entry, entry_of


def salvage(path: Path) -> tuple[Entry | None, list[Entry], list[Problem], Path]:
    """Set the damaged `path` aside and read what is good in it: the header entry (None if both
    copies are lost), the entries after it up to the first damage, the problems, and where the
    damaged file now is."""
    pairing.refuse_held(path, ("recovery", "восстановление"))
    aside = _free_name(path.with_name(path.name + ".damaged"))
    os.replace(path, aside)
    for ext in SIDE_FILES:  # the log and the count go with it; the index is rebuilt
        side = Path(f"{path}{ext}")
        if side.exists():
            if ext != "-shm":
                os.replace(side, Path(f"{aside}{ext}"))
            else:
                side.unlink()
    fsync_dir(path)
    problems: list[Problem] = []
    with tempfile.TemporaryDirectory(dir=path.parent, prefix=f".{path.name}.") as tmp:
        copy = Path(tmp) / "game"
        copy_file(aside, copy)  # the damaged file may be open here still: not read by hand
        if Path(f"{aside}-wal").exists():
            copy_file(Path(f"{aside}-wal"), Path(f"{copy}-wal"))
        problems += _repair_file_header(copy, aside)
        header, entries = None, []
        try:
            conn = _paired(copy, aside, problems)
        except sqlite3.Error as e:
            problems.append(Problem(str(aside), f"cannot be opened: {e}"))
        else:
            try:
                header = _header(conn, aside, problems)
                if header is not None:
                    entries = _entries(conn, aside, problems)
            finally:
                conn.close()
    if header is None:
        put_back(aside, path)
        problems.append(Problem(str(path), "no copy of the header could be read: nothing saved"))
    return header, entries, problems, aside


def _paired(copy: Path, shown: Path, problems: list[Problem]) -> sqlite3.Connection:
    """A connection to the copy, through its log only if the log is the file's (else the log
    is left out, the file read alone)."""
    main = pairing.main_identity(copy)
    conn = connect(copy, salvage=True)
    try:
        seen, stamped = pairing.seen_identity(conn)
        pairing.check_pair(copy, main, seen, stamped)
    except sqlite3.Error:
        return conn
    except pairing.LogMismatch:
        pairing.close_leaving_log(conn, copy)
        for ext in ("-wal", "-shm"):
            Path(f"{copy}{ext}").unlink(missing_ok=True)
        problems.append(
            Problem(
                f"{shown}-wal",
                "another file's log, not read: the game is saved from the file alone",
                ru="лог другого файла, не прочитан: игра сохранена по одному файлу",
            )
        )
        return connect(copy, salvage=True)
    return conn


def put_back(aside: Path, path: Path) -> None:
    """Put the damaged file set aside back where it was, with its log and its count."""
    os.replace(aside, path)
    for ext in ("-wal", COUNT_SUFFIX):
        with suppress(OSError):
            os.replace(Path(f"{aside}{ext}"), Path(f"{path}{ext}"))


def _free_name(path: Path) -> Path:
    n, out = 1, path
    while out.exists():
        n += 1
        out = path.with_name(f"{path.name}.{n}")
    return out


def _repair_file_header(copy: Path, shown: Path) -> list[Problem]:
    """Write back the fixed fields of the SQLite header (bytes 0-99) a game file always has."""
    problems = [Problem(str(shown).join(str(p.where).rsplit(str(copy), 1)), p.message)
                for p in header_damage(copy)]  # fmt: skip
    size = copy.stat().st_size
    if size < 100:
        return problems
    with copy.open("r+b") as f:  # not the game file: a copy no connection has open
        head = f.read(100)
        fixed = bytearray(fixed_header(head, size))
        fixed[28:32] = (size // PAGE_SIZE).to_bytes(4, "big")
        if fixed != head:
            f.seek(0)
            f.write(fixed)
    return problems


def _header(conn: sqlite3.Connection, shown: Path, problems: list[Problem]) -> Entry | None:
    found: Entry | None = None
    for table in HEADER_TABLES:
        where = f"{shown}: the header ({'copy' if table == 'header_copy' else 'first'})"
        try:
            row = conn.execute(f"SELECT time, data, crc FROM {table} WHERE copy = 1").fetchone()
        except sqlite3.Error as e:
            problems.append(Problem(where, f"unreadable: {e}"))
            continue
        if row is None:
            problems.append(Problem(where, "missing"))
            continue
        time, text, crc = row
        if not isinstance(text, str) or crc != row_crc(1, "game", time, text):
            problems.append(Problem(where, "checksum mismatch: damaged"))
            continue
        try:
            data = json.loads(text)
        except ValueError as e:
            problems.append(Problem(where, f"unreadable: {e}"))
            continue
        if found is None and isinstance(data, dict):
            found = Entry(1, "game", data, str(time))
    return found


def _entries(conn: sqlite3.Connection, shown: Path, problems: list[Problem]) -> list[Entry]:
    """The entries 2, 3, ... read one by one, up to the first missing or damaged one."""
    out: list[Entry] = []
    seq = 2
    while True:
        where = f"{shown}: entry {seq}"
        try:
            row = conn.execute(
                "SELECT kind, time, data, crc FROM entries WHERE seq = ?", (seq,)
            ).fetchone()
        except sqlite3.Error as e:
            problems.append(Problem(where, f"unreadable: {e}"))
            break
        if row is None:
            break
        got = entry_of(seq, tuple(row), where)
        if isinstance(got, Problem):
            problems.append(got)
            break
        out.append(got)
        seq += 1
    try:
        more = conn.execute("SELECT count(*) FROM entries WHERE seq > ?", (seq,)).fetchone()[0]
    except sqlite3.Error:
        more = None
    if problems and more:
        problems.append(
            Problem(str(shown), f"{more} later entries are not kept (they follow the damage)")
        )
    return out
