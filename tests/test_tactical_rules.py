"""The tactical rule data transcribes seed 003: every number that survived, the «--» cells, and
every value the seed lost marked as reconstructed with its reason."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from strategia.core.errors import RuleDataError
from strategia.rules import RuleSet, load_ruleset, ruleset_names
from strategia.rules.sheet import sheet_text
from strategia.tactical.data import check_fractions, frac, parse_fraction, ruler, tactical_rules

# СКОРОСТЬ ПЕРЕДВИЖЕНИЯ, the last column: slowdown moving through an obstacle (all survived).
SLOWDOWN = {
    "line": "1/3", "column": "1/4", "march": "1/4", "skirmish": "1/5",
    "cavalry_formed_light": "1/3", "cavalry_formed_medium": "1/3", "cavalry_formed_heavy": "1/2",
    "cavalry_dispersed_light": "1/4", "cavalry_dispersed_medium": "1/3", "cavalry_dispersed_heavy": "1/3",
    "limbered_foot_light": "1/3", "limbered_foot_heavy": "1/2", "limbered_horse": "1/3",
    "prolonge_light": "1/3", "prolonge_heavy": "1/2", "hand_light": "1/2", "hand_heavy": "2/3",
}  # fmt: skip
# The speed cells the seed printed: numbers and «--» (0), by row and column.
GIVEN_SPEEDS = {
    ("line", "forward"): 10,
    ("limbered_foot_light", "flight"): 30,  # 30/60: crew / guns (note 2)
    ("limbered_foot_heavy", "flight"): 30,  # 30/46
}
DASHES = {
    "line": ["flight"], "column": ["flight"], "march": ["withdrawal", "flight"], "skirmish": [],
    "cavalry_formed_light": ["withdrawal", "flight"], "cavalry_formed_medium": ["withdrawal", "flight"],
    "cavalry_formed_heavy": ["withdrawal", "flight"], "cavalry_dispersed_light": ["withdrawal"],
    "cavalry_dispersed_medium": ["withdrawal"], "cavalry_dispersed_heavy": ["withdrawal"],
    "limbered_foot_light": ["withdrawal"], "limbered_foot_heavy": ["withdrawal"], "limbered_horse": ["withdrawal"],
    "prolonge_light": ["withdrawal", "accelerated", "flight"], "prolonge_heavy": ["withdrawal", "accelerated", "flight"],
    "hand_light": ["accelerated", "flight"], "hand_heavy": ["accelerated", "flight"],
}  # fmt: skip
# СКОРОСТЬ ПЕРЕСТРОЕНИЯ: part of a turn for every 2 figures, infantry / cavalry.
FORMATION_CHANGE = {
    "march_line": ("1/5", "1/4"), "march_column": ("1/6", "1/5"), "line_column": ("1/8", "1/4"),
    "column_square": ("1/20", "impossible"), "closed_loose": ("1/10", "1/10"), "loose_closed": ("1/3", "1/3"),
}  # fmt: skip
# ДВИЖЕНИЕ ЧЕРЕЗ ПРЕПЯТСТВИЕ: the state of formed units crossing, infantry / cavalry.
OBSTACLES = {
    "hill_up": ("formed", "formed"), "hill_down": ("formed", "disordered"),
    "scrub": ("disordered", "scattered"), "hedge": ("disordered", "disordered"),
    "ravine": ("disordered", "scattered"), "ford": ("disordered", "scattered"),
    "forest": ("scattered", "scattered"), "village": ("scattered", "scattered"),
    "troops": ("scattered", "scattered"), "battery": ("scattered", "scattered"),
}  # fmt: skip
IMPASSABLE_TO_ARTILLERY = {"scrub", "ravine", "ford", "forest", "village", "battery"}


@pytest.fixture(scope="module")
def tr() -> RuleSet:
    return tactical_rules()


def test_the_tactical_ruleset_is_registered() -> None:
    assert "tactical" in ruleset_names()
    rules = load_ruleset("tactical")
    assert rules.name == "tactical"
    assert {e.rule for e in rules.entries.values()} >= {
        "003 turn sequence", "003 speeds", "003 formation changes", "003 change of front",
        "003 limbering", "003 obstacles",
    }  # fmt: skip


def test_every_entry_has_a_rule_id_and_bilingual_titles(tr: RuleSet) -> None:
    for e in tr.entries.values():
        assert e.rule.startswith("003 "), e.key
        assert e.title.en and e.title.ru and e.title.en != e.title.ru, e.key
        for r in e.rows:
            assert e.row_label(r).en, (e.key, r)


@pytest.mark.parametrize("row", SLOWDOWN)
def test_slowdown_row_is_the_seeds(tr: RuleSet, row: str) -> None:
    p = tr.param("slowdown", row, "slowdown")
    assert p.value == SLOWDOWN[row] and not p.reconstructed
    assert frac(tr, "slowdown", row, "slowdown") == Fraction(SLOWDOWN[row])


@pytest.mark.parametrize("row", DASHES)
def test_speed_row_keeps_the_seeds_numbers_and_dashes(tr: RuleSet, row: str) -> None:
    for col in ("forward", "withdrawal", "accelerated", "flight"):
        p = tr.param("speeds", row, col)
        if col in DASHES[row]:
            assert p.value == 0 and not p.reconstructed, (row, col)  # «--»: not done
        elif (row, col) in GIVEN_SPEEDS:
            assert p.value == GIVEN_SPEEDS[(row, col)] and not p.reconstructed, (row, col)
        else:
            assert p.value > 0, (row, col)
            assert p.reconstructed and len(p.reconstructed) > 10, (row, col)


def test_division_column_is_12_cm_from_the_examples(tr: RuleSet) -> None:
    p = tr.param("speeds", "column", "forward")
    assert p.value == 12 and "example" in (p.reconstructed or "")


def test_foot_guns_flight_is_the_denominator(tr: RuleSet) -> None:
    assert tr.value("flight_guns", "limbered_foot_light") == 60
    assert tr.value("flight_guns", "limbered_foot_heavy") == 46
    assert not tr.reconstructed() or all(p.entry != "flight_guns" for p in tr.reconstructed())


@pytest.mark.parametrize("row", FORMATION_CHANGE)
def test_formation_change_row_is_the_seeds(tr: RuleSet, row: str) -> None:
    inf, cav = FORMATION_CHANGE[row]
    assert tr.param("formation_change", row, "infantry").value == inf
    assert tr.param("formation_change", row, "cavalry").value == cav
    assert not tr.param("formation_change", row, "infantry").reconstructed


def test_formation_conditions(tr: RuleSet) -> None:
    assert tr.value("formation_rules", "routed_factor") == 3  # **: 1 turn a pair
    assert Fraction(tr.value("formation_change", "loose_closed", "infantry")) * 3 == 1
    assert tr.value("formation_rules", "cavalry_column_squadrons") == 2
    assert tr.value("formation_rules", "cavalry_column_gap_cm") == 1.5
    assert tr.value("scale", "pair_figures") == 2
    assert tr.value("scale", "figure_men") == 50
    assert tr.value("moving", "min_cm") == 2 and tr.value("moving", "formation_change") is True
    assert tr.entry("moving").rule == "003 speeds, note 3"


def test_limbering_and_change_of_front(tr: RuleSet) -> None:
    assert {k: tr.value("limbering", k) for k in tr.entry("limbering").rows} == {
        "unlimber": "1/2", "limber": "2/3", "off_prolonge": "2/3", "on_prolonge": "1",
        "per_lost_figure": "1/3",
    }  # fmt: skip
    assert tr.value("front_change", "battery_turn") == "1/2"
    assert tr.value("front_change", "extra_time") == "0"
    assert tr.value("front_change", "about_face_deg") == 180
    assert tr.value("front_change", "square_face_deg") == 90


@pytest.mark.parametrize("row", OBSTACLES)
def test_obstacle_row_is_the_seeds(tr: RuleSet, row: str) -> None:
    assert (
        tr.value("obstacles", row, "infantry"),
        tr.value("obstacles", row, "cavalry"),
    ) == OBSTACLES[row]
    key = "hill" if row.startswith("hill") else row
    assert tr.value("obstacle_artillery", key, "impassable") == (key in IMPASSABLE_TO_ARTILLERY)


def test_obstacle_notes(tr: RuleSet) -> None:
    assert tr.value("obstacle_rules", "hedge_depth_cm") == 1
    assert tr.value("obstacle_rules", "troops_depth_cm") == 1
    assert tr.value("obstacle_rules", "restore_order") == "1/5"
    assert tr.value("obstacle_rules", "battery_ceasefire") == "1/2"
    assert tr.value("obstacle_rules", "visibility_cm") == 5
    assert tr.value("obstacle_rules", "road_in_march") is True


def test_turn_sequence_has_the_eight_phases(tr: RuleSet) -> None:
    e = tr.entry("turn_sequence")
    assert list(e.rows) == [
        "planning",
        "attacks",
        "movement",
        "fire",
        "after_fire",
        "tests",
        "melee",
        "wavering",
    ]
    assert [e.row_label(r).en.split(".")[0] for r in e.rows] == [str(i) for i in range(1, 9)]
    assert "артиллерийской, затем ружейной" in tr.value("turn_sequence", "fire")


def test_every_reconstruction_says_why(tr: RuleSet) -> None:
    marked = tr.reconstructed()
    assert len(marked) > 40
    for p in marked:
        assert p.reconstructed and len(p.reconstructed) >= 10, p.key


def test_fractions_read_exactly() -> None:
    assert parse_fraction("2/5") == Fraction(2, 5)
    assert parse_fraction(1.5) == Fraction(3, 2)
    assert parse_fraction(" 1 ") == 1
    with pytest.raises(ValueError, match="fraction"):
        parse_fraction("a third")


def test_the_ruler_reads_to_half_a_centimetre(tr: RuleSet) -> None:
    assert ruler(Fraction(36, 5), tr) == 7  # «примерно на 7 см»
    assert ruler(Fraction(8, 5), tr) == Fraction(3, 2)  # «только на 1,5 см»
    assert ruler(Fraction(4), tr) == 4


def test_house_rules_override_a_fraction(tmp_path: Path) -> None:
    house = tmp_path / "house.toml"
    house.write_text('[slowdown.line]\nslowdown = "1/4"\n', encoding="utf-8")
    rules = tactical_rules(house)
    assert frac(rules, "slowdown", "line", "slowdown") == Fraction(1, 4)
    assert rules.param("slowdown", "line", "slowdown").overridden is not None
    house.write_text('[slowdown.line]\nslowdown = "a lot"\n', encoding="utf-8")
    with pytest.raises(RuleDataError, match="slowdown.line.slowdown"):
        check_fractions(load_ruleset("tactical", house=house))


def test_the_sheet_prints_the_tactical_rules(tr: RuleSet) -> None:
    text = sheet_text(tr, "ru")
    assert "Скорость передвижения" in text and "1/20" in text and "[в]" in text
    assert "холм (сверху вниз)" in text
