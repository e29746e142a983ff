"""Writing a scenario in its text format (TOML, see maps/README.md), so that one built in Python
can be edited by hand and read back exactly."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from strategia.theatre import drawing, terrain
from strategia.theatre.scenario import Scenario

DEFAULT_LEGEND = {
    ".": "plain",
    "^": "mountains",
    "f": "forest",
    "s": "swamp",
    "h": "hills",
    "~": "water",
}
RELIEF_NAMES = {r.name.lower(): r for r in terrain.Relief}


def _ml(text: str) -> str:
    return '"""\n' + text.rstrip("\n") + '\n"""'


def _q(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)


def format_scenario(sc: Scenario, netcdf: str | None = None) -> str:
    """The scenario as the text format; with `netcdf`, the map is referred to that file."""
    ds = sc.theatre
    out = [
        "# A Strategia scenario: see maps/README.md for the format.",
        "[scenario]",
        f"name = {_q(sc.name)}",
    ]
    if sc.description:
        out.append(f"description = {_q(sc.description)}")
    s = sc.settings
    out += [
        "",
        "[settings]",
        f"level = {s.level}",
        f"ruleset = {_q(s.ruleset)}",
        f"seed = {s.seed}",
    ]
    out += [f"clock_minutes = {s.clock_minutes:g}", f"mediator = {str(s.mediator).lower()}"]
    if s.recon_questions is not None:
        out.append(f"recon_questions = {s.recon_questions:g}")
    for st in terrain.states(ds):
        out += [
            "",
            "[[state]]",
            f"code = {_q(st.code)}",
            f"name = {_q(st.name)}",
            f"side = {_q(st.side)}",
        ]
    out += ["", "[map]"]
    if netcdf:
        out.append(f"netcdf = {_q(netcdf)}")
    else:
        chars = {int(v): k for k, v in ((c, RELIEF_NAMES[n]) for c, n in DEFAULT_LEGEND.items())}
        relief = ds["relief"].values.T[::-1]
        out.append(
            "relief = " + _ml("\n".join("".join(chars[int(v)] for v in row) for row in relief))
        )
        codes = {0: "."} | {k: st.code for k, st in enumerate(terrain.states(ds), 1)}
        st_rows = ds["state"].values.T[::-1]
        out.append(
            "states = " + _ml("\n".join("".join(codes[int(v)] for v in row) for row in st_rows))
        )
        out += ["", "[routes]"]
        for key, layer in (("roads", "road"), ("railways", "rail"), ("trails", "trail")):
            out.append(f"{key} = " + _list(drawing.route_paths(ds[layer].values)))
        out.append(
            "rivers = " + _list(drawing.river_paths(ds["river_e"].values, ds["river_n"].values))
        )
        out += ["", "[places]"]
        out += _places(ds)
    for f in sc.forces:
        out += ["", f"[forces.{f.state}]"]
        oob = [f"{x.ref}: {', '.join(map(str, x.armies))}" for x in f.fronts]
        oob += [f"{a.ref}: {', '.join(map(str, a.members))}" for a in f.armies]
        oob += [f"{c.ref}: {', '.join(map(str, c.divisions))}" for c in f.corps]
        out.append("order_of_battle = " + _ml("\n".join(oob)))
        out.append("deployment = " + _ml("\n".join(map(str, f.deployment))))
        names = {(p[1].lon, p[1].lat): p[0] for p in terrain.places(ds)}
        mob = [
            f"{a.day}: {', '.join(map(str, a.divisions))} - "
            f"{names.get((a.cell.lon, a.cell.lat), str(a.cell))}"
            for a in f.mobilisation
        ]
        out.append("mobilisation = " + _ml("\n".join(mob)))
    return "\n".join(out) + "\n"


def _list(items: list[str]) -> str:
    if not items:
        return "[]"
    return "[\n" + "".join(f"    {_q(x)},\n" for x in items) + "]"


def _places(ds: Any) -> list[str]:
    named = {
        (p["lon"], p["lat"], p.get("kind")): p["name"]
        for p in json.loads(ds.attrs.get("places", "[]"))
    }
    by_kind: dict[str, list[str]] = {"cities": [], "capitals": [], "fortresses": []}
    settlement = ds["settlement"].values
    fortress = ds["fortress"].values
    lons, lats = ds.lon.values, ds.lat.values
    for i, j in zip(*np.nonzero((settlement > 0) | fortress), strict=True):
        lon, lat = int(lons[i]), int(lats[j])
        kinds = []
        if settlement[i, j] == 2:
            kinds.append("capitals")
        elif settlement[i, j] == 1:
            kinds.append("cities")
        if fortress[i, j]:
            kinds.append("fortresses")
        for kind in kinds:
            name = named.get((lon, lat, kind), "")
            by_kind[kind].append(f"{name} {lon},{lat}".strip())
    return [f"{k} = {_list(v)}" for k, v in by_kind.items()]


def save_scenario(sc: Scenario, path: str | Path, netcdf: str | Path | None = None) -> Path:
    """Write the scenario; with `netcdf`, the theatre goes to that NetCDF file beside it."""
    path = Path(path)
    ref = None
    if netcdf is not None:
        nc = Path(netcdf)
        terrain.save(sc.theatre, nc if nc.is_absolute() else path.parent / nc)
        ref = str(netcdf)
    path.write_text(format_scenario(sc, ref), encoding="utf-8")
    return path
