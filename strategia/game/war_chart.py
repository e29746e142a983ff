"""Charts of a game's course (issue 28): the mediator's, from `course` (every side's forces,
losses per turn, ground and cities held, score, battles), and a side's own copy, which holds only
what the side knows: its own forces, losses, ground and battles, and the enemy as it estimates
it (the enemy units it knew of at the start of each turn: in sight or last known, `last_known`;
their strength it is never told, so each counts as a whole division).

`side_course` is a Dataset like `course`'s; `chart_png` draws either as a PNG (matplotlib, Agg)
in the reader's language, its numbers with the reader's decimal mark.
"""

from __future__ import annotations

import io
from typing import Any

import numpy as np
import xarray as xr

from strategia.core.i18n import Lang, Text
from strategia.core.numbers import num
from strategia.game.channel import channel
from strategia.game.course import course
from strategia.game.game import Game
from strategia.game.last_known import seen_at
from strategia.rules.kinds import side_name

COLOURS = {"red": "#c62828", "blue": "#1565c0", "green": "#2e7d32", "black": "#212121"}
OWN = ("strength", "divisions", "losses", "cells", "cities", "battles", "strikes")
TITLES = {
    "strength": Text("Forces (sum of ratings, 9.6)", "Силы (сумма рейтингов, 9.6)"),
    "losses": Text("Losses per turn", "Потери за ход"),
    "cells": Text("Enemy ground held, cells", "Занято клеток противника"),
    "score": Text("Score (1.1, reconstructed)", "Очки (1.1, реконструкция)"),
    "battles": Text("Battles per turn", "Бои за ход"),
    "enemy": Text("Enemy units known", "Известно частей противника"),
    "turn": Text("turn", "ход"),
    "title": Text("The course of the war", "Ход войны"),
    "own": Text("{side}: the course of the war as it knows it", "{side}: ход войны, как его знают"),
}


def side_course(g: Game, side: str) -> xr.Dataset:
    """`side`'s own copy of the course (see the module): dims turn; its own variables and
    `enemy_known`, the enemy units it knew of at the start of each turn."""
    whole = course(g)
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
    return ds.assign_attrs({**whole.attrs, "side": side})


def _axes_in(lang: Lang, axes: Any) -> None:
    from matplotlib.ticker import FuncFormatter, MaxNLocator

    for ax in axes.flat:
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: num(v, lang)))
        ax.set_xlabel(TITLES["turn"](lang))
        ax.grid(alpha=0.3)


def chart_png(ds: xr.Dataset, lang: Lang) -> bytes:
    """The course as a picture: a side's copy (`side_course`) or the whole (`course`)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    own = "side" not in ds.dims
    fig, axes = plt.subplots(2, 2, figsize=(10, 6.4), layout="constrained")
    turns = ds["turn"].values
    sides = [str(ds.attrs["side"])] if own else [str(s) for s in ds["side"].values]
    panels = ("strength", "losses", "cells", "enemy" if own else "score")
    for ax, key in zip(axes.flat, panels, strict=True):
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
        if not own:
            ax.legend(fontsize=8)
    _axes_in(lang, axes)
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


def to_csv(ds: xr.Dataset) -> str:
    """The course as CSV: a row a turn (and side, for the whole)."""
    return str(ds.to_dataframe().to_csv())


__all__ = ["chart_png", "side_course", "to_csv"]
