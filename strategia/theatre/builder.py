"""Building and editing scenarios in a few lines of Python, for quick prototyping.

    >>> from strategia.builder import ScenarioBuilder
    >>> b = ScenarioBuilder.blank(20, 12, name="Trial")
    >>> b = b.state("R", "Красные", "red", lon=(1, 10)).state("B", "Синие", "blue", lon=(11, 20))
    >>> b = b.paint("forest", lon=(4, 7), lat=(3, 6)).road("2,6 18,6").river("10.5,0.5 10.5,12.5")
    >>> b = b.city("Красноград", "3,6", capital=True).corps("R", "1 с.к.", "1 с.д.", "2 с.д.")
    >>> b = b.place("R", "1 с.к. расположен между 9-5 и 9-6")
    >>> scenario = b.build()

Every method returns a new builder; `build` checks the result and lists every problem.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any

import xarray as xr

from strategia.core.errors import Problem, StrategiaError
from strategia.notation.refs import Placement, UnitRef, parse_cell
from strategia.theatre import drawing, terrain
from strategia.theatre.scenario import (
    ArmySetup,
    Arrival,
    CorpsSetup,
    FrontSetup,
    Scenario,
    Settings,
    check_scenario,
)

Span = tuple[int, int] | int | None
PLACES_RU = {"capitals": "столица", "cities": "город", "fortresses": "крепость"}


class BuildError(StrategiaError):
    """A scenario built in Python has problems; every one is listed."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__(
            "the scenario has problems:\n" + "\n".join(f"  - {p}" for p in problems),
            ru="в сценарии ошибки:\n" + "\n".join(f"  - {p.say('ru')}" for p in problems),
        )


def _span(span: Span, full: int) -> slice:
    if span is None:
        return slice(0, full)
    lo, hi = (span, span) if isinstance(span, int) else span
    return slice(lo - 1, hi)


