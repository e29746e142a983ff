"""The computer's sides at the console (issue 26), driven as the Mediator tab's rows and the end
of a move drive them: a side given to the computer and back, its move when its turn comes
(levels 1-2) or its sealed orders (level 3), «компьютер думает…» while it moves, its orders and
reasons in the mediator's journal and the tab, never on a side's screen; in Russian with no
English, and in English."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_console import _texts
from test_russian import assert_russian

from strategia.game.game import Game
from strategia.players import Player
from strategia.ui.console import Console
from strategia.ui.console.computer import moves_html, seat_rows, thinking_html

ROOT = Path(__file__).parents[1]
DEFAULT = ROOT / "maps" / "continental.toml"


@pytest.fixture
def seen(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str, str]]:
    """What the console showed while each computer move ran: (side, the head's mark, the
    Mediator tab's mark)."""
    out: list[tuple[str, str, str]] = []
    real = Player.move

    def move(self: Player, ch: Any) -> Any:
        c = CONSOLES[-1]
        out.append((self.side, c.busy.value, c.panels.computer.thinking.value))
        return real(self, ch)

    monkeypatch.setattr(Player, "move", move)
    return out


CONSOLES: list[Console] = []


def _console(tmp_path: Path, lang: str, level: int = 2, **new: Any) -> Console:
    g = Game.new(DEFAULT, tmp_path / f"{lang}{level}.game", level=level, seed=1, **new)
    c = Console(g, lang=lang, games=tmp_path)
    CONSOLES.append(c)
    return c


def test_a_side_given_to_the_computer_moves_when_its_turn_comes(
    tmp_path: Path, seen: list[tuple[str, str, str]]
) -> None:
    c = _console(tmp_path, "ru")
    g = c.game
    rows = c.panels.computer.rows
    assert [r[0].value for r in rows.values()] == ["team", "team", "team"]
    assert rows["blue"][1].disabled  # no style to choose for a team's side
    rows["blue"][1].value = "bold"  # ignored while a team plays it: not journalled
    assert g.computer_sides() == {}
    rows["blue"][0].value = "computer"
    rows["blue"][1].value = "bold"
    assert g.computer_sides()["blue"]["style"] == "bold" and not seen  # Red is to move
    c.submit("21 т.д. на 35,35")
    c.end_turn()  # Red's move ends; Blue's turn comes: the computer moves and ends it
    assert [s for s, _, _ in seen] == ["blue"] and g.side == "green" and g.state.turn == 1
    _, busy, mark = seen[0]
    assert "компьютер думает…" in busy and "компьютер думает…" in mark and "Синие" in mark
    assert c.busy.value == "" and c.panels.computer.thinking.value == ""  # gone when done
    blue = g.decisions("blue")
    orders = [d["order"] for _, d in blue if d.get("order")]
    assert orders and all(d["turn"] == 1 for _, d in blue)
    assert "[решение, синие] " in g.journal_text("ru")
    assert "[решение, синие] " in c.panels.journal.text.value  # the mediator's journal
    last = c.panels.computer.last.value
    assert "Последний ход компьютера" in last and all(o in last for o in orders[:3])
    assert_russian([*_texts(c.widget), c.panels.computer.widget.children[0].value], "console")
    # Green given to the computer on its own move: it moves at once, and the turn passes
    rows["green"][0].value = "computer"
    assert [s for s, _, _ in seen] == ["blue", "green"] and g.side == "red" and g.state.turn == 2
    assert c.end_button.description == "Конец хода"
    c.end_turn()
    assert [s for s, _, _ in seen][2:] == ["blue", "green"] and g.side == "red"
    # Blue back to its team: its move waits for it
    rows["blue"][0].value = "team"
    assert "blue" not in g.computer_sides()
    c.end_turn()
    assert g.side == "blue" and len(seen) == 4
    assert c.end_button.description == "Конец хода" and c.panels.computer.go.disabled


def test_the_computer_s_reasons_are_the_mediator_s_only(tmp_path: Path) -> None:
    c = _console(tmp_path, "en")
    c.panels.computer.rows["blue"][0].value = "computer"
    c.end_turn()
    assert c.game.decisions("blue") and "The computer's last move" in c.panels.computer.last.value
    for side in ("red", "blue"):
        c.view_choice.value = side
        assert c.panels.computer.last.value == ""
        assert "[decision" not in c.panels.journal.text.value
    c.view_choice.value = "mediator"
    assert "[decision, Blue] " in c.panels.journal.text.value


def test_at_level_3_the_computer_seals_its_orders_for_the_turn(
    tmp_path: Path, seen: list[tuple[str, str, str]]
) -> None:
    c = _console(tmp_path, "en", level=3)
    g = c.game
    c.panels.computer.rows["blue"][0].value = "computer"
    assert [s for s, _, _ in seen] == ["blue"] and "the computer is thinking…" in seen[0][1]
    sealed = {s["side"] for s in g.submitted()}
    assert sealed == {"blue"} and g.state.turn == 1  # sealed, the turn not carried out
    assert "blue" not in g.computer_due()
    c.panels.computer.rows["green"][0].value = "computer"
    c.submit("21 т.д. на 35,35")
    assert {s["side"] for s in g.submitted()} == {"red", "blue"}  # Green waits: no orders
    assert g.computer_due() == [] and g.decisions("green")
    assert c.end_button.description == "Execute the turn"
    c.end_turn()  # the mediator carries the turn out; the computer seals the next at once
    assert g.state.turn == 2 and [s for s, _, _ in seen] == ["blue", "green", "blue", "green"]
    assert {s["side"] for s in g.submitted()} == {"blue"} and g.computer_due() == []


def test_a_game_with_computer_sides_keeps_them_when_reopened(tmp_path: Path) -> None:
    c = _console(tmp_path, "ru", computer={"red": {"style": "cautious", "posture": "wait"}})
    row = c.panels.computer.rows["red"]
    assert row[0].value == "computer" and row[1].value == "cautious" and row[2].value == "wait"
    assert c.end_button.description == "Ход компьютера"  # Red's move is the computer's
    c.panels.computer.rows["blue"][0].value = "computer"
    c.end_turn()  # Red's computer moves, then Blue's; Green's team is to move
    assert c.game.side == "green" and {d["side"] for _, d in c.game.decisions()} == {
        "red",
        "blue",
    }
    again = Console.open(c.game.journal.path, lang="ru", games=tmp_path)
    assert set(again.game.computer_sides()) == {"red", "blue"}
    assert again.panels.computer.rows["blue"][0].value == "computer"


def test_the_words_of_the_panel() -> None:
    assert thinking_html(None, "ru") == ""
    assert "the computer is thinking…" in thinking_html("blue", "en")
    assert "Blue" in thinking_html("blue", "en")
    assert "компьютер еще не ходил" in moves_html([], "ru")
    d = {"side": "blue", "turn": 4, "order": "1 с.д. на 3,4", "text": {"ru": "a\nb", "en": "c"}}
    out = moves_html([(7, d), (8, {**d, "order": None, "question": "где 1 с.д.?"})], "en")
    assert "Blue, turn 4" in out and "1 RD to 3,4" in out and "where is 1 RD?" in out
    assert "1 с.д. на 3,4" in moves_html([(7, d)], "ru")  # in the reader's notation


def test_seat_rows_follow_the_game(tmp_path: Path) -> None:
    g = Game.new(DEFAULT, tmp_path / "s.game", level=2, seed=1)
    assert [(s.side, s.computer, s.posture) for s in seat_rows(g, "en")] == [
        ("red", False, "attack@3"), ("blue", False, "attack@3"), ("green", False, "wait"),
    ]  # fmt: skip
    g.play_by_computer("синие", {"style": "bold", "posture": "attack@1", "seed": 2})
    assert [s.computer for s in seat_rows(g, "ru")] == [False, True, False]
    assert g.computer_due() == [] and g.side == "red"
    g.end_turn()
    assert g.computer_due() == ["blue"]
    g.play_by_computer("blue", None)
    assert g.computer_due() == [] and g.computer_sides() == {}
    assert Game.open(g.journal.path).computer_sides() == {}  # replayed: the entries pass by


def test_a_team_s_move_ended_at_its_own_screen_brings_the_computer_s_turn(
    tmp_path: Path,
) -> None:
    c = _console(tmp_path, "en")
    c.panels.computer.rows["blue"][0].value = "computer"
    team = Game.open(c.game.journal.path)  # Red's team, at its screen (another writer)
    team.order("21 т.д. на 35,35", "red")
    team.end_turn()
    team.journal.close()
    assert c.catch_up()  # the console takes it in; Blue's turn has come: it moves
    assert c.game.decisions("blue") and c.game.side == "green"
    assert not c.catch_up()  # nothing more came
