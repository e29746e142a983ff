"""The `strategia` command: rules sheet and ratings, text and JSON, errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from strategia.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_rules_json_carries_every_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "--json")
    assert code == 0
    data = json.loads(out)
    rules = {e["rule"] for e in data["entries"]}
    for rid in ("table 1", "table 2", "table 3", "table 4", "table 5", "table 7", "table 8",
                "table 9-1", "table 9-2", "table 10", "table 11", "4.3", "4.5", "4.8", "8.3", "9.7", "9.8"):  # fmt: skip
        assert rid in rules, rid
    for e in data["entries"]:
        assert e["level"] in (1, 2, 3)
        for row in e["rows"]:
            for cell in row["cells"].values():
                assert "value" in cell and "level" in cell
    movement = next(e for e in data["entries"] if e["key"] == "movement")
    plain = next(r for r in movement["rows"] if r["key"] == "plain")
    assert "reconstructed" in plain["cells"]["cavalry"]
    assert "reconstructed" not in plain["cells"]["tank"]


def test_rules_level_1_omits_higher_rules(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "rules", "--level", "1", "--json")
    data = json.loads(out)
    assert data["level"] == 1
    assert all(e["level"] == 1 for e in data["entries"])
    assert "table 7" not in {e["rule"] for e in data["entries"]}
    _, text, _ = run(capsys, "rules", "--level", "1", "--lang", "ru")
    assert "лист правил, уровень 1" in text and "Лес" not in text


def test_rules_text_marks_reconstructed(capsys: pytest.CaptureFixture[str]) -> None:
    _, text, _ = run(capsys, "rules", "--lang", "en")
    assert "[r] reconstructed" in text
    assert "20[r]" in text  # cavalry in open ground


def test_rules_check(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "--check", "--json")
    rows = json.loads(out)
    assert code == 0 and any(not r["agrees"] for r in rows)
    assert all(r["agrees"] for r in rows if r["table"] == "table 8")


def test_rating_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "rating", "т.д.", "--formation", "line", "--facing", "flank90", "--json"
    )
    assert code == 0
    data = json.loads(out)
    assert data["rating"] == 1.25
    assert data["explanation"]["value"] == 1.25
    rules_cited = {c.get("rule") for c in data["explanation"]["children"]}
    assert "table 7" in rules_cited


def test_rating_text_with_losses_and_support(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "rating", "с.д.", "--strength", "1,1,1,0.5", "--support", "--lang", "ru"
    )
    assert code == 0
    assert "Рейтинг 1 с.д.: удар во фронт = 0,8" in out
    assert "Рейтинг поддержки 1 с.д. = 0,2" in out


@pytest.mark.parametrize(
    "args, message",
    [
        (["rating", "тдд"], "unknown unit type 'тдд': did you mean 'т.д.'?"),
        (["rating", "т.д.", "--facing", "side"], "unknown facing 'side'"),
        (["rating", "т.д.", "--strength", "lots"], "--strength 'lots'"),
        (["rating", "т.д.", "--strength", "1,1"], "2 strengths given for 4 regiments"),
        (["rules", "--house", "/nonexistent/house.toml"], "/nonexistent/house.toml"),
    ],
)
def test_bad_input_exits_2_with_a_clear_message(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, out, err = run(capsys, *args, "--lang", "en")
    assert code == 2 and out == ""
    assert message in err


def test_console_script_runs(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "strategia.cli", "rating", "AD", "--json"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert json.loads(proc.stdout)["rating"] == 0.4


def test_the_game_commands_speak_russian(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every status line of `strategia game` with --lang ru is Russian (no English words), and
    the same commands in English name the side and the turn."""
    import re

    game = str(tmp_path / "r.game")
    scenario = str(Path(__file__).parents[1] / "maps" / "continental.toml")
    runs = [
        ["game", "new", scenario, game, "--level", "2"],
        ["game", "order", game, "21 т.д. на 30,35", "--explain"],
        ["game", "end-turn", game],
        ["game", "show", game, "--side", "синие"],
        ["game", "intervene", game, "дождь"],
        ["game", "replay", game],
        ["game", "export", game, str(tmp_path / "r.jsonl")],
        ["game", "import", str(tmp_path / "r.jsonl"), str(tmp_path / "s.game")],
    ]
    english = re.compile(r"\b(turn|move|level|entries|noted|phase|sees|cut|replayed)\b")
    for argv in runs:
        assert main([*argv, "--lang", "ru"]) == 0, argv
        out = capsys.readouterr().out
        first = out.splitlines()[0]
        assert not english.search(first), f"{argv[1]}: {first}"
    assert main(["game", "end-turn", game, "--lang", "en"]) == 0
    assert capsys.readouterr().out.startswith("turn 1: Green to move")


