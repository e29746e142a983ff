"""A unit's reach this turn (4.2-4.4): the step costs of its type, the search its move makes
(the directions it may step in, the sector it may end in, what it has left of the turn) and the
cells it can reach, with the cheapest path to each. `movement` moves the units along them.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from strategia.core.geometry import Cell, Direction
from strategia.engine.costs import INF, StepCosts, roads_at_ground_pace, speeds, step_costs
from strategia.engine.reach import Reach, ReachRequest, radius, reach_many
from strategia.engine.result import OrderError
from strategia.engine.state import GameState, UnitState
from strategia.explain.trace import quiet
from strategia.notation.refs import UnitRef
from strategia.rules import RuleSet
from strategia.rules.kinds import DivisionKind

MODES = ("forward", "road", "withdraw")
FASTEST_KM = 50.0  # the fastest pace in table 4 (м.д. on roads), for the search window


def _closed_roads(state: GameState) -> frozenset[Cell]:
    return frozenset(
        c.cell
        for c in state.closures
        if c.what in ("road-movement", "bridge") and c.until_turn >= state.turn
    )


def unit_costs(state: GameState, u: UnitState, rules: RuleSet, mode: str = "forward") -> StepCosts:
    """The step costs for this unit's type: roads unless it turned on one this move (4.3; then
    an order by road keeps to the road at the ground's pace, `road_turn`).

    The table cells are looked up quietly here; each step's explanation records the ones it used.
    """
    with quiet():
        sp = speeds(u.division.kind, rules)
        ground_pace = mode == "road" and u.road_dropped and rules.value("road_turn", "ground_pace")
    if ground_pace:
        return roads_at_ground_pace(state.theatre, sp, state.level, _closed_roads(state))
    costs = step_costs(
        state.theatre, sp, state.level, _closed_roads(state), use_roads=not u.road_dropped
    )
    if mode != "road":
        return costs
    return _road_only(costs)


_ROAD_ONLY: dict[int, tuple[StepCosts, StepCosts]] = {}


def _road_only(costs: StepCosts) -> StepCosts:
    """`costs` with every step off the roads closed (an order by road, 4.1); kept per costs,
    so that searches share it (and its padded copy, `reach`)."""
    hit = _ROAD_ONLY.get(id(costs))
    if hit is not None and hit[0] is costs:
        return hit[1]
    if len(_ROAD_ONLY) > 64:
        _ROAD_ONLY.clear()
    road = StepCosts(
        costs.speeds, np.where(costs.how == 1, costs.cost, INF), costs.how, costs.river,
        costs.crosses,
    )  # fmt: skip
    _ROAD_ONLY[id(costs)] = (costs, road)
    return road


def _request(
    state: GameState, u: UnitState, rules: RuleSet, mode: str, budget: float | None = None
) -> ReachRequest:
    """The search for `u`'s move in `mode` on what it has left of the turn (or `budget`)."""
    return _requests(state, [u], rules, mode, budget)[0]


def _requests(
    state: GameState,
    units: list[UnitState],
    rules: RuleSet,
    mode: str,
    budget: float | None = None,
) -> list[ReachRequest]:
    """`_request` of each of `units` (the step costs looked up once a kind)."""
    if mode not in MODES:
        raise OrderError(
            f"unknown movement mode {mode!r}: {', '.join(MODES)}",
            ru=f"нет такого способа движения: {mode!r} (можно: {', '.join(MODES)})",
        )
    factor = 1.0
    with quiet():
        max_dev = float(rules.value("movement_limits", "max_deviation"))
        if mode == "withdraw":
            key = (
                "speed_factor_level3"
                if rules.active("withdrawal", "speed_factor_level3")
                else "speed_factor"
            )
            factor = 1.0 / float(rules.value("withdrawal", key))
    kinds: dict[tuple[DivisionKind, bool], StepCosts] = {}
    out = []
    for u in units:
        kind = (u.division.kind, u.road_dropped)
        costs = kinds.get(kind)
        if costs is None:
            costs = kinds[kind] = unit_costs(state, u, rules, mode)
        dirs, ahead = _steps(u.facing, mode)
        sector = None if ahead is None else (ahead, max_dev)
        left = (0.0 if u.busy is not None else u.left) if budget is None else budget
        out.append(ReachRequest(u.cell, costs, dirs, left, sector, factor))
    return out


@lru_cache(maxsize=32)
def _steps(facing: Direction, mode: str) -> tuple[tuple[int, ...], Direction | None]:
    """The directions a move in `mode` may step in, and the way its sector faces (4.2: ahead,
    and half-left and half-right of it; back so for a withdrawal, 4.4; None: any way, by road)."""
    if mode == "road":
        return tuple(range(8)), None
    ahead = facing if mode == "forward" else facing.turned(4)
    return tuple(ahead.turned(t).index for t in (-1, 0, 1)), ahead


def _blocked(state: GameState) -> np.ndarray:
    """Cells another counter stands on (nonzero): the search may not enter them."""
    return state.occupied


def reach(state: GameState, ref: UnitRef, rules: RuleSet, mode: str = "forward") -> Reach:
    """Where a unit can move this turn, with the cheapest path to each cell (4.2-4.4)."""
    u = state.unit(ref)
    req = _request(state, u, rules, mode)
    return reach_many(
        [req], _blocked(state), radius(max(req.budget, 0.01) * req.cost_factor, FASTEST_KM)
    )[0]


def prepare(state: GameState, rules: RuleSet) -> int:
    """Make ahead what moving the units will search on (each kind's step costs on this theatre
    and the searches' padded copy of them, both kept), so that the first orders and the first
    End turn of a session cost what later ones do; the number of kinds prepared. Changes
    nothing."""
    first: dict[tuple[str, bool], UnitRef] = {}
    for u in state.units.values():
        first.setdefault((u.division.kind.key, u.road_dropped), u.ref)
    reach_all(state, rules, list(first.values()))
    return len(first)


def reach_all(
    state: GameState, rules: RuleSet, refs: list[UnitRef] | None = None, mode: str = "forward"
) -> dict[UnitRef, Reach]:
    """Every unit's reachable area this turn, in one search."""
    refs = list(state.units) if refs is None else refs
    reqs = _requests(state, [state.unit(r) for r in refs], rules, mode)
    reaches = reach_many(reqs, _blocked(state), radius(1.0, FASTEST_KM))
    return dict(zip(refs, reaches, strict=True))
