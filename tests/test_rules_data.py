"""The rule data transcribes the seeds: tables, rule ids, levels and reconstructed marks."""

from __future__ import annotations

import pytest

from strategia.core.errors import InactiveRuleError, UnknownNameError
from strategia.rules import RuleSet, load_ruleset, ruleset_names
from strategia.rules.schema import TYPES, check_value, parse_pattern

# Seed 002, table 1, as printed (km a turn; river: turns to cross).
TABLE_4 = {
    "plain": {"rifle": 10, "tank": 30, "motorised": 30, "sp_gun": 20, "anti_tank": 20, "artillery": 10},
    "forest": {"rifle": 10, "tank": 20, "motorised": 20, "sp_gun": 20, "anti_tank": 10, "artillery": "trails"},
    "mountains": {"rifle": 10, "tank": "trails", "motorised": "trails", "sp_gun": "trails", "anti_tank": "trails", "artillery": "impassable"},
    "swamp": {"rifle": 10, "tank": "trails", "motorised": "trails", "sp_gun": "trails", "anti_tank": 10, "artillery": "impassable"},
    "hills": {"rifle": 10, "tank": 20, "motorised": 30, "sp_gun": 15, "anti_tank": 10, "artillery": 5},
    "river": {"rifle": 1, "tank": 2, "motorised": 0, "sp_gun": 2, "anti_tank": 1, "artillery": "impassable"},
    "road": {"rifle": 10, "tank": 40, "motorised": 50, "sp_gun": 30, "anti_tank": 30, "artillery": 20},
    "trail_mountains": {"rifle": 10, "tank": 10, "motorised": 20, "sp_gun": 10, "anti_tank": 10, "artillery": "impassable"},
    "trail_swamp": {"rifle": 10, "tank": 20, "motorised": 30, "sp_gun": 10, "anti_tank": 15, "artillery": "impassable"},
    "trail_forest": {"rifle": 10, "tank": 30, "motorised": 40, "sp_gun": 25, "anti_tank": 15, "artillery": 10},
}  # fmt: skip

# Seed 000, table 7 (direct, support); None = blank cell.
TABLE_7 = {
    "rifle": (0.2, 0.1), "tank": (0.65, 0.3), "motorised": (0.4, 0.2), "sp_gun": (0.9, 0.2),
    "sapper": (0.1, None), "artillery": (0.1, 0.4), "artillery_mot": (0.1, 0.3),
    "heavy_artillery": (None, 0.8), "anti_tank": (0.2, None), "cavalry": (0.15, None),
}  # fmt: skip

# 002's table 2 peacetime strengths with 000's table 5 increments.
TABLE_5 = {
    "red_rifle": (15, 5, 2, 6, 2), "red_tank": (8, 2, 0, 0, 0), "red_motorised": (4, 1, 1, 1, 1),
    "red_sp_gun": (2, 0, 0, 0, 0), "red_anti_tank": (1, 0, 0, 1, 0), "red_artillery": (2, 0, 0, 0, 0),
    "blue_rifle": (12, 6, 1, 6, 6), "blue_tank": (7, 1, 0, 0, 0), "blue_motorised": (4, 2, 2, 0, 0),
    "blue_sp_gun": (2, 0, 0, 0, 0), "blue_anti_tank": (3, 0, 0, 0, 0), "blue_artillery": (2, 0, 0, 0, 0),
    "green_rifle": (4, 1, 1, 0, 0), "green_motorised": (1, 0, 0, 0, 0), "green_anti_tank": (1, 0, 0, 0, 0),
}  # fmt: skip


def test_registry_knows_continental() -> None:
    assert "continental" in ruleset_names()
    with pytest.raises(
        UnknownNameError, match="unknown ruleset 'continetal': did you mean 'continental'"
    ):
        load_ruleset("continetal")


def test_every_entry_has_rule_id_level_and_title(rules: RuleSet) -> None:
    for e in rules.entries.values():
        assert e.rule, e.key
        assert e.level in (1, 2, 3)
        assert e.title.en and e.title.ru
        for p in e.params():
            assert p.level >= e.level
            assert p.rule


def test_table_4_is_seed_002_table_1(rules: RuleSet) -> None:
    for row, cells in TABLE_4.items():
        for col, value in cells.items():
            p = rules.param("movement", row, col)
            assert p.value == value, (row, col)
            assert not p.reconstructed, (row, col)


def test_cavalry_movement_is_reconstructed_except_its_river_crossing(rules: RuleSet) -> None:
    for row in TABLE_4:
        p = rules.param("movement", row, "cavalry")
        assert bool(p.reconstructed) == (row != "river"), row
    assert rules.param("movement", "river", "cavalry").value == 1  # 000's table 4


def test_level_2_terrain_rows_do_not_act_at_level_1(rules1: RuleSet, rules2: RuleSet) -> None:
    assert rules1.value("movement", "plain", "tank") == 30
    for row in ("forest", "swamp", "hills", "trail_mountains", "trail_swamp", "trail_forest"):
        assert not rules1.active("movement", row)
        with pytest.raises(
            InactiveRuleError, match=r"level-2 rule and does not act at level 1 \(rule 0.2\)"
        ):
            rules1.value("movement", row, "tank")
        assert rules2.value("movement", row, "rifle") == 10


