"""The kinds of argument an order's template can hold (`{to:cell}`, `{unit:division}`...): how
each is read from a line of notation and written back.

Free slots (units, directions, regiments) run to the next word of the form; the others (cells,
flags) end by themselves.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from strategia.core.cursor import Cursor
from strategia.core.errors import (
    IllegalNotationError,
    InvalidNotationError,
    NotationError,
    UnknownNameError,
)
from strategia.core.geometry import Cell, Direction
from strategia.core.i18n import Lang
from strategia.core.vocab import Kind
from strategia.notation.refs import NotationContext, UnitRef, parse_cell
from strategia.notation.template import Phrase
from strategia.rules.kinds import Formation, RegimentKind, RegimentsFacing


class Fail(Exception):
    """A form that does not match: the error, and whether the form's own words were found."""

    def __init__(
        self, error: NotationError, committed: bool, wanted: str = "", at: int = 0
    ) -> None:
        super().__init__(str(error))
        self.error = error
        self.committed = committed
        self.wanted = wanted  # for a unit of the wrong echelon: what was wanted
        self.at = at  # where the form's own words were found


class SlotType:
    """How one kind of argument is read and written. `free` slots run to the next word."""

    free = True

    def read(self, cur: Cursor, end: int, ctx: NotationContext | None) -> Any:
        raise NotImplementedError

    def write(self, value: Any, lang: Lang) -> str:
        return str(value)

    def fill(self, names: tuple[str, ...], value: Any) -> dict[str, Any]:
        """The fields a value read fills: one field, or a list's head and the rest."""
        if len(names) == 2:
            return {names[0]: value[0], names[1]: tuple(value[1:])}
        return {names[0]: value}

    def gather(self, names: tuple[str, ...], order: Any) -> Any:
        """The value to write from the order's fields (the inverse of `fill`)."""
        if len(names) == 2:
            return (getattr(order, names[0]), *getattr(order, names[1]))
        return getattr(order, names[0])


def moved(err: NotationError, text: str, offset: int) -> NotationError:
    return err.within(text, offset)


def rest_of(cur: Cursor, end: int) -> tuple[str, int]:
    """The text from the cursor to `end`, stripped, and where it starts."""
    cur.skip()
    raw = cur.text[cur.pos : end]
    start = cur.pos
    cur.pos = end
    return raw.rstrip(), start


class CellSlot(SlotType):
    free = False

    def read(self, cur: Cursor, end: int, ctx: NotationContext | None) -> Cell:
        cur.skip()
        at = cur.pos
        match = re.compile(r"\S+?(?=[\s:;]|$)").match(cur.text, at)
        token = match[0] if match else ""
        try:
            cell = parse_cell(token, ctx)
        except NotationError as e:
            raise moved(e, cur.text, at) from None
        cur.pos = at + len(token)
        return cell


class CellsSlot(SlotType):
    free = False

    def read(self, cur: Cursor, end: int, ctx: NotationContext | None) -> tuple[Cell, ...]:
        out = [CellSlot().read(cur, end, ctx)]
        while True:
            cur.skip()
            if cur.pos >= end or not cur.text[cur.pos].isdigit():
                return tuple(out)
            out.append(CellSlot().read(cur, end, ctx))

    def write(self, value: Any, lang: Lang) -> str:
        return " ".join(map(str, value))


class UnitSlot(SlotType):
    """A unit; `echelons` limits it to divisions, corps or both; a `new` one is not yet known."""

    def __init__(self, echelons: tuple[str, ...] = (), new: bool = False) -> None:
        self.echelons = echelons
        self.new = new

    def read(self, cur: Cursor, end: int, ctx: NotationContext | None) -> Any:
        text, at = rest_of(cur, end)
        return self.unit(cur.text, text, at, ctx)

    def unit(self, full: str, text: str, at: int, ctx: NotationContext | None) -> UnitRef:
        try:
            ref = UnitRef.parse(text, None if self.new else ctx)
        except NotationError as e:
            raise moved(e, full, at) from None
        if self.echelons and ref.echelon not in self.echelons:
            what = " or ".join(self.echelons)
            err = IllegalNotationError(full, f"{ref} is not a {what}", at + 1, f"a {what}")
            raise Fail(err, True, wanted=what)
        return ref

    def write(self, value: Any, lang: Lang) -> str:
        return str(value.format(lang))


