"""Every condition an order needs is checked when the order is carried out, in one place
(`strategia.engine.conditions`, asked by `apply` before any handler): a division that has used
its move acts no more in it. A blow takes the rest of the attackers' turn (9.8), so a second
blow by the same division in one move is not fought; every order form given after the unit
has used its move is answered by the rule (refused, or cut to nothing with the rule id in the
mediator's record), never carried out twice. Work that lasts several turns is checked again on
each of them: a march stops where the road is no longer free of the enemy (4.8), a change of
frontage does not end on a square taken meanwhile (4.6)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from strategia.cli import main
from strategia.core.errors import StrategiaError
from strategia.core.geometry import Cell
from strategia.engine.apply import advance, apply
from strategia.engine.conditions import NEEDS, Share
from strategia.engine.result import Result
from strategia.engine.state import Busy, GameState, initial_state
from strategia.game.channel import channel
from strategia.game.game import Game
from strategia.notation import UnitRef, parse_order
from strategia.notation.orders import FORMS, Defence
from strategia.rules import load_ruleset
from strategia.theatre.builder import ScenarioBuilder
from strategia.theatre.scenario import Scenario

R = {lvl: load_ruleset(level=lvl) for lvl in (1, 2, 3)}


def ref(text: str) -> UnitRef:
    return UnitRef.parse(text)


def _scenario() -> Scenario:
    """Red on lon 1-6, Blue on 7-16. 1 с.д. at 6,3 faces 101 с.д. at 7,3 across the border;
    2 с.д. at 6,4 beside it; 51 а.д. at 4,4 (20 km from 7,3... 30 km: in range at level 1-2);
    5 т.д. at 2,2. Blue's 102 с.д. stands at 12,6."""
    b = ScenarioBuilder.blank(16, 9).state("R", "К", "red", lon=(1, 6))
    b = b.state("B", "С", "blue", lon=(7, 16))
    b = b.place(
        "R",
        "1 с.д. - 6,3 фронтом на восток",
        "2 с.д. - 6,4 фронтом на восток",
        "51 а.д. - 4,4 фронтом на восток",
        "5 т.д. - 2,2 фронтом на восток",
    )
    return b.place(
        "B", "101 с.д. - 7,3 фронтом на запад", "102 с.д. - 12,6 фронтом на запад"
    ).build()


# --- one blow a move (9.8) ----------------------------------------------------------------------


def test_a_division_strikes_once_a_move_through_the_game(tmp_path: Path) -> None:
    """Level 2: 1 с.д. strikes 7,3 (equal forces: each side loses half, 9.8c), then is given the
    same blow again. The second is not fought: no battle record, 101 с.д. keeps its 0.5, and the
    mediator's record names 9.8; Red is told only where its division stands (9.3)."""
    g = Game.new(_scenario(), tmp_path / "g.game", level=2)
    first = g.order("удар по 7,3: 1 с.д.")
    assert first is not None and first.battle is not None and first.battle.outcome == "held"
    assert g.state.unit(ref("101 с.д.")).division.strength == pytest.approx(0.5)
    second = g.order("удар по 7,3: 1 с.д.")
    assert second is not None and second.cut_to_nothing
    assert second.battle is None and [c.rule for c in second.cuts] == ["9.8"]
    assert "атака занимает остаток хода" in second.cuts[0].reason.ru
    assert g.state.unit(ref("101 с.д.")).division.strength == pytest.approx(0.5)
    assert g.state.unit(ref("1 с.д.")).division.strength == pytest.approx(0.5)
    assert "сокращен до нуля (9.3): 1 с.д. уже использовала ход" in g.journal_text("ru")
    assert "одна за ход (9.8)]" in g.journal_text("ru")
    red = channel(g, "red").journal_text("ru")
    assert "удар по 7,3: 1 с.д.  →  1 с.д. - 6,3" in red and "9.8)" not in red.split("\n")[-2]
    assert Game.open(g.journal.path).replay_problems == []


