"""Losses (`strategia.game.losses`): the strength destroyed or taken away by battles, strikes and
interdiction fire, as the journal records it, never the reserves arriving (6.4); the score
(1.1, reconstructed) counts them and nothing else of the forces."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from strategia.casebook.case import load_case
from strategia.casebook.run import BOOK
from strategia.core.geometry import Cell
from strategia.engine.apply import advance, apply
from strategia.engine.result import Result, UnitLoss
from strategia.engine.state import GameState, Interdiction, initial_state
from strategia.game import losses
from strategia.game.accounts import told
from strategia.game.course import course, states_by_turn
from strategia.game.game import Game
from strategia.game.scoring import score
from strategia.game.trial import play
from strategia.notation import UnitRef, parse_order
from strategia.rules import RuleSet, load_ruleset
from strategia.rules.kinds import DivisionKind
from strategia.sweep.spec import winner_of
from strategia.theatre.builder import ScenarioBuilder

ROOT = Path(__file__).parents[1]
DEFAULT = ROOT / "maps" / "continental.toml"
R2 = load_ruleset(level=2)


def _rating(kind: str, rules: RuleSet) -> float:
    """The level-1 rating of a kind written as the seeds write it, read off the table here."""
    key = DivisionKind.parse(kind).key
    return float(rules.param("initial_ratings", key, "rating").value)


def test_a_game_without_war_has_no_losses_and_is_a_draw(tmp_path: Path) -> None:
    """The default scenario at level 2, six turns and no order. Reserves arrive by table 5's
    schedule (6.4): M+5 is turn 6 (`flow.day_of(6)`), and they come with the new day that the
    End turn closing turn 5 begins, so they are in the position after turn 5: Red's 3.5 (its
    forces 57.4 -> 60.9), Blue's 4.0 (53.6 -> 57.6), the Greens' 2.0 (17 -> 19). Nothing is
    destroyed: every side's losses are 0 on every turn, not the -3.5, -4.0, -2.0 a fall of the
    forces gives. Nobody at war and nobody lost anything: every score 0, the game a draw."""
    g = Game.new(DEFAULT, tmp_path / "g.game", level=2)
    while g.state.turn <= 6:
        g.end_turn()
    ds = course(g)
    assert list(ds.turn.values) == list(range(7)) and not bool(ds.at_war.any())
    assert (ds.losses.values == 0).all()
    came = ds.reinforcements
    assert (came.sel(turn=5).values > 0).all()
    assert [float(came.sel(turn=5, side=s)) for s in ("red", "blue", "green")] == [3.5, 4.0, 2.0]
    assert float(came.drop_sel(turn=5).sum()) == 0.0
    rise = ds.strength.sel(turn=5) - ds.strength.sel(turn=4)
    assert np.allclose(rise.values, came.sel(turn=5).values)
    assert (ds.score.values == 0).all()
    scores = [g.score(s).value for s in ("red", "blue")]
    assert scores == [0.0, 0.0] and winner_of(scores, ["red", "blue"]) == "draw"


def _from_the_journal(g: Game, rules: RuleSet) -> dict[tuple[int, str, str], float]:
    """Each unit's rating lost in each turn, by (turn, side, unit), worked out here from the
    journal's records alone: a battle's and a strike's units (a division fighting in parts is
    listed once a part, with the whole division's strengths: counted once), each on its
    record's side or its role's, and the interdiction fire a result records."""
    out: dict[tuple[int, str, str], float] = defaultdict(float)
    for _, turn, _, r in g.results:
        b = r.battle
        if b is not None:
            units = {u.unit: u for u in reversed(b.units)}  # the first of each
            for u in units.values():
                side = u.side or {"attacker": b.attacker, "defender": b.defender}[u.role]
                drop = u.strength_before - u.strength_after
                out[(turn, side, u.unit)] += _rating(u.kind, rules) * drop
        for x in r.losses:
            out[(turn, x.side, x.unit)] += _rating(x.kind, rules) * (
                x.strength_before - x.strength_after
            )
    return out


@pytest.mark.parametrize("level", [1, 2, 3])
def test_every_loss_is_the_journal_s(tmp_path: Path, level: int) -> None:
    """The scripted game of the golden journals, ten turns: battles and artillery strikes.
    Each side's losses in each turn are the sum of its units' losses worked out from the
    journal's records (rating × strength before less after); and for every unit that stood in
    the position before the turn, its fall of strength (to 0 if it is gone: destroyed) times
    its rating is what the records say it lost (no regrouping in this game; the records keep
    4 decimals)."""
    g = play(Game.new(DEFAULT, tmp_path / "g.game", level=level), 10)
    rules = g.rules
    ds = course(g)
    records = _from_the_journal(g, rules)
    assert any(r.battle is not None and r.battle.outcome == "strike" for _, _, _, r in g.results)
    assert any(v > 0 for v in records.values()), "battles in ten turns of the script"
    for t in ds.turn.values[1:]:
        for side in ds.side.values:
            mine = sum(v for (turn, s, _), v in records.items() if (turn, s) == (t, side))
            assert float(ds.losses.sel(turn=t, side=side)) == pytest.approx(mine, abs=1e-6)
    states = states_by_turn(g)
    checked = 0
    for t in range(1, len(states)):
        before, after = states[t - 1], states[t]
        for ref, u in before.units.items():
            now = after.units.get(ref)
            left = now.division.strength if now is not None else 0.0
            fell = _rating(u.division.kind.ru, rules) * (u.division.strength - left)
            lost = records.get((t, before.side_of(ref), str(ref)), 0.0)
            assert fell == pytest.approx(lost, abs=1e-3), (t, str(ref))
            checked += fell > 0
    assert checked > 5
    # and the forces: the last turn's less the losses plus the reserves arrived
    fall = ds.strength.shift(turn=1) - ds.strength + ds.reinforcements
    assert np.allclose(ds.losses[1:], fall[1:], atol=1e-3) and (ds.losses >= 0).all()


def _board() -> tuple[GameState, RuleSet]:
    b = (
        ScenarioBuilder.blank(16, 9)
        .state("R", "К", "red", lon=(1, 6))
        .state("B", "С", "blue", lon=(7, 16))
    )
    b = b.place("R", "1 с.д. - 6,3 фронтом на восток").place("B", "101 с.д. - 7,3 фронтом на запад")
    return initial_state(b.build(), 2), R2


def test_a_blow_between_equals_costs_each_side_half_and_scores_nothing() -> None:
    """1 с.д. (rating 1, table 9-1 in line, front) strikes 101 с.д. (the same) across the
    border: 1 against 1, the exchange (`loss_rule.exchange` 0.5) takes half of each, 1.0 -> 0.5
    divisions. Each side's loss: 1 × 0.5 = 0.5. The blow begins the war (9.1). Red's balance of
    forces: 100 × 0.5 (Blue's destroyed) − 100 × 0.5 (its own) = 0; it holds no Blue ground:
    0 in all; Blue the same."""
    st, rules = _board()
    new, res = apply(st, parse_order("удар по 7,3: 1 с.д.", st), rules)
    assert res.battle is not None and res.battle.outcome == "held"
    assert {u.unit: u.strength_after for u in res.battle.units} == {"1 с.д.": 0.5, "101 с.д.": 0.5}
    lost = losses.of_result(res, rules)
    assert lost == {"red": 0.5, "blue": 0.5}
    assert new.at_war
    red = score(new, "red", rules, lost)
    assert red.value == 0.0
    steps = {s.label.en: s.value for s in red.explanation.walk()}
    assert steps["own rating lost"] == 0.5 and steps["rating of Blue destroyed"] == 0.5
    assert score(new, "blue", rules, lost).value == 0.0


def test_at_war_without_losses_the_ground_alone_scores() -> None:
    """At war and nobody lost anything: the balance of forces is the rule data's reading
    (`scoring.balance_without_losses`, 0, reconstructed), shown as a note of rule 1.1; Red's
    troops on one Blue cell score that cell (+1)."""
    st, rules = _board()
    red_div = st.unit(UnitRef.parse("1 с.д."))
    st = st.with_units([replace(red_div, cells=(Cell(8, 5),))])
    st = replace(st, wars=frozenset({("B", "R")}), at_war=True)
    red = score(st, "red", rules, {})
    assert red.value == 1.0
    notes = [s for s in red.explanation.walk() if s.kind == "note" and s.rule == "1.1"]
    assert len(notes) == 1 and "восстановлено" in notes[0].label.ru
    assert "потерь нет ни у одной стороны" in notes[0].label.ru
    assert rules.param("scoring", "balance_without_losses").reconstructed


def test_interdiction_fire_on_a_move_is_a_loss(tmp_path: Path) -> None:
    """Case 9.7d-2 played as a game: Blue's interdiction fire on 4,2 (open ground 0.5 × table
    11's 85 % = 0.425); on turn 2 Red's 1 т.д. passes it, 1 -> 0.575. The move's result records
    the loss; Red loses т.д.'s rating 2 × 0.425 = 0.85 on turn 2, and nothing else. What Blue
    is told of Red's move: nothing; what Red is told: where its division stands, no losses."""
    case = load_case(BOOK / "9.7d-2.toml")
    assert case.scenario is not None
    g = Game.new(case.scenario, tmp_path / "g.game", seed=case.seed)
    for step in case.steps:
        if step.kind == "order":
            g.order(step.text)
        else:
            g.end_turn()
    g.end_turn()  # Red's turn 3 ends
    g.end_turn()  # and Blue's: the position after turn 3
    moved = next(r for _, _, _, r in g.results if r.order == "1 т.д. на 5,2")
    assert moved.losses == (UnitLoss("1 т.д.", "red", "т.д.", 1.0, 0.575, "9.7d", "4,2"),)
    assert losses.of_result(moved, g.rules) == {"red": pytest.approx(0.85)}
    ds = course(g)
    assert float(ds.losses.sel(turn=2, side="red")) == pytest.approx(0.85)
    assert float(ds.losses.sum()) == pytest.approx(0.85)
    assert told(moved, "blue") is None
    mine = told(moved, "red")
    assert mine is not None and "losses" not in mine.to_json()


def test_interdiction_fire_on_a_march_is_a_loss() -> None:
    """A с.д. marching 2,3 → 8,3 passes 4,3 on its second turn under Blue's interdiction fire
    (loss 0.5): it goes on at 0.5. The march's next turn is a result that records it: Red
    loses с.д.'s rating 1 × 0.5 = 0.5, and Red is told where the column is."""
    b = (
        ScenarioBuilder.blank(16, 5)
        .state("R", "К", "red", lon=(1, 13))
        .state("B", "С", "blue", lon=(15, 16))
    )
    b = b.road("2,3 12,3").place("R", "5 с.д. - 2,3 фронтом на восток").place("B", "9 а.д. - 16,3")
    state = initial_state(b.build(), 2)
    state, _ = apply(state, parse_order("5 с.д. марш на 8,3", state), R2)
    fire = Interdiction(Cell(4, 3), "blue", 0.5, 1, UnitRef.parse("9 а.д."))
    state, results = advance(replace(state, interdictions=(fire,)), R2)
    u = state.unit(UnitRef.parse("5 с.д."))
    assert u.on_march and u.division.strength == pytest.approx(0.5)
    (fired,) = [r for r in results if r.losses]
    assert fired.by == "red" and fired.losses[0].cell == "4,3"
    assert losses.of_result(fired, R2) == {"red": 0.5}
    account = told(fired, "red")
    assert account is not None and str(u.cell) in account.text.ru


def test_losses_of_interdiction_fire_read_back() -> None:
    """A result's losses survive the journal's record and its whole form; a result with none
    writes none (the journals written before are read as they were)."""
    st, rules = _board()
    _, res = apply(st, parse_order("1 с.д. поворот на север", st), rules)
    assert "losses" not in res.to_record() and "losses" not in res.to_json()
    hit = UnitLoss("1 с.д.", "red", "с.д.", 1.0, 0.5, "9.7d", "5,3")
    gone = UnitLoss("2 т.д.", "red", "т.д.", 0.4, 0.0)
    with_losses = replace(res, losses=(hit, gone))
    for written in (with_losses.to_record(), with_losses.to_json()):
        back = Result.from_json(written)
        assert back.losses == (hit, gone)
    assert Result.from_json(with_losses.to_json()) == with_losses
    assert with_losses.of_side("red").losses == (hit, gone)
    # с.д. 1 × 0.5 and т.д. 2 × 0.4 (destroyed)
    assert losses.of_result(with_losses, rules) == {"red": pytest.approx(1.3)}
