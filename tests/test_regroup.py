"""Regrouping (4.9-4.11): corps check, forming a corps, merging, passing regiments and divisions."""

from __future__ import annotations

from dataclasses import replace

import pytest

from strategia.core.geometry import Cell
from strategia.engine.apply import advance
from strategia.engine.apply import apply as carry_out
from strategia.engine.cards import fits
from strategia.engine.regroup_done import _fill, corps_check
from strategia.engine.result import OrderError, Result
from strategia.engine.state import Busy, GameState, UnitState, initial_state
from strategia.notation import (
    FormCorps,
    IllegalNotationError,
    InvalidNotationError,
    Merge,
    NotationError,
    TransferDivision,
    TransferRegiment,
    UnitRef,
    parse_order,
)
from strategia.rules import RuleSet
from strategia.rules.english import en
from strategia.rules.kinds import DivisionKind, RegimentKind
from strategia.rules.units import Division, Regiment
from strategia.theatre.builder import ScenarioBuilder


def _state(level: int, *red: str, corps: tuple[tuple[str, ...], ...] = ()) -> GameState:
    b = ScenarioBuilder.blank(12, 8).state("R", "Красные", "red", lon=(1, 8))
    b = b.state("B", "Синие", "blue", lon=(9, 12))
    for c in corps:
        b = b.corps("R", *c)
    b = b.place("R", *red).place("B", "40 с.д. - 10,4")
    return initial_state(b.build(), level)


def _roads(state: GameState, *routes: str) -> GameState:
    """The same position on a map with these roads drawn."""
    from strategia.theatre import drawing

    ds = state.theatre.copy(deep=True)
    for r in routes:
        drawing.draw_route(ds["road"].values, drawing.parse_route(r))
    return replace(state, scenario=replace(state.scenario, theatre=ds))


def _ref(text: str) -> UnitRef:
    return UnitRef.parse(text)


def _u(state: GameState, text: str) -> UnitState:
    return state.unit(_ref(text))


def _set(state: GameState, text: str, **changes: object) -> GameState:
    return state.with_units([replace(_u(state, text), **changes)])  # type: ignore[arg-type]


def _weak(state: GameState, text: str, strengths: float | tuple[float, ...]) -> GameState:
    u = _u(state, text)
    return state.with_units([replace(u, division=u.division.with_strengths(strengths))])


def _order(state: GameState, text: str, rules: RuleSet) -> tuple[GameState, Result]:
    order = parse_order(text, state)
    assert order is not None
    return carry_out(state, order, rules, "red")


def _turn(state: GameState, rules: RuleSet) -> tuple[GameState, list[Result]]:
    return advance(state, rules)  # advance completes regrouping work (regroup.complete)


def _cut(result: Result, rule: str, words: str) -> None:
    assert result.was_cut and result.cuts[0].rule == rule
    assert en(words) in result.cuts[0].reason.en, result.cuts[0].reason.en
    assert any(s.kind == "cut" for s in result.explanation.walk())


def _above_level(state: GameState, text: str, rules: RuleSet, rule: str, level: int) -> None:
    """An order of a rule above the game's level is refused (0.2), in both languages, the
    state untouched: not journalled as an order cut to nothing."""
    with pytest.raises(OrderError) as e:
        _order(state, text, rules)
    assert (
        f"rule {rule} acts from level {level}; this game is played at level {rules.level} (0.2)"
        in str(e.value)
    )
    assert (
        f"правило {rule} действует с {level} уровня, а игра идет на {rules.level} уровне (0.2)"
        in e.value.say("ru")
    )


THREE = ("17 с.д. - 3,3", "18 с.д. - 3,4", "19 с.д. - 3,5")


# --- forming a corps (4.10) ----------------------------------------------------------------------


