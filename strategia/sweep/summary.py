"""What a sweep's results say, with 95 % intervals: `summary(ds)`.

- *Win rates*: the share of games each contender won (`winner`: the highest score at the last
  turn), and of draws, each with its Wilson score interval (`scipy.stats.binomtest`'s
  ``proportion_ci(method="wilson")``). For 7 wins in 20 games, by hand: p = 0.35, z = 1.95996,
  z²/n = 0.192073, centre (p + z²/2n) / (1 + z²/n) = 0.446036 / 1.192073 = 0.374170, half-width
  z·√(p(1−p)/n + z²/4n²) / (1 + z²/n) = 1.95996 · 0.117371 / 1.192073 = 0.192976: the interval
  is 0.1812 to 0.5671 (the tests check these figures).
- *Force ratio by turn*: the ratio of the two first contenders' forces (`ratio_sides`, e.g.
  red : blue, `strength`) in each game, its mean over the games at each turn and the mean's
  95 % interval (Student's t, `scipy.stats.ttest_1samp`; the games all alike: the mean itself).
- *The first battle*: the turn of each game's first battle (`battles`), over the games that had
  one: its mean with its interval, the earliest and the latest; and how many games had none.
- *Variants*: each variant after the first against the first, over the same games (the same
  seeds): the difference of each win rate with Newcombe's interval for a difference of two
  proportions (his method 10, from the two Wilson intervals), and the mean difference of the
  force ratio at the last turn, game by game, with its t interval.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import xarray as xr
from scipy import stats

from strategia.core.i18n import Lang, Text
from strategia.core.numbers import num, plural_en
from strategia.rules.kinds import side_name

LEVEL = 0.95


@dataclass(frozen=True)
class Interval:
    """An estimate and its 95 % interval (NaN where it cannot be had: a single game)."""

    value: float
    low: float
    high: float

    def to_json(self) -> dict[str, float | None]:
        return {k: None if math.isnan(v) else round(v, 6) for k, v in
                (("value", self.value), ("low", self.low), ("high", self.high))}  # fmt: skip

    def text(self, lang: Lang, percent: bool = False) -> str:
        k = 100.0 if percent else 1.0
        mark = " %" if percent else ""
        if math.isnan(self.low):
            return f"{num(self.value * k, lang)}{mark}"
        return (
            f"{num(self.value * k, lang)}{mark} "
            f"[{num(self.low * k, lang)}; {num(self.high * k, lang)}]"
        )


def wilson(k: int, n: int) -> Interval:
    """The share k/n with its Wilson score interval."""
    ci = stats.binomtest(int(k), int(n)).proportion_ci(confidence_level=LEVEL, method="wilson")
    return Interval(k / n, float(ci.low), float(ci.high))


def newcombe(k1: int, n1: int, k2: int, n2: int) -> Interval:
    """The difference k2/n2 − k1/n1 with Newcombe's hybrid score interval (method 10)."""
    a, b = wilson(k1, n1), wilson(k2, n2)
    d = b.value - a.value
    low = d - math.sqrt((b.value - b.low) ** 2 + (a.high - a.value) ** 2)
    high = d + math.sqrt((b.high - b.value) ** 2 + (a.value - a.low) ** 2)
    return Interval(d, low, high)


def mean_interval(values: Sequence[float] | np.ndarray[Any, Any]) -> Interval:
    """The mean of `values` with its t interval (the values all alike: the mean itself)."""
    x = np.asarray(values, dtype=float)
    x = x[~np.isnan(x)]
    if x.size == 0:
        return Interval(math.nan, math.nan, math.nan)
    m = float(x.mean())
    if np.ptp(x) == 0:
        return Interval(m, m, m)
    if x.size < 2:
        return Interval(m, math.nan, math.nan)
    ci = stats.ttest_1samp(x, 0.0).confidence_interval(confidence_level=LEVEL)
    return Interval(m, float(ci.low), float(ci.high))


@dataclass(frozen=True)
class WinRate:
    """A side's (or the draws') share of a variant's games."""

    variant: str
    side: str  # a side, or "draw"
    wins: int
    games: int
    rate: Interval


@dataclass(frozen=True)
class RatioCurve:
    """A variant's mean force ratio at each turn, with its interval."""

    variant: str
    turns: tuple[int, ...]
    ratio: tuple[Interval, ...]


