"""Random theatres and scenarios: deterministic, valid, plausible, connected and quick."""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
import xarray as xr
from scipy import ndimage
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components

from strategia.core.errors import StrategiaError
from strategia.engine.state import initial_state
from strategia.engine.unit_reach import reach_all
from strategia.rules import RuleSet
from strategia.rules.kinds import DivisionKind
from strategia.theatre import terrain
from strategia.theatre.generate import numbering_stride, random_scenario
from strategia.theatre.generate_terrain import DEFAULT_SHARES, DEFAULT_SIZE, random_theatre
from strategia.theatre.scenario import Scenario, check_scenario
from strategia.theatre.scenario_io import load_scenario, save_scenario
from strategia.theatre.terrain import DELTAS, Relief


@pytest.fixture(scope="module")
def default_size() -> Scenario:
    return random_scenario(*DEFAULT_SIZE, seed=3, divisions_per_side=30, states=4)


def road_components(ds: xr.Dataset) -> tuple[int, np.ndarray]:
    """Connected components of the road graph: (count, label per cell; -1 off the roads)."""
    w, h = terrain.size(ds)
    steps = terrain.route_steps(ds, "road")
    flat = np.arange(w * h).reshape(w, h)
    rows, cols = [], []
    for k, (dx, dy) in enumerate(DELTAS.tolist()):
        rows.append(flat[steps[k]])
        cols.append(terrain.shifted(flat, dx, dy, -1)[steps[k]])
    r, c = np.concatenate(rows), np.concatenate(cols)
    graph = csr_matrix((np.ones(len(r)), (r, c)), shape=(w * h, w * h))
    _, labels = connected_components(graph, directed=False)
    on_road = (ds["road"].values > 0).ravel()
    used = np.unique(labels[on_road])
    return len(used), np.where(on_road, labels, -1).reshape(w, h)


# --- the theatre --------------------------------------------------------------------------------


@pytest.mark.parametrize(("w", "h", "states"), [(64, 44, 2), (40, 30, 4), (20, 12, 2), (90, 50, 3)])
def test_theatre_is_valid_and_deterministic(w: int, h: int, states: int) -> None:
    ds = random_theatre(w, h, seed=11, states=states)
    assert terrain.check(ds) == []
    assert terrain.size(ds) == (w, h)
    assert [s.side for s in terrain.states(ds)] == ["red", "blue"] + ["green"] * (states - 2)
    assert ds.identical(random_theatre(w, h, seed=11, states=states))
    assert not ds.identical(random_theatre(w, h, seed=12, states=states))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_shares_are_roughly_respected(seed: int) -> None:
    shares = {"mountains": 0.08, "forest": 0.25, "swamp": 0.03, "hills": 0.12, "water": 0.05}
    ds = random_theatre(100, 80, seed=seed, shares=shares)
    counts = np.bincount(ds["relief"].values.ravel(), minlength=len(Relief)) / ds["relief"].size
    for kind, share in shares.items():
        assert counts[Relief[kind.upper()]] == pytest.approx(share, abs=0.01), kind
    plain = 1 - sum(shares.values())
    assert counts[Relief.PLAIN] == pytest.approx(plain, abs=0.01)


def test_default_shares_and_missing_kinds() -> None:
    ds = random_theatre(60, 40, seed=5, shares={"swamp": 0.0, "water": 0.0})
    relief = ds["relief"].values
    assert not (relief == Relief.SWAMP).any() and not (relief == Relief.WATER).any()
    assert (relief == Relief.FOREST).mean() == pytest.approx(DEFAULT_SHARES["forest"], abs=0.01)


def test_relief_comes_in_patches_not_noise() -> None:
    relief = random_theatre(100, 80, seed=4)["relief"].values
    for kind in (Relief.FOREST, Relief.HILLS, Relief.SWAMP, Relief.MOUNTAINS):
        mask = relief == kind
        _, n = ndimage.label(mask)
        assert n < mask.sum() / 6, kind  # pieces average more than six cells


def test_bad_knobs_are_refused() -> None:
    with pytest.raises(ValueError, match="shares"):
        random_theatre(30, 30, seed=1, shares={"lava": 0.1})
    with pytest.raises(ValueError, match="shares"):
        random_theatre(30, 30, seed=1, shares={"forest": 0.9, "hills": 0.3})
    with pytest.raises(ValueError, match="states"):
        random_theatre(30, 30, seed=1, states=1)
    with pytest.raises(ValueError, match="size"):
        random_theatre(5, 30, seed=1)


