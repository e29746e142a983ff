"""The balance lesson (issue 27): the default scenario played a few times by the computer on
every side, as it stands and with one house rule (Blue moves first, 1.8), on a local Dask
cluster (`strategia.sweep`), the results read back from their NetCDF file and shown: what was
played, the Dataset, the summary with its intervals, the picture.

The sweep is small (a few games of a few turns, two workers) so that the page runs in well
under a minute; `strategia sweep` plays the same at any size (the README's "Balance sweeps").
"""

from __future__ import annotations

import html

import xarray as xr

from strategia.core.i18n import Lang, Text
from strategia.sweep import Sweep, dask_client, load, read_sweep, run, save
from strategia.sweep.plot import figure
from strategia.sweep.summary import summary
from strategia.ui.lessons.show import Html, Picture, lesson_lang, picture, repository, scratch_dir

PLAYERS = "red=balanced:attack@1-3,blue=balanced:attack@1-3"
SHOWN = ("scenario", "scenario_digest", "level", "games", "turns", "seed", "engine", "contenders")
WORDS = {
    "what": Text("What is played", "Что играется"),
    "scenario": Text("scenario", "сценарий"),
    "games": Text("games a variant, turns", "игр на вариант, ходов"),
    "variants": Text("variants", "варианты"),
    "players": Text("players", "игроки"),
    "none": Text("the rules as they are", "правила как есть"),
    "played": Text("{n} games played; the results read back from their NetCDF file",
                   "сыграно партий: {n}; результаты прочитаны из их файла NetCDF"),
}  # fmt: skip


def plan(games: int = 6, turns: int = 4) -> Sweep:
    """The lesson's sweep: the default scenario as it is (`base`) and with Blue moving first
    (`blue-first`), both sides balanced and going to war at a turn from 1 to 3."""
    root = repository()
    blue_first = root / "maps" / "house" / "blue-first.toml"
    return read_sweep(
        root / "maps" / "continental.toml", games, turns, players=PLAYERS, seed=1,
        variants=["base=", f"blue-first={blue_first}"],
    )  # fmt: skip


def described(sweep: Sweep, lang: Lang | None = None) -> Html:
    """What the sweep plays, as a short table."""
    lang = lang or lesson_lang()
    variants = ", ".join(
        f"{v.name} ({', '.join(f.rsplit('/', 1)[-1] for f, _ in v.house) or WORDS['none'](lang)})"
        for v in sweep.variants
    )
    players = ", ".join(f"{s.side} {s.style} {s.posture}" for s in sweep.seats)
    rows = [
        (WORDS["scenario"](lang), f"«{sweep.scenario_name}», {sweep.digest}"),
        (WORDS["games"](lang), f"{sweep.games}, {sweep.turns}"),
        (WORDS["variants"](lang), variants),
        (WORDS["players"](lang), players),
    ]
    body = "".join(f"<tr><th>{html.escape(k)}</th><td>{html.escape(v)}</td></tr>" for k, v in rows)
    alt = "\n".join(f"{k}: {v}" for k, v in rows)
    return Html(f"<p><b>{WORDS['what'](lang)}</b></p><table>{body}</table>", alt)


def play(sweep: Sweep, workers: int = 2) -> xr.Dataset:
    """Play the sweep on a local cluster, save its results (NetCDF) in a scratch folder and read
    them back from the file."""
    with dask_client(workers=workers, dashboard=None) as client:
        ds = run(sweep, client).results
    return load(save(ds, scratch_dir() / "balance.nc"))


def played(ds: xr.Dataset, lang: Lang | None = None) -> Html:
    """How many games were played, and the Dataset as xarray prints it (with the attributes
    that name what was played; the house rules' texts are in `ds.attrs["variants"]`)."""
    lang = lang or lesson_lang()
    n = int(ds.sizes["variant"] * ds.sizes["game"])
    head = WORDS["played"](lang).format(n=n)
    shown = ds.copy()
    shown.attrs = {k: ds.attrs[k] for k in SHOWN if k in ds.attrs}
    text = repr(shown)
    return Html(f"<p>{html.escape(head)}</p><pre style='font-size:11px'>{html.escape(text)}</pre>",
                f"{head}\n{text}")  # fmt: skip


def told(ds: xr.Dataset, lang: Lang | None = None) -> Html:
    """The summary: win rates, force ratios, the first battle, the variant against the first."""
    text = summary(ds).text(lang or lesson_lang())
    return Html(f"<pre style='font-size:12px'>{html.escape(text)}</pre>", text)


def chart(ds: xr.Dataset, lang: Lang | None = None) -> Picture:
    """The sweep's picture (`strategia sweep plot`'s)."""
    lang = lang or lesson_lang()
    s = summary(ds)
    return picture(figure(ds, lang, s), s.text(lang), lang)


__all__ = ["PLAYERS", "chart", "described", "plan", "play", "played", "told"]
