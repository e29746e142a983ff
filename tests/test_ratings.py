"""Division ratings derived from regiments (9.6, tables 7-10), with their explanations."""

from __future__ import annotations

import json

import pytest

from strategia.explain.render import explanation_html, explanation_text
from strategia.rules import RuleSet
from strategia.rules.kinds import DivisionKind, Facing, Formation, RegimentsFacing
from strategia.rules.ratings import derivation_check, rating, support_rating
from strategia.rules.units import new_division

# Every printed cell whose derivation from table 7 (the patterns of 9.6) differs: the data errors
# the tests keep visible. A change to the data or the derivation that alters this set must be
# deliberate.
KNOWN_DIFFERENCES = {
    ("table 9-1", "кав.д.", "flank45"),
    ("table 9-1", "кав.д.", "flank90"),
    ("table 9-2", "с.д.", "flank90"),
    ("table 9-2", "м.д.", "flank90"),
    ("table 9-2", "кав.д.", "flank90"),
    ("table 9-2", "кав.д.", "flank135"),
    ("table 10", "т.д.", "flank45"),
    ("table 10", "т.д.", "flank135_front_line"),
    ("table 10", "м.д.", "flank135_front_line"),
}


def test_table_8_agrees_with_its_derivation(rules: RuleSet) -> None:
    rows = [r for r in derivation_check(rules) if r.table == "table 8"]
    assert len(rows) == 14
    for r in rows:
        assert r.agrees, r


def test_only_the_known_printed_cells_differ_from_the_derivation(rules: RuleSet) -> None:
    differ = {(r.table, r.division, r.column) for r in derivation_check(rules) if not r.agrees}
    assert differ == KNOWN_DIFFERENCES


# (formation, regiments facing, facing) -> printed table column, for the rows of tables 9-1/9-2/10
PRINTED = {
    "table 9-1": (Formation.LINEAR, RegimentsFacing.ENEMY, {
        "rifle": (1, 0.9, 0.5, 0.4, 0.4), "tank": (2, 1.65, 1.25, 0.9, 0.9),
        "motorised": (1.5, 1.3, 0.9, 0.7, 0.7), "cavalry": (0.5, 0.25, 0.15, 0.05, 0.05)}),
    "table 9-2": (Formation.LINEAR, RegimentsFacing.FRONT_LINE, {
        "rifle": (1, 0.9, 0.25, 0.2, 0.2), "tank": (2, 1.65, 0.75, 0.4, 0.4),
        "motorised": (1.5, 1.3, 0.45, 0.3, 0.3), "cavalry": (0.5, 0.25, 0.25, 0.1, 0.1)}),
    "table 10": (Formation.SUPPORTING, RegimentsFacing.ENEMY, {
        "rifle": (0.9, 0.8, 0.8, 0.8, 0.8), "tank": (1.8, 1.65, 1.65, 1.3, 1.3),
        "motorised": (1.3, 1.1, 1.1, 1.1, 1.1)}),
    "table 10*": (Formation.SUPPORTING, RegimentsFacing.FRONT_LINE, {
        "rifle": (0.9, 0.8, 0.6, 0.4, 0.4), "tank": (1.8, 1.65, 0.9, 0.6, 0.6),
        "motorised": (1.3, 1.1, 0.7, 0.5, 0.5)}),
}  # fmt: skip
FACINGS = (Facing.FRONT, Facing.FLANK45, Facing.FLANK90, Facing.FLANK135, Facing.REAR)


@pytest.mark.parametrize("table", sorted(PRINTED))
def test_full_strength_rating_is_the_printed_value(rules2: RuleSet, table: str) -> None:
    formation, rf, rows = PRINTED[table]
    for kind, values in rows.items():
        d = new_division(1, kind, rules2)
        got = tuple(
            rating(d, rules2, formation=formation, facing=f, regiments_facing=rf).value
            for f in FACINGS
        )
        assert got == values, (table, kind)


def test_types_without_printed_rows_get_their_derivation(rules2: RuleSet) -> None:
    sau = new_division(1, "сау.д.", rules2)
    assert rating(sau, rules2).value == 3  # 9.6 / table 8
    assert rating(sau, rules2, facing=Facing.FLANK90).value == pytest.approx(
        0.9 + 0.2 + 0.2 * 2 + 0
    )
    ad = new_division(1, "а.д.", rules2)
    front = rating(ad, rules2).value
    assert front == 0.4
    for f in FACINGS[1:]:
        assert rating(ad, rules2, facing=f).value <= front  # never stronger in the flank


