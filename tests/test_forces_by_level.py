"""The forces of each level (3.6, 6.1, 6.4), armies and fronts (5.6, 5.7), and cuts that say
which cell and which table entry forbade a move (9.3, table 4)."""

from __future__ import annotations

from pathlib import Path

import pytest

from strategia.engine import flow
from strategia.engine.apply import apply
from strategia.engine.forces import not_in_play
from strategia.engine.result import OrderError
from strategia.engine.state import initial_state
from strategia.notation import UnitRef, parse_order
from strategia.rules import load_ruleset
from strategia.rules.load import apply_house_text
from strategia.theatre.builder import ScenarioBuilder
from strategia.theatre.scenario import Scenario, scenario_warnings
from strategia.theatre.scenario_io import load_scenario, parse_scenario

R = {lvl: load_ruleset(level=lvl) for lvl in (1, 2, 3)}
MAPS = Path(__file__).parents[1] / "maps"


def ref(text: str) -> UnitRef:
    return UnitRef.parse(text)


def _neutral() -> Scenario:
    b = ScenarioBuilder.blank(20, 10).state("R", "К", "red", lon=(1, 10))
    b = b.state("G", "З", "green", lon=(11, 20)).fortress("15,5")
    b = b.place("R", "1 с.д. - 3,5", "91 крепость - 5,5")
    b = b.place(
        "G", "201 с.д. - 12,5", "211 м.д. - 13,5", "221 пт.д. - 14,5", "291 крепость - 15,5"
    )
    return b.build()


def test_level_1_the_greens_have_their_rifle_divisions_only_3_6() -> None:
    """3.6: the neutral Greens have с.д. (6 each); «at the second and third levels м.д. and пт.д.
    are added and the fortresses on the map begin to act»: at level 1 the Green м.д. and пт.д.
    and every fortress garrison take no part; at level 2 all of them do."""
    sc = _neutral()
    one = initial_state(sc, 1)
    assert set(one.units) == {ref("1 с.д."), ref("201 с.д.")}
    two = initial_state(sc, 2)
    assert len(two.units) == 6
    why = [t.en for t in not_in_play(sc, R[1])]
    assert any("211 MD" in w and "3.6" in w for w in why)
    assert any("91 fortress" in w and "level 2" in w for w in why)


def test_a_fortress_garrison_never_moves_3_6() -> None:
    """A garrison «with fixed artillery» (3.6): an order to move it would do nothing at all, so
    it is refused (issue 24: not carried out «as far as possible», 9.3), the error citing 3.6,
    in both languages, nothing changed."""
    st = initial_state(_neutral(), 2)
    for text in ("91 крепость на 6,5", "91 крепость поворот на север"):
        with pytest.raises(OrderError) as e:
            apply(st, parse_order(text, st), R[2])
        english = parse_order(text, st).format("en")
        assert english in str(e.value) and "garrisons never move (3.6)" in str(e.value)
        assert text in e.value.say("ru") and "гарнизоны не перемещаются (3.6)" in e.value.say("ru")
        assert "гарнизоны не перемещаются (3.6)" in e.value.say("ru")


def _reserves(level: int, house: str = "") -> list[int]:
    """The turns on which 2 с.д. (reserve due at M+5) is on the map, turns 1-7."""
    b = ScenarioBuilder.blank(12, 6).state("R", "К", "red").city("Город", "5,3")
    b = b.place("R", "1 с.д. - 2,2").reserves("R", "M+5", "5,3", "2 с.д.")
    rules = R[level] if not house else apply_house_text(R[level], house, "house.toml")
    st, _ = flow.start(initial_state(b.build(), level, rules), rules)
    on: list[int] = []
    for turn in range(1, 8):
        if ref("2 с.д.") in st.units:
            on.append(turn)
        st, _ = flow.new_day(st, rules)
    return on


def test_level_2_reserves_arrive_by_the_schedule_6_4() -> None:
    """6.4 («2 уровень»): table 5's schedule; M+5 is turn 6 (turn 1 is M). Level 1: everything
    is in place at M (6.1)."""
    assert _reserves(2)[0] == 6
    assert _reserves(1) == [1, 2, 3, 4, 5, 6, 7]


def test_6_1s_reading_is_a_house_rule() -> None:
    """000 contradicts itself at level 2; `mobilisation_schedule.by_table = false` takes 6.1:
    every force in place on day M."""
    assert _reserves(2, "[mobilisation_schedule]\nby_table = false\n")[0] == 1