class UnitsSlot(UnitSlot):
    """Units separated by commas; with echelons given (divisions), each named once."""

    def read(self, cur: Cursor, end: int, ctx: NotationContext | None) -> Any:
        text, at = rest_of(cur, end)
        return self.units(cur.text, text, at, ctx)

    def units(
        self, full: str, text: str, at: int, ctx: NotationContext | None
    ) -> tuple[UnitRef, ...]:
        out: list[UnitRef] = []
        for piece, start in _split(text, at, ","):
            ref = self.unit(full, piece, start, ctx)
            if self.echelons and ref in out:
                problem = f"{ref} named twice"
                raise IllegalNotationError(full, problem, start + 1, "different units")
            out.append(ref)
        return tuple(out)

    def write(self, value: Any, lang: Lang) -> str:
        return ", ".join(r.format(lang) for r in value)


class EchelonsSlot(UnitsSlot):
    """Echelons separated by `;`, each a list of units (9.8c: the first fights first)."""

    def read(self, cur: Cursor, end: int, ctx: NotationContext | None) -> Any:
        text, at = rest_of(cur, end)
        echelons = []
        for piece, start in _split(text, at, ";", keep_empty=False):
            echelons.append(self.units(cur.text, piece, start, ctx))
        if not echelons:
            raise InvalidNotationError(cur.text, "no units", at + 1, "units, echelons split by ';'")
        return tuple(echelons)

    def write(self, value: Any, lang: Lang) -> str:
        return "; ".join(UnitsSlot.write(self, e, lang) for e in value)


REST = ("остальные", "the rest")  # the echelon of a statute that takes the troops not named


class StatuteEchelonsSlot(UnitsSlot):
    """A movement statute's echelons (5.9): as a blow's (`;` between echelons, `,` between
    units), each unit named once, and «остальные» / «the rest» in the echelon that takes the
    formation's troops not named. Its value: (echelons, the rest's echelon from 1, or 0)."""

    def read(self, cur: Cursor, end: int, ctx: NotationContext | None) -> Any:
        text, at = rest_of(cur, end)
        echelons: list[tuple[UnitRef, ...]] = []
        rest, named = 0, set()
        for piece, start in _split(text, at, ";", keep_empty=False):
            units: list[UnitRef] = []
            for item, where in _split(piece, start, ","):
                if item.casefold() in REST:
                    if rest:
                        raise IllegalNotationError(
                            cur.text, f"{item!r} named twice", where + 1, "once, in one echelon"
                        )
                    rest = len(echelons) + 1
                    continue
                ref = self.unit(cur.text, item, where, ctx)
                if ref in named:
                    raise IllegalNotationError(
                        cur.text, f"{ref} named twice", where + 1, "each unit in one echelon"
                    )
                named.add(ref)
                units.append(ref)
            echelons.append(tuple(units))
        if not echelons:
            raise InvalidNotationError(
                cur.text, "no echelons", at + 1, "units, echelons split by ';'"
            )
        return tuple(echelons), rest

    def write(self, value: Any, lang: Lang) -> str:
        echelons, rest = value
        rest_word = REST[0] if lang == "ru" else REST[1]
        return "; ".join(
            ", ".join([*(r.format(lang) for r in e), *([rest_word] if k == rest else [])])
            for k, e in enumerate(echelons, 1)
        )

    def fill(self, names: tuple[str, ...], value: Any) -> dict[str, Any]:
        return dict(zip(names, value, strict=True))

    def gather(self, names: tuple[str, ...], order: Any) -> Any:
        return tuple(getattr(order, n) for n in names)


class KmSlot(SlotType):
    """A distance in whole kilometres, 1 to 100 (`5` in `через 5 км`)."""

    free = False

    def read(self, cur: Cursor, end: int, ctx: NotationContext | None) -> int:
        km, at = cur.number("distance")
        if km > 100:
            raise cur.error(InvalidNotationError, f"{km} km out of range", "1 to 100 km", at)
        return km


def _split(text: str, at: int, sep: str, keep_empty: bool = True) -> Iterator[tuple[str, int]]:
    """The pieces of `text` (which starts at `at`) between `sep`, stripped, with their starts."""
    pos = 0
    for raw in text.split(sep):
        lead = len(raw) - len(raw.lstrip())
        piece = raw.strip()
        if piece or keep_empty:
            yield piece, at + pos + lead
        pos += len(raw) + 1


_DIRECTIONS = "one of {} / {}".format(
    ", ".join(d.ru for d in Direction), ", ".join(d.en for d in Direction)
)


