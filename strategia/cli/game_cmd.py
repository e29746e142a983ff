"""`strategia game ...`: play a whole game from the command line, every command committed to the
game file before it prints. `replay` exits 2 on any difference from the file."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from strategia.cli import auto_cmd, chart_cmd, debrief_cmd, fork_cmd, report_cmd
from strategia.cli.output import (
    FORCE_HELP,
    SCENARIO_HELP,
    Output,
    check_output,
    replacing,
    scenario_arg,
)
from strategia.cli.words import line, phase, to_move
from strategia.core.geometry import Cell
from strategia.core.i18n import Lang, Text
from strategia.core.numbers import num
from strategia.explain.render import explanation_text, rule_label
from strategia.game.channel import ANSWER_KEYS, channel
from strategia.game.debrief import debrief
from strategia.game.debrief_render import debrief_text
from strategia.game.game import NOTHING, Game, GameError
from strategia.game.order_words import question_in
from strategia.game.store_words import with_russian
from strategia.rules.kinds import side_name
from strategia.theatre.ascii_map import render

GAME_FORCE_HELP = "replace a game already there (not while a program has it open)"


def add_commands(sub: Any, parent: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "game", help="play a game: new, order, end-turn, show, ask, journal, report, export..."
    )
    gs = p.add_subparsers(dest="action", required=True, metavar="ACTION")

    def cmd(name: str, help_: str, handler: Any) -> argparse.ArgumentParser:
        c: argparse.ArgumentParser = gs.add_parser(name, parents=[parent], help=help_)
        c.set_defaults(handler=_warned(handler))
        return c

    c = cmd("new", "start a game from a scenario; the game file is its journal", new)
    c.add_argument("scenario", type=scenario_arg, help=SCENARIO_HELP)
    c.add_argument("game", type=Path)
    c.add_argument("--force", action="store_true", help=GAME_FORCE_HELP)
    c.add_argument("--level", type=int, choices=(1, 2, 3))
    c.add_argument("--seed", type=int)
    c.add_argument("--house", action="append", help="house-rules file (0.3), kept in the game")
    c.add_argument("--limit-interventions", action="store_true", help="9.4: one in 7 turns")
    c.add_argument("--clock", action="store_true", help="play with clocks (1.9, 5.2)")
    c.add_argument(
        "--clock-minutes", type=float, help="minutes a move instead of the level's (1.9)"
    )
    auto_cmd.add_new_options(c)
    c = cmd("order", "give an order in journal notation", order)
    c.add_argument("game", type=Path)
    c.add_argument("text")
    c.add_argument("--side", help="give it as this side: told only what the side may know")
    c.add_argument("--explain", action="store_true", help="print the breakdown (mediator)")
    c.add_argument(
        "--at",
        type=int,
        metavar="ENTRY",
        help="the journal entry this was decided on: refused if the game moved on",
    )
    c = cmd("end-turn", "end the side's move (level 3: carry out every side's orders)", end_turn)
    c.add_argument("game", type=Path)
    c.add_argument("--side", help="the side whose move this ends: refused once it is over")
    c.add_argument("--turn", type=int, help="the turn it ends: refused once it is over")
    c.add_argument(
        "--at",
        type=int,
        metavar="ENTRY",
        help="the journal entry this was decided on: refused if the game moved on",
    )
    c = cmd("show", "the map and status, as a side (or the mediator) sees it", show)
    c.add_argument("game", type=Path)
    c.add_argument("--side", help="red, blue, ... (default: the mediator, who sees everything)")
    c.add_argument("--turn", type=int, help="the position at the start of an earlier turn")
    c = cmd("ask", "a reconnaissance question (8.3)", ask)
    c.add_argument("game", type=Path)
    c.add_argument("text")
    c.add_argument("--side", required=True)
    c.add_argument("--lie", choices=("yes", "no"), help="the mediator's choice of a false answer")
    c.add_argument(
        "--at",
        type=int,
        metavar="ENTRY",
        help="the journal entry this was decided on: refused if the game moved on",
    )
    c = cmd("journal", "the journal: as the paper journal (text) or its entries (--json)", journal)
    c.add_argument("game", type=Path)
    c.add_argument("--side", help="the side's journal: what it gave and what it was told")
    c = cmd(
        "replay",
        "re-derive every result, answer and snapshot from the scenario and compare (exit 2 on "
        "any difference)",
        replay,
    )
    c.add_argument("game", type=Path)
    c.add_argument(
        "--recover",
        action="store_true",
        help="rebuild a damaged file from its good part (the damaged one is kept aside)",
    )
    c = cmd("export", "the game as a text journal (JSON lines, with checksums)", export)
    c.add_argument("game", type=Path)
    c.add_argument("out", type=Path)
    c.add_argument("--force", action="store_true", help=FORCE_HELP)
    c = cmd("import", "a game file from a text journal (an export, or a first-version game)", imp)
    c.add_argument("text", type=Path)
    c.add_argument("game", type=Path)
    c.add_argument("--recover", action="store_true", help="keep the entries before any damage")
    c.add_argument("--force", action="store_true", help=GAME_FORCE_HELP)
    c = cmd("intervene", "a mediator's input (9.4): a note, or weather closing a road", intervene)
    c.add_argument("game", type=Path)
    c.add_argument("text")
    c.add_argument("--cell", help="close the road here")
    c.add_argument("--turns", type=int, help="for how many turns the road is closed")
    c.add_argument(
        "--at",
        type=int,
        metavar="ENTRY",
        help="the journal entry this was decided on: refused if the game moved on",
    )
    c = cmd("extend", "give the move in progress more time on the clock (1.9)", extend)
    c.add_argument("game", type=Path)
    c.add_argument("minutes", type=float)
    c.add_argument("--note", default="", help="why: the sides are told")
    c = cmd("undo", "take back the last order of the move", undo)
    c.add_argument("game", type=Path)
    c.add_argument(
        "--entry", type=int, help="the entry to take back: refused if it is not the last"
    )
    c.add_argument(
        "--at",
        type=int,
        metavar="ENTRY",
        help="the journal entry this was decided on: refused if the game moved on",
    )
    c = cmd("score", "the score of each side with its breakdown (reconstructed, 1.1)", score_cmd)
    c.add_argument("game", type=Path)
    c.add_argument("--side", help="the side's own score, told when the war is over")
    report_cmd.add_command(cmd)
    fork_cmd.add_command(cmd)
    debrief_cmd.add_command(cmd)
    chart_cmd.add_command(cmd)
    auto_cmd.add_command(cmd)


def new(args: argparse.Namespace) -> Output:
    reading = [args.scenario, *(Path(h) for h in args.house or [])]
    check_output("", args.game, args.force, reading, game=True)
    with replacing("--force", args.game, args.force):
        g = Game.new(
            args.scenario,
            args.game,
            level=args.level,
            seed=args.seed,
            house=args.house,
            limit_interventions=args.limit_interventions,
            clock=args.clock or None,
            clock_minutes=args.clock_minutes,
            computer=auto_cmd.computer_settings(args) or None,
        )
    return Output(
        line(
            "new",
            args.lang,
            game=args.game,
            name=g.scenario.name,
            level=g.level,
            turn=g.state.turn,
            who=to_move(g, args.lang),
        ),
        _status(g),
    )


def extend(args: argparse.Namespace) -> Output:
    g = _open(args)
    left = g.extend(args.minutes, args.note)
    return Output(
        line(
            "extended",
            args.lang,
            game=args.game,
            minutes=num(args.minutes, args.lang),
            left=f"{int(left) // 60}:{int(left) % 60:02d}",
        ),
        _status(g),
    )


def _open(args: argparse.Namespace) -> Game:
    """The game of `args.game`; damage the store worked around becomes a warning."""
    g = Game.open(args.game)
    args.warnings = _warnings(g, args.lang)
    return g


def _warned(handler: Any) -> Any:
    def run(args: argparse.Namespace) -> Output:
        out: Output = handler(args)
        out.warnings += getattr(args, "warnings", [])
        return out

    return run


def _warnings(g: Game, lang: Lang) -> list[str]:
    """Damage the store worked around (a header copy, a snapshot): `game replay` lists it."""
    whole = Text(
        "the game is whole; `strategia game replay` checks it",
        "игра цела; `strategia game replay` проверит ее",
    )(lang)
    return [
        f"{with_russian(p, str(g.journal.path)).say(lang)} ({whole})" for p in g.journal.problems
    ]


def _status(g: Game) -> dict[str, Any]:
    return {
        "game": str(g.journal.path),
        "scenario": g.scenario.name,
        "level": g.level,
        "turn": g.state.turn,
        "side": g.side,
        "phase": g.phase,
        "at_war": g.state.at_war,
        "clock_seconds_left": g.clock(),
        "entry": g.position,  # what a command decided on this may give as --at
    }


def order(args: argparse.Namespace) -> Output:
    g = _open(args)
    if args.side is not None:  # "" too: only no --side at all is the mediator
        side = channel(g, args.side)
        if args.explain:
            raise GameError(
                "--explain: the breakdown is the mediator's (1.6)",
                ru="--explain: расчет — для посредника (1.6)",
            )
        t = side.order(args.text, at=args.at)
        if t is None:
            return Output(
                line("sealed", args.lang, text=args.text), {"sealed": True, **side.status()}
            )
        return Output(t.text(args.lang), t.to_json())
    r = g.order(args.text, at=args.at)
    if r is None:
        return Output(line("queued", args.lang, text=args.text), {"queued": True, **_status(g)})
    lines = [r.outcome(args.lang) + (f"  [{NOTHING(args.lang)}]" if r.cut_to_nothing else "")]
    if args.explain:
        lines += [
            line("cut", args.lang, rule=rule_label(c.rule, args.lang), reason=c.reason(args.lang))
            for c in r.cuts
        ]
        lines += ["", *explanation_text(r.explanation, args.lang)]
    return Output("\n".join(lines), r.to_json())


def end_turn(args: argparse.Namespace) -> Output:
    g = _open(args)
    results = g.end_turn(at=args.at, side=args.side, turn=args.turn)
    lines = [line("turn", args.lang, turn=g.state.turn, who=to_move(g, args.lang))] + [
        f"  {r.outcome(args.lang)}" for r in results
    ]
    return Output("\n".join(lines), {**_status(g), "results": [r.to_json() for r in results]})


def show(args: argparse.Namespace) -> Output:
    from strategia.game.views import mediator_view, to_geojson

    g = _open(args)
    state = g.state_at(args.turn) if args.turn is not None else g.state
    status = _status(g)
    if args.side is not None:
        side = channel(g, args.side)
        view = side.view(args.turn)
        status = side.status()
    else:
        view = mediator_view(state)
    letters = {"red": "R", "blue": "B", "green": "G", "black": "K"}
    marks: dict[Cell, str] = {}
    for f in to_geojson(view)["features"]:
        x, y = f["geometry"]["coordinates"]
        marks[Cell(int(x), int(y))] = letters.get(str(f["properties"].get("side")), "?")
    head = line(
        "show", args.lang, name=g.scenario.name, turn=state.turn, who=to_move(g, args.lang),
        phase=phase(g.phase, args.lang),
    ) + (
        line("as_side", args.lang, side=side_name(g.known_side(args.side), args.lang))
        if args.side is not None
        else line("as_mediator", args.lang)
    )  # fmt: skip
    return Output(
        head + "\n" + render(state.theatre, state.level, marks, lang=args.lang),
        {**status, "view": view.to_json()},
    )


def ask(args: argparse.Namespace) -> Output:
    g = _open(args)
    side = channel(g, args.side)
    if args.lie is not None:  # the mediator's choice (8.3); the side is told the answer only
        a = g.ask(side.side, args.text, args.lie == "yes", at=args.at)
        a = {k: a[k] for k in ANSWER_KEYS if k in a}
    else:
        a = side.ask(args.text, at=args.at)
    answer = a["answer"][args.lang] if isinstance(a["answer"], dict) else a["answer"]
    return Output(f"{question_in(a['question'], args.lang)} — {answer}", a)


def journal(args: argparse.Namespace) -> Output:
    g = _open(args)
    if args.side is not None:  # the side's debrief first, then its journal
        side = channel(g, args.side)
        head = debrief_text(debrief(side), args.lang, g.simultaneous)
        return Output(f"{head}\n\n{side.journal_text(args.lang)}", side.told())
    return Output(g.journal_text(args.lang), g.journal_json())


def replay(args: argparse.Namespace) -> Output:
    g = Game.open(args.game, recover=args.recover, verify=True)
    problems = [p for p in g.replay_problems if not p.startswith("note: ")]
    notes = [p for p in g.replay_problems if p.startswith("note: ")]
    n = len(g.journal.entries)
    text = line("replayed", args.lang, game=args.game, n=n, turn=g.state.turn) + (
        line("same", args.lang) if not problems else line("differences", args.lang, n=len(problems))
    )
    text = "\n".join([text, *problems, *notes])
    data = {
        **_status(g),
        "entries": len(g.journal.entries),
        "acknowledged": g.journal.acknowledged,
        "problems": problems,
        "notes": notes,
    }
    return Output(text, data, status=1 if problems else 0)  # findings


def export(args: argparse.Namespace) -> Output:
    from strategia.game import textform
    from strategia.game.store import GameStore

    check_output("", args.out, args.force, [args.game])
    with GameStore.open(args.game) as store:  # a game of either rule set
        textform.write(args.out, store.entries)
        n = len(store.entries)
    return Output(
        line("exported", args.lang, out=args.out, n=n, game=args.game),
        {"game": str(args.game), "out": str(args.out), "entries": n},
    )


def imp(args: argparse.Namespace) -> Output:
    from strategia.game import textform

    check_output("", args.game, args.force, [args.text], game=True)
    head = textform.read(args.text)[0][:1]
    if head and head[0].data.get("game") == "tactical":
        with replacing("--force", args.game, args.force):
            store, problems = textform.import_journal(args.text, args.game, args.recover)
        n = len(store.entries)
        store.close()
        text = line("tactical", args.lang, game=args.game, n=n)
        notes = [str(p) for p in problems]
        return Output(
            "\n".join([text, *notes]), {"game": str(args.game), "entries": n, "problems": notes}
        )
    with replacing("--force", args.game, args.force):
        g = Game.import_text(args.text, args.game, recover=args.recover)
    differences = [p for p in g.replay_problems if not p.startswith("note: ")]
    n = len(g.journal.entries)
    text = line("imported", args.lang, game=args.game, n=n, text=args.text, turn=g.state.turn)
    text = "\n".join([text, *g.replay_problems])
    data = {**_status(g), "entries": len(g.journal.entries), "problems": g.replay_problems}
    return Output(text, data, status=1 if differences else 0)  # findings


def intervene(args: argparse.Namespace) -> Output:
    g = _open(args)
    g.intervene(args.text, Cell.parse(args.cell) if args.cell else None, args.turns, args.at)
    data = {**_status(g), "interventions": len(g.interventions)}
    return Output(line("noted", args.lang, text=args.text), data)


def undo(args: argparse.Namespace) -> Output:
    g = _open(args)
    g.undo(of=args.entry, at=args.at)
    return Output(
        line("undone", args.lang, turn=g.state.turn, who=to_move(g, args.lang)), _status(g)
    )


def score_cmd(args: argparse.Namespace) -> Output:
    g = _open(args)
    if args.side is not None:
        e = channel(g, args.side).score()
        text = "\n".join(explanation_text(e.explanation, args.lang))
        return Output(text, {"score": e.value, "explanation": e.explanation.to_json()})
    sides = sorted({s.side for s in g.scenario.states})
    lines, data = [], {}
    penalties = (
        {s: e.value for s, e in g.review().items()}
        if not g.journal.header.get("mediator", True)
        else {}
    )
    for s in sides:
        e = g.score(s, penalties.get(s, 0.0))
        lines += explanation_text(e.explanation, args.lang)
        data[s] = {"score": e.value, "explanation": e.explanation.to_json()}
    return Output("\n".join(lines), data)
