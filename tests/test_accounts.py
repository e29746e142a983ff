"""What each side is told (1.6, 9.3): its own units in full, the enemy by name only, nothing of
the cuts; a neutral is told nothing of others' battles."""

from __future__ import annotations

import json

from strategia.engine.apply import apply
from strategia.engine.state import GameState, initial_state
from strategia.game.accounts import told
from strategia.notation import parse_order
from strategia.rules import load_ruleset
from strategia.theatre.builder import ScenarioBuilder

R2 = load_ruleset(level=2)


def board(red: list[str], blue: list[str], green: list[str] = ()) -> GameState:  # type: ignore[assignment]
    b = (
        ScenarioBuilder.blank(16, 9)
        .state("R", "К", "red", lon=(1, 6))
        .state("B", "С", "blue", lon=(7, 16))
    )
    b = b.state("G", "З", "green", lon=(1, 6), lat=(8, 9))
    if green:
        b = b.place("G", *green)
    return initial_state(b.place("R", *red).place("B", *blue).build(), 2)


def test_each_side_s_account_of_a_battle() -> None:
    st = board(
        ["1 т.д. - 6,3 фронтом на восток"], ["101 с.д. - 7,3 фронтом на запад"], ["201 с.д. - 2,8"]
    )
    _, r = apply(st, parse_order("удар по 7,3: 1 т.д.", st), R2, "red")
    red = told(r, "red")
    blue = told(r, "blue")
    assert red is not None and blue is not None and told(r, "green") is None
    assert red.order == r.order and blue.order is None  # blue did not give the order
    assert red.battle is not None and blue.battle is not None
    mine = {u.unit: u for u in red.battle.units}
    assert mine["1 т.д."].before and mine["1 т.д."].effective > 0
    assert mine["101 с.д."].before == () and mine["101 с.д."].effective == 0.0  # named only
    assert red.battle.defence == 0.0 and red.battle.attack > 0
    theirs = {u.unit: u for u in blue.battle.units}
    assert theirs["101 с.д."].lost > 0 and theirs["1 т.д."].lost == 0.0
    enemy = next(u for u in red.to_json()["battle"]["units"] if u["unit"] == "101 с.д.")
    assert enemy["before"] == enemy["after"] == [] and enemy["rating"] == enemy["lost"] == 0.0
    assert r.battle is not None and r.battle.defence > 0  # the mediator's record is whole


def test_a_strike_tells_the_battery_nothing_of_whom_it_hit() -> None:
    st = board(["51 а.д. - 5,3"], ["101 с.д. - 7,3 фронтом на запад"])
    _, r = apply(st, parse_order("51 а.д. огонь по 7,3", st), R2, "red")
    red, blue = told(r, "red"), told(r, "blue")
    assert red is not None and red.battle is not None and red.battle.units == ()
    assert "101" not in json.dumps(red.to_json(), ensure_ascii=False)
    assert blue is not None and blue.battle is not None
    assert [u.unit for u in blue.battle.units] == ["101 с.д."] and blue.battle.units[0].lost > 0


def test_a_cut_order_is_told_as_carried_out() -> None:
    """9.3: the player is not told the order was cut: only where the unit is."""
    st = board(["5 а.д. - 3,3 фронтом на восток"], ["101 с.д. - 9,3"])
    b = (
        ScenarioBuilder.blank(16, 9)
        .state("R", "К", "red", lon=(1, 6))
        .state("B", "С", "blue", lon=(7, 16))
    )
    st = initial_state(
        b.paint("mountains", lon=(4, 5))
        .place("R", "5 а.д. - 3,3 фронтом на восток")
        .place("B", "101 с.д. - 9,3")
        .build(),
        2,
    )
    _, r = apply(st, parse_order("5 а.д. на 5,3", st), R2, "red")
    assert r.cuts
    t = told(r, "red")
    assert t is not None and t.text == r.outcome and "cut" not in json.dumps(t.to_json())
