"""Issue 23, artillery and support: a confirmed strike on units in contact (9.7b), support
within 10 km (9.8c), the reach of a battery at each level (9.7a, table 11, the formula). Every
number is worked by hand from the seeds' text and tables in the test's docstring."""

from __future__ import annotations

import math

import pytest

from strategia.cli import main
from strategia.core.geometry import Cell
from strategia.engine.apply import apply
from strategia.engine.artillery import efficiency, in_range
from strategia.engine.result import OrderError, Result
from strategia.engine.state import GameState, initial_state
from strategia.game.accounts import side_battle
from strategia.notation import UnitRef, parse_order
from strategia.rules import load_ruleset
from strategia.rules.load import apply_house_text
from strategia.theatre.builder import ScenarioBuilder

R = {lvl: load_ruleset(level=lvl) for lvl in (1, 2, 3)}


def ref(text: str) -> UnitRef:
    return UnitRef.parse(text)


def board(
    red: list[str],
    blue: list[str],
    level: int = 2,
    forest: tuple[int, int] | None = None,
    green: list[str] = (),  # type: ignore[assignment]
) -> GameState:
    b = (
        ScenarioBuilder.blank(16, 9)
        .state("R", "К", "red", lon=(1, 6))
        .state("B", "С", "blue", lon=(7, 16))
    )
    if green:
        b = b.state("G", "З", "green", lon=(1, 6), lat=(8, 9)).place("G", *green)
    if forest is not None:
        b = b.paint("forest", lon=forest[0], lat=forest[1])
    return initial_state(b.place("R", *red).place("B", *blue).build(), level)


def strength(state: GameState, unit: str) -> float:
    u = state.units.get(ref(unit))
    return u.division.strength if u is not None else 0.0


def hit(res: Result, unit: str):  # type: ignore[no-untyped-def]
    assert res.battle is not None
    return next(u for u in res.battle.units if u.unit == unit)


# --- 9.7b: a confirmed strike on units in contact ------------------------------------------------


def _contact(level: int = 2) -> GameState:
    """Blue 101 с.д. on open ground at 7,3; Red 1 с.д. beside it at 6,3, a forest cell; Red
    2 с.д. at 5,3 (beside 1 с.д., not the target); Blue 102 с.д. at 8,3 (the target's own
    side); Red 51 а.д. at 4,3, 30 km west of the target."""
    return board(
        ["51 а.д. - 4,3", "1 с.д. - 6,3 фронтом на восток", "2 с.д. - 5,3 фронтом на восток"],
        ["101 с.д. - 7,3 фронтом на запад", "102 с.д. - 8,3 фронтом на запад"],
        level=level,
        forest=(6, 3),
    )


def test_a_confirmed_strike_hits_each_unit_in_contact_by_the_ground_of_its_own_cell() -> None:
    """9.7b (level 2): «в случае подтверждения, артиллерия уничтожает силы всех находящихся
    сторон». 51 а.д. at 4,3 fires on 7,3: offset +30 km, +0 km, table 11: 50%. 101 с.д. in the
    target cell, open ground (9.7a: 0.5 lost): 0.5 × 0.5 = 0.25, 1 → 0.75. 1 с.д. in contact
    at 6,3, forest (0.6 left, 0.4 lost): 0.4 × 0.5 = 0.2, 1 → 0.8. Not hit: 2 с.д. (not in
    contact with the target), 102 с.д. (the target's own side, not in its cell), the battery.
    Losses 0.25 + 0.2 = 0.45 divisions."""
    st = _contact()
    new, res = apply(st, parse_order("51 а.д. огонь по 7,3 (подтверждено)", st), R[2])
    assert strength(new, "101 с.д.") == pytest.approx(0.75)
    assert strength(new, "1 с.д.") == pytest.approx(0.8)
    for untouched in ("2 с.д.", "102 с.д.", "51 а.д."):
        assert strength(new, untouched) == 1.0, untouched
    assert res.outcome.en == (
        "strike on 7,3: losses 0.45 of a division (in contact, hit too: 1 RD at 6,3)"
    )
    assert res.outcome.ru == (
        "удар по 7,3: потери 0,45 дивизии (в соприкосновении поражены также: 1 с.д. в 6,3)"
    )
    # the record: each unit hit, its cell, the ground's share, strength before and after
    target, beside = hit(res, "101 с.д."), hit(res, "1 с.д.")
    assert (target.cell, target.side, target.role) == ("7,3", "blue", "defender")
    assert (beside.cell, beside.side, beside.role) == ("6,3", "red", "attacker")
    assert [(f.label.en, f.value) for f in beside.factors] == [
        ("lost by the ground (forest)", pytest.approx(0.4)),
        ("the strike's efficiency", pytest.approx(0.5)),
    ]
    assert (beside.strength_before, beside.strength_after, beside.lost) == (1.0, 0.8, 0.2)
    assert (target.strength_before, target.strength_after, target.lost) == (1.0, 0.75, 0.25)
    assert {u.unit for u in res.battle.units} == {"101 с.д.", "1 с.д."}  # type: ignore[union-attr]
    # the breakdown: a group per unit hit, with its cell, its ground and its strengths
    groups = {s.label.en: s for s in res.explanation.children if s.rule == "9.7a" and s.children}
    assert set(groups) == {"101 RD at 7,3", "1 RD at 6,3"}
    steps = [(s.label.en, s.value) for s in groups["1 RD at 6,3"].children if s.kind == "step"]
    assert steps == [
        ("lost by the ground (forest)", 0.4),
        ("× the strike's efficiency", 0.5),
        ("1 RD loses 20%: 1 → 0.8 divisions", 0.2),
    ]
    assert any("every unit in contact" in s.label.en for s in res.explanation.walk())
    assert not any("both sides" in s.label.en for s in res.explanation.walk())


