"""A game's store: one SQLite database a game, its source of truth («журнал боевых действий»).

The file holds the header (the scenario's text, the level, the house rules' texts, the versions
of the engine and rules it was played with, the secret seed: kept twice, in two tables, so one
damaged copy leaves the other), the entries (orders and their results, ends of turns, questions
and answers, the mediator's interventions) and the snapshots of the whole state taken at every
End turn, which make opening a long game quick. Every row carries a CRC-32 of its content, so a
changed byte SQLite cannot see is still found and reported with its place; the number of the
last entry is kept apart (`tail`), so entries that vanish from the end are missed too; and
opening runs SQLite's own check of the file's structure (`PRAGMA quick_check`).

What SQLite gives, and why the store relies on it rather than on its own file handling:

- *Atomic commands.* A command's entries (an order, or an End turn with its results and its
  snapshot) are written in one transaction: all or nothing, one sync however many rows.
- *Durability.* The database is in WAL mode with ``synchronous=FULL``: the write-ahead log is
  synced at every commit, so what a command returns is on disk. (``NORMAL`` would sync only at
  checkpoints: a power cut could then take back commands already acknowledged, which the
  mediator has shown to the players. A command is one sync; the cost is a few milliseconds.)
  SQLite also syncs the directory when it creates the log; the store syncs it after creating a
  game, which is written under a temporary name, synced, then linked into place.
- *Crashes and full disks.* A transaction torn by a crash or refused by a full disk is not in
  the log's committed part: the next open rolls it back without anyone's help.
- *Several writers.* Every write transaction begins with ``BEGIN IMMEDIATE``, which takes the
  database's write lock (other writers wait, up to `BUSY_SECONDS`); inside it the writer first
  reads what others appended (`transaction` yields those entries), so it always appends against
  the current state. Readers never block the writer, nor it them.

The store is a local file: WAL does not work over network file systems.

*The file and its log.* SQLite finds its write-ahead log (`NAME-wal`) by the file's name and
cannot tell it from another file's: a log left beside a name by a game removed, replaced or
moved while open would be read into whatever file is put there (a mix of two games), and a
file moved while a process holds it leaves that process's newest commits in the log at the old
name. So the file's page 2 carries a stamp (the game's identity, the file's, a nonce) that every
write transaction rewrites; opening compares the stamp seen through the log with the main
file's own, and refuses a log that is not the file's, a file another process holds under
another name, and a game whose newest commits lie in a log at the name it was moved from; no
game is made beside a leftover log; and a holder writes only into the file still at its name
(its inode compared before every write transaction). All in `strategia.game.pairing`.

*Not durable* (``durable=False``: a game played by the computer in a sweep, `strategia.sweep`):
the same file and the same checks, with ``synchronous=OFF`` and no count kept apart, so no
command waits for the disk; a crash may lose the game, which is played again. Closed, it is an
ordinary game file (SQLite copies its log into it), which `strategia game replay` opens.
"""

from __future__ import annotations

import json
import os
import sqlite3
import zlib
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from strategia.core.errors import Problem
from strategia.game import count, pairing
from strategia.game.entries import Entry, entry_of
from strategia.game.sqlite_file import (
    APPLICATION_ID,
    FORMAT,
    HEADER_TABLES,
    SCHEMA_VERSION,
    StoreError,
    StoreWriteError,
    blob_crc,
    check_file,
    connect,
    create_file,
    damage_report,
    dumps,
    header_damage,
    header_fields,
    is_damage,
    now,
    row_crc,
    stamp_text,
)
from strategia.game.store_read import EntryReader