def test_losses_reduce_the_rating_through_the_regiments(rules2: RuleSet) -> None:
    td = new_division(5, "т.д.", rules2)
    half_motor = td.with_strengths((1, 0.5, 1, 1))
    # flank 90: tank direct 0.65, motorised support 0.2*0.5, tank support 0.3, artillery direct 0.1
    r = rating(half_motor, rules2, facing=Facing.FLANK90)
    assert r.value == pytest.approx(0.65 + 0.1 + 0.3 + 0.1)
    # front: 2*0.65 + 0.4*0.5 + 0.3 = 1.8
    assert rating(half_motor, rules2).value == pytest.approx(1.8)
    assert rating(td.with_strengths(0.0), rules2).value == 0


def test_losses_scale_a_printed_value_that_differs_from_the_derivation(rules2: RuleSet) -> None:
    cd = new_division(3, "кав.д.", rules2)
    full = rating(cd, rules2, facing=Facing.FLANK45)
    assert full.value == 0.25
    assert any("prints 0.25" in s.label.en for s in full.explanation.walk())
    half = rating(cd.with_strengths(0.5), rules2, facing=Facing.FLANK45)
    assert half.value == pytest.approx(0.125)


def test_level_1_rating_ignores_formation_and_facing(rules1: RuleSet) -> None:
    for kind, value in (
        ("с.д.", 1),
        ("т.д.", 2),
        ("м.д.", 1.5),
        ("сау.д.", 3),
        ("пт.д.", 0.9),
        ("а.д.", 0.4),
    ):
        d = new_division(1, kind, rules1)
        for f in FACINGS:
            assert rating(d, rules1, formation=Formation.SUPPORTING, facing=f).value == value
    d = new_division(1, "с.д.", rules1).with_strengths(0.5)
    r = rating(d, rules1, facing=Facing.REAR)
    assert r.value == 0.5
    assert r.explanation.find("9.6")[-1].value == 1  # the initial rating looked up


def test_explanation_lists_each_regiment_and_the_tables_used(rules2: RuleSet) -> None:
    td = new_division(7, "т.д.", rules2)
    r = rating(td, rules2, facing=Facing.FLANK90)
    e = r.explanation
    assert e.value == r.value == 1.25 and e.rule == "9.6"
    regiment_steps = [s for s in e.children if s.rule == "table 7"]
    assert [s.value for s in regiment_steps] == [0.65, 0.2, 0.3, 0.1]
    lookups = [s for s in e.walk() if s.kind == "lookup"]
    assert {s.rule for s in lookups} >= {"table 7", "table 9-1", "9.6"}
    printed = [s for s in lookups if s.rule == "table 9-1"]
    assert printed and printed[0].value == 1.25
    text = "\n".join(explanation_text(e, "en"))
    assert "TR (line 1, direct)" in text and "= 1.25" in text
    ru = "\n".join(explanation_text(e, "ru"))
    assert "Рейтинг 7 т.д." in ru
    html = explanation_html(e, "en")
    assert "<details" in html and "table 9-1" in html and "1.25" in html
    assert json.loads(json.dumps(e.to_json()))["value"] == 1.25


def test_explanation_marks_reconstructed_values(rules2: RuleSet) -> None:
    r = rating(new_division(1, "с.д.", rules2), rules2)
    (printed,) = [s for s in r.explanation.walk() if s.rule == "table 9-1"]
    assert printed.note is not None and "reconstructed" in printed.note.en


def test_support_rating(rules2: RuleSet) -> None:
    expected = {
        "rifle": 0.4,
        "tank": 0.3,
        "motorised": 0.3,
        "sp_gun": 0.6,
        "artillery": 2.0,
        "anti_tank": 0,
        "cavalry": 0.05,
    }
    for kind, value in expected.items():
        assert support_rating(new_division(1, kind, rules2), rules2).value == pytest.approx(
            value
        ), kind
    ad = new_division(101, "а.д.", rules2).with_strengths((1, 1, 1, 1, 0.5))
    s = support_rating(ad, rules2)
    assert s.value == pytest.approx(1.2 + 0.4)
    assert len([c for c in s.explanation.children if c.rule == "table 7"]) == 4


@pytest.mark.parametrize("kind", list(DivisionKind))
@pytest.mark.parametrize("formation", list(Formation))
@pytest.mark.parametrize("rf", list(RegimentsFacing))
def test_every_type_formation_and_facing_is_derived_and_explained(
    rules2: RuleSet, kind: DivisionKind, formation: Formation, rf: RegimentsFacing
) -> None:
    d = new_division(1, kind, rules2)
    front = rating(d, rules2, formation=formation, regiments_facing=rf).value
    for f in FACINGS:
        r = rating(d, rules2, formation=formation, facing=f, regiments_facing=rf)
        assert 0 <= r.value <= front + 1e-9 or kind is DivisionKind.ARTILLERY
        assert r.explanation.value == r.value
        assert len(r.explanation.children) >= len(d.regiments)
