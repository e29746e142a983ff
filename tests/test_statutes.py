"""Movement statutes (5.9): «Играющий имеет право создавать уставы движения соединения войск,
записывая их в журнал или сообщая посреднику. В дальнейшей игре уставной порядок движения
считается принятым по умолчанию.» The seed's example: «При наступлении корпус разделяется на три
эшелона, расстояние между которыми составляет 5 км. В первом и третьем эшелоне находится по
одному полку, во втором остальные силы.»

Numbers: table 7 (a с.п.'s direct rating 0.2), tables 8 / 9-1 (a с.д. against a blow in the
front: 1), seed 002's table 1 (т.д. on the plain 30 km a turn), `formations.change_turns`
(re-forming: a quarter turn, reconstructed from 4.3's «перестроение полков»).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_russian import latin, result_texts

from strategia.core.geometry import Cell
from strategia.engine.apply import advance, apply
from strategia.engine.result import OrderError, Result
from strategia.engine.snapshot import state_from_json, state_to_json
from strategia.engine.state import GameState, initial_state
from strategia.engine.statutes import statute_for, statutes_of
from strategia.game.channel import channel
from strategia.game.game import Game
from strategia.notation import GRAMMAR, Statute, UnitRef, parse_order
from strategia.rules import load_ruleset
from strategia.rules.kinds import Formation
from strategia.rules.load import apply_house_text
from strategia.theatre.builder import ScenarioBuilder
from strategia.theatre.scenario import Scenario

R = {lvl: load_ruleset(level=lvl) for lvl in (1, 2)}
SEED = "устав движения 5 с.к.: эшелоны 1 с.п. 17 с.д.; остальные; 2 с.п. 17 с.д. через 5 км"
SEED_EN = "movement statute 5 RC: echelons 1 RR 17 RD; the rest; 2 RR 17 RD at 5 km intervals"
U = UnitRef.parse


def _front(name: str = "Устав") -> Scenario:
    """5 с.к. (17 с.д. at 5,3, 18 с.д. at 5,4, facing east) beside Blue's 101 с.д. at 6,3;
    5 т.д. at 2,1 and 2 т.к. (21 т.д. at 2,5, 22 т.д. at 2,6) in the rear, all on the plain."""
    b = ScenarioBuilder.blank(14, 7, name=name)
    b = b.state("R", "Красные", "red", lon=(1, 6)).state("B", "Синие", "blue", lon=(7, 14))
    b = b.corps("R", "5 с.к.", "17 с.д.", "18 с.д.").corps("R", "2 т.к.", "21 т.д.", "22 т.д.")
    b = b.place(
        "R",
        "17 с.д. - 5,3 фронтом на восток",
        "18 с.д. - 5,4 фронтом на восток",
        "5 т.д. - 2,1 фронтом на восток",
        "21 т.д. - 2,5 фронтом на восток",
        "22 т.д. - 2,6 фронтом на восток",
    )
    return b.place("B", "101 с.д. - 6,3 фронтом на запад").build()


def _state(level: int = 2) -> GameState:
    return initial_state(_front(), level)


def _give(
    state: GameState, text: str, level: int = 2, side: str | None = "red"
) -> tuple[GameState, Result]:
    return apply(state, parse_order(text, state), R[level], side)


# --- notation ------------------------------------------------------------------------------------


def test_the_seed_s_example_in_the_journal_s_notation_both_ways() -> None:
    s = parse_order(SEED)
    assert s == Statute(
        U("5 с.к."), None, ((U("1 с.п. 17 с.д."),), (), (U("2 с.п. 17 с.д."),)), 2, 5
    )
    assert str(s) == SEED and s.format("en") == SEED_EN and parse_order(SEED_EN) == s
    full = "устав движения 17 с.д.: построение опорное эшелоны 1 с.п. 17 с.д., 2 с.п. 17 с.д.; остальные"
    assert str(parse_order(full)) == full
    assert parse_order(full).format("en") == (
        "movement statute 17 RD: formation supporting echelons 1 RR 17 RD, 2 RR 17 RD; the rest"
    )
    assert str(parse_order("cancel movement statute 5 RC")) == "отменить устав движения 5 с.к."
    move = parse_order("17 RD to 45,25 via 44,24 formation supporting")
    assert str(move) == "17 с.д. на 45,25 через 44,24 построение опорное"
    assert str(parse_order("17 с.д. на 45,25")) == "17 с.д. на 45,25"  # as before: no formation


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("устав движения 5 с.к.:", "the statute says nothing"),
        ("устав движения 5 с.к.: эшелоны 17 с.д.; 17 с.д.", "17 с.д. named twice"),
        ("устав движения 5 с.к.: эшелоны 17 с.д.; 1 с.п. 17 с.д.", "named whole and by its"),
        ("устав движения 5 с.к.: эшелоны остальные; остальные", "named twice"),
        ("устав движения 5 с.к.: эшелоны 17 с.д. через 500 км", "500 km out of range"),
    ],
)
def test_statutes_that_cannot_be_meant_are_refused(text: str, problem: str) -> None:
    with pytest.raises(Exception, match=problem):
        parse_order(text)


# --- recording --------------------------------------------------------------------------------


def test_a_statute_is_recorded_for_its_side_and_costs_no_time() -> None:
    state = _state()
    new, r = _give(state, SEED)
    assert statutes_of(new, "red") == (parse_order(SEED),) and statutes_of(new, "blue") == ()
    assert new.units == state.units  # nobody moved, no time spent
    assert r.by == "red" and not r.cuts and r.explanation.rule == "5.9"
    assert r.outcome.ru == "устав движения 5 с.к. записан"
    assert r.outcome.en == "movement statute of 5 RC recorded"
    steps = {s.label.en: s.value for s in r.explanation.children}
    assert steps["time it takes"] == 0.0
    assert [s.value.ru for s in r.explanation.children if s.label.en.startswith("echelon")] == [  # type: ignore[union-attr]
        "1 с.п. 17 с.д.",
        "остальные",
        "2 с.п. 17 с.д.",
    ]
    assert steps["distance between echelons"] == 5
    again, r = _give(new, "устав движения 5 с.к.: построение опорное")
    assert statutes_of(again, "red") == (parse_order("устав движения 5 с.к.: построение опорное"),)
    assert r.outcome.ru == "устав движения 5 с.к. записан взамен прежнего"
    gone, r = _give(again, "отменить устав движения 5 с.к.")
    assert gone.statutes == () and r.outcome.ru == "устав движения 5 с.к. отменен"
    same, r = _give(gone, "отменить устав движения 5 с.к.")
    assert same.statutes == () and r.cuts[0].rule == "5.9"


def test_a_statute_naming_a_unit_not_of_the_formation_says_so_to_the_mediator() -> None:
    new, r = _give(_state(), "устав движения 5 с.к.: эшелоны 17 с.д.; 5 т.д.")
    assert [c.rule for c in r.cuts] == ["5.9"] and "5 TD is not part of 5 RC" in r.cuts[0].reason.en
    assert statutes_of(new, "red")  # recorded as written: it acts while the unit is not part


def test_a_statute_is_for_a_corps_or_a_division_of_the_side() -> None:
    with pytest.raises(OrderError, match="corps or a division"):
        _give(_state(), "устав движения 1 с.п. 17 с.д.: построение опорное", side=None)
    with pytest.raises(OrderError, match="has no unit"):
        _give(_state(), "устав движения 101 с.д.: построение опорное")


# --- blows ---------------------------------------------------------------------------------------


def test_a_blow_by_the_corps_goes_in_its_statute_s_echelons() -> None:
    """The seed's example: one regiment in the first echelon and one in the third, the rest in
    the second. `удар по 6,3: 5 с.к.` names the corps whole and gives no echelons: it strikes
    1 с.п. 17 с.д.; 3 с.п. 17 с.д., 1 ап 17 с.д., 18 с.д.; 2 с.п. 17 с.д. The first echelon
    fights first (9.8c): 0.2 (a с.п.'s direct rating, table 7) against 101 с.д.'s 1 (table 9-1,
    front: table 8's 1), a ratio of 0.2. The very battle of those echelons written out."""
    state, _ = _give(_state(), SEED)
    new, r = _give(state, "удар по 6,3: 5 с.к.")
    explicit = "удар по 6,3: 1 с.п. 17 с.д.; 3 с.п. 17 с.д., 1 ап 17 с.д., 18 с.д.; 2 с.п. 17 с.д."
    same, written = _give(state, explicit)
    assert r.battle == written.battle and new == same and r.cuts == written.cuts
    assert r.battle is not None and r.battle.attack == pytest.approx(0.2)
    assert r.battle.defence == pytest.approx(1.0)
    assert [(f.echelon, f.part) for f in r.battle.units if f.role == "attacker"] == [
        (1, ("1 с.п.",)),
        (2, ("3 с.п.", "1 ап")),
        (2, ()),
        (3, ("2 с.п.",)),
    ]
    assert r.order == "удар по 6,3: 5 с.к." and r.by == "red"
    assert r.explanation.rule == "5.9"
    said = [s.label.ru for s in r.explanation.children]
    assert "5 с.к. наносит удар по уставу движения" in said
    lookups = [s for s in r.explanation.walk() if s.kind == "lookup" and s.rule == "5.9"]
    assert lookups and lookups[0].value is True  # statutes.echelons_in_blows, reconstructed


def test_echelons_written_in_the_order_override_the_statute() -> None:
    """Two echelons in the order: the statute does not deploy the corps; its divisions stand
    where the order puts the corps (17 с.д. and 18 с.д. both in the first)."""
    state, _ = _give(_state(), SEED)
    _, r = _give(state, "удар по 6,3: 5 с.к.; 5 т.д.")
    assert r.battle is not None
    assert [(f.unit, f.echelon, f.part) for f in r.battle.units if f.role == "attacker"] == [
        ("17 с.д.", 1, ()),
        ("18 с.д.", 1, ()),
    ]  # 5 т.д. at 2,1 is not beside 6,3: cut (9.3)
    assert not any(s.label.en.endswith("by its movement statute") for s in r.explanation.walk())
    # divisions named by name: not the formation whole, the statute does not deploy them
    _, r = _give(state, "удар по 6,3: 17 с.д., 18 с.д.")
    assert r.explanation.label.en == "Battle for 6,3"


def test_a_division_s_own_statute_deploys_it() -> None:
    """A division's statute: its first two regiments lead, the rest behind. 0.4 (two с.п.) in
    the first echelon."""
    text = "устав движения 17 с.д.: эшелоны 1 с.п. 17 с.д., 2 с.п. 17 с.д.; остальные"
    state, _ = _give(_state(), text)
    _, r = _give(state, "удар по 6,3: 17 с.д.")
    assert r.battle is not None and r.battle.attack == pytest.approx(0.4)
    assert [(f.echelon, f.part) for f in r.battle.units if f.role == "attacker"] == [
        (1, ("1 с.п.", "2 с.п.")),
        (2, ("3 с.п.", "1 ап")),
    ]


def test_a_corps_named_in_a_blow_without_a_statute_strikes_with_its_divisions() -> None:
    """Until now such a blow failed (a corps is not on the map, its divisions are): it is the
    blow of its divisions in the echelon it is named in."""
    state = _state()
    new, r = _give(state, "удар по 6,3: 5 с.к.")
    same, written = _give(state, "удар по 6,3: 17 с.д., 18 с.д.")
    assert r.battle == written.battle and new == same and r.order == "удар по 6,3: 5 с.к."


def test_a_house_rule_keeps_statutes_out_of_blows() -> None:
    house = apply_house_text(R[2], "[statutes]\nechelons_in_blows = false\n", "house.toml")
    state, _ = _give(_state(), SEED)
    _, r = apply(state, parse_order("удар по 6,3: 5 с.к.", state), house, "red")
    _, written = _give(state, "удар по 6,3: 17 с.д., 18 с.д.")
    assert r.battle == written.battle


# --- moves ---------------------------------------------------------------------------------------


def test_a_move_without_a_formation_takes_up_the_statute_s() -> None:
    """5 т.д. (linear) with a statute «построение опорное», ordered `5 т.д. на 9,1`: it re-forms
    first, a quarter turn (9.6), and moves with 0.75 of the turn: on the plain a т.д. makes
    30 km a turn, a 10 km step costs 1/3 turn, two steps 0.67 <= 0.75, the third would need 1:
    it stops at 4,1 (20 km) in the supporting formation. Without the statute it would go 30 km,
    to 5,1."""
    state, _ = _give(_state(), "устав движения 5 т.д.: построение опорное")
    new, r = _give(state, "5 т.д. на 9,1")
    u = new.unit(U("5 т.д."))
    assert u.cell == Cell(4, 1) and u.formation is Formation.SUPPORTING
    assert u.spent == pytest.approx(0.25 + 2 / 3)
    assert r.explanation.rule == "5.9" and r.explanation.value == pytest.approx(0.25 + 2 / 3)
    assert [c.rule for c in r.cuts] == ["9.3"] and "with 0.75 turn left" in r.cuts[0].reason.en
    assert r.outcome.ru == "5 т.д. - 4,1 фронтом на восток" and r.order == "5 т.д. на 9,1"
    # next turn: already in it, no re-forming: the whole 30 km
    new, _ = advance(new, R[2])
    new, r = _give(new, "5 т.д. на 9,1")
    assert new.unit(U("5 т.д.")).cell == Cell(7, 1)
    plain, _ = _give(_state(), "5 т.д. на 9,1")
    assert plain.unit(U("5 т.д.")).cell == Cell(5, 1)


def test_a_formation_written_in_the_order_overrides_the_statute() -> None:
    """`5 т.д. на 9,1 построение линейное`: already linear, no re-forming: 30 km, to 5,1."""
    state, _ = _give(_state(), "устав движения 5 т.д.: построение опорное")
    new, r = _give(state, "5 т.д. на 9,1 построение линейное")
    u = new.unit(U("5 т.д."))
    assert u.cell == Cell(5, 1) and u.formation is Formation.LINEAR
    assert r.order == "5 т.д. на 9,1 построение линейное"


def test_a_corps_statute_is_the_default_of_its_divisions_moves() -> None:
    """2 т.к.'s statute «построение опорное»: each of its divisions re-forms, then moves 20 km."""
    state, _ = _give(_state(), "устав движения 2 т.к.: построение опорное")
    assert statute_for(state, U("21 т.д.")) == statute_for(state, U("2 т.к."))
    new, _ = _give(state, "2 т.к. на 9,5")
    for ref, cell in (("21 т.д.", Cell(4, 5)), ("22 т.д.", Cell(4, 6))):
        u = new.unit(U(ref))
        assert (u.cell, u.formation) == (cell, Formation.SUPPORTING), ref


def test_at_level_1_the_statute_s_formation_does_not_act() -> None:
    """Formations are a level-2 rule (9.6): at level 1 the т.д. moves as it stands, 30 km, the
    explanation says why, and only the distance is cut; a formation written in the order is."""
    state, _ = _give(_state(1), "устав движения 5 т.д.: построение опорное", level=1)
    new, r = _give(state, "5 т.д. на 9,1", level=1)
    assert new.unit(U("5 т.д.")).cell == Cell(5, 1) and [c.rule for c in r.cuts] == ["9.3"]
    assert any("level-2 rule" in s.label.en for s in r.explanation.walk())
    _, r = _give(_state(1), "5 т.д. на 9,1 построение опорное", level=1)
    assert [c.rule for c in r.cuts] == ["9.6", "9.3"]


def test_every_statute_text_is_russian_in_russian() -> None:
    state, a = _give(_state(), SEED)
    state, b = _give(state, "устав движения 5 т.д.: построение опорное")
    _, c = _give(state, "удар по 6,3: 5 с.к.")
    _, d = _give(state, "5 т.д. на 9,1")
    _, e = _give(state, "устав движения 5 с.к.: эшелоны 17 с.д.; 5 т.д.")
    found = [w for r in (a, b, c, d, e) for t in result_texts(r) for w in latin(t)]
    assert not found


# --- the game: journals, reopening, replay, fog ----------------------------------------------------


def _game(tmp_path: Path) -> Game:
    g = Game.new(_front(), tmp_path / "statute.game", level=2)
    red = channel(g, "red")
    red.order(SEED)
    red.order("устав движения 5 т.д.: построение опорное")
    red.order("5 т.д. на 9,1")
    g.end_turn()
    return g


def test_the_statute_is_in_the_side_s_journal_and_the_mediator_s(tmp_path: Path) -> None:
    g = _game(tmp_path)
    red = channel(g, "red").journal_text("ru")
    assert f"{SEED}  →  устав движения 5 с.к. записан" in red
    assert "устав движения 5 т.д.: построение опорное  →  устав движения 5 т.д. записан" in red
    assert "5 т.д. на 9,1  →  5 т.д. - 4,1 фронтом на восток" in red
    assert f"Красные: {SEED}  →  устав движения 5 с.к. записан" in g.journal_text("ru")
    assert "movement statute of 5 RC recorded" in g.journal_text("en")
    blue = channel(g, "blue")
    seen = json.dumps([blue.told(), blue.view().to_json(), blue.status()], ensure_ascii=False)
    for text in (seen, blue.journal_text("ru"), blue.journal_text("en")):
        assert "устав" not in text and "statute" not in text and "5.9" not in text


def test_the_statute_survives_reopening_and_replay(tmp_path: Path) -> None:
    """Kept in the state and in its snapshots: the game reopens (from the End turn's snapshot)
    and replays with the statutes as they were, and a blow given after reopening uses them."""
    g = _game(tmp_path)
    assert [x["unit"] for x in state_to_json(g.state)["statutes"]] == [
        [5, "corps", "rifle"],
        [5, "division", "tank"],
    ]
    assert state_from_json(json.loads(json.dumps(state_to_json(g.state))), g.scenario) == g.state
    again = Game.open(tmp_path / "statute.game")
    assert again.state == g.state and again.state.statutes == g.state.statutes
    verified = Game.open(tmp_path / "statute.game", verify=True)
    assert verified.replay_problems == [] and verified.state == g.state
    again.end_turn()  # Blue's move
    r = channel(again, "red").order("удар по 6,3: 5 с.к.")
    assert r is not None and r.battle is not None
    assert [f.echelon for f in r.battle.units if f.role == "attacker"] == [1, 2, 2, 3]
    replayed = Game.open(tmp_path / "statute.game", verify=True)
    assert replayed.replay_problems == [] and replayed.state == again.state
    assert replayed.results == again.results


def test_a_statute_given_at_level_3_waits_for_the_turn_like_any_order(tmp_path: Path) -> None:
    g = Game.new(_front(), tmp_path / "l3.game", level=3)
    assert channel(g, "red").order(SEED) is None  # sealed until the mediator carries it out
    assert g.state.statutes == ()
    assert "устав" not in json.dumps(channel(g, "blue").told(), ensure_ascii=False)
    g.end_turn()
    assert statutes_of(g.state, "red") == (parse_order(SEED),)


def test_the_grammar_declares_the_statute_under_5_9() -> None:
    forms = [f for f in GRAMMAR.forms if f.cls is Statute]
    assert {f.rule for f in forms} == {"5.9"} and len(forms) == 2


def test_a_statute_outlives_its_troops_without_harm() -> None:
    """A corps whose divisions are all gone keeps its statute; a blow naming it is refused as
    for any unit not on the map."""
    state, _ = _give(_state(), SEED)
    gone = state.with_units([], [U("17 с.д."), U("18 с.д.")])
    assert statutes_of(gone, "red")
    with pytest.raises(OrderError, match="not on the map"):
        apply(gone, parse_order("удар по 6,3: 5 с.к."), R[2])
