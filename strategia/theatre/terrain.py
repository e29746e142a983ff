"""The theatre: an `xarray.Dataset` of 10 km cells on dims (lon, lat), and pure functions on it.

Layers (each variable's `level` attribute says from which level of play it counts, rule 0.2):

- `relief` (int8): plain, mountains (level 1); forest, swamp, hills (level 2); water (sea, lakes).
- `state` (int8): the owning state of each cell, 1-based into the `states` attribute; 0 = none.
- `settlement` (int8): 0 none, 1 city, 2 capital. `fortress` (bool, level 2).
- `road`, `rail`, `trail` (uint8): the routes through a cell, one bit per direction it leaves
  in (bit i = `Direction` i: N, NE, E, ...). A route is drawn cell to cell, diagonals included.
- `river_e`, `river_n` (bool): a river along the east / north edge of the cell.

Why rivers lie on cell edges: a river crossing costs turns (table 4) and is paid by the one step
that crosses it. With rivers on the grid lines between cells, "does this step cross a river" is a
property of the step (edge) alone, so movement prices it on that edge of the graph, and a
defender behind a river (9.8b) is one whose attacker's step crosses it. A diagonal step crosses
a river when both ways round the corner would. Bridges and passes are derived, not stored: a
bridge is where a road step crosses a river, a pass a road through a mountain cell (both count
as roads, 4.2). Borders are likewise derived: edges between cells of different states.

Everything derived (transport nodes, narrows, bridges, coast) is computed with vectorised numpy.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from enum import IntEnum
from pathlib import Path
from typing import Any

import numpy as np
import xarray as xr

from strategia.core.errors import Problem, ProblemsError, StrategiaError
from strategia.core.geometry import Cell, Direction
from strategia.theatre.theatre_words import problem

FORMAT = "strategia-theatre/1"


class Relief(IntEnum):
    """Relief codes of the `relief` layer (2.x «Рельеф местности»)."""

    PLAIN = 0
    MOUNTAINS = 1
    FOREST = 2
    SWAMP = 3
    HILLS = 4
    WATER = 5


RELIEF_LEVEL = {
    Relief.PLAIN: 1,
    Relief.MOUNTAINS: 1,
    Relief.FOREST: 2,
    Relief.SWAMP: 2,
    Relief.HILLS: 2,
    Relief.WATER: 1,
}
RELIEF_TERRAIN_KEY = {  # the rows of table 4 and the keys of 9.7/9.8b
    Relief.PLAIN: "plain",
    Relief.MOUNTAINS: "mountains",
    Relief.FOREST: "forest",
    Relief.SWAMP: "swamp",
    Relief.HILLS: "hills",
    Relief.WATER: "water",
}
TRAIL_TERRAIN_KEY = {
    Relief.MOUNTAINS: "trail_mountains",
    Relief.SWAMP: "trail_swamp",
    Relief.FOREST: "trail_forest",
}


class Settlement(IntEnum):
    NONE = 0
    CITY = 1
    CAPITAL = 2


LAYERS: dict[str, tuple[str, int, str]] = {
    # name: (dtype, level, description)
    "relief": ("int8", 1, "relief code (Relief)"),
    "state": ("int8", 1, "owning state, 1-based into attrs['states']; 0 none"),
    "settlement": ("int8", 1, "0 none, 1 city, 2 capital"),
    "fortress": ("bool", 2, "a fortress"),
    "road": ("uint8", 1, "road directions bitmask"),
    "rail": ("uint8", 2, "railway directions bitmask"),
    "trail": ("uint8", 2, "trail directions bitmask (in mountains, swamps, forests)"),
    "river_e": ("bool", 1, "a river along the east edge"),
    "river_n": ("bool", 1, "a river along the north edge"),
}
ROUTES = ("road", "rail", "trail")
DELTAS = np.array([d.delta for d in Direction], dtype=np.int64)  # (8, 2)


@dataclass(frozen=True, slots=True)
class State:
    """A state on the map: its code (the letter of the states map), name and side (1.2)."""

    code: str
    name: str
    side: str


def blank(width: int, height: int, name: str = "theatre") -> xr.Dataset:
    """An empty theatre: all plain, no state, no routes."""
    if width < 1 or height < 1:
        raise StrategiaError(
            f"theatre size {width} x {height}: both must be at least 1",
            ru=f"размер театра {width} × {height}: обе стороны не меньше 1",
        )
    coords = {
        "lon": np.arange(1, width + 1, dtype=np.int16),
        "lat": np.arange(1, height + 1, dtype=np.int16),
    }
    data = {
        name_: (
            ("lon", "lat"),
            np.zeros((width, height), dtype=dtype),
            {"level": lvl, "long_name": desc},
        )
        for name_, (dtype, lvl, desc) in LAYERS.items()
    }
    ds = xr.Dataset(data, coords=coords)
    ds.attrs.update(
        {
            "format": FORMAT,
            "name": name,
            "cell_km": 10,
            "states": "[]",
            "places": "[]",
            "relief_legend": json.dumps({r.name.lower(): int(r) for r in Relief}),
            "relief_levels": json.dumps({r.name.lower(): RELIEF_LEVEL[r] for r in Relief}),
        }
    )
    return ds


# --- reading the dataset ------------------------------------------------------------------------


def size(ds: xr.Dataset) -> tuple[int, int]:
    return int(ds.sizes["lon"]), int(ds.sizes["lat"])


def states(ds: xr.Dataset) -> list[State]:
    return list(_states(ds.attrs.get("states", "[]")))


@functools.cache
def _states(text: str) -> tuple[State, ...]:
    return tuple(State(**s) for s in json.loads(text))


def places(ds: xr.Dataset) -> list[tuple[str, Cell]]:
    """Named places (cities, capitals, fortresses): (name, cell)."""
    return [(p["name"], Cell(p["lon"], p["lat"])) for p in json.loads(ds.attrs.get("places", "[]"))]


def index(ds: xr.Dataset, cell: Cell) -> tuple[int, int]:
    """Array indices of a cell (a theatre numbers its cells from 1, which `check` ensures)."""
    return cell.lon - 1, cell.lat - 1


def on_map(ds: xr.Dataset, cell: Cell) -> bool:
    w, h = ds.sizes["lon"], ds.sizes["lat"]
    return 0 < cell.lon <= w and 0 < cell.lat <= h


def relief_at_level(ds: xr.Dataset, level: int) -> np.ndarray:
    """The relief as the rules at `level` see it: level-2 kinds are plain below level 2."""
    relief = ds["relief"].values.copy()
    if level < 2:
        relief[np.isin(relief, [Relief.FOREST, Relief.SWAMP, Relief.HILLS])] = Relief.PLAIN
    return relief


def route_mask(ds: xr.Dataset, route: str, level: int = 3) -> np.ndarray:
    """A route layer's bitmask, empty where the route kind does not act at `level`."""
    layer = ds[route]
    if int(layer.attrs.get("level", 1)) > level:
        return np.zeros(layer.shape, dtype=np.uint8)
    return np.asarray(layer.values, dtype=np.uint8)


