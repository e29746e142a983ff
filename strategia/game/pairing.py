"""A game file and its log, paired by the game's identity; a file moved from under its holder.

SQLite keeps a game's newest commits in its write-ahead log, `NAME-wal`, and its index of that
log in `NAME-shm`, found by the game file's *name*. It cannot tell its log from another file's:
the log's header and frames carry checksums and salts of their own, nothing of the database
they belong to. So whatever log lies beside `NAME` when it is opened is read as this file's
newest pages, and, when the last connection closes, copied into it. What went wrong that way:

- a kernel killed leaves `war.game-wal`; `rm war.game`, then a new game made at `war.game`
  opened as the old one (the new file's pages overlaid with the old log's);
- `cp other.game war.game` over such a log opened a mix of the two games;
- `mv war.game x.game` while another process held it: `x.game` opened without the commands
  that process wrote, which are in `war.game-wal`; and the holder went on writing into a file
  no longer at its name.

What the store does about it (each refusal says what happened and what to do):

1. *No game is made beside a leftover log* (`refuse_leftovers`): a `-wal` or `-shm` with no
   game file beside it is the log of a game removed or moved while open; the new game would be
   read through it. It is named, and the holder if a process still has it open.
2. *Every write transaction stamps the file* (`sqlite_file.stamp_text`, the store's
   `transaction`): the stamp table's one row (always the file's page 2) holds the game's
   identity (the header's checksum), the file's (drawn when the file is made) and a nonce,
   rewritten at each commit, so every commit in a log holds page 2 with the identity of the
   file that wrote it.
3. *On opening, the identity seen through the log is compared with the main file's alone*
   (`check_pair`): page 2 of the file itself is read by hand (`file_access.probe`, only where no
   connection of this process has the file open), the stamp through SQLite. A log that is not
   this file's is refused (`LogMismatch`: nothing read, and the connection closed so that SQLite
   copies nothing of that log into the file).
4. *A file held by another process under another name is refused* (`check_holder`): every
   connection holds SQLite's lock on the database file and one on the `-shm` index beside the
   name it opened; a process that locks this file but not the index beside this name opened it
   under another name (it was moved or renamed since).
5. *A log left at the name a game was moved from is found* (`orphan_log`): when no count of
   this game lies beside it, the folder's counts with no game file beside them are read; one of
   this game that counts more entries, beside a log holding this file's stamp, is where its
   newest commands are.
6. *A holder writes only into the file at its name* (`check_in_place`, before every write
   transaction, in the write lock): the path's inode is compared with the open file's; a file
   moved, removed or replaced is not written (`MovedError`, with where it is now).

Limits (SQLite itself cannot tell a log from another file's, so these checks are the store's):
a copy of the same file (the same file identity) put back over that file's own later log is
paired (if SQLite copied the log into the file since the copy was made, that is a mix the stamp
cannot tell; the count kept apart and SQLite's check of the pages are what is left); a file
made before the stamp (no stamp table) is paired by its count only.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import replace
from pathlib import Path

from strategia.core.errors import Problem, StrategiaError
from strategia.game import count
from strategia.game.file_access import (
    connect_tracked,
    file_bytes,
    holders,
    lock_owners,
    open_name,
    probe,
)
from strategia.game.sqlite_file import (
    COUNT_SUFFIX,
    PAGE_SIZE,
    STAMP_PAGE,
    StoreError,
    stamps_in,
)

LOG_FILES = ("-wal", "-shm")
Identity = tuple[str, str]  # (the game's identity, the file's)


class LogMismatch(StoreError):
    """The log beside a game file is another file's: refused, nothing of it read. A StoreError,
    so that `strategia game replay --recover` sets the file and that log aside and rebuilds the
    game from the file alone."""

    def __init__(self, path: Path, en: str, ru: str) -> None:
        StrategiaError.__init__(self, en, ru=ru)
        self.path = str(path)
        self.problems = [Problem(f"{path}-wal", "another file's log", ru="лог другого файла")]
        self.good = None


class MovedError(StrategiaError):
    """A game file moved, renamed, removed or replaced while a program had it open."""


class HeldError(StrategiaError):
    """A game some process has open, where what was asked needs none to (recovery, replacing
    a game, a new game beside a held log)."""


def who(pids: list[int], lang: str) -> str:
    """The processes, as a sentence names them: «process 123», «processes 12, 34»."""
    mark = " (this one)" if lang != "ru" else " (этот самый)"
    known = [f"{p}{mark}" if p == os.getpid() else str(p) for p in pids if p > 0]
    if lang == "ru":
        if not known:
            return "другой процесс"
        return ("процесс " if len(known) == 1 else "процессы ") + ", ".join(known)
    if not known:
        return "another process"
    return ("process " if len(known) == 1 else "processes ") + ", ".join(known)


# --- 1. a new game beside a leftover log ----------------------------------------------------


def leftovers(path: Path) -> list[Path]:
    """The log files (`-wal`, `-shm`) lying at `path` with no game file there."""
    if path.exists() or path.is_symlink():
        return []
    return [p for p in (Path(f"{path}{ext}") for ext in LOG_FILES) if p.exists()]


def refuse_leftovers(path: Path, force_hint: bool = False) -> None:
    """Refuse to make a game at `path` where a log with no game file lies (see the module);
    `force_hint`: the command takes `--force` to remove them."""
    left = leftovers(path)
    if not left:
        return
    names = ", ".join(p.name for p in left)
    files = " ".join(str(p) for p in [*left, Path(f"{path}{COUNT_SUFFIX}")] if p.exists())
    held = holders(path)
    if held:
        raise HeldError(
            f"{path}: no game file is there, but {names} are: the log of a game removed or "
            f"moved while open, and still open in {who(held, 'en')}. A new game here would be "
            f"read through that log. Close the game in {who(held, 'en')} first",
            ru=f"{path}: файла игры нет, но есть {names} — лог игры, которую удалили или "
            f"переместили, пока она была открыта, и она до сих пор открыта в "
            f"{_gen(who(held, 'ru'))}. Новая игра здесь читалась бы через этот лог. Сначала "
            f"закройте игру в {_gen(who(held, 'ru'))}",
        )
    force = (" or give --force", " или добавьте --force") if force_hint else ("", "")
    raise StrategiaError(
        f"{path}: no game file is there, but {names} are: the log of a game removed or moved "
        "while a program had it open (killed before it closed it). SQLite would read that log "
        "into a new game here. If that game was moved, move these files with it; if it is "
        f"gone for good, remove them (`rm {files}`){force[0]}, then try again",
        ru=f"{path}: файла игры нет, но есть {names} — лог игры, которую удалили или "
        "переместили, пока ее держала открытой программа (и ее прервали, не дав закрыть "
        "игру). SQLite прочитала бы этот лог в новую игру здесь. Если игру переместили, "
        "перенесите эти файлы вместе с ней; если она больше не нужна, удалите их "
        f"(`rm {files}`){force[1]} и повторите",
    )


def _gen(whom: str) -> str:
    """«процесс 12» as the object of «в»: «процессе 12» («процессах 12, 34», «другом процессе»)."""
    if whom.startswith("процессы "):
        return "процессах " + whom.removeprefix("процессы ")
    if whom.startswith("процесс "):
        return "процессе " + whom.removeprefix("процесс ")
    return "другом процессе"


@contextmanager
def setting_aside(path: Path, option: str = "--force") -> Iterator[None]:
    """Make another game at `path` inside the block: the game there (or a log left there) is
    set aside first, with the files beside it, then removed once the block is done, or put back
    if it fails; refused while any process has it open."""
    held = holders(path) if path.exists() or leftovers(path) else []
    if held:
        raise HeldError(
            f"{option}: the game {path} is open in {who(held, 'en')}; it is not replaced while "
            "open: close it there first",
            ru=f"{option}: игра {path} открыта в {_gen(who(held, 'ru'))}; пока она открыта, ее "
            "не заменить: сначала закройте ее там",
        )
    mark = f".{path.name}.{os.getpid()}.{os.urandom(4).hex()}.replaced"
    moved: list[tuple[Path, Path]] = []
    for ext in ("", *LOG_FILES, COUNT_SUFFIX):
        src = Path(f"{path}{ext}")
        if src.exists() or src.is_symlink():
            dst = path.with_name(f"{mark}{ext}")
            os.replace(src, dst)
            moved.append((src, dst))
    try:
        yield
    except BaseException:
        for src, dst in moved:
            if not src.exists():
                with suppress(OSError):
                    os.replace(dst, src)
        raise
    for _, dst in moved:
        with suppress(OSError):
            dst.unlink()


# --- 3. the file and the log it is read through ---------------------------------------------


def main_identity(path: Path) -> tuple[set[Identity], bool, int | None] | None:
    """What the main file alone says, read by hand: the identities of the stamps on its page
    2, whether that page looks like a stamp page at all, and another process holding the file
    (its id, 0 if not told; None if none). None when a connection of this process has the file
    open (nothing is read then: see `file_access.probe`)."""
    try:
        got = probe(path, (STAMP_PAGE - 1) * PAGE_SIZE, PAGE_SIZE)
    except OSError:
        return None
    if got is None:
        return None
    raw, other = got
    return stamps_in(raw), b"strategia-stamp/1 " in raw, other


def seen_identity(conn: sqlite3.Connection) -> tuple[Identity | None, bool]:
    """The stamp SQLite shows (through the log): its identity, and whether the file has a stamp
    table at all (False: a file made before it)."""
    has = conn.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='stamp'")
    if has.fetchone() is None:
        return None, False
    row = conn.execute("SELECT data FROM stamp WHERE id = 1").fetchone()
    text = row[0] if row is not None else ""
    found = stamps_in(text.encode("utf-8", "surrogateescape")) if isinstance(text, str) else set()
    return (next(iter(found)) if len(found) == 1 else None), True


def check_pair(
    path: Path,
    main: tuple[set[Identity], bool, int | None] | None,
    seen: Identity | None,
    stamped: bool,
) -> None:
    """Refuse a log that is not the main file's (see the module): LogMismatch."""
    if main is None:
        return
    ids, looks, _ = main
    if seen is not None and (seen in ids or (not ids and looks)):
        return  # the same file (or its page 2 damaged on disk, the log's copy read instead)
    if seen is None and (stamped or not ids):
        return  # a stamp damaged (told as damage), or a file made before the stamp
    wal, shm = Path(f"{path}-wal"), Path(f"{path}-shm")
    if seen is not None and ids and seen[0] in {g for g, _ in ids}:
        other = ("another file of the same game (an import, a fork or a recovery of it)",
                 "другой файл той же игры (ее импорт, ответвление или восстановление)")  # fmt: skip
    else:
        other = ("another game's file", "файл другой игры")
    raise LogMismatch(
        path,
        f"{path}: {wal.name} beside it is not this file's log: it was written by {other[0]}, "
        f"and SQLite would read it into this file (a mix of the two). {path} was replaced "
        "(copied or moved over) while the log of the file that was there lay beside it. "
        "Nothing was read or changed. To open the file as it is, set that log aside: "
        f"`mv {wal} {wal}.other; rm -f {shm}` (or `strategia game replay {path} --recover`, "
        f"which keeps the file and that log aside as {path.name}.damaged and rebuilds the game "
        "from the file alone)",
        ru=f"{path}: {wal.name} рядом с ним — не лог этого файла: его писал {other[1]}, и "
        f"SQLite прочитала бы его в этот файл (смесь двух). {path} заменили (скопировали или "
        "переместили поверх), когда рядом лежал лог прежнего файла. Ничего не прочитано и не "
        f"изменено. Чтобы открыть файл как есть, отложите этот лог: `mv {wal} {wal}.other; "
        f"rm -f {shm}` (или `strategia game replay {path} --recover`: файл и этот лог будут "
        f"отложены как {path.name}.damaged, а игра восстановлена по одному файлу)",
    )