def test_form_corps_takes_three_turns(rules2: RuleSet) -> None:
    """4.10: 3 turns. Ordered with the whole of turn 1 left, 2 turns remain; turn 2 brings it to
    1, and with a whole turn to go the work fills turn 3 and ends with it: the corps exists from
    turn 4, whose time is whole (the divisions are not combat-capable until then, 9.17)."""
    s, r = _order(_state(2, *THREE), "свести 17 с.д., 18 с.д., 19 с.д. в 5 с.к.", rules2)
    assert not r.was_cut and r.explanation.rule == "4.10"
    lookups = {s.label.en for s in r.explanation.walk() if s.kind == "lookup"}
    assert "divisions into a corps" in lookups and "a corps of 3 divisions" in lookups
    for n in (17, 18, 19):
        u = s.unit(UnitRef(n, DivisionKind.RIFLE))
        assert u.busy == Busy("regrouping", 2.0, plan=("corps", "5 с.к.")) and u.spent == 1.0
        assert not u.combat_capable and u.corps is None
    for _ in (2, 3):
        s, done = _turn(s, rules2)
        assert _u(s, "17 с.д.").busy is not None and _u(s, "17 с.д.").corps is None and not done
        assert not _u(s, "17 с.д.").combat_capable and _u(s, "17 с.д.").left == 0
    s, done = _turn(s, rules2)
    assert {u.corps for u in s if u.owner == "R"} == {_ref("5 с.к.")}
    assert all(u.busy is None and u.combat_capable and u.spent == 0.0 for u in s if u.owner == "R")
    assert [d.outcome.en for d in done] == [f"{n} RD: 5 RC" for n in (17, 18, 19)]
    assert done[0].explanation.rule == "4.10"
    s, _ = _turn(s, rules2)
    assert _u(s, "17 с.д.").spent == 0.0 and _u(s, "17 с.д.").corps == _ref("5 с.к.")


def test_form_corps_counts_from_the_last_division_free(rules2: RuleSet) -> None:
    s = _set(_state(2, *THREE[:2]), "18 с.д.", spent=0.5)
    s, _ = _order(s, "form 5 RC from 17 RD, 18 RD", rules2)
    assert _u(s, "17 с.д.").busy == Busy("regrouping", 2.5, plan=("corps", "5 с.к."))
    for _ in range(2):
        s, _ = _turn(s, rules2)
    assert _u(s, "17 с.д.").corps is None
    s, _ = _turn(s, rules2)
    assert _u(s, "17 с.д.").corps == _ref("5 с.к.") and _u(s, "17 с.д.").spent == 0.5


@pytest.mark.parametrize(
    ("placements", "rule", "words"),
    [
        (("17 с.д. - 3,3", "18 с.д. - 3,6"), "4.9", "not within 1x3"),
        (("17 с.д. - 3,3", "18 с.д. - 4,4"), "4.9", "not within 1x3"),
    ],
)
def test_form_corps_needs_one_card(
    rules2: RuleSet, placements: tuple[str, ...], rule: str, words: str
) -> None:
    s = _state(2, *placements)
    new, r = _order(s, "свести 17 с.д., 18 с.д. в 5 с.к.", rules2)
    _cut(r, rule, words)
    assert new is s


def test_form_corps_rejections(rules1: RuleSet, rules2: RuleSet) -> None:
    s = _state(2, *THREE)
    _above_level(s, "свести 17 с.д., 18 с.д. в 5 с.к.", rules1, "4.10", 2)
    busy = _set(s, "18 с.д.", busy=Busy("turning", 0.5))
    _cut(_order(busy, "свести 17 с.д., 18 с.д. в 5 с.к.", rules2)[1], "9.3", "busy: 18 с.д.")
    with pytest.raises(OrderError, match="one side's"):
        carry_out(s, FormCorps(_ref("17 с.д."), (_ref("40 с.д."),), _ref("5 с.к.")), rules2)
    with pytest.raises(OrderError, match="not the map|not on the map"):
        carry_out(s, FormCorps(_ref("17 с.д."), (_ref("99 с.д."),), _ref("5 с.к.")), rules2)
    with pytest.raises(OrderError, match="Red has no unit 40 RD on the map"):
        carry_out(s, FormCorps(_ref("40 с.д."), (), _ref("5 с.к.")), rules2, "red")


# --- merging weakened divisions (4.10) -----------------------------------------------------------


def test_fill_tops_up_the_weakest_first() -> None:
    assert _fill([0.2, 0.6, 1.0], 0.9) == ([0.85, 0.85, 1.0], 0.0)
    assert _fill([0.5, 0.5], 1.3) == ([1.0, 1.0], 0.3)


