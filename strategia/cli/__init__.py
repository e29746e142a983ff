"""The `strategia` command: headless adjudication and scripts.

Every subcommand takes `--json` (machine-readable output on stdout) and `--lang ru|en`, before
or after its name (`strategia --lang en cases`). Exit status: 0 done; 1 findings (replay
differences, scenario problems, failed cases); 2 bad usage or input, with one line on stderr
naming the input and what is wrong; 70 a fault of the program (one line saying so and where
its details were written).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import traceback
from collections.abc import Sequence

import strategia
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
from strategia.core.i18n import Text
from strategia.notation.say import say


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="strategia",
        description="Strategia: the computer mediator for «Стратегия» (module 1).",
    )
    parser.add_argument("--version", action="version", version=f"strategia {strategia.__version__}")
    top = (
        ("--lang", Text("the output's language: ru or en", "язык вывода: ru или en")),
        ("--json", Text("machine-readable output on stdout (JSON)", "вывод в JSON на stdout")),
    )
    for flag, words in top:
        # taken before the command too (`hoist`): listed here for the help only
        parser.add_argument(flag, action="store_true", help=words(Parser.lang), dest=f"_{flag[2:]}")
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


EX_SOFTWARE = 70  # sysexits.h: an internal fault of the program


def hoist(argv: Sequence[str]) -> list[str]:
    """`--lang X` and `--json` given before the command moved after it, where every
    subcommand reads them (`strategia --lang en cases` is `strategia cases --lang en`)."""
    argv = list(argv)
    before: list[str] = []
    k = 0
    while k < len(argv) and argv[k].startswith("-") and argv[k] not in ("-h", "--help"):
        a = argv[k]
        if a == "--json" or a.startswith("--lang="):
            before.append(a)
        elif a == "--lang" and k + 1 < len(argv):
            before += [a, argv[k + 1]]
            k += 1
        else:
            return argv  # an option of the command's own, or --version: left as it is
        k += 1
    if not before or k >= len(argv):
        return argv
    return [argv[k], *before, *argv[k + 1 :]]


def _fault(command: str, lang: str, error: BaseException) -> int:
    """An error that is no fault of the input: one line saying so, the details in a file."""
    with tempfile.NamedTemporaryFile(
        "w", prefix="strategia-fault-", suffix=".txt", delete=False, encoding="utf-8"
    ) as f:
        traceback.print_exception(error, file=f)
    what = f"{type(error).__name__}: {error}"
    if lang == "ru":
        line = f"внутренняя ошибка программы (не ваших данных): {what}; подробности в {f.name}"
    else:
        line = (
            f"internal error, a fault of the program (not of your input): {what}; "
            f"details in {f.name}"
        )
    print(f"strategia {command}: {line}", file=sys.stderr)
    return EX_SOFTWARE


def main(argv: Sequence[str] | None = None) -> int:
    argv = sweep_cmd.normalise(hoist(sys.argv[1:] if argv is None else argv))
    Parser.lang = lang_of(argv)
    parser = build_parser()
    args = parser.parse_args(argv)
    handler: Handler = args.handler
    try:
        out = handler(args)
    except (StrategiaError, OSError) as e:
        data = getattr(e, "data", None)
        if args.json and data is not None:
            sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
        error = "ошибка" if args.lang == "ru" else "error"
        print(f"strategia {args.command}: {error}: {say(e, args.lang)}", file=sys.stderr)
        return int(getattr(e, "status", 2))  # 1: a check's findings; 2: bad usage or input
    except KeyboardInterrupt:
        raise
    except Exception as e:  # a fault of the program: never shown as the user's mistake
        return _fault(args.command, args.lang, e)
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
