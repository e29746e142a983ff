"""The tactical table without a browser: its GeoJSON as plain values, and the widget's actions."""

from __future__ import annotations

from pathlib import Path

import pytest

from strategia.tactical import EXAMPLES, TacticalGame
from strategia.tactical.phases import Phase
from strategia.ui.tactical import table as tt


@pytest.fixture
def game() -> TacticalGame:
    return TacticalGame.new(EXAMPLES / "grove.toml")


def size(ring: list[list[float]]) -> tuple[float, float]:
    xs = [p[0] for p in ring]
    ys = [p[1] for p in ring]
    return round(max(xs) - min(xs), 6), round(max(ys) - min(ys), 6)


def test_the_ground_is_the_table_its_grid_obstacles_and_roads(game: TacticalGame) -> None:
    ground = tt.ground_geojson(game.skirmish)["features"]
    parts = [f["properties"]["part"] for f in ground]
    assert parts[0] == "table" and size(ground[0]["geometry"]["coordinates"][0]) == (120, 80)
    assert parts.count("grid") == 1 and parts.count("road") == 1
    kinds = {f["properties"]["kind"] for f in ground if f["properties"]["part"] == "obstacle"}
    assert kinds == {"hill", "scrub", "hedge", "village", "forest", "ravine"}
    hedge = next(f for f in ground if f["properties"].get("kind") == "hedge")
    assert size(hedge["geometry"]["coordinates"][0]) == (27, 1)  # drawn 1 cm deep, as counted


def test_units_are_rectangles_of_their_formations_frontage_and_depth(game: TacticalGame) -> None:
    data = tt.units_geojson(game.battle, game.rules, selected="1/Тульский")
    rects = {
        f["properties"]["unit"]: f for f in data["features"] if f["properties"]["part"] == "unit"
    }
    assert len(rects) == 7
    assert size(rects["1/Тульский"]["geometry"]["coordinates"][0]) == (4, 4)  # column: 16 as 4 × 4
    assert size(rects["2/Тульский"]["geometry"]["coordinates"][0]) == (16, 1)  # line
    assert size(rects["Voltigeurs"]["geometry"]["coordinates"][0]) == (8, 1)  # loose: 2 cm a figure
    assert size(rects["Легкая рота №3"]["geometry"]["coordinates"][0]) == (1, 18)  # 6 guns limbered
    assert rects["1/Тульский"]["properties"]["style"]["color"] == "#ffeb3b"  # selected
    assert rects["II/61e ligne"]["properties"]["style"]["fillColor"] == tt.SIDE_COLOURS["blue"]
    fronts = [f for f in data["features"] if f["properties"]["part"] == "front"]
    line = next(f for f in fronts if f["properties"]["unit"] == "2/Тульский")
    assert line["geometry"]["coordinates"] == [[54.0, 22.0], [70.0, 22.0]]


def test_a_units_rectangle_turns_with_its_facing(game: TacticalGame) -> None:
    game.advance()
    game.advance()
    game.act("Сумские гусары", "wheel -90")  # 8 cm front: an arc of 4π, within 20 cm
    rect = next(
        f
        for f in tt.units_geojson(game.battle, game.rules)["features"]
        if f["properties"].get("unit") == "Сумские гусары" and f["properties"]["part"] == "unit"
    )
    assert size(rect["geometry"]["coordinates"][0]) == (1, 8)


def test_phases_panel_marks_the_phase_and_lists_the_cards(game: TacticalGame) -> None:
    game.card("1/Тульский", before="move; form square", attack="II/61e ligne")
    html = tt.phases_html(game.battle, game.rules, "en")
    assert "<b>▶ 1. Planning</b>" in html and "move; form square" in html and "II/61e ligne" in html
    assert html.count("<li>") == 8 and "<ol>" not in html  # numbered once, by the names


def test_the_widget_drives_the_game(game: TacticalGame) -> None:
    table = tt.TacticalTable(game, lang="en")
    assert table.map.crs["name"] == "Simple" and len(table.map.layers) == 3  # ground, units, names
    assert set(table.names) == {u.name for u in game.table.units}
    assert table.units.data == table.units_data()
    table.select("1/Тульский")
    assert table.lay_card("move; form square") is not None
    table._feature_click({"properties": {"unit": "2/Тульский"}})
    assert table.unit.value == "2/Тульский"
    table.next_phase()
    table.next_phase()
    assert game.phase is Phase.MOVEMENT
    assert "7.2" in table.breakdown.value
    assert table.act("gallop") is None and "unknown action" in table.message.value
    before = tuple(table.names["2/Тульский"].location)
    table.act("move 3")
    assert game.table.unit("2/Тульский").moved == 3
    assert tuple(table.names["2/Тульский"].location) == (
        before[0] + 3,
        before[1],
    )  # the name follows
    table.next_phase()
    table.enter("artillery", casualties=1, by="Batterie à pied")
    assert game.table.unit("2/Тульский").figures == 15
    assert "Fire" in table.status.value


def test_the_table_shows_who_counts_as_moving_as_the_engine_says(tmp_path: Path) -> None:
    """003, note 3 to the speeds: a unit counts as moving when it moves at least 2 cm in the
    turn, or changes formation. The hussars move 1 cm: not moving; 4 cm more (5 in all): moving,
    and the tooltip says so («двигающийся»). The console takes the engine's answer, so a house
    rule of 10 cm (rule data `moving.min_cm`) makes the same 5 cm not moving on the table."""

    def hussars(g: TacticalGame) -> dict[str, object]:
        return next(
            f["properties"]
            for f in tt.units_geojson(g.battle, g.rules, lang="ru")["features"]
            if f["properties"].get("unit") == "Сумские гусары" and f["properties"]["part"] == "unit"
        )

    house = tmp_path / "house.toml"
    house.write_text('[ruleset]\nname = "tactical"\n\n[moving]\nmin_cm = 10\n', encoding="utf-8")
    plain, strict = (
        TacticalGame.new(EXAMPLES / "grove.toml"),
        TacticalGame.new(EXAMPLES / "grove.toml", house=[house]),
    )
    for g in (plain, strict):
        g.advance()
        g.advance()
        g.act("Сумские гусары", "move 1")
    p = hussars(plain)
    assert p["moving"] is False and "двигающийся" not in str(p["label"])
    for g in (plain, strict):
        g.act("Сумские гусары", "move 4")
    p = hussars(plain)
    assert p["moving"] is True and str(p["label"]).endswith(" · двигающийся")
    assert hussars(strict)["moving"] is False
