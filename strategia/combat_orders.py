"""Combat orders (chapter 9) in the journal's notation, Russian or English.

    удар по 45,23: 17 с.д., 18 с.д.; 19 с.д.                     attack 45,23: 17 RD, 18 RD; 19 RD
    удар по 45,23: 17 с.д. при поддержке 51 а.д.        attack 45,23: 17 RD supported by 51 AD
    ... // оборона: 101 с.д.; 102 с.д.                  ... // defend: 101 RD; 102 RD
    ... // отход                                                 ... // retreat
    51 а.д. огонь по 22,10                                       51 AD fire on 22,10
    51 а.д. огонь по дороге 22,10                                51 AD fire on road 22,10
    51 а.д. огонь по мосту 22,10                                 51 AD fire on bridge 22,10
    51 а.д. огонь на отсечение 22,11                             51 AD interdict 22,11
    ... (подтверждено)                                           ... (confirmed)

Echelons are separated by `;` (9.8c: the first echelon fights first). The part after `//` is the
defender's answer (9.8a, 9.8c): its echelons and support, or a retreat; without it the units in
the target cell accept battle in one echelon.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from strategia.geometry import Cell
from strategia.i18n import Lang
from strategia.notation import (
    InvalidNotationError,
    NotationContext,
    NotationError,
    UnitRef,
    parse_cell,
)
from strategia.orders import _NOWHERE, Order

Echelons = tuple[tuple[UnitRef, ...], ...]


def _units(refs: tuple[UnitRef, ...], lang: Lang) -> str:
    return ", ".join(r.format(lang) for r in refs)


def _echelons(e: Echelons, lang: Lang) -> str:
    return "; ".join(_units(x, lang) for x in e)


@dataclass(frozen=True, slots=True)
class Defence:
    """The defender's answer to an attack: its echelons and support, or a retreat (9.8a, 9.8c)."""

    echelons: Echelons = ()
    support: tuple[UnitRef, ...] = ()
    retreat: bool = False

    def format(self, lang: Lang = "ru") -> str:
        if self.retreat:
            return "отход" if lang == "ru" else "retreat"
        text = ("оборона: " if lang == "ru" else "defend: ") + _echelons(self.echelons, lang)
        if self.support:
            text += (" при поддержке " if lang == "ru" else " supported by ") + _units(
                self.support, lang
            )
        return text


@dataclass(frozen=True, slots=True, repr=False)
class Attack(Order):
    """A blow on the troops in a cell (9.8): the attacker's echelons and support."""

    target: Cell = _NOWHERE
    echelons: Echelons = ()
    support: tuple[UnitRef, ...] = ()
    defence: Defence | None = None

    def format(self, lang: Lang = "ru") -> str:
        head = "удар по" if lang == "ru" else "attack"
        text = f"{head} {self.target}: {_echelons(self.echelons, lang)}"
        if self.support:
            text += (" при поддержке " if lang == "ru" else " supported by ") + _units(
                self.support, lang
            )
        if self.defence is not None:
            text += " // " + self.defence.format(lang)
        return text

    @property
    def attackers(self) -> tuple[UnitRef, ...]:
        return tuple(r for e in self.echelons for r in e)


STRIKE_KINDS = ("units", "road", "bridge", "interdict")


@dataclass(frozen=True, slots=True, repr=False)
class Strike(Order):
    """An artillery strike (9.7): on the units in a cell, a road, a bridge, or interdiction fire."""

    target: Cell = _NOWHERE
    kind: str = "units"
    confirmed: bool = False

    def format(self, lang: Lang = "ru") -> str:
        verb = {
            "units": ("огонь по", "fire on"),
            "road": ("огонь по дороге", "fire on road"),
            "bridge": ("огонь по мосту", "fire on bridge"),
            "interdict": ("огонь на отсечение", "interdict"),
        }[self.kind]
        text = f"{self.unit.format(lang)} {verb[0] if lang == 'ru' else verb[1]} {self.target}"
        if self.confirmed:
            text += " (подтверждено)" if lang == "ru" else " (confirmed)"
        return text