def test_a_second_blow_from_the_command_line_is_not_fought(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`strategia game order GAME "удар по 7,3: 1 с.д."` twice: the first is fought, the second
    is cut to nothing (9.8) and changes no strength."""
    path = tmp_path / "g.game"
    Game.new(_scenario(), path, level=2).journal.close()
    assert main(["game", "order", str(path), "удар по 7,3: 1 с.д.", "--lang", "ru"]) == 0
    after_first = Game.open(path).state
    capsys.readouterr()
    assert main(["game", "order", str(path), "удар по 7,3: 1 с.д.", "--lang", "ru"]) == 0
    out = capsys.readouterr().out
    assert "удержан" not in out and "1 с.д. - 6,3" in out
    again = Game.open(path)
    assert {r: u.division for r, u in again.state.units.items()} == {
        r: u.division for r, u in after_first.units.items()
    }
    last = again.results[-1][3]
    assert last.cut_to_nothing and last.cuts[0].rule == "9.8"


def test_level_3_checks_the_blow_when_the_turn_is_carried_out(tmp_path: Path) -> None:
    """Level 3: both blows are sealed (each is possible when given: 1 с.д. has its whole move);
    when the turn is carried out the first takes 1 с.д.'s move and the second is cut (9.8)."""
    g = Game.new(_scenario(), tmp_path / "g.game", level=3)
    red = channel(g, "red")
    assert red.order("удар по 7,3: 1 с.д.") is None
    assert red.order("удар по 7,3: 1 с.д.") is None
    results = g.end_turn()
    blows = [r for r in results if r.order == "удар по 7,3: 1 с.д."]
    assert [r.battle is not None and r.battle.outcome == "held" for r in blows] == [True, False]
    assert blows[1].cuts[0].rule == "9.8"
    assert g.state.unit(ref("101 с.д.")).division.strength == pytest.approx(0.5)


def test_a_blow_of_two_goes_on_without_the_one_that_has_struck() -> None:
    """1 с.д. has struck 7,3; a blow by 1 с.д. and 2 с.д. (both beside 7,3) is fought by 2 с.д.
    alone, the cut of 1 с.д. named with 9.8: 2 с.д. (1.0) against 101 с.д. (0.5 left): 101 с.д.
    loses 0.5 × 1.0 = 0.5, all it has (9.8c)."""
    s = initial_state(_scenario(), 2)
    s, _ = apply(s, parse_order("удар по 7,3: 1 с.д.", s), R[2], "red")
    s, r = apply(s, parse_order("удар по 7,3: 1 с.д., 2 с.д.", s), R[2], "red")
    assert r.battle is not None
    assert [f.unit for f in r.battle.units if f.role == "attacker"] == ["2 с.д."]
    assert r.cuts[0].rule == "9.8" and "1 с.д." in r.cuts[0].reason.ru
    assert ref("101 с.д.") not in s.units


# --- every order form, after the unit has used its move -------------------------------------------

SAMPLES: dict[str, str] = {  # one order of each form of the grammar, for the units above
    "4.2": "1 с.д. на 6,2",
    "4.1": "1 с.д. по дороге на 5,3",
    "4.4": "1 с.д. отход на 5,3",
    "4.3": "1 с.д. поворот на север",
    "4.8": "1 с.д. марш на 3,3",
    "4.5": "1 с.д. переброска в 2,5",
    "4.6+": "1 с.д. растянуть на 6,2",
    "4.6-": "1 с.д. сжать на 6,3",
    "9.8": "удар по 7,3: 1 с.д.",
    "9.7": "51 а.д. огонь по 6,5",
    "9.7c road": "51 а.д. огонь по дороге 6,5",
    "9.7c bridge": "51 а.д. огонь по мосту 6,5",
    "9.7d": "51 а.д. огонь на отсечение 6,5",
    "4.10 corps": "свести 1 с.д., 2 с.д. в 3 ск",
    "4.10 merge": "слить 1 с.д., 2 с.д. в 1 с.д.",
    "9.6": "1 с.д. построение опорное",
    "9.6 regiments": "1 с.д. полки к линии фронта",
    "4.9": "1 с.д. разделить на полки",
    "4.10 regiments": "свести 1 с.п. 1 с.д., 2 с.п. 1 с.д. в 9 с.д.",
    "4.11": "1 с.д. передать 1 с.п. в 2 с.д.",
    "4.11 corps": "1 ск передать 1 с.д. в 2 ск",  # 1 с.д. in 1 с.к., 2 с.д. in 2 с.к.
    "5.9": "устав движения 1 с.д. : построение опорное",
    "5.9 cancel": "отменить устав движения 1 с.д.",
}

BEFORE = {  # what the acting unit did first: each uses its move this turn
    "blow": ("удар по 7,3: 1 с.д.", "51 а.д. огонь по 7,3"),
    "move": ("1 с.д. отход на 1,3", "51 а.д. отход на 1,4"),
    "turn": ("1 с.д. поворот на запад", "51 а.д. поворот на запад"),
    "the same order": None,
}


def _corps(s: GameState) -> GameState:
    """1 с.д. in 1 с.к., 2 с.д. in 2 с.к. (for passing a division, 4.11)."""
    return s.with_units([replace(s.unit(ref(f"{n} с.д.")), corps=ref(f"{n} ск")) for n in (1, 2)])


def test_the_samples_cover_every_order_form_of_the_grammar() -> None:
    order_forms = [f for f in FORMS if f.cls is not Defence]
    read = {type(parse_order(t, _corps(initial_state(_scenario(), 3)))) for t in SAMPLES.values()}
    assert read == {f.cls for f in order_forms} and set(NEEDS) == read
    assert len(SAMPLES) == len(order_forms)


def _try(s: GameState, text: str, side: str = "red") -> tuple[GameState, Result | None]:
    try:
        order = parse_order(text, s)
        return apply(s, order, R[3], side)
    except StrategiaError:  # refused: the order cannot be given (a unit gone), or does nothing
        return s, None


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(form=st.sampled_from(sorted(SAMPLES)), before=st.sampled_from(sorted(BEFORE)))
def test_every_order_form_after_the_unit_has_used_its_move_is_answered_by_the_rule(
    form: str, before: str
) -> None:
    """Level 3 (every form in force): the acting unit first uses its move (a blow or a strike,
    a move, a turn to the rear, or the same order), then the order is given. An order that
    needs some of the move (`NEEDS`) is refused or cut to nothing with its rule (or 9.3, 9.17
    for a unit busy with lasting work) in the mediator's record, and changes nothing; a
    regrouping or a statute, which takes no time of this turn (4.9-4.11, 5.9), is carried out
    at most once: given twice, the second finds the unit busy or the statute the same."""
    s = _corps(initial_state(_scenario(), 3))
    text = SAMPLES[form]
    order = parse_order(text, s)
    artillery = "51 а.д." in text
    first = text if BEFORE[before] is None else BEFORE[before][artillery]
    s, _ = _try(s, first)
    # where the first order left some of the move (refused, or cut short of its end), the rest
    # is used up directly: the property is about a unit with its move used
    s = s.with_units(
        [replace(u, spent=1.0) for u in s.units.values() if s.side_of(u.ref) == "red" and u.left]
    )
    need = NEEDS[type(order)]
    acting = [u for u in s.units.values() if s.side_of(u.ref) == "red" and u.ref.number in (1, 51)]
    after, r = _try(s, text)
    if r is None:
        assert after is s
        return
    if need.share is Share.NONE and (before != "the same order" or after.units == s.units):
        return  # begun now, its whole turns counted from the next (4.9-4.11), or a record (5.9)
    assert r.cuts, f"{text} carried out after {before}"
    if need.share is Share.NONE:
        rules = {c.rule for c in r.cuts}
        assert rules & {"4.9", "4.10", "4.11", "9.3", "5.9"} or r.cut_to_nothing
        return
    assert r.cut_to_nothing, f"{text} after {before}: {r.cuts}"
    assert {c.rule for c in r.cuts} <= {need.rule, "9.3", "9.17"}
    assert all(after.units.get(u.ref) == u for u in acting)


@pytest.mark.parametrize("form", sorted(SAMPLES))
def test_each_order_form_given_with_the_move_whole_is_not_cut_for_time(form: str) -> None:
    """The check is of the move left, not of the order: with its move whole, no form is cut for
    want of time (so the property above does not pass by cutting everything)."""
    s = _corps(initial_state(_scenario(), 3))
    _, r = _try(s, SAMPLES[form])
    if r is not None:
        assert not any("использовала" in c.reason.ru for c in r.cuts), r.cuts


# --- lasting work, checked on each of its turns -------------------------------------------------


def test_a_march_stops_where_the_road_is_no_longer_free_of_the_enemy() -> None:
    """4.8: a march goes through space free of the enemy on every turn of it. 1 с.д. is on the
    march, its next position 10,3 and the last 14,3; 101 с.д. has since come to 11,4, beside
    the way: the march ends before the first cell beside the enemy, with the cut's rule."""
    s = initial_state(_scenario(), 2)
    road = tuple(Cell(x, 3) for x in range(6, 15))
    marching = replace(
        s.unit(ref("1 с.д.")),
        busy=Busy("march", 2.0, (Cell(10, 3), Cell(14, 3)), plan=road),
        on_march=True,
        spent=1.0,
    )
    enemy = replace(s.unit(ref("101 с.д.")), cells=(Cell(11, 4),))
    s = s.with_units([marching, enemy])
    new, results = advance(s, R[2], {"red"})
    u = new.unit(ref("1 с.д."))
    assert u.cell == Cell(9, 3) and not u.on_march
    r = next(r for r in results if r.order.startswith("1 с.д."))
    assert r.cuts[0].rule == "4.8" and "10,3" in r.cuts[0].reason.ru


def test_a_frontage_change_does_not_end_on_a_square_taken_meanwhile() -> None:
    """4.6: 1 с.д. extends its front to 6,2 over more than its turn; when the work ends 6,2 is
    held by another division: the card stays 1x1 and the record says why (4.6)."""
    s = initial_state(_scenario(), 2)
    one = s.unit(ref("1 с.д."))
    extending = replace(one, busy=Busy("frontage", 0.5, (Cell(6, 3), Cell(6, 2))), spent=1.0)
    other = replace(s.unit(ref("5 т.д.")), cells=(Cell(6, 2),))
    s = s.with_units([extending, other])
    new, results = advance(s, R[2], {"red"})
    assert new.unit(ref("1 с.д.")).cells == (Cell(6, 3),)
    r = next(r for r in results if r.order.startswith("1 с.д."))
    assert r.cuts and r.cuts[0].rule == "4.12" and "6,2" in r.cuts[0].reason.ru


def test_a_front_is_not_extended_onto_ground_its_kind_cannot_cross() -> None:
    """4.6: the frontage changes «при условии проходимости местности». A tank division at 3,5
    facing east may not stretch its card onto the swamp at 3,4 (table 4: a т.д. crosses swamp
    only by roads and trails; 3,4 has none): the order is cut to nothing, 4.6; a rifle division
    there (10 km a turn in swamp) may."""
    b = ScenarioBuilder.blank(8, 8).state("R", "К", "red").paint("swamp", lon=3, lat=4)
    b = b.place("R", "5 т.д. - 3,5 фронтом на восток", "1 с.д. - 6,5 фронтом на восток")
    s = initial_state(b.build(), 2)
    _, r = apply(s, parse_order("5 т.д. растянуть на 3,4", s), R[2], "red")
    assert r.cut_to_nothing and r.cuts[0].rule == "4.6"
    assert "непроходима для 5 т.д." in r.cuts[0].reason.ru
    s = s.with_units([replace(s.unit(ref("1 с.д.")), cells=(Cell(3, 5),))], [ref("5 т.д.")])
    new, r = apply(s, parse_order("1 с.д. растянуть на 3,4", s), R[2], "red")
    assert not r.cuts and new.unit(ref("1 с.д.")).cells == (Cell(3, 5), Cell(3, 4))
