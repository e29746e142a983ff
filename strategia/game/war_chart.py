"""Charts of a game's course (issue 28): the mediator's, from `course` (every side's forces and
by arm, losses and reinforcements per turn, ground and cities held, score, battles, the force
ratio on each sector of the front), and a side's own copy, which holds only what the side
knows: its own forces (by arm, by sector), losses, reinforcements, ground and battles, and the
enemy as it estimates it (the enemy units
it knew of at the start of each turn: in sight or last seen, `last_known.seen_at`; their
strength it is never told, so each counts as a whole division of the kind its designation
names, where the side last saw it). Its ``force_ratio`` is its own forces in a sector over that
estimate (``enemy_estimate``), never over the enemy's true forces.

`side_course` is a Dataset like `course`'s; `chart_png` draws either as a PNG (matplotlib, Agg)
in the reader's language, its numbers with the reader's decimal mark.
"""

from __future__ import annotations

import io
import math
from typing import Any

import numpy as np
import xarray as xr

from strategia.core.geometry import Cell
from strategia.core.i18n import Lang, Text
from strategia.core.numbers import num
from strategia.engine.state import GameState
from strategia.game import fronts
from strategia.game.channel import channel
from strategia.game.course import course, states_by_turn
from strategia.game.game import Game
from strategia.game.last_known import seen_at
from strategia.notation.refs import UnitRef
from strategia.rules.kinds import DivisionKind, side_name

COLOURS = {"red": "#c62828", "blue": "#1565c0", "green": "#2e7d32", "black": "#212121"}
OWN = (
    "strength", "divisions", "losses", "reinforcements", "cells", "cities", "battles", "strikes",
    "strength_by_arm", "sector_strength",
)  # fmt: skip
ARM_COLOURS = {
    "rifle": "#8d6e63", "tank": "#37474f", "motorised": "#00897b", "sp_gun": "#5e35b1",
    "anti_tank": "#f9a825", "artillery": "#d84315", "cavalry": "#7cb342", "fortress": "#9e9e9e",
}  # fmt: skip
TITLES = {
    "strength": Text("Forces (sum of ratings, 9.6)", "Силы (сумма рейтингов, 9.6)"),
    "losses": Text("Losses per turn (battles, strikes, fire)", "Потери за ход (бои, удары, огонь)"),
    "arrived": Text("reserves arrived (6.4)", "прибыли резервы (6.4)"),
    "cells": Text("Enemy ground held, cells", "Занято клеток противника"),
    "score": Text("Score (1.1, reconstructed)", "Очки (1.1, реконструкция)"),
    "battles": Text("Battles per turn", "Бои за ход"),
    "enemy": Text("Enemy units known", "Известно частей противника"),
    "arms": Text("{side}: forces by arm", "{side}: силы по родам войск"),
    "sector": Text("Force ratio, sector {label}", "Соотношение сил, полоса {label}"),
    "estimate": Text(
        "Force ratio, sector {label} (enemy as estimated)",
        "Соотношение сил, полоса {label} (противник по оценке)",
    ),
    "turn": Text("turn", "ход"),
    "title": Text("The course of the war", "Ход войны"),
    "own": Text("{side}: the course of the war as it knows it", "{side}: ход войны, как его знают"),
}


def side_course(g: Game, side: str) -> xr.Dataset:
    """`side`'s own copy of the course (see the module): dims turn; its own variables and
    `enemy_known`, the enemy units it knew of at the start of each turn."""
    states = states_by_turn(g)
    whole = course(g, states)
    ds = whole[list(OWN)].sel(side=side, drop=True)
    ch = channel(g, side)
    known: set[str] = set()
    counts = []
    for t in range(1, len(whole.turn) + 1):
        if t <= g.state.turn:
            known |= set(seen_at(ch, t))
        counts.append(len(known))
    ds["enemy_known"] = ("turn", np.array(counts, dtype=np.int32))
    ds["enemy_known"].attrs.update(long_name="enemy units known (seen or last seen)", units="units")
    ds["at_war"] = whole["at_war"]
    estimate = _enemy_estimate(g, side, states)
    ds["enemy_estimate"] = (("turn", "sector"), estimate)
    own = ds["sector_strength"].values
    ds["force_ratio"] = (
        ("turn", "sector"),
        np.vectorize(fronts.ratio, otypes=[float])(own, estimate).reshape(own.shape),
    )
    ds["enemy_estimate"].attrs.update(
        long_name="enemy known in the sector, each a whole division of its kind", units="rating"
    )
    ds["force_ratio"].attrs.update(long_name="own forces over the enemy as estimated", units="1")
    return ds.assign_attrs({**whole.attrs, "side": side})


