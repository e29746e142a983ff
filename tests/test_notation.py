"""The seeds' journal notation: cells, units and placements, read and written both ways."""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from strategia.core.errors import StrategiaError
from strategia.core.geometry import Cell, Direction
from strategia.notation.refs import (
    AmbiguousNotationError,
    IllegalNotationError,
    InvalidNotationError,
    NotationContext,
    NotationError,
    Placement,
    UnitRef,
    parse_cell,
)
from strategia.rules.kinds import CorpsKind, DivisionKind

SEEDS = [
    "17 с.д. - 45,22",
    "14 с.д. - 13-17 фронтом на север",
    "2 т.к. расположен между 13-18 и 13-21",
    "101 а.д. - 20-21",
]


@dataclass(frozen=True)
class Board:
    """A NotationContext for the tests: a 60 x 40 map and, optionally, the known units."""

    width: int = 60
    height: int = 40
    known_units: Collection[UnitRef] = frozenset()


RD17, TC17, TD17 = (
    UnitRef(17, DivisionKind.RIFLE),
    UnitRef(17, CorpsKind.TANK),
    UnitRef(17, DivisionKind.TANK),
)
KNOWN = Board(known_units=frozenset({RD17, TC17, UnitRef(2, CorpsKind.TANK), UnitRef(1, None)}))


def test_board_is_a_notation_context() -> None:
    context: NotationContext = Board()
    assert (context.width, context.height) == (60, 40)


@pytest.mark.parametrize("text", SEEDS)
def test_seed_examples_format_back_to_themselves(text: str) -> None:
    p = Placement.parse(text)
    assert str(p) == text
    assert repr(p) == f"Placement.parse({text!r})"
    assert eval(repr(p)) == p


def test_seed_examples_read_as_written() -> None:
    a, b, c, d = map(Placement.parse, SEEDS)
    assert a == Placement(RD17, (Cell(45, 22),))
    assert b == Placement(UnitRef(14, DivisionKind.RIFLE), (Cell(13, 17, "-"),), Direction.N)
    assert c == Placement(UnitRef(2, CorpsKind.TANK), (Cell(13, 18), Cell(13, 21)))
    assert [cell.sep for cell in c.cells] == ["-", "-"]
    assert d.unit == UnitRef(101, DivisionKind.ARTILLERY)


@pytest.mark.parametrize(
    "text, russian, english",
    [
        ("17 RD - 45,22 facing N", "17 с.д. - 45,22 фронтом на север", "17 RD - 45,22 facing N"),
        ("2 TC between 13,18 and 13,21", "2 т.к. расположен между 13,18 и 13,21", "2 TC between 13,18 and 13,21"),
        ("2 TC located between 13-18 and 13-21", "2 т.к. расположен между 13-18 и 13-21", "2 TC between 13-18 and 13-21"),
        ("2 тк - между 13-18 и 13-21", "2 т.к. расположен между 13-18 и 13-21", "2 TC between 13-18 and 13-21"),
        ("17 сд расположена между 5,5 и 7,5", "17 с.д. расположена между 5,5 и 7,5", "17 RD between 5,5 and 7,5"),
        ("3 кав. д расположены между 5,5 и 5,6", "3 кав.д. расположена между 5,5 и 5,6", "3 CD between 5,5 and 5,6"),
        ("  17   С.Д.  —  45 , 22   ФРОНТОМ  НА  Северо-Восток ", "17 с.д. - 45,22 фронтом на северо-восток", "17 RD - 45,22 facing NE"),
        ("17 т.д – 45-22 facing south-west", "17 т.д. - 45-22 фронтом на юго-запад", "17 TD - 45-22 facing SW"),
        ("17 td - 45,22 фронтом на з", "17 т.д. - 45,22 фронтом на запад", "17 TD - 45,22 facing W"),
        ("1 A - 3,4", "1 А - 3,4", "1 A - 3,4"),
        ("1 армия - 3,4", "1 А - 3,4", "1 A - 3,4"),
        ("7 fortress - 3,4", "7 крепость - 3,4", "7 fortress - 3,4"),
        ("17сд-45,22", "17 с.д. - 45,22", "17 RD - 45,22"),
    ],
)  # fmt: skip
def test_aliases_and_spacing_give_canonical_output(text: str, russian: str, english: str) -> None:
    p = Placement.parse(text)
    assert str(p) == russian
    assert p.format("en") == english
    assert Placement.parse(russian) == Placement.parse(english) == p


