"""`strategia game fork GAME --turn N | --entry K NEW.game`: a new game from a point of another
(its journal up to there, replayed; the original only read)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from strategia.cli.output import Output, check_output, replacing
from strategia.core.i18n import Text
from strategia.game.fork import fork
from strategia.game.game import Game

FORKED = Text(
    "{new}: a new game from {game} at entry {entry} (turn {turn}); {n} entries replayed, {same}",
    "{new}: новая игра из {game} с записи {entry} (ход {turn}); переиграно записей: {n}, {same}",
)
SAME = Text("every result reproduced", "все результаты воспроизведены")
DIFFERENT = Text("{n} difference(s) from the original", "расхождений с оригиналом: {n}")


def add_command(cmd: Any) -> None:
    """Register `game fork` with the game command's `cmd(name, help, handler)`."""
    c = cmd(
        "fork",
        "a new game from a turn's start or an entry of this one (the original untouched)",
        fork_game,
    )
    c.add_argument("game", type=Path)
    c.add_argument("new", type=Path, metavar="NEW.game")
    c.add_argument(
        "--force", action="store_true", help="replace a game already there (not while open)"
    )
    where = c.add_mutually_exclusive_group(required=True)
    where.add_argument("--turn", type=int, help="from the start of this turn")
    where.add_argument("--entry", type=int, help="from the game as it was after this entry")


def fork_game(args: argparse.Namespace) -> Output:
    check_output("", args.new, args.force, [args.game], game=True)
    source = Game.open(args.game)
    try:
        with replacing("--force", args.new, args.force):
            g = fork(source, args.new, turn=args.turn, entry=args.entry)
    finally:
        source.journal.close()
    with g.journal:
        point = g.journal.header["forked_from"]
        problems = list(g.replay_problems)
        n = g.journal.last_seq
        same = SAME(args.lang) if not problems else DIFFERENT(args.lang).format(n=len(problems))
        text = FORKED(args.lang).format(
            new=args.new, game=args.game, entry=point["entry"], turn=point["turn"], n=n, same=same
        )
        data = {
            "game": str(args.new),
            "forked_from": {**point, "path": str(args.game)},
            "turn": g.state.turn,
            "entries": n,
            "problems": problems,
        }
    return Output("\n".join([text, *problems]), data, status=1 if problems else 0)  # findings
