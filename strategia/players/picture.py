"""What one side knows of the enemy, and remembers: its picture of the war.

Built each move from what the side receives through its channel, and from the player's own
memory of earlier moves:

- the enemy counters its view shows now (`SideView.seen`): in full (in sight of its troops, in
  an open sector: designation, kind, facing), or by position only (covering forces, a closed
  front: taken as a с.д., the kind a covering force most often is);
- the enemy counters seen before, kept where they were last seen for `memory_turns` turns,
  unless the ground is now in sight and empty of them, or the same unit is seen elsewhere;
- the answers to its own questions (8.3): the kinds of troops in a cell, how many divisions
  in a block of cells;
- its own units the enemy attacked this turn (its journal's battles: they cannot support, 9.8c).

Nothing else: not the enemy's strengths (every enemy division is taken at full strength), not
whether an answer was true.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np
from scipy import ndimage

from strategia.core.geometry import Cell, Direction
from strategia.engine.state import UnitState
from strategia.game.views import SideView
from strategia.notation.refs import UnitRef
from strategia.players.ground import Ground
from strategia.rules.kinds import DivisionKind, Formation

_SQUARE = np.ones((3, 3), dtype=bool)
_CELL = re.compile(r"(\d+)\s*,\s*(\d+)")
_COUNT = re.compile(r"(\d+)\s+division")
_KINDS = re.compile(r"(\d+)\s+([^\s,]+)")
COUNT_Q = ("сколько дивизий в ", "?")
KIND_Q = ("какие войска в ", "?")


@dataclass(frozen=True, slots=True)
class Known:
    """An enemy counter as the side knows of it: where, of what kind (taken as с.д. when not
    known), how it is known ("contact", "open", "cover", "memory", "answer") and since when."""

    cells: tuple[Cell, ...]
    kind: DivisionKind
    owner: str  # the state code it is taken to be of
    side: str
    how: str
    turn: int
    ref: UnitRef | None = None
    facing: Direction | None = None
    formation: Formation | None = None
    kind_known: bool = False

    @property
    def cell(self) -> Cell:
        return self.cells[0]


@dataclass(frozen=True, slots=True)
class Count:
    """An answer to «сколько дивизий в ...?»: `n` divisions in `cells`, on `turn`."""

    cells: tuple[Cell, ...]
    n: int
    turn: int


@dataclass(frozen=True)
class Picture:
    """The side's picture of the war this move."""

    turn: int
    own: tuple[UnitState, ...]
    enemies: tuple[Known, ...]
    counts: tuple[Count, ...]
    engaged: frozenset[UnitRef]  # own units attacked this turn
    struck: frozenset[UnitRef]  # own units hit by the enemy's artillery since its last move
    visible: np.ndarray  # (w, h) bool: ground the side sees (its own, open sectors, contact)
    at_war: bool
    came_from: Mapping[UnitRef, Cell] = field(default_factory=dict)  # own units' last moves

    def enemies_at(self, c: Cell) -> list[Known]:
        return self.by_cell.get(c, [])

    @cached_property
    def by_cell(self) -> dict[Cell, list[Known]]:
        """The enemies known of, by each cell they stand on."""
        out: dict[Cell, list[Known]] = {}
        for k in self.enemies:
            for c in k.cells:
                out.setdefault(c, []).append(k)
        return out

    @cached_property
    def near_enemy(self) -> frozenset[Cell]:
        """The cells on or beside an enemy known of."""
        return frozenset(
            Cell(c.lon + dx, c.lat + dy)
            for c in self.by_cell
            for dx in (-1, 0, 1)
            for dy in (-1, 0, 1)
        )

    def beside(self, cells: Iterable[Cell]) -> list[Known]:
        """The enemies known of on any of `cells` or beside one, each once."""
        out: dict[int, Known] = {}
        for c in cells:
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    for k in self.by_cell.get(Cell(c.lon + dx, c.lat + dy), ()):
                        out.setdefault(id(k), k)
        return list(out.values())


def read_picture(
    view: SideView,
    told: Sequence[Mapping[str, Any]],
    answers: Sequence[Mapping[str, Any]],
    ground: Ground,
    memory: Iterable[Known],
    memory_turns: int,
) -> Picture:
    """The picture of this move (see the module)."""
    turn = view.turn
    sides = dict(view.sides)
    visible = ground.own.copy()
    w, h = ground.size
    for c in view.observed:
        visible[c.lon - 1, c.lat - 1] = True
    mine = np.zeros((w, h), dtype=bool)
    for u in view.units:
        for c in u.cells:
            if ground.on_map(c):
                mine[c.lon - 1, c.lat - 1] = True
    visible |= ndimage.binary_dilation(mine, _SQUARE)
    now = [_known(s, sides, ground, turn) for s in view.seen]
    refs = {k.ref for k in now if k.ref is not None}
    held = {c for k in now for c in k.cells}
    kept = [
        k
        for k in memory
        if turn - k.turn <= memory_turns
        and (k.ref is None or k.ref not in refs)
        and not any(c in held for c in k.cells)
        and not any(ground.at(visible, c) for c in k.cells)
    ]
    kept = [k if k.how in ("memory", "answer") else _remembered(k) for k in kept]
    asked, counts = _answers(answers, sides, ground, turn, memory_turns)
    kept += [k for k in asked if not ground.at(visible, k.cell) and k.cell not in held]
    enemies = _dedupe(now + kept)
    return Picture(
        turn,
        view.units,
        tuple(enemies),
        tuple(counts),
        _engaged(told, view),
        _struck(told, view),
        visible,
        view.at_war,
    )


