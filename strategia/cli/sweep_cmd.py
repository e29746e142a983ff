"""`strategia sweep`: a scenario played many times by the computer on Dask (`strategia.sweep`).

    strategia sweep SCENARIO --games N --turns T [--house FILE ...] [--variant NAME=FILE ...]
                    [--players red=balanced,blue=bold:attack@2-4] [--level L] [--seed S]
                    [--scheduler tcp://HOST:8786 | --workers K]
                    [--keep DIR [--keep-only OUTCOME[,OUTCOME]]]
                    --out RESULTS.nc|RESULTS.zarr [--force] [--json]
    strategia sweep summary RESULTS.nc|RESULTS.zarr [--json]
    strategia sweep plot RESULTS.nc|RESULTS.zarr -o balance.png

`--keep-only` keeps only the games with those outcomes (a contender that won, ``red``, or
``draw``: as the summary names them). `--out` ending in ``.zarr`` writes a Zarr store (for large
sweeps), any other name a NetCDF file; `summary` and `plot` read either.

The run's progress and Dask's dashboard go to stderr (never into --json). Everything is checked
before a game is played; nothing is written unless every game was.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from strategia.cli.output import (
    FORCE_HELP,
    SCENARIO_HELP,
    Output,
    check_output,
    need,
    scenario_arg,
)
from strategia.core.i18n import Lang, Text

# `strategia.sweep` (Dask, matplotlib) is imported by the handlers: other commands start quickly
CONNECT_SECONDS = 5.0  # as strategia.sweep.run's
ACTIONS = ("run", "summary", "plot")
WORDS = {
    "dashboard": Text("Dask's dashboard: {link}", "панель Dask: {link}"),
    "games": Text("games", "игры"),
    "done": Text("{out}: {n} games in {s} s", "{out}: игр: {n} за {s} с"),
    "kept": Text("games kept in {dir}: {n}", "игры сохранены в {dir}: {n}"),
    "plot": Text("{out}: the picture of {results}", "{out}: картинка по {results}"),
}


def normalise(argv: Sequence[str]) -> list[str]:
    """`sweep SCENARIO ...` is `sweep run SCENARIO ...`."""
    argv = list(argv)
    if argv[:1] == ["sweep"] and len(argv) > 1 and argv[1] not in (*ACTIONS, "-h", "--help"):
        argv.insert(1, "run")
    return argv


def add_commands(sub: Any, parent: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "sweep", help="play a scenario many times by the computer (Dask): SCENARIO | summary | plot"
    )
    ss = p.add_subparsers(dest="action", required=True, metavar="SCENARIO|summary|plot")
    r = ss.add_parser("run", parents=[parent], help="play the games (the default action)")
    r.add_argument("scenario", type=scenario_arg, help=SCENARIO_HELP)
    r.add_argument("--games", type=int, required=True)
    r.add_argument("--turns", type=int, required=True)
    r.add_argument("--house", action="append", help="house rules of every game (repeatable)")
    r.add_argument(
        "--variant", action="append", metavar="NAME=FILE[,FILE]",
        help="a house-rules variant, the same games played again (repeatable; the first is the "
        "reference; NAME= for the rules as they are)",
    )  # fmt: skip
    r.add_argument(
        "--players", help="SIDE=STYLE[:POSTURE],... (default balanced, attack@1-5, green wait)"
    )
    r.add_argument("--level", type=int, choices=(1, 2, 3))
    r.add_argument("--seed", type=int, default=1)
    r.add_argument("--scheduler", help="a Dask scheduler's address (tcp://host:8786)")
    r.add_argument("--workers", type=int, default=2, help="local worker processes (default 2)")
    r.add_argument(
        "--timeout", type=float, default=CONNECT_SECONDS, help="seconds to reach the scheduler"
    )
    r.add_argument("--keep", type=Path, metavar="DIR", help="keep every game as a .game file")
    r.add_argument(
        "--keep-only", metavar="OUTCOME[,OUTCOME]",
        help="with --keep: only the games with these outcomes (red, blue, ..., draw)",
    )  # fmt: skip
    r.add_argument(
        "--out", type=Path, required=True,
        help="the results: NetCDF (RESULTS.nc), or a Zarr store (RESULTS.zarr) for large sweeps",
    )  # fmt: skip
    r.add_argument("--force", action="store_true", help="replace the results file or store")
    r.set_defaults(handler=run_command)
    s = ss.add_parser("summary", parents=[parent], help="win rates, force ratios, variants")
    s.add_argument("results", type=Path, help="the results (NetCDF file or Zarr store)")
    s.set_defaults(handler=summary_command)
    g = ss.add_parser("plot", parents=[parent], help="the picture: win rates, force ratios")
    g.add_argument("results", type=Path, help="the results (NetCDF file or Zarr store)")
    g.add_argument("-o", "--out", type=Path, required=True, help="the picture (PNG)")
    g.add_argument("--force", action="store_true", help=FORCE_HELP)
    g.set_defaults(handler=plot_command)


class _Bar:
    """The run's progress on stderr (tqdm)."""

    def __init__(self, lang: Lang) -> None:
        self.lang = lang
        self.bar: Any = None

    def __call__(self, done: int, total: int) -> None:
        from tqdm import tqdm

        if self.bar is None:
            self.bar = tqdm(total=total, desc=WORDS["games"](self.lang), file=sys.stderr,
                            unit="", dynamic_ncols=True)  # fmt: skip
        self.bar.n = done
        self.bar.refresh()
        if done == total:
            self.bar.close()


