"""Movement (chapter 4) at each level, executed as far as possible (9.3) and explained."""

from __future__ import annotations

import itertools
import math
from dataclasses import replace
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from strategia.core.geometry import Cell, Direction
from strategia.engine.apply import advance, apply
from strategia.engine.result import OrderError, Result
from strategia.engine.state import GameState, initial_state
from strategia.engine.unit_reach import prepare, reach, reach_all, unit_costs
from strategia.explain.trace import Step
from strategia.notation.orders import Move, Turn, parse_order
from strategia.notation.refs import IllegalNotationError, UnitRef
from strategia.rules import RuleSet, load_ruleset
from strategia.rules.english import en
from strategia.theatre.builder import ScenarioBuilder

R = {lvl: load_ruleset(level=lvl) for lvl in (1, 2, 3)}

# seed 002, table 1 (km a turn); cavalry reconstructed
SPEEDS = {
    "с.д.": {"plain": 10, "forest": 10, "hills": 10, "road": 10},
    "т.д.": {"plain": 30, "forest": 20, "hills": 20, "road": 40},
    "м.д.": {"plain": 30, "forest": 20, "hills": 30, "road": 50},
    "сау.д.": {"plain": 20, "forest": 20, "hills": 15, "road": 30},
    "пт.д.": {"plain": 20, "forest": 10, "hills": 10, "road": 30},
    "а.д.": {"plain": 10, "hills": 5, "road": 20},
    "кав.д.": {"plain": 20, "forest": 15, "hills": 15, "road": 20},
}


def strip(
    relief: str = "plain", unit: str = "5 т.д.", level: int = 2, width: int = 14, **kw: str
) -> GameState:
    """A 14 x 5 map of one relief with a unit at 2,3 facing east; extra builder steps in kw."""
    b = (
        ScenarioBuilder.blank(width, 5)
        .state("R", "Красные", "red", lon=(1, width - 2))
        .state("B", "Синие", "blue", lon=(width - 1, width))
    )
    if relief != "plain":
        b = b.paint(relief, lon=(1, width - 2))
    for what, arg in kw.items():
        b = getattr(b, what.rstrip("_0123456789"))(arg)
    b = b.place("R", f"{unit} - 2,3 фронтом на восток")
    return initial_state(b.build(), level)


def ref(state: GameState, text: str = "5 т.д.") -> UnitRef:
    return UnitRef.parse(text)


def east_reach(state: GameState, unit: str, rules: RuleSet) -> int:
    r = reach(state, UnitRef.parse(unit), rules)
    return max(c.lon for c in r.cells() if c.lat == 3) - 2


@pytest.mark.parametrize("unit", sorted(SPEEDS))
def test_speed_of_every_type_in_every_terrain(unit: str) -> None:
    for relief, km in SPEEDS[unit].items():
        if relief == "road":
            state = strip("plain", unit=f"5 {unit}", road="1,3 12,3")
        else:
            state = strip(relief, unit=f"5 {unit}")
        got = east_reach(state, f"5 {unit}", R[2])
        assert got == math.floor(km / 10 + 1e-9), (unit, relief)


def test_trails_only_and_impassable() -> None:
    state = strip("mountains", unit="5 т.д.")
    assert east_reach(state, "5 т.д.", R[2]) == 0  # т.д. in mountains only by trails
    state = strip("mountains", unit="5 т.д.", trail="1,3 12,3")
    assert east_reach(state, "5 т.д.", R[2]) == 1  # 10 km a turn on a mountain trail
    state = strip("mountains", unit="5 а.д.", trail="1,3 12,3")
    assert east_reach(state, "5 а.д.", R[2]) == 0  # а.д.: impassable even by trail
    state = strip("mountains", unit="5 а.д.", road="1,3 12,3")
    assert east_reach(state, "5 а.д.", R[2]) == 2  # a pass is a road (4.2)


def test_level_1_sees_forest_as_plain() -> None:
    assert east_reach(strip("forest", level=1), "5 т.д.", R[1]) == 3
    assert east_reach(strip("forest", level=2), "5 т.д.", R[2]) == 2


