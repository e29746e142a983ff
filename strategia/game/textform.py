"""A game's text form: its journal as JSON lines, to move a game between files and programs.

One JSON object a line, the header first: sequence number, kind, time, data and a CRC-32 of the
rest (`strategia game export`). This is also the game file of the first version, and reading
accepts the golden journals of the tests too (a JSON list of entries without checksums).
Reading checks every line: a cut-off last line or a damaged one is reported with its line
number, and the entries before it are kept for `--recover`.
"""

from __future__ import annotations

import json
import os
import zlib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from strategia.core.errors import Problem, StrategiaError, by_pattern, os_error_ru
from strategia.game.file_access import file_bytes
from strategia.game.sqlite_file import fsync_dir, remove_file
from strategia.game.store import Entry, GameStore

FORMAT = "strategia-journal/1"
MAX_BYTES = 1 << 30


class TextFormError(StrategiaError):
    """A text journal that cannot be read whole: every problem with its line."""

    def __init__(self, path: str | Path, problems: list[Problem], good: int) -> None:
        self.path = str(path)
        self.problems = problems
        self.good = good
        lines = "\n".join(f"  {p}" for p in problems)
        lines_ru = "\n".join(f"  {p.where}: {p.ru or russian(p.message)}" for p in problems)
        super().__init__(
            f"{path}: the journal is damaged after entry {good} "
            f"(--recover keeps the {good} good entries)\n{lines}",
            ru=f"{path}: журнал поврежден после записи {good} (--recover сохранит "
            f"{good} целых)\n{lines_ru}",
        )


# What a text journal's problems are, in Russian: (English pattern, Russian).
_RU = [
    (r"truncated: the last entry was cut off while being written",
     "обрезан: последняя запись оборвалась при записи"),
    (r"not a journal entry \(kind and data\)", "это не запись журнала (вид и данные)"),
    (r"not a journal entry", "это не запись журнала"),
    (r"checksum mismatch: the entry was changed or damaged",
     "контрольная сумма не сходится: запись изменена или повреждена"),
    (r"empty: no header", "пусто: нет заголовка"),
    (r"entry (\d+) where (\d+) was expected", r"запись \1 там, где ожидалась \2"),
    (r"the first entry is the game's header, and only the first",
     "первая запись — заголовок игры, и только первая"),
    (r"not JSON: .*", "это не JSON"),
    (r"larger than (\d+) MB", r"больше \1 МБ"),
]  # fmt: skip


def russian(message: str) -> str:
    """A text journal's problem in Russian (as written where it is not known here)."""
    found = by_pattern(_RU, message)
    return found[0] if found is not None and found[0] is not None else message


def _crc(body: dict[str, Any]) -> str:
    text = json.dumps(body, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return f"{zlib.crc32(text.encode('utf-8', 'surrogatepass')):08x}"


def encode(entry: Entry) -> str:
    """An entry as one line of the text form, with its checksum."""
    body = entry.body()
    return json.dumps({**body, "crc": _crc(body)}, ensure_ascii=False, separators=(",", ":")) + "\n"


def read(path: str | Path) -> tuple[list[Entry], list[Problem]]:
    """The entries of a text journal up to the first damage, and the problems found there."""
    path = Path(path)
    try:
        if path.stat().st_size > MAX_BYTES:
            return [], [Problem(str(path), f"larger than {MAX_BYTES >> 20} MB")]
        raw = file_bytes(path)  # it may be a game file, held open here
    except OSError as e:
        return [], [Problem(str(path), e.strerror or str(e), ru=os_error_ru(e))]
    if raw.lstrip()[:1] == b"[":
        return _read_list(path, raw)
    entries: list[Entry] = []
    problems: list[Problem] = []
    lines = raw.split(b"\n")
    complete = raw.endswith(b"\n")
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        last = n == len(lines) and not complete
        where = f"{path}:{n}"
        try:
            d = json.loads(line.decode("utf-8"))
            body = {k: d[k] for k in ("seq", "kind", "time", "data")}
        except (ValueError, KeyError, UnicodeDecodeError, TypeError):
            what = (
                "truncated: the last entry was cut off while being written"
                if last
                else "not a journal entry"
            )
            problems.append(Problem(where, what))
            break
        if d.get("crc") != _crc(body):
            problems.append(Problem(where, "checksum mismatch: the entry was changed or damaged"))
            break
        problem = _check(body, len(entries))
        if problem:
            problems.append(Problem(where, problem))
            break
        entries.append(Entry(body["seq"], body["kind"], body["data"], str(body["time"])))
    if not entries and not problems:
        problems.append(Problem(f"{path}:1", "empty: no header"))
    return entries, problems


def _check(body: dict[str, Any], n: int) -> str | None:
    if body["seq"] != n + 1:
        return f"entry {body['seq']} where {n + 1} was expected"
    if not isinstance(body["kind"], str) or not isinstance(body["data"], dict):
        return "not a journal entry (kind and data)"
    if (n == 0) != (body["kind"] == "game"):
        return "the first entry is the game's header, and only the first"
    return None


def _read_list(path: Path, raw: bytes) -> tuple[list[Entry], list[Problem]]:
    """A JSON list of entries (the tests' golden journals): no checksums, one place (the file)."""
    try:
        items = json.loads(raw.decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as e:
        return [], [Problem(str(path), f"not JSON: {e}")]
    entries: list[Entry] = []
    for k, d in enumerate(items):
        where = f"{path}: entry {k + 1}"
        if not isinstance(d, dict) or not {"seq", "kind", "data"} <= d.keys():
            return entries, [Problem(where, "not a journal entry")]
        body = {"seq": d["seq"], "kind": d["kind"], "time": d.get("time", ""), "data": d["data"]}
        problem = _check(body, len(entries))
        if problem:
            return entries, [Problem(where, problem)]
        entries.append(Entry(body["seq"], body["kind"], body["data"], str(body["time"])))
    return entries, [] if entries else [Problem(str(path), "empty: no header")]


def write(path: str | Path, entries: Iterable[Entry]) -> None:
    """Write the text form atomically: a temporary file, synced, renamed into place, the
    directory synced. An existing file is replaced."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with tmp.open("w", encoding="utf-8") as f:
            for e in entries:
                f.write(encode(e))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
        fsync_dir(path)
    except OSError as e:
        tmp.unlink(missing_ok=True)
        raise StrategiaError(
            f"{path}: cannot be written: {e.strerror or e}",
            ru=f"{path}: не записывается: {os_error_ru(e)}",
        ) from None


def import_journal(
    source: str | Path, path: str | Path, recover: bool = False
) -> tuple[GameStore, list[Problem]]:
    """A game file at `path` holding the text journal `source`'s entries as they are (a game of
    either rule set), and the damage met in the journal; a damaged journal is refused (nothing
    written), or with `recover` cut before the damage."""
    entries, problems = read(source)
    if problems and not (recover and entries):
        raise TextFormError(source, problems, len(entries))
    store = GameStore.create(path, entries[0].data, time=entries[0].time)
    try:
        with store.transaction():
            for e in entries[1:]:
                store.append(e.kind, e.data, time=e.time)
    except BaseException:
        store.close()
        remove_file(Path(path))
        raise
    return store, problems
