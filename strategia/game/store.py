"""The journal of a game («журнал боевых действий»): append-only, the game's source of truth.

One JSON object a line: its sequence number, kind, time, data and a CRC-32 of the rest. Every
entry is written, flushed and synced to disk before `append` returns, so what the console has
shown is on disk. Reading checks every line: a truncated last line (a crash mid-write) or a
damaged one is reported with its line number, and everything before the damage is recoverable.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from strategia.core.errors import Problem, StrategiaError

FORMAT = "strategia-journal/1"


class JournalError(StrategiaError):
    """A journal that cannot be read whole: what is wrong, where, and how much is good."""

    def __init__(self, path: str, problems: list[Problem], good: int) -> None:
        self.path = path
        self.problems = problems
        self.good = good
        lines = "\n".join(f"  {p}" for p in problems)
        super().__init__(
            f"{path}: the journal is damaged after entry {good} "
            f"(open it with recover to keep the {good} good entries)\n{lines}"
        )


@dataclass(frozen=True, slots=True)
class Entry:
    """One journal entry."""

    seq: int
    kind: str
    data: dict[str, Any]
    time: str = ""

    def body(self) -> dict[str, Any]:
        return {"seq": self.seq, "kind": self.kind, "time": self.time, "data": self.data}


def _crc(body: dict[str, Any]) -> str:
    text = json.dumps(body, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return f"{zlib.crc32(text.encode('utf-8')):08x}"


def encode(entry: Entry) -> str:
    body = entry.body()
    return json.dumps({**body, "crc": _crc(body)}, ensure_ascii=False, separators=(",", ":")) + "\n"


def read(path: str | Path) -> tuple[list[Entry], list[Problem]]:
    """The entries of a journal up to the first damage, and the problems found after them."""
    path = Path(path)
    entries: list[Entry] = []
    problems: list[Problem] = []
    raw = path.read_bytes()
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
        if body["seq"] != len(entries) + 1:
            problems.append(
                Problem(where, f"entry {body['seq']} where {len(entries) + 1} was expected")
            )
            break
        entries.append(Entry(body["seq"], body["kind"], body["data"], body["time"]))
    if entries and entries[0].kind != "game":
        problems.insert(0, Problem(f"{path}:1", "the first entry is not the game's header"))
    return entries, problems


@dataclass
class Journal:
    """An open journal: its entries so far and the file they are appended to."""

    path: Path
    entries: list[Entry] = field(default_factory=list)

    @classmethod
    def create(cls, path: str | Path, header: dict[str, Any]) -> Journal:
        """A new journal whose first entry is the game's header; refuses to overwrite a file."""
        path = Path(path)
        if path.exists():
            raise StrategiaError(f"{path}: a file is already there; choose another name")
        path.parent.mkdir(parents=True, exist_ok=True)
        j = cls(path)
        j.append("game", {"format": FORMAT, **header})
        return j

    @classmethod
    def open(cls, path: str | Path, recover: bool = False) -> Journal:
        """An existing journal; with `recover`, a damaged tail is cut off (and kept aside)."""
        path = Path(path)
        if not path.exists():
            raise StrategiaError(f"{path}: no such game file")
        entries, problems = read(path)
        if problems and not recover:
            raise JournalError(str(path), problems, len(entries))
        if not entries:
            raise JournalError(str(path), problems or [Problem(str(path), "empty")], 0)
        if problems:
            damaged = path.with_suffix(path.suffix + ".damaged")
            damaged.write_bytes(path.read_bytes())
            tmp = path.with_suffix(path.suffix + ".tmp")
            tmp.write_text("".join(encode(e) for e in entries), encoding="utf-8")
            os.replace(tmp, path)
        return cls(path, entries)

    @property
    def header(self) -> dict[str, Any]:
        return self.entries[0].data

    def append(self, kind: str, data: dict[str, Any]) -> Entry:
        """Write an entry and make sure it is on disk before returning it."""
        now = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
        entry = Entry(len(self.entries) + 1, kind, data, now)
        line = encode(entry).encode("utf-8")
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            while line:
                line = line[os.write(fd, line) :]
            os.fsync(fd)
        finally:
            os.close(fd)
        self.entries.append(entry)
        return entry