@pytest.mark.parametrize("text", ["45,22", "45-22", " 45, 22 ", "45 - 22", "45–22"])
def test_parse_cell(text: str) -> None:
    cell = parse_cell(text)
    assert cell == Cell(45, 22) == Cell.parse(text)
    assert str(cell) == ("45,22" if "," in text else "45-22")


def test_unit_refs() -> None:
    ref = UnitRef.parse("17 сд")
    assert ref == RD17
    assert (str(ref), ref.format("en"), repr(ref)) == (
        "17 с.д.",
        "17 RD",
        "UnitRef.parse('17 с.д.')",
    )
    assert UnitRef.parse("2 TC") == UnitRef(2, CorpsKind.TANK)
    assert UnitRef.parse("1 а") == UnitRef.parse("1 армия") == UnitRef(1)
    assert [UnitRef.parse(s).echelon for s in ("1 А", "2 т.к.", "17 с.д.")] == [
        "army",
        "corps",
        "division",
    ]
    with pytest.raises(StrategiaError, match="not positive"):
        UnitRef(0, DivisionKind.RIFLE)


@pytest.mark.parametrize("kind", [*DivisionKind, *CorpsKind, None])
def test_every_unit_type_round_trips(kind: DivisionKind | CorpsKind | None) -> None:
    ref = UnitRef(5, kind)
    for lang in ("ru", "en"):
        assert UnitRef.parse(ref.format(lang)) == ref
    assert eval(repr(ref)) == ref


def error(
    cls: type[NotationError], text: str, context: NotationContext | None = None
) -> NotationError:
    with pytest.raises(cls) as info:
        Placement.parse(text, context)
    assert type(info.value) is cls
    assert str(info.value).startswith(f"{text}: ")
    return info.value


def test_off_the_map_message_is_exact() -> None:
    e = error(IllegalNotationError, "17 с.д. - 45,99", Board())
    assert str(e).startswith("17 с.д. - 45,99: cell off the map, which is 60 x 40")
    assert (e.text, e.column, e.expected) == ("17 с.д. - 45,99", 14, "latitude 1..40")
    assert (
        str(e)
        == "17 с.д. - 45,99: cell off the map, which is 60 x 40 (column 14; expected latitude 1..40)"
    )
    e = error(IllegalNotationError, "2 т.к. расположен между 61-18 и 13-18", Board())
    assert (e.column, e.expected) == (25, "longitude 1..60")
    with pytest.raises(
        IllegalNotationError, match=r"^61,1: cell off the map, which is 60 x 40 \(column 1;"
    ):
        parse_cell("61,1", Board())


def test_errors_are_value_errors_with_fields() -> None:
    e = NotationError("x", "bad")
    assert str(e) == "x: bad" and e.column is None and e.expected is None
    assert str(NotationError("x", "bad", 3)) == "x: bad (column 3)"
    assert str(NotationError("x", "bad", expected="y")) == "x: bad (expected y)"
    for cls in (InvalidNotationError, IllegalNotationError, AmbiguousNotationError):
        assert issubclass(cls, NotationError) and issubclass(cls, StrategiaError)
        assert issubclass(cls, ValueError)


def test_unknown_unit_type_suggests_and_lists() -> None:
    e = error(InvalidNotationError, "17 тдд - 45,22")
    assert e.problem == "unknown unit type 'тдд': did you mean 'т.д.'?"
    assert e.column == 4
    assert e.expected is not None and "с.д., кав.д., т.д." in e.expected and "RD" in e.expected
    assert "(column 4; expected one of с.д." in str(e)
    e = error(InvalidNotationError, "17 xyz - 45,22")
    assert e.problem == "unknown unit type 'xyz'"