@pytest.mark.parametrize(("seed", "states"), [(1, 2), (2, 3), (3, 4), (4, 2), (5, 5)])
def test_each_state_is_one_piece_with_its_capital(seed: int, states: int) -> None:
    ds = random_theatre(80, 60, seed=seed, states=states)
    st, relief, settlement = ds["state"].values, ds["relief"].values, ds["settlement"].values
    land = relief != Relief.WATER
    assert (st[land] > 0).all() and (st[~land] == 0).all()
    for s in range(1, states + 1):
        _, n = ndimage.label((st == s) & land)
        assert n == 1, f"state {s} in {n} pieces"
        capitals = np.argwhere((st == s) & (settlement == 2))
        assert len(capitals) == 1


@pytest.mark.parametrize(("seed", "states"), [(1, 2), (2, 3), (3, 4), (7, 2)])
def test_roads_join_every_city_and_cross_rivers_on_bridges(seed: int, states: int) -> None:
    ds = random_theatre(80, 60, seed=seed, states=states)
    n, labels = road_components(ds)
    cities = ds["settlement"].values > 0
    assert cities.sum() >= 2 * states
    assert len(set(labels[cities].tolist())) == 1 and -1 not in labels[cities]
    assert n == 1  # no stray road pieces either
    assert terrain.bridges(ds).any()
    assert (ds["river_e"].values.any() or ds["river_n"].values.any()) and terrain.narrows(ds).any()


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_transport_nodes_railways_trails_fortresses(seed: int) -> None:
    ds = random_theatre(*DEFAULT_SIZE, seed=seed)
    assert terrain.transport_nodes(ds).any()
    assert terrain.transport_nodes(ds, route="rail").any()
    assert (ds["rail"].values > 0).sum() > 10
    rail_cities = (ds["rail"].values > 0) & (ds["settlement"].values > 0)
    assert rail_cities.sum() >= 3  # both capitals and some main cities
    trail_relief = set(np.unique(ds["relief"].values[ds["trail"].values > 0]).tolist())
    assert trail_relief & {Relief.MOUNTAINS, Relief.FOREST, Relief.SWAMP}
    forts = np.argwhere(ds["fortress"].values)
    st = ds["state"].values
    assert {int(st[i, j]) for i, j in forts} == {1, 2}
    enemy_dist = {
        s: ndimage.distance_transform_edt(st != 3 - s) for s in (1, 2)
    }  # fortresses stand near the border
    assert all(enemy_dist[int(st[i, j])][i, j] <= 4 for i, j in forts)
    places = {p[0] for p in terrain.places(ds)}
    assert len(places) == len(terrain.places(ds))  # names are unique


def test_rivers_run_to_an_edge_or_to_water() -> None:
    ds = random_theatre(60, 40, seed=8, rivers=6)
    e, n = ds["river_e"].values, ds["river_n"].values
    assert e.sum() + n.sum() >= 6 * 13  # each at least a third of the map long
    assert not e[-1].any() and not n[:, -1].any()  # nothing along the map's own edges


# --- the scenario -------------------------------------------------------------------------------


def test_scenario_is_valid_and_deterministic(default_size: Scenario) -> None:
    assert check_scenario(default_size) == []
    again = random_scenario(*DEFAULT_SIZE, seed=3, divisions_per_side=30, states=4)
    assert again.theatre.identical(default_size.theatre)
    assert again.forces == default_size.forces


