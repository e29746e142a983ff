"""The `strategia` command: headless adjudication and scripts.

Every subcommand takes `--json` (machine-readable output on stdout) and `--lang ru|en`.
Bad input exits with status 2 and one line on stderr naming the input and what is wrong.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from strategia.cli import (
    battle_cmd,
    cases_cmd,
    game_cmd,
    move_cmd,
    rules_cmd,
    scenario_cmd,
    serve_cmd,
    sweep_cmd,
    tactical_cmd,
)
from strategia.cli.output import Handler, Parser, common_options, lang_of
from strategia.core.errors import StrategiaError
from strategia.notation.say import say


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="strategia",
        description="Strategia: the computer mediator for «Стратегия» (module 1).",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    parent = common_options()
    rules_cmd.add_commands(sub, parent)
    scenario_cmd.add_commands(sub, parent)
    move_cmd.add_commands(sub, parent)
    battle_cmd.add_commands(sub, parent)
    game_cmd.add_commands(sub, parent)
    tactical_cmd.add_commands(sub, parent)
    serve_cmd.add_commands(sub, parent)
    cases_cmd.add_commands(sub, parent)
    sweep_cmd.add_commands(sub, parent)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = sweep_cmd.normalise(sys.argv[1:] if argv is None else argv)
    Parser.lang = lang_of(argv)
    parser = build_parser()
    args = parser.parse_args(argv)
    handler: Handler = args.handler
    try:
        out = handler(args)
    except (StrategiaError, ValueError, LookupError, OSError) as e:
        data = getattr(e, "data", None)
        if args.json and data is not None:
            sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
        error = "ошибка" if args.lang == "ru" else "error"
        print(f"strategia {args.command}: {error}: {say(e, args.lang)}", file=sys.stderr)
        return 2
    warning = "предупреждение" if args.lang == "ru" else "warning"
    for w in out.warnings:
        print(f"strategia {args.command}: {warning}: {w}", file=sys.stderr)
    try:
        if args.json:
            sys.stdout.write(json.dumps(out.data, ensure_ascii=False, indent=2) + "\n")
        else:
            sys.stdout.write(out.text.rstrip("\n") + "\n")
        sys.stdout.flush()
    except BrokenPipeError:  # output piped into `head` and the like
        sys.stderr.close()
    return out.status


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