@dataclass(frozen=True)
class FirstBattle:
    """When a variant's games saw their first battle."""

    variant: str
    games: int
    without: int  # games with no battle at all
    turn: Interval  # the mean turn over the games with one
    earliest: int | None
    latest: int | None


@dataclass(frozen=True)
class Difference:
    """A variant against the first: a win rate's difference, or the final force ratio's."""

    variant: str
    against: str
    what: str  # a side, "draw", or "ratio"
    difference: Interval


@dataclass(frozen=True)
class Summary:
    """What a sweep's results say (see the module)."""

    scenario: str
    games: int
    turns: int
    ratio_sides: tuple[str, str]
    wins: tuple[WinRate, ...]
    ratios: tuple[RatioCurve, ...]
    first_battles: tuple[FirstBattle, ...]
    differences: tuple[Difference, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "scenario": self.scenario, "games": self.games, "turns": self.turns,
            "ratio_sides": list(self.ratio_sides),
            "wins": [{"variant": w.variant, "side": w.side, "wins": w.wins, "games": w.games,
                      **w.rate.to_json()} for w in self.wins],
            "force_ratio": [{"variant": r.variant, "by_turn": [{"turn": t, **i.to_json()}
                             for t, i in zip(r.turns, r.ratio, strict=True)]}
                            for r in self.ratios],
            "first_battle": [{"variant": b.variant, "games": b.games, "without": b.without,
                              "earliest": b.earliest, "latest": b.latest, **b.turn.to_json()}
                             for b in self.first_battles],
            "differences": [{"variant": d.variant, "against": d.against, "what": d.what,
                             **d.difference.to_json()} for d in self.differences],
        }  # fmt: skip

    def text(self, lang: Lang) -> str:
        """The summary in words (`lang`), the intervals in brackets."""
        return "\n".join(_lines(self, lang))


def force_ratio(ds: xr.Dataset) -> xr.DataArray:
    """Each game's force ratio at each turn (variant, game, turn): `ratio_sides`' first
    side's forces over the second's."""
    a, b = str(ds.attrs["ratio_sides"]).split(",")
    s = ds["strength"]
    return (s.sel(side=a) / s.sel(side=b).where(s.sel(side=b) > 0)).rename("force_ratio")


def first_battle_turn(ds: xr.Dataset) -> xr.DataArray:
    """Each game's first turn with a battle (variant, game), NaN for none."""
    fought = ds["battles"].sum("side") > 0
    first = fought.argmax("turn").astype(float)
    return first.where(fought.any("turn")).rename("first_battle")


def summary(ds: xr.Dataset) -> Summary:
    """The summary of a sweep's results (see the module)."""
    contenders = [s for s in str(ds.attrs.get("contenders", "")).split(",") if s]
    outcomes = [*contenders, "draw"]
    variants = [str(v) for v in ds["variant"].values]
    n = int(ds.sizes["game"])
    winner = ds["winner"]
    ratio = force_ratio(ds)
    first = first_battle_turn(ds)
    wins, ratios, battles, diffs = [], [], [], []
    counts: dict[tuple[str, str], int] = {}
    for v in variants:
        won = [str(x) for x in winner.sel(variant=v).values]
        for side in outcomes:
            k = won.count(side)
            counts[(v, side)] = k
            wins.append(WinRate(v, side, k, n, wilson(k, n)))
        r = ratio.sel(variant=v)
        turns = tuple(int(t) for t in r["turn"].values)
        ratios.append(
            RatioCurve(v, turns, tuple(mean_interval(r.sel(turn=t).values) for t in turns))
        )
        f = first.sel(variant=v).values
        had = f[~np.isnan(f)]
        battles.append(FirstBattle(
            v, n, int(np.isnan(f).sum()), mean_interval(had),
            int(had.min()) if had.size else None, int(had.max()) if had.size else None,
        ))  # fmt: skip
    base = variants[0]
    for v in variants[1:]:
        for side in outcomes:
            diffs.append(Difference(v, base, side, newcombe(counts[(base, side)], n,
                                                            counts[(v, side)], n)))  # fmt: skip
        last = ratio.isel(turn=-1)
        paired = last.sel(variant=v).values - last.sel(variant=base).values
        diffs.append(Difference(v, base, "ratio", mean_interval(paired)))
    a, b = str(ds.attrs["ratio_sides"]).split(",")
    return Summary(
        str(ds.attrs.get("scenario", "")), n, int(ds.sizes["turn"]) - 1, (a, b), tuple(wins),
        tuple(ratios), tuple(battles), tuple(diffs),
    )  # fmt: skip


