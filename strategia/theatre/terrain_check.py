"""The theatre's check: every problem of a dataset (its schema, codes out of range, routes that
leave with no way back or run on water) and the warnings a mediator should look at, each said in
English and in Russian."""

from __future__ import annotations

import json

import numpy as np
import xarray as xr

from strategia.core.errors import Problem
from strategia.core.geometry import Cell, Direction
from strategia.core.i18n import Lang
from strategia.core.numbers import cells_list
from strategia.theatre.terrain import (
    DELTAS,
    FORMAT,
    LAYERS,
    ROUTES,
    Relief,
    degree,
    route_steps,
    shifted,
    states,
)

# A layer as a Russian sentence names it (its data name is the key in the file).
LAYER_RU = {
    "relief": "рельеф",
    "state": "государства",
    "settlement": "города",
    "fortress": "крепости",
    "road": "дороги",
    "rail": "железные дороги",
    "trail": "тропы",
    "river_e": "реки (восточные стороны клеток)",
    "river_n": "реки (северные стороны клеток)",
}


def _problem(where: str, en: str, ru: str) -> Problem:
    return Problem(where, en, ru=ru, where_ru=LAYER_RU.get(where, ""))


def check(ds: xr.Dataset) -> list[Problem]:
    """Every problem of a theatre dataset, all at once (empty if it is well formed)."""
    problems: list[Problem] = []
    if ds.attrs.get("format") != FORMAT:
        got = ds.attrs.get("format")
        problems.append(
            _problem("attrs.format", f"expected {FORMAT!r}, got {got!r}",
                     f"нужен формат {FORMAT!r}, а дан {got!r}")
        )  # fmt: skip
    for dim in ("lon", "lat"):
        if dim not in ds.coords:
            problems.append(_problem(dim, "missing coordinate", "нет координаты"))
            continue
        c = ds[dim].values
        if len(c) == 0 or c[0] != 1 or np.any(np.diff(c) != 1):
            problems.append(
                _problem(dim, "must number the cells 1, 2, 3, ... without gaps",
                         "клетки нумеруются 1, 2, 3, ... без пропусков")
            )  # fmt: skip
    for name, (dtype, _, _) in LAYERS.items():
        if name not in ds:
            problems.append(_problem(name, "missing layer", "нет слоя"))
            continue
        v = ds[name]
        if v.dims != ("lon", "lat"):
            problems.append(
                _problem(name, f"dims {v.dims}, expected ('lon', 'lat')",
                         f"измерения {v.dims}, а нужны ('lon', 'lat')")
            )  # fmt: skip
        if str(v.dtype) != dtype:
            problems.append(
                _problem(name, f"dtype {v.dtype}, expected {dtype}",
                         f"тип {v.dtype}, а нужен {dtype}")
            )  # fmt: skip
        if "level" not in v.attrs:
            problems.append(_problem(name, "no 'level' attribute", "нет атрибута «level»"))
    if problems:
        return problems
    return problems + _values(ds)


def _values(ds: xr.Dataset) -> list[Problem]:
    problems: list[Problem] = []
    relief = ds["relief"].values
    bad = ~np.isin(relief, [int(r) for r in Relief])
    if bad.any():
        codes = sorted(set(relief[bad].tolist()))
        problems.append(
            _problem("relief", f"unknown codes {codes} at {_cells(ds, bad)}",
                     f"неизвестные коды {codes} в {_cells(ds, bad, 'ru')}")
        )  # fmt: skip
    try:
        n_states = len(states(ds))
    except (json.JSONDecodeError, TypeError) as e:
        problems.append(
            _problem("attrs.states", f"not a list of states: {e}", "это не список государств")
        )
        n_states = 0
    st = ds["state"].values
    bad = (st < 0) | (st > n_states)
    if bad.any():
        problems.append(
            _problem("state", f"indices beyond the {n_states} states at {_cells(ds, bad)}",
                     f"номера сверх числа государств ({n_states}) в {_cells(ds, bad, 'ru')}")
        )  # fmt: skip
    bad = ~np.isin(ds["settlement"].values, [0, 1, 2])
    if bad.any():
        problems.append(
            _problem("settlement", f"codes other than 0, 1, 2 at {_cells(ds, bad)}",
                     f"коды, кроме 0, 1, 2, в {_cells(ds, bad, 'ru')}")
        )  # fmt: skip
    for route in ROUTES:
        steps = route_steps(ds, route)
        for k, (dx, dy) in enumerate(DELTAS.tolist()):
            back = shifted(steps[(k + 4) % 8], dx, dy, False)
            one_way = steps[k] & ~back
            if one_way.any():
                d = list(Direction)[k]
                problems.append(
                    _problem(
                        route,
                        f"leaves toward {d.key} with no way back (or off the map) "
                        f"at {_cells(ds, one_way)}",
                        f"уходит на {d.ru} без обратного пути (или за карту) "
                        f"в {_cells(ds, one_way, 'ru')}",
                    )
                )
    water = relief == Relief.WATER
    for route in ROUTES:
        bad = water & (ds[route].values > 0)
        if bad.any():
            problems.append(
                _problem(route, f"on water at {_cells(ds, bad)}",
                         f"по воде в {_cells(ds, bad, 'ru')}")
            )  # fmt: skip
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
    what = (
        f"ends at {_cells(ds, inside)} inside swamp or mountains: troops that go there only along "
        "trails (т.д., м.д., сау.д., table 4) cannot enter it from outside"
    )
    what_ru = (
        f"концы в {_cells(ds, inside, 'ru')} внутри болота или гор: войска, которые ходят там "
        "только по тропам (т.д., м.д., сау.д., табл. 4), не войдут на нее снаружи"
    )
    return [_problem("trail", what, what_ru)]


def _cells(ds: xr.Dataset, mask: np.ndarray, lang: Lang = "en", limit: int = 5) -> str:
    """The first cells of `mask` in prose (29,24 и 30,24), and how many more."""
    ii, jj = np.nonzero(mask)
    cells = [
        str(Cell(int(ds.lon[i]), int(ds.lat[j])))
        for i, j in zip(ii[:limit], jj[:limit], strict=True)
    ]
    if len(ii) > limit:
        more = len(ii) - limit
        return "; ".join(cells) + (f" и еще {more}" if lang == "ru" else f" and {more} more")
    return cells_list(cells, lang)
