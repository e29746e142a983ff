"""The command line as people expect it: `--version`; `--lang` and `--json` before the command
too; a fault of the program is not reported as bad input (exit 70, one line, the details in a
file), in both languages."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from strategia import cli
from strategia.cli import hoist, main


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0
    assert re.fullmatch(r"strategia \d+\.\d+\.\d+\S*\n", capsys.readouterr().out)


def test_lang_and_json_before_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert hoist(["--lang", "en", "--json", "cases", "--only", "x"]) == [
        "cases", "--lang", "en", "--json", "--only", "x",
    ]  # fmt: skip
    assert hoist(["--lang=ru", "game", "show", "g"]) == ["game", "--lang=ru", "show", "g"]
    assert main(["--lang", "en", "--json", "rules", "--level", "1"]) == 0
    before = json.loads(capsys.readouterr().out)
    assert main(["rules", "--level", "1", "--lang", "en", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == before


@pytest.mark.parametrize(
    ("lang", "words"),
    [("en", "internal error, a fault of the program"), ("ru", "внутренняя ошибка программы")],
)
def test_a_fault_of_the_program_is_not_bad_input(
    lang: str, words: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(_args: Any) -> Any:
        raise TypeError("a bug")

    real = cli.build_parser

    def parser() -> Any:
        p = real()
        p.set_defaults(handler=broken)
        for action in p._subparsers._group_actions:  # type: ignore[union-attr]
            for sub in action.choices.values():
                sub.set_defaults(handler=broken)
        return p

    monkeypatch.setattr(cli, "build_parser", parser)
    assert main(["rules", "--lang", lang]) == 70
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and words in err[0] and "TypeError: a bug" in err[0]
    details = Path(err[0].rsplit(" ", 1)[1])
    assert "Traceback" in details.read_text() and "a bug" in details.read_text()
    details.unlink()