class DirectionSlot(SlotType):
    def read(self, cur: Cursor, end: int, ctx: NotationContext | None) -> Direction:
        text, at = rest_of(cur, end)
        if not text:
            raise InvalidNotationError(cur.text, "no direction", at + 1, _DIRECTIONS)
        try:
            return Direction.parse(text)
        except UnknownNameError as e:
            problem = str(e).partition(" (allowed: ")[0]
            raise InvalidNotationError(cur.text, problem, at + 1, _DIRECTIONS) from None

    def write(self, value: Any, lang: Lang) -> str:
        return str(value.ru if lang == "ru" else value.en)


_REGIMENT = re.compile(r"(?:(?:полк|regiment)\s+(?=\d))?(\d*)\s*(.*)", re.IGNORECASE | re.DOTALL)
_REGIMENT_KINDS = "N <type>, <type> or полк N / regiment N; types: " + ", ".join(
    f"{k.ru}/{k.en}" for k in RegimentKind
)


class RegimentSlot(SlotType):
    """A regiment of a division: `2 с.п.` (the 2nd rifle regiment), `с.п.`, `полк 4` (the 4th)."""

    def read(self, cur: Cursor, end: int, ctx: NotationContext | None) -> tuple[int, Any]:
        text, at = rest_of(cur, end)
        m = _REGIMENT.fullmatch(text)
        assert m is not None  # the pattern matches any text
        if not (m[1] or m[2]) or int(m[1] or "1") == 0:
            raise InvalidNotationError(
                cur.text, f"no regiment {m[1]}".strip(), at + 1, _REGIMENT_KINDS
            )
        try:
            kind = RegimentKind.parse(m[2]) if m[2] else None
        except UnknownNameError:
            problem = f"unknown regiment type {m[2]!r}"
            at += m.start(2)
            raise InvalidNotationError(cur.text, problem, at + 1, _REGIMENT_KINDS) from None
        return int(m[1] or 1), kind

    def write(self, value: Any, lang: Lang) -> str:
        n, kind = value
        if kind is None:
            return f"{'полк' if lang == 'ru' else 'regiment'} {n}"
        return f"{n} {kind.ru if lang == 'ru' else kind.en}"

    def fill(self, names: tuple[str, ...], value: Any) -> dict[str, Any]:
        return dict(zip(names, value, strict=True))

    def gather(self, names: tuple[str, ...], order: Any) -> Any:
        return tuple(getattr(order, n) for n in names)


class FlagSlot(SlotType):
    """Words that are there or not: True when present (`{confirmed:flag=(подтверждено)}`)."""

    free = False

    def __init__(self, phrase: Phrase) -> None:
        self.phrase = phrase

    def read(self, cur: Cursor, end: int, ctx: NotationContext | None) -> bool:
        return cur.take(self.phrase.pattern) is not None

    def write(self, value: Any, lang: Lang) -> str:
        return self.phrase.write() if value else ""


class VocabularySlot(SlotType):
    """A name of a closed vocabulary (formations, the regiments' facing), in either language."""

    def __init__(self, vocab: type[Kind], what: str) -> None:
        self.vocab = vocab
        self.what = what

    def read(self, cur: Cursor, end: int, ctx: NotationContext | None) -> Any:
        text, at = rest_of(cur, end)
        names = ", ".join(f"{m.ru} / {m.en}" for m in self.vocab)
        if not text:
            raise InvalidNotationError(cur.text, f"no {self.what}", at + 1, names)
        try:
            return self.vocab.parse(text)
        except UnknownNameError as e:
            problem = str(e).partition(" (allowed: ")[0]
            raise InvalidNotationError(cur.text, problem, at + 1, names) from None

    def write(self, value: Any, lang: Lang) -> str:
        return str(value.ru if lang == "ru" else value.en)


SLOTS: dict[str, SlotType] = {
    "cell": CellSlot(),
    "cells": CellsSlot(),
    "unit": UnitSlot(),
    "division": UnitSlot(("division",)),
    "corps": UnitSlot(("corps",)),
    "new_corps": UnitSlot(("corps",), new=True),
    "new_division": UnitSlot(("division",), new=True),
    "regiments": UnitsSlot(("regiment",)),
    "units": UnitsSlot(),
    "divisions": UnitsSlot(("division",)),
    "echelons": EchelonsSlot(),
    "statute_echelons": StatuteEchelonsSlot(),
    "km": KmSlot(),
    "direction": DirectionSlot(),
    "formation": VocabularySlot(Formation, "formation"),
    "regiments_facing": VocabularySlot(RegimentsFacing, "facing of the regiments"),
    "regiment": RegimentSlot(),
}
