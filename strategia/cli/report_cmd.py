"""`strategia game report GAME --turn N [--at CELL] [--side S] --format html|md|json|text`: the
battle reports of a turn (or one battle), to print or to hand out; `--whole`: the game's report
as a page (`game.whole_report`)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from strategia.cli.output import FORCE_HELP, Output, check_output
from strategia.game import report_render as rr
from strategia.game.channel import channel
from strategia.game.game import Game
from strategia.game.whole_report import whole_page

FORMATS = ("text", "html", "md", "json")


def add_command(cmd: Any) -> None:
    """Register `game report` with the game command's `cmd(name, help, handler)`."""
    c = cmd(
        "report", "battle reports of a turn (or one battle): text, HTML to print, md, json", report
    )
    c.add_argument("game", type=Path)
    c.add_argument("--turn", type=int, help="the turn (default: every turn)")
    c.add_argument("--at", help="only the battle for this cell (45,22)")
    c.add_argument("--side", help="a side's copy: its own account of each battle (fog of war)")
    c.add_argument("--format", choices=FORMATS, default="text", dest="fmt")
    c.add_argument("-o", "--output", type=Path, help="write to this file instead of stdout")
    c.add_argument("--force", action="store_true", help=FORCE_HELP)
    c.add_argument(
        "--whole",
        action="store_true",
        help="the game's whole report as a page: the course charted, the score, every battle",
    )


def report(args: argparse.Namespace) -> Output:
    check_output("-o", args.output, args.force, [args.game])
    g = Game.open(args.game)
    if args.whole:
        if args.side is not None:
            channel(g, args.side)  # an unknown side refused before anything is written
        text = whole_page(g, args.lang, args.side)
        whole = {"game": str(args.game), "turn": g.state.turn, "side": args.side}
        if args.output:
            args.output.write_text(text, encoding="utf-8")
            text = str(args.output)
        return Output(text, whole)
    if args.side is not None:  # a side's copy ("" too): its own account, no breakdown (1.6)
        items = channel(g, args.side).fights(args.turn, args.at)
    else:
        items = rr.fights(g.results, args.turn, args.at)
    lang = args.lang
    what = f"turn {args.turn}" if args.turn else "all turns"
    title = (
        f"«{g.scenario.name}»: {'бои, ход' if lang == 'ru' else 'battles, turn'} {args.turn}"
        if args.turn
        else f"«{g.scenario.name}»: {'бои' if lang == 'ru' else 'battles'}"
    )
    data = rr.report_json(items, lang)
    if args.fmt == "html":
        text = rr.page(title, items, lang)
    elif args.fmt == "md":
        text = rr.turn_markdown(title, items, lang)
    elif args.fmt == "json":
        text = rr.dumps(data)
    else:
        text = rr.turn_text(title, items, lang)
    if args.output:
        args.output.write_text(text, encoding="utf-8")
        text = f"{args.output}: {len(items)} report(s) of {what}"
    return Output(text, data)
