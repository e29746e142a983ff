"""Reading a game file's entries: those of the move in progress kept in memory, any other read
from the file when asked for and checked then (its CRC-32, its number), never kept beyond a
small cache; and an index of the entries that are not orders, made by one query when first
needed. `GameStore` is built on it (`strategia.game.store`).
"""

from __future__ import annotations

import sqlite3
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from strategia.core.errors import Problem
from strategia.game.entries import CHUNK, Entries, Entry, entry_of
from strategia.game.sqlite_file import StoreError, StoreWriteError, damage_report, is_damage

MOVE_STARTS = ("game", "end-turn")  # the entries a move begins after
CACHE_BYTES = 1 << 20  # the entries read lately kept, up to this much of their text


class EntryReader:
    """A game file's entries as this process knows them (see the module). `rows_read` counts
    the entry rows read from the file and checked, `kinds_read` the reads of the index."""

    def __init__(self, path: Path, conn: sqlite3.Connection) -> None:
        self.path = path
        self._conn = conn
        self._header = Entry(1, "game", {}, "")
        self._recent: list[Entry] = [self._header]  # the move in progress, to the last entry
        self._last = 1
        self._cache: OrderedDict[int, tuple[Entry, int]] = OrderedDict()
        self._cached = 0
        self._kinds: dict[str, list[int]] | None = None
        self._view = Entries(self)
        self.problems: list[Problem] = []
        self.rows_read = 0
        self.kinds_read = 0

    @property
    def entries(self) -> Entries:
        """Every entry, the header first (entry 1), as a sequence read from the file as needed:
        iterating it reads the whole journal (what `export` and `replay` do), nothing else
        should."""
        return self._view

    @property
    def last_seq(self) -> int:
        return self._last

    def entry(self, seq: int) -> Entry:
        """Entry `seq` (1: the header), from memory or read from the file and checked."""
        if not 1 <= seq <= self._last:
            raise IndexError(f"entry {seq}: the game has {self._last} entries")
        if seq == 1:
            return self._header
        first = self._first_kept()
        if seq >= first:
            return self._recent[seq - first]
        hit = self._cache.get(seq)
        if hit is not None:
            self._cache.move_to_end(seq)
            return hit[0]
        [(e, size)] = self._fetch(seq, seq)
        if size <= CACHE_BYTES // 8:
            self._cache[seq] = (e, size)
            self._cached += size
            while self._cached > CACHE_BYTES:
                self._cached -= self._cache.popitem(last=False)[1][1]
        return e

    def between(self, after: int, upto: int) -> list[Entry]:
        """The entries after entry `after` up to entry `upto` (0: from the header), in order."""
        upto = min(upto, self._last)
        out: list[Entry] = []
        if after >= upto:
            return out
        if after < 1:
            out.append(self._header)
            after = 1
        first = self._first_kept()
        if after + 1 < first:
            out += [e for e, _ in self._fetch(after + 1, min(upto, first - 1))]
        if upto >= first:
            out += self._recent[max(after + 1, first) - first : upto - first + 1]
        return out

    def stream(self, after: int, upto: int) -> Iterator[Entry]:
        """The entries after entry `after` up to entry `upto`, read in chunks as they are
        iterated (what reading a whole journal costs in memory: one chunk)."""
        upto = min(upto, self._last)
        for start in range(max(after, 0), upto, CHUNK):
            yield from self.between(start, min(start + CHUNK, upto))

    def move(self) -> list[Entry]:
        """The entries of the move in progress: from the End turn it began after (or the header)
        to the last."""
        for k in range(len(self._recent) - 1, -1, -1):
            if self._recent[k].kind in MOVE_STARTS:
                return self._recent[k:]
        out: list[Entry] = []
        for e in reversed(self.entries):  # not in memory (a file whose snapshot is elsewhere)
            out.append(e)
            if e.kind in MOVE_STARTS:
                break
        return out[::-1]

    def seqs(self, kind: str) -> list[int]:
        """The numbers of the entries of `kind` (any but "order"), in order, from an index of
        the entries that are not orders: one query the first time, then kept up to date."""
        if kind == "order":
            raise ValueError("the orders are not indexed: read the entries")
        if self._kinds is None:
            self._kinds = self._read_kinds()
        return list(self._kinds.get(kind, ()))

    def read_all(self) -> int:
        """Read and check every entry (a StoreError names the first damaged one); how many."""
        n = 0
        for _ in self.entries:
            n += 1
        return n

    # --- internals -----------------------------------------------------------------------------

    def _first_kept(self) -> int:
        return self._recent[0].seq if self._recent else self._last + 1

    def _add(self, e: Entry) -> None:
        self._recent.append(e)
        self._last = e.seq
        if self._kinds is not None and e.kind != "order":
            self._kinds.setdefault(e.kind, []).append(e.seq)

    def _drop_after(self, seq: int) -> None:
        """Forget the entries after `seq` (a transaction rolled back, a read that failed)."""
        del self._recent[max(seq - self._first_kept() + 1, 0) :]
        self._last = seq
        if self._kinds is not None:
            for seqs in self._kinds.values():
                while seqs and seqs[-1] > seq:
                    seqs.pop()

    def _trim(self) -> None:
        """Keep in memory only the entries of the move in progress."""
        for k in range(len(self._recent) - 1, 0, -1):
            if self._recent[k].kind in MOVE_STARTS:
                del self._recent[:k]
                return

    def _fetch(self, first: int, last: int) -> list[tuple[Entry, int]]:
        """Entries `first` to `last` read from the file, each checked, with their text's size;
        a StoreError names the first that is damaged or missing."""
        out: list[tuple[Entry, int]] = []
        problems: list[Problem] = []
        expected = first
        try:
            rows = self._conn.execute(
                "SELECT seq, kind, time, data, crc FROM entries WHERE seq BETWEEN ? AND ? "
                "ORDER BY seq",
                (first, last),
            ).fetchall()
        except sqlite3.ProgrammingError:
            raise  # a store used after it was closed: not the file's fault
        except sqlite3.Error as e:
            if not is_damage(e):
                raise StoreWriteError.of(self.path, "cannot be read", e) from None
            good = first - 1 if first <= 2 else None
            raise StoreError(
                self.path, self._damage(f"reading entries {first} to {last}: {e}"), good
            ) from None
        for seq, kind, time, text, crc in rows:
            where = f"{self.path}: entry {expected}"
            if seq != expected:
                problems.append(Problem(where, f"missing (the next entry in the file is {seq})"))
                break
            got = entry_of(seq, (kind, time, text, crc), where)
            if isinstance(got, Problem):
                problems.append(got)
                break
            out.append((got, len(text)))
            expected += 1
        self.rows_read += len(out)
        if not problems and expected <= last:
            problems.append(Problem(f"{self.path}: entry {expected}", "missing"))
        if problems:
            raise StoreError(self.path, problems, expected - 1 if first <= 2 else None)
        return out

    def _read_kinds(self) -> dict[str, list[int]]:
        """The index of the entries that are not orders, read before the ones in memory."""
        kinds: dict[str, list[int]] = {}
        with self._errors("reading the kinds of the entries"):
            rows = self._conn.execute(
                "SELECT seq, kind FROM entries WHERE kind != 'order' AND seq > 1 AND seq < ? "
                "ORDER BY seq",
                (self._first_kept(),),
            ).fetchall()
        self.kinds_read += 1
        for seq, kind in rows:
            kinds.setdefault(str(kind), []).append(int(seq))
        for e in self._recent:
            if e.kind not in ("order", "game"):
                kinds.setdefault(e.kind, []).append(e.seq)
        return kinds

    @contextmanager
    def _errors(self, doing: str, write: bool = False) -> Iterator[None]:
        """SQLite's errors as the store's: damage (with where it is), or a file that cannot be
        written now (the disk full, a lock held too long), of which nothing was written."""
        try:
            yield
        except sqlite3.ProgrammingError:
            raise  # a store used after it was closed: not the file's fault
        except sqlite3.Error as e:
            if is_damage(e):
                raise StoreError(self.path, self._damage(f"{doing}: {e}")) from None
            raise StoreWriteError.of(self.path, doing, e, write) from None

    def _damage(self, what: str) -> list[Problem]:
        """The problem met, and where the damage is."""
        return damage_report(self.path, what, self._conn)


__all__ = ["CACHE_BYTES", "MOVE_STARTS", "EntryReader"]