def _enemy_estimate(g: Game, side: str, states: list[GameState]) -> np.ndarray[Any, Any]:
    """The enemy `side` knew of in each sector, (turn, sector): each unit it had identified
    by the start of the next turn, where it last saw it, a whole division of the kind its
    designation names (с.д. if it names none)."""
    front = fronts.front_of(g.scenario)
    ch = channel(g, side)
    last: dict[str, tuple[str, Cell]] = {}
    turns = len(states)
    out = np.zeros((turns, len(front.sectors)))
    for t in range(turns):
        if t + 1 <= g.state.turn:
            for unit, (cells, seen_as) in seen_at(ch, t + 1).items():
                if cells:
                    last[unit] = (seen_as, cells[0])
        foes = fronts.enemies(states[min(t, g.state.turn - 1)], side)  # at the start of t + 1
        units = [(s, _kind(u), c, 1.0) for u, (s, c) in last.items() if s in foes]
        out[t] = fronts.forces(front, units, g.rules, sorted(foes)).sum(axis=0)
    return out.round(6)


def _kind(unit: str) -> str:
    try:
        kind = UnitRef.parse(unit).kind
    except ValueError:
        return DivisionKind.RIFLE.key
    return kind.key if isinstance(kind, DivisionKind) else DivisionKind.RIFLE.key


def _axes_in(lang: Lang, axes: Any) -> None:
    from matplotlib.ticker import FuncFormatter, MaxNLocator

    for ax in axes:
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: num(v, lang)))
        ax.set_xlabel(TITLES["turn"](lang))
        ax.grid(alpha=0.3)


def chart_png(ds: xr.Dataset, lang: Lang) -> bytes:
    """The course as a picture: a side's copy (`side_course`) or the whole (`course`): the
    forces (the turns reserves arrived marked), losses, ground and score (or the enemy known)
    over the turns; below, the forces by arm of each side, then the force ratio in each sector
    of the front."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    own = "side" not in ds.dims
    sides = [str(ds.attrs["side"])] if own else [str(s) for s in ds["side"].values]
    sectors = int(ds.sizes.get("sector", 0))
    rows = 4 if sectors else 3
    width = math.lcm(2, len(sides), sectors or 1)
    fig = plt.figure(figsize=(10, 2.75 * rows), layout="constrained")
    grid = fig.add_gridspec(rows, width)

    def row(r: int, n: int) -> list[Any]:
        step = width // n
        return [fig.add_subplot(grid[r, k * step : (k + 1) * step]) for k in range(n)]

    top = [*row(0, 2), *row(1, 2)]
    _overview(ds, lang, top, sides, own)
    by_arm = row(2, len(sides))
    for ax, side in zip(by_arm, sides, strict=True):
        _by_arm(ds if own else ds.sel(side=side), lang, ax, side)
    panels = [*top, *by_arm]
    if sectors:
        ratios = row(3, sectors)
        for k, ax in enumerate(ratios):
            _ratio(ds, lang, ax, sides, own, k)
        panels += ratios
    _axes_in(lang, panels)
    head = (
        TITLES["own"](lang).format(side=side_name(sides[0], lang, capital=True))
        if own
        else f"{TITLES['title'](lang)}: «{ds.attrs.get('scenario', '')}»"
    )
    fig.suptitle(head)
    out = io.BytesIO()
    fig.savefig(out, format="png", dpi=90)
    plt.close(fig)
    return out.getvalue()


def _overview(ds: xr.Dataset, lang: Lang, axes: Any, sides: list[str], own: bool) -> None:
    turns = ds["turn"].values
    panels = ("strength", "losses", "cells", "enemy" if own else "score")
    for ax, key in zip(axes, panels, strict=True):
        ax.set_title(TITLES[key](lang), fontsize=10)
        if key == "enemy":
            ax.step(turns, ds["enemy_known"].values, where="post", color="#616161")
            continue
        for side in sides:
            values = ds[key].values if own else ds[key].sel(side=side).values
            colour = COLOURS.get(side, "#555555")
            label = side_name(side, lang, capital=True)
            if key == "losses":
                width = 0.8 / len(sides)
                shift = (sides.index(side) - (len(sides) - 1) / 2) * width
                ax.bar(turns + shift, values, width=width, color=colour, label=label)
            else:
                ax.plot(turns, values, color=colour, label=label, marker="o", markersize=3)
        marked = False
        for side in sides if key == "strength" else ():
            marked = _arrivals(ds, ax, side, own, marked, TITLES["arrived"](lang))
        if not own or marked:
            ax.legend(fontsize=8)


def _arrivals(ds: xr.Dataset, ax: Any, side: str, own: bool, marked: bool, label: str) -> bool:
    """The turns the side's reserves arrived (6.4), marked on its forces' line; whether any
    side's are marked (the first marked names them in the legend)."""
    if "reinforcements" not in ds:
        return marked
    came = (ds["reinforcements"] if own else ds["reinforcements"].sel(side=side)).values > 0
    if not came.any():
        return marked
    forces = (ds["strength"] if own else ds["strength"].sel(side=side)).values
    ax.scatter(ds["turn"].values[came], forces[came], marker="^", s=40, facecolors="none",
               edgecolors=COLOURS.get(side, "#555555"), zorder=3,
               label=None if marked else label)  # fmt: skip
    return True