def test_seed_example_9_3_tank_division_30_km_through_hills_moves_20() -> None:
    state = strip("hills")
    new, res = apply(state, parse_order("5 т.д. на 5,3", state), R[2], side="red")
    assert new.unit(ref(state)).cell == Cell(4, 3)
    assert res.was_cut and res.cuts[0].rule == "9.3"
    assert "costs 1.5 turns" in res.cuts[0].reason.en
    assert res.outcome.ru == "5 т.д. - 4,3 фронтом на восток"
    # the player is told where the division is, not that the order was cut
    assert "cut" not in res.outcome.en and "9.3" not in res.outcome.en
    steps = [s for s in res.explanation.children if s.rule == "table 4"]
    assert [s.value for s in steps] == [0.5, 0.5]
    assert all(c.kind == "lookup" and c.value == 20 for s in steps for c in s.children)


def test_rivers_cost_turns_bridges_nothing() -> None:
    river = "5.5,0.5 5.5,5.5"
    state = strip("plain", unit="5 м.д.", river=river)
    assert east_reach(state, "5 м.д.", R[2]) == 3  # м.д. crosses in 0 turns
    state = strip("plain", unit="5 с.д.", river=river)
    rd = UnitRef.parse("5 с.д.")
    state = state.with_units([replace(state.unit(rd), cells=(Cell(5, 3),))])
    new, res = apply(state, parse_order("5 с.д. на 8,3", state), R[2])
    u = new.unit(rd)
    assert u.cell == Cell(5, 3) and u.busy is not None and u.busy.what == "crossing"
    assert u.busy.left == pytest.approx(0.5 + 0.5 + 1 - 1)  # half a step each side + 1 turn; 1 used
    assert "crossing the river" in res.cuts[0].reason.en
    new, notes = advance(new, R[2])  # a whole turn to go: the crossing takes this turn
    u = new.unit(rd)
    assert u.cell == Cell(5, 3) and u.busy is not None and u.left == 0 and u.combat_capable
    new, notes = advance(new, R[2])  # done with the last turn: on the far bank, a fresh turn
    u = new.unit(rd)
    assert u.cell == Cell(6, 3) and u.busy is None and u.left == 1 and notes
    ad = UnitRef.parse("5 а.д.")
    state = strip("plain", unit="5 а.д.", river=river)
    state = state.with_units([replace(state.unit(ad), cells=(Cell(5, 3),))])
    assert not reach(state, ad, R[2]).reachable(Cell(6, 3))  # а.д.: rivers impassable
    new, res = apply(state, parse_order("5 а.д. на 6,3", state), R[2])
    assert new.unit(ad).cell == Cell(5, 3) and "no way" in res.cuts[0].reason.en
    state = strip("plain", unit="5 а.д.", river=river, road="1,3 12,3")
    state = state.with_units([replace(state.unit(ad), cells=(Cell(5, 3),))])
    assert reach(state, ad, R[2]).reachable(Cell(6, 3))  # by the bridge


def test_reach_is_an_xarray_mask_and_has_paths() -> None:
    state = strip("plain")
    r = reach(state, ref(state), R[2])
    mask = r.to_dataarray(state.theatre)
    assert (
        mask.dims == ("lon", "lat")
        and mask.sel(lon=5, lat=3).item()
        and not mask.sel(lon=6, lat=3).item()
    )
    assert r.path_to(Cell(5, 3)) == [Cell(2, 3), Cell(3, 3), Cell(4, 3), Cell(5, 3)]
    assert not mask.sel(lon=2, lat=5).item()  # 90° off the facing


def test_prepare_makes_each_kinds_costs_ahead_and_changes_nothing() -> None:
    """Two tank divisions and a rifle division: two kinds prepared; afterwards a unit's step
    costs are the very arrays kept by `prepare` (nothing computed again), the state is the
    same and its reach the same as without."""
    b = ScenarioBuilder.blank(14, 5).state("R", "Красные", "red", lon=(1, 12))
    for text in ("5 т.д. - 2,3 фронтом на восток", "6 т.д. - 2,1", "7 с.д. - 2,5"):
        b = b.place("R", text)
    state = initial_state(b.build(), 2)
    before = reach(state, UnitRef.parse("6 т.д."), R[2]).cells()
    units = dict(state.units)
    assert prepare(state, R[2]) == 2
    kept = unit_costs(state, state.unit(UnitRef.parse("5 т.д.")), R[2])
    assert unit_costs(state, state.unit(UnitRef.parse("6 т.д.")), R[2]) is kept
    assert dict(state.units) == units
    assert reach(state, UnitRef.parse("6 т.д."), R[2]).cells() == before


