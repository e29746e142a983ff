"""What each side may know (6.2, 8.1, 8.2) and what the mediator sees: views that leak nothing."""

from __future__ import annotations

import json
from dataclasses import replace
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from strategia.core.errors import UnknownNameError
from strategia.core.geometry import Cell, Direction
from strategia.engine.state import GameState, UnitState, initial_state
from strategia.game.views import SideView, mediator_view, to_geojson, view_for
from strategia.notation.refs import UnitRef
from strategia.rules import RuleSet, load_ruleset
from strategia.rules.kinds import DivisionKind
from strategia.rules.units import new_division
from strategia.theatre.builder import ScenarioBuilder
from strategia.theatre.scenario import Scenario
from strategia.theatre.scenario_io import load_scenario

MAPS = Path(__file__).resolve().parent.parent / "maps"
ODD = 0.4321  # a strength no view but the mediator's and the owner's may show


def _war(st: GameState) -> GameState:
    return replace(st, at_war=True, wars=frozenset({("B", "R")}))


def _weakened(st: GameState, owner: str) -> GameState:
    return st.with_units(
        replace(u, division=u.division.with_strengths(ODD)) for u in st if u.owner == owner
    )


def _text(view: SideView) -> str:
    """The view as the console and the map receive it (Cyrillic unescaped, so it can be read)."""
    return json.dumps([view.to_json(), to_geojson(view)], ensure_ascii=False)


def _mentions_place(text: str, c: Cell) -> bool:
    return f'"{c.lon},{c.lat}"' in text or f"[{c.lon}, {c.lat}]" in text


def _revealed(view: SideView) -> set[UnitRef]:
    return {s.unit for s in view.seen if s.unit is not None}


@cache
def _continental() -> GameState:
    return initial_state(load_scenario(MAPS / "continental.toml"), 2)


def _front(*, front: bool = True) -> Scenario:
    """Blue (lon 1-15) against Red (lon 16-30). Blue covers its border but at lat 11-15 (5 cells:
    the zone is lat 10-16, lon 10-15); a line of divisions at lon 12 closes the ground behind."""
    b = ScenarioBuilder.blank(30, 20, name="Открытый участок")
    b = b.state("B", "Синие", "blue", lon=(1, 15)).state("R", "Красные", "red", lon=(16, 30))
    b = b.place("B", "101 с.д. - 14,3", "102 с.д. - 14,8", "103 с.д. - 14,18")
    b = b.place("B", "121 т.д. - 13,13 фронтом на восток", "108 с.д. - 10,13", "109 с.д. - 5,13")
    b = b.place("B", "122 т.д. - 13,10 фронтом на север", "123 т.д. - 13,17")
    if front:
        b = b.place(
            "B",
            "104 с.д. расположена между 12-10 и 12-11",
            "105 с.д. расположена между 12-12 и 12-13",
            "106 с.д. расположена между 12-14 и 12-15",
            "107 с.д. - 12,16",
        )
    b = b.corps("R", "1 с.к.", "1 с.д.", "2 с.д.").place(
        "R", "1 с.к. расположен между 17-9 и 17-12"
    )
    b = b.place("R", "3 т.д. - 20,3")
    return b.build()


def _armies() -> Scenario:
    """Blue's armies: 11 А near the border, 12 А deep, 13 А behind a forest, 15 А behind 14 А."""
    b = ScenarioBuilder.blank(30, 20, name="Армии")
    b = b.state("B", "Синие", "blue", lon=(1, 15)).state("R", "Красные", "red", lon=(16, 30))
    b = b.paint("forest", lon=(13, 14), lat=(14, 16))
    b = b.corps("B", "11 с.к.", "131 с.д.", "132 с.д.").army("B", "11 А", "11 с.к.", "133 т.д.")
    b = b.corps("B", "12 с.к.", "134 с.д.", "135 с.д.").army("B", "12 А", "12 с.к.")
    b = b.army("B", "13 А", "136 с.д.").army("B", "14 А", "137 с.д.").army("B", "15 А", "138 с.д.")
    b = b.army("B", "16 А", "139 с.д.")  # not deployed: a reserve army
    b = b.place("B", "11 с.к. расположен между 13-3 и 13-6", "133 т.д. - 11,5")
    b = b.place("B", "12 с.к. расположен между 5-3 и 5-6", "136 с.д. - 12,15")
    b = b.place("B", "137 с.д. - 13,10", "138 с.д. - 10,10")
    b = b.place("R", "17 с.д. - 17,10")
    return b.build()


