"""A turn on a road (4.3): «поворот на дороге "снимает" с дивизии статус двигающейся по дороге»:
an order to go by road after the turn keeps to the road at the speed of the ground, as far as
that goes (9.3), the mediator's record saying what was cut and why, the player told only where
the unit stands.

Speeds are seed 002's table 1 (table 4 in the rule data): т.д. plain 30 km, forest 20, road 40;
a straight step is 10 km.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from strategia.core.geometry import Cell, Direction
from strategia.engine.apply import advance, apply
from strategia.engine.result import Result
from strategia.engine.state import GameState, initial_state
from strategia.engine.unit_reach import reach
from strategia.game.channel import channel
from strategia.game.game import Game
from strategia.notation.orders import parse_order
from strategia.notation.refs import UnitRef
from strategia.rules import load_ruleset
from strategia.rules.load import apply_house_text
from strategia.theatre.builder import ScenarioBuilder

R = {lvl: load_ruleset(level=lvl) for lvl in (1, 2)}
TD = UnitRef.parse("5 т.д.")


def _road(level: int = 2, relief: str = "plain", **kw: str) -> GameState:
    """A 14 x 5 map, a road along row 3 from 1,3 to 12,3; 5 т.д. at 2,3 facing east."""
    b = (
        ScenarioBuilder.blank(14, 5)
        .state("R", "Красные", "red", lon=(1, 12))
        .state("B", "Синие", "blue", lon=(13, 14))
    )
    if relief != "plain":
        b = b.paint(relief, lon=(1, 12))
    b = b.road("1,3 12,3")
    for what, arg in kw.items():
        b = getattr(b, what)(arg)
    b = b.place("R", "5 т.д. - 2,3 фронтом на восток")
    return initial_state(b.build(), level)


def _turn_then(
    state: GameState, facing: str, order: str, level: int = 2
) -> tuple[GameState, Result]:
    rules = R[level]
    state, turned = apply(state, parse_order(f"5 т.д. поворот на {facing}", state), rules)
    assert not turned.cuts and state.unit(TD).road_dropped
    return apply(state, parse_order(order, state), rules)


def test_a_45_degree_turn_on_a_road_then_by_road_goes_at_the_plain_s_pace() -> None:
    """Level 2: a turn of up to 45° is a quarter turn (4.3), 0.75 of the turn is left. By road
    (40 km a turn) that would be 30 km: 5,3. The turn dropped the road's speed, so the т.д.
    keeps to the road at the plain's 30 km a turn: a 10 km step is 1/3 turn, two steps 0.67 <=
    0.75, a third would need 1.0: it stops at 4,3 after 20 km. The way to 8,3 (60 km) costs
    2 turns: cut (9.3), and the road's speed cut (4.3), for the mediator only."""
    new, res = _turn_then(_road(), "северо-восток", "5 т.д. по дороге на 8,3")
    u = new.unit(TD)
    assert u.cell == Cell(4, 3) and u.spent == pytest.approx(0.25 + 2 / 3)
    assert [c.rule for c in res.cuts] == ["4.3", "9.3"]
    assert "no road speed" in res.cuts[0].reason.en
    assert "без скорости дороги" in res.cuts[0].reason.ru
    assert "the way to 8,3 costs 2 turns, with 0.75 turn left: stopped at 4,3" in (
        res.cuts[1].reason.en
    )
    steps = [s for s in res.explanation.walk() if s.label.en.startswith("2,3 → 3,3")]
    assert steps and "along the road at the ground's pace" in steps[0].label.en
    assert [c.value for c in steps[0].children] == [30]  # table 4, plain, т.д.
    assert u.facing is Direction.E  # it went along the road, and turned with it (4.2)
    # the same order without the turn: road speed, 40 km in a whole turn
    fresh, r = apply(_road(), parse_order("5 т.д. по дороге на 8,3", _road()), R[2])
    assert fresh.unit(TD).cell == Cell(6, 3) and [c.rule for c in r.cuts] == ["9.3"]


def test_a_90_degree_turn_at_level_1_leaves_half_a_move_at_the_ground_s_pace() -> None:
    """Level 1: 90° is half a turn (4.3): 0.5 left. At the plain's 30 km: 15 km, one step
    (1/3 turn) to 3,3; by road it would have been 20 km, two steps."""
    new, res = _turn_then(_road(level=1), "север", "5 т.д. по дороге на 8,3", level=1)
    assert new.unit(TD).cell == Cell(3, 3) and new.unit(TD).spent == pytest.approx(0.5 + 1 / 3)
    assert res.cuts[0].rule == "4.3"


