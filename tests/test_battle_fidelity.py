"""Chapter 9, second pass: formations in battle, blows from several sides, pursuit, support,
artillery range and contact, scoring. Every number is worked by hand from the tables."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from strategia.core.geometry import Cell
from strategia.engine.apply import apply
from strategia.engine.result import OrderError, Result
from strategia.engine.state import GameState, initial_state
from strategia.game import losses
from strategia.game.channel import channel
from strategia.game.game import Game
from strategia.game.scoring import score
from strategia.notation import UnitRef, parse_order
from strategia.rules import load_ruleset
from strategia.rules.kinds import Formation, RegimentsFacing
from strategia.theatre.builder import ScenarioBuilder

R = {lvl: load_ruleset(level=lvl) for lvl in (1, 2, 3)}


def ref(text: str) -> UnitRef:
    return UnitRef.parse(text)


def board(red: list[str], blue: list[str], level: int = 2, green: list[str] = ()) -> GameState:  # type: ignore[assignment]
    b = (
        ScenarioBuilder.blank(16, 9)
        .state("R", "К", "red", lon=(1, 6))
        .state("B", "С", "blue", lon=(7, 16))
    )
    if green:
        b = b.state("G", "З", "green", lon=(1, 6), lat=(8, 9)).place("G", *green)
    return initial_state(b.place("R", *red).place("B", *blue).build(), level)


def defender_value(res: Result) -> float:
    return float(next(s for s in res.explanation.walk() if s.label.en == "Defender").value)  # type: ignore[arg-type]


def record_of(res: Result, unit: str):  # type: ignore[no-untyped-def]
    assert res.battle is not None
    return next(u for u in res.battle.units if u.unit == unit)


# --- formations are orders (9.6) -----------------------------------------------------------------


def test_a_supporting_formation_fights_by_table_10() -> None:
    """Table 10: a с.д. in the supporting formation (two regiments ahead, one behind) hit in the
    front rates 0.9 (linear: 1, table 9-1). Ordered `построение опорное` (a quarter turn,
    reconstructed from 4.3), then attacked: the defender is 0.9. The first version could not
    give the order, so table 10 never acted in battle."""
    st = board(["1 с.д. - 6,3 фронтом на восток"], ["101 с.д. - 7,3 фронтом на запад"])
    st, r = apply(st, parse_order("101 с.д. построение опорное", st), R[2])
    assert (
        st.unit(ref("101 с.д.")).formation is Formation.SUPPORTING and r.explanation.value == 0.25
    )
    _, res = apply(st, parse_order("удар по 7,3: 1 с.д.", st), R[2])
    assert defender_value(res) == pytest.approx(0.9)


def test_regiments_towards_the_front_line_use_table_9_2() -> None:
    """Table 9-2: a с.д. whose regiments face the front line, hit on its flank 90°, rates 0.25
    (table 9-1, regiments turned to the enemy: 0.5). The attacker at 7,4 stands on the flank
    (north) of 101 с.д. at 7,3 facing west."""
    st = board(["1 с.д. - 6,4 фронтом на восток"], ["101 с.д. - 7,3 фронтом на запад"])
    st = st.with_units(
        [
            replace(
                st.unit(ref("1 с.д.")),
                cells=(Cell(7, 4),),
                facing=st.unit(ref("1 с.д.")).facing.turned(2),
            )
        ]
    )
    _, res = apply(st, parse_order("удар по 7,3: 1 с.д.", st), R[2])
    assert defender_value(res) == pytest.approx(0.5)
    turned, _ = apply(st, parse_order("101 с.д. полки к линии фронта", st), R[2])
    assert turned.unit(ref("101 с.д.")).regiments is RegimentsFacing.FRONT_LINE
    _, res = apply(turned, parse_order("удар по 7,3: 1 с.д.", turned), R[2])
    assert defender_value(res) == pytest.approx(0.25)


def test_a_formation_in_the_deployment() -> None:
    st = board(
        ["1 с.д. - 6,3 фронтом на восток"], ["101 с.д. - 7,3 фронтом на запад; построение опорное"]
    )
    assert st.unit(ref("101 с.д.")).formation is Formation.SUPPORTING


# --- blows from several sides (9.5, 9.6) ---------------------------------------------------------


def test_front_and_rear_make_a_combined_blow() -> None:
    """101 с.д. at 7,3 faces west; 1 с.д. at 6,3 strikes its front, 2 с.д. at 8,3 its rear,
    each with its own front (rating 1). Struck on two sides, its regiments cannot all face the
    enemy (battle.combined_blow_front_line): front 1 (table 9-1's front, 9-2 has none), rear 0.2
    (table 9-2); each blow weighs half: 0.5 × 1 + 0.5 × 0.2 = 0.6. The first version took the
    sides from the attackers' own facings (both «front») and saw no combined blow: 1."""
    st = board(
        ["1 с.д. - 6,3 фронтом на восток", "2 с.д. - 6,5 фронтом на запад"],
        ["101 с.д. - 7,3 фронтом на запад"],
    )
    st = st.with_units([replace(st.unit(ref("2 с.д.")), cells=(Cell(8, 3),))])
    _, res = apply(st, parse_order("удар по 7,3: 1 с.д., 2 с.д.", st), R[2])
    d = record_of(res, "101 с.д.")
    assert {b.side: (b.weight, b.rating) for b in d.blows} == {
        "front": (0.5, 1.0),
        "rear": (0.5, 0.2),
    }
    assert defender_value(res) == pytest.approx(0.6)


def test_two_attackers_on_one_side_are_not_combined() -> None:
    """A 1x2 101 с.д. at 7,3-7,4 facing west, struck by 1 с.д. at 6,3 and 2 с.д. at 6,4: both
    on its front, one blow: rating 1 (table 9-1's front), not a combined blow."""
    st = board(
        ["1 с.д. - 6,3 фронтом на восток", "2 с.д. - 6,4 фронтом на восток"],
        ["101 с.д. расположена между 7-3 и 7-4 фронтом на запад"],
    )
    _, res = apply(st, parse_order("удар по 7,3: 1 с.д., 2 с.д.", st), R[2])
    d = record_of(res, "101 с.д.")
    assert [(b.side, b.weight) for b in d.blows] == [("front", 1.0)]
    assert defender_value(res) == pytest.approx(1.0)
    assert not any(s.rule == "9.5" and "combined" in s.label.en for s in res.explanation.walk())


# --- pursuit (9.8a) -----------------------------------------------------------------------------


def test_every_attacker_pursues_up_to_two_thirds_of_its_move() -> None:
    """9.8a: after a retreat each attacking division may advance 2/3 of its greatest move in that
    ground. Plain: т.д. 30 km, 2/3 = 20 km: two cells, into 7,3 and beyond to 8,3 (ordered
    `преследование до 9,3`); м.д. 30 km, 20 km too: it cannot end on 7,3 or 8,3 after the
    т.д., and goes to 8,4 beside it. The first version moved only the strongest, into the
    vacated cell and no further."""
    st = board(
        ["1 т.д. - 6,3 фронтом на восток", "2 м.д. - 6,4 фронтом на восток"],
        ["101 с.д. - 7,3 фронтом на запад"],
    )
    new, res = apply(
        st, parse_order("удар по 7,3: 1 т.д., 2 м.д. преследование до 9,3 // отход", st), R[2]
    )
    assert res.battle is not None and res.battle.outcome == "retreat"
    went = {p.unit: (p.limit_km, p.to) for p in res.battle.pursuit}
    assert went["1 т.д."] == (20.0, "8,3")
    assert new.unit(ref("1 т.д.")).cell == Cell(8, 3)
    assert went["2 м.д."][0] == 20.0 and new.unit(ref("2 м.д.")).cell not in (
        Cell(6, 4),
        Cell(8, 3),
    )


def test_a_pursuit_ordered_beyond_two_thirds_of_a_move_is_cut(tmp_path: Path) -> None:
    """9.8a: «не далее 2/3 максимального хода»; 9.3: an order is carried out as far as possible
    and what was cut is the mediator's. A т.д. (30 km a turn in the open, table 4) may pursue
    2/3 × 30 = 20 km. Ordered `преследование до 9,3` from 6,3, it asks 30 km, a whole turn's
    movement: it stops at 8,3 after 20 km and the 10 km beyond are cut (9.8a), in the result's
    cuts and its explanation. Ordered to 8,3 (20 km, exactly 2/3) or with no goal, nothing is
    cut. The side is told only the outcome."""
    st = board(["1 т.д. - 6,3 фронтом на восток"], ["101 с.д. - 7,3 фронтом на запад"])
    new, res = apply(st, parse_order("удар по 7,3: 1 т.д. преследование до 9,3 // отход", st), R[2])
    assert new.unit(ref("1 т.д.")).cell == Cell(8, 3)
    assert [(c.rule, c.reason.en) for c in res.cuts] == [
        (
            "9.8a",
            "1 TD: pursuit to 9,3 asks 30 km (1 turn of movement), more than 2/3 of its move "
            "(20 km): it stops at 8,3",
        )
    ]
    assert res.cuts[0].reason.ru == (
        "1 т.д.: преследование до 9,3 — 30 км (1 ход движения), больше 2/3 хода (20 км): "
        "остановлена в 8,3"
    )
    assert any(s.kind == "cut" and s.rule == "9.8a" for s in res.explanation.walk())
    for order in (
        "удар по 7,3: 1 т.д. преследование до 8,3 // отход",
        "удар по 7,3: 1 т.д. // отход",
    ):
        _, res = apply(st, parse_order(order, st), R[2])
        assert res.battle is not None and res.battle.outcome == "retreat" and not res.cuts

    g = Game.new(st.scenario, tmp_path / "g.game", level=2)
    r = g.order("удар по 7,3: 1 т.д. преследование до 9,3 // отход")
    assert r is not None and [c.rule for c in r.cuts] == ["9.8a"]
    told = json.dumps(channel(g, "red").told(), ensure_ascii=False)
    assert "9,3" not in told.replace("преследование до 9,3", "") and "2/3" not in told


def test_infantry_pursues_as_far_as_its_pace_allows() -> None:
    """A с.д. (10 km a turn in the open) may advance 6.7 km: not a whole cell; the breakdown
    shows the limit and the distance taken (0)."""
    st = board(["1 с.д. - 6,3 фронтом на восток"], ["101 с.д. - 7,3 фронтом на запад"])
    new, res = apply(st, parse_order("удар по 7,3: 1 с.д. // отход", st), R[2])
    assert res.battle is not None
    (p,) = res.battle.pursuit
    assert p.limit_km == pytest.approx(6.67) and p.taken_km == 0 and p.to == "6,3"


# --- support (9.8c) ------------------------------------------------------------------------------


def test_a_division_supports_one_battle_a_turn() -> None:
    """9.8c (level 2): an unattacked neighbour within 10 km adds its support rating (а.д.: 2,
    table 8) to one battle of its commander's choice. 51 а.д. at 6,4, 10 km from both 1 с.д.
    at 6,3 and 2 с.д. at 6,5, supports the blow on 7,3; the same turn it cannot support the
    blow on 7,5: committed."""
    st = board(
        ["1 с.д. - 6,3 фронтом на восток", "2 с.д. - 6,5 фронтом на восток", "51 а.д. - 6,4"],
        ["101 с.д. - 7,3 фронтом на запад", "102 с.д. - 7,5 фронтом на запад"],
    )
    st, res = apply(st, parse_order("удар по 7,3: 1 с.д. при поддержке 51 а.д.", st), R[2])
    assert res.battle is not None and res.battle.attack_support == pytest.approx(2.0)
    st, res = apply(st, parse_order("удар по 7,5: 2 с.д. при поддержке 51 а.д.", st), R[2])
    assert res.battle is not None and res.battle.attack_support == 0.0
    assert any("already supports another battle" in s.label.en for s in res.explanation.walk())


def test_an_attacked_division_cannot_support() -> None:
    """9.8c: «unattacked divisions may help». 102 с.д., attacked at 7,5 this turn, cannot then
    support the defence of 7,3."""
    st = board(
        ["1 с.д. - 6,3 фронтом на восток", "2 с.д. - 6,5 фронтом на восток"],
        ["101 с.д. - 7,3 фронтом на запад", "102 с.д. - 7,4 фронтом на запад"],
    )
    st = st.with_units([replace(st.unit(ref("2 с.д.")), cells=(Cell(6, 4),))])
    st, _ = apply(st, parse_order("удар по 7,4: 2 с.д.", st), R[2])
    _, res = apply(
        st, parse_order("удар по 7,3: 1 с.д. // оборона: 101 с.д. при поддержке 102 с.д.", st), R[2]
    )
    assert res.battle is not None and res.battle.defence_support == 0.0
    assert any("attacked this turn" in s.label.en for s in res.explanation.walk())


# --- part of a division in an echelon (9.8c) --------------------------------------------------------


def test_an_echelon_may_be_part_of_a_division() -> None:
    """9.8c's example puts «1/3 с.д.» in the first echelon: 101 с.д. fights with one rifle
    regiment first (1 с.п. 101 с.д.: direct 0.2 of table 7, the division's 1 at full strength
    scaled by 0.2 / 1.0 of the derivation... in the front of a linear formation the rating is
    the division's printed 1 × (its regiments' part of the derivation)); its other regiments
    stand in the second echelon; losses fall on the regiments that fought."""
    st = board(["1 т.д. - 6,3 фронтом на восток"], ["101 с.д. - 7,3 фронтом на запад"])
    order = "удар по 7,3: 1 т.д. // оборона: 1 с.п. 101 с.д.; 2 с.п. 101 с.д., 3 с.п. 101 с.д., 1 ап 101 с.д."
    new, res = apply(st, parse_order(order, st), R[2])
    assert res.battle is not None
    parts = [(u.echelon, u.part) for u in res.battle.units if u.unit == "101 с.д."]
    assert parts == [(1, ("1 с.п.",)), (2, ("2 с.п.", "3 с.п.", "1 ап"))]
    first = record_of(res, "101 с.д.")
    assert first.rating == pytest.approx(0.2)
    after = new.units.get(ref("101 с.д."))
    assert (
        after is None or after.division.regiments[0].strength < after.division.regiments[3].strength
    )


# --- artillery (9.7) ----------------------------------------------------------------------------


def _guns(target: str, blue: list[str] | None = None, level: int = 2) -> GameState:
    return board(["51 а.д. - 3,3"], blue or [f"101 с.д. - {target} фронтом на запад"], level)


@pytest.mark.parametrize(
    ("target", "ok"), [("6,4", True), ("5,5", True), ("6,5", False), ("6,6", False)]
)
def test_range_is_the_distance_in_km(target: str, ok: bool) -> None:
    """9.7a at level 1: «no further than 30 km»: table 2's distance. 3,3 → 6,4: √10 = 3.16
    cells, rounded 3: 30 km, in range; → 5,5: √8 = 2.83 → 3: 30 km; → 6,5: √13 = 3.6 → 3.5:
    35 km, out; → 6,6: 4.24 → 4: 40 km. The first version measured each axis and fired at 35
    and 36 km. (Levels 2 and 3: tests/test_fidelity_artillery.py.)"""
    st = _guns(target, level=1)
    order = parse_order(f"51 а.д. огонь по {target}", st)
    if ok:
        apply(st, order, R[1])
    else:
        with pytest.raises(OrderError, match="km from 51 AD.*at most 30 km"):
            apply(st, order, R[1])


def test_the_firing_battery_is_not_in_contact_with_its_target() -> None:
    """9.7b forbids fire on units in contact with our troops; the battery beside its target is
    not such a unit: 51 а.д. at 3,3 fires on 101 с.д. at 4,3 (open ground, 0.5 lost at level 1)
    without being asked again, and keeps its own strength."""
    st = board(["51 а.д. - 3,3"], ["101 с.д. - 4,3 фронтом на запад"], level=1)
    st = st.with_units([replace(st.unit(ref("101 с.д.")), cells=(Cell(4, 3),))])
    new, res = apply(st, parse_order("51 а.д. огонь по 4,3", st), R[1])
    assert not res.cuts
    assert new.unit(ref("101 с.д.")).division.strength == pytest.approx(0.5)
    assert new.unit(ref("51 а.д.")).division.strength == pytest.approx(1.0)


def test_a_confirmed_strike_hits_every_side_in_contact() -> None:
    """9.7b (level 2): fire on units in contact is asked again; confirmed, «артиллерия
    уничтожает силы всех находящихся сторон»: 101 с.д. at 7,3 and 1 с.д. beside it at 6,3, in
    contact. 51 а.д. at 5,5 fires at +20 km, +20 km (table 11: 55%); both cells open ground
    (0.5 lost): each loses 0.5 × 0.55 = 0.275. The first version left 1 с.д. untouched while
    the breakdown said «both sides» were hit."""
    st = board(
        ["51 а.д. - 5,5", "1 с.д. - 6,3 фронтом на восток"], ["101 с.д. - 7,3 фронтом на запад"]
    )
    _, res = apply(st, parse_order("51 а.д. огонь по 7,3", st), R[2])
    assert res.cuts and "asks again" in res.cuts[0].reason.en
    new, res = apply(st, parse_order("51 а.д. огонь по 7,3 (подтверждено)", st), R[2])
    assert new.unit(ref("1 с.д.")).division.strength == pytest.approx(0.725)
    assert new.unit(ref("101 с.д.")).division.strength == pytest.approx(0.725)
    assert "losses 0.55 of a division" in res.outcome.en and "1 RD at 6,3" in res.outcome.en


def test_the_outcome_is_the_sum_of_each_unit_s_loss() -> None:
    """Two с.д. at 7,3 under a level-1 strike (open: half destroyed each): the loss is 1
    division, the sum of 0.5 + 0.5 (the seed's own example, 9.7d)."""
    st = board(
        ["51 а.д. - 5,3"],
        ["101 с.д. - 7,3 фронтом на запад", "102 с.д. - 7,3 фронтом на запад"],
        level=1,
    )
    new, res = apply(st, parse_order("51 а.д. огонь по 7,3", st), R[1])
    total = sum(1.0 - new.unit(ref(r)).division.strength for r in ("101 с.д.", "102 с.д."))
    assert total == pytest.approx(1.0) and "losses 1 division" in res.outcome.en


# --- scoring (1.1, reconstructed) ------------------------------------------------------------------


def test_a_neutral_scores_nothing_from_others_battles() -> None:
    """Scores count only enemies at war (9.1 starts a war between states). Red destroys half of
    a Blue division: Red scores 0.5 × 100 = 50 for it; Green, at war with no one, scores 0."""
    st = board(
        ["51 а.д. - 5,3"], ["101 с.д. - 7,3 фронтом на запад"], level=1, green=["201 с.д. - 2,8"]
    )
    new, res = apply(st, parse_order("51 а.д. огонь по 7,3", st), R[1])
    new = replace(new, wars=frozenset({("B", "R")}), at_war=True)
    lost = losses.of_result(res, R[1])
    red = score(new, "red", R[1], lost)
    assert red.value == pytest.approx(50.0)
    assert any(
        s.rule == "9.6" and "rating of Blue destroyed" in s.label.en for s in red.explanation.walk()
    )
    green = score(new, "green", R[1], lost)
    assert green.value == 0.0
