"""The seeds' journal notation for units and their positions, read and written both ways.

The journal writes `17 с.д. - 45,22`, `14 с.д. - 13-17 фронтом на север` and
`2 т.к. расположен между 13-18 и 13-21`; the English `17 RD - 45,22 facing N` and
`2 TC between 13,18 and 13,21` are read too. Parsing gives value objects whose `str` is the
canonical Russian and whose `repr` is the call that parses it. Bad notation raises one of three
`NotationError`s naming the input, the column and what was expected: malformed
(`InvalidNotationError`), impossible where it is used (`IllegalNotationError`), or matching more
than one thing (`AmbiguousNotationError`).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple, Protocol

from strategia.core.cursor import DASHES, Cursor
from strategia.core.errors import (
    AmbiguousNotationError,
    IllegalNotationError,
    InvalidNotationError,
    NotationError,
    StrategiaError,
    UnknownNameError,
)
from strategia.core.geometry import Cell, Direction
from strategia.core.i18n import Lang, check_lang
from strategia.core.vocab import norm
from strategia.rules.kinds import (
    CommandKind,
    CorpsKind,
    DivisionKind,
    Formation,
    RegimentKind,
    RegimentsFacing,
)

__all__ = [
    "AmbiguousNotationError",
    "IllegalNotationError",
    "InvalidNotationError",
    "KnownUnits",
    "NotationContext",
    "NotationError",
    "Placement",
    "UnitRef",
    "parse_cell",
    "ref_order",
]


class NotationContext(Protocol):
    """What legality is checked against: the map's size in cells and the known units.

    An empty `known_units` means units are not checked (and a bare number cannot be resolved).
    """

    @property
    def width(self) -> int: ...

    @property
    def height(self) -> int: ...

    @property
    def known_units(self) -> Collection[UnitRef]: ...


class KnownUnits(Collection["UnitRef"]):
    """The known units of a notation context, as the union of a few collections (a state's
    divisions and its corps): membership is each part's own, never a scan."""

    __slots__ = ("_parts",)

    def __init__(self, *parts: Collection[UnitRef]) -> None:
        self._parts = parts

    def __contains__(self, ref: object) -> bool:
        return any(ref in p for p in self._parts)

    def __iter__(self) -> Iterator[UnitRef]:
        return iter(dict.fromkeys(r for p in self._parts for r in p))

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __bool__(self) -> bool:
        return any(len(p) for p in self._parts)


UnitType = DivisionKind | CorpsKind | CommandKind | None

_ARMY = frozenset(map(norm, ("А", "A", "армия", "army", "арм.")))
_TYPES = "one of {} / {}".format(
    ", ".join([*(k.ru for k in (*DivisionKind, *CorpsKind, *CommandKind)), "А"]),
    ", ".join([*(k.en for k in (*DivisionKind, *CorpsKind, *CommandKind)), "A"]),
)
_DIRECTIONS = "one of {} / {}".format(
    ", ".join(d.ru for d in Direction), ", ".join(d.en for d in Direction)
)
_POSITION = "' - <cell>' or 'между <cell> и <cell>'"

_UNIT_DASH = re.compile(f"[{re.escape(DASHES)}]")
_LOCATED = re.compile(r"(?:расположен[аоы]?|located)(?!\w)", re.IGNORECASE)
_BETWEEN = re.compile(r"(?:между|between)(?!\w)", re.IGNORECASE)
_AND = re.compile(r"(?:и|and)(?!\w)", re.IGNORECASE)
_SEMICOLON = re.compile(";")
_FACING = re.compile(r"(?:фронтом\s+на|facing)(?!\w)", re.IGNORECASE)
_TYPE_END = re.compile(
    f"[0-9{re.escape(DASHES)}]"
    r"|(?<!\w)(?:расположен[аоы]?|located|между|between|фронтом|facing)(?!\w)",
    re.IGNORECASE,
)


def _unknown(err: UnknownNameError) -> str:
    """The UnknownNameError's message without its list of allowed names."""
    return str(err).partition(" (allowed: ")[0]


