"""A game forked from a point of another: a new game file whose journal is the original's up to
that point, replayed and compared like an import, whose header names the game and the entry it
came from (`forked_from`). The original is only read.

The point is an entry (`entry`: the game as it was after it) or a turn (`turn`: the start of
that turn, before its first side's move, as `Game.state_at` gives it). The fork keeps the
secret seed, so that the same orders draw the same chances: what differs after the fork is what
the players do otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from strategia.core.collector import collector_paused
from strategia.engine import flow
from strategia.game.game import Game
from strategia.game.history import GameError
from strategia.game.past import move_start
from strategia.game.sqlite_file import remove_file
from strategia.game.store import GameStore


@dataclass(frozen=True)
class ForkPoint:
    """Where a fork is taken: after entry `entry`, which is turn `turn`'s."""

    entry: int
    turn: int

    def to_json(self) -> dict[str, int]:
        return {"entry": self.entry, "turn": self.turn}


def fork_point(game: Game, *, turn: int | None = None, entry: int | None = None) -> ForkPoint:
    """The entry a fork at `turn` (its start) or after `entry` is taken from; exactly one of
    them is given."""
    if (turn is None) == (entry is None):
        raise GameError(
            "a fork needs a turn or an entry, one of the two",
            ru="для ответвления нужен ход или запись — одно из двух",
        )
    last = game.journal.last_seq
    if entry is not None:
        if not 1 <= entry <= last:
            raise GameError(
                f"entry {entry}: this game has entries 1 to {last}",
                ru=f"запись {entry}: в этой игре записи с 1 по {last}",
            )
        return ForkPoint(entry, game.turn_of(entry) if entry > 1 else 1)
    assert turn is not None
    if not 1 <= turn <= game.state.turn:
        raise GameError(
            f"turn {turn}: this game has turns 1 to {game.state.turn}",
            ru=f"ход {turn}: в этой игре ходы с 1 по {game.state.turn}",
        )
    if turn == 1:
        return ForkPoint(1, 1)
    first = flow.sides_in_order(game.state, game.rules)[0]
    seq = move_start(game.journal, turn, first, game._turns)
    return ForkPoint(last if seq is None else seq, turn)


def fork(
    source: Game, path: str | Path, *, turn: int | None = None, entry: int | None = None
) -> Game:
    """A new game at `path` from `source` as it was at `turn`'s start or after `entry`; its
    `replay_problems` list every difference its replay found (none, for a sound original)."""
    source.refresh()
    point = fork_point(source, turn=turn, entry=entry)
    path = Path(path)
    if path.exists():
        raise GameError(
            f"{path}: the file exists; a fork is written to a new file",
            ru=f"{path}: файл уже есть; ответвление пишется в новый файл",
        )
    header: dict[str, Any] = {
        **source.journal.header,
        "forked_from": {"game": source.journal.path.name, **point.to_json()},
    }
    with collector_paused():
        store = GameStore.create(path, header)
        try:
            with store.transaction():
                for e in source.journal.stream(1, point.entry):
                    store.append(e.kind, e.data, time=e.time)
            return Game._rebuild(store, [])
        except BaseException:
            store.close()
            remove_file(path)
            raise


def forked_from(game: Game) -> dict[str, Any] | None:
    """The game and the point a game was forked from (None: not a fork)."""
    data = game.journal.header.get("forked_from")
    return dict(data) if isinstance(data, dict) else None


__all__ = ["ForkPoint", "fork", "fork_point", "forked_from"]