_ATTACK = re.compile(r"^\s*(?:удар\s+по|attack)\s+(?P<cell>\S+?)\s*:\s*(?P<rest>.+)$", re.I)
_SUPPORT = re.compile(r"\s+(?:при\s+поддержке|supported\s+by)\s+", re.I)
_DEFENCE = re.compile(
    r"^\s*(?:(?P<retreat>отход|retreat)|(?:оборона|defend)\s*:\s*(?P<rest>.+))\s*$", re.I
)
_STRIKE = re.compile(
    r"^(?P<unit>.+?)\s+(?P<verb>огонь\s+на\s+отсечение|огонь\s+по\s+дороге|огонь\s+по\s+мосту|огонь\s+по"
    r"|fire\s+on\s+road|fire\s+on\s+bridge|fire\s+on|interdict)\s+(?P<cell>\S+)"
    r"\s*(?P<confirmed>\((?:подтверждено|confirmed)\))?\s*$",
    re.I,
)
_STRIKE_KIND = {
    "огоньнаотсечение": "interdict",
    "interdict": "interdict",
    "огоньподороге": "road",
    "fireonroad": "road",
    "огоньпомосту": "bridge",
    "fireonbridge": "bridge",
    "огоньпо": "units",
    "fireon": "units",
}


def _refs(text: str, full: str, context: NotationContext | None) -> tuple[UnitRef, ...]:
    out = []
    for part in text.split(","):
        if not part.strip():
            continue
        try:
            out.append(UnitRef.parse(part.strip(), context))
        except NotationError as e:
            col = full.find(part.strip()) + (e.column or 1)
            raise type(e)(full, e.problem, col, e.expected) from None
    return tuple(out)


def _echelons_of(
    text: str, full: str, context: NotationContext | None
) -> tuple[Echelons, tuple[UnitRef, ...]]:
    parts = _SUPPORT.split(text, maxsplit=1)
    echelons = tuple(e for e in (_refs(x, full, context) for x in parts[0].split(";")) if e)
    support = _refs(parts[1], full, context) if len(parts) > 1 else ()
    if not echelons:
        raise InvalidNotationError(full, "no units", None, "units, echelons separated by ';'")
    return echelons, support


def parse_combat(text: str, context: NotationContext | None = None) -> Order | None:
    """An attack or a strike from the notation; None if the text is neither."""
    m = _ATTACK.match(text)
    if m:
        head, _, answer = m.group("rest").partition("//")
        try:
            cell = parse_cell(m.group("cell"), context)
        except NotationError as e:
            raise type(e)(text, e.problem, m.start("cell") + (e.column or 1), e.expected) from None
        echelons, support = _echelons_of(head, text, context)
        defence = None
        if answer.strip():
            d = _DEFENCE.match(answer)
            if d is None:
                raise InvalidNotationError(
                    text,
                    "the defender's answer",
                    text.find("//") + 3,
                    "'оборона: ...' / 'defend: ...' or 'отход' / 'retreat'",
                )
            if d.group("retreat"):
                defence = Defence(retreat=True)
            else:
                de, ds = _echelons_of(d.group("rest"), text, context)
                defence = Defence(de, ds)
        return Attack(echelons[0][0], cell, echelons, support, defence)
    s = _STRIKE.match(text)
    if s:
        try:
            unit = UnitRef.parse(s.group("unit"), context)
            cell = parse_cell(s.group("cell"), context)
        except NotationError as e:
            raise type(e)(text, e.problem, e.column, e.expected) from None
        kind = _STRIKE_KIND[re.sub(r"\s+", "", s.group("verb").lower())]
        return Strike(unit, cell, kind, bool(s.group("confirmed")))
    return None
