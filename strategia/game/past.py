"""A game's past, read when asked for: the results, answers and interventions of the entries
before the snapshot the game was taken from, as the journal recorded them, and which turn an
entry belongs to.

Opening a game reads none of it (`strategia.game.history`); `History.results` reads the whole
journal before the snapshot the first time it is asked for (the journal's text, a side's
account, the battle reports, a review), and keeps it: memory then grows with the game's length,
in the process that asked only. The answers and interventions are found through the store's
index of the entries that are not orders, and read one by one. An explanation is kept as its
first step and worked out again when read (`History._unfold`).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable
from typing import Any

from strategia.engine.result import Result
from strategia.explain.trace import Step
from strategia.game.store import Entry, GameStore

ResultRow = tuple[int, int, str, Result]  # entry, turn, side ("" for an End turn's), result
Asked = tuple[int, dict[str, Any]]  # entry, the answer as recorded
Note = tuple[int, int, dict[str, Any]]  # entry, turn, the intervention as recorded
Unfolding = Callable[[int, int], Callable[[], Step]]  # what works out result k of entry seq
Turns = dict[int, tuple[int, str]]  # the End turns read: the turn and side to move each led to


def records(
    store: GameStore, upto: int, unfolding: Unfolding
) -> tuple[list[ResultRow], list[Asked], list[Note]]:
    """Every result, answer and intervention of the entries up to `upto` that were not taken
    back, as the journal recorded them (the entries read in chunks, each checked); each
    result's whole explanation is worked out when read (`unfolding`)."""
    results: list[ResultRow] = []
    answers: list[Asked] = []
    notes: list[Note] = []
    undone: set[int] = set()
    turn = 1
    for e in store.stream(1, upto):
        if e.kind == "undo":
            undone.add(int(e.data["of"]))
        turn = _record(unfolding, e, turn, results, answers, notes)
    return (
        [r for r in results if r[0] not in undone],
        [a for a in answers if a[0] not in undone],
        [n for n in notes if n[0] not in undone],
    )


def _record(
    unfolding: Unfolding,
    e: Entry,
    turn: int,
    results: list[ResultRow],
    answers: list[Asked],
    notes: list[Note],
) -> int:
    """Take in an entry as the journal recorded it; the turn after it."""
    d = e.data
    if e.kind == "order" and not d.get("queued"):
        results.append((e.seq, turn, d["side"], Result.from_json(d["result"], unfolding(e.seq, 0))))
    elif e.kind == "end-turn":
        results += [
            (e.seq, turn, "", Result.from_json(r, unfolding(e.seq, k)))
            for k, r in enumerate(d["results"])
        ]
        return int(d["turn_after"])
    elif e.kind == "ask":
        answers.append((e.seq, d))
    elif e.kind == "intervention":
        notes.append((e.seq, turn, d))
    return turn


def answers(store: GameStore, upto: int) -> list[Asked]:
    """The answers recorded up to entry `upto`, through the store's index."""
    undone = _undone(store, upto)
    return [(s, store.entry(s).data) for s in store.seqs("ask") if s <= upto and s not in undone]


def notes(store: GameStore, upto: int, turns: Turns) -> list[Note]:
    """The interventions recorded up to entry `upto` and not taken back, with their turns."""
    undone = _undone(store, upto)
    return [
        (s, turn_of(store, s, turns), store.entry(s).data)
        for s in store.seqs("intervention")
        if s <= upto and s not in undone
    ]


def _undone(store: GameStore, upto: int) -> set[int]:
    return {int(store.entry(s).data["of"]) for s in store.seqs("undo") if s <= upto}


def turn_of(store: GameStore, seq: int, turns: Turns) -> int:
    """The turn entry `seq` was given in: the turn the last End turn before it led to."""
    ends = store.seqs("end-turn")
    k = bisect_left(ends, seq)
    return 1 if k == 0 else after(store, ends[k - 1], turns)[0]


def after(store: GameStore, seq: int, turns: Turns) -> tuple[int, str]:
    """The turn and the side to move that End turn `seq` led to (read once, then in `turns`)."""
    if seq not in turns:
        d = store.entry(seq).data
        turns[seq] = (int(d.get("turn_after", 0)), str(d.get("next", "")))
    return turns[seq]


def move_start(store: GameStore, turn: int, side: str, turns: Turns) -> int | None:
    """The End turn after which `turn` begins with `side`'s move (None if there is none): a
    search by halves among the End turns, whose turns only grow."""
    ends = store.seqs("end-turn")
    k = bisect_left(range(len(ends)), turn, key=lambda i: after(store, ends[i], turns)[0])
    for seq in ends[k:]:
        t, nxt = after(store, seq, turns)
        if t != turn:
            return None
        if nxt == side:
            return seq
    return None


__all__ = [
    "Asked",
    "Note",
    "ResultRow",
    "Turns",
    "Unfolding",
    "after",
    "answers",
    "move_start",
    "notes",
    "records",
    "turn_of",
]
