"""Cells, compass directions and distances on the grid (2.1).

A cell is written longitude first, then latitude (`45,22`; the seeds also write `13-17`).
Longitude grows eastward and latitude northward, both from 1. Moves go to any of the eight
neighbours.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from strategia.core.cursor import Cursor
from strategia.core.i18n import Lang
from strategia.core.vocab import Kind


class Direction(Kind):
    """The eight compass directions a division can face or move in (4.3: turns of 45/90/180°)."""

    N = ("N", "север", "N", "north", "с")
    NE = ("NE", "северо-восток", "NE", "north-east", "northeast", "св")
    E = ("E", "восток", "E", "east", "в")
    SE = ("SE", "юго-восток", "SE", "south-east", "southeast", "юв")
    S = ("S", "юг", "S", "south", "ю")
    SW = ("SW", "юго-запад", "SW", "south-west", "southwest", "юз")
    W = ("W", "запад", "W", "west", "з")
    NW = ("NW", "северо-запад", "NW", "north-west", "northwest", "сз")

    @classmethod
    def what(cls) -> str:
        return "direction"

    def case(self, case: str = "nom") -> str:
        """The Russian name in a case: «nom» (and «acc»: на восток), «gen» (с востока), «dat»
        (к востоку), «prep» (на востоке)."""
        if case in ("nom", "acc"):
            return self.ru
        return _CASES[self.key][("gen", "dat", "prep").index(case)]

    def word(self, lang: Lang = "ru", case: str = "nom") -> str:
        """The name in `lang`, in a Russian case (English has one form): с запада / from W."""
        return self.case(case) if lang == "ru" else self.en

    @property
    def index(self) -> int:
        """0 for north, counting clockwise in steps of 45°."""
        return _INDEX[self]

    @property
    def degrees(self) -> int:
        """Compass bearing: 0 north, 90 east."""
        return 45 * self.index

    @property
    def delta(self) -> tuple[int, int]:
        """The step (d_lon, d_lat) to the neighbour in this direction."""
        return _DELTAS[self.index]

    def turned(self, steps: int) -> Direction:
        """This direction turned clockwise by `steps` × 45°."""
        return _ORDER[(self.index + steps) % 8]

    @classmethod
    def from_delta(cls, d_lon: int, d_lat: int) -> Direction:
        """The direction nearest to the vector (d_lon, d_lat)."""
        step = _STEPS.get((d_lon, d_lat))  # a step to a neighbouring cell, looked up
        return step if step is not None else _nearest(d_lon, d_lat)


# The Russian names' genitive, dative and prepositional: с севера, к северу, на севере.
_CASES = {
    key: tuple(f"{stem}{end}" for end in ("а", "у", "е"))
    for key, stem in (("N", "север"), ("NE", "северо-восток"), ("E", "восток"),
                      ("SE", "юго-восток"), ("S", "юг"), ("SW", "юго-запад"), ("W", "запад"),
                      ("NW", "северо-запад"))
}  # fmt: skip
_DELTAS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
_ORDER = tuple(Direction)
_INDEX = {d: i for i, d in enumerate(_ORDER)}


def _nearest(d_lon: int, d_lat: int) -> Direction:
    if d_lon == 0 and d_lat == 0:
        raise ValueError("no direction for a zero step")
    bearing = math.degrees(math.atan2(d_lon, d_lat)) % 360
    return _ORDER[round(bearing / 45) % 8]


_STEPS = {(dx, dy): _nearest(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy}


@dataclass(frozen=True, slots=True, order=True)
class Cell:
    """A 10 x 10 km square of the map: `lon` (west to east) and `lat` (south to north), from 1.

    `sep` is how it was written (`,` or `-`); it is kept for formatting and ignored by equality.
    """

    lon: int
    lat: int
    sep: str = field(default=",", compare=False, hash=False)

    def __str__(self) -> str:
        return f"{self.lon}{self.sep}{self.lat}"

    def __repr__(self) -> str:
        return f"Cell.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Cell:
        """A cell from `45,22` or `45-22`; a notation error otherwise (`strategia.notation`'s
        `parse_cell` also checks it against a map)."""
        cursor = Cursor(text)
        lon, lat, sep, _, _ = cursor.cell_parts()
        cursor.expect_end("cell")
        return cls(lon, lat, sep)

    def step(self, direction: Direction, n: int = 1) -> Cell:
        d_lon, d_lat = direction.delta
        return Cell(self.lon + n * d_lon, self.lat + n * d_lat, self.sep)

    def offset(self, other: Cell) -> tuple[int, int]:
        """(d_lon, d_lat) from this cell to `other`."""
        return other.lon - self.lon, other.lat - self.lat

    def chebyshev(self, other: Cell) -> int:
        """Moves between the cells when diagonal moves count as one."""
        d_lon, d_lat = self.offset(other)
        return max(abs(d_lon), abs(d_lat))

    def km(self, other: Cell, cell_km: float = 10.0) -> float:
        """Euclidean distance between cell centres in km."""
        d_lon, d_lat = self.offset(other)
        return math.hypot(d_lon, d_lat) * cell_km


def round_to(value: float, step: float) -> float:
    """`value` rounded to the nearest multiple of `step` (halves away from zero)."""
    return math.floor(value / step + 0.5) * step
