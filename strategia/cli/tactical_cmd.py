"""`strategia tactical ...`: the seed-003 tactical game from the command line.

strategia tactical new SKIRMISH.toml --game G.tgame    start a game (a journal file)
strategia tactical show G.tgame                        the table, the phase, the cards
strategia tactical card G.tgame UNIT --before "move; form square" [--after ...] [--attack U]
strategia tactical phase G.tgame [--to fire]           on to the next phase (or to one)
strategia tactical move G.tgame UNIT "move 5; wheel 30"   act now (phases 2, 3, 5, 6)
strategia tactical form G.tgame UNIT square [--facing 90]
strategia tactical wheel G.tgame UNIT 45 / restore G.tgame UNIT
strategia tactical report G.tgame UNIT artillery --casualties 2 [--by U] [--condition C]
strategia tactical try SKIRMISH.toml UNIT "move; form square"   a what-if, no game file
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from strategia.cli.output import Output, check_output, replacing
from strategia.core.i18n import Lang, Text
from strategia.explain.render import explanation_text, fmt
from strategia.explain.trace import Step
from strategia.tactical.game import TacticalGame
from strategia.tactical.phases import Phase, phase_label


def add_commands(sub: Any, parent: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "tactical",
        help="the tactical rules (seed 003): battalions, squadrons, batteries on a table in cm",
        description="Play a skirmish under the tactical rules of seed 003. A game is a journal "
        "file; each command opens it, replays it, does one thing and appends it. "
        "Actions: move [cm] [road] [towards °], double, withdraw, retreat, flee, wheel °, "
        "face °, form FORMATION [facing °], limber, unlimber [facing °], prolonge, restore; "
        "several separated by ';'.",
    )
    t = p.add_subparsers(dest="tactical_command", required=True, metavar="ACTION")

    c = t.add_parser("new", parents=[parent], help="start a game of a skirmish file")
    c.add_argument("skirmish", type=Path, help="skirmish file (TOML)")
    c.add_argument("--game", type=Path, help="the game file to write (default: SKIRMISH.tgame)")
    c.add_argument("--house", action="append", metavar="FILE", help="house-rules file")
    c.add_argument(
        "--force", action="store_true", help="replace a game already there (not while open)"
    )
    c.set_defaults(handler=new_command)

    c = t.add_parser("show", parents=[parent], help="the table, the turn and phase, the cards")
    c.add_argument("game", type=Path)
    c.set_defaults(handler=show_command)

    c = t.add_parser("card", parents=[parent], help="lay a unit's order card (phase 1)")
    c.add_argument("game", type=Path)
    c.add_argument("unit")
    c.add_argument("--before", default="", help="actions before fire, e.g. 'move; form square'")
    c.add_argument("--after", default="", help="actions after fire (phase 5)")
    c.add_argument("--attack", help="the unit this one attacks (revealed in phase 2)")
    c.set_defaults(handler=card_command)

    c = t.add_parser("phase", parents=[parent], help="go on to the next phase")
    c.add_argument("game", type=Path)
    c.add_argument("--to", help="go on until this phase (number or name, e.g. 4 or fire)")
    c.set_defaults(handler=phase_command)

    c = t.add_parser("move", parents=[parent], help="a unit acts now: moves, wheels, forms")
    c.add_argument("game", type=Path)
    c.add_argument("unit")
    c.add_argument("actions", help="e.g. 'move 5', 'move; form square', 'double 8'")
    c.set_defaults(handler=move_command)

    c = t.add_parser("form", parents=[parent], help="a unit changes formation now")
    c.add_argument("game", type=Path)
    c.add_argument("unit")
    c.add_argument("formation", help="line, square, column, march, loose; limbered, ...")
    c.add_argument("--facing", type=float, help="a new facing (from loose order, guns)")
    c.set_defaults(handler=form_command)

    c = t.add_parser("wheel", parents=[parent], help="a unit changes front now (+ right)")
    c.add_argument("game", type=Path)
    c.add_argument("unit")
    c.add_argument("angle", type=float)
    c.set_defaults(handler=wheel_command)

    c = t.add_parser("restore", parents=[parent], help="a unit restores its order now")
    c.add_argument("game", type=Path)
    c.add_argument("unit")
    c.set_defaults(handler=restore_command)

    c = t.add_parser("report", parents=[parent], help="enter a result: fire, test, melee, ...")
    c.add_argument("game", type=Path)
    c.add_argument("unit", help="the unit the result befalls")
    c.add_argument("kind", help="artillery, musketry (phase 4), test (6), melee (7), wavering (8)")
    c.add_argument("--casualties", type=int, default=0, help="figures lost")
    c.add_argument("--outcome", default="", help="the outcome, in words")
    c.add_argument("--condition", help="formed, disordered, scattered or routed")
    c.add_argument("--by", help="the unit that fired on it or fought it")
    c.set_defaults(handler=report_command)

    c = t.add_parser("try", parents=[parent], help="what a unit's actions would do (no game)")
    c.add_argument("skirmish", type=Path)
    c.add_argument("unit")
    c.add_argument("actions")
    c.set_defaults(handler=try_command)


def _out(game: TacticalGame, steps: list[Step], lang: Lang) -> Output:
    lines: list[str] = []
    for s in steps:
        lines += [*explanation_text(s, lang), ""]
    lines.append(_status(game, lang))
    data = {
        "game": str(game.journal.path) if game.journal else None,
        "explanations": [s.to_json() for s in steps],
        "state": game.battle.to_json(game.rules),
    }
    return Output("\n".join(lines), data)


def _status(game: TacticalGame, lang: Lang) -> str:
    b = game.battle
    label = phase_label(b.phase, game.rules)(lang)
    head = Text(f"Turn {b.turn}, phase {label}", f"Ход {b.turn}, этап {label}")(lang)
    return f"{game.skirmish.name} — {head}"


def table_text(game: TacticalGame, lang: Lang) -> str:
    """The units as a table: where they stand, their formation and condition, the turn used."""
    head = Text(
        "unit side figures at facing formation condition turn-used",
        "отряд сторона фигурки место фронт строй состояние затрачено",
    )(lang).split()
    rows = []
    for u in game.table.units:
        rows.append(
            [
                u.name,
                u.side,
                str(u.figures),
                f"{fmt(u.x)},{fmt(u.y)}",
                f"{fmt(u.facing)}°",
                u.formation.label(lang) + (f" ({u.pending.target}…)" if u.pending else ""),
                u.condition.label(lang),
                str(u.spent),
            ]
        )
    widths = [max(len(r[i]) for r in [head, *rows]) + 2 for i in range(len(head))]
    lines = [
        "".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in [head, *rows]
    ]
    cards = game.battle.cards
    if cards:
        lines.append("")
        lines.append(Text("cards (face down):", "карточки (надписью вниз):")(lang))
        for name, card in cards.items():
            c = card.to_json()
            attack = f" → {card.attack}" if card.attack else ""
            lines.append(f"  {name}{attack}: {c['before'] or '—'} | {c['after'] or '—'}")
    return "\n".join(lines)


def new_command(args: argparse.Namespace) -> Output:
    path = args.game or args.skirmish.with_suffix(".tgame")
    reading = [args.skirmish, *(Path(h) for h in args.house or [])]
    check_output("--game", path, args.force, reading, game=True)
    with replacing("--force", path, args.force):
        game = TacticalGame.new(args.skirmish, path, house=args.house)
    text = f"{path}\n{_status(game, args.lang)}\n\n{table_text(game, args.lang)}"
    return Output(text, game.to_json())


def show_command(args: argparse.Namespace) -> Output:
    game = TacticalGame.open(args.game)
    text = f"{_status(game, args.lang)}\n\n{table_text(game, args.lang)}"
    return Output(text, game.to_json())


def card_command(args: argparse.Namespace) -> Output:
    game = TacticalGame.open(args.game)
    step = game.card(args.unit, args.before, args.after, args.attack)
    return _out(game, [step], args.lang)


def phase_command(args: argparse.Namespace) -> Output:
    game = TacticalGame.open(args.game)
    steps = [game.advance()]
    if args.to:
        goal = Phase.parse(args.to)
        while game.phase is not goal and len(steps) < len(Phase):
            steps.append(game.advance())
    return _out(game, steps, args.lang)


def _act(args: argparse.Namespace, actions: str) -> Output:
    game = TacticalGame.open(args.game)
    return _out(game, [game.act(args.unit, actions)], args.lang)


def move_command(args: argparse.Namespace) -> Output:
    return _act(args, args.actions)


def form_command(args: argparse.Namespace) -> Output:
    facing = f" facing {args.facing:g}" if args.facing is not None else ""
    return _act(args, f"form {args.formation}{facing}")


def wheel_command(args: argparse.Namespace) -> Output:
    return _act(args, f"wheel {args.angle:g}")


def restore_command(args: argparse.Namespace) -> Output:
    return _act(args, "restore")


def report_command(args: argparse.Namespace) -> Output:
    game = TacticalGame.open(args.game)
    step = game.report(args.unit, args.kind, args.casualties, args.outcome, args.condition, args.by)
    return _out(game, [step], args.lang)


def try_command(args: argparse.Namespace) -> Output:
    game = TacticalGame.new(args.skirmish)
    game.advance()
    game.advance()  # phase 3, movements: a unit may act
    return _out(game, [game.act(args.unit, args.actions)], args.lang)
