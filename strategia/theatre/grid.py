"""One theatre's layers at one level as plain numpy arrays, derived once and kept (the engine's
view of the map: no xarray lookups in its inner loops).

A theatre is not changed once built, so `grid(ds, level)` is cached by the dataset's identity.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
import xarray as xr

from strategia.core.geometry import Cell
from strategia.theatre import terrain
from strategia.theatre.terrain import Relief


@dataclass(frozen=True, eq=False)
class Grid:
    """The layers the engine reads, indexed [i, j] = (lon - 1, lat - 1)."""

    ds: xr.Dataset
    level: int

    @property
    def shape(self) -> tuple[int, int]:
        return terrain.size(self.ds)

    def on_map(self, cell: Cell) -> bool:
        w, h = self.shape
        return 0 < cell.lon <= w and 0 < cell.lat <= h

    @cached_property
    def relief(self) -> np.ndarray:
        """The relief as the rules at this level see it (level-2 kinds plain below it)."""
        return terrain.relief_at_level(self.ds, self.level)

    def relief_at(self, cell: Cell) -> Relief:
        return Relief(int(self.relief[cell.lon - 1, cell.lat - 1]))

    @cached_property
    def road(self) -> np.ndarray:
        return np.asarray(self.ds["road"].values > 0)

    @cached_property
    def trail(self) -> np.ndarray:
        return np.asarray(self.ds["trail"].values > 0)

    @cached_property
    def settlement(self) -> np.ndarray:
        return np.asarray(self.ds["settlement"].values)

    @cached_property
    def fortress(self) -> np.ndarray:
        return np.asarray(self.ds["fortress"].values, dtype=bool)

    @cached_property
    def state(self) -> np.ndarray:
        return np.asarray(self.ds["state"].values)

    @cached_property
    def crossings(self) -> np.ndarray:
        """[k, i, j]: the step from (i, j) in direction k crosses a river."""
        return terrain.river_crossings(self.ds)

    @cached_property
    def bridges(self) -> np.ndarray:
        """[i, j]: a bridge's end."""
        return np.asarray(terrain.bridges(self.ds).any(axis=0))

    @cached_property
    def passes(self) -> np.ndarray:
        return terrain.passes(self.ds)

    @cached_property
    def narrows(self) -> np.ndarray:
        return terrain.narrows(self.ds)


_GRIDS: dict[tuple[int, int], Grid] = {}


def grid(ds: xr.Dataset, level: int) -> Grid:
    """The cached grid of `ds` at `level`."""
    key = (id(ds), level)
    hit = _GRIDS.get(key)
    if hit is not None and hit.ds is ds:
        return hit
    if len(_GRIDS) > 64:
        _GRIDS.clear()
    g = _GRIDS[key] = Grid(ds, level)
    return g
