"""One grammar for every order: each form declared once, read and written both ways from its
declaration, every declared order carried out by one engine handler."""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from strategia.core.geometry import Cell, Direction
from strategia.engine.apply import HANDLERS
from strategia.notation import (
    FORMS,
    GRAMMAR,
    Attack,
    Defence,
    IllegalNotationError,
    InvalidNotationError,
    Merge,
    Move,
    NotationError,
    Order,
    Strike,
    Turn,
    UnitRef,
    parse_order,
)
from strategia.notation.grammar import Form
from strategia.notation.template import Group, Item, Phrase, Slot, compile_template
from strategia.rules.kinds import CorpsKind, DivisionKind, Formation, RegimentKind, RegimentsFacing


def test_every_declared_order_has_one_handler_and_every_handler_a_form() -> None:
    declared = {f.cls for f in FORMS if issubclass(f.cls, Order)}
    assert declared == set(HANDLERS)


def test_every_form_cites_its_rule_and_has_both_languages() -> None:
    for f in FORMS:
        assert f.rule and f.ru and f.en
        assert f.verbs("ru") and f.verbs("en"), f


# --- values of every form, written and read back ------------------------------------------------

_cells = st.builds(Cell, st.integers(1, 60), st.integers(1, 40))
_divisions = st.builds(
    UnitRef,
    st.integers(1, 999),
    st.sampled_from([k for k in DivisionKind if k is not DivisionKind.FORTRESS]),
)
_corps = st.builds(UnitRef, st.integers(1, 99), st.sampled_from(list(CorpsKind)))
_units = st.one_of(_divisions, _corps)
_regiments = st.builds(
    UnitRef,
    st.integers(1, 999),
    st.just(DivisionKind.RIFLE),
    st.tuples(st.integers(1, 3), st.sampled_from([RegimentKind.RIFLE, RegimentKind.ARTILLERY])),
)


@st.composite
def _statute_echelons(draw: st.DrawFn) -> tuple[tuple[tuple[UnitRef, ...], ...], int]:
    """A statute's echelons (5.9): units each named once, and the echelon of «the rest» (or 0),
    which alone may name no unit."""
    units = draw(st.lists(st.one_of(_divisions, _regiments), min_size=1, max_size=5, unique=True))
    n = draw(st.integers(1, len(units)))
    cuts = sorted(draw(st.sets(st.integers(1, len(units) - 1), max_size=n - 1))) if n > 1 else []
    echelons = [tuple(units[a:b]) for a, b in zip([0, *cuts], [*cuts, len(units)], strict=True)]
    rest = draw(st.integers(0, len(echelons) + 1))
    if rest == len(echelons) + 1:  # «the rest» on its own, an echelon of no unit
        echelons.append(())
    return tuple(echelons), rest


def _slot(kind: str) -> st.SearchStrategy[Any]:
    plain: dict[str, st.SearchStrategy[Any]] = {
        "cell": _cells,
        "cells": st.lists(_cells, min_size=1, max_size=3).map(tuple),
        "unit": _units,
        "division": _divisions,
        "corps": _corps,
        "new_corps": _corps,
        "new_division": _divisions,
        "regiments": st.lists(_regiments, min_size=1, max_size=3, unique=True).map(tuple),
        "units": st.lists(_units, min_size=1, max_size=3).map(tuple),
        "divisions": st.lists(_divisions, min_size=1, max_size=3, unique=True).map(tuple),
        "echelons": st.lists(
            st.lists(_divisions, min_size=1, max_size=3).map(tuple), min_size=1, max_size=3
        ).map(tuple),
        "direction": st.sampled_from(list(Direction)),
        "formation": st.sampled_from(list(Formation)),
        "regiments_facing": st.sampled_from(list(RegimentsFacing)),
        "regiment": st.tuples(st.integers(1, 4), st.sampled_from([None, *RegimentKind])),
        "statute_echelons": _statute_echelons(),
        "km": st.integers(1, 100),
    }
    if kind.startswith("flag="):
        return st.booleans()
    if kind == "Defence":
        return st.sampled_from([f for f in FORMS if f.cls is Defence]).flatmap(_value)
    return plain[kind]