def test_merge_pools_strengths_and_removes_the_others(rules2: RuleSet) -> None:
    s = _weak(_state(2, "17 с.д. - 3,4", "18 с.д. - 3,5"), "17 с.д.", (0.8, 0.2, 0.4, 0.6))
    s = _weak(s, "18 с.д.", (0.5, 0.5, 0.5, 0.6))
    s, r = _order(s, "слить 17 с.д., 18 с.д. в 17 с.д.", rules2)
    assert not r.was_cut and r.explanation.rule == "4.10"
    together = next(x for x in r.explanation.walk() if x.label.en == "together")
    assert together.value == pytest.approx(1.025)
    assert _u(s, "18 с.д.").busy == Busy("regrouping", 2.0, plan=("merge-into", "17 с.д."))
    assert _u(s, "17 с.д.").busy == Busy("regrouping", 2.0, plan=("merge", "18 с.д."))
    assert not _u(s, "17 с.д.").combat_capable
    for _ in (2, 3):
        s, _ = _turn(s, rules2)
        assert _ref("18 с.д.") in s.units
    s, done = _turn(s, rules2)
    assert _ref("18 с.д.") not in s.units
    strengths = [x.strength for x in _u(s, "17 с.д.").division.regiments]
    assert strengths == pytest.approx([2.9 / 3, 2.9 / 3, 2.9 / 3, 1.0])
    lost = [x for x in done[0].explanation.walk() if x.label.en == "AR: lost to the cap"]
    assert lost[0].value == pytest.approx(0.2) and "leave the map" in done[0].outcome.en


@pytest.mark.parametrize(
    ("setup", "words"),
    [
        (lambda s: s, "a merge needs 1 to 1.5"),  # two full divisions: 2
        (lambda s: _weak(_weak(s, "17 с.д.", 0.3), "18 с.д.", 0.3), "a merge needs 1 to 1.5"),
        (
            lambda s: _set(
                _weak(_weak(s, "17 с.д.", 0.5), "18 с.д.", 0.5), "18 с.д.", cells=(Cell(3, 6),)
            ),
            "not within 1x2",
        ),
    ],
)
def test_merge_conditions(rules2: RuleSet, setup: object, words: str) -> None:
    s = setup(_state(2, "17 с.д. - 3,4", "18 с.д. - 3,5"))  # type: ignore[operator]
    new, r = _order(s, "merge 17 RD, 18 RD into 18 RD", rules2)
    _cut(r, "4.10", words)
    assert new is s


def test_merge_needs_one_type_and_level_2(rules1: RuleSet, rules2: RuleSet) -> None:
    s = _weak(_weak(_state(2, "17 с.д. - 3,4", "18 т.д. - 3,5"), "17 с.д.", 0.5), "18 т.д.", 0.5)
    _cut(_order(s, "слить 17 с.д., 18 т.д. в 17 с.д.", rules2)[1], "4.10", "not of one type")
    _above_level(s, "слить 17 с.д., 18 т.д. в 17 с.д.", rules1, "4.10", 2)
    with pytest.raises(OrderError, match="one of them"):
        carry_out(s, Merge(_ref("17 с.д."), (_ref("18 т.д."),), _ref("19 с.д.")), rules2)


# --- passing a regiment (4.11) -------------------------------------------------------------------


def test_pass_regiment_one_turn_out_one_turn_in(rules: RuleSet) -> None:
    s = _weak(_state(3, "17 с.д. - 3,4", "18 с.д. - 3,5"), "17 с.д.", (1.0, 0.7, 1.0, 1.0))
    s, r = _order(s, "17 с.д. передать 2 с.п. в 18 с.д.", rules)
    assert not r.was_cut and r.explanation.rule == "4.11"
    assert [x.strength for x in _u(s, "17 с.д.").division.line] == [1.0, 1.0]
    assert _u(s, "17 с.д.").busy is None and _u(s, "17 с.д.").spent == 1.0  # the turn out
    receiver = _u(s, "18 с.д.")
    assert len(receiver.division.line) == 3 and receiver.busy is not None
    assert (
        receiver.busy.plan == ("regiment-in", "17 с.д.", "rifle", 0.7, "line")
        and receiver.busy.left == 1
    )
    s, done = _turn(s, rules)  # the turn in (4.11): a whole turn, ending with it
    assert len(_u(s, "18 с.д.").division.line) == 3 and _u(s, "18 с.д.").left == 0
    s, done = _turn(s, rules)
    assert [x.strength for x in _u(s, "18 с.д.").division.line] == [1.0, 1.0, 1.0, 0.7]
    assert _u(s, "18 с.д.").busy is None and done[0].explanation.rule == "4.11"