def test_the_battery_beside_its_target_is_never_hit() -> None:
    """9.7b: the firing battery is not among «the sides there». 51 а.д. at 6,4 is beside the
    target 7,3 (a diagonal) and beside 1 с.д.; offset +10 km, +10 km, table 11: 100%. 101 с.д.
    (open) loses 0.5 × 1 = 0.5; 1 с.д. (forest) 0.4 × 1 = 0.4; 51 а.д. keeps all its strength."""
    st = board(
        ["51 а.д. - 6,4", "1 с.д. - 6,3 фронтом на восток"],
        ["101 с.д. - 7,3 фронтом на запад"],
        forest=(6, 3),
    )
    new, res = apply(st, parse_order("51 а.д. огонь по 7,3 (подтверждено)", st), R[2])
    assert strength(new, "101 с.д.") == pytest.approx(0.5)
    assert strength(new, "1 с.д.") == pytest.approx(0.6)
    assert strength(new, "51 а.д.") == 1.0
    assert "51 а.д." not in {u.unit for u in res.battle.units}  # type: ignore[union-attr]


def test_levels_differ_on_fire_in_contact() -> None:
    """9.7b: level 1, «artillery does not fire on units in contact», confirmed or not; level 2
    (and 3), the mediator asks again, and only a confirmed order fires. Nothing changes until
    it does."""
    st1 = _contact(level=1)
    for text in ("51 а.д. огонь по 7,3", "51 а.д. огонь по 7,3 (подтверждено)"):
        new, res = apply(st1, parse_order(text, st1), R[1])
        assert new == st1 and res.cuts[0].rule == "9.7b" and "no fire" in res.cuts[0].reason.en
    for level in (2, 3):
        st = _contact(level)
        new, res = apply(st, parse_order("51 а.д. огонь по 7,3", st), R[level])
        assert new == st and "asks again" in res.cuts[0].reason.en
        new, _ = apply(st, parse_order("51 а.д. огонь по 7,3 (подтверждено)", st), R[level])
        assert strength(new, "1 с.д.") < 1 and strength(new, "101 с.д.") < 1


def test_each_side_is_told_of_its_own_units_hit() -> None:
    """The strike's accounts (1.6): Red, whose battery fired, is told of its own 1 с.д. hit
    (0.8 left), not of the enemy it hit; Blue of its 101 с.д. only."""
    st = _contact()
    _, res = apply(st, parse_order("51 а.д. огонь по 7,3 (подтверждено)", st), R[2])
    assert res.battle is not None
    red, blue = side_battle(res.battle, "red"), side_battle(res.battle, "blue")
    assert red is not None and [(u.unit, u.strength_after) for u in red.units] == [("1 с.д.", 0.8)]
    assert blue is not None and [u.unit for u in blue.units] == ["101 с.д."]


