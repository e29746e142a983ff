"""The scenario builder: paint and draw a theatre on the map, place the forces, validate, save.

Every action is a `ScenarioBuilder` step (immutable); the panel keeps the current builder and
redraws the map from it. The actions are methods, so the tests drive them without a browser.
"""

from __future__ import annotations

import html
import re
import tempfile
from fractions import Fraction
from pathlib import Path
from typing import Any

import ipywidgets as w

from strategia.core.errors import StrategiaError
from strategia.core.geometry import Cell
from strategia.core.i18n import Text, check_lang
from strategia.engine.state import initial_state
from strategia.game.views import mediator_view, to_geojson
from strategia.notation.refs import Placement
from strategia.notation.say import say
from strategia.rules.kinds import Side
from strategia.theatre import terrain
from strategia.theatre.builder import ScenarioBuilder
from strategia.theatre.scenario import Scenario
from strategia.theatre.scenario_io import load_scenario, save_scenario
from strategia.ui.builder.sweep import TryIt
from strategia.ui.widgets import layers
from strategia.ui.widgets.mapview import MapView

RELIEF_TOOLS = ("plain", "mountains", "forest", "swamp", "hills", "water")
LINE_TOOLS = ("road", "railway", "trail")
PLACE_TOOLS = ("city", "capital", "fortress")
TOOLS = (*RELIEF_TOOLS, "state", *LINE_TOOLS, "river", *PLACE_TOOLS)
TOOL_NAMES = {  # each tool by the rules' name for what it draws
    "plain": Text("plain", "равнина"), "mountains": Text("mountains", "горы"),
    "forest": Text("forest", "лес"), "swamp": Text("swamp", "болота"),
    "hills": Text("hills", "холмы"), "water": Text("water (sea, lake)", "вода (море, озеро)"),
    "state": Text("a state's ground", "земля государства"), "road": Text("road", "дорога"),
    "railway": Text("railway", "железная дорога"), "trail": Text("trail", "тропа"),
    "river": Text("river (along the grid lines)", "река (по линиям сетки)"),
    "city": Text("city", "город"), "capital": Text("capital", "столица"),
    "fortress": Text("fortress", "крепость"),
}  # fmt: skip
LABELLED = {"description_width": "initial"}  # no label cut short


def _e(x: object) -> str:
    return html.escape(str(x))