SIDE_COMMANDS = (
    ["show"],
    ["journal"],
    ["journal", "--json"],
    ["score"],
    ["report"],
    ["ask", "где 21 т.д.?"],
    ["ask", "где 21 т.д.?", "--lie", "no"],
    ["order", "101 с.д. на 28,33"],
    ["order", "21 т.д. на 40,35", "--explain"],
)


@pytest.mark.parametrize("side", ["", " ", "nosuch", "mediator"])
def test_every_side_option_refuses_what_is_not_a_side(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], side: str
) -> None:
    """`--side ""` is not the mediator (no `--side` is): every command that takes --side refuses
    an empty name, or any that is not one of the game's sides, naming it, in both languages,
    and prints nothing else (before, `journal --side ""` printed every answer's truth)."""
    import re

    from strategia.game.store import GameStore

    game = str(tmp_path / "s.game")
    scenario = str(Path(__file__).parents[1] / "maps" / "continental.toml")
    assert main(["game", "new", scenario, game, "--level", "2"]) == 0
    capsys.readouterr()
    empty = not side.strip()
    for cmd in SIDE_COMMANDS:
        argv = ["game", cmd[0], game, *cmd[1:], "--side", side]
        code, out, err = run(capsys, *argv, "--lang", "en")
        assert code == 2 and out == "", argv
        said = err.partition("error: ")[2].strip()
        named = f"side {side!r}{' (empty)' if empty else ''}"
        assert said == f"{named}: this game's sides are red, blue, green", (argv, err)
        code, out, err = run(capsys, *argv, "--lang", "ru")
        said = err.partition("ошибка: ")[2].strip()
        assert (
            code == 2
            and out == ""
            and said
            == (
                f"сторона «{side}»{' (пусто)' if empty else ''}: в этой игре красные, синие, зеленые"
            )
        ), (argv, err)
        assert not re.search("[A-Za-z]", said.replace(side, "")), said
    assert len(GameStore.open(game).entries) == 1  # nothing was written
    code, out, err = run(
        capsys, "move", scenario, "21 т.д. на 33,35", "--side", side, "--lang", "en"
    )
    assert code == 2 and out == "" and f"side {side!r}" in err
    assert "this scenario's sides are blue, red, green" in err
    code, out, _ = run(
        capsys, "move", scenario, "21 т.д. на 33,35", "--side", "Red", "--lang", "en"
    )
    assert code == 0 and out.startswith("21 TD - 34,35")


def test_the_game_refuses_an_empty_side(tmp_path: Path) -> None:
    from strategia.game.channel import channel
    from strategia.game.game import Game, GameError

    g = Game.new(Path(__file__).parents[1] / "maps" / "continental.toml", tmp_path / "g.game")
    for call in (
        lambda: g.order("21 т.д. на 40,35", ""),  # not the mediator's order
        lambda: channel(g, ""),
        lambda: g.ask("", "где 21 т.д.?"),
    ):
        with pytest.raises(GameError, match=r"side '' \(empty\): this game's sides are"):
            call()
    assert len(g.journal.entries) == 1