def test_a_third_side_in_contact_is_hit_and_told() -> None:
    """«всех находящихся сторон»: every side, a neutral's troops beside the target included.
    51 а.д. at 4,7 fires on 101 с.д. at 7,8 (+30 km, +10 km: table 11, 40%) in contact with
    Red's 1 с.д. at 6,7 and Green's 201 с.д. at 6,8, all on open ground: each loses
    0.5 × 0.4 = 0.2. Green is told of its own unit; Blue is not told of Green's."""
    st = board(
        ["51 а.д. - 4,7", "1 с.д. - 6,7 фронтом на восток"],
        ["101 с.д. - 7,8 фронтом на запад"],
        green=["201 с.д. - 6,8"],
    )
    new, res = apply(st, parse_order("51 а.д. огонь по 7,8 (подтверждено)", st), R[2])
    for unit in ("101 с.д.", "1 с.д.", "201 с.д."):
        assert strength(new, unit) == pytest.approx(0.8), unit
    assert res.battle is not None and hit(res, "201 с.д.").side == "green"
    green, blue = side_battle(res.battle, "green"), side_battle(res.battle, "blue")
    assert green is not None and [u.unit for u in green.units] == ["201 с.д."]
    assert blue is not None and [u.unit for u in blue.units] == ["101 с.д."]


def test_a_house_rule_keeps_the_strike_to_the_target_cell() -> None:
    """`artillery.contact_hits_all = false` (0.3): the earlier reading, the target cell only:
    101 с.д. loses 0.25 as above, 1 с.д. in contact nothing."""
    house = apply_house_text(R[2], "[artillery]\ncontact_hits_all = false\n", "house.toml")
    st = _contact()
    new, _ = apply(st, parse_order("51 а.д. огонь по 7,3 (подтверждено)", st), house)
    assert strength(new, "101 с.д.") == pytest.approx(0.75) and strength(new, "1 с.д.") == 1.0


def test_the_reading_is_marked_in_the_rule_data() -> None:
    for row, rule in (
        ("contact_hits_all", "9.7b"),
        ("reach_by_efficiency", "9.7a"),
        ("range_km", "9.7a"),
    ):
        p = R[3].param("artillery", row)
        assert p.rule == rule and p.reconstructed and p.reconstructed_ru, row
    p = R[3].param("battle", "support_radius_km")
    assert p.rule == "9.8c" and "diagonal" in (p.reconstructed or "") and p.reconstructed_ru


# --- 9.8c: support within 10 km -------------------------------------------------------------------


def test_support_comes_from_an_orthogonal_neighbour_not_a_diagonal_one() -> None:
    """9.8c (level 2): «неатакованные дивизии могут помогать соседям, удаленным не более чем на
    10 км». Table 2: a neighbour across a side is 1 cell, 10 km; across a corner √2 = 1.41,
    rounded to 1.5 cells, 15 km. 1 с.д. at 6,3 strikes 101 с.д. at 7,3, front to front (table
    9-1: 1 each, open ground). Attack support: 52 а.д. at 5,3 (10 km: 2, table 8), 51 а.д. at
    5,4 (15 km: none). Defence support: 103 с.д. at 8,3 (10 km: 0.4, table 8), 102 с.д. at 8,4
    (15 km: none). Ratio (1 + 2) : (1 + 0.4) = 3 : 1.4 = 2.14 (the diagonals counted, it was
    5 : 1.8 = 2.78)."""
    st = board(
        ["1 с.д. - 6,3 фронтом на восток", "51 а.д. - 5,4", "52 а.д. - 5,3"],
        ["101 с.д. - 7,3 фронтом на запад", "102 с.д. - 8,4", "103 с.д. - 8,3"],
    )
    order = (
        "удар по 7,3: 1 с.д. при поддержке 51 а.д., 52 а.д. "
        "// оборона: 101 с.д. при поддержке 102 с.д., 103 с.д."
    )
    new, res = apply(st, parse_order(order, st), R[2])
    rec = res.battle
    assert rec is not None
    assert rec.attack_support == pytest.approx(2.0) and rec.defence_support == pytest.approx(0.4)
    assert (rec.attack, rec.defence) == (pytest.approx(3.0), pytest.approx(1.4))
    assert rec.ratio == pytest.approx(3 / 1.4)
    assert set(rec.supporters) == {"52 а.д.", "103 с.д."}
    cuts = [s.label.en for s in res.explanation.walk() if s.kind == "cut" and s.rule == "9.8c"]
    assert "51 AD is 15 km away (table 2), farther than 10 km" in cuts
    assert "102 RD is 15 km away (table 2), farther than 10 km" in cuts
    assert ref("51 а.д.") not in new.committed and ref("52 а.д.") in new.committed