def test_pass_regiment_started_late_and_the_last_one(rules: RuleSet) -> None:
    s = _set(
        _state(3, "17 с.д. - 3,4", "18 с.д. - 3,5"),
        "17 с.д.",
        spent=0.5,
        division=Division(17, DivisionKind.RIFLE, (), (Regiment(RegimentKind.ARTILLERY, 0.5),)),
    )
    s, r = _order(s, "17 RD pass AR to 18 RD", rules)
    assert _ref("17 с.д.") not in s.units and "no regiments left" in r.outcome.en  # its last one
    busy = _u(s, "18 с.д.").busy
    assert busy == Busy("regrouping", 1.5, plan=("regiment-in", "17 с.д.", "artillery", 0.5, "arm"))
    s, _ = _turn(s, rules)
    assert len(_u(s, "18 с.д.").division.arm) == 1 and _u(s, "18 с.д.").busy is not None
    s, _ = _turn(s, rules)
    assert [x.strength for x in _u(s, "18 с.д.").division.arm] == [1.0, 0.5]


def test_pass_regiment_conditions(rules: RuleSet, rules2: RuleSet) -> None:
    s = _state(3, "17 с.д. - 3,4", "18 с.д. - 3,5")
    _above_level(s, "17 с.д. передать 2 с.п. в 18 с.д.", rules2, "4.11", 3)
    _cut(_order(s, "17 с.д. передать 4 с.п. в 18 с.д.", rules)[1], "4.11", "has no 4 с.п.")
    _cut(_order(s, "17 RD pass regiment 5 to 18 RD", rules)[1], "4.11", "has no полк 5")
    far = _set(s, "18 с.д.", cells=(Cell(3, 7),))
    new, r = _order(far, "17 с.д. передать 2 с.п. в 18 с.д.", rules)
    assert not r.was_cut and _ref("2 с.п. 17 с.д.") in new.units  # it marches (4.11)
    busy = _set(s, "18 с.д.", busy=Busy("crossing", 1.0))
    _cut(_order(busy, "17 с.д. передать 2 с.п. в 18 с.д.", rules)[1], "9.3", "busy: 18 с.д.")


# --- passing a division (4.11) -------------------------------------------------------------------

CORPS = (("1 с.к.", "21 с.д.", "22 с.д."), ("2 с.к.", "23 с.д.", "24 с.д."))


def _corps(where: str = "между 6-5 и 6-6") -> GameState:
    return _state(3, "1 с.к. расположен между 6-2 и 6-3", f"2 с.к. расположен {where}", corps=CORPS)


def test_pass_division_to_another_corps(rules: RuleSet) -> None:
    s, r = _order(_corps(), "1 с.к. передать 22 с.д. в 2 с.к.", rules)
    assert not r.was_cut and r.explanation.find("4.11")
    u = _u(s, "22 с.д.")
    assert u.corps is None and u.busy == Busy("regrouping", 0.0, plan=("division", "2 с.к."))
    s, done = _turn(s, rules)  # out of 1 с.к.: the turn in begins, on 2 с.к.'s card
    assert _u(s, "22 с.д.").corps is None and _u(s, "22 с.д.").busy is not None
    s, done = _turn(s, rules)
    assert _u(s, "22 с.д.").corps == _ref("2 с.к.") and _u(s, "22 с.д.").busy is None
    assert _u(s, "21 с.д.").corps == _ref("1 с.к.") and done[0].outcome.en == "22 RD: 2 RC"