def degree(mask: np.ndarray) -> np.ndarray:
    """How many route directions leave each cell."""
    return np.asarray(np.unpackbits(mask[..., None], axis=-1).sum(axis=-1), dtype=np.int8)


def shifted(a: np.ndarray, d_lon: int, d_lat: int, fill: Any = 0) -> np.ndarray:
    """`out[i, j] = a[i + d_lon, j + d_lat]` (the neighbour's value), `fill` off the map."""
    out = np.full_like(a, fill)
    w, h = a.shape
    src_i = slice(max(d_lon, 0), w + min(d_lon, 0))
    dst_i = slice(max(-d_lon, 0), w + min(-d_lon, 0))
    src_j = slice(max(d_lat, 0), h + min(d_lat, 0))
    dst_j = slice(max(-d_lat, 0), h + min(-d_lat, 0))
    out[dst_i, dst_j] = a[src_i, src_j]
    return out


def _orthogonal_crossing(ds: xr.Dataset, d_lon: int, d_lat: int) -> np.ndarray:
    e = ds["river_e"].values.astype(bool)
    n = ds["river_n"].values.astype(bool)
    if (d_lon, d_lat) == (1, 0):
        return e
    if (d_lon, d_lat) == (-1, 0):
        return shifted(e, -1, 0, False)
    if (d_lon, d_lat) == (0, 1):
        return n
    if (d_lon, d_lat) == (0, -1):
        return shifted(n, 0, -1, False)
    raise ValueError((d_lon, d_lat))