# --- 9.7a, table 11: the reach at each level ----------------------------------------------------

BATTERY = Cell(3, 3)
OFFSETS = {"+30,+10": Cell(6, 4), "+30,+20": Cell(6, 5), "+30,+30": Cell(6, 6)}


def test_level_1_reach_is_table_2_s_distance() -> None:
    """Level 1, «не далее 30 км» by table 2 (cells apart, Euclidean, rounded to 0.5): +30/+10
    is √10 = 3.16 → 3 cells, 30 km: in reach (efficiency 1: table 11 is level 2); +30/+20 is
    √13 = 3.61 → 3.5, 35 km: out; +30/+30 is √18 = 4.24 → 4, 40 km: out."""
    assert in_range(BATTERY, OFFSETS["+30,+10"], R[1])
    assert efficiency(BATTERY, OFFSETS["+30,+10"], R[1]) == 1.0
    assert not in_range(BATTERY, OFFSETS["+30,+20"], R[1])
    assert not in_range(BATTERY, OFFSETS["+30,+30"], R[1])


@pytest.mark.parametrize(("offset", "printed"), [("+30,+10", 0.40), ("+30,+20", 0.20)])
def test_level_2_reaches_every_offset_table_11_prints(offset: str, printed: float) -> None:
    """Level 2: table 11 prints 40% at +30/+10 and 20% at +30/+20 (31.6 and 36.1 km; the
    second is 35 km by table 2, beyond level 1's 30). A с.д. on open ground there loses
    0.5 × 0.4 = 0.2 and 0.5 × 0.2 = 0.1."""
    target = OFFSETS[offset]
    assert in_range(BATTERY, target, R[2])
    assert efficiency(BATTERY, target, R[2]) == pytest.approx(printed)
    st = board(["51 а.д. - 3,3"], [f"101 с.д. - {target} фронтом на запад"])
    new, res = apply(st, parse_order(f"51 а.д. огонь по {target}", st), R[2])
    assert strength(new, "101 с.д.") == pytest.approx(1 - 0.5 * printed)
    shown = next(s for s in res.explanation.children if s.rule == "table 11")
    assert shown.label.en == "offset of the target along each axis"


@pytest.mark.parametrize(
    ("offset", "km", "percent"),
    [("+30,+10", math.sqrt(1000), 42.79), ("+30,+20", math.sqrt(1300), 21.31)],
)
def test_level_3_reaches_where_the_formula_is_above_zero(
    offset: str, km: float, percent: float
) -> None:
    """Level 3: -x²/15 - x/3 + 120 at the distance between the cells' centres. +30/+10:
    x = √1000 = 31.62 km, -66.67 - 10.54 + 120 = 42.79% (≈ table 11's 40%); +30/+20:
    x = √1300 = 36.06 km, -86.67 - 12.02 + 120 = 21.31% (≈ 20%; at a flat 36 km it would be
    21.6%). The breakdown shows the very distance the formula took."""
    target = OFFSETS[offset]
    assert in_range(BATTERY, target, R[3])
    assert efficiency(BATTERY, target, R[3]) * 100 == pytest.approx(percent, abs=0.01)
    st = board(["51 а.д. - 3,3"], [f"101 с.д. - {target} фронтом на запад"], level=3)
    new, res = apply(st, parse_order(f"51 а.д. огонь по {target}", st), R[3])
    assert strength(new, "101 с.д.") == pytest.approx(1 - 0.5 * percent / 100, abs=1e-4)
    shown = {s.label.en: s.value for s in res.explanation.children}
    assert shown["distance between the cells' centres"] == pytest.approx(km, abs=1e-4)
    assert shown["efficiency at this range"] == pytest.approx(percent / 100, abs=1e-4)
    assert "distance (table 2)" not in shown


