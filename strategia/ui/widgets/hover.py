"""The map's readout: the cell under the cursor (its numbers, ground, state and place), the unit
hovered (number, type, strength, formation, regiments' facing, facing, corps) as far as the
viewer's view knows it, a reachable cell's cost for the selected unit, a fight's outcome."""

from __future__ import annotations

import html
import json
from typing import Any, Protocol

from strategia.core.geometry import Cell, Direction
from strategia.core.i18n import Lang, Text
from strategia.core.numbers import pct
from strategia.engine.state import GameState
from strategia.rules.english import en
from strategia.rules.kinds import Formation, RegimentsFacing, side_name
from strategia.theatre import terrain
from strategia.theatre.terrain import Relief
from strategia.ui.widgets.marks import cost_text

KIND_NAMES = {
    "rifle": ("rifle division", "стрелковая дивизия"),
    "cavalry": ("cavalry division", "кавалерийская дивизия"),
    "tank": ("tank division", "танковая дивизия"),
    "motorised": ("motorised division", "моторизованная дивизия"),
    "sp_gun": ("SP gun division", "дивизия САУ"),
    "anti_tank": ("anti-tank division", "противотанковая дивизия"),
    "artillery": ("artillery division", "артиллерийская дивизия"),
    "fortress": ("fortress garrison", "гарнизон крепости"),
}
RELIEF = {
    Relief.PLAIN: Text("plain", "равнина"), Relief.FOREST: Text("forest", "лес"),
    Relief.SWAMP: Text("swamp", "болото"), Relief.HILLS: Text("hills", "холмы"),
    Relief.MOUNTAINS: Text("mountains", "горы"), Relief.WATER: Text("water", "вода"),
}  # fmt: skip


class Host(Protocol):
    lang: Lang
    reach_costs: dict[tuple[int, int], float]
    _features: dict[str, Any]

    @property
    def shown(self) -> GameState: ...


def _e(text: object) -> str:
    return html.escape(str(text))


def cell_text(state: GameState, cell: Cell, lang: Lang) -> str:
    """A cell as the readout tells it: «33,24 · холмы · Красная Федерация · Бродки»."""
    ds = state.theatre
    if not terrain.on_map(ds, cell):
        return ""
    i, j = terrain.index(ds, cell)
    relief = Relief(int(terrain.relief_at_level(ds, state.level)[i, j]))
    parts = [f"<b>{cell}</b>", RELIEF[relief](lang)]
    code = int(ds["state"].values[i, j])
    states = json.loads(ds.attrs["states"])
    if code > 0:
        parts.append(states[code - 1]["name"])
    names = {c: n for n, c in terrain.places(ds)}
    if cell in names:
        parts.append(f"<b>{names[cell]}</b>")
    if int(ds["road"].values[i, j]):
        parts.append(Text("road", "дорога")(lang))
    if int(ds["rail"].values[i, j]) and state.level >= 2:
        parts.append(Text("railway", "ж.д.")(lang))
    return " · ".join(parts)


def unit_text(p: dict[str, Any], lang: Lang) -> str:
    """A counter as the viewer's view knows it."""
    side = side_name(str(p.get("side", "")), lang, capital=True)
    if not p.get("unit"):
        seen = Text("enemy troops (position only)", "войска противника (только позиция)")
        return f"{_e(side)}: {seen(lang)}"
    kind = KIND_NAMES.get(str(p.get("kind", "")))
    named = en if lang == "en" else str
    out = [f"<b>{_e(named(p['unit']))}</b> ({_e(side)})"]
    if kind:
        out.append(kind[lang == "ru"])
    strengths = p.get("strengths")
    if strengths:
        share = pct(sum(strengths) / len(strengths), lang)
        out.append(f"{Text('strength', 'численность')(lang)} {share}")
    if p.get("formation"):
        out.append(Formation.from_key(str(p["formation"])).label(lang))
    regiments = p.get("regiments", "enemy")
    if isinstance(regiments, str):
        facing = RegimentsFacing.from_key(regiments).label(lang)
        out.append(f"{Text('regiments', 'полки')(lang)} {facing}")
    if p.get("facing"):
        face = Direction.from_key(str(p["facing"])).label(lang)
        out.append(f"{Text('facing', 'фронтом на')(lang)} {face}")
    if p.get("corps"):
        out.append(named(p["corps"]))
    if isinstance(regiments, list):  # an enemy seen: the kinds of its regiments only
        out.append(", ".join(map(named, regiments)))
    return f"{out[0]} — {_e(', '.join(out[1:]))}"


def readout(host: Host, x: float, y: float, props: dict[str, Any] | None) -> str:
    lang = host.lang
    cell = Cell(round(x), round(y))
    lines = [cell_text(host.shown, cell, lang)]
    if props and props.get("kind") in ("battle", "strike", "destroyed", "last-known"):
        lines.append(_e(props.get("title", "")))
    elif props and props.get("unit"):
        feature = next(
            (
                f["properties"]
                for f in host._features.get("features", [])
                if f["properties"].get("unit") == props["unit"]
            ),
            props,
        )
        lines.append(unit_text(feature, lang))
    elif props and props.get("part") == "counter":
        lines.append(unit_text(props, lang))
    cost = host.reach_costs.get((cell.lon, cell.lat))
    if cost is not None:
        lines.append(f"{Text('reach: takes', 'досягаемо: займет')(lang)} {cost_text(cost, lang)}")
    return "<br>".join(x for x in lines if x)
