"""Transfers between cities (4.5): route, day's stages by the 200-800 rule, turns and schedule."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
import xarray as xr

from strategia.core.geometry import Cell
from strategia.engine.transfer import (
    TransferError,
    TransferPlan,
    cut_short,
    plan_transfer,
    position_after,
)
from strategia.rules import RuleSet, load_ruleset
from strategia.rules.load import apply_house_text
from strategia.theatre.builder import ScenarioBuilder
from strategia.theatre.scenario_io import load_scenario

MAPS = Path(__file__).resolve().parent.parent / "maps"


def _line(width: int, goal: int, crossings: tuple[int, ...] = (), road: bool = False) -> xr.Dataset:
    """Cities A (2,5) and B (goal,5) on a railway (or road) along lat 5; a crossing line at each
    longitude in `crossings` makes a transport node there."""
    b = ScenarioBuilder.blank(width, 10).city("A", "2,5").city("B", f"{goal},5")
    b = b.road(f"2,5 {goal},5") if road else b.railway(f"2,5 {goal},5")
    for lon in crossings:
        b = b.railway(f"{lon},1 {lon},9")
    return b.scenario.theatre


def _plan(ds: xr.Dataset, rules: RuleSet, goal: int) -> TransferPlan:
    return plan_transfer(ds, Cell(2, 5), Cell(goal, 5), rules).value


def test_no_node_takes_two_turns(rules2: RuleSet) -> None:
    plan = _plan(_line(70, 60), rules2, 60)
    assert plan.km == pytest.approx(580)
    assert plan.stops == () and plan.turns == 2 and plan.recovery_turns == 1
    assert plan.route[0] == Cell(2, 5) and plan.route[-1] == Cell(60, 5) and len(plan.route) == 59
    assert plan.network == ("rail",)
    assert [(p.turn, p.cell, p.what) for p in plan.schedule] == [
        (1, Cell(2, 5), "assemble"),
        (2, Cell(60, 5), "arrive"),
    ]


def test_each_node_300_km_apart_is_a_stop_and_a_turn(rules2: RuleSet) -> None:
    plan = _plan(_line(130, 122, (32, 62, 92)), rules2, 122)
    assert plan.stops == (Cell(32, 5), Cell(62, 5), Cell(92, 5))
    assert plan.quasi == (False, False, False)
    assert plan.stage_km == pytest.approx((300, 300, 300, 300))
    assert plan.turns == 2 + 3
    assert [p.cell for p in plan.schedule] == [Cell(2, 5), *plan.stops, Cell(122, 5)]


def test_every_node_on_the_way_costs_a_turn_4_5(rules2: RuleSet) -> None:
    """4.5: «two turns plus a turn for each transport node»; the troops «move to the next node at
    the end of each turn». Nodes at 100 and 150 km on a 700 km line: 2 + 2 = 4 turns, the
    division at 2,5 (assembling), at 12,5, at 17,5, then at the goal; with nodes at 250, 400 and
    550 km, 2 + 3 = 5 turns. The first version counted only the nodes where a day's stage of
    200-800 km ends: 2 and 4 turns."""
    near = _plan(_line(80, 72, (12, 17)), rules2, 72)
    assert near.stops == (Cell(12, 5), Cell(17, 5)) and near.turns == 4
    assert [p.cell for p in near.schedule] == [Cell(2, 5), Cell(12, 5), Cell(17, 5), Cell(72, 5)]
    crowded = _plan(_line(80, 72, (27, 42, 57)), rules2, 72)
    assert crowded.stops == (Cell(27, 5), Cell(42, 5), Cell(57, 5)) and crowded.turns == 5


def test_the_stages_reading_is_a_house_rule(rules2: RuleSet) -> None:
    """With `rail_transfer.count_every_node = false` (the comment's 200-800 stages): nodes
    nearer than 200 km are passed, and a stop 150 km after the last is passed too."""
    rules = apply_house_text(rules2, "[rail_transfer]\ncount_every_node = false\n", "house.toml")
    near = _plan(_line(80, 72, (12, 17)), rules, 72)
    assert near.stops == () and near.turns == 2
    crowded = _plan(_line(80, 72, (27, 42, 57)), rules, 72)  # nodes at 250, 400, 550 km
    assert crowded.stops == (Cell(27, 5), Cell(57, 5))  # 400 km is 150 km past a stop
    assert crowded.turns == 4
    ex = plan_transfer(_line(80, 72, (27, 42, 57)), Cell(2, 5), Cell(72, 5), rules).explanation
    labels = [s.label.en for s in ex.walk()]
    assert "42,5: passed" in labels and "27,5: a stop" in labels and "57,5: a stop" in labels
    assert any(s.label.en.startswith("house rule: only the nodes") for s in ex.walk())


def test_a_long_leg_without_nodes_stops_at_a_quasi_node(rules2: RuleSet) -> None:
    cell = _plan(_line(120, 112), rules2, 112)  # 1,100 km, no node, no city on the way
    assert cell.stops == (Cell(82, 5),)  # the route cell at 800 km
    assert cell.quasi == (True,) and cell.turns == 3
    assert cell.stage_km == pytest.approx((800, 300))
    b = ScenarioBuilder.blank(120, 10).city("A", "2,5").city("B", "112,5").city("C", "50,5")
    town = _plan(b.railway("2,5 112,5").scenario.theatre, rules2, 112)
    assert town.stops == (Cell(50, 5),) and town.quasi == (True,) and town.turns == 3
    assert town.schedule[1].what == "quasi"


def test_diagonal_steps_count_10_sqrt_2_km(rules2: RuleSet) -> None:
    b = ScenarioBuilder.blank(20, 20).city("A", "2,2").city("B", "12,12").railway("2,2 12,12")
    plan = plan_transfer(b.scenario.theatre, Cell(2, 2), Cell(12, 12), rules2).value
    assert plan.km == pytest.approx(100 * math.sqrt(2), abs=0.05)


def test_level_1_goes_by_road_and_level_2_by_railway_only(rules1: RuleSet, rules2: RuleSet) -> None:
    road = _line(70, 60, road=True)
    plan = _plan(road, rules1, 60)
    assert plan.network == ("road",) and plan.turns == 2
    with pytest.raises(TransferError, match=r"2,5 -> 60,5: no railway connects them; a road does"):
        _plan(road, rules2, 60)
    with pytest.raises(TransferError, match="no road connects them"):
        _plan(_line(70, 60), rules1, 60)  # railways do not exist at level 1


def test_rail_only_off_by_house_rule_uses_roads_too(tmp_path: Path) -> None:
    house = tmp_path / "house.toml"
    house.write_text("[rail_transfer]\nrail_only = 0\n", encoding="utf-8")
    plan = _plan(_line(70, 60, road=True), load_ruleset(level=2, house=house), 60)
    assert plan.network == ("road", "rail") and plan.turns == 2


def test_cells_that_are_not_cities_are_refused(rules2: RuleSet) -> None:
    ds = _line(70, 60)
    with pytest.raises(TransferError, match=r"^transfer 17,3 -> 60,5: 17,3 is not a city$"):
        plan_transfer(ds, Cell(17, 3), Cell(60, 5), rules2)
    with pytest.raises(TransferError, match=r"2,5 -> 99,5: 99,5 is off the map, which is 70 x 10"):
        plan_transfer(ds, Cell(2, 5), Cell(99, 5), rules2)
    with pytest.raises(TransferError, match="the same cell"):
        plan_transfer(ds, Cell(2, 5), Cell(2, 5), rules2)


def test_cities_without_a_railway_between_them(rules2: RuleSet) -> None:
    b = ScenarioBuilder.blank(70, 10).city("A", "2,5").city("B", "60,5").railway("2,5 30,5")
    with pytest.raises(TransferError, match=r"^transfer 2,5 -> 60,5: no railway connects them$"):
        plan_transfer(b.scenario.theatre, Cell(2, 5), Cell(60, 5), rules2)


def test_position_and_cut_short_follow_the_schedule(rules2: RuleSet) -> None:
    plan = _plan(_line(130, 122, (32, 62, 92)), rules2, 122)
    assert position_after(plan, 0) == Cell(2, 5)
    assert [position_after(plan, n) for n in range(1, 6)] == [p.cell for p in plan.schedule]
    assert position_after(plan, 9) == Cell(122, 5)
    assert cut_short(plan, 1) == Cell(2, 5)  # attacked while assembling: it stays
    assert cut_short(plan, 3) == Cell(62, 5)
    assert cut_short(plan, 5) == Cell(122, 5)
    for bad in (0, 6):
        with pytest.raises(TransferError, match=f"attacked on turn {bad}.*turns 1 to 5"):
            cut_short(plan, bad)
    with pytest.raises(TransferError):
        position_after(plan, -1)


def test_house_rule_on_base_turns_changes_the_answer(tmp_path: Path) -> None:
    house = tmp_path / "house.toml"
    house.write_text("[rail_transfer]\nbase_turns = 3\n", encoding="utf-8")
    rules = load_ruleset(level=2, house=house)
    plan = _plan(_line(130, 122, (32, 62, 92)), rules, 122)
    assert plan.turns == 3 + 3 and len(plan.schedule) == 6
    assert [p.what for p in plan.schedule] == [
        "assemble",
        "assemble",
        "node",
        "node",
        "node",
        "arrive",
    ]
    ex = plan_transfer(_line(70, 60), Cell(2, 5), Cell(60, 5), rules).explanation
    assert ex.value == 3
    (lookup,) = [
        s for s in ex.walk() if s.kind == "lookup" and s.label.en == "turns a transfer takes"
    ]
    assert lookup.value == 3 and lookup.note is not None and "was 2" in lookup.note.en


def test_the_explanation_cites_4_5_and_records_the_lookups(rules2: RuleSet) -> None:
    ex = plan_transfer(_line(130, 122, (32, 62, 92)), Cell(2, 5), Cell(122, 5), rules2).explanation
    assert ex.rule == "4.5" and ex.value == 5
    assert all(s.rule for s in ex.walk())
    lookups = {s.label.en: s.value for s in ex.walk() if s.kind == "lookup"}
    assert lookups["turns a transfer takes"] == 2
    assert lookups["plus, per transport node"] == 1
    assert lookups["a transport node: more than three roads meet"] == 4
    assert lookups["shortest day's stage (200-800)"] == 200
    assert lookups["longest day's stage"] == 800
    assert lookups["to regain combat capability"] == 1
    assert lookups["side of a cell"] == 10
    steps = {s.label.en: s.value for s in ex.walk()}
    assert steps["2 + 1 × 3"] == 5
    assert steps["shortest route by railway"] == pytest.approx(1200)
    assert any(
        s.kind == "note" and s.label.en.startswith("4.5: a turn for each") for s in ex.find("4.5")
    )
    assert "stage 4: 92,5 -> B (122,5), at the destination" in steps


def test_default_scenario_transfer_at_level_2(rules2: RuleSet) -> None:
    ds = load_scenario(MAPS / "continental.toml").theatre
    start, goal = Cell(8, 31), Cell(57, 28)
    result = plan_transfer(ds, start, goal, rules2)
    plan = result.value
    assert plan.route[0] == start and plan.route[-1] == goal
    assert plan.km >= start.km(goal)
    assert plan.turns == 2 + len(plan.stops) == len(plan.schedule)
    assert plan.schedule[0].cell == start and plan.schedule[-1].cell == goal
    assert tuple(p.cell for p in plan.schedule[1:-1]) == plan.stops
    assert sum(plan.stage_km) == pytest.approx(plan.km, abs=0.5)
    assert "Синевск" in result.explanation.label.ru and "Краснодол" in result.explanation.label.ru
