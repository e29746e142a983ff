"""A sweep's picture: each variant's win rates with their 95 % intervals, and its mean force
ratio by turn with its band (`strategia.sweep.summary`), in the reader's language. Drawn with
matplotlib's Agg canvas (no pyplot, no display); the same results give the same PNG bytes.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import xarray as xr
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter

from strategia.core.i18n import Lang, Text
from strategia.core.numbers import num
from strategia.rules.kinds import side_name
from strategia.sweep.summary import Summary, head, summary

COLOURS = {"red": "#c62828", "blue": "#1565c0", "green": "#2e7d32", "black": "#212121",
           "draw": "#9e9e9e"}  # fmt: skip
LINES = ("#6a1b9a", "#ef6c00", "#00838f", "#558b2f", "#4e342e", "#37474f")
WORDS = {
    "wins": Text("Wins (95 % interval)", "Победы (95 % интервал)"),
    "share": Text("share of games, %", "доля игр, %"),
    "ratio": Text("The force ratio {a} : {b}", "Соотношение сил {a} : {b}"),
    "turn": Text("turn", "ход"),
    "draw": Text("draw", "ничья"),
}  # fmt: skip


def figure(ds: xr.Dataset, lang: Lang = "en", s: Summary | None = None) -> Figure:
    """The sweep's picture (see the module)."""
    s = s or summary(ds)
    fig = Figure(figsize=(10.0, 4.0), dpi=100, layout="constrained")
    wins_ax, ratio_ax = fig.subplots(1, 2, width_ratios=(1, 1.4))
    variants = [c.variant for c in s.ratios]
    outcomes = list(dict.fromkeys(w.side for w in s.wins))
    width = 0.8 / max(1, len(variants))
    for k, v in enumerate(variants):
        rows = [next(w for w in s.wins if w.variant == v and w.side == o) for o in outcomes]
        x = np.arange(len(outcomes)) + (k - (len(variants) - 1) / 2) * width
        rate = np.array([r.rate.value for r in rows]) * 100
        err = np.array([[r.rate.value - r.rate.low, r.rate.high - r.rate.value]
                        for r in rows]).T * 100  # fmt: skip
        wins_ax.bar(x, rate, width * 0.9, yerr=err, capsize=3, label=v,
                    color=[COLOURS.get(o, "#777") for o in outcomes],
                    alpha=1.0 - 0.45 * k / max(1, len(variants) - 1) if len(variants) > 1 else 1,
                    edgecolor=LINES[k % len(LINES)], linewidth=1.5)  # fmt: skip
    wins_ax.set_xticks(range(len(outcomes)))
    wins_ax.set_xticklabels(
        [WORDS["draw"](lang) if o == "draw" else side_name(o, lang, capital=True)
         for o in outcomes]
    )  # fmt: skip
    wins_ax.set_ylim(0, 100)
    wins_ax.set_ylabel(WORDS["share"](lang))
    wins_ax.set_title(WORDS["wins"](lang), fontsize=10)
    if len(variants) > 1:
        wins_ax.legend(fontsize=8)
    for k, curve in enumerate(s.ratios):
        colour = LINES[k % len(LINES)]
        mean = [i.value for i in curve.ratio]
        low = [i.low if not np.isnan(i.low) else i.value for i in curve.ratio]
        high = [i.high if not np.isnan(i.high) else i.value for i in curve.ratio]
        ratio_ax.fill_between(curve.turns, low, high, color=colour, alpha=0.2, linewidth=0)
        ratio_ax.plot(curve.turns, mean, "o-", color=colour, markersize=3, label=curve.variant)
    ratio_ax.axhline(1.0, color="#555", linewidth=0.6, linestyle=":")
    a, b = (side_name(x, lang, "gen" if lang == "ru" else "nom") for x in s.ratio_sides)
    ratio_ax.set_title(WORDS["ratio"](lang).format(a=a, b=b), fontsize=10)
    ratio_ax.set_xlabel(WORDS["turn"](lang))
    ratio_ax.legend(fontsize=8)
    for ax in (wins_ax, ratio_ax):
        ax.grid(True, axis="y", linewidth=0.3)
        ax.yaxis.set_major_formatter(FuncFormatter(lambda y, _: num(y, lang)))
    ratio_ax.xaxis.set_major_formatter(FuncFormatter(lambda t, _: num(t, lang)))
    fig.suptitle(head(s, lang), fontsize=11)
    return fig


def save_plot(ds: xr.Dataset, path: str | Path, lang: Lang = "en") -> Path:
    """Draw the sweep's picture into a PNG file at `path`."""
    path = Path(path)
    figure(ds, lang).savefig(path, format="png", metadata={"Software": None})
    return path


__all__ = ["figure", "save_plot"]
