"""The game file as SQLite sees it: its schema, creating one whole, the checks of its bytes.

Every game file (and tactical game file) is an SQLite database in WAL mode with the schema
below, its own application id and schema version in the file's header, so another database or
a later version's file is refused with a clear error, as is an earlier version's text journal.

The file's first table (so always its page 2) is `stamp`: one row, the game's identity (the
header's checksum), the file's own identity (drawn when the file is made: an import, a fork or
a recovery of the same game is another file) and a nonce, rewritten by every write transaction
(`strategia.game.pairing`: how the file and its log are paired by it).
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import sqlite3
import zlib
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, Self

from strategia.core.errors import Problem, StrategiaError, os_error_ru
from strategia.core.i18n import Lang
from strategia.game.file_access import connect_tracked, file_bytes
from strategia.game.store_words import with_russian

FORMAT = "strategia-game/2"  # the header's "format" in a store (a text journal: -journal/1)
APPLICATION_ID = 0x53545247  # "STRG", in the SQLite file's header
SCHEMA_VERSION = 1
BUSY_SECONDS = 60.0
MAGIC = b"SQLite format 3\x00"
PAGE_SIZE = 4096  # every game file is created with it
COUNT_SUFFIX = "-count"  # the count of acknowledged entries, beside the game (game/count.py)
SIDE_FILES = ("-wal", "-shm", COUNT_SUFFIX)
STAMP_PAGE = 2  # the stamp table's page: the file's first table
_STAMP = re.compile(rb"strategia-stamp/1 ([0-9a-f]{8}) ([0-9a-f]{16}) ([0-9a-f]{12}) ([0-9a-f]{8})")
_SCHEMA = """
CREATE TABLE stamp (id INTEGER PRIMARY KEY, data TEXT NOT NULL);
CREATE TABLE header (copy INTEGER PRIMARY KEY, time TEXT NOT NULL, data TEXT NOT NULL,
                     crc TEXT NOT NULL);
CREATE TABLE header_copy (copy INTEGER PRIMARY KEY, time TEXT NOT NULL, data TEXT NOT NULL,
                          crc TEXT NOT NULL);
CREATE TABLE entries (seq INTEGER PRIMARY KEY, kind TEXT NOT NULL, time TEXT NOT NULL,
                      data TEXT NOT NULL, crc TEXT NOT NULL);
CREATE TABLE snapshots (seq INTEGER PRIMARY KEY, data BLOB NOT NULL, crc TEXT NOT NULL);
CREATE TABLE tail (id INTEGER PRIMARY KEY, last INTEGER NOT NULL, crc TEXT NOT NULL);
"""
HEADER_TABLES = ("header", "header_copy")


class StoreError(StrategiaError):
    """A damaged game file: every damage found, each with its place (`problems`), and the last
    good entry if the entries are good up to one (`good`)."""

    def __init__(self, path: str | Path, problems: list[Problem], good: int | None = None) -> None:
        self.path = str(path)
        self.problems = problems = [with_russian(p, str(path)) for p in problems]
        self.good = good
        lines = "\n".join(f"  {p}" for p in problems)
        lines_ru = "\n".join(f"  {p.say('ru')}" for p in problems)
        after = (
            f" after entry {good} (`strategia game replay --recover` keeps the {good} good "
            "entries and sets the file aside)"
            if good is not None
            else " (`strategia game replay --recover` saves what can be read and sets the file "
            "aside)"
        )
        after_ru = (
            f" после записи {good} (`strategia game replay --recover` сохранит {good} целых "
            "записей, а поврежденный файл отложит)"
            if good is not None
            else " (`strategia game replay --recover` сохранит то, что можно прочитать, а "
            "поврежденный файл отложит)"
        )
        super().__init__(
            f"{path}: the game file is damaged{after}\n{lines}",
            ru=f"{path}: файл игры поврежден{after_ru}\n{lines_ru}",
        )


class StoreWriteError(StrategiaError):
    """A game file that cannot be written (or read) now: the disk is full, another program
    held it too long, an I/O error. Nothing of the command was written; the file is whole."""

    @classmethod
    def of(cls, where: str | Path, doing: str, e: sqlite3.Error, write: bool = False) -> Self:
        """SQLite's error `e` met while `doing` (in English) something to the file `where`."""
        done = ("; nothing of this command was written", "; из этой команды ничего не записано")
        verb = "записать" if write else "прочитать"
        return cls(
            f"{where}: {doing}: {reason(e)}{done[0] if write else ''}",
            ru=f"{where}: файл игры не удалось {verb}: {reason(e, 'ru')}{done[1] if write else ''}",
        )


