"""Readings that were in code only are rule data now: marked reconstructed, shown by
`strategia rules`, changeable by house rules (0.3)."""

from __future__ import annotations

import pytest

from strategia.cli import main
from strategia.engine import flow
from strategia.engine.apply import apply
from strategia.engine.state import initial_state
from strategia.notation import UnitRef, parse_order
from strategia.rules import load_ruleset
from strategia.rules.load import apply_house_text
from strategia.theatre.builder import ScenarioBuilder

R3 = load_ruleset(level=3)
R2 = load_ruleset(level=2)
READINGS = [
    ("level3_order", "phases"),
    ("level3_order", "interleave"),
    ("deployment", "cover_depth_km"),
    ("battle", "retreat_km"),
    ("turning", "turn_135"),
    ("combat_capability", "regrouping"),
    ("mobilisation_schedule", "by_table"),
    ("fortresses", "garrison_moves"),
    ("road_turn", "ground_pace"),
]


@pytest.mark.parametrize(("entry", "row"), READINGS)
def test_each_reading_is_marked_reconstructed(entry: str, row: str) -> None:
    cells = R3.entry(entry).rows[row]
    assert any(p.reconstructed for p in cells.values()), (entry, row)


def test_the_rules_sheet_lists_the_new_readings(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--level", "3", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    for words in ("Order of execution at level 3", "135°", "the defender retreats by",
                  "covering forces: within", "Mobilisation by the schedule", "Fortresses",
                  "Combat capability of a unit at work"):  # fmt: skip
        assert words in out, words


def _two_sides() -> tuple[list[tuple[str, object]], list[str]]:
    b = (
        ScenarioBuilder.blank(14, 6)
        .state("R", "К", "red", lon=(1, 7))
        .state("B", "С", "blue", lon=(8, 14))
    )
    b = b.place("R", "1 с.д. - 2,2", "2 с.д. - 2,4").place(
        "B", "101 с.д. - 12,2", "102 с.д. - 12,4"
    )
    st = initial_state(b.build(), 3)
    orders = [
        ("red", parse_order("1 с.д. на 3,2", st)),
        ("red", parse_order("2 с.д. на 3,4", st)),
        ("blue", parse_order("101 с.д. на 11,2", st)),
        ("blue", parse_order("102 с.д. на 11,4", st)),
    ]
    return orders, ["red", "blue"]  # type: ignore[return-value]


def test_level_3_order_interleaves_the_sides_or_not() -> None:
    """By default the sides take turns, one order each, Red first (1.8); a house rule
    `interleave = false` carries out each side's orders in a block."""
    orders, sides = _two_sides()
    got = [str(o.unit) for _, o in flow.resolution_order(orders, sides, R3)]  # type: ignore[attr-defined]
    assert got == ["1 с.д.", "101 с.д.", "2 с.д.", "102 с.д."]
    blocks = apply_house_text(R3, "[level3_order]\ninterleave = false\n", "house.toml")
    got = [str(o.unit) for _, o in flow.resolution_order(orders, sides, blocks)]  # type: ignore[attr-defined]
    assert got == ["1 с.д.", "2 с.д.", "101 с.д.", "102 с.д."]


def test_a_135_degree_turn_takes_the_data_s_time() -> None:
    """Reconstructed 135° = 90° + 45° = 0.75 turn; a house rule may make it a whole turn."""
    b = (
        ScenarioBuilder.blank(10, 6)
        .state("R", "К", "red")
        .place("R", "1 с.д. - 5,3 фронтом на север")
    )
    st = initial_state(b.build(), 2)
    new, res = apply(st, parse_order("1 с.д. поворот на юго-восток", st), R2)
    assert res.explanation.value == pytest.approx(0.75)
    slow = apply_house_text(R2, "[turning.turn_135]\ndefault = 1\n", "house.toml")
    new, res = apply(st, parse_order("1 с.д. поворот на юго-восток", st), slow)
    assert (
        res.explanation.value == pytest.approx(1.0) and new.unit(UnitRef.parse("1 с.д.")).left == 0
    )


def test_a_retreat_goes_as_far_as_the_data_says() -> None:
    """9.8a: the defender retreats `battle.retreat_km`: 10 km, one cell; 20 km, two."""

    def where(rules: object) -> int:
        b = (
            ScenarioBuilder.blank(14, 7)
            .state("R", "К", "red", lon=(1, 6))
            .state("B", "С", "blue", lon=(7, 14))
        )
        b = b.place("R", "1 с.д. - 6,3 фронтом на восток").place(
            "B", "101 с.д. - 7,3 фронтом на запад"
        )
        st = initial_state(b.build(), 2)
        new, _ = apply(st, parse_order("удар по 7,3: 1 с.д. // отход", st), rules)  # type: ignore[arg-type]
        return new.unit(UnitRef.parse("101 с.д.")).cell.chebyshev(
            st.unit(UnitRef.parse("101 с.д.")).cell
        )

    assert where(R2) == 1
    assert where(apply_house_text(R2, "[battle]\nretreat_km = 20\n", "house.toml")) == 2
