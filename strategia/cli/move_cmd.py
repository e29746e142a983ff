"""`strategia move` and `strategia reach`: a movement order's what-if on a scenario's position."""

from __future__ import annotations

import argparse
from typing import Any

from strategia.cli.output import SCENARIO_HELP, Output, scenario_arg
from strategia.cli.words import line
from strategia.core.errors import StrategiaError
from strategia.core.i18n import Text
from strategia.core.numbers import quantity
from strategia.engine.apply import apply
from strategia.engine.state import GameState, initial_state
from strategia.engine.unit_reach import MODES, reach
from strategia.explain.render import explanation_text, rule_label
from strategia.notation.orders import parse_order
from strategia.notation.refs import UnitRef
from strategia.rules.kinds import Side, side_name
from strategia.theatre import terrain
from strategia.theatre.ascii_map import render
from strategia.theatre.scenario_io import load_scenario


def add_commands(sub: Any, parent: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "move",
        parents=[parent],
        help="carry out a movement order on a scenario's position and explain it (a what-if)",
    )
    p.add_argument("file", type=scenario_arg, help=SCENARIO_HELP)
    p.add_argument("order", help="the order in journal notation, e.g. '5 т.д. на 46,22'")
    p.add_argument("--level", type=int, choices=(1, 2, 3))
    p.add_argument("--side", help="refuse the order unless the unit is this side's")
    p.set_defaults(handler=move_command)
    r = sub.add_parser("reach", parents=[parent], help="where a unit can move this turn (4.2-4.4)")
    r.add_argument("file", type=scenario_arg, help=SCENARIO_HELP)
    r.add_argument("unit", help="the unit, e.g. '5 т.д.'")
    r.add_argument("--mode", choices=MODES, default="forward")
    r.add_argument("--level", type=int, choices=(1, 2, 3))
    r.set_defaults(handler=reach_command)


def _position(args: argparse.Namespace) -> GameState:
    sc = load_scenario(args.file)
    return initial_state(sc, args.level or sc.settings.level)


def move_command(args: argparse.Namespace) -> Output:
    state = _position(args)
    rules = state.scenario.rules(state.level)
    side = _side(state, args.side) if args.side is not None else None
    order = parse_order(args.order, state)
    _, result = apply(state, order, rules, side=side)
    lines = [result.outcome(args.lang)]
    for c in result.cuts:
        lines.append(
            line("cut", args.lang, rule=rule_label(c.rule, args.lang), reason=c.reason(args.lang))
        )
    lines += ["", *explanation_text(result.explanation, args.lang)]
    return Output("\n".join(lines), result.to_json())


def _side(state: GameState, name: str) -> str:
    """`name` ("Blue", "синие", "blue") as one of the scenario's sides, or an error naming it."""
    sides = list(dict.fromkeys(s.side for s in state.scenario.states))
    key = found.key if (found := Side.find(name)) is not None else name
    if key not in sides:
        empty, empty_ru = (" (empty)", " (пусто)") if not name.strip() else ("", "")
        raise StrategiaError(
            f"side {name!r}{empty}: this scenario's sides are {', '.join(sides)}",
            ru=f"сторона «{name}»{empty_ru}: в этом сценарии "
            f"{', '.join(side_name(s) for s in sides)}",
        )
    return key


def reach_command(args: argparse.Namespace) -> Output:
    state = _position(args)
    rules = state.scenario.rules(state.level)
    ref = UnitRef.parse(args.unit, state)
    r = reach(state, ref, rules, args.mode)
    cells = sorted(r.cells(), key=lambda c: (c.lat, c.lon))
    marks = {c: "*" for c in cells}
    marks[state.unit(ref).cell] = "U"
    text = render(state.theatre, state.level, marks, legend=False)
    modes = {"forward": "поступательно", "road": "по дорогам", "withdraw": "отход"}
    head = Text(
        f"{ref.format('en')}: {quantity(len(cells), 'cell')} within reach ({args.mode}), "
        "* on the map, U the unit",
        f"{ref}: в досягаемости {quantity(len(cells), 'cell', 'ru')} "
        f"({modes.get(args.mode, args.mode)}), * на карте, U — сама часть",
    )(args.lang)
    data = {
        "unit": str(ref),
        "mode": args.mode,
        "cells": [{"cell": str(c), "turns": round(r.cost_to(c), 4)} for c in cells],
        "size": list(terrain.size(state.theatre)),
    }
    return Output(head + "\n" + text, data)