def test_forward_sector_of_30_degrees() -> None:
    state = strip("plain", unit="5 м.д.")
    with pytest.raises(OrderError, match="45° off its facing"):  # nothing to do: refused
        apply(state, parse_order("5 м.д. на 3,4", state), R[2])
    new, res = apply(state, parse_order("5 м.д. на 3,4 через 3,3", state), R[2])  # then 45° off
    assert res.cuts[0].rule == "4.2" and new.unit(UnitRef.parse("5 м.д.")).cell == Cell(3, 3)
    new, res = apply(state, parse_order("5 м.д. на 4,4", state), R[2])  # 26.6°: allowed
    assert not res.was_cut and new.unit(UnitRef.parse("5 м.д.")).cell == Cell(4, 4)


def test_road_movement_turns_with_the_road() -> None:
    state = strip("forest", unit="5 т.д.", road="2,3 5,3 7,5")
    new, res = apply(state, parse_order("5 т.д. по дороге на 7,5", state), R[2])
    u = new.unit(ref(state))
    # 3 road steps of 10 km and 2 diagonal of 14.1 km at 40 km a turn = 1.457: as far as 1 turn
    assert u.cell == Cell(5, 3) and res.was_cut
    new, res = apply(state, parse_order("5 т.д. по дороге на 4,3", state), R[2])
    assert new.unit(ref(state)).facing is Direction.E
    state = strip("plain", unit="5 т.д.", road="2,3 2,5")
    new, _ = apply(state, parse_order("5 т.д. по дороге на 2,5", state), R[2])
    assert new.unit(ref(state)).facing is Direction.N  # facing follows the road (4.2)


def test_withdrawal_at_half_speed_at_level_3() -> None:
    for level, cells in ((2, 3), (3, 1)):
        state = strip("plain", unit="5 т.д.", level=level, width=14)
        state = state.with_units([replace(state.unit(ref(state)), cells=(Cell(8, 3),))])
        new, _ = apply(state, parse_order("5 т.д. отход на 2,3", state), R[level])
        assert new.unit(ref(state)).cell == Cell(8 - cells, 3), level
        assert new.unit(ref(state)).facing is Direction.E  # still facing the enemy


@pytest.mark.parametrize(
    "level, relief, facing, turns, busy",
    [(1, "plain", "запад", 1.0, None), (1, "plain", "север", 0.5, None), (2, "hills", "запад", 1.0, 0.5),
     (2, "swamp", "запад", 1.0, 1.0), (2, "swamp", "север", 1.0, None), (2, "plain", "северо-восток", 0.25, None),
     (2, "plain", "северо-запад", 0.75, None)],
)  # fmt: skip
def test_turning_costs_4_3(
    level: int, relief: str, facing: str, turns: float, busy: float | None
) -> None:
    state = strip(relief, level=level, unit="5 с.д.")
    new, _ = apply(state, parse_order(f"5 с.д. поворот на {facing}", state), R[level])
    u = new.unit(UnitRef.parse("5 с.д."))
    assert u.spent == pytest.approx(turns)
    assert (u.busy.left if u.busy else None) == (pytest.approx(busy) if busy else None)
    if busy is None:
        assert u.facing is Direction.parse(facing)


def test_a_90_degree_turn_leaves_half_a_move() -> None:
    state = strip("plain", unit="5 т.д.")
    new, _ = apply(state, parse_order("5 т.д. поворот на север", state), R[2])
    new, res = apply(new, parse_order("5 т.д. на 2,5", new), R[2])
    assert new.unit(ref(state)).cell == Cell(2, 4)  # 15 km: one cell of 10 km
    assert res.cuts and "with 0.5 turn left" in res.cuts[0].reason.en


def test_level_1_has_no_45_degree_turn() -> None:
    state = strip("plain", level=1)
    new, res = apply(state, parse_order("5 т.д. поворот на северо-восток", state), R[1])
    assert new.unit(ref(state)).facing is Direction.E and res.cuts[0].rule == "4.3"
    new, res = apply(state, parse_order("5 т.д. поворот на северо-запад", state), R[1])
    assert new.unit(ref(state)).facing is Direction.N and res.was_cut


