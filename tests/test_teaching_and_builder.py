"""The teaching workbenches and the scenario builder, driven without a browser."""

from __future__ import annotations

from pathlib import Path

import pytest

from strategia.core.geometry import Cell
from strategia.game.game import Game
from strategia.game.trial import balance
from strategia.rules import load_ruleset
from strategia.rules.kinds import Facing, Formation, RegimentsFacing
from strategia.rules.units import new_division
from strategia.theatre import terrain
from strategia.theatre.builder import ScenarioBuilder
from strategia.theatre.generate import random_scenario
from strategia.theatre.scenario_io import load_scenario
from strategia.theatre.terrain import Relief
from strategia.ui.builder.panel import BuilderPanel
from strategia.ui.lessons.battle import (
    battle_workbench,
    outcome_by_ratio,
    supporting_formation,
    two_sides,
)
from strategia.ui.lessons.movement import movement_workbench
from strategia.ui.lessons.ratings import division_svg, ratings_workbench


def test_division_diagram_shows_the_engines_roles() -> None:
    rules = load_ruleset(level=2)
    svg = division_svg(
        new_division(1, "т.д.", rules),
        rules,
        Formation.LINEAR,
        Facing.FLANK90,
        RegimentsFacing.ENEMY,
    )
    assert svg.startswith("<svg") and svg.count("<rect") == 4
    assert "Н 0,65" in svg and "П 0,2" in svg and "rotate(90" in svg  # the parts in Russian


def test_workbenches_render_the_engines_breakdowns() -> None:
    r = ratings_workbench("en")
    assert (
        "Rating of 1 TD" in r.widget.children[-1].value and r.still == r.widget.children[-1].value
    )
    m = movement_workbench("en")
    image = m.widget.children[-2]
    first = bytes(image.value)
    assert first.startswith(b"\x89PNG") and "5 cells within reach" in m.alt
    m.widget.children[0].children[0].value = m.widget.children[0].children[0].options[0][1]  # с.д.
    assert bytes(image.value) != first and m.still.png == first  # redrawn; the still stays
    b = battle_workbench("ru")
    assert "Бой за 9,5" in b.widget.children[-1].value


def test_outcome_grows_with_the_force_ratio() -> None:
    data = outcome_by_ratio([1, 2, 3])
    assert data[0][1] == data[0][2] == 0.5  # equal forces each lose half (loss_rule)
    assert data[2][2] >= data[1][2] >= data[0][2]
    assert data[2][1] <= data[1][1] <= data[0][1]


def test_build_a_scenario_on_the_map_and_save_it(tmp_path: Path) -> None:
    p = BuilderPanel.blank(20, 12, "en")
    p.tool.value = "state"
    p.state_code.value, p.state_name.value, p.state_side.value = "R", "Red", "red"
    p.brush.value = 6
    for x in (3, 9):
        for y in (3, 9):
            p.click(x, y)
    p.state_code.value, p.state_name.value, p.state_side.value = "B", "Blue", "blue"
    for x in (14, 19):
        for y in (3, 9):
            p.click(x, y)
    p.tool.value = "forest"
    p.brush.value = 3
    p.drag("mousedown", 5, 5)
    p.drag("mousemove", 6, 5)
    p.drag("mousemove", 7, 5)
    p.drag("mouseup", 7, 5)
    p.drag("mousemove", 9, 9)  # no longer painting
    ds = p.scenario.theatre
    assert ds["relief"].values[terrain.index(ds, Cell(6, 5))] == Relief.FOREST
    assert ds["relief"].values[8, 8] == Relief.PLAIN
    p.tool.value = "road"
    p.click(2, 6)
    p.click(18, 6)
    p.tool.value = "river"
    p.click(11.5, 0.6)
    p.click(11.4, 12.4)
    p.tool.value = "capital"
    p.place_name.value = "Красноград"
    p.click(3, 6)
    p.tool.value = "fortress"
    p.place_name.value = ""
    p.click(13, 6)
    p.forces(
        "R",
        "1 с.к.: 1 с.д., 2 с.д.",
        "1 с.к. расположен между 9-4 и 9-5 фронтом на восток",
        "M+5: 3 с.д. - 3,6",
    )
    p.forces("B", "", "101 с.д. - 14,8 фронтом на запад")
    assert p.validate() == []
    ds = p.scenario.theatre
    assert terrain.bridges(ds).any() and ds["fortress"].values.sum() == 1
    out = p.save(tmp_path / "built.toml", netcdf=True)
    assert out is not None and (tmp_path / "built.nc").exists()
    back = load_scenario(out)
    assert back.theatre.identical(ds) and back.forces == p.scenario.forces


