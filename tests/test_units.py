"""Unit kinds, names and organisation (table 1)."""

from __future__ import annotations

import pytest

from strategia.core.errors import StrategiaError, UnknownNameError
from strategia.rules import RuleSet
from strategia.rules.kinds import CorpsKind, DivisionKind, Facing, Formation, RegimentKind, Side
from strategia.rules.units import (  # noqa: F401  (names used by eval of reprs)
    Corps,
    Division,
    Regiment,
    composition,
    new_division,
)


@pytest.mark.parametrize(
    "name, kind",
    [
        ("с.д.", DivisionKind.RIFLE), ("сд", DivisionKind.RIFLE), ("ст.д.", DivisionKind.RIFLE),
        ("RD", DivisionKind.RIFLE), ("т.д.", DivisionKind.TANK), ("тд", DivisionKind.TANK),
        ("т.д", DivisionKind.TANK), ("TD", DivisionKind.TANK), ("кав. д", DivisionKind.CAVALRY),
        ("кав.д.", DivisionKind.CAVALRY), ("м.д", DivisionKind.MOTORISED), ("сау.д.", DivisionKind.SP_GUN),
        ("пт.д", DivisionKind.ANTI_TANK), ("а.д.", DivisionKind.ARTILLERY), ("AD", DivisionKind.ARTILLERY),
        ("tank", DivisionKind.TANK),
    ],
)  # fmt: skip
def test_unit_type_names(name: str, kind: DivisionKind) -> None:
    assert DivisionKind.parse(name) is kind


def test_unknown_unit_type_suggests_the_closest() -> None:
    with pytest.raises(UnknownNameError, match=r"unknown unit type 'тдд': did you mean 'т.д.'\?"):
        DivisionKind.parse("тдд")
    with pytest.raises(UnknownNameError, match=r"unknown unit type 'xyz' \(allowed: RD, rifle"):
        DivisionKind.parse("xyz")
    with pytest.raises(ValueError, match=r"unknown formation 'lin': did you mean 'linear'\?"):
        Formation.parse("lin")
    with pytest.raises(ValueError, match=r"unknown facing 'flank 60'"):
        Facing.parse("flank 60")
    assert Facing.parse("фланг 90") is Facing.FLANK90
    assert Side.parse("красные") is Side.RED


def test_compositions_follow_table_1(rules: RuleSet) -> None:
    line, arm = composition("с.д.", rules)
    assert [k.ru for k in line] == ["с.п.", "с.п.", "с.п."] and [k.ru for k in arm] == ["ап"]
    line, arm = composition("т.д.", rules)
    assert sorted(k.ru for k in line) == ["мот.п.", "т.п.", "т.п."] and [k.ru for k in arm] == [
        "ап(мот.)"
    ]
    line, arm = composition("пт.д.", rules)
    assert sorted(k.ru for k in line) == ["прт.п."] * 4 + ["сап.п."] and arm == ()
    line, arm = composition("а.д.", rules)
    assert sorted(k.key for k in line) == ["artillery"] * 3 + ["heavy_artillery", "sapper"]


def test_division_value_object(rules: RuleSet) -> None:
    d = new_division(17, "с.д.", rules)
    assert str(d) == "17 с.д."
    assert eval(repr(d)) == d
    weak = d.with_strengths((1, 0.5, 1, 1))
    assert weak.strength == pytest.approx(0.875)
    assert eval(repr(weak)) == weak
    assert d.with_strengths(0).destroyed
    with pytest.raises(StrategiaError, match=r"17 RD: 2 strengths given for 4 regiments"):
        d.with_strengths((1, 1))
    with pytest.raises(StrategiaError, match="strength 1.5 out of range"):
        Regiment(RegimentKind.RIFLE, 1.5)
    assert Regiment(RegimentKind.RIFLE, 0.5).weakened(0.7).strength == 0


def test_corps_needs_divisions() -> None:
    with pytest.raises(StrategiaError, match="2 TC: a corps needs divisions"):
        Corps(2, CorpsKind.TANK, ())