def test_no_turning_on_a_trail() -> None:
    state = strip("forest", trail="1,3 12,3")
    new, res = apply(state, parse_order("5 т.д. поворот на север", state), R[2])
    assert new == state and "trail" in res.cuts[0].reason.en


def _step(res: Result, start: str) -> Step:
    return next(s for s in res.explanation.children if s.label.en.startswith(start))


def test_march_4_8() -> None:
    """4.8: «+10 km for every 20 km actually travelled (the speed grows 1.5 times)».

    A с.д. (road 10 km a turn, table 4) marches 60 km along the road from 2,3 to 8,3: forming up
    0.5 turn, then 60 / (1.5 × 10) = 4 turns: 4.5 turns in all (the first reading, bonus
    subtracted from the distance, gave 0.5 + 30/10 = 3.5). The head reaches a cell every 10/15 =
    2/3 turn after the half turn of forming up: at 1.17, 1.83, 2.5, 3.17, 3.83 and 4.5 turns; at
    the ends of turns 1-5 (1, 2, 3, 4, 5) it stands at 2,3, 4,3, 5,3, 7,3 and 8,3.
    «Дивизия на марше растягивается в прямоугольник 1*2»: from the first turn, though its head
    has not left 2,3, it holds two cells, its rest behind the head (1,3, against the march east:
    the road begins at 2,3); then the cell it passed (4,3 and 3,3).
    """
    state = strip("plain", unit="5 с.д.", road="2,3 12,3", width=16)
    new, res = apply(state, parse_order("5 с.д. марш на 8,3", state), R[2])
    assert _step(res, "time:").value == pytest.approx(0.5 + 60 / 15)
    assert _step(res, "speed on the march").value == pytest.approx(15)
    u = new.unit(UnitRef.parse("5 с.д."))
    assert u.on_march and u.combat_capable and u.cells == (Cell(2, 3), Cell(1, 3))
    cells = [u.cell]
    for _ in range(5):
        new, _ = advance(new, R[2])
        cells.append(new.unit(UnitRef.parse("5 с.д.")).cell)
        if len(cells) == 2:
            assert new.unit(UnitRef.parse("5 с.д.")).cells == (Cell(4, 3), Cell(3, 3))
    assert cells == [Cell(2, 3), Cell(4, 3), Cell(5, 3), Cell(7, 3), Cell(8, 3), Cell(8, 3)]
    u = new.unit(UnitRef.parse("5 с.д."))
    assert not u.on_march and u.busy is None and u.combat_capable


def test_a_march_begun_mid_road_stretches_back_along_the_road() -> None:
    """4.8: «Дивизия на марше растягивается в прямоугольник 1*2 с равномерным распределением
    полков вдоль дороги». A с.д. at 2,3 on a road that comes from 1,2 and goes on east marches
    to 8,3: after forming up (0.5 turn) it covers 7.5 of the 10 km to 3,3 in its first turn, so
    its head is still at 2,3 and the column lies behind it along the road, at 1,2, not at 1,3
    straight behind (off the road)."""
    state = strip("plain", unit="5 с.д.", road="1,2 2,3 12,3", width=16)
    new, res = apply(state, parse_order("5 с.д. марш на 8,3", state), R[2])
    assert not res.cuts
    assert new.unit(UnitRef.parse("5 с.д.")).cells == (Cell(2, 3), Cell(1, 2))


def test_march_of_a_tank_division_counts_the_whole_distance() -> None:
    """A т.д. (road 40 km, table 4) marching 100 km (2,3 to 12,3): 0.5 + 100 / 60 = 2.17 turns.
    The distance is counted for the whole march (4.8), so the remainders of each turn carry on:
    the head reaches cells at 0.5 + k/6 turns, at the ends of turns 1, 2, 3 at 5,3 (0.5 + 3/6),
    11,3 (0.5 + 9/6) and 12,3."""
    state = strip("plain", unit="5 т.д.", road="2,3 14,3", width=16)
    new, res = apply(state, parse_order("5 т.д. марш на 12,3", state), R[2])
    assert _step(res, "time:").value == pytest.approx(0.5 + 100 / 60, abs=1e-4)
    cells = [new.unit(UnitRef.parse("5 т.д.")).cell]
    for _ in range(2):
        new, _ = advance(new, R[2])
        cells.append(new.unit(UnitRef.parse("5 т.д.")).cell)
    assert cells == [Cell(5, 3), Cell(11, 3), Cell(12, 3)]


