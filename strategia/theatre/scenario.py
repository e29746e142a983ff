"""Scenarios: a theatre, the states and sides, their forces, deployment and mobilisation, settings.

A `Scenario` is a frozen value. It is read from and written to the text format of
`strategia.scenario_io` and built or edited in a few lines with `strategia.builder`.
`check_scenario` lists every problem of one at once.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import xarray as xr

from strategia.core.errors import Problem
from strategia.core.geometry import Cell, Direction
from strategia.core.numbers import divisions
from strategia.notation.refs import Placement, UnitRef
from strategia.rules import RuleSet, load_ruleset
from strategia.rules.kinds import DivisionKind, Side
from strategia.rules.units import Division, new_division
from strategia.theatre import terrain

SIDES_RU = "«red», «blue», «green» или «black»"  # a state's sides as the file names them

MOBILISATION_DAYS = ("M", "M+5", "M+10", "M+15")  # table 5


@dataclass(frozen=True, slots=True)
class CorpsSetup:
    """A corps of the order of battle: its designation and its divisions' designations."""

    ref: UnitRef
    divisions: tuple[UnitRef, ...]


@dataclass(frozen=True, slots=True)
class ArmySetup:
    """An army: its number and what it commands (corps and separate divisions), 5.6."""

    ref: UnitRef
    members: tuple[UnitRef, ...]


@dataclass(frozen=True, slots=True)
class FrontSetup:
    """A front (army group): its number and its armies (5.7: convenient, not compulsory)."""

    ref: UnitRef
    armies: tuple[UnitRef, ...]


@dataclass(frozen=True, slots=True)
class Arrival:
    """Reserve divisions appearing on a mobilisation day in a city (6.4, table 5)."""

    day: str
    divisions: tuple[UnitRef, ...]
    cell: Cell


@dataclass(frozen=True, slots=True)
class Forces:
    """One state's forces: order of battle, peacetime deployment and mobilisation (6.x)."""

    state: str
    armies: tuple[ArmySetup, ...] = ()
    corps: tuple[CorpsSetup, ...] = ()
    deployment: tuple[Placement, ...] = ()
    mobilisation: tuple[Arrival, ...] = ()
    fronts: tuple[FrontSetup, ...] = ()
    _corps: dict[UnitRef, CorpsSetup] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_ref = {c.ref: c for c in reversed(self.corps)}  # the first, as a search finds
        object.__setattr__(self, "_corps", by_ref)

    def army_divisions(self, army: ArmySetup) -> list[UnitRef]:
        """The divisions an army commands, its corps' divisions included (5.6)."""
        return [d for m in army.members for d in self.divisions_of(m)]

    def front_of(self, army: UnitRef) -> UnitRef | None:
        return next((f.ref for f in self.fronts if army in f.armies), None)

    def deployed_divisions(self) -> list[UnitRef]:
        """Every division the deployment places, corps expanded."""
        out: list[UnitRef] = []
        for p in self.deployment:
            out.extend(self.divisions_of(p.unit))
        return out

    def reserve_divisions(self) -> list[UnitRef]:
        return [d for a in self.mobilisation for d in a.divisions]

    def divisions_of(self, ref: UnitRef) -> list[UnitRef]:
        """A division itself, or a corps' divisions."""
        corps = self._corps.get(ref)
        return list(corps.divisions) if corps is not None else [ref]


@dataclass(frozen=True, slots=True)
class Settings:
    """Game settings of the scenario (0.2, 1.9, 8.3)."""

    level: int = 2
    ruleset: str = "continental"
    seed: int = 1
    clock_minutes: float = 0.0  # 0: no clock
    recon_questions: float | None = None  # None: the rules' 15 per 10 turns
    mediator: bool = True


