"""Movement: deployment (5.8, 6.1), reserves brought to the front (4.5, 4.8), the main effort
reinforced and its divisions brought up to the enemy, and divisions turned to face it (4.3).

Every move is tried on the side's picture by the engine first (`whatif.attempt`) and given only
if the engine carries it out whole: no order the engine would cut (9.3). A move keeps to
ground the side sees (its own, the open sectors, the cells beside its troops), so that no
enemy it does not know of stands in its way; before the war it never leaves the side's own
ground (9.1: crossing a border begins a war).

- Covering forces (5.8): the border held at not less than 1/3 division per 10 km: a post
  every three cells of the border, each taken by the nearest free division.
- Reserves (6.4): a division farther than `RESERVE_DEPTH` cells from the enemy's ground is
  carried towards its sector by rail from a city (4.5, `переброска`), on the march by road at
  level 2 (4.8, the roads free of the enemy), else moved.
- The main effort: its divisions not yet beside the enemy move up to the nearest enemy known
  in the sector; the reserve's mobile divisions join it.
- A division that stays, with an enemy near it off its front by more than 45°, turns to it.
"""

from __future__ import annotations

import numpy as np
from scipy import ndimage

from strategia.core.geometry import Cell, Direction
from strategia.core.i18n import Text
from strategia.engine.state import GameState, UnitState
from strategia.engine.unit_reach import reach
from strategia.notation.orders import March, Move, Transfer, Turn
from strategia.notation.refs import UnitRef
from strategia.players.decision import Decision, Goal
from strategia.players.fight import able, assign
from strategia.players.ground import Ground
from strategia.players.move_words import move_decision
from strategia.players.picture import Known, Picture
from strategia.players.plan import ATTACKING, MOBILE, Plan, Sector
from strategia.players.styles import Style
from strategia.players.whatif import Tried, attempt, rating
from strategia.players.withdraw import danger
from strategia.rules import RuleSet
from strategia.rules.kinds import DivisionKind

RESERVE_DEPTH = 8  # cells from the enemy's ground beyond which a division is in reserve
POST_EVERY = 3  # 5.8: 1/3 division per 10 km, a division for every three cells
NEAR = 6  # cells within which a free division takes a post or moves up to the enemy
NEAR_HOME = 10  # ... moves up to an enemy on the side's own ground
FOCUS_REACH = 8  # cells within which a free division of the main effort gathers for its blow
WEAK = 0.5  # a division with less of its strength left is not brought up to the enemy


def movements(
    state: GameState,
    picture: Picture,
    plan: Plan,
    ground: Ground,
    rules: RuleSet,
    style: Style,
    side: str,
    busy: set[UnitRef],
) -> tuple[GameState, list[Decision]]:
    """Each free division's move, tried on `state` one after another."""
    out: list[Decision] = []
    done = set(busy)
    free = _free(state, side, done)
    reserve = _reserve(free, style, ground)
    for u in sorted(free, key=lambda u: (ground.depth(u.cell) <= RESERVE_DEPTH, u.ref.number)):
        if ground.depth(u.cell) > RESERVE_DEPTH or (u.ref in reserve and plan.main is not None):
            got = _to_front(state, u, picture, plan, ground, rules, side, u.ref in reserve)
            if got is not None:
                state = got[0].state
                out.append(got[1])
                done.add(u.ref)
    state, posts = _cover(state, picture, plan, ground, rules, side, done)
    out += posts
    state, more = _close_up(state, picture, plan, ground, rules, style, side, done)
    out += more
    state, turned = _face(state, picture, ground, rules, side, done)
    return state, out + turned


def _free(state: GameState, side: str, done: set[UnitRef]) -> list[UnitState]:
    return [
        u
        for u in state.units.values()
        if state.side_of(u.ref) == side
        and able(u)
        and u.ref not in done
        and u.division.kind is not DivisionKind.FORTRESS
    ]


def _reserve(free: list[UnitState], style: Style, ground: Ground) -> set[UnitRef]:
    """The mobile divisions held back: the style's share of them, the deepest first."""
    mobile = sorted(
        (u for u in free if u.division.kind in MOBILE),
        key=lambda u: (-ground.depth(u.cell), u.ref.number),
    )
    return {u.ref for u in mobile[: round(len(mobile) * style.reserve_share)]}