def test_a_march_may_begin_off_the_road() -> None:
    """4.8: «0.5 turn to form up plus the time needed to reach the road». A с.д. at 2,3 (plain,
    10 km a turn) with the road one cell north (row 4): half a step in each cell, 10 km at 10 km
    a turn = 1 turn to reach 2,4; then 2,4 to 8,4 is 60 km at 15: 0.5 + 1 + 4 = 5.5 turns."""
    state = strip("plain", unit="5 с.д.", road="2,4 12,4", width=16)
    _new, res = apply(state, parse_order("5 с.д. марш на 8,4", state), R[2])
    assert not res.cuts
    assert _step(res, "to the road at 2,4").value == pytest.approx(1.0)
    assert _step(res, "time:").value == pytest.approx(0.5 + 1 + 4)


def test_a_march_follows_the_roads_named() -> None:
    """The order names the roads (4.8) by a cell on each: from 2,3 to 8,3 by the road through
    5,4 (a loop north) rather than straight along row 3."""
    state = strip("plain", unit="5 с.д.", road="2,3 12,3", width=16, road_2="3,3 5,4 7,3")
    o = parse_order("5 с.д. марш на 8,3 по дорогам через 5,4", state)
    assert str(o) == "5 с.д. марш на 8,3 по дорогам через 5,4" and o.format("en") == (
        "5 RD march to 8,3 by roads via 5,4"
    )
    new, _ = apply(state, o, R[2])
    busy = new.unit(UnitRef.parse("5 с.д.")).busy
    assert busy is not None and Cell(5, 4) in busy.plan


def test_march_is_level_2_and_needs_a_road_free_of_the_enemy() -> None:
    state = strip("plain", unit="5 с.д.", level=1, road="2,3 12,3")
    with pytest.raises(OrderError, match=r"rule 4\.8 acts from level 2; .* at level 1 \(0\.2\)"):
        apply(state, parse_order("5 с.д. марш на 8,3", state), R[1])  # refused: nothing done
    b = (
        ScenarioBuilder.blank(14, 5)
        .state("R", "К", "red", lon=(1, 12))
        .state("B", "С", "blue", lon=(13, 14))
        .road("2,3 12,3")
    )
    b = b.place("R", "5 с.д. - 2,3 фронтом на восток").place("B", "101 с.д. - 8,4")
    state = initial_state(b.build(), 2)
    new, res = apply(state, parse_order("5 с.д. марш на 11,3", state), R[2])
    assert any("not free of the enemy" in c.reason.en for c in res.cuts)


def test_march_halts_and_halts_out_of_reach() -> None:
    """Halts (4.8) are where the division stands at the end of each turn. As in test_march_4_8
    the с.д. reaches 3,3 at 1.17 turns: past the end of turn 1, so the first halt at 3,3 is out
    of reach (cut, 9.3) and it stands at 2,3; it reaches 4,3 at 1.83 and waits there to the end
    of turn 2; from 2.0 it reaches 5,3 at 2.67, 6,3 at 3.33."""
    state = strip("plain", unit="5 с.д.", road="2,3 12,3", width=16)
    new, res = apply(state, parse_order("5 с.д. марш на 8,3 привалы 3,3 4,3", state), R[2])
    assert any("halt 3,3 is beyond the day's march" in c.reason.en for c in res.cuts)
    cells = [new.unit(UnitRef.parse("5 с.д.")).cell]
    for _ in range(3):
        new, _ = advance(new, R[2])
        cells.append(new.unit(UnitRef.parse("5 с.д.")).cell)
    assert cells == [Cell(2, 3), Cell(4, 3), Cell(5, 3), Cell(7, 3)]