@dataclass(frozen=True)
class Scenario:
    """A theatre with its states, their forces and the game settings."""

    name: str
    theatre: xr.Dataset
    forces: tuple[Forces, ...] = ()
    settings: Settings = field(default_factory=Settings)
    description: str = ""

    @property
    def width(self) -> int:
        return terrain.size(self.theatre)[0]

    @property
    def height(self) -> int:
        return terrain.size(self.theatre)[1]

    @property
    def states(self) -> list[terrain.State]:
        return terrain.states(self.theatre)

    def state(self, code: str) -> terrain.State:
        for s in terrain.states(self.theatre):
            if s.code == code:
                return s
        raise KeyError(code)

    def side_of(self, state_code: str) -> Side:
        return Side.from_key(self.state(state_code).side)

    def rules(self, level: int | None = None) -> RuleSet:
        return load_ruleset(self.settings.ruleset, level=level or self.settings.level)

    @property
    def known_units(self) -> list[UnitRef]:
        """Every unit the scenario names (armies, corps, divisions), for notation context."""
        refs: list[UnitRef] = []
        for f in self.forces:
            refs += [x.ref for x in f.fronts] + [a.ref for a in f.armies] + [c.ref for c in f.corps]
            refs += f.deployed_divisions() + f.reserve_divisions()
            refs += [d for c in f.corps for d in c.divisions]
        return list(dict.fromkeys(refs))

    def forces_of(self, state_code: str) -> Forces:
        for f in self.forces:
            if f.state == state_code:
                return f
        return Forces(state_code)

    def with_forces(self, forces: Forces) -> Scenario:
        others = tuple(f for f in self.forces if f.state != forces.state)
        return replace(self, forces=(*others, forces))

    def divisions(self, rules: RuleSet | None = None) -> dict[UnitRef, tuple[str, Division]]:
        """Every division at full strength, with its state code (table 1 compositions)."""
        rules = rules or self.rules()
        out: dict[UnitRef, tuple[str, Division]] = {}
        for f in self.forces:
            for ref in f.deployed_divisions() + f.reserve_divisions():
                if isinstance(ref.kind, DivisionKind):
                    out[ref] = (f.state, new_division(ref.number, ref.kind, rules))
        return out

    def default_facing(self, state_code: str, cell: Cell) -> Direction:
        """Facing the nearest enemy state (6.3: parallel to the border goes unsaid).

        The enemy is a state of another side, neutrals (Green) last: a Red unit faces Blue.
        """
        st = self.theatre["state"].values
        side = self.state(state_code).side
        others = [(i + 1, s) for i, s in enumerate(self.states) if s.side != side]
        main = [k for k, s in others if s.side != "green"] or [k for k, _ in others]
        foreign = np.isin(st, main)
        ii, jj = np.nonzero(foreign)
        if len(ii) == 0:
            return Direction.N
        i, j = terrain.index(self.theatre, cell)
        k = int(np.argmin((ii - i) ** 2 + (jj - j) ** 2))
        d_lon, d_lat = int(ii[k] - i), int(jj[k] - j)
        return Direction.from_delta(d_lon, d_lat) if (d_lon, d_lat) != (0, 0) else Direction.N


def check_scenario(sc: Scenario) -> list[Problem]:
    """Every problem of a scenario (beyond the theatre's own), all at once."""
    problems = list(terrain.check(sc.theatre))
    codes = [s.code for s in sc.states]
    for code, n in Counter(codes).items():
        if n > 1:
            problems.append(
                Problem(f"state {code}", "defined twice", ru="задано дважды",
                        where_ru=f"государство «{code}»")
            )  # fmt: skip
    for s in sc.states:
        if s.side not in [m.key for m in Side]:
            problems.append(
                Problem(
                    f"state {s.code}",
                    f"unknown side {s.side!r} (red, blue, green, black)",
                    ru=f"нет такой стороны: {s.side!r} (можно: {SIDES_RU})",
                    where_ru=f"государство «{s.code}»",
                )
            )
    division_numbers: Counter[int] = Counter()
    corps_numbers: Counter[int] = Counter()
    relief = sc.theatre["relief"].values
    for f in sc.forces:
        where = f"forces.{f.state}"
        if f.state not in codes:
            problems.append(Problem(where, f"no state {f.state!r} on the map",
                                    ru=f"на карте нет государства {f.state!r}"))  # fmt: skip
        for c in f.corps:
            corps_numbers[c.ref.number] += 1
            if not c.divisions:
                problems.append(Problem(where, f"{c.ref}: a corps with no divisions",
                                        ru=f"{c.ref}: корпус без дивизий"))  # fmt: skip
        problems += _check_fronts(f)
        for ref in f.deployed_divisions() + f.reserve_divisions():
            if isinstance(ref.kind, DivisionKind):
                division_numbers[ref.number] += 1
        for p in f.deployment:
            for cell in p.cells:
                if not terrain.on_map(sc.theatre, cell):
                    problems.append(
                        Problem(
                            where,
                            f"{p.format('en')}: cell {cell} off the map, which is "
                            f"{sc.width} x {sc.height}",
                            ru=f"{p}: клетка {cell} вне карты (карта {sc.width} × {sc.height})",
                        )
                    )
                elif relief[terrain.index(sc.theatre, cell)] == terrain.Relief.WATER:
                    problems.append(
                        Problem(
                            where,
                            f"{p.format('en')}: cell {cell} is water",
                            ru=f"{p}: клетка {cell} — вода",
                        )
                    )
        _check_mobilisation(sc, f, problems)
    for n, k in division_numbers.items():
        if k > 1:
            problems.append(
                Problem(
                    "forces",
                    f"{k} divisions numbered {n}: every division needs its own number",
                    ru=f"дивизий с номером {n}: {k}; у каждой дивизии свой номер",
                )
            )
    for n, k in corps_numbers.items():
        if k > 1:
            problems.append(
                Problem("forces", f"{k} corps numbered {n}", ru=f"корпусов с номером {n}: {k}")
            )
    return [_placed(p) for p in problems]


