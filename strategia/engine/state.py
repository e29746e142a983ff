"""The game state: an immutable snapshot of every unit on the map and what the turn has left.

`GameState` is a value: the engine's functions return new states and never change one.
A unit's `spent` is the share of the current turn it has used (4.3: a 90° turn leaves half a
move); `busy` carries what goes on over several turns (crossing a river, a long turn, a march,
a transfer, regrouping). `statutes` are each side's movement statutes (5.9), with the side
that recorded them (`strategia.engine.statutes`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, fields
from functools import cached_property
from typing import Any

import numpy as np
from immutables import Map

from strategia.core.geometry import Cell, Direction
from strategia.core.i18n import Text
from strategia.core.layered import Layered
from strategia.engine.forces import out_of_play
from strategia.notation.orders import Statute
from strategia.notation.refs import KnownUnits, Placement, UnitRef, ref_order
from strategia.rules import RuleSet
from strategia.rules.kinds import Formation, RegimentsFacing
from strategia.rules.units import Division
from strategia.theatre import terrain
from strategia.theatre.grid import Grid, grid
from strategia.theatre.scenario import Scenario

BUSY = {
    "crossing": Text("crossing a river", "переправа"),
    "turning": Text("turning", "поворот"),
    "frontage": Text("changing its frontage", "смена ширины фронта"),
    "reforming": Text("re-forming", "перестроение"),
    "march": Text("on the march", "марш"),
    "transfer": Text("in transit", "переброска"),
    "recovering": Text("regaining combat capability", "восстановление боеспособности"),
    "regrouping": Text("regrouping", "переформирование"),
    "passing": Text("passing a regiment", "передача полка"),
    "collided": Text("collided", "столкновение"),
}


@dataclass(frozen=True, slots=True)
class Busy:
    """Something a unit is doing over several turns: `what` it is, `left` turns to go, details."""

    what: str  # "crossing", "turning", "march", "transfer", "regrouping", "collided", "recovering"
    left: float
    target: tuple[Cell, ...] = ()
    facing: Direction | None = None
    plan: tuple[Any, ...] = ()
    then: tuple[Any, ...] = ()  # the work that follows this one (a march, then joining, 4.11)

    @property
    def label(self) -> Text:
        """What the unit is doing, in words."""
        return BUSY.get(self.what, Text(self.what))

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"what": self.what, "left": self.left}
        if self.then:
            d["then"] = [str(x) for x in self.then]
        if self.target:
            d["target"] = [str(c) for c in self.target]
        if self.facing is not None:
            d["facing"] = self.facing.key
        if self.plan:
            d["plan"] = [str(x) for x in self.plan]
        return d


@dataclass(frozen=True, slots=True)
class UnitState:
    """One division (or corps member) on the map."""

    ref: UnitRef
    owner: str  # the state code
    division: Division
    cells: tuple[Cell, ...]  # the counter's squares, the leading one first
    facing: Direction
    formation: Formation = Formation.LINEAR
    regiments: RegimentsFacing = RegimentsFacing.ENEMY  # 9.6: turned to the enemy or not
    corps: UnitRef | None = None
    spent: float = 0.0
    road_dropped: bool = False  # 4.3: a turn on a road drops the road for the rest of the move
    busy: Busy | None = None
    on_march: bool = False
    combat_capable: bool = True

    @property
    def cell(self) -> Cell:
        return self.cells[0]

    def but(self, **changes: Any) -> UnitState:
        """This unit with `changes` (`dataclasses.replace` without its per-call introspection:
        a unit is copied for every order; a UnitState has no checks in its constructor)."""
        new = object.__new__(UnitState)
        for name in _UNIT_FIELDS:
            value = changes.pop(name) if name in changes else getattr(self, name)
            object.__setattr__(new, name, value)
        if changes:
            raise TypeError(f"UnitState has no field {', '.join(sorted(changes))}")
        return new

    @property
    def left(self) -> float:
        """What is left of this turn for the unit (1 = a whole turn)."""
        left = round(1.0 - self.spent, 6)
        return left if left > 1e-6 else 0.0

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "unit": str(self.ref),
            "owner": self.owner,
            "cells": [str(c) for c in self.cells],
            "facing": self.facing.key,
            "formation": self.formation.key,
            **(
                {"regiments": self.regiments.key}
                if self.regiments is not RegimentsFacing.ENEMY
                else {}
            ),
            "strengths": [r.strength for r in self.division.regiments],
            **(
                {"size": self.division.size}
                if self.division.size != len(self.division.regiments)
                else {}
            ),
            "spent": self.spent,
            "combat_capable": self.combat_capable,
        }
        if self.corps is not None:
            d["corps"] = str(self.corps)
        if self.busy is not None:
            d["busy"] = self.busy.to_json()
        if self.on_march:
            d["on_march"] = True
        return d


@dataclass(frozen=True, slots=True)
class Closure:
    """A road, bridge or pass closed by an artillery strike (9.7c) until a turn."""

    cell: Cell
    what: str  # "road-transfer", "road-movement", "bridge"
    until_turn: int


@dataclass(frozen=True, slots=True)
class Interdiction:
    """Interdiction fire (9.7d): what passes through `cell` during the enemy's next turn loses
    `loss` of its strength."""

    cell: Cell
    side: str  # the side that fired
    loss: float
    turn: int  # the turn it was fired on
    by: UnitRef


@dataclass(frozen=True, slots=True)
class WarStart:
    """A border crossed into a state not at war with the crosser (9.1): on which turn, by which
    state's unit, into which state, on which cell; `began` for the crossing that began the war
    (a neutral's border crossed later brings it in)."""

    turn: int
    violator: str  # state codes
    victim: str
    cell: Cell
    unit: str = ""  # the unit that crossed (or attacked), as written
    began: bool = False


@dataclass(frozen=True)
class GameState:
    """Every unit's position and condition at one moment of the game."""

    scenario: Scenario
    level: int
    turn: int = 1
    units: Layered[UnitRef, UnitState] = field(default_factory=Layered)
    closures: tuple[Closure, ...] = ()
    at_war: bool = False
    wars: frozenset[tuple[str, str]] = frozenset()  # pairs of state codes at war (9.1)
    war_log: tuple[WarStart, ...] = ()  # how each war began (9.1), in turn
    interdictions: tuple[Interdiction, ...] = ()
    engaged: frozenset[UnitRef] = frozenset()  # attacked this turn (9.8c: cannot support)
    committed: frozenset[UnitRef] = frozenset()  # supporting a battle this turn (9.8c)
    statutes: tuple[tuple[str, Statute], ...] = ()  # each side's movement statutes (5.9)

    def __post_init__(self) -> None:
        if not isinstance(self.units, Layered):  # a plain mapping given: kept as a Layered one
            object.__setattr__(self, "units", Layered(self.units))

    def at_war_between(self, a: str, b: str) -> bool:
        return tuple(sorted((a, b))) in self.wars

    @property
    def theatre(self) -> Any:
        return self.scenario.theatre

    @property
    def grid(self) -> Grid:
        """The theatre's layers at the game's level, as numpy arrays (cached per theatre)."""
        return grid(self.scenario.theatre, self.level)

    def unit(self, ref: UnitRef) -> UnitState:
        return self.units[ref]

    def side_of(self, ref: UnitRef) -> str:
        return self._sides[ref]

    def evolve(self, **changes: Any) -> GameState:
        """This state with other fields than its units changed; the indexes computed from its
        units carry over."""
        if "units" in changes:
            raise ValueError("evolve keeps the units: use with_units")
        new = self._with_fields(**changes)
        for key in _UNIT_INDEXES:
            if key in self.__dict__:
                new.__dict__[key] = self.__dict__[key]
        if "_occupancy" in self.__dict__:  # handed on, not shared (`_patch` changes it in place)
            del self.__dict__["_occupancy"]
        return new

    def _with_fields(self, **changes: Any) -> GameState:
        """A copy with `changes` (`dataclasses.replace` without its per-call introspection; a
        GameState has no checks in its constructor)."""
        if not changes.keys() <= _FIELDS:
            unknown = set(changes) - _FIELDS
            raise TypeError(f"GameState has no field {', '.join(sorted(unknown))}")
        new = object.__new__(GameState)
        mine = self.__dict__
        values = {k: mine[k] for k in _FIELD_NAMES}
        values.update(changes)
        new.__dict__.update(values)
        return new

    def with_units(
        self, changed: Iterable[UnitState], removed: Iterable[UnitRef] = ()
    ) -> GameState:
        """This state with some units replaced (or added) and some removed.

        The indexes by cell and side computed on this state are carried over and patched for
        the units that changed, so a long sequence of orders never rebuilds them whole.
        """
        removed = [r for r in removed if r in self.units]
        changed = [u for u in changed if u.ref not in removed]  # removal wins
        units = self.units.updated([(u.ref, u) for u in changed], removed)
        new = self._with_fields(units=units)
        if "_by_cell" in self.__dict__ and "_sides" in self.__dict__:
            before = [self.units[u.ref] for u in changed if u.ref in self.units]
            self._patch(new, before + [self.units[r] for r in removed], changed)
        return new

    def _patch(self, new: GameState, gone: list[UnitState], came: list[UnitState]) -> None:
        """Carry this state's indexes over to `new`, where `gone` left and `came` arrived: an
        index is copied only if it changes (a unit that stays where it was shares them all)."""
        before = {u.ref: u.cells for u in gone}
        after = {u.ref: u.cells for u in came}
        if before == after:
            moved: set[tuple[int, int]] = set()
        else:
            moved = {(c.lon, c.lat) for u in gone + came for c in u.cells}
        index = self._by_cell
        if moved:
            refs = {c: list(index.get(c, ())) for c in moved}
            for u in gone:
                for c in u.cells:
                    if u.ref in refs[c.lon, c.lat]:
                        refs[c.lon, c.lat].remove(u.ref)
            for u in came:
                for c in u.cells:
                    if u.ref not in refs[c.lon, c.lat]:
                        refs[c.lon, c.lat].append(u.ref)
            with index.mutate() as cells:
                for key, r in refs.items():
                    if r:
                        cells[key] = tuple(r) if len(r) == 1 else tuple(sorted(r, key=ref_order))
                    elif key in cells:
                        del cells[key]
                index = cells.finish()
        sides = self._sides
        old_owner = {u.ref: u.owner for u in gone}
        if any(old_owner.get(u.ref) != u.owner for u in came) or len(gone) != len(came):
            side_of = {s.code: s.side for s in self.scenario.states}
            staying = {u.ref for u in came}
            sides = sides.updated(
                [(u.ref, side_of[u.owner]) for u in came],
                [u.ref for u in gone if u.ref not in staying],
            )
        new.__dict__["_by_cell"] = index
        new.__dict__["_sides"] = sides
        if "_corps" in self.__dict__:
            new.__dict__["_corps"] = _members(self._corps, gone, came)
        if "_occupancy" in self.__dict__:
            # handed on to `new` and patched in place: this state works its own out again
            # if it is asked for it (an array of the whole theatre is not copied per order)
            occ = self.__dict__.pop("_occupancy")
            w, h = occ.shape
            keys = [k for k in moved if 0 < k[0] <= w and 0 < k[1] <= h]
            if keys:
                occ.setflags(write=True)
                for k in keys:
                    occ[k[0] - 1, k[1] - 1] = len(index.get(k, ()))
                occ.setflags(write=False)
            new.__dict__["_occupancy"] = occ

    def occupants(self, cell: Cell) -> list[UnitState]:
        return [self.units[r] for r in self._by_cell.get((cell.lon, cell.lat), ())]

    def beside(self, cells: Iterable[Cell]) -> list[UnitState]:
        """The units on any of `cells` or next to one (8 neighbours), each once."""
        found: dict[UnitRef, None] = {}
        for c in cells:
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    found.update(dict.fromkeys(self._by_cell.get((c.lon + dx, c.lat + dy), ())))
        return [self.units[r] for r in found]

    @cached_property
    def _by_cell(self) -> Map[tuple[int, int], tuple[UnitRef, ...]]:
        """The counters on each cell, keyed by (lon, lat) (a persistent hash map: a state
        made from this one by an order shares it, but for the cells that changed)."""
        out: dict[tuple[int, int], list[UnitRef]] = {}
        for u in self.units.values():
            for c in u.cells:
                out.setdefault((c.lon, c.lat), []).append(u.ref)
        return Map((c, tuple(sorted(refs, key=ref_order))) for c, refs in out.items())

    @cached_property
    def _corps(self) -> Layered[UnitRef, int]:
        """The corps units belong to, each with its number of members on the map."""
        out: dict[UnitRef, int] = {}
        for u in self.units.values():
            if u.corps is not None:
                out[u.corps] = out.get(u.corps, 0) + 1
        return Layered(out)

    @cached_property
    def _sides(self) -> Layered[UnitRef, str]:
        side = {s.code: s.side for s in self.scenario.states}
        return Layered((r, side[u.owner]) for r, u in self.units.items())

    def occupancy(self) -> np.ndarray:
        """Per cell: 0 empty, else the number of counters on it (a fresh array)."""
        return self._occupancy.copy()

    @property
    def occupied(self) -> np.ndarray:
        """Per cell: the number of counters on it (read-only; the array is handed on to the
        next state made from this one and changed there, so read it before making one)."""
        return self._occupancy

    def enemy_at(self, cell: Cell, side: str) -> bool:
        """Whether a counter of another side than `side` stands on `cell`."""
        return any(self._sides[r] != side for r in self._by_cell.get((cell.lon, cell.lat), ()))

    @cached_property
    def _occupancy(self) -> np.ndarray:
        w, h = terrain.size(self.theatre)
        occ = np.zeros((w, h), dtype=np.int16)
        cells = [
            c for c, refs in self._by_cell.items() for _ in refs if 0 < c[0] <= w and 0 < c[1] <= h
        ]
        if cells:
            np.add.at(
                occ, (np.array([c[0] - 1 for c in cells]), np.array([c[1] - 1 for c in cells])), 1
            )
        occ.setflags(write=False)
        return occ

    def side_mask(self, side: str) -> np.ndarray:
        """Cells with a counter of `side` (a fresh array)."""
        return self._side_masks.get(side, np.zeros(terrain.size(self.theatre), dtype=bool)).copy()

    @cached_property
    def _side_masks(self) -> dict[str, np.ndarray]:
        w, h = terrain.size(self.theatre)
        out: dict[str, np.ndarray] = {}
        for (lon, lat), refs in self._by_cell.items():
            if not (0 < lon <= w and 0 < lat <= h):
                continue
            for r in refs:
                side = self._sides[r]
                if side not in out:
                    out[side] = np.zeros((w, h), dtype=bool)
                out[side][lon - 1, lat - 1] = True
        return out

    def enemy_mask(self, side: str) -> np.ndarray:
        """Cells with a counter of any other side."""
        w, h = terrain.size(self.theatre)
        out = np.zeros((w, h), dtype=bool)
        for s, mask in self._side_masks.items():
            if s != side:
                out |= mask
        return out

    def closed(self, cell: Cell, what: str) -> bool:
        return any(
            c.cell == cell and c.what == what and c.until_turn >= self.turn for c in self.closures
        )

    def __iter__(self) -> Iterator[UnitState]:
        return iter(self.units.values())

    # --- the context the notation checks orders against ---------------------------------------

    @property
    def width(self) -> int:
        return self.scenario.width

    @property
    def height(self) -> int:
        return self.scenario.height

    @property
    def known_units(self) -> KnownUnits:
        """The units on the map and the corps they belong to."""
        return KnownUnits(self.units, self._corps)


_FIELD_NAMES = tuple(f.name for f in fields(GameState))
_FIELDS = frozenset(_FIELD_NAMES)
_UNIT_FIELDS = tuple(f.name for f in fields(UnitState))


def _members(
    corps: Layered[UnitRef, int], gone: list[UnitState], came: list[UnitState]
) -> Layered[UnitRef, int]:
    """`corps` (each corps' number of members) after `gone` left and `came` arrived."""
    change: dict[UnitRef, int] = {}
    for u, d in [(u, -1) for u in gone] + [(u, 1) for u in came]:
        if u.corps is not None:
            change[u.corps] = change.get(u.corps, 0) + d
    change = {c: corps.get(c, 0) + d for c, d in change.items() if d}
    if not change:
        return corps
    return corps.updated(
        [(c, n) for c, n in change.items() if n > 0], [c for c, n in change.items() if n <= 0]
    )


_UNIT_INDEXES = ("_by_cell", "_sides", "_occupancy", "_side_masks", "_corps")  # kept by evolve()


def initial_state(
    scenario: Scenario, level: int | None = None, rules: RuleSet | None = None
) -> GameState:
    """The state on mobilisation day: every deployed division that takes part at the level
    (3.6) on its cells (6.1)."""
    level = level or scenario.settings.level
    rules = rules or scenario.rules(level)
    divisions = scenario.divisions(rules)
    units: dict[UnitRef, UnitState] = {}
    for f in scenario.forces:
        corps_of = {d: c.ref for c in f.corps for d in c.divisions}
        for p in f.deployment:
            members = f.divisions_of(p.unit)
            cells = _spread(p.cells, len(members))
            for ref, footprint in zip(members, cells, strict=True):
                if out_of_play(ref, f.state, scenario, rules) is not None:
                    continue
                facing = p.facing or scenario.default_facing(f.state, footprint[0])
                units[ref] = UnitState(
                    ref=ref,
                    owner=f.state,
                    division=divisions[ref][1],
                    cells=footprint,
                    facing=facing,
                    formation=p.formation or Formation.LINEAR,
                    regiments=p.regiments or RegimentsFacing.ENEMY,
                    corps=corps_of.get(ref),
                )
    return GameState(scenario=scenario, level=level, units=Layered(units))


def _spread(cells: tuple[Cell, ...], n: int) -> list[tuple[Cell, ...]]:
    """The footprints of `n` divisions spread evenly along the line between one or two cells."""
    if len(cells) == 1 or n == 0:
        return [cells] * n if n <= 1 else [(cells[0],)] * n
    a, b = cells
    d_lon, d_lat = a.offset(b)
    span = max(abs(d_lon), abs(d_lat))
    step = (int(np.sign(d_lon)), int(np.sign(d_lat)))
    line = [Cell(a.lon + k * step[0], a.lat + k * step[1]) for k in range(span + 1)]
    if n == 1:
        return [(line[0], line[-1])] if span == 1 else [(line[0],)]
    out: list[tuple[Cell, ...]] = []
    for i in range(n):
        lo = i * len(line) // n
        hi = (i + 1) * len(line) // n
        seg = line[lo:hi] or [line[min(lo, len(line) - 1)]]
        out.append(tuple(seg[:2]))
    return out


def where(u: UnitState) -> Text:
    """Where a unit stands, in the journal's notation (`17 с.д. - 45,24 фронтом на север`): a 1x2
    counter along the grid by both cells, else by its head."""
    cells = (
        u.cells
        if len(u.cells) == 2
        and (u.cells[0].lon == u.cells[1].lon or u.cells[0].lat == u.cells[1].lat)
        else u.cells[:1]
    )
    p = Placement(u.ref, cells, u.facing)
    return Text(p.format("en"), p.format("ru"))
