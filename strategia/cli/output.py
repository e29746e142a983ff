"""What a subcommand returns and the options every subcommand takes."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
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
