"""Where a side last knew an enemy unit to be: the enemy units it identified at the start of an
earlier turn (its view then: in contact, in an open sector), or was told of by an answer to
«где ...?» (as the side received it, true or not), that it does not see now.

A mark stays until the unit is seen again, or until the side learns it moved: its last-known
cells are open to the side's observation now (8.2) and it is not there. Everything is read
from what the side may know (its channel: its views, its answers); a mark carries the unit's
designation, the cells and the turn, never where the unit is now.

The views of past turns never change, so they are kept per game, side and turn once read.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from strategia.core.errors import StrategiaError
from strategia.core.geometry import Cell
from strategia.core.i18n import Lang, Text
from strategia.game.channel import SideChannel
from strategia.game.questions import parse_question
from strategia.game.views import view_for

_CELL = re.compile(r"\b(\d+),(\d+)\b")
Sighting = tuple[tuple[Cell, ...], str]  # the cells and the side a unit was seen as
_KEPT: OrderedDict[tuple[str, str, str, int], dict[str, Sighting]] = OrderedDict()
_KEEP = 2048  # turn views kept (a few hundred bytes each)


@dataclass(frozen=True)
class LastSeen:
    """An enemy unit where the side last knew it to be (`how`: "seen" or "answer")."""

    unit: str  # as the journal writes it (101 с.д.)
    cells: tuple[Cell, ...]
    turn: int
    how: str = "seen"
    side: str = ""  # the enemy side it was seen as ("": not told, an answer)

    def label(self, lang: Lang) -> str:
        """«101 с.д.: видели на ходу 6» / "101 RD: seen on turn 6"."""
        from strategia.game.report_words import unit_name

        words = {
            "seen": Text("seen on turn {t}", "видели на ходу {t}"),
            "answer": Text("reported on turn {t}", "сообщено на ходу {t}"),
        }[self.how]
        return f"{unit_name(self.unit, lang)}: {words(lang).format(t=self.turn)}"

    def to_json(self) -> dict[str, Any]:
        return {"unit": self.unit, "cells": [str(c) for c in self.cells], "turn": self.turn,
                "how": self.how, "side": self.side}  # fmt: skip


def seen_at(ch: SideChannel, turn: int) -> dict[str, Sighting]:
    """The enemy units the side identified at the start of `turn`, with their cells."""
    g = ch.game
    key = (str(g.journal.path), g.journal.game_id, ch.side, turn)
    if key not in _KEPT:
        view = view_for(g.state_at(turn), ch.side, g.rules)
        _KEPT[key] = {str(s.unit): (s.cells, s.side) for s in view.seen if s.unit is not None}
        while len(_KEPT) > _KEEP:
            _KEPT.popitem(last=False)
    _KEPT.move_to_end(key)
    return _KEPT[key]


def _answered(ch: SideChannel) -> list[LastSeen]:
    """The «где ...?» answers the side received that name cells, as it received them."""
    out = []
    for a in ch.answers():
        try:
            q = parse_question(str(a["question"]))
        except StrategiaError:
            continue
        if q.kind != "where" or q.unit is None:
            continue
        text = a["answer"]["ru"] if isinstance(a["answer"], dict) else str(a["answer"])
        cells = tuple(Cell(int(x), int(y)) for x, y in _CELL.findall(text))
        if cells:
            out.append(LastSeen(str(q.unit), cells, int(a["turn"]), "answer"))
    return out


def last_known(ch: SideChannel) -> tuple[LastSeen, ...]:
    """The side's last-known marks now (see the module), by unit."""
    g = ch.game
    now = ch.view()
    marks: dict[str, LastSeen] = {}
    for turn in range(1, g.state.turn):
        for unit, (cells, side) in seen_at(ch, turn).items():
            marks[unit] = LastSeen(unit, cells, turn, "seen", side)
    for told in _answered(ch):
        before = marks.get(told.unit)
        if before is None or before.turn <= told.turn:
            marks[told.unit] = told if before is None else replace(told, side=before.side)
    visible = {str(s.unit) for s in now.seen if s.unit is not None}
    return still_known(sorted(marks.values(), key=lambda m: m.unit), visible, set(now.observed))


def still_known(
    marks: Iterable[LastSeen], visible: set[str], observed: set[Cell]
) -> tuple[LastSeen, ...]:
    """The marks that stay: not of a unit in sight now, nor on cells all open to the side's
    observation now (it would be seen there: the side knows it moved)."""
    return tuple(
        m for m in marks if m.unit not in visible and not all(c in observed for c in m.cells)
    )


__all__ = ["LastSeen", "last_known", "seen_at", "still_known"]