@pytest.mark.parametrize(("w", "h", "n"), [(64, 44, 30), (40, 30, 12), (120, 80, 100)])
def test_units_counts_kinds_and_numbers(w: int, h: int, n: int) -> None:
    sc = random_scenario(w, h, seed=9, divisions_per_side=n, states=3)
    st = sc.theatre["state"].values
    relief = sc.theatre["relief"].values
    by_state = {f.state: f.deployed_divisions() for f in sc.forces}
    assert len(by_state["R"]) == len(by_state["B"]) == n
    assert len(by_state["G"]) == max(1, n // 10)
    numbers = [r.number for refs in by_state.values() for r in refs]
    assert len(numbers) == len(set(numbers))
    assert min(r.number for r in by_state["R"]) == 1
    assert min(r.number for r in by_state["B"]) == 10001
    kinds = Counter(r.kind for r in by_state["R"])
    assert kinds[DivisionKind.RIFLE] > n / 2
    assert kinds[DivisionKind.TANK] >= 1 and kinds[DivisionKind.MOTORISED] >= 1
    if n >= 30:
        assert {DivisionKind.ARTILLERY, DivisionKind.ANTI_TANK, DivisionKind.SP_GUN} <= set(kinds)
        assert any(len(c.divisions) > 1 for c in sc.forces_of("R").corps)
    state = initial_state(sc)
    assert len(state.units) == sum(len(v) for v in by_state.values())
    cells = [c for u in state.units.values() for c in u.cells]
    assert len(cells) == len(set(cells))  # one division a cell
    codes = {s.code: k for k, s in enumerate(sc.states, start=1)}
    for u in state.units.values():
        i, j = terrain.index(sc.theatre, u.cell)
        assert st[i, j] == codes[u.owner]  # within its own state
        assert relief[i, j] in (Relief.PLAIN, Relief.FOREST, Relief.HILLS)
    assert {u.facing.key for u in state.units.values() if u.owner == "R"} == {"W"}
    assert {u.facing.key for u in state.units.values() if u.owner == "B"} == {"E"}


@pytest.mark.parametrize(
    ("n", "states", "stride"), [(30, 3, 10_000), (9_999, 2, 10_000), (10_000, 2, 100_000),
                                (99_999, 3, 100_000), (10_000, 10, 100_000)],
)  # fmt: skip
def test_numbers_fit_six_digits(n: int, states: int, stride: int) -> None:
    """The last state's last division is (states - 1) x stride + n: 10,000 a side of two
    states are numbered 1-10,000 and 100,001-110,000 (the first version refused them)."""
    assert numbering_stride(n, states) == stride
    assert (states - 1) * stride + n <= 999_999


@pytest.mark.parametrize(("n", "states"), [(100_000, 2), (10_000, 11)])
def test_too_many_divisions_to_number(n: int, states: int) -> None:
    with pytest.raises(StrategiaError, match="too many"):
        numbering_stride(n, states)


def test_first_echelon_stands_nearer_the_border() -> None:
    sc = random_scenario(120, 80, seed=2, divisions_per_side=100)
    st = sc.theatre["state"].values
    dist = ndimage.distance_transform_edt(st != 2)
    state = initial_state(sc)
    depth = {
        u.ref: float(dist[terrain.index(sc.theatre, u.cell)])
        for u in state.units.values()
        if u.owner == "R"
    }
    rifle_corps = [
        d
        for u, d in depth.items()
        if state.unit(u).corps is not None and u.kind == DivisionKind.RIFLE
    ]
    tanks = [d for u, d in depth.items() if u.kind == DivisionKind.TANK]
    assert min(depth.values()) >= 2  # nobody next to the enemy
    assert np.median(rifle_corps) < np.median(tanks)


def test_scenario_survives_the_text_format(default_size: Scenario, tmp_path: Path) -> None:
    again = load_scenario(save_scenario(default_size, tmp_path / "random.toml"))
    for layer in terrain.LAYERS:
        assert (again.theatre[layer].values == default_size.theatre[layer].values).all(), layer
    assert again.forces == default_size.forces


def test_no_room_is_an_error() -> None:
    with pytest.raises(ValueError, match="no room"):
        random_scenario(12, 10, seed=1, divisions_per_side=200)


def test_a_120_by_80_scenario_is_quick() -> None:
    t = time.perf_counter()
    sc = random_scenario(120, 80, seed=6, divisions_per_side=150, states=3)
    assert time.perf_counter() - t < 5.0
    assert check_scenario(sc) == []


def test_default_size_loads_and_units_can_move(default_size: Scenario, rules2: RuleSet) -> None:
    state = initial_state(default_size, 2)
    reaches = reach_all(state, rules2)
    assert set(reaches) == set(state.units)
    movable = sum(len(r.cells()) > 1 for r in reaches.values())
    assert movable > 0.8 * len(reaches)
