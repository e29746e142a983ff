"""A left-right mirrored random scenario, for fair trials of two players against each other: the
western half of a random theatre (`generate_terrain.random_theatre`) and its mirror image as the
eastern half, Blue west of the middle and Red east of it, each fielding the same order of
battle deployed as the other's mirror image.

    >>> sc = mirrored_scenario(64, 44, seed=3, divisions_per_side=30)

The border runs along the grid line in the middle. Routes are mirrored with their directions
(east for west), rivers on the cells' east edges move to the mirrored cell's west, that is the
east edge of the cell beside it; a route or a river on the middle line is its own mirror.
Places in the west are copied to the east with «Ново-» before their names.
"""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import xarray as xr
from scipy import ndimage

from strategia.core.errors import StrategiaError
from strategia.core.geometry import Cell, Direction
from strategia.notation.refs import Placement, UnitRef
from strategia.theatre import terrain
from strategia.theatre.builder import BuildError
from strategia.theatre.generate import _deploy, _order_of_battle, numbering_stride
from strategia.theatre.generate_terrain import DEPLOYABLE, random_theatre
from strategia.theatre.scenario import CorpsSetup, Forces, Scenario, Settings, check_scenario

# a route's direction bits mirrored east for west: N, NE, E, SE, S, SW, W, NW -> N, NW, W, ...
_MIRROR_BIT = [0, 7, 6, 5, 4, 3, 2, 1]


def _mirror_bits(a: np.ndarray) -> np.ndarray:
    out = np.zeros_like(a)
    for bit, to in enumerate(_MIRROR_BIT):
        out |= ((a >> bit) & 1).astype(a.dtype) << to
    return out


def mirrored_theatre(width: int, height: int, *, seed: int, rivers: int = 4) -> xr.Dataset:
    """The theatre: a random one's western half and its mirror image (`width` even)."""
    if width % 2:
        raise StrategiaError(f"a mirrored theatre needs an even width, not {width}")
    ds = random_theatre(width, height, seed=seed, rivers=rivers, states=2)
    half = width // 2
    west = slice(0, half)
    for name in ("relief", "settlement", "fortress", "river_n"):
        v = ds[name].values
        v[half:] = v[west][::-1]
    for name in terrain.ROUTES:
        v = ds[name].values
        v[half:] = _mirror_bits(v[west][::-1])
    e = ds["river_e"].values
    e[half:-1] = e[: half - 1][::-1]
    e[-1] = False
    st = ds["state"].values
    land = ds["relief"].values != terrain.Relief.WATER
    st[:] = 0
    st[:half][land[:half]] = 2  # Blue west (the second state), Red east
    st[half:][land[half:]] = 1
    _symmetric_crossings(ds)
    places = [p for p in json.loads(ds.attrs["places"]) if p["lon"] <= half]
    for p in list(places):
        places.append({**p, "lon": width + 1 - p["lon"], "name": _east_name(p["name"])})
    ds.attrs["places"] = json.dumps(places, ensure_ascii=False)
    return terrain.validate(ds, f"mirrored theatre {seed}")


def _east_name(name: str) -> str:
    prefix = "Крепость "
    if name.startswith(prefix):
        return prefix + _east_name(name[len(prefix) :])
    return "Ново" + name[:1].lower() + name[1:]


def _symmetric_crossings(ds: xr.Dataset) -> None:
    """Every route step across the middle line, joined at both ends, with its mirror image."""
    w = int(ds.sizes["lon"])
    half = w // 2
    for name in terrain.ROUTES:
        v = ds[name].values
        a, b = half - 1, half  # the columns either side of the middle
        steps = {(Direction.E, 0), (Direction.NE, 1), (Direction.SE, -1)}
        links: set[tuple[int, int]] = set()  # (lat of the west end, lat of the east end)
        for d, dy in steps:
            for j in range(v.shape[1]):
                k = j + dy
                if not 0 <= k < v.shape[1]:
                    continue
                if v[a, j] >> d.index & 1 or v[b, k] >> d.turned(4).index & 1:
                    links.add((j, k))
        links |= {(k, j) for j, k in links}  # the mirror image of a link from j to k
        land = ds["relief"].values[a] != terrain.Relief.WATER  # the same either side
        links = {(j, k) for j, k in links if land[j] and land[k]}
        for d, _ in steps:
            for j in range(v.shape[1]):
                v[a, j] &= ~np.uint8(1 << d.index)
                v[b, j] &= ~np.uint8(1 << d.turned(4).index)
        for j, k in links:
            d = Direction.from_delta(1, k - j)
            v[a, j] |= np.uint8(1 << d.index)
            v[b, k] |= np.uint8(1 << d.turned(4).index)


def mirrored_scenario(
    width: int, height: int, *, seed: int, divisions_per_side: int, level: int = 2
) -> Scenario:
    """A mirrored theatre (`mirrored_theatre`) with the same order of battle on both sides:
    Blue's deployed at random in the west as `generate.random_scenario` deploys, Red's the
    mirror image of it (Red numbered from 1, Blue from the stride, as there)."""
    ds = mirrored_theatre(width, height, seed=seed)
    stride = numbering_stride(divisions_per_side, 2)
    rng = np.random.default_rng([seed, 1])
    st = ds["state"].values
    good = np.isin(ds["relief"].values, DEPLOYABLE) & (ds["settlement"].values == 0)
    corps, slots = _order_of_battle(divisions_per_side, stride)
    dist = ndimage.distance_transform_edt(st != 1)
    blue = _deploy(rng, good & (st == 2), dist, slots, Direction.E)
    red = [
        Placement(
            _renumbered(p.unit, stride),
            tuple(Cell(width + 1 - c.lon, c.lat) for c in p.cells),
            Direction.W,
        )
        for p in blue
    ]
    red_corps = tuple(
        CorpsSetup(_renumbered(c.ref, stride), tuple(_renumbered(d, stride) for d in c.divisions))
        for c in corps
    )
    codes = [s.code for s in terrain.states(ds)]
    forces = (
        Forces(codes[0], corps=red_corps, deployment=tuple(red)),
        Forces(codes[1], corps=tuple(corps), deployment=tuple(blue)),
    )
    name = "Зеркальный сценарий"
    sc = Scenario(name, ds, forces, Settings(level=level, seed=seed), description=name)
    problems = check_scenario(sc)
    if problems:
        raise BuildError(problems)
    return sc


def _renumbered(ref: UnitRef, stride: int) -> UnitRef:
    return replace(ref, number=ref.number - stride)


__all__ = ["mirrored_scenario", "mirrored_theatre"]