def _target_sector(plan: Plan, u: UnitState, ground: Ground) -> Sector | None:
    """Where a reserve goes: the main effort, else the sector with the worst balance."""
    if plan.main is not None:
        return plan.main
    if not plan.sectors:
        return None
    return min(
        plan.sectors, key=lambda s: (s.balance, abs((s.lo + s.hi) / 2 - ground.along(u.cell)))
    )


def _to_front(
    state: GameState,
    u: UnitState,
    picture: Picture,
    plan: Plan,
    ground: Ground,
    rules: RuleSet,
    side: str,
    reserve: bool,
) -> tuple[Tried, Decision] | None:
    """A reserve division carried towards its sector (4.5 by rail, 4.8 on the march, 4.2)."""
    sector = _target_sector(plan, u, ground)
    if sector is None:
        return None
    middle = (sector.lo + sector.hi) / 2
    goal = _rear_cell(ground, sector, middle, u.cell)
    if goal is None:
        return None
    goal_text = Text(f"towards {sector.label().en}", f"к {sector.label('dat').ru}")
    why = Goal.REINFORCE if reserve or plan.main is sector else Goal.DEPLOY
    if u.cell in ground.cities:
        cities = sorted(
            (
                c
                for c in ground.cities
                if c != u.cell
                and 2 <= ground.depth(c) <= RESERVE_DEPTH
                and sector.lo - 2 <= ground.along(c) <= sector.hi + 2
            ),
            key=lambda c: (abs(ground.along(c) - middle), ground.depth(c), c.lon, c.lat),
        )
        for c in cities[:3]:
            t = attempt(state, Transfer(u.ref, c), rules, side)
            if t.clean and not _crossed(t, picture):
                return t, move_decision(why, t, goal_text, "4.5")
    if state.level >= 2 and ground.depth(u.cell) > RESERVE_DEPTH:
        for to in dict.fromkeys((goal, *_roads_near(state, ground, goal))):
            t = attempt(state, March(u.ref, to), rules, side)
            if t.clean and not _crossed(t, picture):
                return t, move_decision(why, t, goal_text, "4.8")
    station = _station(ground, u)
    if station is not None and ground.depth(u.cell) > RESERVE_DEPTH:
        goal = station  # to a city near it first, to go on by rail (4.5)
    t2 = toward(state, u, goal, picture, ground, rules, side)
    if t2 is not None:
        return t2, move_decision(why, t2, goal_text, "4.2")
    return None


def _roads_near(state: GameState, ground: Ground, goal: Cell, n: int = 2) -> list[Cell]:
    """The `n` road cells of the side's own ground nearest `goal` (a march goes by road)."""
    ii, jj = np.nonzero(state.grid.road & ground.own)
    if not len(ii):
        return []
    far = np.maximum(np.abs(ii + 1 - goal.lon), np.abs(jj + 1 - goal.lat))
    return [Cell(int(ii[k]) + 1, int(jj[k]) + 1) for k in np.lexsort((jj, ii, far))[:n]]


def _station(ground: Ground, u: UnitState) -> Cell | None:
    """A city of the side's own within two cells of a reserve, nearer the enemy, to entrain."""
    near = [c for c in ground.cities if c.chebyshev(u.cell) <= 2 and c != u.cell
            and ground.depth(c) < ground.depth(u.cell)]  # fmt: skip
    return min(near, key=lambda c: (c.chebyshev(u.cell), c.lon, c.lat)) if near else None


def _rear_cell(ground: Ground, sector: Sector, middle: float, start: Cell) -> Cell | None:
    """A cell of the side's own ground 3-4 cells behind the border, in the sector: of the land
    within 4 cells of the sector's border cells, the nearest to `start` (so that reserves from
    different places go to different cells), then the nearest the middle along the front, the
    shallower, by longitude and latitude."""
    w, h = ground.size
    near = np.zeros((w, h), dtype=bool)
    for c in ground.border:
        if abs(ground.along(c) - middle) <= (sector.hi - sector.lo) / 2 + 1:
            near[max(0, c.lon - 5) : c.lon + 4, max(0, c.lat - 5) : c.lat + 4] = True
    depth = ground.to_enemy
    ii, jj = np.nonzero(near & ground.own & ground.land & ((depth == 3) | (depth == 4)))
    if not len(ii):
        return None
    lon, lat = ii + 1, jj + 1
    along = lon if ground.axis == 0 else lat
    far = np.maximum(np.abs(lon - start.lon), np.abs(lat - start.lat))
    best = np.lexsort((lat, lon, depth[ii, jj], np.abs(along - middle), far))[0]
    return Cell(int(lon[best]), int(lat[best]))