def close_leaving_log(conn: sqlite3.Connection, path: Path) -> None:
    """Close `conn` so that SQLite copies nothing of the log into the file: a read-only
    connection stays open meanwhile (the closing one is then not the last), and a read-only one
    never copies the log."""
    try:
        guard = connect_tracked(path, f"file:{path}?mode=ro", isolation_level=None)
        guard.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchall()
    except sqlite3.Error:
        conn.close()
        return
    try:
        conn.close()
    finally:
        guard.close()


# --- 4. held under another name ---------------------------------------------------------------


def check_holder(path: Path, other: int | None) -> None:
    """Refuse a file another process has open under another name (see the module): that
    process locks the file but not the index beside this name. Looked at again for a moment
    before refusing: a process opening or closing the game holds one lock without the other
    for an instant."""
    if other is None:
        return
    shm = Path(f"{path}-shm")
    elsewhere: set[int] = set()
    for k in range(4):
        owners = lock_owners([path, shm])
        if owners is None:  # no list of the locks: only a missing index tells
            elsewhere = set() if shm.exists() else {other}
        else:
            elsewhere = owners[0] - owners[1] - {os.getpid()}
        if not elsewhere:
            return
        if k < 3:
            time.sleep(0.03)
    pids = sorted(elsewhere)
    raise MovedError(
        f"{path}: this game file is open in {who(pids, 'en')} under another name (it was moved "
        "or renamed while open): the commands written there since are in the log beside that "
        f"name, not beside {path}. Nothing was read. Close the game in {who(pids, 'en')} (what "
        "it wrote then goes into the file), or move the file back, then open it again",
        ru=f"{path}: этот файл игры открыт в {_gen(who(pids, 'ru'))} под другим именем (его "
        "переместили или переименовали, пока он был открыт): записанное с тех пор лежит в "
        f"логе рядом с тем именем, а не рядом с {path}. Ничего не прочитано. Закройте игру в "
        f"{_gen(who(pids, 'ru'))} (записанное тогда перейдет в файл) или верните файл на "
        "место, затем откройте снова",
    )