@dataclass(frozen=True)
class ScenarioBuilder:
    """An immutable scenario under construction."""

    scenario: Scenario

    @classmethod
    def blank(
        cls, width: int, height: int, name: str = "scenario", level: int = 2
    ) -> ScenarioBuilder:
        return cls(
            Scenario(name, terrain.blank(width, height, name), settings=Settings(level=level))
        )

    @classmethod
    def edit(cls, scenario: Scenario) -> ScenarioBuilder:
        return cls(scenario)

    def _theatre(self) -> xr.Dataset:
        return self.scenario.theatre.copy(deep=True)

    def _with(self, ds: xr.Dataset) -> ScenarioBuilder:
        return replace(self, scenario=replace(self.scenario, theatre=ds))

    def settings(self, **changes: Any) -> ScenarioBuilder:
        return replace(
            self,
            scenario=replace(self.scenario, settings=replace(self.scenario.settings, **changes)),
        )

    def paint(
        self, relief: str | terrain.Relief, lon: Span = None, lat: Span = None
    ) -> ScenarioBuilder:
        """Paint a rectangle of relief (inclusive cell ranges; None = the whole extent)."""
        r = relief if isinstance(relief, terrain.Relief) else terrain.Relief[relief.upper()]
        ds = self._theatre()
        w, h = terrain.size(ds)
        ds["relief"].values[_span(lon, w), _span(lat, h)] = int(r)
        return self._with(ds)

    def paint_cells(self, relief: str | terrain.Relief, cells: str) -> ScenarioBuilder:
        """Paint the cells of a line (`10,5 14,9`) with relief."""
        r = relief if isinstance(relief, terrain.Relief) else terrain.Relief[relief.upper()]
        ds = self._theatre()
        for c in drawing.parse_route(cells, terrain.size(ds)):
            ds["relief"].values[terrain.index(ds, c)] = int(r)
        return self._with(ds)

    def state(
        self, code: str, name: str, side: str, lon: Span = None, lat: Span = None
    ) -> ScenarioBuilder:
        """Declare a state (if new) and give it a rectangle of land."""
        ds = self._theatre()
        sts = json.loads(ds.attrs["states"])
        codes = [s["code"] for s in sts]
        if code not in codes:
            sts.append({"code": code, "name": name, "side": side})
            ds.attrs["states"] = json.dumps(sts, ensure_ascii=False)
            codes.append(code)
        w, h = terrain.size(ds)
        ds["state"].values[_span(lon, w), _span(lat, h)] = codes.index(code) + 1
        ds["state"].values[ds["relief"].values == terrain.Relief.WATER] = 0
        return self._with(ds)

    def _route(self, layer: str, cells: str) -> ScenarioBuilder:
        ds = self._theatre()
        drawing.draw_route(ds[layer].values, drawing.parse_route(cells, terrain.size(ds)))
        return self._with(ds)

    def road(self, cells: str) -> ScenarioBuilder:
        """A road through the waypoints (`10,5 20,5 25,10`)."""
        return self._route("road", cells)

    def railway(self, cells: str) -> ScenarioBuilder:
        return self._route("rail", cells)

    def trail(self, cells: str) -> ScenarioBuilder:
        return self._route("trail", cells)

    def river(self, corners: str) -> ScenarioBuilder:
        """A river along grid lines through the corners (`10.5,4.5 10.5,9.5 14.5,9.5`)."""
        ds = self._theatre()
        drawing.draw_river(ds["river_e"].values, ds["river_n"].values, drawing.parse_river(corners))
        return self._with(ds)

    def _place(self, cell_text: str, name: str, kind: str) -> ScenarioBuilder:
        ds = self._theatre()
        cell = parse_cell(cell_text)
        if not terrain.on_map(ds, cell):
            w, h = terrain.size(ds)
            raise StrategiaError(
                f"{name or kind} {cell}: cell off the map, which is {w} x {h}",
                ru=f"{name or PLACES_RU[kind]} {cell}: клетка вне карты (карта {w} × {h})",
            )
        i, j = terrain.index(ds, cell)
        if kind == "fortresses":
            ds["fortress"].values[i, j] = True
        else:
            ds["settlement"].values[i, j] = (
                2 if kind == "capitals" else max(1, int(ds["settlement"].values[i, j]))
            )
        if name:
            places = json.loads(ds.attrs["places"])
            places.append({"name": name, "lon": cell.lon, "lat": cell.lat, "kind": kind})
            ds.attrs["places"] = json.dumps(places, ensure_ascii=False)
        return self._with(ds)

    def city(self, name: str, cell: str, capital: bool = False) -> ScenarioBuilder:
        return self._place(cell, name, "capitals" if capital else "cities")

    def fortress(self, cell: str, name: str = "") -> ScenarioBuilder:
        return self._place(cell, name, "fortresses")

    def _forces(self, state: str, **changes: Any) -> ScenarioBuilder:
        f = replace(self.scenario.forces_of(state), **changes)
        return replace(self, scenario=self.scenario.with_forces(f))

    def corps(self, state: str, corps: str, *divisions: str) -> ScenarioBuilder:
        """A corps of the state's order of battle: `corps("R", "2 т.к.", "21 т.д.", "22 т.д.")`."""
        f = self.scenario.forces_of(state)
        c = CorpsSetup(UnitRef.parse(corps), tuple(UnitRef.parse(d) for d in divisions))
        return self._forces(state, corps=(*(x for x in f.corps if x.ref != c.ref), c))

    def army(self, state: str, army: str, *members: str) -> ScenarioBuilder:
        """An army: `army("R", "1 А", "1 с.к.", "17 с.д.")`."""
        f = self.scenario.forces_of(state)
        a = ArmySetup(UnitRef.parse(army), tuple(UnitRef.parse(m) for m in members))
        return self._forces(state, armies=(*(x for x in f.armies if x.ref != a.ref), a))

    def front(self, state: str, front: str, *armies: str) -> ScenarioBuilder:
        """A front (5.7) of armies: `front("R", "1 Ф", "1 А", "2 А")`."""
        f = self.scenario.forces_of(state)
        x = FrontSetup(UnitRef.parse(front), tuple(UnitRef.parse(a) for a in armies))
        return self._forces(state, fronts=(*(y for y in f.fronts if y.ref != x.ref), x))

    def place(self, state: str, *placements: str) -> ScenarioBuilder:
        """Deploy units, in journal notation: `place("R", "17 с.д. - 45,22")`."""
        f = self.scenario.forces_of(state)
        new = tuple(Placement.parse(p) for p in placements)
        kept = tuple(p for p in f.deployment if p.unit not in {n.unit for n in new})
        return self._forces(state, deployment=kept + new)

    def reserves(self, state: str, day: str, cell: str, *divisions: str) -> ScenarioBuilder:
        """Reserve divisions arriving on a mobilisation day in a city (6.4)."""
        f = self.scenario.forces_of(state)
        a = Arrival(day, tuple(UnitRef.parse(d) for d in divisions), parse_cell(cell))
        return self._forces(state, mobilisation=(*f.mobilisation, a))

    def problems(self) -> list[Problem]:
        return check_scenario(self.scenario)

    def build(self) -> Scenario:
        """The scenario, if it has no problems; else a BuildError listing them all."""
        problems = self.problems()
        if problems:
            raise BuildError(problems)
        return self.scenario