class BuilderPanel:
    """A scenario under construction, on a map."""

    def __init__(self, builder: ScenarioBuilder, lang: str = "ru") -> None:
        self.lang = check_lang(lang)
        self.b = builder
        self.last: Cell | None = None  # the last point of the line being drawn
        self.corner: tuple[Fraction, Fraction] | None = None  # the last river corner
        self.painting = False
        lang_ = self.lang
        self.tool = w.Dropdown(
            options=[(TOOL_NAMES[t](lang_), t) for t in TOOLS],
            value="forest",
            description=Text("tool", "инструмент")(lang_),
            style=LABELLED,
        )
        self.brush = w.IntSlider(
            value=1, min=1, max=6, description=Text("brush, cells", "кисть, клеток")(lang_),
            style=LABELLED,
        )  # fmt: skip
        self.state_code = w.Text(
            value="R",
            description=Text("state: code", "государство: код")(lang_),
            style=LABELLED,
            layout=w.Layout(width="190px"),
        )
        self.state_name = w.Text(
            value="Красные", description=Text("name", "название")(lang_), style=LABELLED,
            layout=w.Layout(width="210px"),
        )  # fmt: skip
        self.state_side = w.Dropdown(
            options=[(side.label(lang_), side.key) for side in Side],
            value="red",
            description=Text("side", "сторона")(lang_),
            style=LABELLED,
            layout=w.Layout(width="190px"),
        )
        self.place_name = w.Text(
            description=Text("name of the place", "название пункта")(lang_),
            placeholder=Text("Redgrad", "Красноград")(lang_),
            style=LABELLED,
        )
        self.placements = w.Textarea(
            description=Text("deployment (6.3)", "расстановка (6.3)")(lang_),
            placeholder=Text(
                "17 RD - 45,22 facing E\n2 TC between 13,18 and 13,21",
                "17 с.д. - 45,22 фронтом на восток\n2 т.к. расположен между 13-18 и 13-21",
            )(lang_),
            style=LABELLED,
            layout=w.Layout(width="95%", height="70px"),
        )
        self.oob = w.Textarea(
            description=Text("corps and armies", "корпуса и армии")(lang_),
            placeholder=Text(
                "1 RC: 1 RD, 2 RD, 3 RD\n1 A: 1 RC, 17 RD",
                "1 с.к.: 1 с.д., 2 с.д., 3 с.д.\n1 А: 1 с.к., 17 с.д.",
            )(lang_),
            style=LABELLED,
            layout=w.Layout(width="95%", height="50px"),
        )
        self.mobilisation = w.Textarea(
            description=Text("reserves (6.4)", "резервы (6.4)")(lang_),
            placeholder=Text("M+5: 41 RD, 42 RD - 50,33", "M+5: 41 с.д., 42 с.д. - 50,33")(lang_),
            style=LABELLED,
            layout=w.Layout(width="95%", height="40px"),
        )
        self.apply_forces = w.Button(description=Text("Apply forces", "Применить войска")(lang_))
        self.apply_forces.on_click(
            lambda _: self.forces(
                self.state_code.value,
                self.oob.value,
                self.placements.value,
                self.mobilisation.value,
            )
        )
        self.finish = w.Button(description=Text("End the line", "Закончить линию")(lang_))
        self.finish.on_click(lambda _: self.end_line())
        self.check = w.Button(description=Text("Validate", "Проверить")(lang_), button_style="info")
        self.check.on_click(lambda _: self.validate())
        self.path = w.Text(
            value=str(Path(tempfile.gettempdir()) / "scenario.toml"),
            description=Text("file", "файл")(lang_),
            style=LABELLED,
            layout=w.Layout(width="95%"),
        )
        self.netcdf = w.Checkbox(
            value=False,
            description=Text("the theatre in NetCDF too", "театр также в NetCDF")(lang_),
            style=LABELLED,
        )
        self.save_button = w.Button(
            description=Text("Save", "Сохранить")(lang_), button_style="success"
        )
        self.save_button.on_click(lambda _: self.save(Path(self.path.value), self.netcdf.value))
        self.report = w.HTML()
        # «Сыграть N раз»: the scenario as it stands, played by the computer (a small sweep)
        self.tries = TryIt(lambda: self.b.build(), self.lang)
        self.mapview = MapView(self.b.scenario.theatre, 3, self.click, lang_)
        self.mapview.on_drag = self.drag
        self.tool.observe(lambda _: self._tool_changed(), names="value")
        tools = w.VBox(
            [
                self.tool, self.brush,
                w.VBox([self.state_code, self.state_name, self.state_side]),
                self.place_name, self.finish, w.HTML("<hr>"),
                self.oob, self.placements, self.mobilisation, self.apply_forces, self.check,
                self.path, w.HBox([self.netcdf, self.save_button]), self.report,
                w.HTML("<hr>"), self.tries.widget,
            ]
        )  # fmt: skip
        self.widget = w.HBox(
            [
                w.Box([self.mapview.map], layout=w.Layout(width="62%")),
                w.Box([tools], layout=w.Layout(width="38%")),
            ]
        )
        self.redraw()

    @classmethod
    def blank(cls, width: int, height: int, lang: str = "ru") -> BuilderPanel:
        name = Text("new scenario", "новый сценарий")(check_lang(lang))
        return cls(ScenarioBuilder.blank(width, height, name=name), lang)

    @classmethod
    def from_file(cls, path: str | Path, lang: str = "ru") -> BuilderPanel:
        return cls(ScenarioBuilder.edit(load_scenario(path)), lang)

    @property
    def scenario(self) -> Scenario:
        return self.b.scenario

    # --- drawing ------------------------------------------------------------------------------

    def redraw(self) -> None:
        ds = self.b.scenario.theatre
        self.mapview.redraw_theatre(ds, 3)
        try:
            view = mediator_view(initial_state(self.b.scenario, self.b.scenario.settings.level))
            self.mapview.show_units(layers.counters_geojson(to_geojson(view), marks=False))
        except (StrategiaError, KeyError):
            self.mapview.show_units(layers.cells_geojson([]))

    def _tool_changed(self) -> None:
        self.end_line()
        self.mapview.map.dragging = (
            self.tool.value not in RELIEF_TOOLS and self.tool.value != "state"
        )

    def _do(self, action: Any) -> None:
        try:
            self.b = action(self.b)
            self.report.value = ""
        except (StrategiaError, ValueError, KeyError) as e:
            self.report.value = f"<span style='color:#b00'>{_e(say(e, self.lang))}</span>"
        self.redraw()

    def paint(self, cell: Cell) -> None:
        """Paint the brush's square of relief (or state) centred on `cell`."""
        ds = self.b.scenario.theatre
        w_, h_ = terrain.size(ds)
        r = self.brush.value - 1
        lon = (max(1, cell.lon - r // 2), min(w_, cell.lon + (r + 1) // 2))
        lat = (max(1, cell.lat - r // 2), min(h_, cell.lat + (r + 1) // 2))
        if self.tool.value == "state":
            code, name, side = (
                self.state_code.value.strip(),
                self.state_name.value.strip(),
                self.state_side.value,
            )
            self._do(lambda b: b.state(code, name or code, side, lon=lon, lat=lat))
        else:
            relief = str(self.tool.value)
            self._do(lambda b: b.paint(relief, lon=lon, lat=lat))

    def click(self, x: float, y: float, _: dict[str, Any] | None = None) -> None:
        """A click on the map with the chosen tool."""
        cell = Cell(round(x), round(y))
        tool = str(self.tool.value)
        if tool in RELIEF_TOOLS or tool == "state":
            self.paint(cell)
        elif tool in LINE_TOOLS:
            if self.last is not None and self.last != cell:
                line = f"{self.last} {cell}"
                method = {"road": "road", "railway": "railway", "trail": "trail"}[tool]
                self._do(lambda b: getattr(b, method)(line))
            self.last = cell
        elif tool == "river":
            corner = (
                Fraction(round(x - 0.5)) + Fraction(1, 2),
                Fraction(round(y - 0.5)) + Fraction(1, 2),
            )
            if self.corner is not None and corner != self.corner:
                (ax, ay), (bx, by) = self.corner, corner
                text = " ".join(
                    f"{float(px):g},{float(py):g}"
                    for px, py in ((ax, ay), (bx, ay), (bx, by))
                    if True
                )
                self._do(lambda b: b.river(_dedupe(text)))
            self.corner = corner
        else:
            name = self.place_name.value.strip()
            if tool == "fortress":
                self._do(lambda b: b.fortress(str(cell), name))
            else:
                self._do(lambda b: b.city(name, str(cell), capital=tool == "capital"))

    def drag(self, kind: str, x: float, y: float) -> None:
        """Painting by dragging with a relief or state brush."""
        if self.tool.value not in RELIEF_TOOLS and self.tool.value != "state":
            return
        if kind == "mousedown":
            self.painting = True
        elif kind == "mouseup":
            self.painting = False
        elif self.painting:
            self.paint(Cell(round(x), round(y)))

    def end_line(self) -> None:
        self.last = None
        self.corner = None

    # --- forces, checking, saving ---------------------------------------------------------------

    def forces(self, code: str, oob: str, placements: str, mobilisation: str = "") -> None:
        """A state's order of battle ("<corps>: <divisions>"), deployment and reserves."""

        def action(b: ScenarioBuilder) -> ScenarioBuilder:
            for line in filter(str.strip, oob.splitlines()):
                head, _, rest = line.partition(":")
                members = [m.strip() for m in rest.split(",") if m.strip()]
                b = (
                    b.army(code, head.strip(), *members)
                    if head.strip().endswith(("А", "A"))
                    else b.corps(code, head.strip(), *members)
                )
            lines = [x.strip() for x in placements.splitlines() if x.strip()]
            if lines:
                b = b.place(code, *lines)
            for line in filter(str.strip, mobilisation.splitlines()):
                m = re.match(r"^\s*(M(?:\+\d+)?)\s*:\s*(.+?)\s+-\s+(\S+)\s*$", line)
                if not m:
                    raise StrategiaError(
                        f"{line!r}: expected 'M+5: 41 с.д., 42 с.д. - 50,33'",
                        ru=f"{line!r}: нужно «M+5: 41 с.д., 42 с.д. - 50,33»",
                    )
                b = b.reserves(
                    code, m.group(1), m.group(3), *(d.strip() for d in m.group(2).split(","))
                )
            return b

        self._do(action)

    def validate(self) -> list[str]:
        """Every problem of the scenario, listed, and the cells they name marked on the map."""
        problems = [p.say(self.lang) for p in self.b.problems()]
        cells = sorted(
            {(int(a), int(b)) for p in problems for a, b in re.findall(r"\b(\d+)[,-](\d+)\b", p)}
        )
        self.mapview.show_reach(cells)
        ok = Text("no problems", "ошибок нет")(self.lang)
        self.report.value = (
            "<ul>" + "".join(f"<li>{_e(p)}</li>" for p in problems) + "</ul>"
            if problems
            else f"<b>{ok}</b>"
        )
        return problems

    def save(self, path: Path, netcdf: bool = False) -> Path | None:
        """Save the scenario (text, and the theatre in NetCDF beside it if asked)."""
        if self.validate():
            return None
        out = save_scenario(
            self.b.build(), path, netcdf=path.with_suffix(".nc").name if netcdf else None
        )
        self.report.value = f"{Text('saved', 'сохранено')(self.lang)}: <code>{_e(out)}</code>"
        return out


def _dedupe(text: str) -> str:
    """Corner list without repeats (a straight river segment has one bend less)."""
    out: list[str] = []
    for t in text.split():
        if not out or out[-1] != t:
            out.append(t)
    return " ".join(out)


__all__ = ["BuilderPanel", "Placement"]