# --- 5. the log left where the game was moved from ----------------------------------------


def orphan_log(path: Path, game: Identity, last: int) -> None:
    """Refuse a game whose newest commands lie in a log at another name (see the module)."""
    try:
        names = os.listdir(path.parent if str(path.parent) else ".")
    except OSError:
        return
    for name in names:
        if not name.endswith(COUNT_SUFFIX) or name == f"{path.name}{COUNT_SUFFIX}":
            continue
        stem = path.parent / name.removesuffix(COUNT_SUFFIX)
        wal = Path(f"{stem}-wal")
        if stem.exists() or not wal.exists():
            continue
        kept = count.acknowledged(count.read(stem), game[0])
        if kept is None or kept <= last:
            continue
        try:
            if game not in stamps_in(file_bytes(wal)):
                continue
        except OSError:
            continue
        logs = " ".join(str(p) for p in (wal, Path(f"{stem}-shm"), count.count_path(stem))
                        if p.exists())  # fmt: skip
        raise MovedError(
            f"{path}: this game's newest commands are in {wal}, beside {stem.name}, where no "
            f"game file is: {count.count_path(stem).name} counts {kept} entries of this game, "
            f"{path.name} has {last}. It was moved or renamed from {stem.name} while a program "
            f"had it open. Move it back (`mv {path} {stem}`) and open it there; or, to open "
            f"{path.name} without those commands, remove {logs}",
            ru=f"{path}: последние команды этой игры лежат в {wal}, рядом с {stem.name}, где "
            f"файла игры нет: {count.count_path(stem).name} насчитывает записей этой игры: "
            f"{kept}, а в {path.name} их {last}. Файл переместили или переименовали из "
            f"{stem.name}, пока его держала открытой программа. Верните его (`mv {path} "
            f"{stem}`) и откройте там; или, чтобы открыть {path.name} без этих команд, удалите "
            f"{logs}",
        )


