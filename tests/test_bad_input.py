"""Bad scenario and house-rules files refused with the file, line and key, nothing changed
(issue 17); the fuzzing of every input is tests/test_fuzz.py."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from strategia.cli import main
from strategia.core.errors import RuleDataError
from strategia.game.game import Game
from strategia.rules import load_ruleset
from strategia.rules.load import apply_house_text
from strategia.theatre.scenario_io import ScenarioError, parse_scenario

ROOT = Path(__file__).parents[1]
DEFAULT = ROOT / "maps" / "continental.toml"
SMALL = re.findall(r"```toml\n(.*?)```", (ROOT / "maps" / "README.md").read_text("utf-8"), re.S)[0]


def _problems(text: str) -> list[str]:
    with pytest.raises(ScenarioError) as info:
        parse_scenario(text, "s.toml")
    return [str(p) for p in info.value.problems]


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("seed = 7", "seed = 1e309", "s.toml:7: settings.seed: expected a whole number, got inf"),
        ("seed = 7", "seed = [1]", "s.toml:7: settings.seed: expected a whole number, got [1]"),
        ("seed = 7", "seed = -1", "s.toml:7: settings.seed: -1: expected a whole number from 0"),
        (
            "clock_minutes = 0 ",
            'clock_minutes = "" ',
            "s.toml:8: settings.clock_minutes: expected a number, got ''",
        ),
        (
            "clock_minutes = 0 ",
            "clock_minutes = nan ",
            "s.toml:8: settings.clock_minutes: nan: expected minutes a move",
        ),
        ("level = 2 ", "level = true ", "s.toml:6: settings.level: expected a whole number"),
        (
            "mediator = true",
            'mediator = "yes"',
            "s.toml:9: settings.mediator: expected true or false",
        ),
        (
            "[forces.R]",
            "[forces]",
            "s.toml:58: forces.order_of_battle: expected a table [forces.<state code>]",
        ),
        ("[places]", "[place]", "s.toml:50: [place]: unknown table"),
        ('roads = ["3,3 11,3"', "roads = [3", "s.toml:43: routes.roads: expected a list of texts"),
    ],
)
def test_a_bad_scenario_value_is_named_with_its_line_and_key(
    old: str, new: str, expected: str
) -> None:
    assert old in SMALL
    problems = _problems(SMALL.replace(old, new, 1))
    assert any(p.startswith(expected) for p in problems), problems


def test_a_route_waypoint_far_off_the_map_is_refused_at_once() -> None:
    start = time.perf_counter()
    problems = _problems(SMALL.replace('roads = ["3,3 11,3"', 'roads = ["3,3 999999,999999"'))
    assert problems == [
        "s.toml:43: routes.roads: route cell 999999,999999 off the map, which is 12 x 6"
    ]
    assert time.perf_counter() - start < 1


def test_a_huge_map_is_refused_unread() -> None:
    text = SMALL.replace('relief = """\n', 'relief = """\n' + "." * 2001 + "\n", 1)
    assert any("at most 2000 a side" in p for p in _problems(text))


RULES = load_ruleset("continental", level=3)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("ruleset = 5\n", "h.toml:1: ruleset: expected a table ([ruleset] name = ...), got 5"),
        ("[scale]\ncell_km = 0\n", "h.toml:2: scale.cell_km: 0 is below the smallest allowed"),
        (
            "[deployment]\ncover_density = 0\n",
            "h.toml:2: deployment.cover_density: 0.0 is below the smallest allowed value 0.05",
        ),
        (
            "[reconnaissance]\nper_turns = 0\n",
            "h.toml:2: reconnaissance.per_turns: 0 is below the smallest allowed value 1",
        ),
        (
            "[loss_rule]\nexchange = 0\n",
            "h.toml:2: loss_rule.exchange: 0.0 is below the smallest allowed value 0.01",
        ),
        ("[march]\nbonus_km = nan\n", "h.toml:2: march.bonus_km: nan is not a number"),
        ("[march]\n\nbonus_km = 1e300\n", "h.toml:3: march.bonus_km: 1e+300 is not a number"),
        ("[march\n", "h.toml:1: TOML: Expected ']'"),
        (
            '[rating_targets.linear]\nfront = ""\n',
            "h.toml:2: rating_targets.linear.front: '': expected one of linear_front_line_ratings",
        ),
    ],
)
def test_a_bad_house_rule_is_named_with_its_line_and_key(text: str, expected: str) -> None:
    with pytest.raises(RuleDataError) as info:
        apply_house_text(RULES, text, "h.toml")
    assert f"  - {expected}" in str(info.value), str(info.value)


def test_a_zero_the_rules_do_not_divide_by_is_still_allowed() -> None:
    rules = apply_house_text(RULES, "[deployment]\nopen_zone_flank = 0\n", "h.toml")
    assert rules.value("deployment", "open_zone_flank") == 0


def test_a_new_game_checks_its_house_rules_before_writing_anything(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[march]\nbonus_km = 15\n[loss_rule]\nexchange = 0\n", encoding="utf-8")
    game = tmp_path / "g.game"
    assert main(["game", "new", str(DEFAULT), str(game), "--house", str(bad), "--lang", "en"]) == 2
    err = capsys.readouterr().err
    assert f"{bad}:4: loss_rule.exchange: 0.0 is below" in err
    assert not game.exists() and list(tmp_path.iterdir()) == [bad]
    with pytest.raises(RuleDataError, match="nope.toml"):
        Game.new(DEFAULT, game, house=[str(tmp_path / "nope.toml")])
    assert not game.exists()


# --- every error path of the command line, in both languages ------------------------------------

BROKEN_SIDE = SMALL.replace('side = "blue"', 'side = "blu"')


def _error_paths(tmp: Path) -> list[list[str]]:
    """Commands that must be refused: a missing or broken file, bad notation, a side that is
    not, a turn that is not, nothing to undo; each exits 2 with one message."""
    (tmp / "side.toml").write_text(BROKEN_SIDE, encoding="utf-8")
    (tmp / "toml.toml").write_text("[map\nrelief = 1", encoding="utf-8")
    (tmp / "house.toml").write_text("[march]\nbonus_km = nan\n[nope]\nx = 1\n", encoding="utf-8")
    (tmp / "bad.jsonl").write_text('{"seq": 1}\nnot json\n', encoding="utf-8")
    binary = tmp / "binary.toml"  # not text: Python's decoding error is never the message
    binary.write_bytes(bytes(range(128, 256)) * 8)
    styles = ["--computer", "red", "--styles", str(binary)]
    game, none = str(tmp / "g.game"), str(tmp / "none.game")
    assert main(["game", "new", str(DEFAULT), game, "--level", "2", "--lang", "en"]) == 0
    return [
        ["scenario", "check", str(tmp / "side.toml")],
        ["scenario", "check", str(tmp / "toml.toml")],
        ["scenario", "show", str(tmp / "none.toml")],
        ["game", "new", str(tmp / "side.toml"), str(tmp / "n.game")],
        ["game", "new", str(DEFAULT), str(tmp / "h.game"), "--house", str(tmp / "house.toml")],
        ["game", "new", str(DEFAULT), game],
        ["game", "order", game, "полная чушь"],
        ["game", "order", game, "21 т.д. на 99,99"],
        ["game", "order", game, "21 т.д. поворот на луну"],
        ["game", "order", game, "999 с.д. на 3,3"],
        ["game", "order", game, "110 с.д. на 30,39"],
        ["game", "order", game, "21 т.д. на 40,35", "--side", "blue"],
        ["game", "show", game, "--side", "purple"],
        ["game", "show", game, "--turn", "999"],
        ["game", "ask", game, "--side", "blue", "что там"],
        ["game", "ask", game, "--side", "blue", "где 21 т.д.?"],
        ["game", "intervene", game, "дождь", "--cell", "99,99"],
        ["game", "intervene", game, "дождь", "--cell", "33,24", "--turns", "-1"],
        ["game", "extend", game, "5"],
        ["game", "undo", game],
        ["game", "score", game, "--side", "red"],
        ["game", "replay", none],
        ["game", "journal", none],
        ["game", "import", str(tmp / "bad.jsonl"), str(tmp / "i.game")],
        ["rules", "--house", str(tmp / "house.toml")],
        ["rules", "--house", str(tmp / "nope.toml")],
        ["rating", "тдд"],
        ["rating", "т.д.", "--facing", "side"],
        ["rating", "т.д.", "--strength", "lots"],
        ["move", str(DEFAULT), "21 т.д. на 35,35", "--side", "blue"],
        ["battle", str(DEFAULT), "--attack", "21 т.д. на 35,35"],
        ["battle", str(DEFAULT)],
        ["game", "new", str(DEFAULT), str(tmp / "l.game"), "--level", "7"],
        ["reach", str(binary), "21 т.д."],
        ["move", str(binary), "21 т.д. на 35,35"],
        ["scenario", "check", str(binary)],
        ["game", "new", str(binary), str(tmp / "b.game")],
        ["game", "new", str(DEFAULT), str(tmp / "b.game"), "--house", str(binary)],
        ["game", "new", str(DEFAULT), str(tmp / "b.game"), *styles],
        ["game", "show", str(binary)],
        ["tactical", "new", str(binary)],
        ["cases", "--house", str(binary), "--book", game],
        ["game", "export", game, game],
        ["game", "chart", game, "--csv", game],
        ["game", "report", game, "--whole", "-o", game],
        ["game", "debrief", game, "--side", "red", "-o", str(tmp)],
        ["game", "fork", game, game, "--turn", "1", "--force"],
        ["scenario", "convert", str(DEFAULT), str(DEFAULT)],
    ]


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_every_error_of_the_command_line_is_told_in_the_readers_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], lang: str
) -> None:
    from language_checks import cyrillic_words, latin_words

    for argv in _error_paths(tmp_path):
        capsys.readouterr()
        try:
            code = main([*argv, "--lang", lang])
        except SystemExit as e:  # the command line itself is wrong: the parser says so
            code = int(e.code or 0)
        out, err = capsys.readouterr()
        findings = argv[:2] == ["scenario", "check"]  # a check's findings: exit 1
        assert code == (1 if findings else 2) and "Traceback" not in out + err, (argv, out, err)
        said = err.strip().split(": ", 1)[1]  # after «strategia game:»
        for typed in sorted(argv, key=len, reverse=True):  # what was typed, as typed
            said = said.replace(typed, " ")
        if lang == "ru":
            assert ": ошибка: " in err and " error: " not in err, (argv, err)
            assert not latin_words(said), (argv, err, latin_words(said))
        else:
            assert ": error: " in err, (argv, err)
            assert not cyrillic_words(said, {"Континентальная война"}), (argv, err)