def test_in_hills_the_pace_is_the_hills_s() -> None:
    """Hills: т.д. 20 km a turn (road 40). After a 45° turn (a quarter turn in hills too, 4.3;
    0.75 left): 15 km, one step of half a turn to 3,3, 0.25 left; by road it would have been
    30 km, to 5,3."""
    new, res = _turn_then(_road(relief="hills"), "северо-восток", "5 т.д. по дороге на 8,3")
    assert new.unit(TD).cell == Cell(3, 3) and new.unit(TD).left == pytest.approx(0.25)
    assert "with 0.75 turn left: stopped at 3,3" in res.cuts[1].reason.en


def test_a_bridge_still_carries_the_division_over_the_river() -> None:
    """A river between columns 3 and 4, the road over it by a bridge: the road's speed is
    dropped, not the bridge: no crossing time (a т.д. fords in 2 turns, table 4). 0.75 left at
    30 km: two steps, over the bridge to 4,3."""
    new, res = _turn_then(
        _road(river="3.5,0.5 3.5,5.5"), "северо-восток", "5 т.д. по дороге на 8,3"
    )
    assert new.unit(TD).cell == Cell(4, 3) and new.unit(TD).busy is None
    assert not any("crossing" in c.reason.en for c in res.cuts)


def test_the_road_s_speed_comes_back_with_the_next_turn() -> None:
    new, _ = _turn_then(_road(), "северо-восток", "5 т.д. по дороге на 8,3")
    new, _ = advance(new, R[2])
    assert not new.unit(TD).road_dropped
    new, res = apply(new, parse_order("5 т.д. по дороге на 12,3", new), R[2])
    assert new.unit(TD).cell == Cell(8, 3) and [c.rule for c in res.cuts] == ["9.3"]  # 40 km


def test_the_reach_by_road_after_the_turn_is_the_road_at_the_ground_s_pace() -> None:
    state, _ = apply(_road(), parse_order("5 т.д. поворот на северо-восток", _road()), R[2])
    r = reach(state, TD, R[2], mode="road")
    assert {c for c in r.cells() if c != Cell(2, 3)} == {Cell(1, 3), Cell(3, 3), Cell(4, 3)}


def test_a_house_rule_takes_the_road_away_altogether() -> None:
    """`road_turn.ground_pace = false`: the other reading, no road for the order; the division
    stays, and the mediator's record says why (4.3)."""
    house = apply_house_text(R[2], "[road_turn]\nground_pace = false\n", "house.toml")
    state = _road()
    state, _ = apply(state, parse_order("5 т.д. поворот на северо-восток", state), house)
    new, res = apply(state, parse_order("5 т.д. по дороге на 8,3", state), house)
    assert new.unit(TD).cell == Cell(2, 3)
    assert res.cuts[0].rule == "4.3" and "no movement by road" in res.cuts[0].reason.en


def test_the_player_is_told_where_the_unit_is_the_mediator_what_was_cut(tmp_path: Path) -> None:
    """9.3: the player's journal has the order and where the division stands; the cut and its
    reason are in the mediator's record only."""
    b = ScenarioBuilder.blank(14, 5, name="Дорога").road("1,3 12,3")
    b = b.state("R", "Красные", "red", lon=(1, 12)).state("B", "Синие", "blue", lon=(13, 14))
    b = b.place("R", "5 т.д. - 2,3 фронтом на восток").place("B", "101 с.д. - 14,1")
    g = Game.new(b.build(), tmp_path / "road.game", level=2)
    red = channel(g, "red")
    red.order("5 т.д. поворот на северо-восток")
    told = red.order("5 т.д. по дороге на 8,3")
    assert told is not None and told.text.ru == "5 т.д. - 4,3 фронтом на восток"
    journal = red.journal_text("ru")
    assert "5 т.д. по дороге на 8,3  →  5 т.д. - 4,3 фронтом на восток" in journal
    assert "4.3" not in journal and "скорости дороги" not in journal
    _, _, _, result = g.results[-1]
    assert [c.rule for c in result.cuts] == ["4.3", "9.3"]
    again = Game.open(tmp_path / "road.game", verify=True)
    assert again.replay_problems == [] and again.state == g.state