def test_frontage_4_6() -> None:
    state = strip("plain", unit="5 с.д.")
    new, res = apply(state, parse_order("5 с.д. растянуть на 2,4", state), R[2])
    u = new.unit(UnitRef.parse("5 с.д."))
    assert u.cells == (Cell(2, 3), Cell(2, 4)) and u.spent == 1.0
    assert res.outcome.ru == "5 с.д. расположена между 2,3 и 2,4 фронтом на восток"
    new, _ = advance(new, R[2])
    new, res = apply(new, parse_order("5 с.д. на 3,3", new), R[2])
    assert new.unit(UnitRef.parse("5 с.д.")).cells == (Cell(3, 3), Cell(3, 4))
    new, _ = advance(new, R[2])
    new, _ = apply(new, parse_order("5 с.д. сжать на 3,3", new), R[2])
    assert new.unit(UnitRef.parse("5 с.д.")).cells == (Cell(3, 3),)
    _, res = apply(state, parse_order("5 с.д. растянуть на 3,3", state), R[2])
    assert "ahead or behind" in res.cuts[0].reason.en
    lvl1 = strip("plain", unit="5 с.д.", level=1)
    with pytest.raises(OrderError, match=r"rule 4\.6 acts from level 2; .* at level 1 \(0\.2\)"):
        apply(lvl1, parse_order("5 с.д. растянуть на 2,4", lvl1), R[1])  # refused: nothing done


def test_narrows_stretch_a_division_4_7() -> None:
    state = strip("forest", unit="5 т.д.", trail="1,3 12,3")
    new, _ = apply(state, parse_order("5 т.д. на 4,3", state), R[2])
    assert new.unit(ref(state)).cells == (Cell(4, 3), Cell(3, 3))
    lvl1 = strip("forest", unit="5 т.д.", level=1, road="1,3 12,3")
    new, _ = apply(lvl1, parse_order("5 т.д. на 4,3", lvl1), R[1])
    assert new.unit(ref(lvl1)).cells == (Cell(4, 3),)


def _two(level: int, second: str) -> GameState:
    b = (
        ScenarioBuilder.blank(14, 5)
        .state("R", "К", "red", lon=(1, 12))
        .state("B", "С", "blue", lon=(13, 14))
    )
    b = b.place("R", "5 т.д. - 2,3 фронтом на восток", second)
    return initial_state(b.build(), level)


def test_non_overlap_4_12() -> None:
    state = _two(1, "6 с.д. - 4,3 фронтом на восток")
    new, res = apply(state, parse_order("5 т.д. на 4,3", state), R[1])
    a, b = new.unit(UnitRef.parse("5 т.д.")), new.unit(UnitRef.parse("6 с.д."))
    assert a.cell == b.cell == Cell(4, 3)
    assert (
        a.busy
        and b.busy
        and a.busy.what == "collided"
        and not a.combat_capable
        and not b.combat_capable
    )
    new, _ = advance(new, R[1])
    assert new.unit(UnitRef.parse("6 с.д.")).left == 0  # the whole next turn is lost
    new, _ = advance(new, R[1])
    assert new.unit(UnitRef.parse("6 с.д.")).combat_capable
    # passing through another counter is not allowed: it goes round
    new, res = apply(state, parse_order("5 т.д. на 5,3", state), R[1])
    assert Cell(4, 3) not in [
        c for s in res.explanation.children for c in ()
    ]  # the path avoids 4,3
    assert new.unit(UnitRef.parse("5 т.д.")).cell != Cell(4, 3)


def test_level_2_at_most_five_regiments_on_a_cell() -> None:
    state = _two(2, "6 с.д. - 4,3 фронтом на восток")
    new, res = apply(state, parse_order("5 т.д. на 4,3", state), R[2])
    assert new.unit(UnitRef.parse("5 т.д.")).cell == Cell(3, 3)
    assert res.cuts[-1].rule == "4.12" and "8 regiments" in res.cuts[-1].reason.en


def test_enemy_cells_stop_a_move() -> None:
    b = (
        ScenarioBuilder.blank(14, 5)
        .state("R", "К", "red", lon=(1, 12))
        .state("B", "С", "blue", lon=(13, 14))
    )
    b = b.place("R", "5 т.д. - 2,3 фронтом на восток").place("B", "101 с.д. - 4,3")
    state = initial_state(b.build(), 2)
    new, _ = apply(state, parse_order("5 т.д. на 5,3", state), R[2])
    assert new.unit(UnitRef.parse("5 т.д.")).cell != Cell(4, 3)


