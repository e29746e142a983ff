"""What each side may know of the war (6.2, 5.8, 8.1, 8.2), and the mediator's all-seeing view.

`view_for(state, side, rules)` computes from the full state a `SideView` holding nothing the side
may not know; `mediator_view(state)` holds everything (1.4, 9.3). `SideView.to_json` and
`to_geojson` are what the console and the map draw from.

The seeds are vague here; these readings are **reconstructed**:

- The enemy of a side: the states of another side; a neutral (Green) only once at war with one
  of the side's states (9.1), and a neutral is told of no enemy until then.
- Distance from the border: Chebyshev cells to the observer's ground × `cell_km` (a cell on the
  border is 10 km from it). The border: the enemy's cells with an edge on the observer's ground.
- Covering forces (5.8): the enemy's counters on its ground within 20 km (2 cells) of the border
  (`deployment.cover_depth_km` if the rules give it), told as positions only. A border cell is
  covered where a covering counter stands within `ceil(1 / cover_density / 2)` cells of it
  (1/3 division per 10 km: a division holds 30 km, 15 km each way from its cell's centre: 2).
- Open sectors (8.2, at war only): maximal 8-connected runs of uncovered border cells, as wide as
  their cells × 10 km. The zone: the enemy's ground within `open_zone_depth_km` of the border
  whose nearest border cell lies in the sector widened along the border by `open_zone_flank` ×
  its width (rounded to cells) on each flank. The ground seen is what the observer reaches from
  the sector through 4-connected cells free of enemy counters, and the counters on its edge: a
  line of counters across the zone (touching at least at corners: a continuous front) closes the
  ground behind it, and its counters «начинают играть роль прикрытия»: told by position only,
  as covering forces are (two counters or more, each beside the ground they close; one ahead of
  the front, in the open, is seen). Any other counter with a cell seen is told with its
  designation, kind, formation, facing and its regiments' kinds («состав»), never their strength.
- Armies (6.2.2-4, 8.1): a division is an army's if it or its corps is a member. A first-echelon
  army has a division within `first_echelon_depth_km` of the border that is neither covered by
  forest or mountains (on the line from the nearest cell of the observer's ground to it, its own
  cell included; relief as the game's level sees it) nor by another army (a division of another
  army of its state nearer the border, its nearest observer's cell at most a cell away). Told:
  the army's number, its strip (the lat or lon range of its divisions' cells, along the border)
  and how many corps it has; at war (8.1: composition without arms) also how many divisions.
  Every other army of the enemy (second echelon, reserve): its number only.
- In sight (1.6, reconstructed: the seeds do not say what troops see of an enemy among them): an
  enemy counter on the side's own ground, or beside one of its counters, is told in full as
  "contact" (designation, kind, formation, facing, regiments' kinds), wherever it stands.
- Reconnaissance (8.3): the side's questions and the answers given; the true/false flag is the
  mediator's only.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from typing import Any

import numpy as np
from scipy import ndimage

from strategia.core.geometry import Cell, Direction, round_to
from strategia.core.vocab import Kind
from strategia.engine.state import GameState, UnitState
from strategia.notation.refs import UnitRef
from strategia.rules import RuleSet
from strategia.rules.kinds import CommandKind, CorpsKind, DivisionKind, Formation, Side
from strategia.theatre import terrain

MEDIATOR = "mediator"
_CROSS = np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]], dtype=bool)
_SQUARE = np.ones((3, 3), dtype=bool)
_ROUGH = [terrain.Relief.FOREST, terrain.Relief.MOUNTAINS]


def _js(v: Any) -> Any:
    if isinstance(v, Cell):
        return f"{v.lon},{v.lat}"
    if isinstance(v, UnitRef):
        return str(v)
    if isinstance(v, Kind):
        return v.key
    if isinstance(v, Seen | ArmyNote | Answer):
        return v.to_json()
    return [_js(x) for x in v] if isinstance(v, tuple) else v


def _record(obj: Any) -> dict[str, Any]:
    """The fields of a dataclass that are set, as JSON values."""
    values = ((f.name, getattr(obj, f.name)) for f in fields(obj))
    return {k: _js(v) for k, v in values if v is not None and v != ()}


@dataclass(frozen=True, slots=True)
class Seen:
    """An enemy counter as a side knows it: `how` "cover", its position only (6.2.1, 8.1);
    "open", in an open sector's zone (8.2), or "contact", in sight of the side's troops:
    designation, kind, formation, facing, regiments."""

    side: str
    how: str
    cells: tuple[Cell, ...]
    unit: UnitRef | None = None
    kind: DivisionKind | CorpsKind | CommandKind | None = None
    owner: str | None = None
    formation: Formation | None = None
    facing: Direction | None = None
    regiments: tuple[str, ...] = ()  # the kinds of its regiments, never their strength

    def to_json(self) -> dict[str, Any]:
        return _record(self)


@dataclass(frozen=True, slots=True)
class ArmyNote:
    """What is told of an army: its number; for the first echelon its strip (`along` "lat" or
    "lon", from `strip[0]` to `strip[1]`) and corps count (6.2), at war its divisions (8.1)."""

    army: UnitRef
    state: str
    echelon: str  # "first", or "second" for the second echelon and the reserve
    along: str | None = None
    strip: tuple[int, int] | None = None
    corps: int | None = None
    divisions: int | None = None
    members: tuple[UnitRef, ...] = ()  # the mediator's only
    front: UnitRef | None = None  # the front (5.7) it belongs to, numbered as armies are (6.2.4)

    def to_json(self) -> dict[str, Any]:
        return _record(self)


@dataclass(frozen=True, slots=True)
class Answer:
    """A reconnaissance answer (8.3): the question and the answer given (a text, or its
    {"ru", "en"} mapping); the mediator's view also keeps the `truth` flag, the `true_answer`
    (a non-flag "truth", as `strategia.recon` writes it) and the asking `side`."""

    question: str
    answer: Any
    truth: bool | None = None
    true_answer: Any = None
    side: str | None = None

    def to_json(self) -> dict[str, Any]:
        return _record(self)


@dataclass(frozen=True)
class SideView:
    """What one side knows (with `side` "mediator": everything)."""

    side: str
    turn: int
    level: int
    at_war: bool
    units: tuple[UnitState, ...]  # the side's own counters in full (the mediator: all)
    sides: tuple[tuple[str, str], ...]  # (code, side) of the states on the map
    seen: tuple[Seen, ...] = ()
    armies: tuple[ArmyNote, ...] = ()
    observed: tuple[Cell, ...] = ()  # the ground open to observation (8.2)
    intelligence: tuple[Answer, ...] = ()

    def side_of(self, unit: UnitState) -> str:
        return dict(self.sides)[unit.owner]

    def to_json(self) -> dict[str, Any]:
        told = {
            f.name: _js(getattr(self, f.name))
            for f in fields(self)
            if f.name not in ("sides", "units")
        }
        return told | {"units": [{"side": self.side_of(u), **u.to_json()} for u in self.units]}


def to_geojson(view: SideView) -> dict[str, Any]:
    """The counters of `view` as a GeoJSON FeatureCollection: a Point at each counter's leading
    cell's centre (x = lon, y = lat), with the counter's side and what the view knows of it."""

    def feature(c: Cell, props: dict[str, Any]) -> dict[str, Any]:
        point = {"type": "Point", "coordinates": [c.lon, c.lat]}
        return {"type": "Feature", "geometry": point, "properties": props}

    features = [
        feature(u.cell, {"side": view.side_of(u), "kind": _js(u.ref.kind), **u.to_json()})
        for u in view.units
    ]
    features += [feature(s.cells[0], s.to_json()) for s in view.seen if s.cells]
    return {"type": "FeatureCollection", "view": view.side, "features": features}


# --- the ground --------------------------------------------------------------------------------


def _hostile(state: GameState, side: str) -> set[str]:
    """The codes of the states `side` is told about (its enemies, see above)."""
    own = [s.code for s in state.scenario.states if s.side == side]
    return {
        s.code
        for s in state.scenario.states
        if s.side != side
        and ("green" not in (side, s.side) or any(state.at_war_between(s.code, o) for o in own))
    }


def _index(state: GameState, units: Iterable[UnitState]) -> tuple[np.ndarray, np.ndarray]:
    """Array indices of the units' cells on the map."""
    cells = [c for u in units for c in u.cells if terrain.on_map(state.theatre, c)]
    ij = np.array([(c.lon - 1, c.lat - 1) for c in cells], dtype=int).reshape(-1, 2)
    return ij[:, 0], ij[:, 1]


