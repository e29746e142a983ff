"""The eight-phase turn (003 turn sequence), the order cards, the mediator's reports, the action
notation and the journaled game."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from strategia.core.errors import StrategiaError
from strategia.tactical import EXAMPLES, TacticalGame, load_skirmish, parse_skirmish
from strategia.tactical.actions import (
    Face,
    Form,
    Mode,
    Move,
    Restore,
    format_actions,
    parse_actions,
)
from strategia.tactical.phases import Phase
from strategia.tactical.skirmish import SkirmishError
from strategia.tactical.units import Condition, Formation, TacticalError

GROVE = EXAMPLES / "grove.toml"

DUEL = """
[skirmish]
name = "duel"
table = [100, 100]

[[unit]]
name = "red bn"
side = "red"
arm = "infantry"
figures = 16
formation = "column"
at = [50, 10]

[[unit]]
name = "blue bn"
side = "blue"
arm = "infantry"
figures = 12
formation = "line"
at = [50, 60]
facing = 180

[[unit]]
name = "red guns"
side = "red"
arm = "artillery"
figures = 6
guns = 4
formation = "unlimbered"
at = [80, 10]
"""


def duel() -> TacticalGame:
    return TacticalGame.new(parse_skirmish(DUEL, "duel.toml"))


def to(game: TacticalGame, phase: Phase) -> None:
    while game.phase is not phase:
        game.advance()


def test_the_phases_go_round_in_the_seeds_order() -> None:
    game = duel()
    seen = [game.phase]
    for _ in range(8):
        game.advance()
        seen.append(game.phase)
    assert [p.number for p in seen] == [1, 2, 3, 4, 5, 6, 7, 8, 1]
    assert game.battle.turn == 2
    assert "Movements" in str(game.history[1]) and "003 turn sequence" in str(game.history[1])


def test_cards_are_laid_in_phase_1_only_and_attack_an_enemy() -> None:
    game = duel()
    game.card("red bn", before="move 5", attack="blue")
    assert game.battle.cards["red bn"].attack == "blue bn"
    with pytest.raises(TacticalError, match="same side"):
        game.card("red bn", attack="red guns")
    game.advance()
    with pytest.raises(TacticalError, match="phase 1"):
        game.card("blue bn", before="move 2")


def test_the_attacked_do_the_part_of_their_plans_the_attack_takes() -> None:
    game = duel()
    game.card("red bn", before="move 6", attack="blue bn")  # 6 cm at 12: half a turn
    game.card("blue bn", before="withdraw 5")  # 5 cm at 5 cm a turn: a whole turn
    game.advance()  # 2: attacks declared
    blue = game.table.unit("blue bn")
    assert game.table.unit("red bn").moved == 6
    assert blue.spent == Fraction(1, 2) and blue.moved == Fraction(5, 2)
    game.advance()  # 3: the rest of the plan
    blue = game.table.unit("blue bn")
    assert blue.spent == 1 and blue.moved == 5 and blue.y == 65


def test_plans_before_and_after_fire_share_the_turn() -> None:
    game = duel()
    game.card("red bn", before="move", after="form square")  # the square's 2/5 is kept back
    to(game, Phase.MOVEMENT)
    assert game.table.unit("red bn").moved == Fraction(36, 5)
    assert game.table.unit("red bn").formation is Formation.COLUMN
    to(game, Phase.AFTER_FIRE)
    assert game.table.unit("red bn").formation is Formation.SQUARE
    assert game.table.unit("red bn").spent == 1


def test_units_act_directly_only_in_the_moving_phases() -> None:
    game = duel()
    with pytest.raises(TacticalError, match="phases 2, 3, 5 and 6"):
        game.act("red bn", "move 3")
    to(game, Phase.MOVEMENT)
    game.act("red bn", "move 3")
    to(game, Phase.FIRE)
    with pytest.raises(TacticalError, match="phases 2, 3, 5 and 6"):
        game.act("red bn", "move 3")
    to(game, Phase.TESTS)
    game.act("red bn", "move 3")  # forced actions after the tests
    assert game.table.unit("red bn").moved == 6


def test_the_mediator_enters_fire_artillery_first_then_musketry() -> None:
    game = duel()
    with pytest.raises(TacticalError, match="phase 4"):
        game.report("blue bn", "artillery", casualties=1)
    to(game, Phase.FIRE)
    step = game.report("blue bn", "artillery", casualties=2, outcome="canister", by="red guns")
    assert "no table" in str(step)
    blue = game.table.unit("blue bn")
    assert blue.figures == 10 and blue.lost == 2
    game.report("red bn", "musketry", casualties=1, by="blue bn")
    with pytest.raises(TacticalError, match="artillery fire comes first"):
        game.report("blue bn", "artillery", casualties=1)
    with pytest.raises(TacticalError, match="phase 6"):
        game.report("red bn", "test", outcome="holds")
    assert [r.kind.key for r in game.battle.reports] == ["artillery", "musketry"]
    assert game.battle.reports[0].by == "red guns"


def test_tests_melee_and_wavering_record_outcomes_and_conditions() -> None:
    game = duel()
    to(game, Phase.TESTS)
    game.report("blue bn", "test", outcome="wavers", condition="disordered")
    to(game, Phase.MELEE)
    game.report("blue bn", "melee", casualties=3, outcome="broken", condition="routed")
    blue = game.table.unit("blue bn")
    assert blue.condition is Condition.ROUTED and blue.formation is Formation.LOOSE
    to(game, Phase.WAVERING)
    game.report("blue bn", "wavering", outcome="keeps running")
    game.advance()
    assert game.phase is Phase.PLANNING
    game.card("blue bn", before="flee 10 towards 0")
    to(game, Phase.MOVEMENT)
    assert game.table.unit("blue bn").y == 70


def test_a_new_turn_clears_the_cards_and_carries_on_a_change_begun() -> None:
    game = duel()
    game.card("red bn", before="form march")  # column to march: 8 × 1/6 = 4/3 turns
    to(game, Phase.MOVEMENT)
    bn = game.table.unit("red bn")
    assert bn.pending is not None and bn.pending.left == Fraction(1, 3)
    to(game, Phase.PLANNING)
    bn = game.table.unit("red bn")
    assert bn.formation is Formation.MARCH and bn.spent == Fraction(1, 3) and bn.pending is None
    assert game.battle.cards == {} and game.battle.turn == 2
    assert "carrying on" in str(game.history[-1])


def test_the_game_is_its_journal(tmp_path: Path) -> None:
    path = tmp_path / "duel.tgame"
    game = TacticalGame.new(GROVE, path)
    game.card("1/Тульский", before="move; form square")
    game.card("2/Тульский", before="move", attack="II/61e ligne")
    to(game, Phase.FIRE)
    game.report("2/Тульский", "artillery", casualties=1, by="Batterie à pied")
    again = TacticalGame.open(path)
    assert again.to_json()["units"] == game.to_json()["units"]
    assert again.phase is Phase.FIRE and len(again.journal.entries) == 1 + 2 + 3 + 1  # type: ignore[union-attr]
    with pytest.raises(StrategiaError, match="already there"):
        TacticalGame.new(GROVE, path)


def test_a_bad_action_is_not_journaled(tmp_path: Path) -> None:
    path = tmp_path / "g.tgame"
    game = TacticalGame.new(GROVE, path)
    with pytest.raises(TacticalError):
        game.card("1/Тульский", before="gallop")
    assert len(TacticalGame.open(path).journal.entries) == 1  # type: ignore[union-attr]


def test_the_notation_reads_and_writes_actions() -> None:
    actions = parse_actions("move; move 5 road; double 7,5; withdraw 2; retreat 3; flee 10 towards 180;"
                            " wheel -30; face 90; form square; form line facing 45; unlimber facing 270;"
                            " limber; prolonge; restore")  # fmt: skip
    assert actions[0] == Move(Mode.FORWARD, None)
    assert actions[1] == Move(Mode.FORWARD, Fraction(5), None, True)
    assert actions[2] == Move(Mode.ACCELERATED, Fraction(15, 2))
    assert actions[5] == Move(Mode.FLIGHT, Fraction(10), 180.0)
    assert actions[6] == Face(angle=-30.0) and actions[7] == Face(bearing=90.0)
    assert actions[9] == Form(Formation.LINE, 45.0) and actions[10] == Form(
        Formation.UNLIMBERED, 270.0
    )
    assert actions[-1] == Restore()
    assert parse_actions(format_actions(actions)) == actions
    assert parse_actions(format_actions(actions, "ru")) == actions  # Russian reads back too
    assert format_actions(actions[:2], "ru") == "вперед; вперед 5 по дороге"
    assert parse_actions("вперед 5; строй каре; восстановить") == (
        Move(Mode.FORWARD, Fraction(5)), Form(Formation.SQUARE), Restore(),
    )  # fmt: skip
    with pytest.raises(TacticalError, match="unknown action"):
        parse_actions("gallop 5")


def test_skirmish_files_report_every_problem(tmp_path: Path) -> None:
    sk = load_skirmish(GROVE)
    assert len(sk.units) == 7 and len(sk.obstacles) >= 6 and sk.width == 120
    bad = tmp_path / "bad.toml"
    bad.write_text(
        '[[obstacle]]\nkind = "swamp"\npolygon = [[0, 0], [1, 0], [1, 1]]\n'
        '[[unit]]\nname = "x"\nside = "red"\narm = "infantry"\nfigures = 4\nat = [1, 2]\nformation = "limbered"\n'
        '[[unit]]\nname = "y"\nside = "red"\narm = "cavalry"\n',
        encoding="utf-8",
    )
    with pytest.raises(SkirmishError) as e:
        load_skirmish(bad)
    assert len(e.value.problems) == 3
    assert "obstacle[0].kind" in str(e.value) and "cannot be in limbered" in str(e.value)
    assert "missing figures, at" in str(e.value)


def test_the_phase_says_which_units_count_as_moving() -> None:
    """003, note 3 to the speeds: at least 2 cm in the turn, or a formation change. In phase 3
    the red battalion (division column, 12 cm) carries out «move 1»: 1 cm, not moving; the red
    guns, planned to limber (a formation change), count as moving without having moved; the
    phase's explanation says so of each, citing the rule, and a new turn starts everyone
    afresh."""
    game = duel()
    game.card("red bn", "move 1")
    game.card("red guns", "form limbered")
    to(game, Phase.MOVEMENT)
    assert game.last is not None
    said = {
        s.label.en.split(":")[0]: s.value
        for s in game.last.walk()
        if s.rule == "003 speeds, note 3" and s.label.en.endswith("counts as moving")
    }
    assert said == {"red bn": False, "red guns": True}
    units = {u["name"]: u["moving"] for u in game.to_json()["units"]}
    assert units == {"red bn": False, "blue bn": False, "red guns": True}
    to(game, Phase.PLANNING)
    assert not any(u["moving"] for u in game.to_json()["units"])