def _crossed(t: Tried, picture: Picture, fights: bool = False) -> bool:
    """Whether the order would begin a war the side is not in (9.1) and may not begin."""
    return t.state.at_war and not picture.at_war and not fights


def toward(
    state: GameState,
    u: UnitState,
    goal: Cell,
    picture: Picture,
    ground: Ground,
    rules: RuleSet,
    side: str,
    contact: bool = False,
    fights: bool = False,
    style: Style | None = None,
) -> Tried | None:
    """The move that brings `u` nearest `goal` this turn, forward or by road, over ground the
    side sees (its own only before the war, unless it `fights`: may begin it), carried out
    whole on `state`; else a turn to face the goal (4.3); None if neither gets it nearer."""
    here = u.cell.km(goal)
    if u.cell == goal:
        return None
    near_enemy = picture.near_enemy if not contact else frozenset()
    for mode in ("forward", "road"):
        r = reach(state, u.ref, rules, mode)
        options: list[tuple[float, float, int, int, Cell]] = []
        for c in r.cells():
            d = round(c.km(goal), 6)
            if c in u.cells or d >= here - 1e-9 or c in near_enemy:
                continue
            if picture.came_from.get(u.ref) == c:
                continue  # not back to where it came from last move
            if not all(_may_pass(ground, picture, x, fights) for x in r.path_to(c)):
                continue
            options.append((d, r.cost_to(c), c.lon, c.lat, c))
        for d, _, _, _, c in sorted(options)[:4]:
            t = attempt(state, Move(u.ref, c, mode=mode), rules, side)
            if (
                t.clean
                and not _crossed(t, picture, fights)
                and round(t.state.unit(u.ref).cell.km(goal), 6) == d
                and not _outmatched(t, u.ref, picture, rules, side, style)
                and (not contact or _together(t.state, u.ref, ground, side))
            ):
                return t
    ahead = Cell(u.cell.lon + u.facing.delta[0], u.cell.lat + u.facing.delta[1])
    if fights and ahead.km(goal) < here and ahead not in near_enemy and ground.on_map(ahead):
        t = attempt(state, Move(u.ref, ahead), rules, side)  # a river crossing begun (table 4)
        if t.fording and _may_pass(ground, picture, ahead, fights) and not _crossed(t, picture):
            return t
    dx, dy = u.cell.offset(goal)
    facing = Direction.from_delta(*((dx, 0) if abs(dx) >= abs(dy) else (0, dy)))
    if not contact:
        facing = Direction.from_delta(dx, dy)
    if _off(u.facing, facing) >= (1 if contact else 2):  # 4.2: a diagonal cell is 14 km
        t = attempt(state, Turn(u.ref, facing), rules, side)
        if t.clean:
            return t
    return None


def _outmatched(
    t: Tried, ref: UnitRef, picture: Picture, rules: RuleSet, side: str, style: Style | None
) -> bool:
    """Whether the move puts the division where the enemy beside it would strike it at the
    style's withdrawal ratio (the engine's what-if on the state after the move)."""
    if style is None:
        return False
    threat = danger(t.state, t.state.unit(ref), picture, rules, side)
    return threat is not None and threat.ratio is not None and threat.ratio >= style.withdraw_ratio


def _together(state: GameState, ref: UnitRef, ground: Ground, side: str) -> bool:
    """On the side's own ground, or with another of its divisions within two cells: no
    division goes into the enemy's ground alone."""
    u = state.unit(ref)
    if ground.at(ground.own, u.cell):
        return True
    for dx in range(-2, 3):
        for dy in range(-2, 3):
            for o in state.occupants(Cell(u.cell.lon + dx, u.cell.lat + dy)):
                if o.ref != ref and o.division.kind in ATTACKING and state.side_of(o.ref) == side:
                    return True
    return False


def _may_pass(ground: Ground, picture: Picture, c: Cell, fights: bool) -> bool:
    """Ground a move may cross: seen by the side, its own or the enemy's; before the war, its
    own only, unless it may begin the war (`fights`)."""
    if not picture.at_war and not fights:
        return ground.at(ground.own, c)
    return ground.at(picture.visible, c) and (
        ground.at(ground.own, c) or ground.at(ground.enemy, c)
    )