@dataclass(frozen=True, slots=True)
class UnitRef:
    """A unit as the journal names it: a number and a division, corps or front type (None: an
    army); a regiment of a division adds its place among the division's regiments of its type:
    `2 с.п. 17 с.д.` is the second rifle regiment of the 17th rifle division (4.9-4.11)."""

    number: int
    kind: UnitType = None
    regiment: tuple[int, RegimentKind] | None = None
    _hash: int = field(init=False, repr=False, compare=False)  # a key of every unit index

    def __post_init__(self) -> None:
        if self.number < 1:
            raise StrategiaError(f"unit number {self.number} is not positive")
        if self.regiment is not None and (
            not isinstance(self.kind, DivisionKind) or self.regiment[0] < 1
        ):
            raise StrategiaError(f"{self.regiment}: a regiment belongs to a division, from 1")
        object.__setattr__(self, "_hash", hash((self.number, self.kind, self.regiment)))

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[type[UnitRef], tuple[int, UnitType, Any]]:
        return (UnitRef, (self.number, self.kind, self.regiment))  # the hash made anew

    @property
    def division(self) -> UnitRef:
        """The division itself, or the division a regiment belongs to."""
        return UnitRef(self.number, self.kind) if self.regiment is not None else self

    def __str__(self) -> str:
        return self.format()

    def __repr__(self) -> str:
        return f"UnitRef.parse({str(self)!r})"

    @property
    def echelon(self) -> Literal["front", "army", "corps", "division", "regiment"]:
        if self.regiment is not None:
            return "regiment"
        if self.kind is None:
            return "army"
        if isinstance(self.kind, CommandKind):
            return "front"
        return "corps" if isinstance(self.kind, CorpsKind) else "division"

    def format(self, lang: Lang = "ru") -> str:
        """`17 с.д.` (or `17 RD` in English); an army is `1 А`; a regiment `2 с.п. 17 с.д.`."""
        en = lang != "ru" and check_lang(lang) == "en"
        if self.kind is None:
            return f"{self.number} {'A' if en else 'А'}"
        text = f"{self.number} {self.kind.en if en else self.kind.ru}"
        if self.regiment is not None:
            n, k = self.regiment
            text = f"{n} {k.en if en else k.ru} {text}"
        return text

    @classmethod
    def parse(cls, text: str, context: NotationContext | None = None) -> UnitRef:
        """A unit from `17 с.д.`, `17 сд`, `17 RD` or `1 А`; a bare `17` needs known units."""
        reader = _Reader(text)
        raw = reader.unit()
        if not reader.at_end():
            raise reader.error(InvalidNotationError, "unexpected text after the unit", "the end")
        return reader.resolve(raw, context)

    @classmethod
    def parse_named(cls, text: str, context: NotationContext | None = None) -> UnitRef:
        """A unit as written, whether or not any such unit exists (a question may name any):
        `17 с.д.`, `1 А`. Only what the text leaves open is read against the units `context`
        knows: a bare `17`, or a type that fits a division and a corps alike (`17 rifle`)."""
        reader = _Reader(text)
        raw = reader.unit()
        if not reader.at_end():
            raise reader.error(InvalidNotationError, "unexpected text after the unit", "the end")
        return reader.as_written(raw, context)


@dataclass(frozen=True, slots=True)
class Placement:
    """Where a unit stands: one cell, or two in one grid line it is spread between, and facing;
    in a scenario's deployment, its formation and its regiments' facing too (9.6):
    `17 с.д. - 45,22 фронтом на запад; построение опорное; полки к линии фронта`."""

    unit: UnitRef
    cells: tuple[Cell, ...]
    facing: Direction | None = None
    formation: Formation | None = None
    regiments: RegimentsFacing | None = None

    def __post_init__(self) -> None:
        if shape := _shape_problem(self.cells):
            written = f"{self.unit} {' '.join(map(str, self.cells))}"
            raise IllegalNotationError(written, shape[0], expected=shape[1])

    def __str__(self) -> str:
        return self.format()

    def __repr__(self) -> str:
        return f"Placement.parse({str(self)!r})"

    def format(self, lang: Lang = "ru") -> str:
        """The canonical notation: `14 с.д. - 13-17 фронтом на север`, `17 RD - 45,22 facing N`."""
        en = check_lang(lang) == "en"
        text = self.unit.format(lang)
        if len(self.cells) == 1:
            text += f" - {self.cells[0]}"
        elif en:
            text += f" between {self.cells[0]} and {self.cells[1]}"
        else:
            verb = "расположен" if isinstance(self.unit.kind, CorpsKind) else "расположена"
            text += f" {verb} между {self.cells[0]} и {self.cells[1]}"
        if self.facing is not None:
            text += f" facing {self.facing.en}" if en else f" фронтом на {self.facing.ru}"
        if self.formation is not None:
            text += (
                f"; formation {self.formation.en}" if en else f"; построение {self.formation.ru}"
            )
        if self.regiments is not None:
            text += f"; regiments {self.regiments.en}" if en else f"; полки {self.regiments.ru}"
        return text

    @classmethod
    def parse(cls, text: str, context: NotationContext | None = None) -> Placement:
        """A placement from the journal's notation, checked against `context` if given."""
        reader = _Reader(text)
        raw = reader.unit()
        cells = reader.position()
        facing = reader.facing()
        formation, regiments = reader.formation()
        unit = reader.resolve(raw, context)
        reader.check_cells(cells, context)
        if shape := _shape_problem(tuple(c for c, _, _ in cells)):
            raise reader.error(IllegalNotationError, shape[0], shape[1], at=cells[-1][1])
        return cls(unit, tuple(c for c, _, _ in cells), facing, formation, regiments)


