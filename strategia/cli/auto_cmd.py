"""`strategia game auto`: the computer plays its sides (`strategia.players`), as the mediator
would carry the game on: at levels 1-2 it gives its side's orders and ends the move; at level 3
it seals each of its sides' orders and, when every side has given them, ends the turn. It stops
at the turn limit, at a side no computer plays, or at the end of the war.

`game new ... --computer blue[:bold[:attack@3]]` says which sides the computer plays, in what
style and posture (kept in the game's header, with a styles file if `--styles` gave one).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from strategia.cli.output import Output
from strategia.core.errors import Problem, RuleDataError, read_text_file
from strategia.core.i18n import Lang, Text
from strategia.game.game import Game
from strategia.players import Player, Posture, load_styles, settings
from strategia.players.styles import STYLES
from strategia.rules.kinds import side_name
from strategia.sweep.play import play_game as play


def add_command(cmd: Any) -> None:
    c = cmd("auto", "the computer plays its sides (game new --computer)", auto)
    c.add_argument("game", type=Path)
    c.add_argument("--side", action="append", help="play only this side (repeatable)")
    c.add_argument("--turns", type=int, help="stop when this turn is over")


def add_new_options(c: argparse.ArgumentParser) -> None:
    c.add_argument(
        "--computer",
        action="append",
        metavar="SIDE[:STYLE[:POSTURE]]",
        help=f"a side the computer plays: style {'|'.join(STYLES)}, posture wait|attack@N",
    )
    c.add_argument("--styles", type=Path, help="a styles file merged over the defaults")
    c.add_argument(
        "--think",
        type=float,
        metavar="SECONDS",
        help="seconds the computer's search may spend in a move (default: every plan weighed)",
    )


def computer_settings(args: argparse.Namespace) -> dict[str, dict[str, Any]]:
    """The sides the computer plays, each {"style", "posture", "seed"} (and "styles", the
    styles file's text)."""
    text = read_text_file(args.styles) if args.styles else None
    styles = load_styles(text, str(args.styles)) if text is not None else load_styles()
    out: dict[str, dict[str, Any]] = {}
    problems = []
    for spec in args.computer or []:
        side, _, rest = spec.partition(":")
        style, _, posture = rest.partition(":")
        style = style or "balanced"
        chosen = settings(side, style, posture or None)
        posture = chosen["posture"]
        if style not in styles:
            problems.append(Problem(f"--computer {spec}", f"style: one of {', '.join(styles)}"))
        try:
            Posture.parse(posture)
        except RuleDataError as e:
            problems += list(e.problems)
        key = side.strip().lower()
        out[key] = chosen
        if text is not None:
            out[key]["styles"] = text
        if getattr(args, "think", None) is not None:
            out[key]["think"] = float(args.think)
    if problems:
        raise RuleDataError("--computer", problems)
    return out


def players_of(g: Game, only: list[str] | None = None) -> dict[str, Player]:
    """The computer's players of the game (`Game.computer_sides`; of the sides `only`, if
    given)."""
    keep = {g.known_side(s) for s in only} if only else None
    return {
        side: Player.of_settings(side, settings, f"{g.journal.path} (styles)")
        for side, settings in g.computer_sides().items()
        if keep is None or side in keep
    }


def records(g: Game, after: int, lang: Lang) -> list[dict[str, Any]]:
    """The orders the computer gave after entry `after`: turn, side, order, its reason in
    words and what 9.3 cut of it (the mediator's record of the result)."""
    by_seq: dict[int, list[Any]] = {}
    for seq, _, _, r in g.results:
        by_seq.setdefault(seq, []).append(r)
    ends = sorted(e.seq for e in g.journal.entries if e.kind == "end-turn" and e.seq in by_seq)
    out = []
    taken: set[int] = set()
    for seq, d in g.decisions():
        if seq <= after or d.get("order") is None:
            continue
        cut: list[str] = []
        found = by_seq.get(int(d.get("of", 0)), [])
        if not found:  # sealed (level 3): its result is in the End turn that carried it out
            for s in ends:
                if s <= seq:
                    continue
                for r in by_seq[s]:
                    if id(r) not in taken and r.order == d["order"] and r.by == d["side"]:
                        taken.add(id(r))
                        found = [r]
                        break
                if found:
                    break
        for r in found[:1]:
            cut = [f"{c.reason(lang)} [{c.rule}]" for c in r.cuts]
        out.append({
            "turn": d["turn"], "side": d["side"], "order": d["order"],
            "reason": d["text"][lang], "cut": cut,
        })  # fmt: skip
    return out


def auto(args: argparse.Namespace) -> Output:
    g = Game.open(args.game)
    players = players_of(g, args.side)
    if not players:
        raise RuleDataError(
            str(args.game),
            [Problem("computer", "no side is played by the computer (game new --computer)")],
        )
    after = play(g, players, args.turns)
    done = records(g, after, args.lang)
    refused = [{"side": s, "order": o, "why": w} for s, p in players.items() for o, w in p.refused]
    who = side_name(g.side, args.lang) if g.side else ""
    head = Text(
        f"{args.game}: {len(done)} orders given; turn {g.state.turn}, {who} to move",
        f"{args.game}: отдано приказов: {len(done)}; ход {g.state.turn}, ходят {who}",
    )
    lines = [head(args.lang)]
    for r in done:
        cut = f"  ✂ {'; '.join(r['cut'])}" if r["cut"] else ""
        lines.append(f"  {r['turn']} {side_name(r['side'], args.lang)}: {r['order']}{cut}")
    data = {"orders": done, "refused": refused, "turn": g.state.turn, "side": g.side}
    return Output("\n".join(lines), data)


__all__ = ["add_command", "add_new_options", "computer_settings", "play", "players_of", "records"]