# --- 6. a holder writes only into the file at its name ------------------------------------


def check_in_place(path: Path, where: str, key: tuple[int, int] | None) -> None:
    """Refuse to write into a file no longer at its path (see the module): `where` is the
    path as opened (absolute), `key` the open file's (device, inode)."""
    if key is None:
        return
    try:
        st = os.stat(where)
        if (st.st_dev, st.st_ino) == key:
            return
        gone = False
    except FileNotFoundError:
        gone = True
    now = open_name(key)
    if now is not None and now.endswith(" (deleted)"):
        what = ("removed", "удален")
    elif now is not None and now != where:
        what = (f"moved to {now}", f"перемещен в {now}")
    else:
        what = ("moved or renamed", "перемещен или переименован")
    if not gone:
        what = (f"{what[0]}, and another file is there now", f"{what[1]}, и теперь там другой файл")
    if now is not None and now.endswith(" (deleted)"):
        then = (
            "The file is still readable here until the game is closed: to keep it, export it "
            f'first (`game.export_text("{path.stem}.jsonl")`), then close the game and bring it '
            f"back with `strategia game import {path.stem}.jsonl NEW.game`",
            "Пока игра не закрыта, файл еще читается здесь: чтобы сохранить его, сначала "
            f'выгрузите его (`game.export_text("{path.stem}.jsonl")`), затем закройте игру и '
            f"восстановите ее командой `strategia game import {path.stem}.jsonl NEW.game`",
        )
    else:
        back = (
            (f"move it back (`mv {now} {where}`) and open it again",
             f"верните его (`mv {now} {where}`) и откройте снова")
            if now is not None and gone
            else ("open the game where it is", "откройте игру там, где она есть")
        )  # fmt: skip
        then = (
            f"Close the game here (what it wrote goes into the file itself), then {back[0]}",
            f"Закройте игру здесь (записанное ею перейдет в сам файл), затем {back[1]}",
        )
    raise MovedError(
        f"{path}: the game file was {what[0]} while this program had it open: nothing of this "
        "command was written (it would have gone into a file no longer at its name). "
        f"{then[0]}",
        ru=f"{path}: файл игры {what[1]}, пока эта программа держала его открытым: из этой "
        "команды ничего не записано (запись ушла бы в файл, которого под этим именем больше "
        f"нет). {then[1]}",
    )