def test_pass_division_started_late(rules: RuleSet) -> None:
    s, _ = _order(_set(_corps(), "22 с.д.", spent=0.5), "1 RC pass 22 RD to 2 RC", rules)
    assert _u(s, "22 с.д.").corps is None and _u(s, "22 с.д.").busy is not None
    s, done = _turn(s, rules)  # out after half a turn; the turn in takes the other half and...
    assert _u(s, "22 с.д.").corps is None and _u(s, "22 с.д.").busy is not None
    s, done = _turn(s, rules)  # ...half of this one
    assert _u(s, "22 с.д.").corps == _ref("2 с.к.") and _u(s, "22 с.д.").spent == 0.5


def test_pass_division_that_does_not_fit_stays_separate(rules: RuleSet) -> None:
    """No road leads to 2 с.к.: the division cannot make 4.11's march and stays separate."""
    s, _ = _order(_corps("между 3-5 и 3-6"), "1 с.к. передать 22 с.д. в 2 с.к.", rules)
    s, done = _turn(s, rules)
    assert _u(s, "22 с.д.").corps is None and "cannot march" in done[0].outcome.en


def test_pass_division_conditions(rules: RuleSet, rules2: RuleSet) -> None:
    s = _corps()
    _above_level(s, "1 с.к. передать 22 с.д. в 2 с.к.", rules2, "4.11", 3)
    _cut(
        _order(s, "2 с.к. передать 22 с.д. в 1 с.к.", rules)[1], "4.11", "22 с.д. is not in 2 с.к."
    )
    order = TransferDivision(_ref("1 с.к."), _ref("22 с.д."), _ref("7 с.к."))
    _cut(carry_out(s, order, rules)[1], "4.11", "7 с.к. has no divisions")
    with pytest.raises(OrderError, match="not another corps"):
        carry_out(s, TransferDivision(_ref("1 с.к."), _ref("22 с.д."), _ref("1 с.к.")), rules)


# --- the corps check (4.9) -----------------------------------------------------------------------


def test_corps_off_its_card_loses_its_divisions(rules1: RuleSet, rules2: RuleSet) -> None:
    s = _set(_corps(), "22 с.д.", cells=(Cell(7, 3),))
    new, notes = corps_check(s, rules2)
    assert _u(new, "21 с.д.").corps is None and _u(new, "22 с.д.").corps is None
    assert _u(new, "23 с.д.").corps == _ref("2 с.к.") and len(notes) == 1 and "1 RC" in notes[0].en
    assert corps_check(s, rules1) == (s, [])
    after, done = _turn(s, rules2)
    assert _u(after, "21 с.д.").corps is None and done[-1].explanation.find("4.9")


def test_corps_check_keeps_a_corps_on_one_card(rules2: RuleSet) -> None:
    s = _state(
        2, "1 с.к. расположен между 6-2 и 6-4", corps=(("1 с.к.", "21 с.д.", "22 с.д.", "25 с.д."),)
    )
    assert corps_check(s, rules2)[1] == []
    s = _set(s, "25 с.д.", cells=(Cell(6, 6),))  # 6,2 .. 6,6: five cells, a 1x4 card
    assert len(corps_check(s, rules2)[1]) == 1


# --- notation ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ru", "en"),
    [
        ("свести 17 с.д., 18 с.д. в 5 с.к.", "form 5 RC from 17 RD, 18 RD"),
        ("слить 17 с.д., 18 с.д. в 18 с.д.", "merge 17 RD, 18 RD into 18 RD"),
        ("17 с.д. передать 2 с.п. в 18 с.д.", "17 RD pass 2 RR to 18 RD"),
        ("17 с.д. передать полк 4 в 18 с.д.", "17 RD pass regiment 4 to 18 RD"),
        ("1 с.к. передать 22 с.д. в 2 с.к.", "1 RC pass 22 RD to 2 RC"),
    ],
)
def test_notation_both_ways(ru: str, en: str) -> None:
    a, b = parse_order(ru), parse_order(en)
    assert a == b and a is not None and str(a) == ru and a.format("en") == en
    assert repr(a) == f"parse_order({ru!r})"


def test_notation_values() -> None:
    assert parse_order("17 сд передать с.п. в 18 сд") == TransferRegiment(
        _ref("17 с.д."), 1, RegimentKind.RIFLE, _ref("18 с.д.")
    )
    assert parse_order("merge 17 RD, 18 RD, 19 RD into 17 RD") == Merge(
        _ref("17 с.д."), (_ref("18 с.д."), _ref("19 с.д.")), _ref("17 с.д.")
    )
    regrouping = (FormCorps, Merge, TransferRegiment, TransferDivision)
    assert not isinstance(parse_order("17 с.д. на 45,25"), regrouping)
    assert not isinstance(parse_order("17 RD turn N"), regrouping)