@dataclass(frozen=True)
class _Board:
    """The observed states' ground as seen from the observer's."""

    foreign: np.ndarray  # the ground of the states observed
    dist: np.ndarray  # Chebyshev cells to the observer's ground (0 on it)
    feet: np.ndarray  # (2, w, h): the indices of the nearest cell of the observer's ground
    border: np.ndarray  # foreign cells with an edge on the observer's ground


def _board(state: GameState, home: Iterable[str], foreign: Iterable[str]) -> _Board | None:
    codes = [s.code for s in state.scenario.states]
    grid = state.theatre["state"].values
    mine = np.isin(grid, [codes.index(c) + 1 for c in home])
    if not mine.any():
        return None
    theirs = np.isin(grid, [codes.index(c) + 1 for c in foreign])
    dist = ndimage.distance_transform_cdt(~mine, metric="chessboard")
    feet = ndimage.distance_transform_edt(~mine, return_distances=False, return_indices=True)
    touch = np.zeros_like(mine)
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        touch |= terrain.shifted(mine, dx, dy, False)
    return _Board(theirs, np.asarray(dist), np.asarray(feet), theirs & touch)


def _cells_within(rules: RuleSet, km: float) -> int:
    return int(km // float(rules.value("scale", "cell_km")))


def _observe(
    state: GameState, rules: RuleSet, board: _Board, enemy: list[UnitState]
) -> tuple[list[Seen], np.ndarray]:
    """The enemy's covering counters (positions) and, at war, the counters in open zones."""
    depth = float(rules.value("deployment", "cover_depth_km"))
    band = board.foreign & (board.dist > 0) & (board.dist <= _cells_within(rules, depth))
    covering = {u.ref for u in enemy if band[_index(state, [u])].any()}
    cover = np.zeros_like(band)
    cover[_index(state, (u for u in enemy if u.ref in covering))] = True
    reach = math.ceil(1 / float(rules.value("deployment", "cover_density")) / 2)
    covered = ndimage.binary_dilation(cover, np.ones((2 * reach + 1,) * 2, dtype=bool))
    seen = np.zeros_like(band)
    fronting = np.zeros_like(band)  # a continuous front of the second echelon: cover (8.2)
    labels, n = ndimage.label(board.border & ~covered, structure=_SQUARE)
    if state.at_war and n:
        depth = float(rules.value("deployment", "open_zone_depth_km"))
        deep = board.foreign & (board.dist > 0) & (board.dist <= _cells_within(rules, depth))
        share = float(rules.value("deployment", "open_zone_flank"))
        occupied = np.zeros_like(band)
        occupied[_index(state, enemy)] = True
        near = ndimage.distance_transform_edt(
            ~board.border, return_distances=False, return_indices=True
        )
        for k in range(1, n + 1):
            sector = labels == k
            flank = int(round_to(share * int(sector.sum()), 1))
            wide = sector
            if flank:  # along the border, cell by cell
                wide = ndimage.binary_dilation(sector, _SQUARE, iterations=flank, mask=board.border)
            zone = deep & wide[near[0], near[1]]
            free = zone & ~occupied
            reached = ndimage.binary_propagation(sector & free, structure=_CROSS, mask=free)
            edge = ndimage.binary_dilation(reached, _CROSS) & zone
            front = _closing_front(state, enemy, zone & occupied, free & ~reached)
            seen |= reached | (edge & ~front)
            fronting |= edge & front
    sides = dict((s.code, s.side) for s in state.scenario.states)
    revealed = {u.ref for u in enemy if seen[_index(state, [u])].any()}
    out: list[Seen] = []
    for u in enemy:
        if u.ref in revealed:
            out.append(_told_in_full(u, sides[u.owner], "open"))
            seen[_index(state, [u])] = True  # the whole counter is seen
        elif u.ref in covering or fronting[_index(state, [u])].any():
            out.append(Seen(sides[u.owner], "cover", u.cells))
    out.sort(key=lambda s: (s.how, s.cells, s.side))
    return out, seen


def _closing_front(
    state: GameState, enemy: list[UnitState], counters: np.ndarray, behind: np.ndarray
) -> np.ndarray:
    """The cells of the counters that form a continuous front closing ground behind them from
    observation: 8.2's «сплошной фронт», whose troops «начинают играть роль прикрытия» (told by
    position only). Reconstructed: two counters or more touching (at least at corners), each
    beside the ground they close; a counter standing alone, or ahead of the front, is not one."""
    out = np.zeros_like(counters)
    groups, n = ndimage.label(counters, structure=_SQUARE)
    if not n or not behind.any():
        return out
    beside = ndimage.binary_dilation(behind, _SQUARE)
    members: dict[int, list[tuple[np.ndarray, np.ndarray]]] = {}
    for u in enemy:
        at = _index(state, [u])
        labels = {int(x) for x in np.unique(groups[at]) if x}
        for g in labels:
            members.setdefault(g, []).append(at)
    for cells in members.values():
        if len(cells) < 2:
            continue
        for at in cells:
            if beside[at].any():
                out[at] = True
    return np.asarray(out & counters, dtype=bool)


def _told_in_full(u: UnitState, side: str, how: str) -> Seen:
    """A counter told with its designation, kind, formation, facing and regiments' kinds."""
    regiments = tuple(r.kind.ru for r in u.division.regiments)
    return Seen(side, how, u.cells, u.ref, u.ref.kind, u.owner, u.formation, u.facing, regiments)


def _in_sight(
    state: GameState, own: Sequence[str], enemy: Sequence[UnitState], seen: list[Seen]
) -> list[Seen]:
    """`seen`, and the enemy's counters the side's own troops see: on its own ground, or beside
    one of its counters (in contact), told in full as "contact"."""
    sides = dict((s.code, s.side) for s in state.scenario.states)
    codes = [s.code for s in state.scenario.states]
    ground = state.grid.state
    home = {codes.index(c) + 1 for c in own}
    full = {x.unit for x in seen if x.how == "open"}
    mine = [u for u in state.units.values() if u.owner in own]
    near = {o.ref for u in mine for o in state.beside(u.cells)}
    out = [x for x in seen]
    for u in enemy:
        if u.ref in full:
            continue
        on_home = any(
            state.grid.on_map(c) and int(ground[c.lon - 1, c.lat - 1]) in home for c in u.cells
        )
        if on_home or u.ref in near:
            out = [x for x in out if not (x.how == "cover" and x.cells == u.cells)]
            out.append(_told_in_full(u, sides[u.owner], "contact"))
    out.sort(key=lambda x: (x.how, x.cells, x.side))
    return out


def _clear(rough: np.ndarray, feet: np.ndarray, i: int, j: int) -> bool:
    """No forest or mountains from the observer's nearest cell to (i, j), (i, j) included."""
    fi, fj = int(feet[0, i, j]), int(feet[1, i, j])
    n = max(abs(i - fi), abs(j - fj), 1)
    t = np.arange(1, n + 1) / n
    ii = np.rint(fi + t * (i - fi)).astype(int)
    jj = np.rint(fj + t * (j - fj)).astype(int)
    return not bool(rough[ii, jj].any())


def _armies(
    state: GameState, rules: RuleSet, board: _Board | None, codes: set[str], *, mediator: bool
) -> list[ArmyNote]:
    """The armies of the states `codes` as their enemy is told of them (the mediator: in full)."""
    depth = _cells_within(rules, float(rules.value("deployment", "first_echelon_depth_km")))
    rough = np.isin(terrain.relief_at_level(state.theatre, state.level), _ROUGH)
    out: list[ArmyNote] = []
    for f in (f for f in state.scenario.forces if f.state in codes):
        facts: dict[UnitRef, tuple[str | None, tuple[int, int] | None, int, np.ndarray]] = {}
        for a in f.armies:
            divs = [
                u
                for u in state.units.values()
                if u.owner == f.state and (u.ref in a.members or u.corps in a.members)
            ]
            ii, jj = _index(state, divs)
            along, strip, front = None, None, np.zeros((4, 0), dtype=int)
            if board is not None and len(ii):
                fi, fj = board.feet[0, ii, jj], board.feet[1, ii, jj]
                along = "lat" if abs((ii - fi).sum()) >= abs((jj - fj).sum()) else "lon"
                axis = jj + 1 if along == "lat" else ii + 1
                strip = int(axis.min()), int(axis.max())
                d = board.dist[ii, jj]
                clear = [
                    _clear(rough, board.feet, int(i), int(j)) for i, j in zip(ii, jj, strict=True)
                ]
                front = np.array([d, fi, fj, clear], dtype=int)[:, d <= depth]
            facts[a.ref] = (along, strip, len(divs), front)
        for a in f.armies:
            along, strip, n_divs, (d, fi, fj, in_view) = facts[a.ref]
            others = [x[3] for b, x in facts.items() if b != a.ref]
            od, ofi, ofj, _ = np.concatenate([np.zeros((4, 0), dtype=int), *others], axis=1)
            screened = (
                (od[None, :] < d[:, None])
                & (np.abs(ofi[None, :] - fi[:, None]) <= 1)
                & (np.abs(ofj[None, :] - fj[:, None]) <= 1)
            ).any(axis=1)
            first = bool(((in_view > 0) & ~screened).any())
            echelon = "first" if first else "second"
            corps = sum(1 for m in a.members if m.echelon == "corps")
            army_front = f.front_of(a.ref)
            note = ArmyNote(
                a.ref, f.state, echelon, along, strip, corps, n_divs, a.members, army_front
            )
            if not mediator and not first:  # 6.2.4: the numbers only (of the army, its front)
                note = ArmyNote(a.ref, f.state, echelon, front=army_front)
            elif not mediator:  # 6.2.2-3, 8.1
                note = replace(note, divisions=n_divs if state.at_war else None, members=())
            out.append(note)
    return out


def _answers(items: Sequence[Mapping[str, Any]], side: str | None) -> tuple[Answer, ...]:
    """The answers to `side`'s questions, the question and answer only (`side` None: all, with
    the flag: "truth" or "true", whichever is a bool)."""
    out = []
    for it in items:
        q, answer, truth = str(it["question"]), _plain(it["answer"]), it.get("truth")
        if side is None:
            flag = next((v for v in (it.get("true"), truth) if isinstance(v, bool)), None)
            true_answer = None if truth is None or isinstance(truth, bool) else _plain(truth)
            who = None if it.get("side") is None else str(it["side"])
            out.append(Answer(q, answer, flag, true_answer, who))
        elif it.get("side", side) == side:
            out.append(Answer(q, answer))
    return tuple(out)


def _plain(v: Any) -> Any:
    """A text as given, or a {"ru", "en"} mapping's texts only."""
    return {k: str(v[k]) for k in ("ru", "en") if k in v} if isinstance(v, Mapping) else v


def view_for(
    state: GameState, side: str, rules: RuleSet, intelligence: Sequence[Mapping[str, Any]] = ()
) -> SideView:
    """What `side` ("red", "blue", ...) may know of the war; "mediator": `mediator_view`.

    `intelligence`: the answers to the side's reconnaissance questions, as mappings with
    "question" and "answer" (a "truth" flag is dropped; one for another "side" is left out)."""
    if side == MEDIATOR:
        return mediator_view(state, intelligence, rules)
    side = Side.from_key(side).key
    sides = tuple((s.code, s.side) for s in state.scenario.states)
    own = [c for c, s in sides if s == side]
    hostile = _hostile(state, side)
    board = _board(state, own, hostile)
    seen: list[Seen] = []
    observed = np.zeros(terrain.size(state.theatre), dtype=bool)
    enemy = [u for u in state.units.values() if u.owner in hostile]
    if board is not None:
        seen, observed = _observe(state, rules, board, enemy)
    seen = _in_sight(state, own, enemy, seen)
    return SideView(
        side=side,
        turn=state.turn,
        level=state.level,
        at_war=state.at_war,
        units=tuple(u for u in state.units.values() if u.owner in own),
        sides=sides,
        seen=tuple(seen),
        armies=tuple(_armies(state, rules, board, hostile, mediator=False)),
        observed=tuple(Cell(int(i) + 1, int(j) + 1) for i, j in np.argwhere(observed)),
        intelligence=_answers(intelligence, side),
    )


def mediator_view(
    state: GameState,
    intelligence: Sequence[Mapping[str, Any]] = (),
    rules: RuleSet | None = None,
) -> SideView:
    """Everything (1.4, 9.3): every counter in full, every army with its members, its strip and
    its echelon as its enemy is told, every answer with its true/false flag."""
    rules = rules or state.scenario.rules(state.level)
    sides = tuple((s.code, s.side) for s in state.scenario.states)
    armies: list[ArmyNote] = []
    for side in dict.fromkeys(s for _, s in sides):
        codes = {c for c, s in sides if s == side}
        board = _board(state, _hostile(state, side), codes)
        armies += _armies(state, rules, board, codes, mediator=True)
    return SideView(
        side=MEDIATOR,
        turn=state.turn,
        level=state.level,
        at_war=state.at_war,
        units=tuple(state.units.values()),
        sides=sides,
        armies=tuple(armies),
        intelligence=_answers(intelligence, None),
    )