class GameStore(EntryReader):
    """An open game file: its header, its entries so far, and its snapshots.

    Opening reads the header, the list of snapshots and the entries from the newest snapshot
    on (the move in progress), checked; the entries of the move in progress are kept in memory
    and brought up to date by `refresh` (and at the start of every `transaction`), any earlier
    one is read from the file when asked for (`entries`, `entry`, `between`: checked then).
    `problems` lists damage the store worked around (one header copy, a snapshot): the game is
    whole, but `strategia game replay` reports it.
    """

    def __init__(self, path: Path, conn: sqlite3.Connection, durable: bool = True) -> None:
        super().__init__(path, conn)
        self.durable = durable  # False: no sync per command, no count kept (see the module)
        self._in_transaction = False
        self.game_id = ""  # the header's checksum: whose the count kept apart is
        self.file_id = ""  # this file's own identity, in its stamp ("": a file made before it)
        self.acknowledged: int | None = None  # the count kept apart when opened
        self._where = os.path.abspath(path)  # where the file was opened: still there to write?
        self._key: tuple[int, int] | None = getattr(conn, "_held_key", None)

    # --- creating and opening ------------------------------------------------------------------

    @classmethod
    def create(
        cls,
        path: str | Path,
        header: dict[str, Any],
        time: str | None = None,
        durable: bool = True,
    ) -> GameStore:
        """A new game file whose header is `header` (written at `time`, by default now);
        refuses to overwrite a file, or to make one beside a log left there with no file
        (`pairing.refuse_leftovers`). The file appears whole or not at all. `durable=False`:
        its commands are not synced (see the module)."""
        pairing.refuse_leftovers(Path(path))
        create_file(Path(path), header, time)
        store = cls.open(path, durable=durable)
        store._record_count()
        return store

    @classmethod
    def open(cls, path: str | Path, durable: bool = True) -> GameStore:
        """An existing game file, its header and the entries from its newest snapshot on read
        and checked; a StoreError names every damage found (table and entry, or the file's
        page). The earlier entries are checked when read (`read_all` reads them all). The file
        is read through SQLite only (`file_access`: its locks must hold). A log that is not the
        file's is refused (`pairing.LogMismatch`), as is a file held under another name or
        whose newest commits lie at the name it was moved from (`pairing.MovedError`).
        `durable=False`: its commands are not synced (see the module)."""
        path = Path(path)
        if not path.exists() or path.stat().st_size < 100:
            check_file(path)
        counted = count.read(path)  # before the entries: the count never runs ahead of them
        main = pairing.main_identity(path)  # the file's own page 2, and another holder
        if main is not None:
            pairing.check_holder(path, main[2])
        try:
            conn = connect(path)
            conn.execute("PRAGMA application_id").fetchone()
        except sqlite3.Error as e:
            with suppress(UnboundLocalError):
                conn.close()
            if is_damage(e) or header_damage(path):
                check_file(path)  # not a game file at all: said so
                raise StoreError(path, damage_report(path, f"cannot be opened: {e}")) from None
            raise StoreWriteError.of(path, "cannot be opened", e) from None
        store = cls(path, conn, durable)
        if not durable:
            conn.execute("PRAGMA synchronous = OFF")
        try:
            store._check_schema()
            store._check_pair(main)
            store._check_structure()
            store._read_header()
            store._read_from_snapshot()
            store._check_count(counted)
            if store.acknowledged is None and durable and main is not None and store.file_id:
                pairing.orphan_log(path, (store.game_id, store.file_id), store.last_seq)
        except pairing.LogMismatch:
            pairing.close_leaving_log(conn, path)  # nothing of that log copied into the file
            raise
        except sqlite3.Error as e:
            conn.close()
            if is_damage(e) or header_damage(path):
                raise StoreError(path, damage_report(path, f"cannot be read: {e}")) from None
            raise StoreWriteError.of(path, "cannot be read", e) from None
        except BaseException:
            conn.close()
            raise
        return store

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> GameStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- reading -------------------------------------------------------------------------------

    @property
    def header(self) -> dict[str, Any]:
        return self._header.data

    @property
    def in_transaction(self) -> bool:
        """Whether a write transaction is open (what is appended now commits with it)."""
        return self._in_transaction

    def refresh(self) -> list[Entry]:
        """The entries other writers appended since this store last looked (also kept, as
        long as they are of the move in progress)."""
        if self._in_transaction:
            return self._read_entries()
        with self._errors("reading the entries"):
            self._conn.execute("BEGIN")
        try:
            new = self._read_entries()
        finally:
            with suppress(sqlite3.Error):
                self._conn.execute("COMMIT")
        self._trim()
        return new

    def snapshot_seqs(self) -> list[int]:
        """The entries after which a snapshot is kept, in order."""
        with self._errors("reading the snapshots"):
            return [int(r[0]) for r in self._conn.execute("SELECT seq FROM snapshots ORDER BY seq")]

    def snapshot(self, seq: int) -> dict[str, Any]:
        """The snapshot kept after entry `seq`, checked; a StoreError names it if damaged."""
        where = f"{self.path}: snapshot after entry {seq}"
        try:
            row = self._conn.execute(
                "SELECT data, crc FROM snapshots WHERE seq = ?", (seq,)
            ).fetchone()
        except sqlite3.Error as e:
            if not is_damage(e):
                raise StoreWriteError.of(where, "cannot be read", e) from None
            raise StoreError(self.path, [Problem(where, f"unreadable: {e}")]) from None
        if row is None:
            raise StoreError(self.path, [Problem(where, "missing")])
        blob, crc = row
        if not isinstance(blob, bytes) or crc != blob_crc(seq, blob):
            raise StoreError(self.path, [Problem(where, "checksum mismatch: damaged")])
        try:
            data = json.loads(zlib.decompress(blob).decode("utf-8"))
        except (zlib.error, UnicodeDecodeError, ValueError) as e:
            raise StoreError(self.path, [Problem(where, f"unreadable: {e}")]) from None
        if not isinstance(data, dict):
            raise StoreError(self.path, [Problem(where, "not a snapshot")])
        return data

    # --- writing -------------------------------------------------------------------------------

    @contextmanager
    def transaction(self) -> Iterator[list[Entry]]:
        """One write transaction: waits for other writers, yields the entries they appended
        since this store last looked, and commits what is appended inside it (or nothing)."""
        if self._in_transaction:
            yield []
            return
        mark = self._last
        with self._errors("beginning a command", write=True):
            self._conn.execute("BEGIN IMMEDIATE")
        self._in_transaction = True
        try:
            pairing.check_in_place(self.path, self._where, self._key)
            new = self._read_entries()
            mark = self._last
            changes = self._conn.total_changes
            yield new
            with self._errors("committing the command", write=True):
                if self._last > mark:
                    self._conn.execute(
                        "UPDATE tail SET last = ?, crc = ? WHERE id = 1",
                        (self._last, row_crc("tail", self._last)),
                    )
                if self.file_id and self._conn.total_changes > changes:
                    self._conn.execute(
                        "UPDATE stamp SET data = ? WHERE id = 1",
                        (stamp_text(self.game_id, self.file_id),),
                    )
                self._conn.execute("COMMIT")
        except BaseException:
            with suppress(sqlite3.Error):
                self._conn.execute("ROLLBACK")
            self._drop_after(mark)
            raise
        finally:
            self._in_transaction = False
        self._trim()
        if self._last > mark:
            self._record_count()

    def append(self, kind: str, data: dict[str, Any], time: str | None = None) -> Entry:
        """Write an entry (in the current transaction, or in one of its own) and return it."""
        if not self._in_transaction:
            with self.transaction():
                return self.append(kind, data, time)
        entry = Entry(self.last_seq + 1, kind, data, time or now())
        text = dumps(data)
        with self._errors(f"writing entry {entry.seq}", write=True):
            self._conn.execute(
                "INSERT INTO entries VALUES (?, ?, ?, ?, ?)",
                (entry.seq, kind, entry.time, text, row_crc(entry.seq, kind, entry.time, text)),
            )
        self._add(entry)
        return entry

    def put_snapshot(self, seq: int, data: dict[str, Any]) -> None:
        """Keep `data` as the snapshot after entry `seq` (in the current transaction, or in one
        of its own: every write is stamped, `pairing`)."""
        if not self._in_transaction:
            with self.transaction():
                return self.put_snapshot(seq, data)
        blob = zlib.compress(dumps(data).encode("utf-8"), 6)
        with self._errors(f"writing the snapshot after entry {seq}", write=True):
            self._conn.execute(
                "INSERT OR REPLACE INTO snapshots VALUES (?, ?, ?)",
                (seq, blob, blob_crc(seq, blob)),
            )

    def file_problems(self) -> list[Problem]:
        """What a whole check of the file adds to `problems` (for `game replay`): the fixed
        bytes of its header that SQLite does not show."""
        return [p for p in header_damage(self.path) if p not in self.problems]

    # --- internals -----------------------------------------------------------------------------

    def _record_count(self) -> None:
        """Keep apart that the entries up to the last are committed (a failure to is noted:
        the command is durable, only the check of a lost end is weaker). None is kept when
        the store is not durable."""
        if not self.durable:
            return
        try:
            count.record(self.path, self.game_id, self.last_seq)
        except OSError as e:
            where = str(count.count_path(self.path))
            if not any(p.where == where for p in self.problems):
                self.problems.append(Problem(where, f"cannot be written: {e.strerror or e}"))

    def _check_count(self, counted: list[tuple[str, int]]) -> None:
        """Fewer entries than were acknowledged is damage (the write-ahead log lost its end)."""
        kept = count.acknowledged(counted, self.game_id)
        self.acknowledged = kept
        if kept is not None and self.last_seq < kept:
            raise StoreError(
                self.path,
                [
                    Problem(
                        f"{self.path}: entry {self.last_seq + 1}",
                        f"entries {self.last_seq + 1} to {kept} were acknowledged but are "
                        f"missing ({count.count_path(self.path).name} counts {kept}): the "
                        "write-ahead log was damaged or lost",
                    )
                ],
                self.last_seq,
            )

    def _check_pair(self, main: tuple[set[tuple[str, str]], bool, int | None] | None) -> None:
        """The stamp seen through the log against the main file's own (`pairing.file_identity`);
        keeps the file's identity, to stamp what is written."""
        self.file_id = pairing.file_identity(self._conn, self.path, main, self.problems)

    def _check_schema(self) -> None:
        with self._errors("reading the file's header"):
            app = self._conn.execute("PRAGMA application_id").fetchone()[0]
            version = self._conn.execute("PRAGMA user_version").fetchone()[0]
            tables = {
                r[0]
                for r in self._conn.execute("SELECT name FROM sqlite_master WHERE type='table'")
            }
        where = f"{self.path}: bytes 60-71 (the file's header)"
        if app != APPLICATION_ID:
            raise StoreError(
                self.path, [Problem(where, "not a Strategia game (another SQLite database?)")]
            )
        if version != SCHEMA_VERSION:
            raise StoreError(
                self.path,
                [Problem(where, f"store version {version}, this program reads {SCHEMA_VERSION}")],
            )
        missing = {*HEADER_TABLES, "entries", "snapshots", "tail"} - tables
        if missing:
            raise StoreError(
                self.path, [Problem(f"{self.path}: schema", f"missing tables {sorted(missing)}")]
            )

    def _check_structure(self) -> None:
        """SQLite's check of every page of the file (b-trees, the free list)."""
        with self._errors("checking the file"):
            rows = self._conn.execute("PRAGMA quick_check(20)").fetchall()
        if rows != [("ok",)]:
            raise StoreError(self.path, self._damage(f"SQLite's check: {rows[0][0]}"))
        self.problems += header_fields(self._conn, self.path)

    def _read_header(self) -> None:
        found: list[tuple[str, str, str]] = []
        problems: list[Problem] = []
        for table in HEADER_TABLES:
            where = f"{self.path}: the header ({'copy' if table == 'header_copy' else 'first'})"
            try:
                rows = self._conn.execute(f"SELECT copy, time, data, crc FROM {table}").fetchall()
            except sqlite3.Error as e:
                if not is_damage(e):
                    raise StoreWriteError.of(where, "cannot be read", e) from None
                problems.append(Problem(where, f"unreadable: {e}"))
                continue
            if len(rows) != 1:
                problems.append(Problem(where, f"{len(rows)} rows, expected 1"))
                continue
            _, time, text, crc = rows[0]
            if not isinstance(text, str) or crc != row_crc(1, "game", time, text):
                problems.append(Problem(where, "checksum mismatch: damaged"))
                continue
            found.append((table, time, text))
            self.game_id = self.game_id or str(crc)
        if not found:
            raise StoreError(self.path, problems, None)
        if len(found) == 2 and found[0][1:] != found[1][1:]:
            problems.append(Problem(f"{self.path}: the header", "its two copies differ"))
        _, time, text = found[0]
        try:
            header = json.loads(text)
        except ValueError as e:
            raise StoreError(self.path, [*problems, Problem(str(self.path), str(e))]) from None
        if not isinstance(header, dict):
            raise StoreError(self.path, [Problem(f"{self.path}: the header", "not a table")])
        self.problems += problems
        self._header = Entry(1, "game", header, time)
        self._recent, self._last = [self._header], 1

    def _read_from_snapshot(self) -> None:
        """Read the entries from the newest snapshot's on (all, if none is kept after an
        entry), in one read of the file."""
        with self._errors("reading the entries"):
            self._conn.execute("BEGIN")
        try:
            with self._errors("reading the snapshots"):
                base = int(self._conn.execute("SELECT max(seq) FROM snapshots").fetchone()[0] or 1)
            if base > 1:
                self._recent, self._last = [], base - 1
            self._read_entries()
        finally:
            with suppress(sqlite3.Error):
                self._conn.execute("COMMIT")
        if self._last < base:
            where = f"{self.path}: entry {base}"
            raise StoreError(self.path, [Problem(where, "missing (a snapshot is kept after it)")])
        self._trim()

    def _read_entries(self) -> list[Entry]:
        """Read the entries after the last one known, checking each; returns them."""
        start = last = self._last
        new: list[Entry] = []
        problems: list[Problem] = []
        try:
            rows = self._conn.execute(
                "SELECT seq, kind, time, data, crc FROM entries WHERE seq > ? ORDER BY seq",
                (last,),
            ).fetchall()
            for seq, kind, time, text, crc in rows:
                where = f"{self.path}: entry {seq}"
                if seq != last + 1:
                    problems.append(Problem(where, f"entry {seq} where {last + 1} was expected"))
                    break
                got = entry_of(seq, (kind, time, text, crc), where)
                if isinstance(got, Problem):
                    problems.append(got)
                    break
                self._add(got)
                new.append(got)
                last = seq
            self.rows_read += len(new)
            if not problems:
                problems += self._check_tail(last)
        except sqlite3.Error as e:
            if not is_damage(e):
                self._drop_after(start)
                raise StoreWriteError.of(self.path, "cannot be read", e) from None
            problems = [*self._damage(f"reading the entries after entry {last}: {e}"), *problems]
        if problems:
            self._drop_after(start)
            raise StoreError(self.path, problems, last)
        return new

    def _check_tail(self, last: int) -> list[Problem]:
        """Entries missing from the end (the tail row knows the last one's number)."""
        row = self._conn.execute("SELECT last, crc FROM tail WHERE id = 1").fetchone()
        where = f"{self.path}: the tail (the last entry's number)"
        if row is None or row[1] != row_crc("tail", row[0]):
            if not any(p.where == where for p in self.problems):
                self.problems.append(Problem(where, "missing or damaged"))
            return []
        if row[0] != last:
            return [
                Problem(
                    f"{self.path}: entry {last + 1}",
                    f"entries {last + 1} to {row[0]} are missing (the file says {row[0]} entries)",
                )
            ]
        return []


Journal = GameStore  # the first version's name
JournalError = StoreError

__all__ = [
    "FORMAT",
    "Entry",
    "GameStore",
    "Journal",
    "JournalError",
    "StoreError",
    "StoreWriteError",
    "dumps",
    "entry_of",
    "row_crc",
]