def parse_cell(text: str, context: NotationContext | None = None) -> Cell:
    """A cell from `45,22` or `45-22` (spaces allowed), on the map of `context` if given."""
    reader = _Reader(text)
    cell = reader.cell()
    if not reader.at_end():
        raise reader.error(InvalidNotationError, "unexpected text after the cell", "the end")
    reader.check_cells([cell], context)
    return cell[0]


def _shape_problem(cells: tuple[Cell, ...]) -> tuple[str, str] | None:
    """Why these cells cannot hold one unit, as (problem, expected); None if they can."""
    if len(cells) not in (1, 2):
        return f"{len(cells)} cells given", "one cell or two"
    if len(cells) == 2:
        a, b = cells
        if a == b:
            return f"both cells are {a}", "two different cells"
        if a.lon != b.lon and a.lat != b.lat:
            return f"{a} and {b} are not in one grid line", "the same longitude or latitude"
    return None


class _RawUnit(NamedTuple):
    """A unit as written, before it is resolved: its number, type name, types and positions."""

    number: int
    at: int
    name: str
    name_at: int
    kinds: tuple[UnitType, ...]
    regiment: tuple[int, RegimentKind] | None = None


_RawCell = tuple[Cell, int, int]  # the cell and the positions of its longitude and latitude


