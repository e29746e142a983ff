"""The course of the war (`strategia.game.course`): its numbers recomputed from the game's
states and its journal's entries; and the store that does not sync (`durable=False`), whose
closed file is an ordinary game."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from strategia.game import losses
from strategia.game.course import course
from strategia.game.game import Game
from strategia.game.scoring import score, strength_of
from strategia.players import Player
from strategia.sweep.play import play_game

ROOT = Path(__file__).parents[1]
SETTINGS = {
    "red": {"style": "bold", "posture": "attack@1", "seed": 1},
    "blue": {"style": "bold", "posture": "attack@1", "seed": 2},
    "green": {"style": "balanced", "posture": "wait", "seed": 3},
}


def played(path: Path, turns: int, durable: bool) -> Game:
    g = Game.new(ROOT / "maps" / "continental.toml", path, seed=5, computer=SETTINGS,
                 durable=durable)  # fmt: skip
    play_game(g, {s: Player.of_settings(s, v) for s, v in SETTINGS.items()}, turns)
    return g


def test_the_course_matches_the_states_and_the_journal(tmp_path: Path) -> None:
    g = played(tmp_path / "a.game", 3, durable=False)
    ds = course(g)
    assert list(ds["turn"].values) == [0, 1, 2, 3]
    assert list(ds["side"].values) == ["red", "blue", "green"]
    for t in range(4):
        st = g.state_at(t + 1)
        so_far = losses.total((r for _, turn, _, r in g.results if turn <= t), g.rules)
        for side in ("red", "blue", "green"):
            cell = ds.sel(turn=t, side=side)
            assert float(cell["strength"]) == strength_of(st, side, g.rules)
            assert float(cell["score"]) == score(st, side, g.rules, so_far).value
        assert bool(ds["at_war"].sel(turn=t)) == st.at_war
    # the forces fall by the losses and rise by the reserves arrived (4-decimal records)
    fall = ds["strength"].shift(turn=1) - ds["strength"] + ds["reinforcements"]
    np.testing.assert_allclose(ds["losses"].values[1:], fall.values[1:], atol=1e-3)
    assert (ds["losses"].values >= 0).all()
    # the battles, counted again from the entries as written: each result's battle record
    counted = np.zeros((4, 3), dtype=int)
    turn, sides = 1, ["red", "blue", "green"]
    for e in g.journal.entries:
        records = [e.data.get("result")] if e.kind == "order" else e.data.get("results", [])
        for r in records:
            b = (r or {}).get("battle")
            if b and b["outcome"] not in ("no_battle", "strike"):
                for side in {b["attacker"], b["defender"]} - {""}:
                    counted[turn, sides.index(side)] += 1
        if e.kind == "end-turn":
            turn = int(e.data["turn_after"])
    assert (ds["battles"].values == counted).all()
    assert counted.sum() > 0, "both sides bold from turn 1: some battle in three turns"
    g.journal.close()


def test_a_store_that_does_not_sync_keeps_no_count_and_is_an_ordinary_game(
    tmp_path: Path,
) -> None:
    g = played(tmp_path / "fast.game", 1, durable=False)
    assert not g.journal.durable
    g.journal.close()
    assert not Path(f"{tmp_path / 'fast.game'}-count").exists()
    again = Game.open(tmp_path / "fast.game", verify=True)
    # every entry replays; only the count kept apart is missing (a sweep's kept games get it)
    assert [p for p in again.replay_problems if "no count" not in p] == []
    assert again.state.turn == 2
    assert again.journal.durable  # opened as any game is: durable again
    again.journal.close()
    slow = Game.new(ROOT / "maps" / "continental.toml", tmp_path / "slow.game", seed=5)
    assert slow.journal.durable and Path(f"{tmp_path / 'slow.game'}-count").exists()
    slow.journal.close()
