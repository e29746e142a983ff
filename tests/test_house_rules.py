"""House rules (0.3): overrides validated, every problem reported at once, overrides recorded."""

from __future__ import annotations

from pathlib import Path

import pytest

from strategia.core.errors import RuleDataError
from strategia.explain.trace import explain
from strategia.rules import load_ruleset
from strategia.rules.sheet import sheet_json, sheet_text


def _house(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "house.toml"
    p.write_text(text, encoding="utf-8")
    return p


def test_override_changes_the_value_and_is_recorded(tmp_path: Path) -> None:
    house = _house(
        tmp_path,
        """
[ruleset]
name = "continental"
[movement.hills]
tank = 25
[march]
bonus_km = { value = 15, note = "agreed before the game" }
""",
    )
    rules = load_ruleset(level=2, house=house)
    assert rules.value("movement", "hills", "tank") == 25
    assert rules.value("march", "bonus_km") == 15.0
    over = {p.key: p for p in rules.overridden()}
    assert set(over) == {"movement.hills.tank", "march.bonus_km"}
    assert over["movement.hills.tank"].overridden.previous == 20  # type: ignore[union-attr]
    assert over["march.bonus_km"].overridden.note == "agreed before the game"  # type: ignore[union-attr]
    assert str(house) in rules.sources
    # the base ruleset is untouched
    assert load_ruleset(level=2).value("movement", "hills", "tank") == 20


def test_overridden_values_are_marked_on_the_sheet_and_in_lookups(tmp_path: Path) -> None:
    house = _house(tmp_path, "[movement.hills]\ntank = 25\n")
    rules = load_ruleset(level=2, house=house)
    text = sheet_text(rules)
    assert "25[h]" in text and "was 20" in text
    cells = {
        (e["key"], r["key"]): r["cells"] for e in sheet_json(rules)["entries"] for r in e["rows"]
    }
    assert cells[("movement", "hills")]["tank"]["overridden"]["previous"] == 20
    with explain("lookup") as ex:
        rules.value("movement", "hills", "tank")
    (step,) = ex.freeze().children
    assert step.note is not None and "house rule" in step.note.en and "was 20" in step.note.en


def test_every_problem_is_reported_at_once(tmp_path: Path) -> None:
    house = _house(
        tmp_path,
        """
[ruleset]
name = "tactical"
[movment.hills]
tank = 25
[movement.hils]
tank = 25
[movement.hills]
tenk = 25
rifle = "fast"
motorised = 500
[march]
bonus_km = "ten"
[battle.defender_forest]
x = 1
""",
    )
    with pytest.raises(RuleDataError) as info:
        load_ruleset(level=2, house=house)
    err = info.value
    msgs = [str(p) for p in err.problems]
    assert str(house) in str(err)
    assert any(m.startswith("ruleset.name: is 'tactical'") for m in msgs)
    assert "movment: unknown rule entry: did you mean 'movement'?" in msgs
    assert "movement.hils: unknown row of table 4: did you mean 'hills'?" in msgs
    assert "movement.hills.tenk: unknown column of table 4: did you mean 'tank'?" in msgs
    assert any(
        m.startswith("movement.hills.rifle: expected a number or one of trails") for m in msgs
    )
    assert "movement.hills.motorised: 500 is above the largest allowed value 200" in msgs
    assert "march.bonus_km: expected a number, got 'ten'" in msgs
    assert any(m.startswith("battle.defender_forest:") for m in msgs)
    assert len(msgs) == 8


def test_wrong_type_for_a_list_and_a_pattern(tmp_path: Path) -> None:
    house = _house(
        tmp_path,
        '[compositions.rifle]\nline = ["rifle", "hussar"]\n'
        '[formation_patterns.linear]\nfront = "line=Q"\n',
    )
    with pytest.raises(RuleDataError) as info:
        load_ruleset(house=house)
    msgs = [str(p) for p in info.value.problems]
    assert "compositions.rifle.line: unknown regiment type(s) 'hussar'" in msgs
    assert any("formation_patterns.linear.front: bad role 'Q'" in m for m in msgs)


def test_broken_toml_and_missing_file(tmp_path: Path) -> None:
    bad = _house(tmp_path, "[movement.hills\ntank = 25\n")
    with pytest.raises(RuleDataError, match="house.toml: 1 problem"):
        load_ruleset(house=bad)
    with pytest.raises(RuleDataError, match="nope.toml"):
        load_ruleset(house=tmp_path / "nope.toml")


def test_house_rules_apply_in_order(tmp_path: Path) -> None:
    a = tmp_path / "a.toml"
    b = tmp_path / "b.toml"
    a.write_text("[movement.plain]\ntank = 35\n")
    b.write_text("[movement.plain]\ntank = 40\n")
    rules = load_ruleset(house=[a, b])
    p = rules.param("movement", "plain", "tank")
    assert p.value == 40
    assert p.overridden is not None and p.overridden.previous == 35