def river_crossings(ds: xr.Dataset) -> np.ndarray:
    """`out[k, i, j]`: the step from cell (i, j) in direction k crosses a river.

    A diagonal step crosses when both ways round the corner cross (the river separates the cells).
    """
    w, h = size(ds)
    out = np.zeros((8, w, h), dtype=bool)
    for k, (dx, dy) in enumerate(DELTAS.tolist()):
        if dx == 0 or dy == 0:
            out[k] = _orthogonal_crossing(ds, dx, dy)
            continue
        via_x = _orthogonal_crossing(ds, dx, 0) | shifted(
            _orthogonal_crossing(ds, 0, dy), dx, 0, False
        )
        via_y = _orthogonal_crossing(ds, 0, dy) | shifted(
            _orthogonal_crossing(ds, dx, 0), 0, dy, False
        )
        out[k] = via_x & via_y
    return out


def route_steps(ds: xr.Dataset, route: str, level: int = 3) -> np.ndarray:
    """`out[k, i, j]`: the route leaves cell (i, j) in direction k."""
    mask = route_mask(ds, route, level)
    return np.stack([(mask >> k) & 1 for k in range(8)]).astype(bool)


def bridges(ds: xr.Dataset) -> np.ndarray:
    """`out[k, i, j]`: a bridge carries the road from (i, j) in direction k over a river."""
    return np.asarray(route_steps(ds, "road") & river_crossings(ds), dtype=bool)


def passes(ds: xr.Dataset) -> np.ndarray:
    """Cells where a road crosses mountains: passes (count as roads, 4.2)."""
    return np.asarray(
        (ds["road"].values > 0) & (ds["relief"].values == Relief.MOUNTAINS), dtype=bool
    )


def transport_nodes(ds: xr.Dataset, min_roads: int = 4, route: str = "road") -> np.ndarray:
    """Cells where more than three roads (railways) meet (4.5)."""
    return degree(np.asarray(ds[route].values, dtype=np.uint8)) >= min_roads


_NARROWS: dict[int, tuple[xr.Dataset, np.ndarray]] = {}


def narrows(ds: xr.Dataset) -> np.ndarray:
    """Cells a division crosses only along one road or trail, and bridge ends (4.7); cached
    per theatre (a theatre is not changed once built)."""
    hit = _NARROWS.get(id(ds))
    if hit is not None and hit[0] is ds:
        return hit[1]
    if len(_NARROWS) > 32:
        _NARROWS.clear()
    out = _narrows(ds)
    _NARROWS[id(ds)] = (ds, out)
    return out


def _narrows(ds: xr.Dataset) -> np.ndarray:
    """Cells a division crosses only along one road or trail, and bridge ends (4.7).

    A narrow: a trail in mountains, swamp or forest; a single road through such a cell (a road
    with no more than two directions there); a bridge's end.
    """
    relief = ds["relief"].values
    rough = np.isin(relief, [Relief.MOUNTAINS, Relief.SWAMP, Relief.FOREST])
    trail = ds["trail"].values > 0
    road_deg = degree(np.asarray(ds["road"].values, dtype=np.uint8))
    single_road = (road_deg > 0) & (road_deg <= 2)
    bridge_end = bridges(ds).any(axis=0)
    return (rough & (trail | single_road)) | bridge_end


def coast(ds: xr.Dataset) -> np.ndarray:
    """Land cells with water on a side (the coastline, 2.x)."""
    water = ds["relief"].values == Relief.WATER
    near = np.zeros_like(water)
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        near |= shifted(water, dx, dy, False)
    return np.asarray(near & ~water, dtype=bool)