# --- recovery ---------------------------------------------------------------------------------


def refuse_held(path: Path, doing: tuple[str, str]) -> None:
    """Refuse `doing` (in English and Russian) to a game any process has open, naming it."""
    held = holders(path)
    if held:
        raise HeldError(
            f"{path}: {doing[0]} is refused while the game is open in {who(held, 'en')} (it "
            f"would go on writing into the file set aside): close the game in "
            f"{who(held, 'en')} first (a console, a team screen, a script), then run it again",
            ru=f"{path}: {doing[1]} невозможно, пока игра открыта в {_gen(who(held, 'ru'))} "
            "(там продолжали бы писать в отложенный файл): сначала закройте игру там "
            "(консоль, экран команды, сценарий), затем повторите",
        )


__all__ = [
    "HeldError",
    "LogMismatch",
    "MovedError",
    "check_holder",
    "check_in_place",
    "check_pair",
    "close_leaving_log",
    "leftovers",
    "main_identity",
    "orphan_log",
    "refuse_held",
    "refuse_leftovers",
    "seen_identity",
    "setting_aside",
    "who",
]


def file_identity(
    conn: sqlite3.Connection,
    path: Path,
    main: tuple[set[tuple[str, str]], bool, int | None] | None,
    problems: list[Problem],
) -> str:
    """The file's identity, the stamp seen through the log checked against the main file's
    own (`check_pair`, which refuses a mix). A damaged stamp is a problem worked around (added
    to `problems`; the next write rewrites it from the main file's)."""
    try:
        seen, stamped = seen_identity(conn)
    except sqlite3.Error:
        seen, stamped = None, True
    check_pair(path, main, seen, stamped)
    if seen is not None:
        return seen[1]
    if not stamped:
        return ""
    where = f"{path}: the stamp (the file's identity, page 2)"
    where_ru = f"{path}: штамп (опознавательный знак файла, страница 2)"
    damaged = Problem(where, "missing or damaged", ru="отсутствует или поврежден")
    problems.append(replace(damaged, where_ru=where_ru))
    own = main[0] if main is not None else set()
    return next(iter(own))[1] if len(own) == 1 else ""
