"""`strategia game chart GAME -o war.png [--side S] [--csv F] [--netcdf F]`: the course of the
war as a picture and as data (`strategia.game.course`; a side's copy: `war_chart.side_course`)."""

from __future__ import annotations

import argparse
import math
from pathlib import Path
from typing import Any

from strategia.cli.output import FORCE_HELP, Output, check_output, need
from strategia.core.i18n import Text
from strategia.game.channel import channel
from strategia.game.course import course
from strategia.game.game import Game
from strategia.game.war_chart import chart_png, side_course, to_csv

WROTE = Text(
    "{files}: the course of the war to the end of turn {turn}",
    "{files}: ход войны до конца хода {turn}",
)


def add_command(cmd: Any) -> None:
    """Register `game chart` with the game command's `cmd(name, help, handler)`."""
    c = cmd("chart", "the course of the war: a picture (PNG), CSV, NetCDF or --json", chart)
    c.add_argument("game", type=Path)
    c.add_argument("-o", "--output", type=Path, help="the picture (PNG)")
    c.add_argument("--side", help="a side's copy: only what the side knows")
    c.add_argument("--csv", type=Path, help="the figures as CSV")
    c.add_argument("--netcdf", type=Path, help="the figures as NetCDF")
    c.add_argument("--force", action="store_true", help=FORCE_HELP)


def _null_nan(x: Any) -> Any:
    """`x` with NaN (a ratio where the enemy has none) as null: JSON has no NaN."""
    if isinstance(x, float) and math.isnan(x):
        return None
    if isinstance(x, dict):
        return {k: _null_nan(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [_null_nan(v) for v in x]
    return x


def chart(args: argparse.Namespace) -> Output:
    if args.output:
        need("console", "matplotlib")  # the picture; the figures need nothing more
    for option, path in (("-o", args.output), ("--csv", args.csv), ("--netcdf", args.netcdf)):
        check_output(option, path, args.force, [args.game])
    g = Game.open(args.game)
    if args.side is not None:
        channel(g, args.side)  # an unknown side refused before anything is written
        ds = side_course(g, args.side)
    else:
        ds = course(g)
    written = []
    if args.output:
        args.output.write_bytes(chart_png(ds, args.lang))
        written.append(str(args.output))
    if args.csv:
        args.csv.write_text(to_csv(ds), encoding="utf-8")
        written.append(str(args.csv))
    if args.netcdf:
        ds.to_netcdf(args.netcdf, engine="h5netcdf")
        written.append(str(args.netcdf))
    data = _null_nan(ds.to_dict(data="list"))
    if written:
        text = WROTE(args.lang).format(files=", ".join(written), turn=int(ds.turn.max()))
    else:
        text = to_csv(ds)
    return Output(text, data)
