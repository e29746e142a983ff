"""What a subcommand returns and the options every subcommand takes."""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Callable, Sequence
from typing import Any

from strategia.core.i18n import LANGS, Lang

Handler = Callable[[argparse.Namespace], "Output"]


class Output:
    """What a subcommand prints: text lines, and the same content as JSON; the exit status
    (0, or 2 when the command found problems it reports), and warnings for stderr."""

    def __init__(
        self, text: str, data: Any, status: int = 0, warnings: list[str] | None = None
    ) -> None:
        self.text = text
        self.data = data
        self.status = status
        self.warnings = warnings or []


# The parser's complaints in Russian: (argparse's words, ours).
_ARGPARSE_RU = [
    (r"the following arguments are required: (.*)", r"не хватает аргументов: \1"),
    (r"argument (\S+): invalid choice: (.*?) \(choose from (.*)\)",
     r"аргумент \1: нельзя \2 (можно: \3)"),
    (r"argument (\S+): invalid \w+ value: (.*)", r"аргумент \1: неподходящее значение \2"),
    (r"argument (\S+): expected one argument", r"аргумент \1: нужно значение"),
    (r"argument (\S+): expected (.*) arguments?", r"аргумент \1: не хватает значений"),
    (r"argument (\S+): not allowed with argument (\S+)", r"аргумент \1 нельзя вместе с \2"),
    (r"unrecognized arguments: (.*)", r"лишние аргументы: \1"),
    (r"argument (\S+): ignored explicit argument (.*)", r"аргумент \1: лишнее значение \2"),
]  # fmt: skip


class Parser(argparse.ArgumentParser):
    """The command's parser: a wrong command line is told in the reader's language (`lang`,
    set before parsing), with where to find the command's help."""

    lang: Lang = "ru"

    def error(self, message: str) -> None:  # type: ignore[override]
        if Parser.lang == "ru":
            for pattern, ru in _ARGPARSE_RU:
                if re.fullmatch(pattern, message):
                    message = re.sub(pattern, ru, message)
                    break
            self.exit(2, f"{self.prog}: ошибка: {message} (справка: `{self.prog} -h`)\n")
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n")


def lang_of(argv: Sequence[str]) -> Lang:
    """The language a command line asks for (`--lang en`, `--lang=ru`), else the default."""
    for k, a in enumerate(argv):
        value = a.partition("=")[2] if a.startswith("--lang=") else None
        if a == "--lang" and k + 1 < len(argv):
            value = argv[k + 1]
        if value in ("ru", "en"):
            return "en" if value == "en" else "ru"
    return default_lang()


def default_lang() -> Lang:
    """The command line's language unless `--lang` says: STRATEGIA_LANG's, else Russian (as
    the console)."""
    lang = os.environ.get("STRATEGIA_LANG", "ru")
    return "en" if lang == "en" else "ru"


def common_options() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(add_help=False)
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument(
        "--lang",
        choices=LANGS,
        default=default_lang(),
        help="language of the output (default: STRATEGIA_LANG, else ru)",
    )
    return p