def test_problems_are_listed_and_marked_on_the_map(tmp_path: Path) -> None:
    p = BuilderPanel.blank(10, 6, "en")
    p.forces("R", "", "1 с.д. - 3,3")
    problems = p.validate()
    assert problems and "no state 'R'" in " ".join(problems)
    p.forces("R", "", "2 с.д. - 7,5")
    p.tool.value = "water"
    p.click(7, 5)
    problems = p.validate()
    assert any("7,5 is water" in x or "water" in x for x in problems)
    marked = {tuple(f["geometry"]["coordinates"][0][0]) for f in p.mapview.reach.data["features"]}
    assert (6.5, 4.5) in marked  # the cell 7,5 is marked on the map
    assert p.save(tmp_path / "bad.toml") is None


def test_edit_an_existing_scenario_and_a_random_one() -> None:
    p = BuilderPanel.from_file(Path(__file__).parents[1] / "maps" / "continental.toml", "ru")
    assert p.scenario.width == 64 and p.validate() == []
    sc = random_scenario(40, 28, seed=7, divisions_per_side=12)
    q = BuilderPanel(ScenarioBuilder.edit(sc), "en")
    assert q.validate() == []


def test_quick_trial_gives_the_balance_of_forces_per_turn(tmp_path: Path) -> None:
    sc = random_scenario(40, 28, seed=7, divisions_per_side=12)
    forces = balance(Game.new(sc, tmp_path / "t.game", level=2), 3)
    assert set(forces) >= {"red", "blue"} and all(len(v) == 4 for v in forces.values())


def test_the_builder_s_trial_is_played_by_the_computer_on_every_side(tmp_path: Path) -> None:
    from strategia.ui.builder.trial import computer_trial, trial_game
    from strategia.ui.console.computer import Seats

    sc = random_scenario(40, 28, seed=7, divisions_per_side=12)
    g = trial_game(sc, tmp_path / "c.game")
    forces = balance(g, 3, Seats().turn)
    assert set(forces) == {"red", "blue"} and all(len(v) == 4 for v in forces.values())
    assert g.state.turn == 4 and {d["side"] for _, d in g.decisions()} == {"red", "blue"}
    orders = {e.seq for e in g.journal.entries if e.kind == "order"}
    decided = {int(d["of"]) for _, d in g.decisions() if d.get("order")}
    assert orders and orders == decided  # every order the computer's, none the script's
    g.journal.close()
    assert computer_trial(sc, 3, tmp_path / "d.game") == forces  # the same trial again


def test_cli_random_scenario_and_trial(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from strategia.cli import main

    out = tmp_path / "r.toml"
    assert (
        main(
            [
                "scenario",
                "random",
                str(out),
                "--size",
                "30",
                "20",
                "--seed",
                "5",
                "--divisions",
                "6",
                "--netcdf",
            ]
        )
        == 0
    )
    assert out.exists() and (tmp_path / "r.nc").exists()
    assert main(["scenario", "check", str(out)]) == 0
    capsys.readouterr()
    assert main(["scenario", "trial", str(out), "--turns", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["turns"] == 2 and all(len(v) == 3 for v in data["forces"].values())
    assert data["by"] == "computer"
    assert main(["scenario", "trial", str(out), "--turns", "2", "--json", "--script"]) == 0
    assert json.loads(capsys.readouterr().out)["by"] == "script"


def test_the_battle_lesson_shows_the_supporting_formation() -> None:
    """Table 10: an с.д. in the supporting formation struck on its front rates 0.9 (table 9-1,
    linear: 1). The lesson's table gives both, as the engine fought them."""
    alt = supporting_formation("en").alt.splitlines()
    assert alt[0].startswith("linear | 1 |") and alt[1].startswith("supporting | 0.9 |")


def test_the_battle_lesson_shows_a_blow_from_two_sides() -> None:
    """9.5, 9.6: two с.д. of equal strength, one on the front and one on the rear of an с.д.:
    front 1 (table 9-1) and rear 0.2 (table 9-2), half each: 0.5 × 1 + 0.5 × 0.2 = 0.6; both
    from the front: 1."""
    one, two = two_sides("en").alt.splitlines()
    assert one.startswith("both from the front | front × 1 = 1 | 1 |")
    assert two.startswith("front and rear | front × 0.5 = 1; rear × 0.5 = 0.2 | 0.6 |")
