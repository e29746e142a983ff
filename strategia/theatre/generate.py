"""Random scenarios for quick trials: a random theatre (`generate_terrain`) and forces on it.

    >>> sc = random_scenario(64, 44, seed=7, divisions_per_side=20)

One seeded `numpy.random.Generator` makes everything: the same arguments give an identical
scenario.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from scipy import ndimage

from strategia.core.errors import StrategiaError
from strategia.core.geometry import Cell, Direction
from strategia.notation.refs import Placement, UnitRef
from strategia.rules.kinds import CorpsKind, DivisionKind
from strategia.theatre import terrain
from strategia.theatre.builder import BuildError
from strategia.theatre.generate_terrain import DEPLOYABLE, Ij, Rng, random_theatre
from strategia.theatre.scenario import CorpsSetup, Forces, Scenario, Settings, check_scenario

MIX = {DivisionKind.TANK: 0.18, DivisionKind.MOTORISED: 0.12, DivisionKind.SP_GUN: 0.05,
       DivisionKind.ANTI_TANK: 0.05, DivisionKind.ARTILLERY: 0.05}  # fmt: skip
CORPS = {  # division kind: (corps kind, divisions in a corps, share of the kind in corps)
    DivisionKind.RIFLE: (CorpsKind.RIFLE, 3, 0.7),
    DivisionKind.TANK: (CorpsKind.TANK, 2, 0.7),
    DivisionKind.MOTORISED: (CorpsKind.MOTORISED, 2, 0.5),
}

Slot = tuple[UnitRef, tuple[UnitRef, ...], bool]  # unit placed, its divisions, first echelon


def _order_of_battle(n: int, base: int) -> tuple[list[CorpsSetup], list[Slot]]:
    """`n` divisions numbered from `base` + 1 in the MIX of kinds, grouped in CORPS; first
    echelon (rifle corps and anti-tank divisions) first."""
    counts = [(kind, int(n * share)) for kind, share in MIX.items()]
    kinds = [DivisionKind.RIFLE] * (n - sum(c for _, c in counts))
    kinds = (kinds + [kind for kind, c in counts for _ in range(c)])[:n]
    refs = [UnitRef(base + 1 + t, kind) for t, kind in enumerate(kinds)]
    corps: list[CorpsSetup] = []
    slots: list[Slot] = []
    for kind in dict.fromkeys(kinds):
        divs = [r for r in refs if r.kind is kind]
        corps_kind, size, share = CORPS.get(kind, (CorpsKind.RIFLE, 1, 0.0))
        n_corps = int(len(divs) * share) // size
        for c in range(n_corps):
            ref, members = (
                UnitRef(base + 1 + len(corps), corps_kind),
                divs[c * size : c * size + size],
            )
            corps.append(CorpsSetup(ref, tuple(members)))
            slots.append((ref, tuple(members), kind is DivisionKind.RIFLE))
        slots += [(d, (d,), kind is DivisionKind.ANTI_TANK) for d in divs[n_corps * size :]]
    return corps, sorted(slots, key=lambda s: not s[2])


def _deploy(
    rng: Rng, ok: np.ndarray, dist: np.ndarray, slots: list[Slot], facing: Direction | None
) -> list[Placement]:
    """One division a cell on `ok` cells, a gap between units where there is room: the first
    echelon near the enemy (`dist`: cells to the nearest foreign cell), the rest behind it.
    A corps stands along a meridian, its divisions side by side."""
    h, ok = ok.shape[1], ok & (dist >= 2)  # not next to the enemy
    taken, near = ~ok, ~ok  # no unit may stand here / nor should one (beside another)
    fill = np.flatnonzero(ok)
    d = dist.flat[fill]
    # the first echelon from the front backward; the rest from 50 km back, then the shallows
    behind = np.where(d >= 5, d * rng.uniform(0.3, 1.7, d.size), 1e9 - d)
    orders = [
        fill[np.argsort(key, kind="stable")] for key in (d + rng.uniform(0, 3, d.size), behind)
    ]
    start: dict[tuple[int, bool], int] = {}

    def put(which: int, k: int) -> list[Ij] | None:
        order = orders[which]
        for halo, mask in ((True, near), (False, taken)):
            p = start.get((which, halo), 0)
            while p < len(order) and mask.flat[order[p]]:
                p += 1
            start[(which, halo)] = p
            for f in order[p : p + 64].tolist():
                i, j = divmod(f, h)
                if j + k <= h and not mask[i, j : j + k].any():
                    taken[i, j : j + k] = True
                    near[max(i - 1, 0) : i + 2, max(j - 1, 0) : j + k + 1] = True
                    return [(i, j + t) for t in range(k)]
        return None

    out: list[Placement] = []
    for ref, members, first in slots:
        which = 0 if first else 1
        cells = put(which, len(members))  # a corps that finds no room stands by divisions
        for unit, at in [(ref, cells)] if cells else [(m, put(which, 1)) for m in members]:
            if at is None:
                raise StrategiaError(
                    f"no room for {unit}: make the map larger or forces smaller",
                    ru=f"нет места для {unit}: увеличьте карту или уменьшите силы",
                )
            ends = sorted({at[0], at[-1]})
            out.append(Placement(unit, tuple(Cell(i + 1, j + 1) for i, j in ends), facing))
    return out


def numbering_stride(divisions_per_side: int, states: int) -> int:
    """The gap between the states' first division numbers: a power of ten (at least 10,000)
    above the forces of a side, so that every number fits the notation's six digits."""
    stride: int = 10 ** max(4, len(str(max(divisions_per_side, 1))))
    if states * stride > 10**6 or divisions_per_side < 0:
        raise StrategiaError(
            f"{divisions_per_side} divisions a side, {states} states: too many",
            ru=f"дивизий на сторону: {divisions_per_side}, государств: {states} — слишком много",
        )
    return stride