# --- the mediator and the side's own ----------------------------------------------------------


def test_the_mediator_sees_everything() -> None:
    st = _weakened(_war(_continental()), "B")
    answers = [{"question": "Где 14 т.к.?", "answer": "22-33", "truth": False, "side": "red"}]
    view = mediator_view(st, answers)
    assert view.side == "mediator" and set(view.units) == set(st.units.values())
    text = _text(view)
    for u in st:
        assert f'"{u.ref}"' in text
    assert str(ODD) in text
    armies = {str(a.army): a for a in view.armies}
    assert set(armies) == {"1 А", "2 А", "3 А", "4 А", "5 А", "11 А", "12 А", "13 А", "14 А"}
    assert str(armies["2 А"].front) == "1 Ф" and armies["4 А"].front is None  # 5.7
    assert [str(m) for m in armies["11 А"].members] == [
        "11 с.к.",
        "14 т.к.",
        "110 с.д.",
        "161 пт.д.",
    ]
    assert (
        view.intelligence[0].truth is False and view.to_json()["intelligence"][0]["truth"] is False
    )
    assert view_for(st, "mediator", st.scenario.rules()).units == view.units


def test_a_side_knows_its_own_units_in_full(rules2: RuleSet) -> None:
    st = _weakened(_continental(), "R")
    view = view_for(st, "red", rules2)
    assert set(view.units) == {u for u in st if u.owner == "R"}
    units = {d["unit"]: d for d in view.to_json()["units"]}
    for u in view.units:
        assert units[str(u.ref)] == {"side": "red", **u.to_json()}
        assert units[str(u.ref)]["strengths"] == [ODD] * len(u.division.regiments)


def test_unknown_side() -> None:
    with pytest.raises(UnknownNameError):
        view_for(_continental(), "purple", load_ruleset("continental", level=2))


# --- covering forces and open sectors ---------------------------------------------------------


def test_enemy_covering_forces_are_positions_only(rules2: RuleSet) -> None:
    view = view_for(initial_state(_front(), 2), "red", rules2)
    assert {s.how for s in view.seen} == {"cover"}
    assert [[str(c) for c in s.cells] for s in view.seen] == [["14,3"], ["14,8"], ["14,18"]]
    for s in view.to_json()["seen"]:
        assert s == {"side": "blue", "how": "cover", "cells": s["cells"]}
    assert view.observed == ()  # before the war no sector is open (8.2)


def test_an_open_sector_shows_its_zone_up_to_a_continuous_front(rules2: RuleSet) -> None:
    """8.2: the zone is seen up to the line at lon 12; the line, a continuous front of the
    second echelon, «начинает играть роль прикрытия»: told by its counters' positions only
    (12,10-12,16), while the tanks ahead of it, in the open, are told in full."""
    view = view_for(_war(initial_state(_front(), 2)), "red", rules2)
    seen = {str(s.unit): s for s in view.seen if s.unit is not None}
    assert set(seen) == {"121 т.д.", "122 т.д."}
    tank = seen["121 т.д."]
    assert tank.kind is DivisionKind.TANK and tank.facing is Direction.E
    assert tank.to_json()["regiments"] == ["т.п.", "мот.п.", "т.п.", "ап(мот.)"]
    assert seen["122 т.д."].facing is Direction.N  # on the zone's flank (lat 10)
    front = sorted(str(c) for s in view.seen if s.how == "cover" and s.cells[0].lon == 12
                   for c in s.cells)  # fmt: skip
    assert front == ["12,10", "12,11", "12,12", "12,13", "12,14", "12,15", "12,16"]
    text = _text(view)
    for name in ("104 с.д.", "105 с.д.", "106 с.д.", "107 с.д."):
        assert f'"{name}"' not in text
    for hidden, cell in (
        ("108 с.д.", Cell(10, 13)),
        ("109 с.д.", Cell(5, 13)),
        ("123 т.д.", Cell(13, 17)),
    ):
        assert f'"{hidden}"' not in text and not _mentions_place(text, cell)
    assert Cell(11, 13) not in view.observed and Cell(14, 13) in view.observed
    assert all(10 <= c.lat <= 16 and 10 <= c.lon <= 15 for c in view.observed)