def _fields(items: tuple[Item, ...], optional: bool) -> st.SearchStrategy[dict[str, Any]]:
    parts: list[st.SearchStrategy[dict[str, Any]]] = []
    for item in items:
        if isinstance(item, Slot):
            names = item.fields

            def fill(
                v: Any, names: tuple[str, ...] = names, kind: str = item.type
            ) -> dict[str, Any]:
                if kind in ("regiment", "statute_echelons"):
                    return dict(zip(names, v, strict=True))
                if len(names) == 2:
                    return {names[0]: v[0], names[1]: tuple(v[1:])}
                return {names[0]: v}

            parts.append(_slot(item.type).map(fill))
        elif isinstance(item, Group):
            parts.append(st.one_of(st.just({}), _fields(item.items, True)))
    return st.tuples(*parts).map(lambda ds: {k: v for d in ds for k, v in d.items()})


def _value(form: Form) -> st.SearchStrategy[Any]:
    return _fields(compile_template(form.ru), False).map(
        lambda fields: form.cls(**{**fields, **form.fixed})
    )


def _well_formed(v: Any) -> Any:
    """The value made one the declarations' own checks accept: a merge into one of those merged,
    a pass to another unit than the giver."""
    if isinstance(v, Merge):
        v = replace(v, into=v.unit)
    if hasattr(v, "to") and v.to == v.unit:
        v = replace(v, to=UnitRef(v.to.number % 999 + 1, v.to.kind))
    return v


@pytest.mark.parametrize("form", FORMS, ids=lambda f: f"{f.cls.__name__}-{f.verbs('en')}")
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_every_form_writes_and_reads_back_in_both_languages(form: Form, data: Any) -> None:
    value = data.draw(
        _value(form)
        .map(_well_formed)
        .filter(lambda v: GRAMMAR.form_of(v).check is None or not GRAMMAR.form_of(v).check(v))
    )
    for lang in ("ru", "en"):
        text = GRAMMAR.format(value, lang)
        assert GRAMMAR.parse(text, None, form.cls) == value, text


def test_spellings_read_but_never_written() -> None:
    assert parse_order("17 сд поворот юг") == Turn(UnitRef.parse("17 с.д."), Direction.S)
    assert parse_order("17 RD turn to S") == Turn(UnitRef.parse("17 с.д."), Direction.S)
    assert str(parse_order("17 RD turn to S")) == "17 с.д. поворот на юг"


def test_a_blow_written_out() -> None:
    o = parse_order(
        "attack 7,3: 1 RD, 2 RD; 3 TD supported by 51 AD // defend: 101 RD supported by 102 RD"
    )
    assert isinstance(o, Attack) and o.unit == UnitRef.parse("1 с.д.")
    assert str(o) == (
        "удар по 7,3: 1 с.д., 2 с.д.; 3 т.д. при поддержке 51 а.д. "
        "// оборона: 101 с.д. при поддержке 102 с.д."
    )
    assert parse_order("удар по 7,3: 1 с.д. // отход").defence == Defence(retreat=True)  # type: ignore[attr-defined]


def test_a_strike_confirmed() -> None:
    o = parse_order("51 AD fire on bridge 22,10 (confirmed)")
    assert o == Strike(UnitRef.parse("51 а.д."), Cell(22, 10), "bridge", True)
    assert str(o) == "51 а.д. огонь по мосту 22,10 (подтверждено)"


# --- errors: the three kinds, with their column -------------------------------------------------


@pytest.mark.parametrize(
    ("text", "error", "column", "problem"),
    [
        ("17 с.д.", InvalidNotationError, None, "no order word"),
        ("", InvalidNotationError, 1, "no order"),
        ("17 х.д. на 45,25", InvalidNotationError, 4, "unknown unit type"),
        ("17 с.д. по дороге на 45,2x", InvalidNotationError, 26, "unexpected text after the cell"),
        ("17 с.д. поворот на луну", InvalidNotationError, 20, "unknown direction"),
        ("17 с.д. марш на 45,25 привалы", InvalidNotationError, 30, "no longitude"),
        ("удар по 7,3", InvalidNotationError, 11, "incomplete order 'удар по'"),
        ("51 а.д. огонь по 7,3 (подтвержд", InvalidNotationError, 22, "unexpected text"),
    ],
)
def test_errors_name_the_place(
    text: str, error: type[NotationError], column: int | None, problem: str
) -> None:
    with pytest.raises(error) as e:
        parse_order(text)
    assert e.value.text == text and e.value.column == column and problem in e.value.problem