@pytest.mark.parametrize(
    "text, column, problem, expected",
    [
        ("", 1, "no unit number", "a whole number from 1"),
        ("с.д. - 45,22", 1, "no unit number", "a whole number from 1"),
        ("0 с.д. - 45,22", 1, "unit number 0 out of range", "from 1"),
        ("17 с.д. - 0,22", 11, "longitude 0 out of range", "from 1"),
        ("17 с.д. - 45,1234567", 14, "latitude 1234567 out of range", "to 999999"),
        ("17 - 45,22", 4, "unit type missing", "one of с.д."),
        ("17 с.д. 45,22", 9, "no position after the unit", "' - <cell>'"),
        ("17 с.д. - 45;22", 13, "no separator after the longitude", "',' or '-'"),
        ("17 с.д. - 45,", 14, "no latitude", "a whole number"),
        ("17 с.д. - 45,22 вперёд", 17, "unexpected text", "'фронтом на <direction>'"),
        ("17 с.д. - 45,22 фронтом на", 27, "no direction", "север, северо-восток"),
        ("17 с.д. - 45,22 фронтом на сервер", 28, "unknown direction 'сервер': did you mean 'север'?", "N, NE"),
        ("2 т.к. расположен 13-18", 19, "no 'между' after 'расположен'", "'между <cell> и <cell>'"),
        ("2 TC between 13,18 13,21", 20, "no second cell", "'и <cell>' / 'and <cell>'"),
    ],
)  # fmt: skip
def test_invalid_notation(text: str, column: int, problem: str, expected: str) -> None:
    e = error(InvalidNotationError, text)
    assert (e.text, e.column, e.problem) == (text, column, problem)
    assert e.expected is not None and expected in e.expected
    assert f"(column {column}; expected " in str(e)


def test_two_cells_must_share_a_grid_line() -> None:
    e = error(IllegalNotationError, "2 т.к. расположен между 13-18 и 14-21")
    assert e.problem == "13-18 and 14-21 are not in one grid line"
    assert e.column == 33
    assert e.expected == "the same longitude or latitude"
    e = error(IllegalNotationError, "2 TC between 13,18 and 13-18")
    assert e.problem == "both cells are 13,18"
    with pytest.raises(IllegalNotationError, match="not in one grid line"):
        Placement(TC17, (Cell(1, 1), Cell(2, 2)))
    with pytest.raises(IllegalNotationError, match="3 cells given"):
        Placement(TC17, (Cell(1, 1), Cell(1, 2), Cell(1, 3)))


def test_known_units() -> None:
    assert Placement.parse("17 сд - 45,22", KNOWN).unit == RD17
    assert Placement.parse("2 - 13-18", KNOWN).unit == UnitRef(2, CorpsKind.TANK)
    assert UnitRef.parse("1", KNOWN) == UnitRef(1)
    e = error(IllegalNotationError, "17 т.д. - 45,22", KNOWN)
    assert (e.problem, e.column, e.expected) == (
        "no such unit 17 т.д.",
        1,
        "one of 17 с.д., 17 т.к.",
    )
    e = error(IllegalNotationError, "9 с.д. - 45,22", KNOWN)
    assert (e.problem, e.expected) == ("no such unit 9 с.д.", None)
    e = error(IllegalNotationError, "18 - 45,22", KNOWN)
    assert (e.problem, e.column) == ("no unit numbered 18", 1)
    assert str(e) == "18 - 45,22: no unit numbered 18 (column 1)"


def test_bare_or_ambiguous_numbers() -> None:
    e = error(AmbiguousNotationError, "17 - 45,22", KNOWN)
    assert (e.problem, e.column) == ("'17' could be 17 с.д., 17 т.к.", 4)
    assert e.expected == "one of 17 с.д., 17 т.к."
    # `tank` names both a tank division and a tank corps: the known units decide.
    e = error(AmbiguousNotationError, "17 tank - 45,22")
    assert e.problem == "'17 tank' could be 17 т.д., 17 т.к."
    assert Placement.parse("17 tank - 45,22", KNOWN).unit == TC17
    assert Placement.parse("17 tank - 45,22", Board(known_units=[TD17])).unit == TD17
    # No known units: nothing to resolve a bare number against.
    error(InvalidNotationError, "17 - 45,22", Board())


