"""What a subcommand returns, the options every subcommand takes, and the one check of every
file a command writes (`check_output`)."""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from strategia.core.errors import StrategiaError
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


class OutputError(StrategiaError):
    """A file a command was asked to write that it must not (exit 2, nothing written)."""


FORCE_HELP = "replace a file already there (never a game file, nor a file the command reads)"


def check_output(
    option: str,
    path: Path | None,
    force: bool = False,
    reading: Sequence[Path | None] = (),
    game: bool = False,
    folder: bool = False,
) -> None:
    """Refuse to write `path`, given as `option` (`-o`, `--csv`; "" for an argument without
    one: the path alone names it), where it must not be
    written: a file the command reads (`reading`, by `samefile`), a game file (the store's SQLite
    header and application id) or a game's log, count or index beside it, a folder, and without
    `force` any file already there. `game`: `path` is a game the command makes, and with
    `force` a game there is replaced (`replacing`). `folder`: `path` may be a folder (a Zarr
    store, a folder of games), checked by its own command. Every command that writes a file
    the user names calls this before it writes (or computes) anything."""
    if path is None:
        return
    named = f"{option} {path}".strip()  # what the error names
    for read in reading:
        if read is not None and _same(path, read):
            raise OutputError(
                f"{named}: that is the file this command reads ({read}); choose another name",
                ru=f"{named}: это файл, который команда читает ({read}); выберите другое имя",
            )
    stem = _log_of(path)
    if stem is not None:
        raise OutputError(
            f"{named}: that is the log, count or index of the game {stem} beside it; "
            "choose another name",
            ru=f"{named}: это лог, счетчик или индекс игры {stem}, лежащей рядом; "
            "выберите другое имя",
        )
    if game and not force:  # a log left where the game would be: refused, --force named
        from strategia.game.pairing import refuse_leftovers

        refuse_leftovers(path, force_hint=True)
    if not path.exists():
        return
    if path.is_dir():
        if folder:
            return
        raise OutputError(
            f"{named}: a folder is there, not a file; choose another name",
            ru=f"{named}: там папка, а не файл; выберите другое имя",
        )
    if _is_game(path):
        if game and force:
            return
        if game:
            raise OutputError(
                f"{named}: a game is already there; give --force to replace it (it is "
                "removed, with its log and count), or choose another name",
                ru=f"{named}: там уже есть игра; добавьте --force, чтобы заменить ее "
                "(она будет удалена вместе с логом и счетчиком), или выберите другое имя",
            )
        raise OutputError(
            f"{named}: a game file is there; it is never written over by another "
            "file, even with --force: choose another name",
            ru=f"{named}: там файл игры; поверх игры другой файл не пишется даже с "
            "--force: выберите другое имя",
        )
    if not force:
        raise OutputError(
            f"{named}: a file is already there; give --force to replace it, or choose another name",
            ru=f"{named}: такой файл уже есть; добавьте --force, чтобы заменить его, "
            "или выберите другое имя",
        )


@contextmanager
def replacing(option: str, path: Path, force: bool) -> Iterator[None]:
    """Make a game at `path` inside the block: with `force`, a game there (or a log left
    there) is set aside first, removed once the new game is made, put back if it is not
    (refused while any process has it open). Without `force`, the block alone."""
    if not force:
        yield
        return
    from strategia.game.pairing import setting_aside

    with setting_aside(path, option):
        yield


def _same(path: Path, other: Path) -> bool:
    try:
        return os.path.samefile(path, other)
    except OSError:
        return False


def _is_game(path: Path) -> bool:
    """Whether `path` is a game file (the store's SQLite header and application id)."""
    from strategia.game.file_access import file_bytes
    from strategia.game.sqlite_file import APPLICATION_ID, MAGIC

    try:
        head = file_bytes(path, 100)
    except OSError:
        return False
    return head[:16] == MAGIC and head[68:72] == APPLICATION_ID.to_bytes(4, "big")


def _log_of(path: Path) -> Path | None:
    """The game whose log, index or count `path` is (None: it is none)."""
    for ext in ("-wal", "-shm", "-count"):
        if path.name.endswith(ext) and len(path.name) > len(ext):
            stem = path.with_name(path.name.removesuffix(ext))
            if stem.exists() and _is_game(stem):
                return stem
    return None


SCENARIO_HELP = "a scenario file, or the name of one shipped (continental)"


def scenario_arg(text: str) -> Path:
    """A scenario argument: a file, or the name of a scenario shipped with Strategia
    (`strategia.scenarios`); anything else is left as the path given, for the command to say
    it is no file (exit 2)."""
    from strategia.scenarios import scenario_path

    try:
        return scenario_path(text)
    except StrategiaError:
        return Path(text)


def need(extra: str, *modules: str) -> None:
    """Refuse a command whose optional dependencies (`extra` of the package: console, sweep)
    are not installed, naming what to install (exit 2, nothing done)."""
    import importlib.util

    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    if missing:
        raise StrategiaError(
            f"this command needs {', '.join(missing)}, not installed: install "
            f"strategia[{extra}] (pip install 'strategia[{extra}]')",
            ru=f"этой команде нужны {', '.join(missing)}, они не установлены: установите "
            f"strategia[{extra}] (pip install 'strategia[{extra}]')",
        )
