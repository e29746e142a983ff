"""Where in the journal a command was decided, and whether it may still be carried out there.

Every command that depends on the position (an order, a question, End turn, a computer's move,
a sealed order accepted, rejected or amended, Undo, an intervention) may carry the journal
position it was decided on (`at`: the last entry its screen showed). The store commits it only
if nothing the decider would have seen has been written since (checked in the transaction that
records it, `strategia.game.commands.Commands._command`); otherwise it is refused with
`StaleError`, and nothing changes.

What the decider would have seen: the mediator sees every entry; a side only what it is told
(`told_to`: its own orders and questions, the battles it fought, the End turns, the mediator's
announcements and decisions on its sealed orders). An entry a side is not told of (the enemy's
question, a computer player's note) never makes a side's command stale: a refusal must not tell
a side that something hidden happened (1.6).
"""

from __future__ import annotations

import os
import socket
from collections.abc import Callable, Sequence

from strategia.core.errors import StaleError
from strategia.engine.result import Result
from strategia.game.accounts import told
from strategia.game.entries import Entry
from strategia.rules.kinds import side_name

TOLD_TO_ALL = frozenset({"end-turn", "intervention", "extend", "phase"})
TOLD_TO_NONE = frozenset({"decision", "computer", "claim", "game"})


def holder() -> str:
    """This process, as a claim names it (host and process id)."""
    return f"{socket.gethostname()}:{os.getpid()}"


def told_to(entry: Entry, side: str, entry_at: Callable[[int], Entry]) -> bool:
    """Whether `side` is told of `entry` (`entry_at`: the journal's entry of a number, to read
    an undone or settled order)."""
    d = entry.data
    if entry.kind in TOLD_TO_ALL:
        return True
    if entry.kind in TOLD_TO_NONE:
        return False
    if entry.kind == "ask":
        return d.get("side") == side
    if entry.kind == "order":
        if d.get("queued") or "result" not in d:
            return d.get("side") == side
        return told(Result.from_json(d["result"]), side) is not None
    if entry.kind in ("undo", "reject", "amend"):
        was = entry_at(int(d.get("of", 0)))
        return was.kind not in ("undo", "game") and told_to(was, side, entry_at)
    return True  # a kind this module does not know: count it, to be safe


def stale(
    after: Sequence[Entry], side: str | None, entry_at: Callable[[int], Entry]
) -> list[Entry]:
    """Of the entries written after a command's position, those that make it stale: for the
    mediator (`side` None) every one; for a side, those it is told of."""
    if side is None:
        return list(after)
    return [e for e in after if told_to(e, side, entry_at)]


def stale_error(at: int, last: int, changed: Sequence[Entry], side: str | None) -> StaleError:
    """The refusal of a command decided at entry `at`: for the mediator, what was written
    since; for a side, only that its screen is behind (nothing of what it was not told)."""
    if side is None:
        kinds = ", ".join(dict.fromkeys(e.kind for e in changed))
        kinds_ru = ", ".join(dict.fromkeys(KIND_RU.get(e.kind, e.kind) for e in changed))
        return StaleError(
            f"the game has moved on since this was decided (at entry {at}; now {last}: "
            f"{kinds}): nothing was done; look again and give it again",
            ru=f"игра изменилась после того, как это было решено (на записи {at}; теперь "
            f"{last}: {kinds_ru}): ничего не сделано; посмотрите снова и повторите",
        )
    n = len(changed)
    return StaleError(
        f"the game has changed since {side_name(side, 'en')}'s screen was drawn "
        f"({n} new {'entry' if n == 1 else 'entries'}): nothing was done; look again",
        ru=f"игра изменилась с тех пор, как экран {side_name(side, 'ru', 'gen')} был показан "
        f"(новых записей: {n}): ничего не сделано; посмотрите снова",
    )


KIND_RU = {
    "order": "приказ",
    "end-turn": "конец хода",
    "ask": "вопрос",
    "intervention": "вмешательство",
    "undo": "отмена",
    "reject": "отклонение",
    "amend": "исправление",
    "extend": "продление",
    "phase": "конец войны",
    "decision": "решение компьютера",
    "computer": "смена игрока",
    "claim": "ход компьютера",
}


__all__ = ["StaleError", "holder", "stale", "stale_error", "told_to"]
