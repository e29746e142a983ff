"""A game's journal entries: one entry, and the whole journal as a sequence read on demand.

`Entries` is what `GameStore.entries` gives: every entry in order, the header first (entry 1),
indexed, sliced, iterated and reversed like a list. It keeps nothing itself: the entries of the
move in progress are in the store's memory, any other is read from the file when asked for and
checked then (its checksum, its number), so a long game costs no memory for its past.
Iterating reads the file in chunks; a slice is a list.
"""

from __future__ import annotations

import json
import operator
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, SupportsIndex, overload

from strategia.core.errors import Problem
from strategia.game.sqlite_file import row_crc

CHUNK = 2000  # entries read from the file at a time when iterating


@dataclass(frozen=True, slots=True)
class Entry:
    """One entry of the journal; entry 1 is the game's header (kind "game")."""

    seq: int
    kind: str
    data: dict[str, Any]
    time: str = ""

    def body(self) -> dict[str, Any]:
        return {"seq": self.seq, "kind": self.kind, "time": self.time, "data": self.data}


def entry_of(seq: int, row: tuple[Any, ...], where: str) -> Entry | Problem:
    """Entry `seq` from its stored row (kind, time, data, crc), or what is wrong with it."""
    kind, time, text, crc = row
    if not isinstance(text, str) or crc != row_crc(seq, kind, time, text):
        return Problem(where, "checksum mismatch: the entry was damaged")
    try:
        data = json.loads(text)
    except ValueError as e:
        return Problem(where, f"unreadable: {e}")
    return Entry(seq, str(kind), data, str(time))


class Source(Protocol):
    """Where `Entries` reads from (`strategia.game.store_read.EntryReader`)."""

    path: Path

    @property
    def last_seq(self) -> int: ...

    def entry(self, seq: int) -> Entry: ...

    def between(self, after: int, upto: int) -> list[Entry]: ...

    def stream(self, after: int, upto: int) -> Iterator[Entry]: ...


class Entries(Sequence[Entry]):
    """Every entry of a game in order, the header first (see the module); equal to any
    sequence of the same entries."""

    __slots__ = ("_store",)

    def __init__(self, store: Source) -> None:
        self._store = store

    def __len__(self) -> int:
        return self._store.last_seq

    @overload
    def __getitem__(self, index: SupportsIndex) -> Entry: ...

    @overload
    def __getitem__(self, index: slice) -> list[Entry]: ...

    def __getitem__(self, index: SupportsIndex | slice) -> Entry | list[Entry]:
        n = len(self)
        if isinstance(index, slice):
            start, stop, step = index.indices(n)
            if step == 1:
                return self._store.between(start, stop)
            return [self[k] for k in range(start, stop, step)]
        k = operator.index(index)
        if k < 0:
            k += n
        if not 0 <= k < n:
            raise IndexError(f"entry index {index} out of range (the game has {n} entries)")
        return self._store.entry(k + 1)

    def __iter__(self) -> Iterator[Entry]:
        return self._store.stream(0, len(self))

    def __reversed__(self) -> Iterator[Entry]:
        for stop in range(len(self), 0, -CHUNK):
            yield from reversed(self._store.between(max(stop - CHUNK, 0), stop))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, str | bytes):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))

    def __ne__(self, other: object) -> bool:
        same = self.__eq__(other)
        return same if same is NotImplemented else not same

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<{len(self)} entries of {self._store.path}>"


__all__ = ["CHUNK", "Entries", "Entry", "Source", "entry_of"]