def test_malformed_beats_illegal() -> None:
    e = error(InvalidNotationError, "17 т.д. - 99,99 x", KNOWN)
    assert e.problem == "unexpected text"


# Property tests

coords = st.integers(1, 999)
seps = st.sampled_from([",", "-"])
cells = st.builds(Cell, coords, coords, seps)
refs = st.builds(UnitRef, st.integers(1, 999), st.sampled_from([*DivisionKind, *CorpsKind, None]))


@st.composite
def placements(draw: st.DrawFn) -> Placement:
    first = draw(cells)
    cs: tuple[Cell, ...] = (first,)
    if draw(st.booleans()):
        same_lon = draw(st.booleans())
        fixed = first.lat if same_lon else first.lon
        other = draw(coords.filter(lambda v: v != fixed))
        second = (
            Cell(first.lon, other, draw(seps)) if same_lon else Cell(other, first.lat, draw(seps))
        )
        cs = (first, second)
    return Placement(draw(refs), cs, draw(st.none() | st.sampled_from(list(Direction))))


@settings(max_examples=200, deadline=None)
@given(placements(), st.sampled_from(["ru", "en"]))
def test_placements_round_trip(p: Placement, lang: str) -> None:
    text = p.format(lang)  # type: ignore[arg-type]
    q = Placement.parse(text)
    assert q == p
    assert q.format(lang) == text  # type: ignore[arg-type]
    assert [c.sep for c in q.cells] == [c.sep for c in p.cells]
    assert eval(repr(p)) == p


@settings(max_examples=200, deadline=None)
@given(cells)
def test_cells_round_trip(cell: Cell) -> None:
    assert parse_cell(str(cell)) == cell and str(parse_cell(str(cell))) == str(cell)


TOKENS = [
    "17", "45,22", "13-17", "0", "9999999", "-", "–", "—", ",", " ", ".", "с.д.", "сд", "т.к.", "кав. д",
    "А", "A", "армия", "RD", "TC", "tank", "расположен", "расположена", "между", "и", "between", "and",
    "located", "фронтом на", "фронтом", "на", "facing", "север", "N", "северо-запад", "x", "\n", "(",
]  # fmt: skip
notation_like = st.lists(st.sampled_from(TOKENS), max_size=12).map(" ".join) | st.lists(
    st.sampled_from(TOKENS), max_size=12
).map("".join)
contexts = st.none() | st.builds(
    Board, st.integers(1, 60), st.integers(1, 60), st.frozensets(refs, max_size=4)
)


def only_notation_errors(text: str, context: NotationContext | None) -> None:
    for parse in (Placement.parse, UnitRef.parse, parse_cell):
        try:
            result = parse(text, context)
        except NotationError as e:
            assert type(e) in (InvalidNotationError, IllegalNotationError, AmbiguousNotationError)
            assert str(e).startswith(f"{text}: ")
            assert e.column is None or 1 <= e.column <= len(text) + 1
        else:
            assert parse(str(result), context) == result


@settings(max_examples=200, deadline=None)
@given(st.text(), contexts)
def test_garbage_raises_only_notation_errors(text: str, context: NotationContext | None) -> None:
    only_notation_errors(text, context)


@settings(max_examples=200, deadline=None)
@given(notation_like, contexts)
def test_near_notation_raises_only_notation_errors(
    text: str, context: NotationContext | None
) -> None:
    only_notation_errors(text, context)


def test_column_points_at_the_problem() -> None:
    text = "17 с.д. - 45,22 фронтом на сервер"
    e = error(InvalidNotationError, text)
    assert e.column is not None and text[e.column - 1 :] == "сервер"
    assert re.search(r"column \d+", str(e))