def test_without_a_front_the_whole_zone_is_seen(rules2: RuleSet) -> None:
    view = view_for(_war(initial_state(_front(front=False), 2)), "red", rules2)
    assert {str(u) for u in _revealed(view)} == {"108 с.д.", "121 т.д.", "122 т.д."}
    assert Cell(10, 13) in view.observed and Cell(9, 13) not in view.observed  # 60 km deep


def test_the_other_side_sees_alike(rules2: RuleSet) -> None:
    st = initial_state(_front(), 2)
    before, after = view_for(st, "blue", rules2), view_for(_war(st), "blue", rules2)
    cover = [[str(c) for c in s.cells] for s in before.seen]
    assert cover == [["17,9", "17,10"], ["17,11", "17,12"]]  # 1 с.к.: a counter a division
    assert [s for s in after.seen if s.how == "cover"] == list(before.seen)
    assert {str(u) for u in _revealed(after)} == {"3 т.д."}  # in the open sector lat 1-6


# --- armies -------------------------------------------------------------------------------------


def test_enemy_troops_in_sight_are_told_in_full(rules2: RuleSet) -> None:
    """In sight (reconstructed): Red's 3 т.д. standing deep in Blue's ground (10,5) is seen by
    Blue in full, and so is Red's division at 17,9 (of 1 с.к.) once Blue's 101 с.д. stands beside it (16,9, on Red's
    ground, next to 17,9). Before the war neither is told. The first version never showed an
    enemy inside the side's own ground."""
    st = _war(initial_state(_front(), 2))
    tank, rifle = UnitRef.parse("3 т.д."), UnitRef.parse("101 с.д.")
    st = st.with_units([replace(st.unit(tank), cells=(Cell(10, 5),))])
    assert tank not in _revealed(view_for(initial_state(_front(), 2), "blue", rules2))
    seen = {s.unit: s for s in view_for(st, "blue", rules2).seen if s.unit is not None}
    assert seen[tank].how == "contact" and seen[tank].cells == (Cell(10, 5),)
    assert seen[tank].regiments and str(seen[tank].kind) == str(DivisionKind.TANK)
    beside = next(u.ref for u in st if u.owner == "R" and Cell(17, 9) in u.cells)
    assert beside not in seen
    st = st.with_units([replace(st.unit(rifle), cells=(Cell(16, 9),))])
    seen = {s.unit: s for s in view_for(st, "blue", rules2).seen if s.unit is not None}
    assert seen[beside].how == "contact"
    assert "contact" not in {s.how for s in view_for(st, "red", rules2).seen if s.unit == tank}


def test_armies_first_echelon_strips_and_corps_second_echelon_numbers(rules2: RuleSet) -> None:
    st = initial_state(_armies(), 2)
    view = view_for(st, "red", rules2)
    told = {str(a.army): a.to_json() for a in view.armies}
    assert told["11 А"] == {
        "army": "11 А", "state": "B", "echelon": "first", "along": "lat", "strip": [3, 6], "corps": 1
    }  # fmt: skip
    assert told["14 А"] == {
        "army": "14 А", "state": "B", "echelon": "first", "along": "lat", "strip": [10, 10], "corps": 0
    }  # fmt: skip
    for second in ("12 А", "13 А", "15 А", "16 А"):  # deep, behind forest, behind 14 А, reserve
        assert told[second] == {"army": second, "state": "B", "echelon": "second"}
    at_war = {str(a.army): a for a in view_for(_war(st), "red", rules2).armies}
    assert at_war["11 А"].divisions == 3 and at_war["12 А"].divisions is None
    text = _text(view)
    for secret in ("11 с.к.", "12 с.к.", "131 с.д.", "133 т.д.", "136 с.д.", "139 с.д."):
        assert f'"{secret}"' not in text
    mediator = {str(a.army): a for a in mediator_view(st, rules=rules2).armies}
    assert mediator["13 А"].echelon == "second" and mediator["13 А"].strip == (15, 15)


