"""One game, one history: a command decided on a position commits only if the journal has not
moved on from it in anything its decider would have seen; End turn ends the move it names, once;
Undo takes back the entry it names and nothing others acted on; a computer's move is claimed
once; a holder catching up after an Undo keeps every answer once; the history trials (several
processes on one game, killed at random) lose nothing, do nothing twice and replay exactly."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from strategia.cli import main
from strategia.game.channel import channel
from strategia.game.game import Game
from strategia.game.positions import StaleError
from strategia.game.trial import play

ROOT = Path(__file__).parents[1]
DEFAULT = ROOT / "maps" / "continental.toml"


@pytest.fixture(scope="module")
def at_war(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The default scenario at level 2, played by the script to turn 7 (at war), Red to move."""
    path = tmp_path_factory.mktemp("war") / "base.game"
    g = Game.new(DEFAULT, path, level=2)
    play(g, 6)
    while g.side != "red":
        g.end_turn()
    assert g.state.at_war
    g.journal.close()
    return path


def _copy(base: Path, tmp: Path) -> Path:
    path = tmp / "war.game"
    path.write_bytes(base.read_bytes())
    return path


def test_an_order_decided_before_another_writer_wrote_is_refused(
    at_war: Path, tmp_path: Path
) -> None:
    """The mediator decided on entry N; another holder then wrote an intervention: the order
    given at N is refused, in both languages, and nothing is written."""
    path = _copy(at_war, tmp_path)
    mediator, other = Game.open(path), Game.open(path)
    seen = mediator.position
    other.intervene("дождь")
    n = Game.open(path).journal.last_seq
    with pytest.raises(StaleError) as e:
        mediator.order("21 т.д. поворот на север", at=seen)
    assert "moved on" in str(e.value) and "игра изменилась" in e.value.say("ru")
    assert Game.open(path).journal.last_seq == n
    assert mediator.order("21 т.д. поворот на север", at=mediator.position) is not None


def test_a_side_is_never_refused_for_what_it_was_not_told(at_war: Path, tmp_path: Path) -> None:
    """Red's screen showed entry N; Blue then asked a question (Red is not told of it): Red's
    order given at N goes through. After the mediator's announcement (told to every side) it
    is refused, saying only that Red's screen is behind."""
    path = _copy(at_war, tmp_path)
    red = channel(Game.open(path), "red")
    blue = Game.open(path)
    seen = red.position()
    blue.ask("blue", "где 21 т.д.?")
    assert red.order("21 т.д. поворот на север", at=seen) is not None
    seen = red.position()
    blue.intervene("дождь")
    with pytest.raises(StaleError) as e:
        red.order("22 т.д. поворот на север", at=seen)
    assert "вопрос" not in e.value.say("ru") and "question" not in str(e.value)


def test_end_turn_twice_ends_one_move(at_war: Path, tmp_path: Path) -> None:
    """`game end-turn --side red --turn 7` twice: the first ends Red's move, the second is
    refused (exit 2) and Blue's move is not ended."""
    path = _copy(at_war, tmp_path)
    args = ["game", "end-turn", str(path), "--side", "red", "--turn", "7", "--lang", "en"]
    assert main(args) == 0
    assert main(args) == 2
    g = Game.open(path)
    assert g.side == "blue" and g.state.turn == 7
    ends = [e for e in g.journal.entries if e.kind == "end-turn" and g.turn_of(e.seq) == 7]
    assert [e.data["side"] for e in ends] == ["red"]


def test_undo_takes_back_only_what_its_label_named(at_war: Path, tmp_path: Path) -> None:
    """The console's Undo showed Red's order (entry K); a team then gave another order: Undo of
    K is refused and both orders stand. A question asked after an order forbids its Undo."""
    path = _copy(at_war, tmp_path)
    g = Game.open(path)
    g.order("21 т.д. поворот на север")
    shown = g.undoable()
    assert shown is not None
    channel(Game.open(path), "red").order("22 т.д. поворот на север")
    with pytest.raises(StaleError):
        g.undo(of=shown.seq)
    assert g.undoable() is not None and g.undoable().seq != shown.seq  # type: ignore[union-attr]
    g.ask("blue", "где 21 т.д.?")
    with pytest.raises(Exception, match="asked a question since"):
        g.undo()
    assert Game.open(path, verify=True).replay_problems == []


def test_a_computers_move_is_claimed_once(at_war: Path, tmp_path: Path) -> None:
    path = _copy(at_war, tmp_path)
    a, b = Game.open(path), Game.open(path)
    assert a.claim("red", 7, by="a") is True
    assert b.claim("red", 7, by="b") is False and a.claim("red", 7) is False
    assert b.claim("red", 8, by="b") is True


def test_a_computers_move_ended_meanwhile_gives_nothing_more(at_war: Path, tmp_path: Path) -> None:
    """A computer playing Red's move of turn 7 (its channel bound to that move) gives an order
    and notes its plan; the mediator, in another process, ends Red's move: the player's next
    order, note and question are refused (StaleError, both languages) and nothing is written in
    Blue's move. (The trials found a player whose move of turn 11 went on into turn 12: a
    second plan and a blow written in the next move.)"""
    path = _copy(at_war, tmp_path)
    player = channel(Game.open(path), "red", move=7)
    player.order("21 т.д. поворот на север")
    player.note({"goal": "plan"})
    Game.open(path).end_turn(side="red", turn=7)
    n = Game.open(path).journal.last_seq
    with pytest.raises(StaleError) as e:
        player.order("22 т.д. поворот на север")
    assert "is over" in str(e.value) and "уже окончен" in e.value.say("ru")
    with pytest.raises(StaleError):
        player.note({"goal": "plan"})
    with pytest.raises(StaleError):
        player.ask("где 101 с.д.?")
    assert Game.open(path).journal.last_seq == n


def test_a_holder_catching_up_after_an_undo_counts_each_answer_once(
    at_war: Path, tmp_path: Path
) -> None:
    """A question asked in an earlier move, one in this move, an order undone: a holder that
    catches up has the two answers, as a game opened afresh does (it used to count the
    earlier move's twice, and so drew answers on a wrong question count)."""
    path = _copy(at_war, tmp_path)
    g = Game.open(path)
    g.ask("blue", "где 21 т.д.?")
    g.end_turn()
    while g.side != "red":
        g.end_turn()
    b = Game.open(path)
    g.ask("blue", "где 22 т.д.?")
    g.order("21 т.д. поворот на север")
    g.undo()
    b.refresh()
    assert len(b.answers) == len(Game.open(path).answers) == 2


def test_the_history_trials_quick() -> None:
    """Consoles, team screens, game auto and the command line on one game, killed at random
    (6 trials): nothing acknowledged lost, nothing done twice, every Undo of the entry named,
    and every game replays exactly."""
    out = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "history_trials.py"), "--quick", "--json"],
        capture_output=True, text=True, timeout=300, cwd=ROOT,
        env={**__import__("os").environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    counts = json.loads(out.stdout.splitlines()[-1])
    assert out.returncode == 0, (counts, out.stderr[-2000:])
    assert counts["trials"] == 6 and counts["acknowledged"] > 0
    for k in ("lost", "unopened", "replay", "twice", "unseen_undo", "crashed"):
        assert counts[k] == 0, (k, out.stderr[-2000:])
