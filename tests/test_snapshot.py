"""A state to JSON and back gives the very state (the snapshots of the game store, issue 17)."""

from __future__ import annotations

import json
from pathlib import Path
from types import MappingProxyType

from game_script import script_turn
from hypothesis import given, settings
from hypothesis import strategies as st

from strategia.core.geometry import Cell, Direction
from strategia.engine.snapshot import state_from_json, state_to_json
from strategia.engine.state import Busy, Closure, GameState, Interdiction, UnitState
from strategia.game.game import Game
from strategia.notation.orders import Statute
from strategia.notation.refs import UnitRef
from strategia.rules.kinds import CorpsKind, DivisionKind, Formation, RegimentKind, RegimentsFacing
from strategia.rules.units import Division, Regiment
from strategia.theatre.scenario_io import load_scenario

ROOT = Path(__file__).parents[1]
SCENARIO = load_scenario(ROOT / "maps" / "continental.toml")

cells = st.builds(Cell, st.integers(-5, 400), st.integers(-5, 400), st.sampled_from([",", "-"]))
strengths = st.floats(0.0, 1.0, allow_nan=False)
regiments = st.builds(Regiment, st.sampled_from(list(RegimentKind)), strengths)
divisions = st.builds(
    Division,
    st.integers(1, 999),
    st.sampled_from(list(DivisionKind)),
    st.lists(regiments, max_size=4).map(tuple),
    st.lists(regiments, max_size=2).map(tuple),
    st.integers(0, 8),  # the whole division's regiments (4.11: a division short of some)
)
refs = st.builds(UnitRef, st.integers(1, 999), st.sampled_from(list(DivisionKind)))
corps = st.builds(UnitRef, st.integers(1, 99), st.sampled_from(list(CorpsKind)))
plan_items = st.recursive(
    st.one_of(
        st.text(max_size=8),
        st.integers(-(2**40), 2**40),
        st.floats(allow_nan=False),
        st.booleans(),
        cells,
    ),
    lambda inner: st.lists(inner, max_size=3).map(tuple),
    max_leaves=6,
)
busies = st.builds(
    Busy,
    st.sampled_from(["crossing", "turning", "march", "transfer", "regrouping", "recovering"]),
    st.floats(0, 20, allow_nan=False),
    st.lists(cells, max_size=3).map(tuple),
    st.none() | st.sampled_from(list(Direction)),
    st.lists(plan_items, max_size=5).map(tuple),
    st.lists(plan_items, max_size=3).map(tuple),  # the work that follows (4.11)
)
units = st.builds(
    UnitState,
    ref=refs,
    owner=st.sampled_from(["R", "B", "G", "H"]),
    division=divisions,
    cells=st.lists(cells, min_size=1, max_size=2).map(tuple),
    facing=st.sampled_from(list(Direction)),
    formation=st.sampled_from(list(Formation)),
    regiments=st.sampled_from(list(RegimentsFacing)),
    corps=st.none() | corps,
    spent=st.floats(0, 1, allow_nan=False),
    road_dropped=st.booleans(),
    busy=st.none() | busies,
    on_march=st.booleans(),
    combat_capable=st.booleans(),
)
statutes = st.builds(  # a side's movement statute (5.9)
    lambda side, unit, formation, echelons, rest, gap: (
        side,
        Statute(unit, formation, echelons, min(rest, len(echelons)), gap),
    ),
    st.sampled_from(["red", "blue"]),
    refs | corps,
    st.none() | st.sampled_from(list(Formation)),
    st.lists(
        st.lists(refs | st.just(UnitRef.parse("2 с.п. 17 с.д.")), max_size=3).map(tuple),
        max_size=3,
    ).map(tuple),
    st.integers(0, 3),
    st.none() | st.integers(1, 100),
)
states = st.builds(
    lambda us, cl, fire, turn, war, wars, engaged, committed, laws: GameState(
        scenario=SCENARIO,
        level=2,
        turn=turn,
        units=MappingProxyType({u.ref: u for u in us}),
        closures=tuple(cl),
        at_war=war,
        wars=frozenset(wars),
        interdictions=tuple(fire),
        engaged=frozenset(engaged),
        committed=frozenset(committed),
        statutes=tuple(laws),
    ),
    st.lists(units, max_size=6),
    st.lists(
        st.builds(Closure, cells, st.sampled_from(["road-movement", "bridge"]), st.integers(1, 50)),
        max_size=3,
    ),
    st.lists(
        st.builds(
            Interdiction,
            cells,
            st.sampled_from(["red", "blue"]),
            strengths,
            st.integers(1, 50),
            refs,
        ),
        max_size=3,
    ),
    st.integers(1, 60),
    st.booleans(),
    st.lists(st.sampled_from([("B", "R"), ("G", "R"), ("B", "H")]), max_size=3),
    st.lists(refs, max_size=3),
    st.lists(refs | st.just(UnitRef.parse("2 с.п. 17 с.д.")), max_size=3),
    st.lists(statutes, max_size=3),
)


@settings(max_examples=200, deadline=None)
@given(states)
def test_a_state_to_json_and_back_is_the_very_state(state: GameState) -> None:
    text = json.dumps(state_to_json(state))
    back = state_from_json(json.loads(text), SCENARIO)
    assert back == state
    assert list(back.units) == list(state.units)  # the units keep their order
    for a, b in zip(back.units.values(), state.units.values(), strict=True):
        assert [c.sep for c in a.cells] == [c.sep for c in b.cells]
    assert json.dumps(state_to_json(back)) == text


def test_the_states_of_a_scripted_game_round_trip(tmp_path: Path) -> None:
    g = Game.new(SCENARIO, tmp_path / "g.game", level=2)
    g.order("21 т.д. марш на 40,28")
    busy = 0
    while g.state.turn <= 3:
        script_turn(g)
        back = state_from_json(json.loads(json.dumps(state_to_json(g.state))), g.scenario)
        assert back == g.state
        busy += sum(u.busy is not None for u in g.state.units.values())
    assert busy > 0
