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
from strategia.core.numbers import num
from strategia.players import load_styles
from strategia.rules.kinds import side_name
from strategia.sweep import Sweep, dask_client, load, read_sweep, run, save
from strategia.sweep.plot import figure
from strategia.sweep.spec import Seat
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
    "attack": Text("goes to war on a turn from {first} to {last}",
                   "начинает войну на ходу от {first} до {last}"),
    "wait": Text("waits to be attacked", "ждет нападения"),
    "draw": Text("draw", "ничья"),
    "variant_game": Text("variant / game", "вариант / партия"),
    "variant_turn": Text("variant / turn", "вариант / ход"),
}  # fmt: skip
# the variants' names, in the reader's language: the scenario as it is, and with Blue first
VARIANTS = (Text("as-is", "как-есть"), Text("blue-first", "синие-первыми"))


def plan(games: int = 6, turns: int = 4, lang: Lang | None = None) -> Sweep:
    """The lesson's sweep: the default scenario as it is and with Blue moving first, both sides
    balanced and going to war at a turn from 1 to 3; the variants named in the reader's
    language (`VARIANTS`)."""
    root = repository()
    blue_first = root / "maps" / "house" / "blue-first.toml"
    base, first = (name(lang or lesson_lang()) for name in VARIANTS)
    return read_sweep(
        root / "maps" / "continental.toml", games, turns, players=PLAYERS, seed=1,
        variants=[f"{base}=", f"{first}={blue_first}"],
    )  # fmt: skip


def _seat(seat: Seat, lang: Lang) -> str:
    """A side's computer player in words: «Красные: взвешенный, начинает войну на ходу 1-3»."""
    style = load_styles()[seat.style].name(lang) if seat.style in load_styles() else seat.style
    if seat.attack is None:
        when = WORDS["wait"](lang)
    else:
        when = WORDS["attack"](lang).format(first=seat.attack[0], last=seat.attack[1])
    return f"{side_name(seat.side, lang, capital=True)}: {style}, {when}"


def described(sweep: Sweep, lang: Lang | None = None) -> Html:
    """What the sweep plays, as a short table."""
    lang = lang or lesson_lang()
    variants = ", ".join(
        f"{v.name} ({', '.join(f.rsplit('/', 1)[-1] for f, _ in v.house) or WORDS['none'](lang)})"
        for v in sweep.variants
    )
    players = "; ".join(_seat(s, lang) for s in sweep.seats)
    rows = [
        (WORDS["scenario"](lang), f"«{sweep.scenario_name}»", f"<code>{sweep.digest}</code>"),
        (WORDS["games"](lang), f"{sweep.games}, {sweep.turns}", ""),
        (WORDS["variants"](lang), variants, ""),
        (WORDS["players"](lang), players, ""),
    ]
    body = "".join(
        f"<tr><th>{html.escape(k)}</th><td>{html.escape(v)}{', ' + code if code else ''}</td></tr>"
        for k, v, code in rows
    )
    alt = "\n".join(f"{k}: {v}" for k, v, _ in rows)
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
    text = repr(shown)  # code's output, as code: xarray prints it in English
    return Html(
        f"<p>{html.escape(head)}</p>"
        f"<pre style='font-size:11px'><code>{html.escape(text)}</code></pre>",
        f"{head}\n{text}",
    )


def _table(rows: list[tuple[str, list[str]]], heads: list[str], corner: str) -> Html:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in [corner, *heads])
    body = "".join(
        f"<tr><th>{html.escape(k)}</th>"
        + "".join(f"<td>{html.escape(v)}</td>" for v in vs)
        + "</tr>"
        for k, vs in rows
    )
    alt = "\n".join([" ".join([corner, *heads]), *(" ".join([k, *vs]) for k, vs in rows)])
    return Html(f"<table><tr>{head}</tr>{body}</table>", alt)


def winners(ds: xr.Dataset, lang: Lang | None = None) -> Html:
    """Each game's winner (`ds["winner"]`), a row a variant, a column a game."""
    lang = lang or lesson_lang()
    won = ds["winner"]
    rows = [
        (str(v), [WORDS["draw"](lang) if w == "draw" else side_name(str(w), lang, capital=True)
                  for w in won.sel(variant=v).values])
        for v in won["variant"].values
    ]  # fmt: skip
    return _table(rows, [str(int(g)) for g in won["game"].values], WORDS["variant_game"](lang))


def red_forces(ds: xr.Dataset, lang: Lang | None = None) -> Html:
    """Red's mean forces (Σ ratings × strength) by turn, a row a variant."""
    lang = lang or lesson_lang()
    mean = ds["strength"].sel(side="red").mean("game")
    rows = [(str(v), [num(float(x), lang) for x in mean.sel(variant=v).values])
            for v in mean["variant"].values]  # fmt: skip
    return _table(rows, [str(int(t)) for t in mean["turn"].values], WORDS["variant_turn"](lang))


def told(ds: xr.Dataset, lang: Lang | None = None) -> Html:
    """The summary: win rates, force ratios, the first battle, the variant against the first."""
    text = summary(ds).text(lang or lesson_lang())
    return Html(f"<pre style='font-size:12px'>{html.escape(text)}</pre>", text)


def chart(ds: xr.Dataset, lang: Lang | None = None) -> Picture:
    """The sweep's picture (`strategia sweep plot`'s)."""
    lang = lang or lesson_lang()
    s = summary(ds)
    return picture(figure(ds, lang, s), s.text(lang), lang)


__all__ = ["PLAYERS", "VARIANTS", "chart", "described", "plan", "play", "played", "red_forces",
           "told", "winners"]  # fmt: skip