class _Reader(Cursor):
    """A cursor that also reads units, positions and facings."""

    def cell(self) -> _RawCell:
        lon, lat, sep, lon_at, lat_at = self.cell_parts()
        return Cell(lon, lat, sep), lon_at, lat_at

    def unit(self) -> _RawUnit:
        number, at = self.number("unit number")
        self.skip()
        start = self.pos
        end = _TYPE_END.search(self.text, start)
        self.pos = end.start() if end else len(self.text)
        name = self.text[start : self.pos].strip()
        if not name or norm(name) in _ARMY:
            return _RawUnit(number, at, name, start, () if not name else (None,))
        if self.pos < len(self.text) and self.text[self.pos].isdigit():  # `2 с.п. 17 с.д.`
            regiment = RegimentKind.find(name)
            if regiment is not None:
                return self.regiment_of(number, at, name, regiment)
        found = (DivisionKind.find(name), CorpsKind.find(name), CommandKind.find(name))
        kinds: list[UnitType] = [k for k in found if k is not None]
        if not kinds:
            names = [n for k in (*DivisionKind, *CorpsKind, *CommandKind) for n in (k.ru, k.en)]
            err = UnknownNameError("unit type", name, [*names, "А", "A"])
            raise self.error(InvalidNotationError, _unknown(err), _TYPES, at=start)
        return _RawUnit(number, at, name, start, tuple(kinds))

    def regiment_of(self, number: int, at: int, name: str, kind: RegimentKind) -> _RawUnit:
        """The division after a regiment's number and type: `2 с.п.` `17 с.д.`."""
        parent = self.unit()
        if parent.regiment is not None or not all(
            isinstance(k, DivisionKind) for k in parent.kinds
        ):
            raise self.error(
                IllegalNotationError,
                f"{name} of {parent.number} {parent.name}: a regiment belongs to a division",
                "a division, as in 2 с.п. 17 с.д.",
                at=parent.name_at,
            )
        return parent._replace(regiment=(number, kind), at=at)

    def position(self) -> list[_RawCell]:
        """The cell after a dash, or the two cells after `между` / `between`."""
        dash = self.take(_UNIT_DASH)
        located = self.take(_LOCATED)
        if self.take(_BETWEEN):
            first = self.cell()
            if not self.take(_AND):
                raise self.error(
                    InvalidNotationError, "no second cell", "'и <cell>' / 'and <cell>'"
                )
            return [first, self.cell()]
        if located:
            raise self.error(InvalidNotationError, f"no 'между' after {located[0]!r}", _POSITION)
        if dash:
            return [self.cell()]
        raise self.error(InvalidNotationError, "no position after the unit", _POSITION)

    def facing(self) -> Direction | None:
        """The direction after `фронтом на` / `facing`, which runs to `;` or the end, if any."""
        if not self.take(_FACING):
            if not self.at_end() and self.text[self.pos] != ";":
                expected = "'фронтом на <direction>', 'facing <direction>' or the end"
                raise self.error(InvalidNotationError, "unexpected text", expected)
            return None
        self.skip()
        end = self.text.find(";", self.pos)
        end = len(self.text) if end < 0 else end
        start, word = self.pos, self.text[self.pos : end].strip()
        if not word:
            raise self.error(InvalidNotationError, "no direction", _DIRECTIONS)
        self.pos = end
        try:
            return Direction.parse(word)
        except UnknownNameError as err:
            raise self.error(InvalidNotationError, _unknown(err), _DIRECTIONS, start) from None

    def formation(self) -> tuple[Formation | None, RegimentsFacing | None]:
        """`; построение <formation>` and `; полки <facing>` (either language), if given."""
        formation, regiments = None, None
        while self.take(_SEMICOLON):
            self.skip()
            end = self.text.find(";", self.pos)
            end = len(self.text) if end < 0 else end
            part = self.text[self.pos : end].strip()
            head, _, name = part.partition(" ")
            at = self.pos
            self.pos = end
            try:
                if norm(head) in ("построение", "formation"):
                    formation = Formation.parse(name)
                    continue
                if norm(head) in ("полки", "regiments"):
                    regiments = RegimentsFacing.parse(name)
                    continue
            except UnknownNameError as err:
                raise self.error(InvalidNotationError, _unknown(err), None, at) from None
            expected = "'; построение <formation>' or '; полки <facing>'"
            raise self.error(InvalidNotationError, "unexpected text", expected, at)
        if not self.at_end():
            raise self.error(InvalidNotationError, "unexpected text", "';' or the end")
        return formation, regiments

    def resolve(self, raw: _RawUnit, context: NotationContext | None) -> UnitRef:
        """The one unit `raw` names among the known units, if any are known."""
        units = context.known_units if context is not None else ()

        def same_number() -> list[UnitRef]:
            return sorted({u for u in units if u.number == raw.number}, key=str)

        if raw.kinds:
            refs = [UnitRef(raw.number, k, raw.regiment) for k in raw.kinds]
            found = [r for r in refs if r in units or r.division in units] if units else refs
            if not found:
                listed = " or ".join(map(str, refs))
                others = same_number()
                expected = f"one of {', '.join(map(str, others))}" if others else None
                raise self.error(IllegalNotationError, f"no such unit {listed}", expected, raw.at)
        elif not units:
            raise self.error(InvalidNotationError, "unit type missing", _TYPES, raw.name_at)
        elif not (found := same_number()):
            raise self.error(IllegalNotationError, f"no unit numbered {raw.number}", at=raw.at)
        if len(found) > 1:
            written = f"{raw.number} {raw.name}".strip()
            listed = ", ".join(map(str, found))
            problem = f"{written!r} could be {listed}"
            raise self.error(AmbiguousNotationError, problem, f"one of {listed}", raw.name_at)
        return found[0]

    def as_written(self, raw: _RawUnit, context: NotationContext | None) -> UnitRef:
        """The unit `raw` names as written; a bare number is the one unit of that number
        `context` knows, a type that fits several echelons the one of them it knows (the known
        units are looked at only then). Nothing but the text and those units decides what is
        refused and in what words."""
        refs = [UnitRef(raw.number, k, raw.regiment) for k in raw.kinds]
        if len(refs) == 1:
            return refs[0]
        units = context.known_units if context is not None else ()
        if not refs:
            refs = sorted(
                {UnitRef(u.number, u.kind, raw.regiment) for u in units
                 if u.number == raw.number and u.regiment is None
                 and (raw.regiment is None or isinstance(u.kind, DivisionKind))},
                key=str,
            )  # fmt: skip
            if not refs:
                raise self.error(InvalidNotationError, "unit type missing", _TYPES, raw.name_at)
        else:
            known = [r for r in refs if r in units or r.division in units]
            refs = known if len(known) == 1 else refs
        if len(refs) > 1:
            written = f"{raw.number} {raw.name}".strip()
            listed = ", ".join(map(str, refs))
            problem = f"{written!r} could be {listed}"
            raise self.error(AmbiguousNotationError, problem, f"one of {listed}", raw.name_at)
        return refs[0]

    def check_cells(self, cells: list[_RawCell], context: NotationContext | None) -> None:
        """An IllegalNotationError for the first coordinate off the map of `context`."""
        if context is None:
            return
        for cell, lon_at, lat_at in cells:
            for value, size, at, axis in (
                (cell.lon, context.width, lon_at, "longitude"),
                (cell.lat, context.height, lat_at, "latitude"),
            ):
                if value > size:
                    problem = f"cell off the map, which is {context.width} x {context.height}"
                    raise self.error(IllegalNotationError, problem, f"{axis} 1..{size}", at)


def ref_order(ref: UnitRef) -> tuple[int, str, int, str]:
    """The order of the counters on one cell: by number, type and regiment, whatever order
    they came in (so a game and its replay list a cell's units alike)."""
    reg = ref.regiment
    return (ref.number, str(ref.kind), reg[0] if reg else 0, str(reg[1]) if reg else "")
