"""Scenarios: the default theatre, the text format, bad input, the builder, the CLI."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from strategia.cli import main
from strategia.core.geometry import Cell
from strategia.notation.refs import UnitRef
from strategia.rules import RuleSet
from strategia.theatre import terrain
from strategia.theatre.ascii_map import render
from strategia.theatre.builder import BuildError, ScenarioBuilder
from strategia.theatre.scenario import Scenario, check_scenario
from strategia.theatre.scenario_io import (
    ScenarioError,
    format_scenario,
    load_scenario,
    parse_scenario,
    save_scenario,
)
from strategia.theatre.terrain import Relief

ROOT = Path(__file__).parents[1]
DEFAULT = ROOT / "maps" / "continental.toml"


@pytest.fixture(scope="module")
def default() -> Scenario:
    return load_scenario(DEFAULT)


def readme_example() -> str:
    text = (ROOT / "maps" / "README.md").read_text(encoding="utf-8")
    return re.findall(r"```toml\n(.*?)```", text, re.S)[0]


# --- the default scenario -----------------------------------------------------------------------


def test_default_theatre_has_every_kind_the_rules_use(default: Scenario) -> None:
    ds = default.theatre
    assert default.width >= 60 and default.height >= 40
    assert set(np.unique(ds["relief"].values)) == {int(r) for r in Relief}
    assert ds["river_e"].values.any() and ds["river_n"].values.any()
    assert terrain.bridges(ds).any() and terrain.passes(ds).any()
    assert terrain.coast(ds).any()
    trail_relief = set(np.unique(ds["relief"].values[ds["trail"].values > 0]))
    assert {Relief.MOUNTAINS, Relief.SWAMP, Relief.FOREST} <= trail_relief
    assert (ds["rail"].values > 0).sum() > 50
    assert terrain.transport_nodes(ds).any() and terrain.transport_nodes(ds, route="rail").any()
    assert (ds["settlement"].values == 2).sum() == 4 and (ds["settlement"].values == 1).sum() >= 8
    assert ds["fortress"].values.sum() >= 4
    assert terrain.narrows(ds).any()
    assert check_scenario(default) == []


def test_default_states_and_sides(default: Scenario) -> None:
    sides = Counter(s.side for s in default.states)
    assert sides == {"red": 1, "blue": 1, "green": 2}
    st = default.theatre["state"].values
    for k in range(1, len(default.states) + 1):
        assert (st == k).sum() > 50


def test_reds_southern_fortress_is_at_45_22(default: Scenario) -> None:
    ds = default.theatre
    i, j = terrain.index(ds, Cell(45, 22))
    assert ds["fortress"].values[i, j]
    assert default.states[int(ds["state"].values[i, j]) - 1].side == "red"
    red = default.forces_of("R")
    assert any(Cell(45, 22) in p.cells for p in red.deployment)


# table 5 / table 2: peacetime strengths and reserves by kind
PEACE = {"R": {"с.д.": 15, "т.д.": 8, "м.д.": 4, "сау.д.": 2, "пт.д.": 1, "а.д.": 2},
         "B": {"с.д.": 12, "т.д.": 7, "м.д.": 4, "сау.д.": 2, "пт.д.": 3, "а.д.": 2},
         "G": {"с.д.": 4, "м.д.": 1, "пт.д.": 1}, "H": {"с.д.": 4, "м.д.": 1, "пт.д.": 1}}  # fmt: skip


def test_default_forces_follow_table_5(default: Scenario, rules2: RuleSet) -> None:
    for code, expected in PEACE.items():
        f = default.forces_of(code)
        got = Counter(
            r.kind.ru
            for r in f.deployed_divisions()
            if r.kind is not None and r.kind.key != "fortress"
        )
        assert dict(got) == expected, code
    side = {"R": "red", "B": "blue", "G": "green", "H": "green"}
    for code in ("R", "B", "G", "H"):
        f = default.forces_of(code)
        for kind in ("rifle", "tank", "motorised", "anti_tank"):
            row = f"{side[code]}_{kind}"
            if row not in rules2.entry("mobilisation").rows:
                continue
            for day, col in zip(
                ("M", "M+5", "M+10", "M+15"), ("M", "M5", "M10", "M15"), strict=True
            ):
                n = sum(
                    1
                    for a in f.mobilisation
                    if a.day == day
                    for d in a.divisions
                    if d.kind is not None and d.kind.key == kind
                )
                assert n == rules2.value("mobilisation", row, col), (code, kind, day)
    for code in ("G", "H"):  # 3.6: six rifle divisions each after mobilisation
        f = default.forces_of(code)
        n = sum(
            1
            for r in f.deployed_divisions() + f.reserve_divisions()
            if r.kind is not None and r.kind.key == "rifle"
        )
        assert n == 6


def test_every_division_stands_on_its_own_cell(default: Scenario) -> None:
    cells: Counter[Cell] = Counter()
    for f in default.forces:
        for p in f.deployment:
            n = len(f.divisions_of(p.unit))
            if len(p.cells) == 2:
                a, b = p.cells
                span = max(abs(a.lon - b.lon), abs(a.lat - b.lat)) + 1
                assert span >= n, p
            for c in p.cells:
                cells[c] += 1
    assert max(cells.values()) == 1


def test_default_renders_as_ascii(default: Scenario) -> None:
    text = render(default.theatre, 2)
    lines = text.split("\n")
    assert lines[1].startswith(" 44") and any(line.startswith("  1") for line in lines)
    assert "F" in text and "@" in text and "|" in text and "~" in text
    level1 = render(default.theatre, 1)
    assert "f" not in level1.split("\n\n")[0] and "F" not in level1.split("\n\n")[0]


def test_format_round_trip(default: Scenario, tmp_path: Path) -> None:
    text = format_scenario(default)
    back = parse_scenario(text, "again.toml")
    assert back.theatre.identical(default.theatre)
    assert back.forces == default.forces and back.settings == default.settings
    assert format_scenario(back) == text


def test_netcdf_backed_scenario(default: Scenario, tmp_path: Path) -> None:
    path = save_scenario(default, tmp_path / "big.toml", netcdf="big.nc")
    assert (tmp_path / "big.nc").exists() and 'netcdf = "big.nc"' in path.read_text()
    back = load_scenario(path)
    assert back.theatre.identical(default.theatre) and back.forces == default.forces


# --- a scenario typed by hand -------------------------------------------------------------------


def test_the_readme_example_loads() -> None:
    sc = parse_scenario(readme_example(), "README.md")
    assert (sc.width, sc.height) == (12, 6)
    assert sc.settings.level == 2 and sc.settings.seed == 7
    assert [s.code for s in sc.states] == ["R", "B"]
    ds = sc.theatre
    assert terrain.bridges(ds).any()
    assert ds["relief"].values[terrain.index(ds, Cell(1, 1))] == Relief.WATER
    assert ds["relief"].values[terrain.index(ds, Cell(11, 6))] == Relief.MOUNTAINS
    red = sc.forces_of("R")
    assert [str(d) for d in red.divisions_of(UnitRef.parse("1 с.к."))] == ["1 с.д.", "2 с.д."]
    assert red.mobilisation[0].cell == Cell(11, 3)
    assert UnitRef.parse("121 т.д.") in sc.known_units


# --- bad input: file, line and column; nothing loaded ------------------------------------------


def _bad(text: str) -> list[str]:
    with pytest.raises(ScenarioError) as info:
        parse_scenario(text, "bad.toml")
    return [str(p) for p in info.value.problems]


def _line_of(text: str, needle: str) -> int:
    return next(n for n, line in enumerate(text.split("\n"), 1) if needle in line)


def test_unknown_legend_character() -> None:
    text = readme_example().replace("..hh.....s..\n..hh", "..hh.....s..\n..hX", 1)
    (msg,) = _bad(text)
    line = _line_of(text, "..hX")
    assert msg.startswith(f"bad.toml:{line}:4: map.relief: unknown legend character 'X'")


def test_rows_of_unequal_length() -> None:
    text = readme_example().replace("~~~.........\n", "~~~..........\n", 1)
    msgs = _bad(text)
    line = _line_of(text, "~~~..........")
    assert any(
        m.startswith(f"bad.toml:{line}:") and "row of 13 cells, the first row has 12" in m
        for m in msgs
    )


def test_unit_off_the_map() -> None:
    text = readme_example().replace("5 т.д. - 10,3", "5 т.д. - 45,99")
    (msg,) = _bad(text)
    assert (
        msg
        == f"bad.toml:{_line_of(text, '45,99')}: forces.R.deployment: '5 т.д. - 45,99': cell 45,99 off the map, which is 12 x 6"
    )


def test_two_units_of_the_same_number() -> None:
    text = readme_example().replace("121 т.д. - 2,5", "5 т.д. - 2,5")
    msgs = _bad(text)
    assert any(
        m.startswith(f"bad.toml:{_line_of(text, '5 т.д. - 2,5')}:") and "5 т.д.: placed twice" in m
        for m in msgs
    )
    text = readme_example().replace("121 т.д. - 2,5", "5 м.д. - 2,5")
    msgs = _bad(text)
    assert any("5 м.д.: the number of 5 т.д. too" in m for m in msgs)


def test_unknown_unit_type() -> None:
    text = readme_example().replace("121 т.д. - 2,5", "121 тдд - 2,5")
    (msg,) = _bad(text)
    assert msg.startswith(f"bad.toml:{_line_of(text, '121 тдд')}:5: forces.B.deployment:")
    assert "did you mean 'т.д.'" in msg


def test_corps_with_no_divisions() -> None:
    text = readme_example().replace("11 с.к.: 101 с.д., 102 с.д.", "11 с.к.:")
    msgs = _bad(text)
    assert any(
        m.startswith(f"bad.toml:{_line_of(text, '11 с.к.:')}:") and "a corps with no divisions" in m
        for m in msgs
    )


def test_every_problem_at_once() -> None:
    text = (
        readme_example()
        .replace("5 т.д. - 10,3", "5 т.д. - 45,99")
        .replace("121 т.д. - 2,5", "121 тдд - 2,5")
    )
    assert len(_bad(text)) == 2


def test_toml_syntax_error_has_a_line() -> None:
    (msg,) = _bad('[scenario]\nname = "x\n')
    assert msg.startswith("bad.toml:2:")


def test_too_many_reserves_in_one_city() -> None:
    text = readme_example().replace(
        "M+5: 3 с.д., 4 с.д. - Красноград", "M+5: 3 с.д., 4 с.д., 6 с.д. - Красноград"
    )
    msgs = _bad(text)
    assert any("at most two at once (6.4)" in m for m in msgs)


# --- the builder --------------------------------------------------------------------------------


def test_builder_in_a_few_lines(tmp_path: Path) -> None:
    b = ScenarioBuilder.blank(30, 20, name="Опыт")
    b = b.state("R", "Красные", "red", lon=(16, 30)).state("B", "Синие", "blue", lon=(1, 15))
    b = b.paint("forest", lon=(5, 9), lat=(4, 8)).river("15.5,0.5 15.5,20.5").road("3,10 28,10")
    b = b.city("Красноград", "26,10", capital=True).fortress("18,10")
    b = b.corps("R", "2 т.к.", "21 т.д.", "22 т.д.").place(
        "R", "2 т.к. расположен между 18-9 и 18-11"
    )
    sc = b.build()
    ds = sc.theatre
    assert (ds["relief"].values == Relief.FOREST).sum() == 25
    assert terrain.bridges(ds).sum() == 2
    path = save_scenario(sc, tmp_path / "opyt.toml")
    back = load_scenario(path)
    assert back.theatre.identical(ds) and back.forces == sc.forces
    # the builder never changes what it was given
    assert (b.paint("swamp").scenario.theatre["relief"].values == Relief.SWAMP).all()
    assert (b.scenario.theatre["relief"].values == Relief.FOREST).sum() == 25


def test_builder_lists_every_problem() -> None:
    b = ScenarioBuilder.blank(10, 10).state("R", "Красные", "red")
    b = b.place("R", "1 с.д. - 45,99", "2 с.д. - 1,1").place("R", "1 т.д. - 3,3")
    with pytest.raises(BuildError) as info:
        b.build()
    text = str(info.value)
    assert "off the map, which is 10 x 10" in text and "divisions numbered 1" in text


# --- the CLI ------------------------------------------------------------------------------------


def test_cli_check_show_convert(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["scenario", "check", str(DEFAULT), "--lang", "en"]) == 0
    assert "ok" in capsys.readouterr().out
    assert main(["scenario", "check", str(DEFAULT)]) == 0  # Russian by default
    assert "без ошибок" in capsys.readouterr().out
    assert main(["scenario", "show", str(DEFAULT), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["size"] == [64, 44] and len(data["map"]) > 44
    assert main(["scenario", "show", str(DEFAULT), "--level", "1", "--lang", "ru"]) == 0
    assert "Красная Федерация" in capsys.readouterr().out
    assert main(["scenario", "convert", str(DEFAULT), str(tmp_path / "c.nc")]) == 0
    assert terrain.load(tmp_path / "c.nc").identical(load_scenario(DEFAULT).theatre)
    capsys.readouterr()


def test_cli_check_reports_problems(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(readme_example().replace("5 т.д. - 10,3", "5 т.д. - 45,99"), encoding="utf-8")
    assert main(["scenario", "check", str(bad), "--json", "--lang", "en"]) == 1  # findings
    out, err = capsys.readouterr()
    assert json.loads(out)["ok"] is False
    assert "off the map, which is 12 x 6" in err
    assert main(["scenario", "check", str(bad), "--lang", "ru"]) == 1
    err = capsys.readouterr().err
    assert "ошибка:" in err and "вне карты (карта 12 × 6)" in err