@pytest.mark.parametrize(
    ("text", "error", "column", "problem"),
    [
        ("свести 17 с.д., 18 с.д.", InvalidNotationError, 23, "incomplete order 'свести'"),
        ("form 5 RC 17 RD", InvalidNotationError, 15, "incomplete order 'form'"),
        ("свести 17 с.д., 18 с.д. в 17 с.д.", IllegalNotationError, 27, "not a corps"),
        ("слить 17 с.д., 18 с.д. в 19 с.д.", IllegalNotationError, 26, "no such unit"),
        ("слить 17 с.д. в 17 с.д.", InvalidNotationError, 7, "nothing to merge"),
        ("слить 17 с.д., 17 с.д. в 17 с.д.", IllegalNotationError, 16, "named twice"),
        ("слить 17 с.д., 1 с.к. в 17 с.д.", IllegalNotationError, 16, "not a division"),
        ("17 с.д. передать 2 х.п. в 18 с.д.", InvalidNotationError, 20, "unknown regiment type"),
        ("17 с.д. передать в 18 с.д.", InvalidNotationError, 18, "no regiment"),
        ("17 с.д. передать 0 в 18 с.д.", InvalidNotationError, 18, "no regiment 0"),
        ("17 с.д. передать 2 с.п. в 17 с.д.", IllegalNotationError, 27, "passes to itself"),
        ("17 с.д. передать 2 с.п.", InvalidNotationError, 23, "incomplete order 'передать'"),
        ("свести 17 с.д.,, 18 с.д. в 5 с.к.", InvalidNotationError, 16, "no unit number"),
    ],
)
def test_notation_errors(text: str, error: type[NotationError], column: int, problem: str) -> None:
    state = _state(
        3, "17 с.д. - 3,3", "18 с.д. - 3,4", "1 с.к. расположен между 6-2 и 6-3", corps=(CORPS[0],)
    )
    with pytest.raises(error) as e:
        parse_order(text, state)
    assert e.value.text == text and e.value.column == column and problem in e.value.problem


def test_notation_an_army_passes_nothing() -> None:
    with pytest.raises(IllegalNotationError, match="1 А is not a corps or division"):
        parse_order("1 А передать 17 с.д. в 18 с.д.")


# --- below the division (4.9-4.11) ---------------------------------------------------------------


def test_a_division_splits_into_its_regiments_at_level_3(rules: RuleSet, rules2: RuleSet) -> None:
    """4.9 (level 3 by order): 17 с.д. (3 с.п., 1 ап) at 3,3-3,4 becomes four counters: the
    first two regiments on 3,3, the rest on 3,4, each a quarter of a division (strength 0.25,
    1.0 of its own); at level 2 the order is cut."""
    s = _state(3, "17 с.д. расположена между 3-3 и 3-4")
    _above_level(s, "17 с.д. разделить на полки", rules2, "4.9", 3)
    new, r = _order(s, "17 RD split into regiments", rules)
    assert not r.was_cut and _ref("17 с.д.") not in new.units
    parts = {str(u.ref): (u.cells, u.division.strength) for u in new if u.owner == "R"}
    assert parts == {
        "1 с.п. 17 с.д.": ((Cell(3, 3),), 0.25),
        "2 с.п. 17 с.д.": ((Cell(3, 3),), 0.25),
        "3 с.п. 17 с.д.": ((Cell(3, 4),), 0.25),
        "1 ап 17 с.д.": ((Cell(3, 4),), 0.25),
    }


