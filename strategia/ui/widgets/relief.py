"""The relief drawn so the eye reads it at a glance: each cell in its ground's colour, shaded by
a light from the north-west falling on a smoothed height of the ground (mountains highest, hills
lower, water lowest), with tree marks in forests and reed marks in swamps. Crisp cells are kept:
the shading is light enough that the ground's colour still tells the cell."""

from __future__ import annotations

import numpy as np
from scipy import ndimage

from strategia.theatre.terrain import Relief

HEIGHT = {
    Relief.PLAIN: 0.0, Relief.FOREST: 0.25, Relief.SWAMP: -0.3, Relief.HILLS: 1.6,
    Relief.MOUNTAINS: 4.5, Relief.WATER: -0.8,
}  # fmt: skip


def shade(relief: np.ndarray, rgb: np.ndarray, pixels: int) -> np.ndarray:
    """`rgb` (rows north to south, `pixels` a cell) shaded and textured from `relief` (lon, lat)."""
    rows = relief.T[::-1]  # north to south, west to east
    lut = np.array([HEIGHT[Relief(k)] for k in range(len(Relief))], dtype=float)
    height = lut[rows]
    z = np.repeat(np.repeat(height, pixels, axis=0), pixels, axis=1)
    z = ndimage.gaussian_filter(z, sigma=pixels * 0.9, mode="nearest") * pixels * 0.9
    dy, dx = np.gradient(z)  # dy grows southwards (rows), dx eastwards
    slope = np.arctan(np.hypot(dx, dy) * 0.35)
    aspect = np.arctan2(-dx, dy)
    azimuth, altitude = np.radians(315.0), np.radians(50.0)
    light = np.sin(altitude) * np.cos(slope) + np.cos(altitude) * np.sin(slope) * np.cos(
        azimuth - aspect
    )
    flat = np.sin(altitude)
    factor = np.clip(1.0 + 0.9 * (light - flat), 0.55, 1.25)
    kind = np.repeat(np.repeat(rows, pixels, axis=0), pixels, axis=1)
    factor[kind == int(Relief.WATER)] = 1.0
    out = rgb.astype(float) * factor[..., None]
    yy, xx = np.mgrid[0 : out.shape[0], 0 : out.shape[1]]
    trees = (kind == int(Relief.FOREST)) & ((yy % 4) == 1) & (((xx + 2 * (yy // 4)) % 4) == 1)
    out[trees] *= 0.72
    reeds = (kind == int(Relief.SWAMP)) & ((yy % 3) == 1) & ((xx % 4) != 0)
    out[reeds] = out[reeds] * 0.8 + np.array([40.0, 70.0, 90.0]) * 0.2
    shaded: np.ndarray = np.clip(out, 0, 255).astype(np.uint8)
    return shaded
