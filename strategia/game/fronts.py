"""The front's sectors, for the course of the war (issue 28): where the front runs, cut into
bands, and each side's forces in each.

The seeds do not define front sectors, nor does the scenario format (its fronts, 5.7, are
army groups, not ground), so they are reconstructed from the map alone, the same for every
game of a scenario and known to every side (each holds the map):

- The front line: the cells of the belligerents' states (every side's but Green's, the
  neutrals, 1.2) with a cell of another belligerent's state among their eight neighbours, both
  sides of the border. On the default map it runs north-south along longitudes 30-31.
- Its axis: the one along which those cells spread most (latitude on the default map); a
  cell's position along the front is its latitude (or longitude).
- The sectors: the positions from the front line's first to its last, cut into `SECTORS`
  equal bands, numbered from 1 (the lowest positions: south, or west); each is written with
  its positions, «1 (16-23)».
- A unit is in a sector when its leading cell lies within `DEPTH` cells (chessboard) of the
  front line and its position along the front falls in the band (6 cells, 60 km: the depth the
  computer player counts a sector's forces in, `players.plan.BAND`).
- A side's forces in a sector are those units' level-1 ratings times strength (9.6, as
  `scoring.strength_of` counts them); its enemy there, every other belligerent and any side at
  war with it (9.1): a Green is on the front only once at war.

`force_ratio` is a side's forces in a sector over its enemy's (NaN where the enemy has none).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
from scipy import ndimage

from strategia.core.geometry import Cell
from strategia.engine.state import GameState
from strategia.game.scoring import enemies_at_war
from strategia.rules import RuleSet
from strategia.theatre.scenario import Scenario

SECTORS = 3  # bands along the front (reconstructed: one an army of 4-10 divisions, 5.6)
DEPTH = 6  # cells either side of the front line a sector's forces are counted in
NEUTRAL = "green"

__all__ = [
    "DEPTH", "SECTORS", "Front", "Sector", "enemies", "forces", "front_of", "on_front", "ratio",
]  # fmt: skip


@dataclass(frozen=True)
class Sector:
    """One band of the front: positions `lo`..`hi` along its axis."""

    number: int
    lo: int
    hi: int

    @property
    def label(self) -> str:
        return f"{self.number} ({self.lo}-{self.hi})"


@dataclass(frozen=True)
class Front:
    """The front of a scenario (see the module): its axis, its sectors, and each cell's
    distance in cells from the front line, (lon, lat) as the theatre's arrays."""

    axis: str  # "lat": positions are latitudes (the front runs north-south), or "lon"
    sectors: tuple[Sector, ...]
    distance: np.ndarray

    def along(self, c: Cell) -> int:
        return c.lat if self.axis == "lat" else c.lon

    def sector_of(self, c: Cell) -> int | None:
        """The index (from 0) of the sector a unit whose leading cell is `c` is in, if any."""
        w, h = self.distance.shape
        if not (0 < c.lon <= w and 0 < c.lat <= h) or self.distance[c.lon - 1, c.lat - 1] > DEPTH:
            return None
        a = self.along(c)
        return next((k for k, s in enumerate(self.sectors) if s.lo <= a <= s.hi), None)


def front_of(sc: Scenario) -> Front:
    """The scenario's front (see the module); no sectors if no two belligerents border."""
    ds = sc.theatre
    grid = np.asarray(ds["state"].values)
    side_of = {k + 1: s.side for k, s in enumerate(sc.states)}
    line = np.zeros(grid.shape, dtype=bool)
    for k, side in side_of.items():
        if side == NEUTRAL:
            continue
        others = [o for o, s in side_of.items() if s not in (side, NEUTRAL)]
        near = ndimage.binary_dilation(np.isin(grid, others), structure=np.ones((3, 3), bool))
        line |= (grid == k) & near
    if not line.any():
        return Front("lat", (), np.full(grid.shape, np.iinfo(np.int32).max))
    distance = ndimage.distance_transform_cdt(~line, metric="chessboard")
    ii, jj = np.nonzero(line)
    axis = "lon" if np.ptp(ii) > np.ptp(jj) else "lat"
    positions = (ii if axis == "lon" else jj) + 1
    lo, hi = int(positions.min()), int(positions.max())
    width = (hi - lo + 1) / SECTORS
    sectors = tuple(
        Sector(
            n + 1,
            lo + round(n * width),
            lo + round((n + 1) * width) - 1 if n < SECTORS - 1 else hi,
        )
        for n in range(SECTORS)
    )
    return Front(axis, sectors, np.asarray(distance))


def enemies(state: GameState, side: str) -> set[str]:
    """A side's enemy on the front: every other belligerent, and any side at war with it."""
    sides = {s.side for s in state.scenario.states}
    others = set() if side == NEUTRAL else sides - {side, NEUTRAL}
    return others | set(enemies_at_war(state, side))


def forces(
    front: Front, units: Iterable[tuple[str, str, Cell, float]], rules: RuleSet, sides: list[str]
) -> np.ndarray:
    """Forces by side and sector, (side, sector), of units given as (side, division kind's
    key, leading cell, strength): level-1 rating times strength (9.6)."""
    out = np.zeros((len(sides), len(front.sectors)))
    for side, kind, cell, strength in units:
        k = front.sector_of(cell)
        if k is None or side not in sides:
            continue
        rating = float(rules.param("initial_ratings", kind, "rating").value)
        out[sides.index(side), k] += rating * strength
    return out.round(6)


def on_front(state: GameState) -> list[tuple[str, str, Cell, float]]:
    """Every unit on the map as `forces` takes it: its side, kind, leading cell and strength."""
    return [
        (state.side_of(u.ref), u.division.kind.key, u.cell, u.division.strength)
        for u in state.units.values()
    ]


def ratio(own: float, enemy: float) -> float:
    """Own forces over the enemy's, NaN where the enemy has none."""
    return round(own / enemy, 6) if enemy > 0 else float("nan")