def random_scenario(
    width: int,
    height: int,
    *,
    seed: int,
    divisions_per_side: int,
    level: int = 2,
    states: int = 2,
    green_divisions: int | None = None,
    shares: Mapping[str, float] | None = None,
    rivers: int = 4,
    cities: int | None = None,
    roads: int | None = None,
    name: str = "Случайный сценарий",
) -> Scenario:
    """A random scenario on `random_theatre(...)` with the same knobs, checked by `check_scenario`.

    Red (east, facing west, divisions numbered from 1) and Blue (west, facing east, numbered
    from 10001, or from 100001 for 10,000 or more) each field
    `divisions_per_side` divisions: mostly с.д., with т.д., м.д., сау.д., пт.д. and а.д.; most
    с.д., т.д. and м.д. in corps. Each Green state fields `green_divisions` с.д. (default a
    tenth of a side's). Raises a BuildError listing the problems if the check finds any.
    """
    stride = numbering_stride(divisions_per_side, states)
    ds = random_theatre(
        width, height, seed=seed, shares=shares, rivers=rivers, cities=cities, roads=roads,
        states=states, name=name,
    )  # fmt: skip
    rng = np.random.default_rng([seed, 1])
    st = ds["state"].values
    good = np.isin(ds["relief"].values, DEPLOYABLE) & (ds["settlement"].values == 0)
    n_green = max(1, divisions_per_side // 10) if green_divisions is None else green_divisions
    forces = []
    for s, state in enumerate(terrain.states(ds), start=1):
        base = (s - 1) * stride
        if s <= 2:
            corps, slots = _order_of_battle(divisions_per_side, base)
            foreign, facing = st == 3 - s, (Direction.W, Direction.E)[s - 1]
        else:
            refs = [UnitRef(base + 1 + t, DivisionKind.RIFLE) for t in range(n_green)]
            corps, slots = [], [(r, (r,), True) for r in refs]
            foreign, facing = (st > 0) & (st != s), None
        dist = ndimage.distance_transform_edt(~foreign)
        placed = _deploy(rng, good & (st == s), dist, slots, facing)
        forces.append(Forces(state.code, corps=tuple(corps), deployment=tuple(placed)))
    sc = Scenario(name, ds, tuple(forces), Settings(level=level, seed=seed), description=name)
    problems = check_scenario(sc)
    if problems:
        raise BuildError(problems)
    return sc
