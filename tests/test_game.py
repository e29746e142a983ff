"""A whole game: turns, mobilisation, the durable journal, replay, undo, crash and corruption."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from game_script import play

from strategia.core.errors import StrategiaError
from strategia.engine.result import Result
from strategia.game.game import Game, GameError
from strategia.game.store import GameStore
from strategia.notation.refs import IllegalNotationError, UnitRef

ROOT = Path(__file__).parents[1]
DEFAULT = ROOT / "maps" / "continental.toml"
GOLDEN = Path(__file__).parent / "golden"


# What a header may hold beyond the golden journals' (written before the game store): the
# versions it was played with, the secret seed, the house files' names.
NEW_IN_HEADER = {"format", "game", "seed", "engine", "rules", "house_files", "clock"}


def _bodies(g: Game) -> list[dict[str, object]]:
    return [{k: v for k, v in e.body().items() if k != "time"} for e in g.journal.entries]


def _whole(g: Game) -> list[dict[str, Any]]:
    """The journal's entries with every result whole, its explanation tree included (as the
    golden journals keep them): the journal keeps each explanation's first step, and a game
    works out the rest when it is read."""
    by_seq: dict[int, list[Result]] = {}
    for seq, _, _, r in g.results:
        by_seq.setdefault(seq, []).append(r)
    out = []
    for body in _bodies(g):
        d = body["data"]
        assert isinstance(d, dict)
        if body["kind"] == "order" and "result" in d:
            d = {**d, "result": by_seq[int(str(body["seq"]))][0].to_json()}
        elif body["kind"] == "end-turn":
            d = {**d, "results": [r.to_json() for r in by_seq.get(int(str(body["seq"])), [])]}
        out.append({**body, "data": d})
    return out


def _recorded(whole: dict[str, Any]) -> dict[str, Any]:
    """A whole result as the journal records it: the explanation's first step only."""
    head = {k: v for k, v in whole["explanation"].items() if k != "children"}
    return {**{k: v for k, v in whole.items() if k != "explanation"}, "head": head}