def test_a_unit_off_the_position_is_illegal() -> None:
    class Position:
        width, height = 10, 10
        known_units = (UnitRef.parse("17 с.д."),)

    with pytest.raises(IllegalNotationError, match="no such unit 18 с.д."):
        parse_order("18 с.д. на 3,3", Position())
    with pytest.raises(IllegalNotationError, match="cell off the map"):
        parse_order("17 с.д. на 3,33", Position())
    assert parse_order("17 на 3,3", Position()) == Move(UnitRef.parse("17 с.д."), Cell(3, 3))


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [w for f in FORMS for t in (f.ru, f.en) for w in t.split()]
            + ["17", "с.д.", "45,25", ",", ";", "//", ":", "с.к.", "север", "x", "  "]
        ),
        max_size=40,
    )
)
def test_any_words_read_or_refused_quickly(words: list[str]) -> None:
    text = " ".join(words)
    start = time.process_time()  # the parser's own time: other tests may share the cores
    try:
        assert isinstance(parse_order(text), Order)
    except NotationError as e:
        assert e.text == text
    assert time.process_time() - start < 0.5


def test_long_repetitions_are_read_in_linear_time() -> None:
    for n in (500, 1000):
        text = "17 с.д. " + "на " * n + "45,25"
        start = time.process_time()
        with pytest.raises(NotationError):
            parse_order(text)
        assert time.process_time() - start < 0.5
    with pytest.raises(InvalidNotationError, match="characters"):
        parse_order("на " * 5000)


def test_templates_compile_to_words_slots_and_groups() -> None:
    items = compile_template("{unit} по дороге на {to:cell} [через {via:cells}]")
    assert isinstance(items[0], Slot) and items[0].fields == ("unit",)
    assert isinstance(items[1], Phrase) and items[1].write() == "по дороге на"
    assert isinstance(items[3], Group) and isinstance(items[3].items[1], Slot)
    with pytest.raises(ValueError, match="unbalanced"):
        compile_template("{unit} на [{to:cell}")


def test_the_consoles_order_menu_comes_from_the_declarations() -> None:
    from strategia.ui.console.panels import order_menu

    menu = dict(order_menu("ru"))
    assert "движение по дороге (4.1)" in menu and "удар (9.8)" in menu
    form = menu["движение по дороге (4.1)"]
    assert form.sketch("ru", {"unit": "17 с.д.", "cell": "45,22"}) == "17 с.д. по дороге на 45,22"
    assert all(f.title.en and f.title.ru for f in FORMS)


_WORDS = [
    "на",
    "по",
    "дороге",
    "удар",
    "огонь",
    "мосту",
    "to",
    "road",
    "Fire",
    "ON",
    "в",
    "во",
    "отход",
    ":",
    ",",
    "-",
    "17",
    "с.д.",
    "45,22",
    "7",
    "т.д.",
    "оборона",
    "полки",
    "в7",
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_WORDS), max_size=8), st.sampled_from([" ", "", "  "]))
def test_forms_tried_for_a_line_are_those_whose_words_it_holds(words: list[str], sep: str) -> None:
    """The forms a line is first read with (kept by the line's outline, its numbers written
    0) are exactly those whose own words the line itself holds."""
    from strategia.notation.orders import GRAMMAR

    text = sep.join(words)
    forms, likely = GRAMMAR._candidates(text, None)
    held = [p.search(text) is not None for p in GRAMMAR._patterns]
    assert likely == [c for c in forms if all(held[k] for k in c[3])]
    assert forms == GRAMMAR._compiled