# A scenario's parts as a Russian sentence names them: «силы R, состав».
_PARTS_RU = {
    "order_of_battle": "состав",
    "deployment": "расстановка",
    "mobilisation": "мобилизация",
}


def _placed(p: Problem) -> Problem:
    """`p` with its place in Russian words where it is a part of the forces (forces.R...)."""
    head, *rest = p.where.split(".")
    if head != "forces" or p.where_ru:
        return p
    words = ["силы", *(f"«{code}»" for code in rest[:1])]
    where = " ".join(words) + "".join(f", {_PARTS_RU.get(x, x)}" for x in rest[1:])
    return replace(p, where_ru=where)


def scenario_warnings(sc: Scenario) -> list[Problem]:
    """What a mediator should look at, though the scenario plays: armies outside 5.6's 4 to 10
    divisions, trails whose ends cannot be entered from outside (terrain.trail_warnings)."""
    rules = sc.rules()
    lo, hi = (
        int(rules.value("deployment", k)) for k in ("army_min_divisions", "army_max_divisions")
    )
    out = list(terrain.trail_warnings(sc.theatre))
    for f in sc.forces:
        where = f"forces.{f.state}.order_of_battle"
        for a in f.armies:
            n = len(f.army_divisions(a))
            if not lo <= n <= hi:
                what = f"{a.ref}: {divisions(n)}; an army has {lo} to {hi} (5.6)"
                ru = f"{a.ref}: {divisions(n, 'ru')}; в армии их от {lo} до {hi} (5.6)"
                out.append(Problem(where, what, ru=ru))
    return [_placed(p) for p in out]


def _check_fronts(f: Forces) -> list[Problem]:
    """5.7: a front groups armies of the order of battle."""
    where = f"forces.{f.state}.order_of_battle"
    out = []
    armies = {a.ref for a in f.armies}
    for front in f.fronts:
        for m in front.armies:
            if m.echelon != "army":
                out.append(
                    Problem(where, f"{front.ref}: {m} is not an army; a front groups armies (5.7)",
                            ru=f"{front.ref}: {m} — не армия; фронт объединяет армии (5.7)")
                )  # fmt: skip
            elif m not in armies:
                out.append(Problem(where, f"{front.ref}: {m} is not in the order of battle",
                                   ru=f"{front.ref}: {m} нет в составе сил"))  # fmt: skip
    return out


def _check_mobilisation(sc: Scenario, f: Forces, problems: list[Problem]) -> None:
    per_city: Counter[tuple[str, Cell]] = Counter()
    for a in f.mobilisation:
        where = f"forces.{f.state}.mobilisation"
        if a.day not in MOBILISATION_DAYS:
            problems.append(
                Problem(
                    where,
                    f"day {a.day!r}: expected one of {', '.join(MOBILISATION_DAYS)}",
                    ru=f"день {a.day!r}: нужен один из: {', '.join(MOBILISATION_DAYS)}",
                )
            )
        if not terrain.on_map(sc.theatre, a.cell):
            problems.append(Problem(where, f"{a.cell} off the map", ru=f"{a.cell} вне карты"))
            continue
        if sc.theatre["settlement"].values[terrain.index(sc.theatre, a.cell)] == 0:
            problems.append(Problem(where, f"{a.day}: {a.cell} is not a city (6.4)",
                                    ru=f"{a.day}: {a.cell} — не город (6.4)"))  # fmt: skip
        per_city[(a.day, a.cell)] += len(a.divisions)
    for (day, cell), n in per_city.items():
        if n > 2:
            problems.append(
                Problem(
                    f"forces.{f.state}.mobilisation",
                    f"{day}: {n} divisions in {cell}; at most two at once (6.4)",
                    ru=f"{day}: {divisions(n, 'ru')} в {cell}; не больше двух сразу (6.4)",
                )
            )


def summary(sc: Scenario) -> dict[str, Any]:
    """A short description of the scenario: size, states, forces by kind."""
    forces = {}
    for f in sc.forces:
        kinds = Counter(r.kind.ru for r in f.deployed_divisions() if r.kind is not None)
        reserves = Counter(r.kind.ru for r in f.reserve_divisions() if r.kind is not None)
        forces[f.state] = {
            "fronts": len(f.fronts),
            "armies": len(f.armies),
            "corps": len(f.corps),
            "divisions": dict(kinds),
            "reserves": dict(reserves),
        }
    return {
        "name": sc.name,
        "size": [sc.width, sc.height],
        "level": sc.settings.level,
        "states": [{"code": s.code, "name": s.name, "side": s.side} for s in sc.states],
        "forces": forces,
        "cities": int((sc.theatre["settlement"].values > 0).sum()),
        "fortresses": int(sc.theatre["fortress"].values.sum()),
        "transport_nodes": int(terrain.transport_nodes(sc.theatre).sum()),
    }