_DAMAGE = {11, 26}  # SQLITE_CORRUPT, SQLITE_NOTADB
_REASONS = {
    13: ("the disk is full", "диск заполнен"),
    5: (f"another program held the game for more than {BUSY_SECONDS:g} s",
        f"другая программа держала игру дольше {BUSY_SECONDS:g} с"),
    6: (f"another program held the game for more than {BUSY_SECONDS:g} s",
        f"другая программа держала игру дольше {BUSY_SECONDS:g} с"),
    14: ("the file or its directory cannot be opened (the disk full, or not writable?)",
         "файл или его папку нельзя открыть (диск заполнен или запись запрещена?)"),
    8: ("the file is read-only", "файл только для чтения"),
    3: ("permission denied", "нет доступа"),
    10: ("disk I/O error (is the disk full?)", "ошибка ввода-вывода диска (диск заполнен?)"),
}  # fmt: skip


def is_damage(e: sqlite3.Error) -> bool:
    """Whether SQLite's error means the file is damaged (not: full, busy, unwritable)."""
    code = getattr(e, "sqlite_errorcode", None)
    if code is None:
        return not isinstance(e, sqlite3.OperationalError)
    return (int(code) & 0xFF) in _DAMAGE


def reason(e: sqlite3.Error, lang: Lang = "en") -> str:
    """Why SQLite could not read or write, in words."""
    code = getattr(e, "sqlite_errorcode", None)
    known = _REASONS.get(int(code) & 0xFF) if code is not None else None
    if known is None:
        return str(e) if lang == "en" else "ошибка SQLite" + (f" (код {code})" if code else "")
    return known[lang == "ru"]


