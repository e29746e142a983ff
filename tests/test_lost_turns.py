"""Turns that are lost are lost whole (4.5, 4.12, 4.10), 9.17's states as the rule data lists
them, and fire on columns passing an interdicted cell (9.7d, 4.5)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from strategia.core.geometry import Cell
from strategia.engine.apply import advance, apply
from strategia.engine.state import Busy, GameState, Interdiction, initial_state
from strategia.notation import UnitRef, parse_order
from strategia.rules import load_ruleset
from strategia.theatre.builder import ScenarioBuilder

R = {lvl: load_ruleset(level=lvl) for lvl in (1, 2, 3)}


def ref(text: str) -> UnitRef:
    return UnitRef.parse(text)


def duel(defender_busy: Busy | None, level: int = 2) -> float:
    """The defender's factor in a blow of 1 с.д. at 6,3 on 101 с.д. at 7,3 (open ground)."""
    b = (
        ScenarioBuilder.blank(14, 7)
        .state("R", "Красные", "red", lon=(1, 6))
        .state("B", "Синие", "blue", lon=(7, 14))
    )
    b = b.place("R", "1 с.д. - 6,3 фронтом на восток").place("B", "101 с.д. - 7,3 фронтом на запад")
    st = initial_state(b.build(), level)
    rules = R[level]
    d = st.unit(ref("101 с.д."))
    from strategia.engine.capability import at_work

    st = st.with_units([at_work(d, defender_busy, rules)])
    _, res = apply(st, parse_order("удар по 7,3: 1 с.д.", st), rules)
    return float(next(s for s in res.explanation.walk() if s.label.en == "Defender").value)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("what", "factor"),
    [
        ("transfer", 0.25),
        ("recovering", 0.25),
        ("regrouping", 0.25),
        ("collided", 0.25),
        ("turning", 1.0),
        ("crossing", 1.0),
        ("frontage", 1.0),
        ("passing", 1.0),
    ],
)
def test_9_17_covers_the_states_its_rule_entry_lists(what: str, factor: float) -> None:
    """`combat_capability` lists the states 4.5, 4.10 and 4.12 send to 9.17: a defender in one
    of them fights at battle.not_combat_capable = 0.25 of its rating; a unit turning or crossing
    a river is busy, not defenceless (the first version quartered every busy unit)."""
    assert duel(Busy(what, 0.5)) == pytest.approx(factor)


def _collide(level: int = 1) -> tuple[GameState, GameState]:
    b = (
        ScenarioBuilder.blank(14, 5)
        .state("R", "К", "red", lon=(1, 12))
        .state("B", "С", "blue", lon=(13, 14))
    )
    b = b.place("R", "5 с.д. - 2,3 фронтом на восток", "6 с.д. - 3,3 фронтом на восток")
    state = initial_state(b.build(), level)
    new, _ = apply(state, parse_order("5 с.д. на 3,3", state), R[level])
    return state, new


def test_a_collision_loses_the_whole_next_turn_4_12() -> None:
    """4.12: divisions on one cell «lose the whole next turn» and are not combat-capable. 5 с.д.
    moves onto 6 с.д. at 3,3 on turn 1: both are not combat-capable for the rest of turn 1 and
    for all of turn 2 (the first version gave them back their rating at the start of turn 2);
    from turn 3 they are whole again."""
    _, new = _collide()
    for r in ("5 с.д.", "6 с.д."):
        assert not new.unit(ref(r)).combat_capable
    turn2, _ = advance(new, R[1])
    for r in ("5 с.д.", "6 с.д."):
        u = turn2.unit(ref(r))
        assert not u.combat_capable and u.left == 0 and u.busy is not None
    turn3, _ = advance(turn2, R[1])
    for r in ("5 с.д.", "6 с.д."):
        u = turn3.unit(ref(r))
        assert u.combat_capable and u.busy is None and u.left == 1


def test_stacked_above_five_regiments_stops_short_at_level_2() -> None:
    """4.12 (level 2): at most 5 regiments on a cell: 4 + 4 would be 8, so at level 2 the
    division stops short and nothing collides."""
    _state, new = _collide(level=2)
    assert new.unit(ref("5 с.д.")).cell == Cell(2, 3) and new.unit(ref("5 с.д.")).combat_capable


def test_forming_a_corps_ends_with_its_third_turn_4_10() -> None:
    """4.10: «in 3 turns divisions can be brought into a corps». Ordered with a whole turn
    left on turn 1, the work fills turns 1, 2 and 3; the divisions are not combat-capable all
    that time and the corps exists from turn 4 (the first version formed it at the start of
    turn 3, combat-capable for that turn)."""
    b = (
        ScenarioBuilder.blank(12, 8)
        .state("R", "К", "red", lon=(1, 8))
        .state("B", "С", "blue", lon=(9, 12))
    )
    b = b.place("R", "17 с.д. - 3,3", "18 с.д. - 3,4").place("B", "40 с.д. - 10,4")
    state = initial_state(b.build(), 2)
    state, _ = apply(state, parse_order("свести 17 с.д., 18 с.д. в 5 с.к.", state), R[2])
    seen = []
    for _turn in (2, 3, 4):
        state, _ = advance(state, R[2])
        u = state.unit(ref("17 с.д."))
        seen.append((u.combat_capable, u.corps))
    corps = ref("5 с.к.")
    assert seen == [(False, None), (False, None), (True, corps)]