def border_steps(ds: xr.Dataset) -> np.ndarray:
    """`out[k, i, j]`: the step from (i, j) in direction k crosses a state border."""
    st = ds["state"].values
    w, h = size(ds)
    out = np.zeros((8, w, h), dtype=bool)
    for k, (dx, dy) in enumerate(DELTAS.tolist()):
        other = shifted(st, dx, dy, -1)
        out[k] = (other != -1) & (other != st) & (st > 0) & (other > 0)
    return out


# --- checking -----------------------------------------------------------------------------------


def check(ds: xr.Dataset) -> list[Problem]:
    """Every problem of a theatre dataset, all at once (empty if it is well formed)."""
    problems: list[Problem] = []
    if ds.attrs.get("format") != FORMAT:
        problems.append(problem("format", "attrs.format", want=FORMAT, got=ds.attrs.get("format")))
    for dim in ("lon", "lat"):
        if dim not in ds.coords:
            problems.append(problem("no_coordinate", dim))
            continue
        c = ds[dim].values
        if len(c) == 0 or c[0] != 1 or np.any(np.diff(c) != 1):
            problems.append(problem("gaps", dim))
    for name, (dtype, _, _) in LAYERS.items():
        if name not in ds:
            problems.append(problem("no_layer", name))
            continue
        v = ds[name]
        if v.dims != ("lon", "lat"):
            problems.append(problem("dims", name, dims=v.dims))
        if str(v.dtype) != dtype:
            problems.append(problem("dtype", name, dtype=v.dtype, want=dtype))
        if "level" not in v.attrs:
            problems.append(problem("no_level", name))
    if problems:
        return problems
    relief = ds["relief"].values
    bad = ~np.isin(relief, [int(r) for r in Relief])
    if bad.any():
        codes = sorted(set(relief[bad].tolist()))
        problems.append(problem("relief_codes", "relief", *_cells(ds, bad), codes=codes))
    try:
        n_states = len(states(ds))
    except (json.JSONDecodeError, TypeError) as e:
        problems.append(problem("states", "attrs.states", error=e))
        n_states = 0
    st = ds["state"].values
    bad = (st < 0) | (st > n_states)
    if bad.any():
        problems.append(problem("state_index", "state", *_cells(ds, bad), n=n_states))
    bad = ~np.isin(ds["settlement"].values, [0, 1, 2])
    if bad.any():
        problems.append(problem("settlement", "settlement", *_cells(ds, bad)))
    for route in ROUTES:
        steps = route_steps(ds, route)
        for k, (dx, dy) in enumerate(DELTAS.tolist()):
            back = shifted(steps[(k + 4) % 8], dx, dy, False)
            one_way = steps[k] & ~back
            if one_way.any():
                d = list(Direction)[k]
                problems.append(problem("one_way", route, *_cells(ds, one_way), d=d.key, d_ru=d.ru))
    water = relief == Relief.WATER
    for route in ROUTES:
        bad = water & (ds[route].values > 0)
        if bad.any():
            problems.append(problem("on_water", route, *_cells(ds, bad)))
    return problems


def trail_warnings(ds: xr.Dataset) -> list[Problem]:
    """Trail ends that cannot be entered from outside: an end in swamp or mountains whose other
    neighbours are swamp, mountains or water with no road (table 4: т.д., м.д., сау.д. go there
    only along trails, so they can never reach that trail)."""
    relief = ds["relief"].values
    trail = ds["trail"].values > 0
    ends = trail & (degree(np.asarray(ds["trail"].values, dtype=np.uint8)) == 1)
    closed = np.isin(relief, [Relief.SWAMP, Relief.MOUNTAINS, Relief.WATER])
    inside = ends & np.isin(relief, [Relief.SWAMP, Relief.MOUNTAINS])
    steps = route_steps(ds, "trail")
    for k, (dx, dy) in enumerate(DELTAS.tolist()):
        neighbour_closed = shifted(closed, dx, dy, True)
        neighbour_road = shifted(ds["road"].values > 0, dx, dy, False)
        along = steps[k]
        inside &= along | (neighbour_closed & ~neighbour_road)
    if not inside.any():
        return []
    return [problem("trail_ends", "trail", *_cells(ds, inside))]