def test_forest_hides_an_army_only_where_the_level_has_forests(rules1: RuleSet) -> None:
    view = view_for(initial_state(_armies(), 1), "red", rules1)
    assert {str(a.army): a.echelon for a in view.armies}["13 А"] == "first"


def test_army_strip_runs_along_a_border_of_latitude(rules2: RuleSet) -> None:
    b = ScenarioBuilder.blank(20, 30).state("B", "Синие", "blue", lat=(1, 15))
    b = b.state("R", "Красные", "red", lat=(16, 30)).army("B", "11 А", "101 с.д.", "102 с.д.")
    st = initial_state(b.place("B", "101 с.д. - 4,12", "102 с.д. - 9,14").build(), 2)
    (army,) = view_for(st, "red", rules2).armies
    assert (army.along, army.strip, army.corps) == ("lon", (4, 9), 0)


# --- intelligence and neutrals ------------------------------------------------------------------


def test_intelligence_keeps_the_answer_and_drops_the_flag(rules2: RuleSet) -> None:
    answers = [
        {"question": "Есть ли танки у 22-33?", "answer": "да", "truth": False},
        {"question": "Сколько дивизий в 12 А?", "answer": 8, "truth": True, "side": "red"},
        {"question": "Где 1 с.к.?", "answer": "33-34", "truth": True, "side": "blue"},
    ]
    view = view_for(_continental(), "red", rules2, answers)
    assert view.to_json()["intelligence"] == [
        {"question": "Есть ли танки у 22-33?", "answer": "да"},
        {"question": "Сколько дивизий в 12 А?", "answer": 8},
    ]
    assert "truth" not in _text(view) and "33-34" not in _text(view)
    flags = [a.truth for a in mediator_view(_continental(), answers).intelligence]
    assert flags == [False, True, True]


def test_intelligence_as_the_recon_module_writes_it(rules2: RuleSet) -> None:
    """`strategia.recon.Answer.to_json(False)`: the flag is "true", the true answer "truth"."""
    record = {
        "question": "род войск в 22-33?",
        "answer": {"en": "tank", "ru": "танковые"},
        "side": "red",
        "true": False,
        "truth": {"en": "motorised", "ru": "мотострелковые"},
        "cost": 2.0,
        "resources": 0.0,
        "turn": 3,
    }
    view = view_for(_continental(), "red", rules2, [record])
    assert view.to_json()["intelligence"] == [
        {"question": "род войск в 22-33?", "answer": {"en": "tank", "ru": "танковые"}}
    ]
    assert "мотострелковые" not in _text(view) and "cost" not in _text(view)
    (told,) = mediator_view(_continental(), [record]).intelligence
    assert (told.truth, told.side, told.true_answer) == (False, "red", record["truth"])


def test_neutrals_are_told_nothing_and_told_of_only_at_war(rules2: RuleSet) -> None:
    st = _continental()
    assert view_for(st, "green", rules2).seen == ()
    assert {s.side for s in view_for(st, "red", rules2).seen} == {"blue"}
    at_war_with_h = replace(_war(st), wars=frozenset({("B", "R"), ("H", "R")}))
    assert "green" in {s.side for s in view_for(at_war_with_h, "red", rules2).seen}


