"""Concentration on the main effort (5.4), for a style that `concentrate`s: the free divisions of
the main effort that have no enemy to close up to carried on towards its objective (the enemy's
city or capital nearest the main effort's middle, 2.x), and the artillery brought within reach
(9.7a) of the enemy it knows of, before the blow, without standing beside the enemy itself.

Every move is tried on the side's picture by the engine first (`moves.toward`), as the others are.
"""

from __future__ import annotations

from strategia.core.geometry import Cell
from strategia.core.i18n import Text
from strategia.engine.artillery_reach import in_range
from strategia.engine.state import GameState, UnitState
from strategia.notation.orders import March, Turn
from strategia.notation.refs import UnitRef
from strategia.players.decision import Decision, Goal
from strategia.players.fight import able
from strategia.players.ground import Ground
from strategia.players.moves import move_decision, toward
from strategia.players.picture import Picture
from strategia.players.plan import ATTACKING, Plan, Sector
from strategia.players.styles import Style
from strategia.players.whatif import Tried, attempt
from strategia.rules import RuleSet
from strategia.rules.kinds import DivisionKind

GUN_SEARCH = 12  # cells within which a battery looks first for an enemy to come within reach of


def objective(ground: Ground, sector: Sector) -> Cell | None:
    """The main effort's objective: of the enemy's cities and capitals, the one nearest the
    sector's middle along the front and then the border (a capital before a city)."""
    if not ground.objectives:
        return None
    middle = (sector.lo + sector.hi) / 2
    return min(
        ground.objectives,
        key=lambda o: (
            abs(ground.along(o[0]) - middle) / 2 + int(ground.to_own[o[0].lon - 1, o[0].lat - 1]),
            -o[1],
            o[0].lon,
            o[0].lat,
        ),
    )[0]


def concentrate(
    state: GameState,
    picture: Picture,
    plan: Plan,
    ground: Ground,
    rules: RuleSet,
    style: Style,
    side: str,
    done: set[UnitRef],
) -> tuple[GameState, list[Decision]]:
    """The guns brought within reach, then the main effort's free divisions carried towards its
    objective (see the module)."""
    out: list[Decision] = []
    if not style.concentrate or not plan.fights or plan.main is None:
        return state, out
    state, guns = _guns(state, picture, ground, rules, side, done)
    out += guns
    goal = objective(ground, plan.main)
    if goal is None:
        return state, out
    near = picture.near_enemy
    for u in _free(state, side, done):
        if u.division.kind not in ATTACKING or u.division.strength < 0.5:
            continue
        if any(c in near for c in u.cells) or not _in_main(plan.main, ground, u):
            continue
        t = toward(state, u, goal, picture, ground, rules, side, contact=True, fights=True,
                   style=style)  # fmt: skip
        if t is None:
            continue
        state = t.state
        done.add(u.ref)
        why = Text(
            f"towards the objective of the main effort, {goal}",
            f"к цели главного удара, {goal}",
        )
        out.append(move_decision(Goal.ATTACK, t, why, "5.4"))
    return state, out


def _in_main(sector: Sector, ground: Ground, u: UnitState) -> bool:
    return sector.lo - 2 <= ground.along(u.cell) <= sector.hi + 2


def _free(state: GameState, side: str, done: set[UnitRef]) -> list[UnitState]:
    return sorted(
        (
            u
            for u in state.units.values()
            if state.side_of(u.ref) == side and able(u) and u.ref not in done
        ),
        key=lambda u: u.ref.number,
    )


def _guns(
    state: GameState,
    picture: Picture,
    ground: Ground,
    rules: RuleSet,
    side: str,
    done: set[UnitRef],
) -> tuple[GameState, list[Decision]]:
    """Each free battery with no enemy in reach that it could fire on (none in contact with the
    side's own troops, 9.7b) moved towards the nearest enemy known (within `GUN_SEARCH` cells
    first), never onto or beside an enemy (`toward`: it keeps out of contact); marched by road
    (4.8) where it is too slow off the roads."""
    out: list[Decision] = []
    if not picture.enemies:
        return state, out
    for gun in _free(state, side, done):
        if gun.division.kind is not DivisionKind.ARTILLERY:
            continue
        mine = {
            Cell(c.lon + dx, c.lat + dy)
            for u in state.units.values()
            if state.side_of(u.ref) == side and u.ref != gun.ref
            for c in u.cells
            for dx in (-1, 0, 1)
            for dy in (-1, 0, 1)
        }
        cells = sorted(
            {k.cell for k in picture.enemies},
            key=lambda c: (c.chebyshev(gun.cell), c.lon, c.lat),
        )
        if any(c not in mine and in_range(gun.cell, c, rules) for c in cells):
            continue  # it has a target it may fire on next move (or chose not to now)
        far = [c for c in cells if c.chebyshev(gun.cell) <= GUN_SEARCH] or cells
        t = toward(state, gun, far[0], picture, ground, rules, side, fights=True)
        rule = "9.7a"
        if (t is None or isinstance(t.order, Turn)) and state.level >= 2:
            t, rule = _march(state, gun, far[0], picture, ground, rules, side) or t, "4.8"
        if t is None:
            continue
        state = t.state
        done.add(gun.ref)
        why = Text(
            f"within reach of the enemy at {far[0]}, to fire before the blow",
            f"на дальность огня по противнику в {far[0]}, для огня перед ударом",
        )
        out.append(move_decision(Goal.REINFORCE, t, why, rule))
    return state, out


def _march(
    state: GameState,
    gun: UnitState,
    target: Cell,
    picture: Picture,
    ground: Ground,
    rules: RuleSet,
    side: str,
) -> Tried | None:
    """A battery too slow off the roads (table 4) marched (4.8) to a road of the ground the side
    sees, out of contact, nearer `target`: within reach of it if it can, else as near as it can."""
    near, roads = picture.near_enemy, state.grid.road
    cells = [
        Cell(target.lon + dx, target.lat + dy)
        for dx in range(-6, 7)
        for dy in range(-6, 7)
        if max(abs(dx), abs(dy)) >= 2
    ]
    cells = [
        c
        for c in cells
        if ground.on_map(c)
        and roads[c.lon - 1, c.lat - 1]
        and c not in near
        and ground.at(picture.visible, c)
        and not state.occupants(c)
        and c.km(gun.cell) < target.km(gun.cell)
    ]
    key = lambda c: (not in_range(c, target, rules), c.km(target), c.lon, c.lat)  # noqa: E731
    for c in sorted(cells, key=key)[:3]:
        t = attempt(state, March(gun.ref, c), rules, side)
        if t.clean:
            return t
    return None


__all__ = ["concentrate", "objective"]
