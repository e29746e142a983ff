"""The theatre as text: one character a cell and one for the edge east of it (rivers `|`).

North is up. A line of `-` under a row marks rivers along the cells' south edges; it is printed
only where there are any. Units are drawn with their side's letter (R, B, G, K).
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from strategia.core.geometry import Cell
from strategia.core.i18n import Lang
from strategia.theatre import terrain
from strategia.theatre.terrain import Relief

RELIEF_CHAR = {
    Relief.PLAIN: ".",
    Relief.MOUNTAINS: "^",
    Relief.FOREST: "f",
    Relief.SWAMP: "s",
    Relief.HILLS: "h",
    Relief.WATER: "~",
}
LEGEND = [  # (English, Russian, what): the map's characters stay as they are in both
    (". plain  ^ mountains  f forest  s swamp  h hills  ~ water",
     ". равнина  ^ горы  f лес  s болото  h холмы  ~ вода", "relief"),
    ("= road  # railway  : trail  @ capital  o city  F fortress  | - river",
     "= дорога  # железная дорога  : тропа  @ столица  o город  F крепость  | - река", "routes"),
    ("R B G K  units of the Red, Blue, Green, Black side",
     "R B G K  войска красных, синих, зеленых, черных", "units"),
]  # fmt: skip


def render(
    ds: xr.Dataset,
    level: int = 3,
    units: dict[Cell, str] | None = None,
    legend: bool = True,
    lang: Lang = "en",
) -> str:
    """The map as text at `level` (level-2 relief and routes hidden below level 2), its legend
    in `lang`."""
    w, h = terrain.size(ds)
    relief = terrain.relief_at_level(ds, level)
    grid = np.vectorize(lambda v: RELIEF_CHAR[Relief(int(v))])(relief).astype("<U1")
    for route, ch in (("trail", ":"), ("road", "="), ("rail", "#")):
        grid[terrain.route_mask(ds, route, level) > 0] = ch
    grid[ds["settlement"].values == 1] = "o"
    grid[ds["settlement"].values == 2] = "@"
    if level >= 2:
        grid[ds["fortress"].values] = "F"
    for cell, ch in (units or {}).items():
        if terrain.on_map(ds, cell):
            grid[terrain.index(ds, cell)] = ch
    river_e = ds["river_e"].values
    river_n = ds["river_n"].values
    lon0, lat0 = int(ds.lon[0]), int(ds.lat[0])
    head = "     " + "".join(f"{lon:<10d}" for lon in range(lon0, lon0 + w, 5))
    lines = [head.rstrip()]
    for j in range(h - 1, -1, -1):
        row = "".join(grid[i, j] + ("|" if river_e[i, j] else " ") for i in range(w))
        lines.append(f"{j + lat0:>3}  {row}".rstrip())
        if j > 0 and river_n[:, j - 1].any():
            lines.append(
                "     " + "".join(("- " if river_n[i, j - 1] else "  ") for i in range(w)).rstrip()
            )
    if legend:
        lines += ["", *(ru if lang == "ru" else en for en, ru, _ in LEGEND)]
    return "\n".join(lines)
