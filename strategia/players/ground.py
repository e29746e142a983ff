"""The ground as one side's commanders read the map (2.x, 5.4): its own states, the enemy's
and the neutrals', the border between them, how far every cell is from each, the line the
front runs along and its cities. Computed once from the map alone (the side's `scenario()`).

Reconstructed readings (the seeds leave the commander's map-reading to the player):

- The enemy of Red and Blue is the other of them; a Green neutral's ground is never entered
  (entering it begins a war with it, 9.1). The enemy of a Green is whoever it is at war with,
  seen in its view; it never leaves its own ground.
- The border line: the side's own cells with an enemy cell among their eight neighbours. The
  front runs along the axis on which those cells spread most (north-south on the default map).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import ndimage

from strategia.core.geometry import Cell
from strategia.theatre import terrain
from strategia.theatre.scenario import Scenario
from strategia.theatre.terrain import Relief

_SQUARE = np.ones((3, 3), dtype=bool)
FAR = 10_000


@dataclass(frozen=True)
class Ground:
    """One side's reading of the map (see the module)."""

    side: str
    own_codes: tuple[str, ...]
    enemy_codes: tuple[str, ...]
    own: np.ndarray  # (w, h) bool: the side's own ground
    enemy: np.ndarray  # the enemy's ground
    land: np.ndarray  # not water
    to_enemy: np.ndarray  # (w, h) int: chessboard cells to the enemy's ground (FAR: none)
    to_own: np.ndarray  # chessboard cells to the side's own ground
    border: tuple[Cell, ...]  # own cells beside the enemy's ground, along the axis
    facing: tuple[Cell, ...]  # the enemy's cells beside the side's own ground
    axis: int  # 0: the front runs along longitudes (west-east), 1: along latitudes
    cities: tuple[Cell, ...]  # the side's own cities and capitals
    size: tuple[int, int]
    objectives: tuple[tuple[Cell, int], ...] = ()  # the enemy's cities (1) and capitals (2)

    def along(self, c: Cell) -> int:
        """A cell's place along the front."""
        return c.lon if self.axis == 0 else c.lat

    def across(self, c: Cell) -> int:
        return c.lat if self.axis == 0 else c.lon

    def at(self, mask: np.ndarray, c: Cell) -> bool:
        w, h = self.size
        return 0 < c.lon <= w and 0 < c.lat <= h and bool(mask[c.lon - 1, c.lat - 1])

    def depth(self, c: Cell) -> int:
        """Cells from the enemy's ground (0 on it)."""
        return int(self.to_enemy[c.lon - 1, c.lat - 1])

    def on_map(self, c: Cell) -> bool:
        w, h = self.size
        return 0 < c.lon <= w and 0 < c.lat <= h


def read_ground(sc: Scenario, side: str, enemy_sides: tuple[str, ...] = ()) -> Ground:
    """The side's reading of the map; `enemy_sides` the sides it is at war with beyond the
    rule's own (a Green's, once attacked)."""
    ds = sc.theatre
    states = sc.states
    own_codes = tuple(s.code for s in states if s.side == side)
    if side == "green":
        enemy_codes = tuple(s.code for s in states if s.side in enemy_sides)
    else:
        enemy_codes = tuple(s.code for s in states if s.side not in (side, "green"))
    grid = ds["state"].values
    codes = [s.code for s in states]
    own = np.isin(grid, [codes.index(c) + 1 for c in own_codes])
    enemy = np.isin(grid, [codes.index(c) + 1 for c in enemy_codes])
    land = ds["relief"].values != Relief.WATER
    to_enemy = _distance(enemy)
    to_own = _distance(own)
    touch = ndimage.binary_dilation(enemy, _SQUARE) & own & land
    ii, jj = np.nonzero(touch)
    spread = (np.ptp(ii) if len(ii) else 0, np.ptp(jj) if len(jj) else 0)
    axis = 0 if spread[0] > spread[1] else 1
    border = sorted(
        (Cell(int(i) + 1, int(j) + 1) for i, j in zip(ii, jj, strict=True)),
        key=lambda c: (c.lon, c.lat) if axis == 0 else (c.lat, c.lon),
    )
    theirs = ndimage.binary_dilation(own, _SQUARE) & enemy & land
    facing = tuple(Cell(int(i) + 1, int(j) + 1) for i, j in np.argwhere(theirs))
    settled = ds["settlement"].values > 0
    cities = tuple(Cell(int(i) + 1, int(j) + 1) for i, j in np.argwhere(settled & own))
    return Ground(
        side,
        own_codes,
        enemy_codes,
        own,
        enemy,
        land,
        to_enemy,
        to_own,
        tuple(border),
        facing,
        axis,
        cities,
        terrain.size(ds),
        tuple(
            (Cell(int(i) + 1, int(j) + 1), int(ds["settlement"].values[i, j]))
            for i, j in np.argwhere(settled & enemy)
        ),
    )


def _distance(mask: np.ndarray) -> np.ndarray:
    if not mask.any():
        return np.full(mask.shape, FAR, dtype=np.int32)
    return np.asarray(ndimage.distance_transform_cdt(~mask, metric="chessboard"), dtype=np.int32)


__all__ = ["FAR", "Ground", "read_ground"]
