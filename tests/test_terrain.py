"""The theatre grid: schema, derived layers, river crossings, NetCDF round trip."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import xarray as xr

from strategia.core.geometry import Cell, Direction
from strategia.theatre import terrain
from strategia.theatre.terrain import Relief


def small() -> xr.Dataset:
    ds = terrain.blank(6, 5, "t")
    ds["river_e"].values[2, :] = True  # a river between lon 3 and lon 4
    return ds


def test_blank_schema() -> None:
    ds = terrain.blank(60, 40)
    assert ds.strategia.size == (60, 40)
    assert list(ds.lon.values[:3]) == [1, 2, 3] and ds.lat.values[-1] == 40
    for name, (dtype, level, _) in terrain.LAYERS.items():
        assert str(ds[name].dtype) == dtype
        assert ds[name].dims == ("lon", "lat")
        assert ds[name].attrs["level"] == level
    assert ds.strategia.check() == []


def test_orthogonal_and_diagonal_river_crossings() -> None:
    ds = small()
    rc = ds.strategia.river_crossings()
    e, w, n, ne, se, nw = (Direction.E.index, Direction.W.index, Direction.N.index,
                           Direction.NE.index, Direction.SE.index, Direction.NW.index)  # fmt: skip
    i3, i4 = 2, 3  # array indices of lon 3 and 4
    assert rc[e, i3].all() and rc[w, i4].all()
    assert not rc[e, i4].any() and not rc[n].any()
    assert rc[ne, i3, :-1].all() and rc[se, i3, 1:].all() and rc[nw, i4, :-1].all()
    assert not rc[ne, 0].any()


def test_diagonal_step_past_the_end_of_a_river_does_not_cross() -> None:
    ds = terrain.blank(4, 4)
    ds["river_e"].values[1, 0] = True  # a short river east of cell 2,1 only
    rc = ds.strategia.river_crossings()
    # from 2,1 to 3,2 (NE): the way north then east passes north of the river's end
    assert not rc[Direction.NE.index, 1, 0]
    assert rc[Direction.E.index, 1, 0]


def test_bridges_passes_nodes_narrows_coast_borders() -> None:
    ds = small()
    road = ds["road"].values
    for i in range(5):  # an east-west road along lat 3, crossing the river
        road[i, 2] |= 1 << Direction.E.index
        road[i + 1, 2] |= 1 << Direction.W.index
    road[1, 2] |= (1 << Direction.N.index) | (1 << Direction.S.index)
    road[1, 3] |= 1 << Direction.S.index
    road[1, 1] |= 1 << Direction.N.index
    ds["relief"].values[4, 2] = Relief.MOUNTAINS
    ds["relief"].values[0, 0] = Relief.WATER
    ds["state"].values[:3, :] = 1
    ds["state"].values[3:, :] = 2
    ds.attrs["states"] = (
        '[{"code": "A", "name": "A", "side": "red"}, {"code": "B", "name": "B", "side": "blue"}]'
    )
    assert ds.strategia.check() == []
    br = terrain.bridges(ds)
    assert br[Direction.E.index, 2, 2] and br[Direction.W.index, 3, 2] and br.sum() == 2
    assert ds.strategia.passes().values[4, 2] and ds.strategia.passes().sum() == 1
    nodes = ds.strategia.transport_nodes().values
    assert nodes[1, 2] and nodes.sum() == 1  # four roads meet at 2,3 (4.5)
    narrow = ds.strategia.narrows().values
    assert narrow[4, 2] and narrow[2, 2] and narrow[3, 2]  # a single road in mountains; bridge ends
    assert not narrow[1, 2]
    coast = ds.strategia.coast().values
    assert coast[1, 0] and coast[0, 1] and not coast[0, 0] and not coast[2, 2]
    border = terrain.border_steps(ds)
    assert border[Direction.E.index, 2].all() and not border[Direction.E.index, 1].any()


def test_level_1_sees_level_2_relief_as_plain() -> None:
    ds = terrain.blank(3, 1)
    ds["relief"].values[:, 0] = [Relief.FOREST, Relief.MOUNTAINS, Relief.HILLS]
    assert list(ds.strategia.relief(1).values[:, 0]) == [0, 1, 0]
    assert list(ds.strategia.relief(2).values[:, 0]) == [2, 1, 4]
    ds["rail"].values[0, 0] = 1 << Direction.E.index
    ds["rail"].values[1, 0] = 1 << Direction.W.index
    assert terrain.route_mask(ds, "rail", 1).sum() == 0
    assert terrain.route_mask(ds, "rail", 2).sum() > 0


def test_check_reports_every_problem_at_once() -> None:
    ds = small()
    ds["relief"].values[0, 0] = 9
    ds["state"].values[1, 1] = 5
    ds["road"].values[0, 4] = 1 << Direction.N.index  # leaves the map
    ds["road"].values[2, 2] = 1 << Direction.E.index  # one-way
    ds["settlement"].values[3, 3] = 7
    problems = ds.strategia.check()
    where = [p.where for p in problems]
    assert where.count("road") == 2
    assert {"relief", "state", "settlement"} <= set(where)
    assert "1,1" in str(problems[0])
    with pytest.raises(terrain.TheatreError, match="5 problem"):
        ds.strategia.validate()


def test_schema_errors_listed_together() -> None:
    ds = small().drop_vars(["rail", "trail"])
    ds["road"] = ds["road"].astype("int32")
    problems = terrain.check(ds)
    assert {p.where for p in problems} >= {"rail", "trail", "road"}


def test_netcdf_round_trip_is_exact(tmp_path: Path) -> None:
    from strategia.theatre.scenario_io import load_scenario

    ds = load_scenario(Path(__file__).parents[1] / "maps" / "continental.toml").theatre
    path = ds.strategia.save(tmp_path / "t.nc")
    back = terrain.load(path)
    assert back.identical(ds)
    for name in ds.data_vars:
        assert back[name].dtype == ds[name].dtype
        assert back[name].attrs == ds[name].attrs
    assert back.attrs == ds.attrs
    assert back.lon.dtype == ds.lon.dtype


def test_on_map_and_index() -> None:
    ds = terrain.blank(60, 40)
    assert terrain.on_map(ds, Cell(60, 40)) and not terrain.on_map(ds, Cell(61, 1))
    assert terrain.index(ds, Cell(45, 22)) == (44, 21)
    assert not np.any(terrain.degree(ds["road"].values))