def test_transfer_recovery_is_a_whole_turn_4_5() -> None:
    """4.5: «1 turn to regain combat capability»: a division arriving by rail at the end of its
    last transfer turn is not combat-capable through the next turn, whole again after it."""
    b = ScenarioBuilder.blank(60, 5).state("R", "К", "red").city("A", "2,3").city("B", "55,3")
    b = b.railway("2,3 55,3").place("R", "5 с.д. - 2,3 фронтом на восток")
    state = initial_state(b.build(), 2)
    state, _ = apply(state, parse_order("5 с.д. переброска в 55,3", state), R[2])
    capable = []
    for _ in range(3):
        state, _ = advance(state, R[2])
        u = state.unit(ref("5 с.д."))
        capable.append((u.cell, u.combat_capable))
    assert capable == [(Cell(55, 3), False), (Cell(55, 3), False), (Cell(55, 3), True)]


def test_interdiction_fire_hits_a_transfer_that_passes_4_5_9_7d() -> None:
    """4.5's own example: troops attacked in transfer (by interdiction fire) end the transfer
    where they are attacked. A с.д. on rail from 2,3 to 55,3 through a node at 30,3: on turn 2
    it moves from 2,3 to 30,3 and passes 20,3, fired on by Blue (loss 0.5, open ground): it
    keeps half its strength and its transfer ends at 20,3, recovering (not combat-capable)."""
    b = ScenarioBuilder.blank(60, 5).state("R", "К", "red").city("A", "2,3").city("B", "55,3")
    b = b.state("B", "С", "blue", lon=(58, 60)).railway("2,3 55,3").railway("30,1 30,5")
    b = b.place("R", "5 с.д. - 2,3 фронтом на восток").place("B", "9 а.д. - 59,3")
    state = initial_state(b.build(), 2)
    state, _ = apply(state, parse_order("5 с.д. переброска в 55,3", state), R[2])
    fire = Interdiction(Cell(20, 3), "blue", 0.5, state.turn, ref("9 а.д."))
    state = replace(state, interdictions=(fire,))
    state, notes = advance(state, R[2])
    u = state.unit(ref("5 с.д."))
    assert u.cell == Cell(20, 3) and u.division.strength == pytest.approx(0.5)
    assert u.busy is not None and u.busy.what == "recovering" and not u.combat_capable
    assert any(s.rule == "9.7d" for r in notes for s in r.explanation.walk())


def test_interdiction_fire_hits_a_march_that_passes() -> None:
    """A с.д. marching along the road 2,3 → 8,3 passes 4,3 on its second turn; Blue's
    interdiction fire there (loss 0.5) halves it; the march goes on."""
    b = (
        ScenarioBuilder.blank(16, 5)
        .state("R", "К", "red", lon=(1, 13))
        .state("B", "С", "blue", lon=(15, 16))
    )
    b = b.road("2,3 12,3").place("R", "5 с.д. - 2,3 фронтом на восток").place("B", "9 а.д. - 16,3")
    state = initial_state(b.build(), 2)
    state, _ = apply(state, parse_order("5 с.д. марш на 8,3", state), R[2])
    state = replace(state, interdictions=(Interdiction(Cell(4, 3), "blue", 0.5, 1, ref("9 а.д.")),))
    state, _ = advance(state, R[2])
    u = state.unit(ref("5 с.д."))
    assert u.cell == Cell(4, 3) and u.division.strength == pytest.approx(0.5) and u.on_march


def _corps_before_a_narrow(n: int) -> GameState:
    """A corps of `n` т.д. at 2,3 (and 2,4, 2,5) facing east; a forest across lon 5-8 with one
    road through it along lat 3: every road cell in the forest is a narrow (4.7)."""
    b = (
        ScenarioBuilder.blank(14, 7)
        .state("R", "К", "red", lon=(1, 12))
        .state("B", "С", "blue", lon=(13, 14))
    )
    b = b.paint("forest", lon=(5, 8)).road("1,3 12,3")
    names = [f"{20 + k} т.д." for k in range(1, n + 1)]
    b = b.corps("R", "2 т.к.", *names)
    cells = [f"2,{3 + k}" for k in range(n)]
    for name, cell in zip(names, cells, strict=True):
        b = b.place("R", f"{name} - {cell} фронтом на восток")
    return initial_state(b.build(), 2)


def test_a_corps_files_through_a_narrow_in_a_column_4_7() -> None:
    """4.7: a corps crossing a narrow stretches to 1x(n+1): two т.д. ordered to 6,3 (a single
    road in forest). The leading 21 т.д. (nearest the goal) takes the road: 2,3 → 6,3 is 40 km
    by road (40 km a turn, table 4): one turn; it is the column's 1x2 head at 6,3 and 5,3 and
    22 т.д. follows at 4,3: the corps holds 4,3-6,3, a 1x3 column. The first version shifted
    22 т.д. by the same offset, to 6,4, off the road in the forest."""
    state = _corps_before_a_narrow(2)
    new, res = apply(state, parse_order("2 т.к. на 6,3", state), R[2])
    assert new.unit(ref("21 т.д.")).cells == (Cell(6, 3), Cell(5, 3))
    assert new.unit(ref("22 т.д.")).cells == (Cell(4, 3),)
    assert any(s.rule == "4.7" and "1x3" in s.label.en for s in res.explanation.walk())


def test_a_corps_of_three_files_into_1x4() -> None:
    """Three divisions: 1x4 (4.7: «for three, 1x4»): the head at 6,3-5,3, then 4,3 and 3,3."""
    state = _corps_before_a_narrow(3)
    new, _ = apply(state, parse_order("2 т.к. на 6,3", state), R[2])
    cells = [new.unit(ref(f"{k} т.д.")).cells for k in (21, 22, 23)]
    assert cells == [(Cell(6, 3), Cell(5, 3)), (Cell(4, 3),), (Cell(3, 3),)]
