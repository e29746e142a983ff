"""A game's store: one SQLite database a game, its source of truth («журнал боевых действий»).

The file holds the header (the scenario's text, the level, the house rules' texts, the versions
of the engine and rules it was played with, the secret seed: kept twice, in two tables, so one
damaged copy leaves the other), the entries (orders and their results, ends of turns, questions
and answers, the mediator's interventions) and the snapshots of the whole state taken at every
End turn, which make opening a long game quick. Every row carries a CRC-32 of its content, so a
changed byte SQLite cannot see is still found and reported with its place.

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
"""

from __future__ import annotations

import datetime as dt
import json
import os
import sqlite3
import zlib
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from strategia.core.errors import Problem, StrategiaError

FORMAT = "strategia-game/2"  # the header's "format" in a store (a text journal: -journal/1)
APPLICATION_ID = 0x53545247  # "STRG", in the SQLite file's header
SCHEMA_VERSION = 1
BUSY_SECONDS = 60.0
MAGIC = b"SQLite format 3\x00"
_SCHEMA = """
CREATE TABLE header (copy INTEGER PRIMARY KEY, time TEXT NOT NULL, data TEXT NOT NULL,
                     crc TEXT NOT NULL);
CREATE TABLE header_copy (copy INTEGER PRIMARY KEY, time TEXT NOT NULL, data TEXT NOT NULL,
                          crc TEXT NOT NULL);
CREATE TABLE entries (seq INTEGER PRIMARY KEY, kind TEXT NOT NULL, time TEXT NOT NULL,
                      data TEXT NOT NULL, crc TEXT NOT NULL);
CREATE TABLE snapshots (seq INTEGER PRIMARY KEY, data BLOB NOT NULL, crc TEXT NOT NULL);
"""
HEADER_TABLES = ("header", "header_copy")


class StoreError(StrategiaError):
    """A game file that cannot be read or written: what is wrong and where."""

    def __init__(self, path: str | Path, problems: list[Problem], good: int | None = None) -> None:
        self.path = str(path)
        self.problems = problems
        self.good = good
        lines = "\n".join(f"  {p}" for p in problems)
        after = (
            f" after entry {good} (`strategia game replay --recover` keeps the {good} good "
            "entries and sets the file aside)"
            if good is not None
            else ""
        )
        super().__init__(f"{path}: the game file is damaged{after}\n{lines}")


class StoreWriteError(StrategiaError):
    """A command that could not be written (the disk is full, the game is locked too long):
    nothing of it was written and the game is as it was."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One entry of the journal; entry 1 is the game's header (kind "game")."""

    seq: int
    kind: str
    data: dict[str, Any]
    time: str = ""

    def body(self) -> dict[str, Any]:
        return {"seq": self.seq, "kind": self.kind, "time": self.time, "data": self.data}


