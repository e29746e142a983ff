"""Orders as values, read from and written in the journal's notation (Russian or English).

    17 с.д. на 45,25                   17 RD to 45,25                  forward movement (4.2)
    17 с.д. на 45,25 через 44,24       17 RD to 45,25 via 44,24        ... by way of cells
    17 с.д. по дороге на 45,25         17 RD by road to 45,25          along roads (4.1)
    17 с.д. отход на 45,20             17 RD withdraw to 45,20         withdrawal (4.4)
    17 с.д. поворот на юг              17 RD turn S                    turning (4.3)
    17 с.д. марш на 45,25 привалы 40,25 42,25    17 RD march to 45,25 halts 40,25 42,25   (4.8)
    17 с.д. переброска в 57,28         17 RD transfer to 57,28         transfer between cities (4.5)
    17 с.д. растянуть на 45,23         17 RD extend to 45,23           frontage 1x1 -> 1x2 (4.6)
    17 с.д. сжать на 45,22             17 RD contract to 45,22         frontage 1x2 -> 1x1 (4.6)
    свести 17 с.д., 18 с.д. в 5 с.к.   form 5 RC from 17 RD, 18 RD     a corps (4.10)
    слить 17 с.д., 18 с.д. в 17 с.д.   merge 17 RD, 18 RD into 17 RD   weakened divisions (4.10)
    17 с.д. передать 2 с.п. в 18 с.д.  17 RD pass 2 RR to 18 RD        a regiment (4.11)
    1 с.к. передать 17 с.д. в 2 с.к.   1 RC pass 17 RD to 2 RC         a division (4.11)

`parse_order(text, context)` returns one of the order classes; `str(order)` is its canonical
Russian notation and `repr(order)` the call that parses it. Bad notation raises the notation's
three errors (invalid, illegal, ambiguous), naming the input and the column.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

from strategia.geometry import Cell, Direction
from strategia.i18n import Lang
from strategia.notation import (
    InvalidNotationError,
    NotationContext,
    NotationError,
    UnitRef,
    parse_cell,
)

_NOWHERE = Cell(1, 1)  # a default the parser always replaces


@dataclass(frozen=True, slots=True)
class Order:
    """An order to one unit."""

    unit: UnitRef

    verbs: ClassVar[tuple[str, str]] = ("", "")

    def __str__(self) -> str:
        return self.format("ru")

    def __repr__(self) -> str:
        return f"parse_order({self.format('ru')!r})"

    def format(self, lang: Lang = "ru") -> str:
        verb = self.verbs[0] if lang == "ru" else self.verbs[1]
        return f"{self.unit.format(lang)} {verb} {self._args(lang)}".rstrip()

    def _args(self, lang: Lang) -> str:
        raise NotImplementedError


def _cells(cells: tuple[Cell, ...]) -> str:
    return " ".join(map(str, cells))


@dataclass(frozen=True, slots=True, repr=False)
class Move(Order):
    """Move to a cell: forward (4.2), along roads (4.1) or withdrawing (4.4)."""

    to: Cell = _NOWHERE
    via: tuple[Cell, ...] = ()
    mode: str = "forward"  # "forward", "road" or "withdraw"

    def format(self, lang: Lang = "ru") -> str:
        verb = {
            "forward": ("на", "to"),
            "road": ("по дороге на", "by road to"),
            "withdraw": ("отход на", "withdraw to"),
        }[self.mode]
        text = f"{self.unit.format(lang)} {verb[0] if lang == 'ru' else verb[1]} {self.to}"
        if self.via:
            text += f" {'через' if lang == 'ru' else 'via'} {_cells(self.via)}"
        return text


@dataclass(frozen=True, slots=True, repr=False)
class Turn(Order):
    """Turn to face a new direction (4.3)."""

    facing: Direction = Direction.N
    verbs: ClassVar[tuple[str, str]] = ("поворот на", "turn")

    def _args(self, lang: Lang) -> str:
        return self.facing.ru if lang == "ru" else self.facing.en


@dataclass(frozen=True, slots=True, repr=False)
class March(Order):
    """A march along roads, planned whole with its halts (4.8, level 2)."""

    to: Cell = _NOWHERE
    halts: tuple[Cell, ...] = ()

    def format(self, lang: Lang = "ru") -> str:
        verb, word = ("марш на", "привалы") if lang == "ru" else ("march to", "halts")
        text = f"{self.unit.format(lang)} {verb} {self.to}"
        return text + (f" {word} {_cells(self.halts)}" if self.halts else "")


@dataclass(frozen=True, slots=True, repr=False)
class Transfer(Order):
    """A transfer between cities by rail (4.5; by road at level 1)."""

    to: Cell = _NOWHERE
    verbs: ClassVar[tuple[str, str]] = ("переброска в", "transfer to")

    def _args(self, lang: Lang) -> str:
        return str(self.to)


@dataclass(frozen=True, slots=True, repr=False)
class Frontage(Order):
    """Extend a division's front to a second cell, or contract it to one (4.6, level 2)."""

    cell: Cell = _NOWHERE
    extend: bool = True

    def format(self, lang: Lang = "ru") -> str:
        verb = ("растянуть на", "extend to") if self.extend else ("сжать на", "contract to")
        return f"{self.unit.format(lang)} {verb[0] if lang == 'ru' else verb[1]} {self.cell}"


