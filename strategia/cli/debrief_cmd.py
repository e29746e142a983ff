"""`strategia game debrief GAME --side S [--format text|html] [-o FILE]`: what happened to a side
since its last move (`strategia.game.debrief`), as the side may know it."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from strategia.cli.output import FORCE_HELP, Output, check_output
from strategia.game.channel import channel
from strategia.game.debrief import debrief
from strategia.game.debrief_render import debrief_page, debrief_text
from strategia.game.game import Game


def add_command(cmd: Any) -> None:
    """Register `game debrief` with the game command's `cmd(name, help, handler)`."""
    c = cmd("debrief", "what happened to a side since its last move, as it may know it", run)
    c.add_argument("game", type=Path)
    c.add_argument("--side", required=True, help="red, blue, ...")
    c.add_argument("--format", choices=("text", "html"), default="text", dest="fmt")
    c.add_argument("-o", "--output", type=Path, help="write to this file instead of stdout")
    c.add_argument("--force", action="store_true", help=FORCE_HELP)


def run(args: argparse.Namespace) -> Output:
    check_output("-o", args.output, args.force, [args.game])
    g = Game.open(args.game)
    d = debrief(channel(g, args.side))
    if args.fmt == "html":
        text = debrief_page(d, args.lang, g.simultaneous)
    else:
        text = debrief_text(d, args.lang, g.simultaneous)
    if args.output:
        args.output.write_text(text, encoding="utf-8")
        text = str(args.output)
    return Output(text, d.to_json())
