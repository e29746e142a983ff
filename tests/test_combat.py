"""Combat and artillery (chapter 9): battles worked by hand from the tables, and the seed's example."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from strategia.core.geometry import Cell, Direction
from strategia.engine.apply import advance, apply
from strategia.engine.artillery import efficiency, in_range
from strategia.engine.battle import side_hit
from strategia.engine.result import OrderError
from strategia.engine.state import GameState, initial_state
from strategia.explain.trace import Step
from strategia.notation.orders import Attack, Defence, Strike, parse_order
from strategia.notation.refs import UnitRef
from strategia.rules import load_ruleset
from strategia.rules.kinds import Facing
from strategia.theatre.builder import ScenarioBuilder

R = {lvl: load_ruleset(level=lvl) for lvl in (1, 2, 3)}


def ref(text: str) -> UnitRef:
    return UnitRef.parse(text)


def board(
    red: list[str],
    blue: list[str],
    level: int = 2,
    relief: str = "plain",
    at: tuple[int, int] = (7, 3),
    **kw: str,
) -> GameState:
    b = (
        ScenarioBuilder.blank(14, 7)
        .state("R", "Красные", "red", lon=(1, 6))
        .state("B", "Синие", "blue", lon=(7, 14))
    )
    if relief != "plain":
        b = b.paint(relief, lon=at[0], lat=at[1])
    for what, arg in kw.items():
        b = getattr(b, what.rstrip("_0123456789"))(*arg.split("|"))
    b = b.place("R", *red).place("B", *blue)
    return initial_state(b.build(), level)


def strength(state: GameState, text: str) -> float:
    u = state.units.get(ref(text))
    return 0.0 if u is None else u.division.strength


def losses(result_expl: Step) -> dict[str, float]:
    (group,) = [s for s in result_expl.children if s.label.en == "Losses"]
    return {
        s.label.ru.split(" теряет")[0]: float(s.value)
        for s in group.children
        if s.value is not None
    }  # type: ignore[arg-type]


# --- the loss rule worked by hand ---------------------------------------------------------------


def test_equal_forces_each_lose_half() -> None:
    st = board(["1 с.д. - 6,3 фронтом на восток"], ["101 с.д. - 7,3 фронтом на запад"], level=1)
    new, res = apply(st, parse_order("удар по 7,3: 1 с.д.", st), R[1], side="red")
    # A = D = 1; exchange 0.5 a turn: each loses 0.5 of its rating (loss_rule)
    assert losses(res.explanation) == {"1 с.д.": 0.5, "101 с.д.": 0.5}
    assert strength(new, "1 с.д.") == pytest.approx(0.5) and strength(
        new, "101 с.д."
    ) == pytest.approx(0.5)
    assert res.outcome.en == "7,3 holds"


def test_two_to_one_destroys_the_defender_for_a_quarter() -> None:
    st = board(
        ["1 с.д. - 6,3 фронтом на восток", "2 с.д. - 6,2 фронтом на восток"],
        ["101 с.д. - 7,3 фронтом на запад"],
        level=1,
    )
    new, res = apply(st, parse_order("удар по 7,3: 1 с.д., 2 с.д.", st), R[1])
    # A = 2, D = 1: the defender is destroyed after 1/(0.5*2) = 1 turn; the attackers lose 0.5*1 = 0.5 of 2
    assert ref("101 с.д.") not in new.units
    assert losses(res.explanation)["1 с.д."] == pytest.approx(0.25)
    assert "taken" in res.outcome.en


@pytest.mark.parametrize(
    "relief, factor", [("forest", 1.1), ("hills", 1.2), ("swamp", 1.5), ("mountains", 2.0)]
)
def test_terrain_multiplies_the_defender_9_8b(relief: str, factor: float) -> None:
    st = board(
        ["1 с.д. - 6,3 фронтом на восток"],
        ["101 с.д. - 7,3 фронтом на запад"],
        level=2,
        relief=relief,
    )
    _, res = apply(st, parse_order("удар по 7,3: 1 с.д.", st), R[2])
    # D_eff = 1 × factor; the defender loses 0.5 of its effective rating factor: 0.5 / factor of itself
    assert losses(res.explanation)["101 с.д."] == pytest.approx(0.5 / factor, abs=1e-5)
    assert losses(res.explanation)["1 с.д."] == pytest.approx(0.5 * factor)
    cited = [s for s in res.explanation.walk() if s.kind == "lookup" and s.rule == "9.8b"]
    assert cited and cited[0].value == factor


def test_a_river_multiplies_the_defender_by_1_7() -> None:
    st = board(
        ["1 с.д. - 6,3 фронтом на восток"],
        ["101 с.д. - 7,3 фронтом на запад"],
        level=1,
        river="6.5,0.5 6.5,7.5",
    )
    _, res = apply(st, parse_order("удар по 7,3: 1 с.д.", st), R[1])
    assert losses(res.explanation)["101 с.д."] == pytest.approx(0.5 / 1.7, abs=1e-5)


def test_anti_tank_triples_against_tanks() -> None:
    st = board(["5 т.д. - 6,3 фронтом на восток"], ["161 пт.д. - 7,3 фронтом на запад"], level=2)
    _, res = apply(st, parse_order("удар по 7,3: 5 т.д.", st), R[2])
    defender = [s for s in res.explanation.walk() if s.label.en == "Defender"][0]
    assert defender.value == pytest.approx(0.9 * 3)
    st = board(["5 с.д. - 6,3 фронтом на восток"], ["161 пт.д. - 7,3 фронтом на запад"], level=2)
    _, res = apply(st, parse_order("удар по 7,3: 5 с.д.", st), R[2])
    assert [s for s in res.explanation.walk() if s.label.en == "Defender"][
        0
    ].value == pytest.approx(0.9)


@pytest.mark.parametrize(
    "attacker, side, rating",
    [
        ("6,3", Facing.FRONT, 1.0),
        ("7,4", Facing.FLANK90, 0.5),
        ("8,3", Facing.REAR, 0.4),
        ("6,4", Facing.FLANK45, 0.9),
    ],
)
def test_the_side_the_blow_lands_on(attacker: str, side: Facing, rating: float) -> None:
    facing = "восток" if attacker != "7,4" else "юг"
    st = board(
        [f"1 с.д. - {attacker} фронтом на {facing}"], ["101 с.д. - 7,3 фронтом на запад"], level=2
    )
    a = st.unit(ref("1 с.д."))
    assert side_hit(Direction.W, Cell(7, 3), a.cell) is side
    st = st.with_units([replace(a, facing=Direction.from_delta(*a.cell.offset(Cell(7, 3))))])
    _, res = apply(st, parse_order("удар по 7,3: 1 с.д.", st), R[2])
    defender = [s for s in res.explanation.walk() if s.label.en == "Defender"][0]
    assert defender.value == pytest.approx(rating)  # table 9-1 for с.д.


def test_echelons_enter_when_one_side_is_destroyed_9_8c() -> None:
    st = board(
        [
            "1 т.д. - 6,3 фронтом на восток",
            "2 т.д. - 6,2 фронтом на восток",
            "3 т.д. - 6,4 фронтом на восток",
        ],
        ["101 с.д. - 7,3 фронтом на запад", "102 с.д. - 8,3 фронтом на запад"],
        level=1,
    )
    order = parse_order("удар по 7,3: 1 т.д., 2 т.д., 3 т.д. // оборона: 101 с.д.; 102 с.д.", st)
    new, res = apply(st, order, R[1])
    rounds = [s for s in res.explanation.walk() if s.label.en.startswith("round")]
    assert len(rounds) == 2
    # round 1: A = 6, D = 1: the first echelon lasts 1/(0.5*6) = 1/3 of the turn
    assert rounds[0].value == pytest.approx(1 / 3)
    assert ref("101 с.д.") not in new.units
    # the attackers lost 0.5 × 1 × 1/3 = 1/6 in round 1; round 2 against the second echelon (D = 1)
    # lasts 1 / (0.5 × (6 - 1/6)) of the turn, and destroys it
    assert (
        rounds[1].value == pytest.approx(1 / (0.5 * (6 - 1 / 6)), abs=1e-5)
        and ref("102 с.д.") not in new.units
    )


def test_support_by_a_neighbour_level_2() -> None:
    st = board(
        ["1 с.д. - 6,3 фронтом на восток", "51 а.д. - 6,4 фронтом на восток"],
        ["101 с.д. - 7,3 фронтом на запад"],
        level=2,
    )
    _, res = apply(st, parse_order("удар по 7,3: 1 с.д. при поддержке 51 а.д.", st), R[2])
    attacker = [s for s in res.explanation.walk() if s.label.en == "Attacker"][0]
    assert attacker.value == pytest.approx(1 + 2)  # а.д.'s support rating 2 (table 8)
    _, res = apply(st, parse_order("удар по 7,3: 1 с.д. при поддержке 51 а.д.", st), R[1])
    assert [s for s in res.explanation.walk() if s.label.en == "Attacker"][
        0
    ].value == pytest.approx(1)


def test_retreat_and_pursuit_9_8a() -> None:
    st = board(["1 т.д. - 6,3 фронтом на восток"], ["101 с.д. - 7,3 фронтом на запад"], level=2)
    new, _ = apply(st, parse_order("удар по 7,3: 1 т.д. // отход", st), R[2])
    assert new.unit(ref("101 с.д.")).cell.lon == 8
    assert new.unit(ref("1 т.д.")).cell == Cell(7, 3)  # 2/3 of 30 km: it may advance 20 km
    st = board(["1 с.д. - 6,3 фронтом на восток"], ["101 с.д. - 7,3 фронтом на запад"], level=2)
    new, _ = apply(st, parse_order("удар по 7,3: 1 с.д. // отход", st), R[2])
    assert new.unit(ref("1 с.д.")).cell == Cell(6, 3)  # 2/3 of 10 km: not as far as the next cell


def test_encircled_defender_cannot_retreat() -> None:
    red = [
        f"{n} с.д. - {c} фронтом на восток"
        for n, c in (
            (1, "6,2"),
            (2, "6,3"),
            (3, "6,4"),
            (4, "7,2"),
            (5, "7,4"),
            (6, "8,2"),
            (7, "8,3"),
            (8, "8,4"),
        )
    ]
    st = board(red, ["101 с.д. - 7,3 фронтом на запад"], level=2)
    new, res = apply(st, parse_order("удар по 7,3: 2 с.д. // отход", st), R[2])
    assert any(c.rule == "9.19" for c in res.cuts)
    assert strength(new, "101 с.д.") < 1


def test_artillery_and_marching_units_cannot_attack() -> None:
    st = board(
        ["51 а.д. - 6,3 фронтом на восток", "1 с.д. - 6,2 фронтом на восток"],
        ["101 с.д. - 7,3"],
        level=2,
    )
    _, res = apply(st, parse_order("удар по 7,3: 51 а.д., 1 с.д.", st), R[2])
    assert res.cuts[0].rule == "9.8" and "cannot strike" in res.cuts[0].reason.en
    u = st.unit(ref("1 с.д."))
    st2 = st.with_units([replace(u, on_march=True)])
    _, res = apply(st2, parse_order("удар по 7,3: 1 с.д.", st2), R[2])
    assert res.cuts[0].rule == "4.8" and res.outcome.en == "no battle"


def test_not_adjacent_and_no_enemy() -> None:
    st = board(["1 с.д. - 4,3 фронтом на восток"], ["101 с.д. - 7,3"], level=2)
    with pytest.raises(OrderError, match="none of 1 RD stands beside 7,3"):  # issue 24
        apply(st, parse_order("удар по 7,3: 1 с.д.", st), R[2])
    # a blow on an empty cell is a move into it (1.6: no free probing); the mediator sees why
    new, res = apply(st, parse_order("удар по 5,3: 1 с.д.", st), R[2])
    assert new.unit(ref("1 с.д.")).cell == Cell(5, 3)
    assert "no enemy in 5,3: the attack is carried out as a move" in res.cuts[0].reason.en
    assert res.outcome.en == "1 RD - 5,3 facing E"


def test_march_halves_and_not_combat_capable_quarters_the_defender() -> None:
    st = board(["1 с.д. - 6,3 фронтом на восток"], ["101 с.д. - 7,3 фронтом на запад"], level=2)
    d = st.unit(ref("101 с.д."))
    for change, factor in ((dict(on_march=True), 0.5), (dict(combat_capable=False), 0.25)):
        s2 = st.with_units([replace(d, **change)])
        _, res = apply(s2, parse_order("удар по 7,3: 1 с.д.", s2), R[2])
        assert [s for s in res.explanation.walk() if s.label.en == "Defender"][
            0
        ].value == pytest.approx(factor)


def test_fortress_and_town_reconstructed() -> None:
    st = board(
        ["1 с.д. - 6,3 фронтом на восток"],
        ["101 с.д. - 7,3 фронтом на запад"],
        level=2,
        fortress="7,3",
    )
    _, res = apply(st, parse_order("удар по 7,3: 1 с.д.", st), R[2])
    assert [s for s in res.explanation.walk() if s.label.en == "Defender"][
        0
    ].value == pytest.approx(2)
    notes = [s.note.en for s in res.explanation.walk() if s.note is not None and s.rule == "9.5"]
    assert any("reconstructed" in n for n in notes)


def test_war_begins_when_a_border_is_crossed_9_1() -> None:
    b = (
        ScenarioBuilder.blank(14, 7)
        .state("R", "Красные", "red", lon=(1, 6))
        .state("B", "Синие", "blue", lon=(7, 10))
        .state("G", "Зеленые", "green", lon=(11, 14))
    )
    st = initial_state(
        b.place("R", "1 т.д. - 6,3 фронтом на восток").place("G", "201 с.д. - 13,6").build(), 2
    )
    assert not st.at_war
    new, _ = apply(st, parse_order("1 т.д. на 7,3", st), R[2])
    assert new.at_war and new.at_war_between("R", "B") and not new.at_war_between("R", "G")
    new = replace(new, units=new.units)
    u = new.unit(ref("1 т.д."))
    new = new.with_units([replace(u, cells=(Cell(10, 3),), spent=0.0)])
    after, res = apply(new, parse_order("1 т.д. на 11,3", new), R[2])
    assert after.at_war_between("R", "G")  # the neutral joins against the violator
    assert any("neutral" in s.label.en for s in res.explanation.walk())


# --- artillery ----------------------------------------------------------------------------------


def test_seed_example_two_rifle_divisions_under_a_strike_lose_one() -> None:
    """9.7d: Blue strikes 22-10 where two Red с.д. stand in the open: losses one с.д."""
    b = (
        ScenarioBuilder.blank(30, 14)
        .state("R", "Красные", "red", lat=(1, 10))
        .state("B", "Синие", "blue", lat=(11, 14))
    )
    b = b.place("R", "1 с.д. - 22,10", "2 с.д. - 22,9", "3 с.д. - 22,11").place(
        "B", "151 а.д. - 22,12"
    )
    st = initial_state(b.build(), 1)
    st = st.with_units([replace(st.unit(ref("2 с.д.")), cells=(Cell(22, 10),))])  # both in 22-10
    st = st.with_units([replace(st.unit(ref("3 с.д.")), cells=(Cell(21, 3),))])
    before = sum(u.division.strength for u in st.occupants(Cell(22, 10)))
    new, res = apply(st, parse_order("151 а.д. огонь по 22,10", st), R[1], side="blue")
    after = sum(u.division.strength for u in new.occupants(Cell(22, 10)))
    assert before - after == pytest.approx(1.0)  # one с.д.'s worth
    assert "losses 1 division" in res.outcome.en


def test_seed_example_interdiction_costs_a_tank_corps_one_division() -> None:
    b = (
        ScenarioBuilder.blank(30, 14)
        .state("R", "Красные", "red", lat=(1, 10))
        .state("B", "Синие", "blue", lat=(11, 14))
    )
    b = b.corps("R", "2 т.к.", "21 т.д.", "22 т.д.").place(
        "R", "2 т.к. расположен между 20-10 и 21-10 фронтом на восток"
    )
    b = b.place("B", "151 а.д. - 22,13")
    st = initial_state(b.build(), 1)
    st, res = apply(st, parse_order("151 а.д. огонь на отсечение 22,11", st), R[1], side="blue")
    assert st.interdictions and st.interdictions[0].loss == 0.5
    st, _ = advance(st, R[1])
    for d in ("21 т.д.", "22 т.д."):
        u = st.unit(ref(d))
        st = st.with_units([replace(u, facing=Direction.NE)])
    st, res = apply(st, parse_order("22 т.д. на 23,11 через 22,11", st), R[1])
    assert any(s.rule == "9.7d" for s in res.explanation.walk())
    st, res = apply(st, parse_order("21 т.д. на 22,11", st), R[1])
    total = strength(st, "21 т.д.") + strength(st, "22 т.д.")
    assert total == pytest.approx(1.0)  # the corps of two т.д. lost one


@pytest.mark.parametrize(
    "relief, share",
    [("plain", 0.5), ("forest", 0.4), ("hills", 0.4), ("swamp", 0.34), ("mountains", 0.2)],
)
def test_strike_by_terrain_9_7a(relief: str, share: float) -> None:
    st = board(["51 а.д. - 5,3 фронтом на восток"], ["101 с.д. - 7,3"], level=2, relief=relief)
    new, _ = apply(st, parse_order("51 а.д. огонь по 7,3", st), R[2])
    eff = 1.1  # table 11: +20 km, +0 km -> 85%? no: dx 2 cells = +20 km, dy 0: 85%
    eff = R[2].value("artillery_range", "dy0", "dx20") / 100
    assert 1 - strength(new, "101 с.д.") == pytest.approx(min(1.0, share * eff))


def test_strike_on_a_town_and_a_fortress() -> None:
    st = board(["51 а.д. - 5,3 фронтом на восток"], ["101 с.д. - 7,3"], level=1, city="Город|7,3")
    new, _ = apply(st, parse_order("51 а.д. огонь по 7,3", st), R[1])
    assert strength(new, "101 с.д.") == pytest.approx(0.66)
    st = board(["51 а.д. - 5,3 фронтом на восток"], ["101 с.д. - 7,3"], level=2, fortress="7,3")
    new, _ = apply(st, parse_order("51 а.д. огонь по 7,3", st), R[2])
    assert 1 - strength(new, "101 с.д.") == pytest.approx(0.25 * 0.85)  # table 11: +20 km, +0: 85%


def test_range_and_efficiency_by_level() -> None:
    # 9.7a: table 2's distance: (3,1) is 3.16 cells, rounded 3: 30 km; (3,2) 3.6 -> 3.5: 35 km
    assert in_range(Cell(1, 1), Cell(4, 2), R[1]) and not in_range(Cell(1, 1), Cell(4, 3), R[1])
    assert not in_range(Cell(1, 1), Cell(5, 1), R[1])
    assert efficiency(Cell(1, 1), Cell(1, 1), R[1]) == 1.0
    assert efficiency(Cell(1, 1), Cell(1, 1), R[2]) == pytest.approx(1.2)
    assert efficiency(Cell(1, 1), Cell(3, 2), R[2]) == pytest.approx(0.80)
    assert efficiency(Cell(1, 1), Cell(4, 1), R[3]) == pytest.approx((-900 / 15 - 10 + 120) / 100)
    st = board(["51 а.д. - 2,3 фронтом на восток"], ["101 с.д. - 7,3"], level=1)
    with pytest.raises(
        OrderError, match="7,3 is 50 km from 51 AD at 2,3; artillery fires at most 30 km"
    ):
        apply(st, parse_order("51 а.д. огонь по 7,3", st), R[1])
    st = initial_state(st.scenario, 2)  # level 2: table 11 has no column for +50 km
    with pytest.raises(OrderError, match=r"7,3 is \+50 km, \+0 km from 51 AD at 2,3: table 11"):
        apply(st, parse_order("51 а.д. огонь по 7,3", st), R[2])


def test_no_fire_on_units_in_contact_9_7b() -> None:
    st = board(
        ["1 с.д. - 6,3 фронтом на восток", "51 а.д. - 5,3 фронтом на восток"],
        ["101 с.д. - 7,3"],
        level=1,
    )
    new, res = apply(st, parse_order("51 а.д. огонь по 7,3", st), R[1])
    assert new == st and res.cuts[0].rule == "9.7b"
    st2 = initial_state(st.scenario, 2)
    new, res = apply(st2, parse_order("51 а.д. огонь по 7,3", st2), R[2])
    assert new == st2 and "asks again" in res.cuts[0].reason.en
    new, res = apply(st2, parse_order("51 а.д. огонь по 7,3 (подтверждено)", st2), R[2])
    # confirmed, «the forces of all sides there» (9.7b): 101 с.д. in the cell and 1 с.д. in
    # contact beside it, both on open ground at +20 km (table 11: 85%): 0.5 × 0.85 = 0.425 lost
    assert strength(new, "101 с.д.") == pytest.approx(0.575)
    assert strength(new, "1 с.д.") == pytest.approx(0.575)
    assert strength(new, "51 а.д.") == 1


def test_road_and_bridge_strikes_close_them_9_7c() -> None:
    st = board(
        ["51 а.д. - 5,3 фронтом на восток"],
        ["101 с.д. - 9,5"],
        level=2,
        road="1,3 12,3",
        river="7.5,0.5 7.5,7.5",
    )
    new, _ = apply(st, parse_order("51 а.д. огонь по дороге 6,3", st), R[2])
    kinds = {(c.what, c.until_turn) for c in new.closures}
    assert kinds == {("road-transfer", st.turn + 4), ("road-movement", st.turn + 1)}
    new, _ = apply(st, parse_order("51 а.д. огонь по мосту 7,3", st), R[2])
    assert {(c.what, c.until_turn) for c in new.closures} == {("bridge", st.turn + 6)}
    _, res = apply(st, parse_order("51 а.д. огонь по мосту 6,5", st), R[2])
    assert "no bridge" in res.cuts[0].reason.en


def test_only_artillery_strikes() -> None:
    st = board(["1 с.д. - 5,3 фронтом на восток"], ["101 с.д. - 7,3"], level=2)
    with pytest.raises(OrderError, match="only an artillery division"):
        apply(st, Strike(ref("1 с.д."), Cell(7, 3)), R[2])


def test_combat_orders_round_trip() -> None:
    st = board(
        ["1 с.д. - 6,3 фронтом на восток", "2 с.д. - 6,2 фронтом на восток", "51 а.д. - 5,3"],
        ["101 с.д. - 7,3", "102 с.д. - 8,3"],
        level=2,
    )
    for text in (
        "удар по 7,3: 1 с.д., 2 с.д.",
        "удар по 7,3: 1 с.д.; 2 с.д. при поддержке 51 а.д.",
        "удар по 7,3: 1 с.д. // оборона: 101 с.д.; 102 с.д.",
        "удар по 7,3: 1 с.д. // отход",
        "51 а.д. огонь по 7,3",
        "51 а.д. огонь на отсечение 8,3",
        "51 а.д. огонь по дороге 8,3 (подтверждено)",
    ):
        o = parse_order(text, st)
        assert str(o) == text
        assert parse_order(o.format("en"), st) == o
    a = parse_order("attack 7,3: 1 RD; 2 RD supported by 51 AD // defend: 101 RD", st)
    assert (
        isinstance(a, Attack)
        and a.echelons == ((ref("1 с.д."),), (ref("2 с.д."),))
        and a.defence == Defence(((ref("101 с.д."),),))
    )


def test_cli_battle_what_if(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from strategia.cli import main
    from strategia.theatre.scenario_io import save_scenario

    st = board(
        ["1 с.д. - 6,3 фронтом на восток", "51 а.д. - 6,4 фронтом на восток"],
        ["101 с.д. - 7,3 фронтом на запад"],
        level=2,
    )
    path = save_scenario(st.scenario, tmp_path / "s.toml")
    assert main(["battle", str(path), "--attack", "удар по 7,3: 1 с.д.", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["explanation"]["rule"] == "9.8" and {a["unit"] for a in data["after"]} == {
        "1 с.д.",
        "101 с.д.",
    }
    assert main(["battle", str(path), "--attack", "удар по 7,3: 51 а.д.", "--lang", "ru"]) == 0
    out = capsys.readouterr().out
    assert "боя нет" in out and "артиллерия" in out
    assert main(["battle", str(path), "--attack", "1 с.д. на 6,4", "--lang", "en"]) == 2
    assert "not an attack or a strike" in capsys.readouterr().err


def test_a_road_closed_by_fire_stops_transfers_9_7c() -> None:
    b = (
        ScenarioBuilder.blank(60, 5)
        .state("R", "К", "red", lon=(1, 35))
        .state("B", "С", "blue", lon=(36, 60))
    )
    b = (
        b.city("A", "2,3")
        .city("B", "35,3")
        .road("2,3 40,3")
        .place("R", "5 с.д. - 2,3 фронтом на восток")
        .place("B", "151 а.д. - 37,3")
    )
    start = initial_state(b.build(), 1)
    st, _ = apply(start, parse_order("151 а.д. огонь по дороге 38,3", start), R[1])
    assert st.closures
    _, res = apply(st, parse_order("5 с.д. переброска в 35,3", st), R[1])
    assert not res.cuts  # the closed stretch is beyond the route
    st, _ = apply(start, parse_order("151 а.д. огонь по дороге 34,3", start), R[1])
    new, res = apply(st, parse_order("5 с.д. переброска в 35,3", st), R[1])
    assert new == st and "closed at 34,3" in res.cuts[0].reason.en


def test_a_blow_on_a_counter_whose_tail_lies_on_the_attacker_s_cell() -> None:
    """A 1x2 defender whose tail lies on the attacker's cell (as an enemy's last-known cells
    may in a computer player's what-if, issue 26): the attacker strikes it in the front, not
    from a zero step (which no direction has)."""
    st = board(["1 т.д. - 6,3 фронтом на восток"], ["101 с.д. - 7,3 фронтом на запад"])
    held = st.unit(ref("101 с.д."))
    st = st.with_units([replace(held, cells=(Cell(7, 3), Cell(6, 3)))])
    new, res = apply(st, parse_order("удар по 7,3: 1 т.д.", st), R[2], side="red")
    assert res.battle is not None and res.battle.outcome in ("taken", "held", "beaten_off")
    assert res.battle.units[1].blows[0].side == "front"