def _known(s: Any, sides: Mapping[str, str], ground: Ground, turn: int) -> Known:
    kind = s.kind if isinstance(s.kind, DivisionKind) else None
    if kind is None and s.unit is not None and isinstance(s.unit.kind, DivisionKind):
        kind = s.unit.kind
    owner = s.owner or _owner(s.cells[0], s.side, sides, ground)
    return Known(
        tuple(s.cells),
        kind or DivisionKind.RIFLE,
        owner,
        s.side,
        s.how,
        turn,
        s.unit,
        s.facing,
        s.formation,
        kind is not None,
    )


def _remembered(k: Known) -> Known:
    return Known(
        k.cells,
        k.kind,
        k.owner,
        k.side,
        "memory",
        k.turn,
        k.ref,
        k.facing,
        k.formation,
        k.kind_known,
    )


def _owner(c: Cell, side: str, sides: Mapping[str, str], ground: Ground) -> str:
    """The state a counter known by its position is taken to be of: the one whose ground it
    stands on, if that state is of its side; else the side's first state."""
    codes = [code for code, s in sides.items() if s == side]
    return codes[0] if codes else next(iter(sides))


def _dedupe(items: list[Known]) -> list[Known]:
    out: dict[Any, Known] = {}
    for k in items:
        key = k.ref if k.ref is not None else (k.cells, k.kind, k.how)
        out.setdefault(key, k)
    return sorted(out.values(), key=lambda k: (k.cells, k.kind.key, str(k.ref)))


def _answers(
    answers: Sequence[Mapping[str, Any]],
    sides: Mapping[str, str],
    ground: Ground,
    turn: int,
    memory_turns: int,
) -> tuple[list[Known], list[Count]]:
    """What the side's own questions told it, while fresh: kinds in a cell, counts in blocks."""
    known: list[Known] = []
    counts: list[Count] = []
    enemy_side = next((s for c, s in sides.items() if c in ground.enemy_codes), "")
    owner = ground.enemy_codes[0] if ground.enemy_codes else ""
    for a in answers:
        asked = int(a.get("turn", 0))
        if turn - asked > memory_turns:
            continue
        q = str(a.get("question", ""))
        text = _english(a.get("answer"))
        cells = tuple(Cell(int(x), int(y)) for x, y in _CELL.findall(q))
        if q.startswith(COUNT_Q[0]) and cells:
            m = _COUNT.search(text)
            counts.append(Count(cells, int(m[1]) if m else 0, asked))
        elif q.startswith(KIND_Q[0]) and len(cells) == 1 and owner:
            for n, name in _KINDS.findall(text):
                try:
                    kind = DivisionKind.parse(name)
                except ValueError:
                    continue
                known += [
                    Known(cells, kind, owner, enemy_side, "answer", asked, kind_known=True)
                ] * int(n)
    return known, counts


def _english(answer: Any) -> str:
    if isinstance(answer, Mapping):
        return str(answer.get("en", ""))
    return str(answer or "")


def _engaged(told: Sequence[Mapping[str, Any]], view: SideView) -> frozenset[UnitRef]:
    """The side's units an enemy blow fell on this turn (9.8c: they support no one)."""
    own = {str(u.ref): u.ref for u in view.units}
    out: set[UnitRef] = set()
    for d in told:
        battle = d.get("battle")
        if d.get("turn") != view.turn or not isinstance(battle, Mapping):
            continue
        if battle.get("defender") != view.side or battle.get("outcome") == "strike":
            continue
        for u in battle.get("units", ()):
            if u.get("role") == "defender" and u.get("unit") in own:
                out.add(own[u["unit"]])
    return frozenset(out)


def _struck(told: Sequence[Mapping[str, Any]], view: SideView) -> frozenset[UnitRef]:
    """The side's units the enemy's artillery hit this turn or the last (9.7)."""
    own = {str(u.ref): u.ref for u in view.units}
    out: set[UnitRef] = set()
    for d in told:
        battle = d.get("battle")
        if not isinstance(battle, Mapping) or battle.get("outcome") != "strike":
            continue
        if int(d.get("turn", 0)) < view.turn - 1 or battle.get("attacker") == view.side:
            continue
        out |= {own[u["unit"]] for u in battle.get("units", ()) if u.get("unit") in own}
    return frozenset(out)


__all__ = ["COUNT_Q", "KIND_Q", "Count", "Known", "Picture", "read_picture"]