def test_a_refusal_tells_nothing_of_the_enemy() -> None:
    """1.6: an order of Blue's for Red's 5 т.д. and one for a 9 т.д. nobody has are refused in
    the same words (but for the unit's name), so a refusal is no reconnaissance."""
    state = _two(2, "6 с.д. - 4,4")
    from strategia.notation.orders import Move

    refusals = []
    for ref in ("5 т.д.", "9 т.д."):
        with pytest.raises(OrderError) as e:
            apply(state, Move(UnitRef.parse(ref), Cell(4, 3)), R[2], side="blue")
        refusals.append(str(e.value).replace(en(ref), "X"))
    assert refusals[0] == refusals[1] == "X to 4,3: Blue has no unit X on the map"


def test_refusals_change_nothing() -> None:
    state = _two(2, "6 с.д. - 4,4")
    with pytest.raises(OrderError, match="Blue has no unit 5 TD on the map"):
        apply(state, parse_order("5 т.д. на 4,3", state), R[2], side="blue")
    with pytest.raises(IllegalNotationError, match="no such unit 7 т.д."):
        parse_order("7 т.д. на 4,3", state)
    with pytest.raises(IllegalNotationError, match="cell off the map, which is 14 x 5"):
        parse_order("5 т.д. на 45,99", state)
    with pytest.raises(OrderError, match="not on the map"):
        apply(state, Move(UnitRef.parse("9 т.д."), Cell(3, 3)), R[2])


def test_a_unit_with_no_time_left_does_not_move() -> None:
    state = strip("plain")
    new, _ = apply(state, parse_order("5 т.д. на 5,3", state), R[2])
    again, res = apply(new, parse_order("5 т.д. на 6,3", new), R[2])
    assert again == new and "used this turn" in res.cuts[0].reason.en


def test_rail_transfer_through_apply() -> None:
    b = (
        ScenarioBuilder.blank(60, 5)
        .state("R", "К", "red")
        .city("A", "2,3")
        .city("B", "55,3")
        .railway("2,3 55,3")
        .road("2,3 55,3")
    )
    b = b.place("R", "5 с.д. - 2,3 фронтом на восток")
    state = initial_state(b.build(), 2)
    new, _ = apply(state, parse_order("5 с.д. переброска в 55,3", state), R[2])
    u = new.unit(UnitRef.parse("5 с.д."))
    assert u.busy and u.busy.what == "transfer" and not u.combat_capable
    turns = 1
    while u.busy and u.busy.what == "transfer":
        new, _ = advance(new, R[2])
        u = new.unit(UnitRef.parse("5 с.д."))
        turns += 1
    assert u.cell == Cell(55, 3) and turns == 2  # 2 turns + 1 per node: no node on the way (4.5)
    assert u.busy and u.busy.what == "recovering" and not u.combat_capable
    new, _ = advance(new, R[2])  # the turn of recovery (4.5) is lost whole
    u = new.unit(UnitRef.parse("5 с.д."))
    assert not u.combat_capable and u.left == 0
    new, _ = advance(new, R[2])
    u = new.unit(UnitRef.parse("5 с.д."))
    assert u.combat_capable and u.busy is None and u.left == 1


def test_reach_all_in_one_search() -> None:
    b = ScenarioBuilder.blank(20, 10).state("R", "К", "red")
    b = b.place("R", *(f"{n} т.д. - {n + 1},{(n % 8) + 1} фронтом на восток" for n in range(1, 16)))
    state = initial_state(b.build(), 2)
    reaches = reach_all(state, R[2])
    assert len(reaches) == 15
    for r, reach_one in ((reaches[u], reach(state, u, R[2])) for u in state.units):
        assert np.array_equal(r.mask, reach_one.mask)