def _off(a: Direction, b: Direction) -> int:
    """Steps of 45° between two directions."""
    d = (a.index - b.index) % 8
    return min(d, 8 - d)


def _cover(
    state: GameState,
    picture: Picture,
    plan: Plan,
    ground: Ground,
    rules: RuleSet,
    side: str,
    done: set[UnitRef],
) -> tuple[GameState, list[Decision]]:
    """5.8: a post every three cells of the border, each taken by the nearest free division
    within `NEAR` cells (before the war, and where the front is held)."""
    out: list[Decision] = []
    if picture.at_war and plan.main is None and plan.fights:
        return state, out
    posts = _posts(ground)
    zone = {Cell(p.lon + dx, p.lat + dy) for p in posts for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
    enemy = {c for k in picture.enemies for c in k.cells}
    free = [
        u
        for u in _free(state, side, done)
        if u.division.kind in (*ATTACKING, DivisionKind.ANTI_TANK)
        and not any(c in zone for c in u.cells)
    ]
    for post in posts:
        if plan.main is not None and plan.main.holds(ground.along(post)):
            continue
        if post in enemy or _held(state, post, side):
            continue
        near = [u for u in free if u.ref not in done and u.cell.chebyshev(post) <= NEAR]
        for u in sorted(near, key=lambda u: (u.cell.chebyshev(post), u.ref.number))[:3]:
            t = toward(state, u, post, picture, ground, rules, side)
            if t is not None:
                state = t.state
                done.add(u.ref)
                why = Text(
                    f"the border post at {post}: not less than 1/3 division per 10 km",
                    f"пост прикрытия у {post}: не менее 1/3 дивизии на 10 км",
                )
                out.append(move_decision(Goal.DEPLOY, t, why, "5.8"))
                break
    return state, out


def _held(state: GameState, post: Cell, side: str) -> bool:
    """Whether a division of the side stands on or beside the post."""
    return any(state.side_of(o.ref) == side for o in state.beside([post]))


def _posts(ground: Ground) -> list[Cell]:
    """The covering posts: a border cell every `POST_EVERY` places along the front."""
    by_place: dict[int, Cell] = {}
    for c in ground.border:
        by_place.setdefault(ground.along(c), c)
    places = sorted(by_place)
    return [by_place[p] for p in places if (p - places[0]) % POST_EVERY == 1 % POST_EVERY]


def _close_up(
    state: GameState,
    picture: Picture,
    plan: Plan,
    ground: Ground,
    rules: RuleSet,
    style: Style,
    side: str,
    done: set[UnitRef],
) -> tuple[GameState, list[Decision]]:
    """Free divisions not beside any enemy known (those hold, facing it) brought up to the
    nearest enemy within `NEAR` cells that is worth it: in the main effort, any; where the
    front is held, one that broke into the side's ground, or one the side's divisions near it
    outnumber two to one."""
    out: list[Decision] = []
    if not plan.fights or not picture.enemies:
        return state, out
    worth = _worth(state, plan, ground, picture, rules, side)
    if not worth:
        return state, out
    mask = np.zeros(ground.size, dtype=bool)
    for c in worth:
        mask[c.lon - 1, c.lat - 1] = True
    gap_of, (ni, nj) = ndimage.distance_transform_cdt(
        ~mask, metric="chessboard", return_indices=True
    )
    contact = np.zeros(ground.size, dtype=bool)  # beside an enemy it knows of, worth it or not
    for k in picture.enemies:
        for c in k.cells:
            contact[max(0, c.lon - 2) : c.lon + 1, max(0, c.lat - 2) : c.lat + 1] = True
    intruders = [c for c in worth if ground.at(ground.own, c)]
    aims: dict[UnitRef, Cell] = {}
    if style.concentrate and plan.main is not None:
        main = plan.main
        cells = [c for c in worth if main.holds(ground.along(c))]
        movers = [u for u in _free(state, side, done) if u.division.kind in ATTACKING]
        aims = assign(state, picture, cells, rules, side, movers, FOCUS_REACH)
    for u in sorted(_free(state, side, done), key=lambda u: u.ref.number):
        if u.division.kind not in ATTACKING or u.division.strength < WEAK:
            continue
        if any(ground.at(contact, c) for c in u.cells):
            continue  # in contact: it holds where it stands, facing the enemy beside it
        i, j = u.cell.lon - 1, u.cell.lat - 1
        gap = int(gap_of[i, j])
        target = Cell(int(ni[i, j]) + 1, int(nj[i, j]) + 1)
        k = worth[target]
        gathering = (
            style.concentrate and plan.main is not None and plan.main.holds(ground.along(k.cell))
        )
        home = [c for c in intruders if c.chebyshev(u.cell) <= NEAR_HOME]
        if home:  # an enemy on the side's own ground first
            target = min(home, key=lambda c: (c.chebyshev(u.cell), c.lon, c.lat))
            k, gap = worth[target], target.chebyshev(u.cell)
        elif u.ref in aims:
            aim = aims[u.ref]
            k, gap, gathering = worth[aim], u.cell.chebyshev(aim), True
        if gap <= 1 or (
            gap > (NEAR_HOME if ground.at(ground.own, target) else NEAR) and not gathering
        ):
            continue
        t = toward(
            state, u, k.cell, picture, ground, rules, side, contact=True, fights=True, style=style
        )
        if t is not None:
            state = t.state
            done.add(u.ref)
            in_main = plan.main is not None and plan.main.holds(ground.along(k.cell))
            why = (
                Text(
                    f"up to the enemy at {k.cell}, in the main effort",
                    f"к противнику в {k.cell}, на направлении главного удара",
                )
                if in_main
                else Text(
                    f"up to the enemy at {k.cell}, to strike it",
                    f"к противнику в {k.cell}, для удара",
                )
            )
            out.append(move_decision(Goal.ATTACK, t, why, "4.2"))
    return state, out


def _worth(
    state: GameState, plan: Plan, ground: Ground, picture: Picture, rules: RuleSet, side: str
) -> dict[Cell, Known]:
    """The enemies worth closing up to, by cell (see `_close_up`)."""
    w, h = ground.size
    ours = np.zeros((w, h))
    for u in state.units.values():
        if state.side_of(u.ref) == side and u.division.kind in ATTACKING:
            ours[u.cell.lon - 1, u.cell.lat - 1] += (
                rating(u.division.kind, rules) * u.division.strength
            )
    theirs = np.zeros((w, h))
    for e in picture.enemies:
        theirs[e.cell.lon - 1, e.cell.lat - 1] += rating(e.kind, rules)
    ours = ndimage.correlate(ours, np.ones((5, 5)), mode="constant")
    theirs = ndimage.correlate(theirs, np.ones((3, 3)), mode="constant")
    out: dict[Cell, Known] = {}
    for k in picture.enemies:
        c = k.cell
        main = plan.main is not None and plan.main.lo - 1 <= ground.along(c) <= plan.main.hi + 1
        i, j = c.lon - 1, c.lat - 1
        if main or ground.at(ground.own, c) or ours[i, j] >= 2 * theirs[i, j]:
            out.setdefault(c, k)
    return out


def _face(
    state: GameState,
    picture: Picture,
    ground: Ground,
    rules: RuleSet,
    side: str,
    done: set[UnitRef],
) -> tuple[GameState, list[Decision]]:
    """A division that stays, the nearest enemy within 3 cells more than 45° off its front,
    turned to face it (4.3)."""
    out: list[Decision] = []
    if not picture.enemies:
        return state, out
    cells = [k.cell for k in picture.enemies]
    lon = np.array([c.lon for c in cells])
    lat = np.array([c.lat for c in cells])
    for u in sorted(_free(state, side, done), key=lambda u: u.ref.number):
        # the nearest enemy (chessboard cells; then by longitude, latitude) not on its cells
        dist = np.maximum(np.abs(lon - u.cell.lon), np.abs(lat - u.cell.lat))
        for c in u.cells:
            dist[(lon == c.lon) & (lat == c.lat)] = 1 << 30
        first = int(np.lexsort((lat, lon, dist))[0])
        if dist[first] > 3:
            continue
        cell = cells[first]
        facing = Direction.from_delta(*u.cell.offset(cell))
        if _off(u.facing, facing) < 2:
            continue
        t = attempt(state, Turn(u.ref, facing), rules, side)
        if t.clean:
            state = t.state
            done.add(u.ref)
            why = Text(f"to face the enemy at {cell}", f"фронтом к противнику в {cell}")
            out.append(move_decision(Goal.REGROUP, t, why, "4.3"))
    return state, out


__all__ = ["move_decision", "movements", "toward"]