def test_armies_of_4_to_10_divisions_5_6() -> None:
    """5.6: an army has 4 to 10 divisions, corps' divisions counted. The default scenario keeps
    to it (its 4 А and 13 А were split); an army of 2 is reported with the rule."""
    assert not [
        w for w in scenario_warnings(load_scenario(MAPS / "continental.toml")) if "5.6" in w.message
    ]
    b = ScenarioBuilder.blank(12, 6).state("R", "К", "red").corps("R", "1 с.к.", "1 с.д.", "2 с.д.")
    b = b.army("R", "1 А", "1 с.к.").place("R", "1 с.к. расположен между 2-2 и 2-3")
    warned = scenario_warnings(b.build())
    assert [w.message for w in warned] == ["1 А: 2 divisions; an army has 4 to 10 (5.6)"]


def test_fronts_group_armies_5_7() -> None:
    """5.7: armies may be grouped into fronts; the order of battle writes `1 Ф: 1 А, 2 А`."""
    sc = load_scenario(MAPS / "continental.toml")
    red = sc.forces_of("R")
    assert [str(f.ref) for f in red.fronts] == ["1 Ф"]
    assert red.front_of(ref("2 А")) == ref("1 Ф") and red.front_of(ref("5 А")) is None
    assert ref("1 Ф").format("en") == "1 Front" and ref("1 Ф").echelon == "front"
    from strategia.theatre.scenario_write import format_scenario

    again = parse_scenario(format_scenario(sc))
    assert again.forces_of("R").fronts == red.fronts


def test_a_front_of_something_else_is_refused() -> None:
    b = ScenarioBuilder.blank(12, 6).state("R", "К", "red").place("R", "1 с.д. - 2,2")
    b = b.front("R", "1 Ф", "1 с.д.")
    with pytest.raises(Exception, match="not an army; a front groups armies"):
        b.build()


@pytest.mark.parametrize(
    ("unit", "relief", "words"),
    [
        ("5 а.д.", "mountains", "table 4, AD in mountains: impassable"),
        ("5 т.д.", "swamp", "table 4, TD in swamp: only along trails"),
    ],
)
def test_a_cut_names_the_cell_and_the_table_entry(unit: str, relief: str, words: str) -> None:
    """9.3: the mediator's record says why: a unit ordered into ground its type cannot enter
    gets the cell and table 4's entry, not only «moved as near as it can»."""
    b = (
        ScenarioBuilder.blank(14, 5)
        .state("R", "К", "red", lon=(1, 12))
        .state("B", "С", "blue", lon=(13, 14))
    )
    b = b.paint(relief, lon=(5, 8)).place("R", f"{unit} - 2,3 фронтом на восток")
    st = initial_state(b.build(), 2)
    _, res = apply(st, parse_order(f"{unit} на 6,3", st), R[2])
    reason = res.cuts[0].reason.en
    assert "cannot enter 5,3" in reason and words in reason, reason
    assert "5,3" in res.cuts[0].reason.ru and "табл. 4" in res.cuts[0].reason.ru


def test_a_river_an_artillery_division_cannot_cross() -> None:
    b = (
        ScenarioBuilder.blank(14, 5)
        .state("R", "К", "red", lon=(1, 12))
        .state("B", "С", "blue", lon=(13, 14))
    )
    b = b.river("4.5,0.5 4.5,5.5").place("R", "5 а.д. - 3,3 фронтом на восток")
    st = initial_state(b.build(), 2)
    _, res = apply(st, parse_order("5 а.д. на 5,3", st), R[2])
    assert "the river between 4,3 and 5,3" in res.cuts[0].reason.en


def test_a_trail_that_starts_inside_a_swamp_is_reported() -> None:
    """A trail beginning in the middle of a swamp: т.д., м.д., сау.д. go into swamp only along
    trails, so none can reach it; `scenario check` warns with its cell."""
    b = ScenarioBuilder.blank(20, 9).state("R", "К", "red").paint("swamp", lon=(5, 12), lat=(2, 8))
    b = b.trail("8,5 15,5").place("R", "1 с.д. - 2,2")
    warned = [w.message for w in scenario_warnings(b.build())]
    assert len(warned) == 1 and warned[0].startswith("ends at 8,5 inside swamp")
    ok = ScenarioBuilder.blank(20, 9).state("R", "К", "red").paint("swamp", lon=(5, 12), lat=(2, 8))
    ok = ok.trail("3,5 15,5").place("R", "1 с.д. - 2,2")
    assert scenario_warnings(ok.build()) == []
