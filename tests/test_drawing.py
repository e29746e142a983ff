"""Routes and rivers: drawing from text and writing back."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from strategia.core.errors import StrategiaError
from strategia.core.geometry import Cell
from strategia.theatre import drawing, terrain


def test_cell_line_is_connected_and_straight() -> None:
    line = drawing.cell_line(Cell(1, 1), Cell(6, 3))
    assert line[0] == Cell(1, 1) and line[-1] == Cell(6, 3)
    assert all(a.chebyshev(b) == 1 for a, b in itertools.pairwise(line))
    assert len(line) == 6


def test_parse_route_errors() -> None:
    with pytest.raises(StrategiaError, match="a route needs at least one cell"):
        drawing.parse_route("   ")
    with pytest.raises(StrategiaError, match="'1,1 3,x': 3,x: no latitude"):
        drawing.parse_route("1,1 3,x")


def test_rivers_run_along_grid_lines() -> None:
    assert drawing.parse_river("10.5,4.5 10.5,9.5 14.5,9.5")[1] == (10.5, 9.5)
    with pytest.raises(StrategiaError, match="not along a grid line"):
        drawing.parse_river("10.5,4.5 12.5,9.5")
    with pytest.raises(StrategiaError, match="both coordinates end in .5"):
        drawing.parse_river("10,4.5 10,9.5")
    with pytest.raises(StrategiaError, match="at least two corners"):
        drawing.parse_river("10.5,4.5")
    ds = terrain.blank(20, 12)
    drawing.draw_river(
        ds["river_e"].values,
        ds["river_n"].values,
        drawing.parse_river("10.5,4.5 10.5,9.5 14.5,9.5"),
    )
    assert ds["river_e"].values[9, 4:9].all() and ds["river_e"].values.sum() == 5
    assert ds["river_n"].values[10:14, 8].all() and ds["river_n"].values.sum() == 4


def test_route_off_the_map() -> None:
    ds = terrain.blank(5, 5)
    with pytest.raises(StrategiaError, match="off the map, which is 5 x 5"):
        drawing.draw_route(ds["road"].values, drawing.parse_route("4,4 6,4"))


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.lists(st.tuples(st.integers(1, 12), st.integers(1, 9)), min_size=1, max_size=4),
        max_size=4,
    )
)
def test_routes_written_back_draw_the_same(lines: list[list[tuple[int, int]]]) -> None:
    mask = np.zeros((12, 9), dtype=np.uint8)
    for pts in lines:
        drawing.draw_route(mask, drawing.parse_route(" ".join(f"{a},{b}" for a, b in pts)))
    again = np.zeros_like(mask)
    for text in drawing.route_paths(mask):
        drawing.draw_route(again, drawing.parse_route(text))
    assert np.array_equal(mask, again)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.booleans(), st.integers(0, 10), st.integers(1, 8), st.integers(1, 8)),
        max_size=5,
    )
)
def test_rivers_written_back_draw_the_same(segments: list[tuple[bool, int, int, int]]) -> None:
    e = np.zeros((10, 8), dtype=bool)
    n = np.zeros((10, 8), dtype=bool)
    for vertical, x, a, b in segments:
        if a == b:
            continue
        if vertical:
            text = f"{x + 0.5},{a - 0.5} {x + 0.5},{b - 0.5}"
        else:
            text = f"{min(a, 10) - 0.5},{x % 8 + 0.5} {min(b, 10) - 0.5},{x % 8 + 0.5}"
        drawing.draw_river(e, n, drawing.parse_river(text))
    e2, n2 = np.zeros_like(e), np.zeros_like(n)
    for text in drawing.river_paths(e, n):
        drawing.draw_river(e2, n2, drawing.parse_river(text))
    assert np.array_equal(e, e2) and np.array_equal(n, n2)