def test_regiments_form_a_division_in_two_turns_4_10(rules: RuleSet) -> None:
    """4.10: «regiments within a 1x2 rectangle can be brought into a division in 2 turns».
    Split 17 с.д. at level 3, then bring its regiments back: ordered with the whole of turn 1,
    the work fills turns 1 and 2 (not combat-capable, 9.17); 17 с.д. stands whole from turn 3."""
    s, _ = _order(
        _state(3, "17 с.д. расположена между 3-3 и 3-4"), "17 с.д. разделить на полки", rules
    )
    s = s.with_units([replace(u, spent=0.0) for u in s])
    order = "свести 1 с.п. 17 с.д., 2 с.п. 17 с.д., 3 с.п. 17 с.д., 1 ап 17 с.д. в 17 с.д."
    s, r = _order(s, order, rules)
    assert not r.was_cut and not _u(s, "1 с.п. 17 с.д.").combat_capable
    s, _ = _turn(s, rules)
    assert _ref("17 с.д.") not in s.units
    s, done = _turn(s, rules)
    d = _u(s, "17 с.д.")
    assert d.division.strength == pytest.approx(1.0) and len(d.division.line) == 3
    assert not [u for u in s if u.ref.echelon == "regiment"] and d.combat_capable
    assert any("formed" in x.outcome.en for x in done)


def test_forming_a_division_needs_its_regiments_on_one_card(rules: RuleSet) -> None:
    s, _ = _order(_state(3, "17 с.д. - 3,3"), "17 с.д. разделить на полки", rules)
    far = _set(s, "1 ап 17 с.д.", cells=(Cell(3, 6),))
    new, r = _order(far, "свести 1 с.п. 17 с.д., 1 ап 17 с.д. в 17 с.д.", rules)
    _cut(r, "4.10", "not within 1x2")


def test_a_regiment_marches_to_a_division_that_is_not_beside_it_4_11(rules: RuleSet) -> None:
    """4.11: «1 turn to leave the old command, then (where needed) a march (4.8), and one more
    turn to join the new one». 17 с.д. at 2,3 passes a с.п. to 18 с.д. at 8,3, 60 km along a
    road: the regiment leaves as `3 с.п. 17 с.д.` (turn 1), marches 60 km at 1.5 × 10 = 15 km
    a turn (turns 2-6 with the half turn forming up and the half turn of recovery, 4.8), and
    is taken into 18 с.д. after a turn in. The first version cut the order."""
    b = ScenarioBuilder.blank(12, 6).state("R", "К", "red").road("1,3 12,3")
    b = b.place("R", "17 с.д. - 2,3 фронтом на восток", "18 с.д. - 8,3 фронтом на восток")
    s = initial_state(b.build(), 3)
    s, r = _order(s, "17 с.д. передать 3 с.п. в 18 с.д.", rules)
    assert not r.was_cut and len(_u(s, "17 с.д.").division.line) == 2
    assert _u(s, "3 с.п. 17 с.д.").cell == Cell(2, 3)
    for _ in range(12):
        s, _ = _turn(s, rules)
        if _ref("3 с.п. 17 с.д.") not in s.units:
            break
    d = _u(s, "18 с.д.").division
    assert len(d.line) == 4 and d.strength == pytest.approx(1.25)
    assert _u(s, "17 с.д.").division.strength == pytest.approx(0.75)


def test_a_division_marches_to_its_new_corps_4_11(rules: RuleSet) -> None:
    """4.11 for a division: 22 с.д. leaves 1 с.к. (turn 1), marches by the road along lat 4 to
    6,4, the free cell on 2 с.к.'s 1x3 card beside 23 с.д., 24 с.д. at 6,5-6,6 (40 km at
    1.5 × 10 km: 0.5 + 40/15 = 3.2 turns, then half a turn to recover, 4.8), and joins with its
    turn in. The first version left it separate with «a march (4.8) first»."""
    s = _state(
        3, "1 с.к. расположен между 2-3 и 2-4", "2 с.к. расположен между 6-5 и 6-6", corps=CORPS
    )
    s = _roads(s, "1,4 8,4")
    s, _ = _order(s, "1 с.к. передать 22 с.д. в 2 с.к.", rules)
    turns = 0
    while _u(s, "22 с.д.").corps is None and turns < 12:
        s, _ = _turn(s, rules)
        turns += 1
    assert _u(s, "22 с.д.").corps == _ref("2 с.к.") and _u(s, "22 с.д.").cell == Cell(6, 4)
    assert 5 <= turns <= 7
    assert fits([c for u in s if u.corps == _ref("2 с.к.") for c in u.cells], 4)