_VERBS: list[tuple[str, str]] = [
    # (pattern, kind) longest first
    (r"по\s+дороге\s+на|by\s+road\s+to", "road"),
    (r"отход\s+на|withdraw\s+to", "withdraw"),
    (r"поворот\s+на|поворот|turn\s+to|turn", "turn"),
    (r"марш\s+на|march\s+to", "march"),
    (r"переброска\s+в|переброска\s+на|transfer\s+to", "transfer"),
    (r"растянуть\s+на|extend\s+to", "extend"),
    (r"сжать\s+на|contract\s+to", "contract"),
    (r"на|to", "forward"),
]
_VERB_RE = re.compile(
    r"\s(" + "|".join(f"(?P<{k}>{p})" for p, k in _VERBS) + r")(?=\s)", re.IGNORECASE
)
_KEYWORD = re.compile(r"^(через|via|привалы|halts)$", re.IGNORECASE)


def _parse_cells(text: str, offset: int, full: str, context: NotationContext | None) -> list[Cell]:
    cells = []
    for m in re.finditer(r"\S+", text):
        try:
            cells.append(parse_cell(m.group(0), context))
        except NotationError as e:
            column = offset + m.start() + (e.column or 1)
            raise type(e)(full, e.problem, column, e.expected) from None
    return cells


def parse_order(text: str, context: NotationContext | None = None) -> Order:
    """An order from the journal's notation; see the module's docstring for the forms."""
    from strategia.engine.regroup import parse_regroup  # regroup's orders build on these

    if (regrouping := parse_regroup(text, context)) is not None:
        return regrouping
    from strategia.combat_orders import parse_combat

    if (combat := parse_combat(text, context)) is not None:
        return combat
    m = _VERB_RE.search(text)
    if m is None:
        raise InvalidNotationError(
            text,
            "no order word",
            None,
            "на/to, по дороге на/by road to, отход на/withdraw to, поворот на/turn, "
            "марш на/march to, переброска в/transfer to, растянуть на/extend to, "
            "сжать на/contract to, свести/form, слить/merge, передать/pass",
        )
    kind = next(k for k, v in m.groupdict().items() if v is not None)
    try:
        unit = UnitRef.parse(text[: m.start()], context)
    except NotationError as e:
        raise type(e)(text, e.problem, e.column, e.expected) from None
    rest_at = m.end()
    rest = text[rest_at:]
    if kind == "turn":
        word = rest.strip()
        try:
            return Turn(unit, Direction.parse(word))
        except ValueError as e:
            raise InvalidNotationError(
                text, str(e), rest_at + 2, "a direction: север, юг, N, SE ..."
            ) from None
    words = rest.split()
    split = next((i for i, w in enumerate(words) if _KEYWORD.match(w)), len(words))
    head = " ".join(words[:split])
    tail = " ".join(words[split + 1 :]) if split < len(words) else ""
    cells = _parse_cells(head, rest_at, text, context)
    extra = _parse_cells(tail, text.find(tail, rest_at) if tail else rest_at, text, context)
    if len(cells) != 1:
        raise InvalidNotationError(
            text, f"{len(cells)} cells where one was expected", rest_at + 1, "one cell"
        )
    if split < len(words) and not extra:
        raise InvalidNotationError(text, f"no cells after {words[split]!r}", len(text), "cells")
    to = cells[0]
    keyword = words[split].lower() if split < len(words) else ""
    if kind in ("forward", "road", "withdraw"):
        if keyword in ("привалы", "halts"):
            raise InvalidNotationError(text, "halts belong to a march", None, "через/via")
        return Move(unit, to, tuple(extra), kind)
    if keyword and kind != "march":
        raise InvalidNotationError(text, f"unexpected {keyword!r}", None, "the end")
    if kind == "march":
        if keyword in ("через", "via"):
            raise InvalidNotationError(text, "a march lists its halts", None, "привалы/halts")
        return March(unit, to, tuple(extra))
    if kind == "transfer":
        return Transfer(unit, to)
    return Frontage(unit, to, kind == "extend")