def dumps(data: Any) -> str:
    """The JSON text a row keeps (compact, UTF-8 as is)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def row_crc(*parts: object) -> str:
    """The CRC-32 a row carries, of its fields as stored."""
    text = "\x1f".join(str(p) for p in parts)
    return f"{zlib.crc32(text.encode('utf-8', 'surrogatepass')):08x}"


def blob_crc(seq: int, blob: bytes) -> str:
    """The CRC-32 a snapshot carries, of its number and compressed bytes."""
    return f"{zlib.crc32(blob, zlib.crc32(str(seq).encode())):08x}"


def now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


def fsync_dir(path: Path) -> None:
    """Make a new name in `path`'s directory durable (a no-op where directories cannot be
    opened)."""
    with suppress(OSError):
        fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def connect(path: Path, readonly: bool = False) -> sqlite3.Connection:
    """A connection with the store's settings: autocommit (transactions are explicit), WAL,
    synchronous=FULL, a busy timeout, and b-tree cells checked as they are read."""
    uri = f"file:{path}?mode={'ro' if readonly else 'rw'}"
    conn = sqlite3.connect(
        uri, uri=True, timeout=BUSY_SECONDS, isolation_level=None, check_same_thread=False
    )
    conn.execute("PRAGMA cell_size_check = ON")
    if not readonly:
        conn.execute("PRAGMA synchronous = FULL")
    return conn


class GameStore:
    """An open game file: its header, its entries so far, and its snapshots.

    `entries` is kept in memory and brought up to date by `refresh` (and at the start of every
    `transaction`); `problems` lists damage the store worked around (one header copy, a
    snapshot): the game is whole, but `strategia game replay` reports it.
    """

    def __init__(self, path: Path, conn: sqlite3.Connection) -> None:
        self.path = path
        self._conn = conn
        self._entries: list[Entry] = []
        self._in_transaction = False
        self.problems: list[Problem] = []

    # --- creating and opening ------------------------------------------------------------------

    @classmethod
    def create(
        cls,
        path: str | Path,
        header: dict[str, Any],
        snapshot: dict[str, Any] | None = None,
        time: str | None = None,
    ) -> GameStore:
        """A new game file whose header is `header` (written at `time`, by default now; its
        first snapshot, after entry 1, `snapshot`); refuses to overwrite a file. The file
        appears whole or not at all."""
        path = Path(path)
        if path.exists():
            raise StrategiaError(f"{path}: a file is already there; choose another name")
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
        try:
            conn = sqlite3.connect(tmp, isolation_level=None)
            try:
                conn.execute("PRAGMA page_size = 4096")
                conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                conn.execute("PRAGMA journal_mode = WAL")
                conn.execute("PRAGMA synchronous = FULL")
                conn.execute("BEGIN IMMEDIATE")
                for statement in _SCHEMA.split(";"):
                    if statement.strip():
                        conn.execute(statement)
                text, time = dumps(header), time or now()
                for table in HEADER_TABLES:
                    conn.execute(
                        f"INSERT INTO {table} VALUES (1, ?, ?, ?)",
                        (time, text, row_crc(1, "game", time, text)),
                    )
                if snapshot is not None:
                    blob = zlib.compress(dumps(snapshot).encode("utf-8"), 6)
                    conn.execute(
                        "INSERT INTO snapshots VALUES (1, ?, ?)", (blob, blob_crc(1, blob))
                    )
                conn.execute("COMMIT")
                conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            finally:
                conn.close()
            fd = os.open(tmp, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
            try:
                os.link(tmp, path)
            except FileExistsError:
                raise StrategiaError(
                    f"{path}: a file is already there; choose another name"
                ) from None
            except OSError:  # a file system without hard links
                if path.exists():
                    raise StrategiaError(
                        f"{path}: a file is already there; choose another name"
                    ) from None
                os.replace(tmp, path)
            fsync_dir(path)
        except sqlite3.Error as e:
            raise StoreWriteError(
                f"{path}: the game could not be written ({e}); no game was created"
            ) from None
        except OSError as e:
            raise StoreWriteError(
                f"{path}: the game could not be written ({e.strerror or e}); no game was created"
            ) from None
        finally:
            for p in (tmp, Path(f"{tmp}-wal"), Path(f"{tmp}-shm")):
                with suppress(OSError):
                    p.unlink()
        return cls.open(path)

    @classmethod
    def open(cls, path: str | Path) -> GameStore:
        """An existing game file, its header and entries read and checked; a StoreError names
        every damage found (table and entry, or the file's page) if it cannot be read whole."""
        path = Path(path)
        _check_file(path)
        try:
            conn = connect(path)
        except sqlite3.Error as e:
            raise StoreError(path, [Problem(str(path), f"cannot be opened: {e}")]) from None
        store = cls(path, conn)
        try:
            store._check_schema()
            store._read_header()
            store._read_entries()
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
        return self._entries[0].data

    @property
    def entries(self) -> list[Entry]:
        """Every entry read so far, the header first (entry 1)."""
        return self._entries

    @property
    def last_seq(self) -> int:
        return self._entries[-1].seq

    def refresh(self) -> list[Entry]:
        """The entries other writers appended since this store last looked (also kept)."""
        return self._read_entries()

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
        except sqlite3.DatabaseError as e:
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
        mark = len(self._entries)
        with self._errors("beginning a command", write=True):
            self._conn.execute("BEGIN IMMEDIATE")
        self._in_transaction = True
        try:
            new = self._read_entries()
            mark = len(self._entries)
            yield new
            with self._errors("committing the command", write=True):
                self._conn.execute("COMMIT")
        except BaseException:
            with suppress(sqlite3.Error):
                self._conn.execute("ROLLBACK")
            del self._entries[mark:]
            raise
        finally:
            self._in_transaction = False

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
        self._entries.append(entry)
        return entry

    def put_snapshot(self, seq: int, data: dict[str, Any]) -> None:
        """Keep `data` as the snapshot after entry `seq` (in the current transaction)."""
        blob = zlib.compress(dumps(data).encode("utf-8"), 6)
        with self._errors(f"writing the snapshot after entry {seq}", write=True):
            self._conn.execute(
                "INSERT OR REPLACE INTO snapshots VALUES (?, ?, ?)",
                (seq, blob, blob_crc(seq, blob)),
            )

    def drop_snapshot(self, seq: int) -> None:
        with self._errors(f"dropping the snapshot after entry {seq}", write=True):
            self._conn.execute("DELETE FROM snapshots WHERE seq = ?", (seq,))

    # --- internals -----------------------------------------------------------------------------

    @contextmanager
    def _errors(self, doing: str, write: bool = False) -> Iterator[None]:
        """SQLite's errors as the store's: a full disk or a lock held too long is a write
        error (nothing written), anything else damage, with SQLite's own check of the file."""
        try:
            yield
        except sqlite3.OperationalError as e:
            text = str(e)
            if write and ("full" in text or "locked" in text or "busy" in text or "I/O" in text):
                why = {
                    "full": "the disk is full",
                    "locked": f"another program held the game for more than {BUSY_SECONDS:g} s",
                    "busy": f"another program held the game for more than {BUSY_SECONDS:g} s",
                }
                reason = next((v for k, v in why.items() if k in text), f"disk error: {text}")
                raise StoreWriteError(
                    f"{self.path}: {reason}; nothing of this command was written"
                ) from None
            raise StoreError(self.path, self._damage(f"{doing}: {text}")) from None
        except sqlite3.DatabaseError as e:
            raise StoreError(self.path, self._damage(f"{doing}: {e}")) from None

    def _damage(self, what: str) -> list[Problem]:
        """The problem met, and where SQLite's integrity check places the damage."""
        problems = [Problem(str(self.path), what)]
        try:
            rows = self._conn.execute("PRAGMA integrity_check(20)").fetchall()
        except sqlite3.Error as e:
            return [*problems, Problem(f"{self.path}: integrity check", str(e))]
        return problems + [
            Problem(f"{self.path}: {_place(r[0])}", r[0]) for r in rows if r[0] != "ok"
        ]

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
        missing = {*HEADER_TABLES, "entries", "snapshots"} - tables
        if missing:
            raise StoreError(
                self.path, [Problem(f"{self.path}: schema", f"missing tables {sorted(missing)}")]
            )

    def _read_header(self) -> None:
        found: list[tuple[str, str, str]] = []
        problems: list[Problem] = []
        for table in HEADER_TABLES:
            where = f"{self.path}: the header ({'copy' if table == 'header_copy' else 'first'})"
            try:
                rows = self._conn.execute(f"SELECT copy, time, data, crc FROM {table}").fetchall()
            except sqlite3.DatabaseError as e:
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
        self._entries = [Entry(1, "game", header, time)]

    def _read_entries(self) -> list[Entry]:
        """Read the entries after the last one known, checking each; returns them."""
        start = len(self._entries)
        last = self.last_seq
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
                if not isinstance(text, str) or crc != row_crc(seq, kind, time, text):
                    problems.append(Problem(where, "checksum mismatch: the entry was damaged"))
                    break
                try:
                    data = json.loads(text)
                except ValueError as e:
                    problems.append(Problem(where, f"unreadable: {e}"))
                    break
                self._entries.append(Entry(seq, str(kind), data, str(time)))
                last = seq
        except sqlite3.DatabaseError as e:
            problems = [*self._damage(f"reading the entries after entry {last}: {e}"), *problems]
        if problems:
            raise StoreError(self.path, problems, last)
        return self._entries[start:]


def _place(message: str) -> str:
    """Where an integrity-check message puts the damage ("page 5", "tree 3"...)."""
    words = message.replace(":", " ").split()
    for k, w in enumerate(words[:-1]):
        if w.lower() in ("page", "tree") and words[k + 1].rstrip(",").isdigit():
            return f"{w.lower()} {words[k + 1].rstrip(',')}"
    return "the file"


def _check_file(path: Path) -> None:
    """Refuse early what is not a game file at all, or an earlier version's text journal."""
    if not path.exists():
        raise StrategiaError(f"{path}: no such game file")
    try:
        with path.open("rb") as f:
            head = f.read(100)
    except OSError as e:
        raise StrategiaError(f"{path}: {e.strerror or e}") from None
    if head.lstrip()[:1] in (b"{", b"["):
        raise StrategiaError(
            f"{path}: a text journal (JSONL) of an earlier version; bring it into a game file "
            f"with `strategia game import {path} NEW.game`"
        )
    if len(head) < 100:
        raise StoreError(path, [Problem(f"{path}: bytes 0-{len(head)}", "too short for a game")])
    if head[:16] != MAGIC:
        raise StoreError(
            path, [Problem(f"{path}: bytes 0-15 (the file's header)", "not an SQLite database")]
        )


Journal = GameStore  # the first version's name
JournalError = StoreError