WORDS = {
    "head": Text("«{name}»: {games} {gw} a variant, {turns} {tw} each",
                 "«{name}»: игр на вариант — {games}, ходов в игре — {turns}"),
    "variant": Text("variant {v}", "вариант {v}"),
    "wins": Text("  wins (95 % interval):", "  победы (95 % интервал):"),
    "draw": Text("draw", "ничья"),
    "won": Text("    {who}: {k} of {n}, {rate}", "    {who}: {k} из {n}, {rate}"),
    "ratio": Text("  the force ratio {a} : {b} by turn (mean [95 % interval]):",
                  "  соотношение сил {a} : {b} по ходам (среднее [95 % интервал]):"),
    "turn": Text("    turn {t}: {r}", "    ход {t}: {r}"),
    "battle": Text("  first battle: turn {t} (earliest {lo}, latest {hi}); {none} of {n} games "
                   "without a battle",
                   "  первый бой: ход {t} (раньше всего {lo}, позже всего {hi}); игр без боя: "
                   "{none} из {n}"),
    "diff": Text("  against {base}:", "  по сравнению с {base}:"),
    "diff_win": Text("    {who} wins, the difference: {d}", "    победы ({who}), разница: {d}"),
    "diff_draw": Text("    draws, the difference: {d}", "    ничьи, разница: {d}"),
    "diff_ratio": Text("    the force ratio at the last turn: {d}",
                       "    соотношение сил на последнем ходу: {d}"),
}  # fmt: skip


def head(s: Summary, lang: Lang) -> str:
    """The summary's first line: the scenario, the games and their turns."""
    return WORDS["head"](lang).format(
        name=s.scenario, games=s.games, turns=s.turns, gw=plural_en(s.games, "game", "games"),
        tw=plural_en(s.turns, "turn", "turns"),
    )  # fmt: skip


def _who(side: str, lang: Lang) -> str:
    return WORDS["draw"](lang) if side == "draw" else side_name(side, lang, capital=True)


def _lines(s: Summary, lang: Lang) -> list[str]:
    a, b = (side_name(x, lang, "gen" if lang == "ru" else "nom") for x in s.ratio_sides)
    out = [head(s, lang)]
    for curve, battle in zip(s.ratios, s.first_battles, strict=True):
        v = curve.variant
        out += ["", WORDS["variant"](lang).format(v=v), WORDS["wins"](lang)]
        for w in (w for w in s.wins if w.variant == v):
            out.append(WORDS["won"](lang).format(who=_who(w.side, lang), k=w.wins, n=w.games,
                                                 rate=w.rate.text(lang, percent=True)))  # fmt: skip
        out.append(WORDS["ratio"](lang).format(a=a, b=b))
        for t, r in zip(curve.turns, curve.ratio, strict=True):
            out.append(WORDS["turn"](lang).format(t=t, r=r.text(lang)))
        out.append(WORDS["battle"](lang).format(
            t=battle.turn.text(lang), lo=battle.earliest if battle.earliest is not None else "—",
            hi=battle.latest if battle.latest is not None else "—", none=battle.without,
            n=battle.games,
        ))  # fmt: skip
        mine = [d for d in s.differences if d.variant == v]
        if mine:
            out.append(WORDS["diff"](lang).format(base=mine[0].against))
        for d in mine:
            if d.what == "ratio":
                out.append(WORDS["diff_ratio"](lang).format(d=d.difference.text(lang)))
            else:
                key = "diff_draw" if d.what == "draw" else "diff_win"
                out.append(WORDS[key](lang).format(
                    who=_who(d.what, lang), d=d.difference.text(lang, percent=True)))  # fmt: skip
    return out


__all__ = [
    "Difference",
    "FirstBattle",
    "Interval",
    "RatioCurve",
    "Summary",
    "WinRate",
    "first_battle_turn",
    "force_ratio",
    "head",
    "mean_interval",
    "newcombe",
    "summary",
    "wilson",
]