def test_reach_all_equals_each_lone_search_on_a_crowded_map() -> None:
    """The batched search (one block-diagonal graph) gives each unit the very distances of its
    own search, and a path to each cell it reaches: 40 divisions of every kind on a generated 40 x 40 theatre, with
    woods, hills, rivers and roads, counters blocking one another."""
    from strategia.theatre.generate import random_scenario

    state = initial_state(random_scenario(40, 40, seed=3, divisions_per_side=20), 3)
    reaches = reach_all(state, R[3])
    for u in state.units:
        alone = reach(state, u, R[3])
        got = reaches[u]
        assert np.array_equal(got.dist, alone.dist)
        assert got.cells() == alone.cells()
        for c in got.cells():
            path = got.path_to(c)
            assert (path[0], path[-1]) == (state.unit(u).cell, c)
            assert all(a.chebyshev(b) == 1 for a, b in itertools.pairwise(path))


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from([0.0, 0.25, 0.5, 0.5, 1.0, np.inf]), min_size=81, max_size=81),
    st.integers(-12, 20),
    st.integers(-12, 20),
)
def test_nearest_reachable_cell_is_the_nearest_then_cheapest(
    dist: list[float], lon: int, lat: int
) -> None:
    """`Reach.nearest` is the first of the reachable cells (in `cells()`' order) with the least
    (km to the target, cost): what a move that cannot reach its goal heads for (9.3)."""
    from strategia.engine.reach import Reach

    d = np.array(dist).reshape(9, 9)
    r = Reach(Cell(10, 10), (5, 5), d, np.full((9, 9), -1), 0.75, np.ones((9, 9), bool), (30, 30))
    target = Cell(lon, lat)
    cells = r.cells() or [r.origin]
    assert r.nearest(target) == min(cells, key=lambda c: (c.km(target), r.cost_to(c)))


def test_turn_order_value_round_trips() -> None:
    o = Turn(UnitRef.parse("5 т.д."), Direction.S)
    assert str(o) == "5 т.д. поворот на юг" and o.format("en") == "5 TD turn S"
    assert eval(repr(o), {"parse_order": parse_order}) == o


def test_a_corps_moves_as_one(capsys: pytest.CaptureFixture[str]) -> None:
    b = (
        ScenarioBuilder.blank(14, 6)
        .state("R", "К", "red", lon=(1, 12))
        .state("B", "С", "blue", lon=(13, 14))
    )
    b = b.corps("R", "2 т.к.", "21 т.д.", "22 т.д.").place(
        "R", "2 т.к. расположен между 2-3 и 2-4 фронтом на восток"
    )
    state = initial_state(b.build(), 2)
    new, res = apply(state, parse_order("2 т.к. на 5,3", state), R[2])
    assert new.unit(UnitRef.parse("21 т.д.")).cell == Cell(5, 3)
    assert new.unit(UnitRef.parse("22 т.д.")).cell == Cell(5, 4)
    assert len([c for c in res.explanation.children if c.rule == "4.2"]) == 2


def test_cli_move_and_reach(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from strategia.cli import main

    assert main(["move", "maps/continental.toml", "21 т.д. на 35,35", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (
        data["outcome"]["ru"].startswith("21 т.д. - 35,35") and data["explanation"]["rule"] == "4.2"
    )
    assert main(["reach", "maps/continental.toml", "21 т.д.", "--json"]) == 0
    cells = {c["cell"] for c in json.loads(capsys.readouterr().out)["cells"]}
    assert "35,35" in cells
    assert (
        main(
            ["move", "maps/continental.toml", "21 т.д. на 35,35", "--side", "blue", "--lang", "en"]
        )
        == 2
    )
    assert "Blue has no unit 21 TD on the map" in capsys.readouterr().err


@pytest.mark.parametrize("enabled", [True, False])
def test_a_turn_runs_with_the_collector_paused_and_leaves_it_as_it_was(
    enabled: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A level-3 turn and the new turn run with Python's cyclic collector paused (a state, a
    result and an explanation per order: the collector's passes over them were a tenth of a
    turn at 20,000 divisions), and leave it on or off as it was."""
    import gc

    from strategia.engine import flow, movement

    seen: list[bool] = []
    searched = movement._path

    def path(*args: Any) -> tuple[list[Cell], float]:
        seen.append(gc.isenabled())
        return searched(*args)

    monkeypatch.setattr(movement, "_path", path)
    state = strip()
    was = gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    try:
        after, _ = flow.execute_together(
            state, [("red", parse_order("5 т.д. на 4,3", state))], R[3]
        )
        assert seen == [False] and gc.isenabled() is enabled
        advance(after, R[3])
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()