def run_command(args: argparse.Namespace) -> Output:
    need("sweep", "dask", "distributed", "zarr")
    from strategia.sweep import dask_client, read_sweep, run, save
    from strategia.sweep.files import refuse_existing
    from strategia.sweep.run import check_keep, keep_games
    from strategia.sweep.spec import SweepError, read_outcomes
    from strategia.sweep.summary import summary

    houses = [Path(h) for h in args.house or []]
    variant_files = [
        Path(f) for v in args.variant or [] for f in v.partition("=")[2].split(",") if f
    ]
    reading = [args.scenario, *houses, *variant_files]
    check_output("--out", args.out, True, reading, folder=True)  # there: refuse_existing
    refuse_existing(args.out, args.force)
    if args.keep is not None:
        check_output("--keep", args.keep, True, reading, folder=True)
    sweep = read_sweep(
        args.scenario, args.games, args.turns, house=args.house, variants=args.variant,
        players=args.players, level=args.level, seed=args.seed,
    )  # fmt: skip
    only: tuple[str, ...] = ()
    if args.keep_only is not None:
        if args.keep is None:
            raise SweepError(
                f"--keep-only {args.keep_only}: which games to keep, with --keep DIR only",
                ru=f"--keep-only {args.keep_only}: какие игры сохранить — только вместе с "
                "--keep ПАПКА",
            )
        only = read_outcomes(args.keep_only, sweep)
    if args.keep is not None:
        check_keep(args.keep, sweep)
    t0 = time.perf_counter()
    with dask_client(args.scheduler, args.workers, ":8787", args.timeout) as client:
        if client.dashboard_link:
            print(WORDS["dashboard"](args.lang).format(link=client.dashboard_link),
                  file=sys.stderr)  # fmt: skip
        ran = run(sweep, client, keep=args.keep is not None, progress=_Bar(args.lang),
                  keep_only=only)  # fmt: skip
    seconds = time.perf_counter() - t0
    save(ran.results, args.out, args.force)
    kept = keep_games(args.keep, ran.games) if args.keep is not None else []
    s = summary(ran.results)
    lines = [WORDS["done"](args.lang).format(out=args.out, n=len(sweep.variants) * sweep.games,
                                             s=round(seconds, 1))]  # fmt: skip
    if args.keep is not None:
        lines.append(WORDS["kept"](args.lang).format(dir=args.keep, n=len(kept)))
    data = {
        "out": str(args.out), "games": sweep.games, "turns": sweep.turns,
        "variants": [v.name for v in sweep.variants], "seconds": round(seconds, 3),
        "dashboard": ran.dashboard, "kept": [str(p) for p in kept], "keep_only": list(only),
        "summary": s.to_json(),
    }  # fmt: skip
    return Output("\n".join([*lines, "", s.text(args.lang)]), data)


def summary_command(args: argparse.Namespace) -> Output:
    from strategia.sweep.files import load
    from strategia.sweep.summary import summary

    s = summary(load(args.results))
    return Output(s.text(args.lang), s.to_json())


def plot_command(args: argparse.Namespace) -> Output:
    need("sweep", "matplotlib")
    from strategia.sweep.files import load
    from strategia.sweep.plot import save_plot

    check_output("-o", args.out, args.force, [args.results])
    ds = load(args.results)
    save_plot(ds, args.out, args.lang)
    text = WORDS["plot"](args.lang).format(out=args.out, results=args.results)
    return Output(text, {"out": str(args.out), "results": str(args.results)})


__all__ = ["add_commands", "normalise"]