def _by_arm(ds: xr.Dataset, lang: Lang, ax: Any, side: str) -> None:
    """A side's forces by arm, stacked (the arms it has at some turn)."""
    values = ds["strength_by_arm"]
    kept = [str(a) for a in values["arm"].values if float(values.sel(arm=a).max()) > 0]
    ax.set_title(TITLES["arms"](lang).format(side=side_name(side, lang, capital=True)),
                 fontsize=10)  # fmt: skip
    if not kept:
        return
    labels = [str(values["arm_ru" if lang == "ru" else "arm_en"].sel(arm=a).item()) for a in kept]
    ax.stackplot(
        ds["turn"].values,
        *[values.sel(arm=a).values for a in kept],
        labels=labels,
        colors=[ARM_COLOURS.get(a, "#bdbdbd") for a in kept],
        alpha=0.85,
    )
    ax.legend(fontsize=7, loc="lower left", ncol=2)


def _ratio(ds: xr.Dataset, lang: Lang, ax: Any, sides: list[str], own: bool, k: int) -> None:
    """The force ratio in sector `k` (from 0): a line per side that has an enemy there."""
    sector = ds["sector"].isel(sector=k)
    label = f"{int(sector)} ({int(sector['sector_lo'])}-{int(sector['sector_hi'])})"
    ax.set_title(TITLES["estimate" if own else "sector"](lang).format(label=label), fontsize=9)
    ax.axhline(1.0, color="#9e9e9e", linewidth=0.8)
    for side in sides:
        values = ds["force_ratio"].isel(sector=k)
        values = values if own else values.sel(side=side)
        if bool(np.isnan(values.values).all()):
            continue
        ax.plot(ds["turn"].values, values.values, color=COLOURS.get(side, "#555555"),
                marker="o", markersize=3, label=side_name(side, lang, capital=True))  # fmt: skip
    ax.set_ylim(bottom=0)
    ax.set_xlim(float(ds["turn"].min()) - 0.2, float(ds["turn"].max()) + 0.2)
    if not own and ax.get_lines()[1:]:
        ax.legend(fontsize=7)


def to_csv(ds: xr.Dataset) -> str:
    """The course as CSV: a row a turn (and side, for the whole); a variable with a dimension
    more (arm, sector) spread over a column for each of its values, `strength_by_arm_rifle`,
    `force_ratio_2`."""
    flat = ds.drop_vars([c for c in ds.coords if c not in ("turn", "side")])
    for name in list(flat.data_vars):
        extra = [d for d in flat[name].dims if d not in ("turn", "side")]
        if not extra:
            continue
        (dim,) = extra
        for i, value in enumerate(ds[dim].values):
            flat[f"{name}_{value}"] = flat[name].isel({dim: i})
        flat = flat.drop_vars([name])
    return str(flat.drop_dims([d for d in flat.dims if d not in ("turn", "side")]).to_dataframe()
               .to_csv())  # fmt: skip


__all__ = ["chart_png", "side_course", "to_csv"]