def test_table_7(rules: RuleSet) -> None:
    for kind, (direct, support) in TABLE_7.items():
        for col, printed in (("direct", direct), ("support", support)):
            p = rules.param("regiment_ratings", kind, col)
            if printed is None:
                assert p.value == 0 and p.reconstructed, (kind, col)
            else:
                assert p.value == printed and not p.reconstructed, (kind, col)


def test_table_5_mobilisation(rules: RuleSet) -> None:
    cols = ("peace", "M", "M5", "M10", "M15")
    for row, values in TABLE_5.items():
        assert tuple(rules.value("mobilisation", row, c) for c in cols) == values, row
    assert "002 has +5" in (rules.param("mobilisation", "blue_rifle", "M10").note or "")
    green = sum(rules.value("mobilisation", "green_rifle", c) for c in cols)
    assert green == rules.value("neutral_forces", "rifle") == 6  # 3.6


def test_table_9_1_lost_front_cells_are_table_8_and_marked(rules: RuleSet) -> None:
    for kind in ("rifle", "tank"):
        p = rules.param("linear_ratings", kind, "front")
        assert p.reconstructed and "table 8" in p.reconstructed
        assert p.value == rules.value("division_ratings", kind, "direct")
    assert not rules.param("linear_ratings", "motorised", "front").reconstructed


def test_table_11_close_to_the_level_3_formula(rules: RuleSet) -> None:
    a, b, c = (rules.value("artillery_formula", k) for k in "abc")
    for dy in (0, 10, 20, 30):
        for dx in (0, 10, 20, 30):
            printed = rules.value("artillery_range", f"dy{dy}", f"dx{dx}")
            if printed == 0:
                continue
            x = (dx * dx + dy * dy) ** 0.5
            assert abs(a * x * x + b * x + c - printed) < 3.5, (dx, dy)


def test_artillery_multipliers_9_7(rules: RuleSet) -> None:
    got = {
        k: rules.value("artillery", f"survive_{k}")
        for k in ("plain", "forest", "hills", "swamp", "town", "fortress", "mountains")
    }
    assert got == {
        "plain": 0.5,
        "forest": 0.6,
        "hills": 0.6,
        "swamp": 0.66,
        "town": 0.66,
        "fortress": 0.75,
        "mountains": 0.8,
    }


def test_battle_multipliers_9_8b(rules: RuleSet) -> None:
    assert [
        rules.value("battle", f"defender_{t}")
        for t in ("forest", "hills", "swamp", "mountains", "river")
    ] == [1.1, 1.2, 1.5, 2, 1.7]
    assert rules.value("battle", "anti_tank_vs_armour") == 3
    assert rules.param("battle", "support_radius_km").level == 2


def test_turning_4_3(rules1: RuleSet, rules2: RuleSet) -> None:
    assert rules1.value("turning", "turn_180", "hills") == 1.5
    assert rules1.value("turning", "turn_180", "swamp") == 2
    assert rules1.value("turning", "turn_90", "swamp") == 1
    assert not rules1.active("turning", "turn_45")
    assert rules2.value("turning", "turn_45", "default") == 0.25


def test_cell_rule_ids_are_cited_precisely(rules: RuleSet) -> None:
    assert rules.param("regrouping", "split_distance_km").rule == "4.9"
    assert rules.param("artillery", "bridge_closed").rule == "9.7c"
    assert rules.param("regrouping", "transfer_out").level == 3


def test_every_reconstructed_value_says_why(rules: RuleSet) -> None:
    recon = rules.reconstructed()
    assert len(recon) >= 30
    for p in recon:
        assert len(p.reconstructed or "") > 10, p.key


def test_value_types() -> None:
    assert check_value("speed", "trails") is None
    assert (
        check_value("speed", "fast") == "expected a number or one of trails, impassable, got 'fast'"
    )
    assert check_value("turns", "trails") is not None
    assert check_value("int", 1.5) == "expected a whole number, got 1.5"
    assert check_value("number", 5, 0, 1) == "5 is above the largest allowed value 1"
    assert check_value("number", True) is not None
    assert check_value("bool", 1) is not None
    assert check_value("nonsense", 1) is not None
    assert set(TYPES) >= {"number", "speed", "pattern"}


def test_patterns() -> None:
    p = parse_pattern("line=D S* arm=D")
    assert [r.key for r, _ in p["line"]] == ["D", "S"]
    for bad, msg in [
        ("line=X", "bad role 'X'"),
        ("flank=D", "unknown group 'flank'"),
        ("D line=S", "'D' before any group"),
        ("line=D* S*", "at most one role may carry"),
        ("", "no groups"),
        ("line=D line=S", "given twice"),
    ]:
        with pytest.raises(ValueError, match=msg):
            parse_pattern(bad)