@pytest.mark.parametrize("level", [1, 2, 3])
def test_scripted_game_of_ten_turns_matches_the_golden_journal(tmp_path: Path, level: int) -> None:
    g = play(Game.new(DEFAULT, tmp_path / "g.game", level=level), 10)
    assert g.state.turn == 11 and g.state.at_war
    got = _whole(g)
    golden = GOLDEN / f"continental_level{level}.json"
    if os.environ.get("STRATEGIA_REGEN_GOLDEN") or not golden.exists():
        golden.write_text(json.dumps(got, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    expected = json.loads(golden.read_text(encoding="utf-8"))
    assert len(got) == len(expected)
    header, kept = got[0]["data"], expected[0]["data"]
    assert isinstance(header, dict) and isinstance(kept, dict)
    assert {k: v for k, v in header.items() if k not in NEW_IN_HEADER} == {
        k: v for k, v in kept.items() if k not in NEW_IN_HEADER
    }
    for a, b in zip(got[1:], expected[1:], strict=True):
        assert a == b, f"entry {a['seq']} differs from the golden journal"
    # the journal itself keeps each result with its explanation's first step
    for e, b in zip(g.journal.entries[1:], expected[1:], strict=True):
        if e.kind == "order" and "result" in e.data:
            assert e.data["result"] == _recorded(b["data"]["result"])
        elif e.kind == "end-turn":
            assert e.data["results"] == [_recorded(r) for r in b["data"]["results"]]
    again = Game.open(tmp_path / "g.game")
    assert again.replay_problems == [] and again.state == g.state
    assert again.results == g.results and len(again.journal.entries) == len(got)
    # reopened, every explanation is worked out again as it was when played
    assert _whole(again)[1:] == expected[1:]
    verified = Game.open(tmp_path / "g.game", verify=True)
    assert verified.replay_problems == [] and verified.state == g.state


@pytest.mark.parametrize("level", [1, 2, 3])
def test_the_golden_journals_import_and_replay_without_a_difference(
    tmp_path: Path, level: int
) -> None:
    g = Game.import_text(GOLDEN / f"continental_level{level}.json", tmp_path / "g.game")
    assert g.replay_problems == [] and g.state.turn == 11
    again = Game.open(tmp_path / "g.game")
    assert again.state == g.state and again.results == g.results


def test_turn_order_red_first_and_sides_alternate(tmp_path: Path) -> None:
    g = Game.new(DEFAULT, tmp_path / "g.game", level=2)
    assert g.side == "red" and g.state.turn == 1
    with pytest.raises(GameError, match="it is Red's move, not Blue's"):
        g.order("110 с.д. на 30,39")
    g.order("21 т.д. на 35,35")
    g.end_turn()
    assert g.side == "blue"
    g.end_turn()
    assert g.side == "green"
    g.end_turn()
    assert g.side == "red" and g.state.turn == 2


def test_level_3_orders_wait_for_the_mediator(tmp_path: Path) -> None:
    g = Game.new(DEFAULT, tmp_path / "g.game", level=3)
    assert g.order("21 т.д. на 35,35") is None
    assert g.order("110 с.д. на 30,39") is None
    before = g.state.unit(UnitRef.parse("21 т.д.")).cell
    results = g.end_turn()
    assert g.state.unit(UnitRef.parse("21 т.д.")).cell != before and g.state.turn == 2
    assert len([r for r in results if "на" in r.order]) == 2


def test_mobilisation_arrivals_6_4(tmp_path: Path) -> None:
    g = Game.new(DEFAULT, tmp_path / "g.game", level=2)
    assert UnitRef.parse("71 с.д.") in g.state.units  # day M
    assert UnitRef.parse("76 с.д.") not in g.state.units  # M+5
    for _ in range(5 * 3):  # red, blue and the greens move each day
        g.end_turn()
    assert g.state.turn == 6 and UnitRef.parse("76 с.д.") in g.state.units
    assert (
        g.state.unit(UnitRef.parse("76 с.д.")).cell.km(g.state.unit(UnitRef.parse("77 с.д.")).cell)
        > 0
    )
    g1 = Game.new(DEFAULT, tmp_path / "g1.game", level=1)
    assert UnitRef.parse("84 с.д.") in g1.state.units  # level 1: the whole table at M


def test_undo_and_state_at_an_earlier_turn(tmp_path: Path) -> None:
    g = Game.new(DEFAULT, tmp_path / "g.game", level=2)
    start = g.state
    g.order("21 т.д. на 35,35")
    g.undo()
    assert g.state.unit(UnitRef.parse("21 т.д.")) == start.unit(UnitRef.parse("21 т.д."))
    with pytest.raises(GameError, match="nothing to undo"):
        g.undo()
    g.order("21 т.д. на 35,35")
    for _ in range(4):
        g.end_turn()
    assert (
        g.state_at(1).unit(UnitRef.parse("21 т.д.")).cell
        == start.unit(UnitRef.parse("21 т.д.")).cell
    )
    assert g.state_at(2) == g.state


def test_an_order_taken_back_stays_out_of_the_results_once_the_turn_is_over(
    tmp_path: Path,
) -> None:
    g = Game.new(DEFAULT, tmp_path / "g.game", level=2)
    g.order("21 т.д. на 35,35")
    g.undo()
    g.order("21 т.д. на 34,35")
    g.end_turn()
    again = Game.open(tmp_path / "g.game")  # from the snapshot after End turn
    assert [r.order for *_, r in again.results] == [r.order for *_, r in g.results]
    assert again.results == g.results


def test_explanations_are_worked_out_again_when_read(tmp_path: Path) -> None:
    g = Game.new(DEFAULT, tmp_path / "g.game", level=2)
    played = [g.order("21 т.д. на 35,35"), g.order("22 т.д. на 33,35")]
    g.end_turn()
    again = Game.open(tmp_path / "g.game")
    kept = [r for seq, _, _, r in again.results][:2]
    assert [r.explanation.label for r in kept] == [r.explanation.label for r in played if r]
    assert [r.explanation.to_json() for r in kept] == [r.explanation.to_json() for r in played if r]
    entry = next(e for e in again.journal.entries if e.kind == "order")
    assert "explanation" not in entry.data["result"] and "head" in entry.data["result"]


def test_orders_given_together_are_one_command(tmp_path: Path) -> None:
    g = Game.new(DEFAULT, tmp_path / "g.game", level=3)
    one = Game.new(DEFAULT, tmp_path / "one.game", level=3, seed=g.seed)
    texts = ["21 т.д. на 35,35", "22 т.д. на 34,33"]
    assert g.orders(texts, "red") == [None, None]
    for t in texts:
        one.order(t, "red")
    with pytest.raises(StrategiaError, match="110 с.д."):  # a Blue division: none is written
        g.orders(["23 т.д. на 33,33", "110 с.д. на 30,39"], "red")
    assert len(g.queued) == 2 and len(Game.open(tmp_path / "g.game").journal.entries) == 3
    assert g.end_turn() == one.end_turn() and g.state == one.state


def test_interventions_and_their_limit(tmp_path: Path) -> None:
    from strategia.core.geometry import Cell

    g = Game.new(DEFAULT, tmp_path / "g.game", level=2, limit_interventions=True)
    g.intervene("rain", Cell.parse("33,24"), 2)
    assert g.state.closed(Cell.parse("33,24"), "road-movement")
    with pytest.raises(GameError, match="one in 7 turns"):
        g.intervene("more rain")
    assert Game.open(tmp_path / "g.game").state.closures == g.state.closures


def test_peace_ends_the_game(tmp_path: Path) -> None:
    g = Game.new(DEFAULT, tmp_path / "g.game", level=2)
    g.end_game()
    with pytest.raises(GameError, match="peace talks"):
        g.order("21 т.д. на 35,35")
    assert Game.open(tmp_path / "g.game").phase == "peace"


def test_score_and_penalties(tmp_path: Path) -> None:
    g = play(Game.new(DEFAULT, tmp_path / "g.game", level=2), 4)
    s = g.score("red")
    assert s.explanation.rule == "1.1" and isinstance(s.value, float)
    assert any(c.rule == "9.3" for c in s.explanation.children)
    penalties = g.review()
    assert set(penalties) <= {"red", "blue", "green"}
    for e in penalties.values():
        assert e.value == sum(float(c.value) for c in e.explanation.children)  # type: ignore[arg-type]


# --- the journal ----------------------------------------------------------------------------


def test_each_entry_is_committed_before_it_is_acknowledged(tmp_path: Path) -> None:
    g = Game.new(DEFAULT, tmp_path / "g.game", level=2)
    g.order("21 т.д. на 35,35")
    with GameStore.open(tmp_path / "g.game") as other:
        assert other.entries[-1].data["order"] == "21 т.д. на 35,35"


def test_a_game_file_cannot_be_overwritten(tmp_path: Path) -> None:
    Game.new(DEFAULT, tmp_path / "g.game", level=2)
    with pytest.raises(StrategiaError, match="already there"):
        Game.new(DEFAULT, tmp_path / "g.game", level=2)


def test_journal_export(tmp_path: Path) -> None:
    g = play(Game.new(DEFAULT, tmp_path / "g.game", level=2), 2)
    text = g.journal_text("ru")
    assert text.startswith("«Континентальная война»") and "Ход 1" in text and "Ход 2" in text
    entries = g.journal_json()
    assert entries[0]["kind"] == "game" and all("crc" not in e for e in entries)


def test_replay_gives_the_identical_state_at_every_turn(tmp_path: Path) -> None:
    from game_script import script_turn

    g = Game.new(DEFAULT, tmp_path / "g.game", level=2)
    seen = {}
    while g.state.turn <= 6:
        if g.side == "red":
            seen[g.state.turn] = g.state.units
        script_turn(g)
    again = Game.open(tmp_path / "g.game")
    for turn, units in seen.items():
        assert again.state_at(turn).units == units, turn


def test_a_game_from_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from strategia.cli import main

    game = str(tmp_path / "cli.game")
    assert main(["game", "new", str(DEFAULT), game, "--level", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["side"] == "red"
    assert main(["game", "order", game, "21 т.д. на 33,35", "--explain", "--lang", "en"]) == 0
    assert "table 4" in capsys.readouterr().out
    assert main(["game", "order", game, "110 с.д. на 30,39", "--lang", "en"]) == 2
    assert "Red's move" in capsys.readouterr().err
    for _ in range(3):
        assert main(["game", "end-turn", game, "--json"]) == 0
    assert json.loads(capsys.readouterr().out.split("\n}\n")[-2] + "\n}")["turn"] == 2
    assert main(["game", "show", game, "--side", "blue", "--json"]) == 0
    view = capsys.readouterr().out
    assert '"21 т.д."' not in view and json.loads(view)["view"]["side"] == "blue"
    assert main(["game", "show", game, "--turn", "1"]) == 0
    capsys.readouterr()
    assert main(["game", "journal", game, "--lang", "ru"]) == 0
    assert "Ход 1" in capsys.readouterr().out
    assert main(["game", "replay", game, "--lang", "en"]) == 0
    assert "every result, answer and snapshot reproduced" in capsys.readouterr().out
    assert (
        main(["game", "ask", game, "--side", "blue", "есть ли войска в 33,35?", "--lang", "en"])
        == 2
    )
    assert "no war yet" in capsys.readouterr().err
    assert main(["game", "score", game, "--json"]) == 0
    assert set(json.loads(capsys.readouterr().out)) == {"red", "blue", "green"}


def test_the_command_line_refuses_what_it_cannot_do(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from strategia.cli import main

    game = str(tmp_path / "cli.game")
    assert main(["game", "new", str(DEFAULT), game, "--level", "2"]) == 0
    assert main(["game", "show", game, "--turn", "999", "--lang", "en"]) == 2
    assert "turn 999: this game has turns 1 to 1" in capsys.readouterr().err
    assert (
        main(["game", "intervene", game, "rain", "--cell", "99,99", "--turns", "2", "--lang", "en"])
        == 2
    )
    assert "off the map, which is 64 x 44" in capsys.readouterr().err
    assert (
        main(
            ["game", "intervene", game, "rain", "--cell", "33,24", "--turns", "-1", "--lang", "en"]
        )
        == 2
    )
    assert "from 1 to 1000" in capsys.readouterr().err
    assert main(["game", "ask", game, "--side", "purple", "где 21 т.д.?", "--lang", "en"]) == 2
    assert "this game's sides are red, blue, green" in capsys.readouterr().err
    assert len(GameStore.open(game).entries) == 1  # nothing was written


def test_level_3_refuses_orders_for_a_side_that_is_not_in_the_game(tmp_path: Path) -> None:
    g = Game.new(DEFAULT, tmp_path / "g.game", level=3)
    with pytest.raises(GameError, match="this game's sides are red, blue, green"):
        g.order("21 т.д. на 35,35", "purple")
    # 1.6: read against Blue's own units, Red's 21 т.д. is no more than a unit nobody has
    with pytest.raises(IllegalNotationError, match="no such unit 21 т.д.") as enemy:
        g.order("21 т.д. на 35,35", "blue")
    with pytest.raises(IllegalNotationError, match="no such unit 29 т.д.") as nobody:
        g.order("29 т.д. на 35,35", "blue")
    assert str(enemy.value).replace("21", "N") == str(nobody.value).replace("29", "N")
    assert g.queued == [] and len(g.journal.entries) == 1


def test_export_import_and_replay_exits_1_on_a_difference(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from strategia.cli import main
    from strategia.game import textform

    play(Game.new(DEFAULT, tmp_path / "g.game", level=2), 2)
    text = tmp_path / "g.jsonl"
    assert main(["game", "export", str(tmp_path / "g.game"), str(text)]) == 0
    assert main(["game", "import", str(text), str(tmp_path / "copy.game")]) == 0
    capsys.readouterr()
    a, b = Game.open(tmp_path / "g.game"), Game.open(tmp_path / "copy.game")
    assert a.journal.entries == b.journal.entries and a.state == b.state
    assert a.journal.header["seed"] == b.journal.header["seed"]  # the secret moves with it
    entries, _ = textform.read(text)
    k = next(i for i, e in enumerate(entries) if e.kind == "order")
    e = entries[k]
    entries[k] = type(e)(
        e.seq,
        e.kind,
        {**e.data, "result": {**e.data["result"], "outcome": {"en": "x", "ru": "x"}}},
        e.time,
    )
    textform.write(text, entries)
    assert main(["game", "import", str(text), str(tmp_path / "bad.game")]) == 1  # findings
    capsys.readouterr()
    assert main(["game", "replay", str(tmp_path / "bad.game"), "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["problems"] == [f"entry {e.seq}: {e.data['order']}: the result differs on replay"]