# --- leaks ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("war", [False, True])
@pytest.mark.parametrize(("side", "enemy"), [("red", "B"), ("blue", "R")])
def test_the_default_scenario_leaks_nothing(
    rules2: RuleSet, war: bool, side: str, enemy: str
) -> None:
    st = _weakened(_weakened(_continental(), "B"), "R")
    st = _war(st) if war else st
    view = view_for(st, side, rules2)
    text = _text(view)
    shown = {c for s in view.seen for c in s.cells}
    # its own strengths, in the JSON and in the GeoJSON; no one else's
    assert text.count(str(ODD)) == sum(len(u.division.regiments) for u in view.units) * 2
    revealed = _revealed(view)
    assert war or not revealed
    for u in st:
        if u.owner == enemy and u.ref not in revealed:
            assert f'"{u.ref}"' not in text
            assert all(not _mentions_place(text, c) for c in u.cells if c not in shown)
        if u.owner == enemy and u.corps is not None:
            assert f'"{u.corps}"' not in text
    if side == "red":  # Blue's tank corps deep in its land (lon 22, 16, 12) are never told of
        for ref in ("121 т.д.", "125 т.д.", "131 м.д."):
            assert f'"{ref}"' not in text


@cache
def _small() -> Scenario:
    b = ScenarioBuilder.blank(20, 12, name="Опыт")
    b = b.state("B", "Синие", "blue", lon=(1, 10)).state("R", "Красные", "red", lon=(11, 20))
    return b.place("R", "1 с.д. - 12,6").build()


_KINDS = [DivisionKind.RIFLE, DivisionKind.TANK, DivisionKind.MOTORISED, DivisionKind.ARTILLERY]


@settings(max_examples=60, deadline=None)
@given(
    hs.lists(
        hs.tuples(hs.integers(1, 10), hs.integers(1, 12), hs.sampled_from(_KINDS),
                  hs.sampled_from(list(Direction))),
        max_size=10,
        unique_by=lambda t: (t[0], t[1]),
    ),
    hs.booleans(),
)  # fmt: skip
def test_no_view_mentions_an_enemy_unit_it_does_not_reveal(
    placements: list[tuple[int, int, DivisionKind, Direction]], war: bool
) -> None:
    sc = _small()
    rules = sc.rules(2)
    base = initial_state(sc, 2)
    units: dict[UnitRef, UnitState] = dict(base.units)
    for k, (lon, lat, kind, facing) in enumerate(placements):
        ref = UnitRef(101 + k, kind)
        division = new_division(ref.number, kind, rules).with_strengths(ODD)
        units[ref] = UnitState(ref, "B", division, (Cell(lon, lat),), facing)
    st = replace(base, units=MappingProxyType(units))
    st = _war(st) if war else st
    view = view_for(st, "red", rules)
    text = _text(view)
    assert str(ODD) not in text
    revealed = _revealed(view)
    cover = {s.cells[0] for s in view.seen if s.how == "cover"}
    for u in st:
        if u.owner != "B" or u.ref in revealed:
            continue
        assert f'"{u.ref}"' not in text
        if u.cell not in cover:
            assert not _mentions_place(text, u.cell)
        if u.cell.lon <= 4:  # more than 60 km from the border: never seen (8.2)
            assert not _mentions_place(text, u.cell)
        if u.cell.lon <= 8 and not war:  # more than 20 km: never a covering counter (at war,
            assert u.cell not in cover  # a continuous front of the second echelon is one, 8.2)
    if not war:
        assert not revealed and view.observed == ()


def test_geojson_holds_one_point_per_counter_with_what_is_known(rules2: RuleSet) -> None:
    view = view_for(_war(initial_state(_front(), 2)), "red", rules2)
    gj = to_geojson(view)
    assert gj["type"] == "FeatureCollection" and gj["view"] == "red"
    features: list[dict[str, Any]] = gj["features"]
    assert len(features) == len(view.units) + len(view.seen)
    by_cell = {tuple(f["geometry"]["coordinates"]): f["properties"] for f in features}
    assert by_cell[(14, 3)] == {"side": "blue", "how": "cover", "cells": ["14,3"]}
    assert by_cell[(13, 13)]["unit"] == "121 т.д." and "strengths" not in by_cell[(13, 13)]
    own = by_cell[(17, 9)]
    assert own["side"] == "red" and own["kind"] == "rifle" and own["strengths"] == [1.0] * 4
    assert all(f["geometry"]["type"] == "Point" for f in features)
