"""Reconnaissance questions (8.3) in the journal's notation, Russian or English, read against the
map and the units the asker knows.

    есть ли войска в 40,21 41,21?        troops in 40,21 41,21?             yes / no     0.5
    есть ли войска в Краснодол?          troops in Краснодол?               yes / no     0.5
    есть ли войска на мосту 30,27?       troops on the bridge at 30,27?     yes / no     0.5
    сколько дивизий в 40,21?             how many divisions in 40,21?       a number     1
    где 17 с.д.?                         where is 17 RD?                    cells        1
    пункты мобилизации?                  mobilisation points?               cities       1
    какие войска в 40,21?                what troops in 40,21?              the arm      2

Places with a cell: `в крепости`, `в городе`, `на мосту`, `на дороге`, `на перевале` /
`in the fortress at`, `in the city at`, `on the bridge at`, `on the road at`, `on the pass at`.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from strategia.core.cursor import MAX_LENGTH
from strategia.core.errors import StrategiaError
from strategia.core.geometry import Cell
from strategia.core.i18n import Lang, check_lang
from strategia.core.vocab import norm
from strategia.notation.refs import (
    AmbiguousNotationError,
    IllegalNotationError,
    InvalidNotationError,
    KnownUnits,
    NotationContext,
    NotationError,
    UnitRef,
    parse_cell,
)
from strategia.rules.kinds import Side
from strategia.theatre import terrain

# One example of each form the reader takes (the table above), (Russian, English): what the
# screens show beside a question's input.
EXAMPLES = (
    ("есть ли войска в 40,21?", "troops in 40,21?"),
    ("сколько дивизий в 40,21?", "how many divisions in 40,21?"),
    ("где 17 с.д.?", "where is 17 RD?"),
    ("пункты мобилизации?", "mobilisation points?"),
    ("какие войска в 40,21?", "what troops in 40,21?"),
)

# fmt: off
KINDS = ("presence", "count", "kind", "where", "place", "mobilisation")
COST_PARAM = {"presence": "cost_yes_no", "place": "cost_yes_no", "count": "cost_number",
              "where": "cost_number", "mobilisation": "cost_number", "kind": "cost_kind"}
FEATURES = {"fortress": ("в крепости", "in the fortress at"),
            "city": ("в городе", "in the city at"), "bridge": ("на мосту", "on the bridge at"),
            "road": ("на дороге", "on the road at"), "pass": ("на перевале", "on the pass at")}
_HEAD = {"presence": ("есть ли войска в", "troops in"), "place": ("есть ли войска в", "troops in"),
         "count": ("сколько дивизий в", "how many divisions in"),
         "kind": ("какие войска в", "what troops in"), "where": ("где", "where is")}
_FORMS = {kind: re.compile(r"\s*(?:" + pattern + r")(?!\w)", re.I) for kind, pattern in (
    ("mobilisation", r"(?:где\s+)?пункты\s+мобилизации|mobili[sz]ation\s+points"),
    ("count", r"(?:сколько\s+дивизий|how\s+many\s+divisions(?:\s+are\s+there)?)\s+(?:в|in)"),
    ("kind", r"(?:какие\s+войска|what\s+(?:kind\s+of\s+)?troops(?:\s+are\s+there)?)\s+(?:в|in)"),
    ("where", r"где(?:\s+находится)?|where(?:\s+is)?"),
    ("presence", r"есть\s+ли\s+войска|(?:are\s+there\s+)?(?:any\s+)?troops"),
    ("feature", r"в\s+(?:крепости|городе)|на\s+(?:мосту|дороге|перевале)"
                r"|(?:in|on)\s+(?:the\s+)?(?:fortress|city|bridge|road|pass)(?:\s+at)?"),
    ("in", r"в|in"),
)}
# fmt: on
_FEATURE_NAME = {ru.split()[-1]: key for key, (ru, _) in FEATURES.items()} | {
    k: k for k in FEATURES
}
_CELL = re.compile(r"[0-9]+\s*[,\-‐‑‒–—−]\s*[0-9]+|\S+")
_EXPECTED = "; ".join(f"'{h[0]} ...' / '{h[1]} ...'" for k, h in _HEAD.items() if k != "place")
_EXPECTED += "; 'пункты мобилизации' / 'mobilisation points'"
_HEADS = ("mobilisation", "count", "kind", "where", "presence")


@dataclass(frozen=True, slots=True)
class Question:
    """A reconnaissance question (8.3): its kind, the cells, unit or place it asks about, the side.

    `place` is a named place (`Краснодол`); `feature` with one cell a fortress, city, bridge,
    road or pass (`на мосту 30,27`).
    """

    kind: str
    cells: tuple[Cell, ...] = ()
    unit: UnitRef | None = None
    place: str = ""
    feature: str = ""
    side: str = ""

    def __post_init__(self) -> None:
        k = self.kind
        if k not in KINDS:
            raise StrategiaError(f"question kind {k!r}: expected one of {', '.join(KINDS)}")
        place = bool(self.place) or (self.feature in FEATURES and len(self.cells) == 1)
        if (
            (k == "where" and self.unit is None)
            or (k == "place" and not place)
            or (k in ("presence", "count", "kind") and not self.cells)
        ):
            raise StrategiaError(f"a {k!r} question needs its cells, unit or place: {self!r}")

    def __str__(self) -> str:
        return self.format("ru")

    def __repr__(self) -> str:
        side = f", side={self.side!r}" if self.side else ""
        return f"parse_question({self.format('ru')!r}{side})"

    def format(self, lang: Lang = "ru") -> str:
        """The canonical question: `есть ли войска в 40,21?`, `where is 17 RD?`."""
        en = check_lang(lang) == "en"
        if self.kind == "mobilisation":
            return "mobilisation points?" if en else "пункты мобилизации?"
        head = _HEAD[self.kind][en]
        if self.unit is not None:
            return f"{head} {self.unit.format(lang)}?"
        if self.place:
            return f"{head} {self.place}?"
        cells = " ".join(map(str, self.cells))
        if self.feature:
            return f"{_HEAD['place'][en].rsplit(' ', 1)[0]} {FEATURES[self.feature][en]} {cells}?"
        return f"{head} {cells}?"


def _col(text: str, pos: int) -> int:
    """The 1-based column of the first non-blank character at or after `pos`."""
    return len(text) - len(text[pos:].lstrip()) + 1


def _at(text: str, offset: int, err: NotationError) -> NotationError:
    return type(err)(text, err.problem, offset + (err.column or 1), err.expected)


def parse_question(
    text: str, context: NotationContext | None = None, *, side: str = ""
) -> Question:
    """A question from its Russian or English form (a trailing `?` optional); cells and place
    names are checked against `context`'s map if given. A unit may be any designation, as
    written (8.3: a side asks about what it does not know); only a bare number (`где 21?`) is
    completed, from the units `context` knows (a side's own knowledge:
    `strategia.game.knowledge`)."""
    if len(text) > MAX_LENGTH:
        raise InvalidNotationError(
            text[:60] + "…", f"{len(text)} characters", 1, f"at most {MAX_LENGTH}"
        )
    end, side = len(text.rstrip().rstrip("?").rstrip()), Side.parse(side).key if side else ""
    heads = ((k, _FORMS[k].match(text, 0, end)) for k in _HEADS)
    kind, m = next(((k, m) for k, m in heads if m), ("", None))
    if m is None:
        raise InvalidNotationError(text, "not a reconnaissance question", 1, _EXPECTED)
    pos = m.end()
    if kind == "mobilisation" and text[pos:end].strip():
        raise InvalidNotationError(text, "unexpected text", _col(text, pos), "the end")
    if kind == "mobilisation":
        return Question(kind, side=side)
    if kind == "where":
        try:
            unit = UnitRef.parse_named(text[pos:end], _units(context))
            return Question(kind, unit=unit, side=side)
        except NotationError as e:
            raise _at(text, pos, e) from None
    if kind == "presence" and (f := _FORMS["feature"].match(text, pos, end)):
        feature = _FEATURE_NAME[[w for w in f[0].lower().split() if w != "at"][-1]]
        cells = _cells(text, f.end(), end, context)
        ds, at = _theatre(context), _col(text, f.end())
        if len(cells) != 1:
            raise InvalidNotationError(text, f"{len(cells)} cells", at, "one cell")
        if ds is not None and (problem := feature_problem(ds, feature, cells[0])):
            raise IllegalNotationError(text, problem, at, f"a cell with a {feature}")
        return Question("place", cells, feature=feature, side=side)
    if kind == "presence":
        if not (i := _FORMS["in"].match(text, pos, end)):
            expected = "'в <cells or place>' / 'in <cells or place>'"
            raise InvalidNotationError(text, "no place", _col(text, pos), expected)
        pos, rest = i.end(), text[i.end() : end].strip()
        if rest and not rest[0].isdigit():
            return Question("place", place=_place(text, pos, rest, context), side=side)
    return Question(kind, _cells(text, pos, end, context), side=side)


@dataclass(frozen=True)
class _Units:
    """A game's units for a `where` question: those on the map and every one in the scenario
    (armies, reserves not yet mobilised), listed only when a bare number is completed."""

    state: Any

    @property
    def width(self) -> int:
        return int(self.state.width)

    @property
    def height(self) -> int:
        return int(self.state.height)

    @property
    def known_units(self) -> Collection[UnitRef]:
        return KnownUnits(self.state.known_units, self.state.scenario.known_units)


def _units(context: NotationContext | None) -> NotationContext | None:
    if context is None or getattr(context, "scenario", None) is None:
        return context
    return _Units(context)


def _cells(text: str, pos: int, end: int, context: NotationContext | None) -> tuple[Cell, ...]:
    out = []
    for m in _CELL.finditer(text, pos, end):
        try:
            out.append(parse_cell(m[0], context))
        except NotationError as e:
            raise _at(text, m.start(), e) from None
    if not out:
        raise InvalidNotationError(text, "no cells", pos + 1, "cells like 40,21 41,21")
    return tuple(out)


def _theatre(context: object) -> Any:
    return getattr(context, "theatre", None)


def _place(text: str, pos: int, name: str, context: NotationContext | None) -> str:
    """The place's name as the map writes it (a Russian case ending forgiven), if a map is known."""
    ds = _theatre(context)
    if ds is None:
        return name
    names = list(dict.fromkeys(n for n, _ in terrain.places(ds)))
    at = text.index(name, pos) + 1
    found = [n for n in names if norm(n) == norm(name)] or [n for n in names if _like(n, name)]
    if not found:
        raise IllegalNotationError(text, f"no place {name!r} on the map", at, ", ".join(names))
    if len(found) > 1:
        raise AmbiguousNotationError(text, f"{name!r} could be {', '.join(found)}", at)
    return found[0]


def _like(a: str, b: str) -> bool:
    """Words alike up to their last two letters: `Краснодоле` is `Краснодол`."""
    wa, wb = a.lower().replace("ё", "е").split(), b.lower().replace("ё", "е").split()
    if len(wa) != len(wb):
        return False
    ks = [max(len(x), len(y)) - 2 for x, y in zip(wa, wb, strict=True)]
    return all(k >= 3 and x[:k] == y[:k] for k, x, y in zip(ks, wa, wb, strict=True))


def feature_problem(ds: Any, feature: str, cell: Cell) -> str | None:
    if not terrain.on_map(ds, cell):
        return f"{cell} is off the map"
    i, j = terrain.index(ds, cell)
    has = {
        "fortress": lambda: bool(ds["fortress"].values[i, j]),
        "city": lambda: int(ds["settlement"].values[i, j]) > 0,
        "bridge": lambda: bool(terrain.bridges(ds)[:, i, j].any()),
        "road": lambda: int(ds["road"].values[i, j]) > 0,
        "pass": lambda: bool(terrain.passes(ds)[i, j]),
    }[feature]()
    return None if has else f"no {feature} at {cell}"