def dumps(data: Any) -> str:
    """The JSON text a row keeps (compact, UTF-8 as is; escaped where a text holds what
    UTF-8 cannot, a lone surrogate)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(data, ensure_ascii=True, separators=(",", ":"))
    return text


def read_text(raw: bytes) -> str:
    """A stored text as read back: bytes that are not UTF-8 (damage) kept, as escapes, for the
    checksum to find, never an error."""
    return raw.decode("utf-8", "surrogateescape")


def row_crc(*parts: object) -> str:
    """The CRC-32 a row carries, of its fields as stored."""
    text = "\x1f".join(str(p) for p in parts)
    return f"{zlib.crc32(text.encode('utf-8', 'surrogateescape')):08x}"


def blob_crc(seq: int, blob: bytes) -> str:
    """The CRC-32 a snapshot carries, of its number and compressed bytes."""
    return f"{zlib.crc32(blob, zlib.crc32(str(seq).encode())):08x}"


def stamp_text(game_id: str, file_id: str) -> str:
    """The stamp row's text: the game's and the file's identity, a fresh nonce (so that every
    write transaction rewrites the stamp's page: SQLite leaves a row written unchanged alone),
    and a checksum. Always of the same length."""
    body = f"{game_id} {file_id} {os.urandom(6).hex()}"
    return f"strategia-stamp/1 {body} {zlib.crc32(body.encode()):08x}"


def stamps_in(raw: bytes) -> set[tuple[str, str]]:
    """The identities (game, file) of the whole stamps in `raw` (a page's bytes, or a stamp
    row's text encoded)."""
    out = set()
    for m in _STAMP.finditer(raw):
        game_id, file_id, nonce, crc = (g.decode() for g in m.groups())
        body = f"{game_id} {file_id} {nonce}"
        if crc == f"{zlib.crc32(body.encode()):08x}":
            out.add((game_id, file_id))
    return out


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


def remove_file(path: Path) -> None:
    """Remove a game file that was not made whole, with the files beside it."""
    for p in (path, *(Path(f"{path}{ext}") for ext in SIDE_FILES)):
        with suppress(OSError):
            p.unlink()


def connect(path: Path, readonly: bool = False, salvage: bool = False) -> sqlite3.Connection:
    """A connection with the store's settings: autocommit (transactions are explicit), WAL,
    synchronous=FULL, a busy timeout, and b-tree cells checked as they are read. `salvage`:
    to read what can be read of a damaged file (a schema entry that is wrong does not stop
    the other tables from being read)."""
    uri = f"file:{path}?mode={'ro' if readonly else 'rw'}"
    conn = connect_tracked(
        path, uri, timeout=BUSY_SECONDS, isolation_level=None, check_same_thread=False
    )
    conn.text_factory = read_text
    try:
        if salvage:
            conn.execute("PRAGMA writable_schema = ON")
        conn.execute("PRAGMA cell_size_check = ON")
        if not readonly:
            conn.execute("PRAGMA synchronous = FULL")
    except BaseException:  # a file SQLite cannot read: closed here, its locks not kept
        conn.close()
        raise
    return conn


def create_file(path: Path, header: dict[str, Any], time: str | None = None) -> None:
    """Write a new game file: under a temporary name, synced, then linked into place (never
    over an existing file) and the directory synced."""
    path = Path(path)
    if path.exists():
        raise StrategiaError(
            f"{path}: a file is already there; choose another name",
            ru=f"{path}: такой файл уже есть; выберите другое имя",
        )
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
    try:
        conn = connect_tracked(tmp, isolation_level=None)
        try:
            conn.execute(f"PRAGMA page_size = {PAGE_SIZE}")
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
            conn.execute("INSERT INTO tail VALUES (1, 1, ?)", (row_crc("tail", 1),))
            game_id = row_crc(1, "game", time, text)
            conn.execute(
                "INSERT INTO stamp VALUES (1, ?)", (stamp_text(game_id, os.urandom(8).hex()),)
            )
            root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'stamp'")
            assert root.fetchone()[0] == STAMP_PAGE
            conn.execute("COMMIT")
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            conn.close()
        fd = os.open(tmp, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        with suppress(OSError):  # another game's count, left by a file removed by hand
            Path(f"{path}{COUNT_SUFFIX}").unlink()
        try:
            os.link(tmp, path)
        except FileExistsError:
            raise StrategiaError(
                f"{path}: a file is already there; choose another name",
                ru=f"{path}: такой файл уже есть; выберите другое имя",
            ) from None
        except OSError:  # a file system without hard links
            if path.exists():
                raise StrategiaError(
                    f"{path}: a file is already there; choose another name",
                    ru=f"{path}: такой файл уже есть; выберите другое имя",
                ) from None
            os.replace(tmp, path)
        fsync_dir(path)
    except sqlite3.Error as e:
        raise StoreWriteError(
            f"{path}: the game could not be written ({reason(e)}); no game was created",
            ru=f"{path}: игру не удалось записать ({reason(e, 'ru')}); игра не создана",
        ) from None
    except OSError as e:
        raise StoreWriteError(
            f"{path}: the game could not be written ({e.strerror or e}); no game was created",
            ru=f"{path}: игру не удалось записать ({e.strerror or e}); игра не создана",
        ) from None
    finally:
        for p in (tmp, Path(f"{tmp}-wal"), Path(f"{tmp}-shm")):
            with suppress(OSError):
                p.unlink()


def place(message: str) -> str:
    """Where an integrity-check message puts the damage ("page 5", "tree 3"...)."""
    words = message.replace(":", " ").split()
    for k, w in enumerate(words[:-1]):
        if w.lower() in ("page", "tree") and words[k + 1].rstrip(",").isdigit():
            return f"{w.lower()} {words[k + 1].rstrip(',')}"
    return "the file"


def check_file(path: Path) -> None:
    """Refuse early what is not a game file at all, or an earlier version's text journal."""
    if not path.exists():
        raise StrategiaError(f"{path}: no such game file", ru=f"{path}: нет такого файла игры")
    try:
        head = file_bytes(path, 100)
    except OSError as e:
        raise StrategiaError(f"{path}: {e.strerror or e}", ru=f"{path}: {os_error_ru(e)}") from None
    if re.match(rb'\s*(\{\s*"|\[\s*[{\]])', head):
        raise StrategiaError(
            f"{path}: a text journal (JSONL) of an earlier version; bring it into a game file "
            f"with `strategia game import {path} NEW.game`",
            ru=f"{path}: текстовый журнал (JSONL) прежней версии; перенесите его в файл игры "
            f"командой `strategia game import {path} NEW.game`",
        )
    if len(head) < 100:
        raise StoreError(path, [Problem(f"{path}: bytes 0-{len(head)}", "too short for a game")])
    if head[:16] != MAGIC:
        raise StoreError(
            path, [Problem(f"{path}: bytes 0-15 (the file's header)", "not an SQLite database")]
        )


def fixed_header(head: bytes, size: int) -> bytes:
    """The first 100 bytes a game file of `size` bytes has: `head` with every field a game
    file always has the same value in written back (magic, page size, WAL, encoding, the
    application id and schema version, the reserved bytes...)."""
    fixed = bytearray(head)
    fixed[0:16] = MAGIC
    fixed[16:18] = PAGE_SIZE.to_bytes(2, "big")
    fixed[18:24] = bytes((2, 2, 0, 64, 32, 32))
    fixed[44:48] = (4).to_bytes(4, "big")
    fixed[52:60] = bytes(4) + (1).to_bytes(4, "big")
    fixed[60:64] = SCHEMA_VERSION.to_bytes(4, "big")
    fixed[64:72] = bytes(4) + APPLICATION_ID.to_bytes(4, "big")
    fixed[72:92] = bytes(20)
    return bytes(fixed)


def header_damage(path: Path) -> list[Problem]:
    """The fixed fields of the file's first 100 bytes that are not what they must be."""
    try:
        size = path.stat().st_size
        head = file_bytes(path, 100)
    except OSError:
        return []
    if len(head) < 100:
        return [Problem(f"{path}: bytes 0-{len(head)}", "too short for a game file")]
    fixed = fixed_header(head, size)
    wrong = [k for k in range(100) if head[k] != fixed[k]]
    if not wrong:
        return []
    return [
        Problem(
            f"{path}: bytes {wrong[0]}-{wrong[-1]} (the file's header)",
            f"{len(wrong)} byte(s) of fields every game file has alike are changed",
        )
    ]


def header_fields(conn: sqlite3.Connection, path: Path) -> list[Problem]:
    """The fixed fields of the file's header that SQLite shows (page size, log, encoding,
    vacuum) and that are not what every game file has, read through the connection itself."""
    pragmas = {"page_size": PAGE_SIZE, "journal_mode": "wal", "encoding": "UTF-8",
               "auto_vacuum": 0}  # fmt: skip
    wrong = []
    for name, expected in pragmas.items():
        got = conn.execute(f"PRAGMA {name}").fetchone()[0]
        if got != expected:
            wrong.append(f"{name} {got!r}, expected {expected!r}")
    if not wrong:
        return []
    what = f"fields every game file has alike are changed: {'; '.join(wrong)}"
    return [Problem(f"{path}: the file's header", what)]


def damage_report(path: Path, what: str, conn: sqlite3.Connection | None = None) -> list[Problem]:
    """What went wrong and where: the file's header, a file cut short, the pages SQLite's
    integrity check names, else the table (and entry) that cannot be read."""
    problems = [Problem(str(path), what), *header_damage(path)]
    try:
        size = path.stat().st_size
        head = file_bytes(path, 100)
    except OSError:
        return problems
    if size % PAGE_SIZE:
        at = size - size % PAGE_SIZE
        problems.append(Problem(f"{path}: bytes {at}-{size}", "cut short within a page"))
    pages, valid = int.from_bytes(head[28:32], "big"), head[24:28] == head[92:96]
    if valid and pages * PAGE_SIZE > size:
        problems.append(
            Problem(f"{path}: pages {size // PAGE_SIZE + 1}-{pages}", "missing: cut short")
        )
    if len(problems) > 1:
        return problems
    checked: list[str] = []
    with suppress(sqlite3.Error), _using(conn, path) as c:
        checked = [str(r[0]) for r in c.execute("PRAGMA integrity_check(20)").fetchall()]
    found = [
        Problem(f"{path}: {place(r)}", r) for r in checked if r != "ok" and place(r) != "the file"
    ]
    if not found:
        try:
            with _using(None, path, salvage=True) as c:
                found = locate(path, c)
        except sqlite3.Error as e:
            found = [Problem(f"{path}: page 1 (the file's schema)", f"unreadable: {e}")]
    return problems + (
        found or [Problem(f"{path}: page 1 (the file's schema)", "SQLite cannot read it")]
    )


@contextmanager
def _using(
    conn: sqlite3.Connection | None, path: Path, salvage: bool = False
) -> Iterator[sqlite3.Connection]:
    """`conn`, or a read-only connection of its own, closed after."""
    if conn is not None:
        yield conn
        return
    own = connect(path, readonly=True, salvage=salvage)
    try:
        yield own
    finally:
        own.close()


def locate(path: Path, conn: sqlite3.Connection) -> list[Problem]:
    """The tables SQLite cannot read whole, and in the entries the first one it cannot read."""
    try:
        tables = conn.execute("SELECT name, rootpage FROM sqlite_master WHERE type='table'")
        roots = [(str(n), int(r)) for n, r in tables.fetchall()]
    except sqlite3.Error as e:
        return [Problem(f"{path}: page 1 (the file's schema)", f"unreadable: {e}")]
    out = []
    for name, root in roots:
        try:
            conn.execute(f'SELECT * FROM "{name}"').fetchall()
        except sqlite3.Error as e:
            where = f"table {name} (pages from {root})"
            if name == "entries":
                where = f"{_first_unreadable(conn)}, {where}"
            out.append(Problem(f"{path}: {where}", f"unreadable: {e}"))
    return out


def _first_unreadable(conn: sqlite3.Connection) -> str:
    seq = 2
    while seq < 10_000_000:
        try:
            if conn.execute("SELECT seq FROM entries WHERE seq = ?", (seq,)).fetchone() is None:
                return f"after entry {seq - 1}"
        except sqlite3.Error:
            return f"entry {seq}"
        seq += 1
    return "the entries"
