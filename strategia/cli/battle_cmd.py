"""`strategia battle`: resolve one battle or strike against a position, without changing it."""

from __future__ import annotations

import argparse
from typing import Any

from strategia.cli.move_cmd import _position
from strategia.cli.output import SCENARIO_HELP, Output, scenario_arg
from strategia.cli.words import line
from strategia.engine.apply import apply
from strategia.engine.result import OrderError
from strategia.explain.render import explanation_text, rule_label
from strategia.notation.orders import Attack, Strike, parse_order


def add_commands(sub: Any, parent: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "battle",
        parents=[parent],
        help="the mediator's what-if: a battle or an artillery strike and its full breakdown",
        description="Resolve an attack ('удар по 45,23: 17 с.д.; 18 с.д. // оборона: 101 с.д.') "
        "or a strike ('51 а.д. огонь по 22,10') against the position of a scenario, print the "
        "breakdown step by step and change nothing.",
    )
    p.add_argument("file", type=scenario_arg, help=SCENARIO_HELP)
    p.add_argument("--attack", required=True, help="the attack or strike in journal notation")
    p.add_argument("--level", type=int, choices=(1, 2, 3))
    p.set_defaults(handler=battle_command)


def battle_command(args: argparse.Namespace) -> Output:
    state = _position(args)
    rules = state.scenario.rules(state.level)
    order = parse_order(args.attack, state)
    if not isinstance(order, Attack | Strike):
        raise OrderError(
            f"{args.attack}: not an attack or a strike (see `strategia battle --help`)",
            ru=f"{args.attack}: это не удар и не огонь (см. `strategia battle --help`)",
        )
    after, result = apply(state, order, rules)
    lines = [result.outcome(args.lang)]
    lines += [
        line("cut", args.lang, rule=rule_label(c.rule, args.lang), reason=c.reason(args.lang))
        for c in result.cuts
    ]
    lines += ["", *explanation_text(result.explanation, args.lang)]
    data = result.to_json()
    data["after"] = [u.to_json() for u in after.units.values() if u != state.units.get(u.ref)] + [
        {"unit": str(r), "destroyed": True} for r in state.units if r not in after.units
    ]
    return Output("\n".join(lines), data)