@pytest.mark.parametrize("level", [1, 2, 3])
def test_plus_30_plus_30_is_out_of_reach_at_every_level(level: int) -> None:
    """+30/+30: table 2, 40 km (level 1); table 11's «--» (level 2); the formula at √1800 =
    42.4 km is -120 - 14.1 + 120 = -14.1% (level 3). The order is refused, saying why."""
    target = OFFSETS["+30,+30"]
    assert not in_range(BATTERY, target, R[level])
    st = board(["51 а.д. - 3,3"], [f"101 с.д. - {target} фронтом на запад"], level=level)
    why = {1: "at most 30 km", 2: "table 11 prints no efficiency", 3: "not above zero"}[level]
    with pytest.raises(OrderError, match=why):
        apply(st, parse_order(f"51 а.д. огонь по {target}", st), R[level])


def test_levels_2_and_3_reach_the_same_cells() -> None:
    """Table 11's cells (up to +30 km on each axis, not +30/+30) are the cells nearer than
    40 km, where the formula is above zero (-1600/15 - 40/3 + 120 = 0 at 40 km)."""
    around = [Cell(6 + dx, 6 + dy) for dx in range(-5, 6) for dy in range(-5, 6)]
    two = {c for c in around if in_range(Cell(6, 6), c, R[2])}
    three = {c for c in around if in_range(Cell(6, 6), c, R[3])}
    assert two == three and len(two) == 7 * 7 - 4
    assert Cell(10, 6) not in three and Cell(9, 8) in three  # 40 km out, 36.1 km in


def test_a_house_rule_brings_back_the_30_km_at_level_2() -> None:
    """`artillery.reach_by_efficiency = false`: table 2's 30 km bound level 2 too (the earlier
    reading): +30/+20 (35 km) is refused, +30/+10 (30 km) fires at table 11's 40%."""
    house = apply_house_text(R[2], "[artillery]\nreach_by_efficiency = false\n", "house.toml")
    assert not in_range(BATTERY, OFFSETS["+30,+20"], house)
    assert in_range(BATTERY, OFFSETS["+30,+10"], house)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_rules_sheet_says_the_reach_of_each_level(
    lang: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """`strategia rules --level N`: level 1, table 2's distance, no table 11 and nothing «along
    each axis»; level 2, the reach where table 11 prints an efficiency; level 3, the formula's."""
    words = {
        "en": ("range: at most (table 2's distance)", "along each axis",
               "in reach where the table prints an efficiency",
               "At level 3 a cell is in reach where it is above zero"),
        "ru": ("дальность удара: не далее (расстояние таблицы 2)", "по каждой оси",
               "клетка досягаема, если таблица дает эффективность",
               "На 3 уровне клетка досягаема, где формула больше нуля"),
    }[lang]  # fmt: skip
    sheets = {}
    for level in (1, 2, 3):
        assert main(["rules", "--level", str(level), "--lang", lang]) == 0
        sheets[level] = capsys.readouterr().out
    rng, axis, table, formula = words
    assert rng in sheets[1] and axis not in sheets[1] and table not in sheets[1]
    assert table in sheets[2] and formula not in sheets[2]
    assert formula in sheets[3]


# --- the strike's report ----------------------------------------------------------------------


def test_a_strike_s_report_names_each_unit_hit() -> None:
    """The report of the strike above (it raised KeyError 'strike' before: the console's
    battles tab and `strategia game report` could not show a strike): each unit hit with its
    cell, the ground's share and the efficiency, the share destroyed, strength before and
    after; in Russian, no Latin word outside code spans."""
    from test_russian import latin

    from strategia.game.report import battle_report
    from strategia.game.report_render import report_html, text

    st = _contact()
    _, res = apply(st, parse_order("51 а.д. огонь по 7,3 (подтверждено)", st), R[2])
    assert res.battle is not None
    ru = text(battle_report(res.battle, "ru", turn=3, explanation=res.explanation))
    assert ru.startswith("Артиллерийский удар по 7,3, ход 3. 51 а.д. (Красные) из 4,3 бьет по 7,3")
    assert "1 с.д. | Красные | 6,3 | × 0,4 потери по местности (лес) (9.7а)" in ru
    assert "1 с.д. в 6,3: потери по местности (лес) (9.7а), эффективность удара (табл. 11): " \
        "0,4 × 0,5 = 20\u00a0%; 1 → 0,8 (9.7а)." in ru  # fmt: skip
    assert not latin(ru)
    en = text(battle_report(res.battle, "en", turn=3, explanation=res.explanation))
    assert "101 RD at 7,3: lost by the ground (open ground) (9.7a)" in en and "1 → 0.75" in en
    assert "101 с.д." in report_html(res, "ru", 3)
