"""`strategia tactical ...` and `strategia rules --ruleset tactical`: text, JSON and errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from strategia.cli import main
from strategia.tactical import EXAMPLES

GROVE = str(EXAMPLES / "grove.toml")


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """The command in English unless it names its language (the command line speaks Russian
    by default)."""
    code = main([*args, *(() if "--lang" in args else ("--lang", "en"))])
    out, err = capsys.readouterr()
    return code, out, err


def test_rules_sheet_of_the_tactical_ruleset(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "--ruleset", "tactical", "--lang", "ru")
    assert code == 0 and "Скорость перестроения" in out and "[в]" in out
    code, out, _ = run(capsys, "rules", "--ruleset", "tactical", "--json")
    data = json.loads(out)
    assert data["ruleset"] == "tactical"
    speeds = next(e for e in data["entries"] if e["key"] == "speeds")
    line = next(r for r in speeds["rows"] if r["key"] == "line")
    assert (
        line["cells"]["forward"]["value"] == 10 and "reconstructed" not in line["cells"]["forward"]
    )
    assert "reconstructed" in line["cells"]["accelerated"]


def test_a_skirmish_played_from_the_command_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    game = str(tmp_path / "grove.tgame")
    code, out, _ = run(capsys, "tactical", "new", GROVE, "--game", game)
    assert code == 0 and "1/Тульский" in out and "Turn 1, phase 1. Planning" in out
    code, out, _ = run(
        capsys, "tactical", "card", game, "1/Тульский", "--before", "move; form square", "--json"
    )
    assert (
        code == 0
        and json.loads(out)["state"]["cards"]["1/Тульский"]["before"] == "move; form square"
    )
    run(
        capsys,
        "tactical",
        "card",
        game,
        "2/Тульский",
        "--before",
        "move",
        "--attack",
        "II/61e ligne",
    )
    code, out, _ = run(capsys, "tactical", "phase", game, "--to", "movement")
    assert code == 0 and "2/Тульский attacks II/61e ligne" in out and "≈ 7 cm by the ruler" in out
    code, out, _ = run(
        capsys, "tactical", "move", game, "Сумские гусары", "move 5; wheel 20", "--json"
    )
    data = json.loads(out)
    assert data["explanations"][0]["rule"] == "003 turn sequence"
    hussars = next(u for u in data["state"]["units"] if u["name"] == "Сумские гусары")
    assert hussars["facing"] == 20
    code, out, _ = run(capsys, "tactical", "form", game, "Легкая", "unlimbered", "--facing", "30")
    assert code == 0 and "unlimbering = 1/2" in out
    run(capsys, "tactical", "wheel", game, "Voltigeurs", "180")
    code, out, _ = run(capsys, "tactical", "restore", game, "II/61e ligne")
    assert code == 0 and "in order already" in out
    code, out, _ = run(capsys, "tactical", "phase", game)
    assert "4. Fire" in out
    code, out, _ = run(
        capsys,
        "tactical",
        "report",
        game,
        "2/Тульский",
        "artillery",
        "--casualties",
        "2",
        "--by",
        "Batterie à pied",
    )
    assert code == 0 and "casualties = 2 figures" in out
    code, out, _ = run(capsys, "tactical", "show", game, "--lang", "ru", "--json")
    state = json.loads(out)
    assert state["phase"]["number"] == 4 and state["turn"] == 1
    assert next(u for u in state["units"] if u["name"] == "2/Тульский")["figures"] == 14
    code, out, _ = run(capsys, "tactical", "show", game, "--lang", "ru")
    assert "Ход 1, этап 4. Стрельба" in out and "каре" in out


def test_try_is_a_what_if(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "tactical", "try", GROVE, "1/Тульский", "move; form square")
    assert code == 0 and "pairs of figures = 8" in out and "2/5" in out


def test_bad_input_exits_2_with_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    game = str(tmp_path / "g.tgame")
    run(capsys, "tactical", "new", GROVE, "--game", game)
    code, _, err = run(capsys, "tactical", "move", game, "1/Тульский", "move 3")
    assert code == 2 and "phases 2, 3, 5 and 6" in err
    code, _, err = run(capsys, "tactical", "card", game, "nobody", "--before", "move")
    assert code == 2 and "unknown unit 'nobody'" in err
    code, _, err = run(capsys, "tactical", "new", GROVE, "--game", game)
    assert code == 2 and "already there" in err


def test_the_json_says_who_counts_as_moving(capsys: pytest.CaptureFixture[str]) -> None:
    """003, note 3 to the speeds: «Для того, чтобы считаться двигающимся, отряд должен в ход
    совершить передвижение в любую сторону на дистанцию не меньше 2 см, либо совершить
    перестроение». The hussars moving 1 cm do not count as moving, 5 cm do: each unit of the
    JSON's state says so, and the explanation gives the reason with the rule."""
    for plan, expected in (("move 1", False), ("move 5", True)):
        code, out, _ = run(capsys, "tactical", "try", GROVE, "Сумские гусары", plan, "--json")
        data = json.loads(out)
        moving = {u["name"]: u["moving"] for u in data["state"]["units"]}
        assert code == 0 and moving["Сумские гусары"] is expected
        assert not any(moving[n] for n in moving if n != "Сумские гусары")
        why = data["explanations"][0]["children"][-1]
        assert why["rule"] == "003 speeds, note 3" and why["value"] is expected
        assert why["label"]["ru"] == "Сумские гусары: считается двигающимся"
    code, out, _ = run(capsys, "tactical", "try", GROVE, "Сумские гусары", "move 1", "--lang", "ru")
    assert (
        "Сумские гусары: считается двигающимся = нет  [003, скорость передвижения, примеч. 3]"
        in out
    )