def _cells(ds: xr.Dataset, mask: np.ndarray, limit: int = 5) -> tuple[list[str], int]:
    """The first cells of `mask`, and how many more it has."""
    ii, jj = np.nonzero(mask)
    cells = [
        str(Cell(int(ds.lon[i]), int(ds.lat[j])))
        for i, j in zip(ii[:limit], jj[:limit], strict=True)
    ]
    return cells, max(0, len(ii) - limit)


def validate(ds: xr.Dataset, source: str = "theatre") -> xr.Dataset:
    """`ds` if well formed, else a TheatreError listing every problem."""
    problems = check(ds)
    if problems:
        raise TheatreError(source, problems)
    return ds


class TheatreError(ProblemsError):
    """A malformed theatre dataset; every problem is listed."""

    def __init__(self, source: str, problems: list[Problem]) -> None:
        super().__init__(source, problems, "  - ")


# --- NetCDF -------------------------------------------------------------------------------------


def save(ds: xr.Dataset, path: str | Path) -> Path:
    """Write the theatre to a NetCDF file (h5netcdf engine, no system library needed)."""
    path = Path(path)
    validate(ds, str(path))
    ds.to_netcdf(path, engine="h5netcdf")
    return path


def load(path: str | Path) -> xr.Dataset:
    """Read a theatre written by `save`, exactly as it was (dtypes and attributes)."""
    with xr.open_dataset(path, engine="h5netcdf") as f:
        ds = f.load()
    for name, (dtype, _, _) in LAYERS.items():
        if name in ds and str(ds[name].dtype) != dtype:
            ds[name] = ds[name].astype(dtype)
    for var in ds.data_vars.values():
        var.encoding = {}
    for dim in ("lon", "lat"):
        if dim in ds.coords:
            ds[dim].encoding = {}
    return validate(ds, str(path))


# --- the accessor -------------------------------------------------------------------------------


@xr.register_dataset_accessor("strategia")  # type: ignore[no-untyped-call]
class TheatreAccessor:
    """`ds.strategia.<fn>()`: the pure functions of this module applied to `ds`."""

    def __init__(self, ds: xr.Dataset) -> None:
        self._ds = ds

    @property
    def size(self) -> tuple[int, int]:
        return size(self._ds)

    @property
    def states(self) -> list[State]:
        return states(self._ds)

    def check(self) -> list[Problem]:
        return check(self._ds)

    def validate(self, source: str = "theatre") -> xr.Dataset:
        return validate(self._ds, source)

    def on_map(self, cell: Cell) -> bool:
        return on_map(self._ds, cell)

    def relief(self, level: int = 3) -> xr.DataArray:
        return self._ds["relief"].copy(data=relief_at_level(self._ds, level))

    def transport_nodes(self, min_roads: int = 4, route: str = "road") -> xr.DataArray:
        return self._layer(transport_nodes(self._ds, min_roads, route), "transport_node")

    def narrows(self) -> xr.DataArray:
        return self._layer(narrows(self._ds), "narrow")

    def passes(self) -> xr.DataArray:
        return self._layer(passes(self._ds), "pass")

    def coast(self) -> xr.DataArray:
        return self._layer(coast(self._ds), "coast")

    def river_crossings(self) -> np.ndarray:
        return river_crossings(self._ds)

    def bridges(self) -> np.ndarray:
        return bridges(self._ds)

    def save(self, path: str | Path) -> Path:
        return save(self._ds, path)

    def _layer(self, values: np.ndarray, name: str) -> xr.DataArray:
        return xr.DataArray(
            values,
            coords={"lon": self._ds.lon, "lat": self._ds.lat},
            dims=("lon", "lat"),
            name=name,
        )
