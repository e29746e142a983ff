"""What a reloaded console page resumes: the game the console was playing when started on a
scenario or a game file, whether that game, a game opened from the Mediator tab since, or a
fork made from the journal («Продолжить отсюда»); a game over is not resumed."""

from __future__ import annotations

from pathlib import Path

from strategia.game.game import Game
from strategia.ui.console import Console
from strategia.ui.console.sessions import pointer

ROOT = Path(__file__).parents[1]
DEFAULT = ROOT / "maps" / "continental.toml"


def test_a_reload_resumes_the_fork(tmp_path: Path) -> None:
    games = tmp_path / "games"
    c = Console.resume(DEFAULT, lang="en", level=2, games=games)
    first = c.game.journal.path
    c.submit("21 т.д. на 36,35")
    c.submit("22 т.д. поворот на север")
    c.show_history(2)  # after the first order
    c.continue_here()
    fork = c.game.journal.path
    assert fork != first and c.game.journal.last_seq == 2 and "from-2" in fork.name
    c.submit("23 т.д. поворот на юг")  # the fork goes on as the fork
    again = Console.resume(DEFAULT, lang="en", level=2, games=games)  # the page reloaded
    assert again.game.journal.path == fork
    assert [e.data.get("order") for e in again.game.journal.entries if e.kind == "order"] == [
        "21 т.д. на 36,35", "23 т.д. поворот на юг",
    ]  # fmt: skip
    assert len(Game.open(first).journal.entries) == 3  # the original untouched


def test_a_console_started_on_a_game_file_resumes_the_game_opened_since(tmp_path: Path) -> None:
    games = tmp_path / "games"
    war = tmp_path / "war.game"
    other = tmp_path / "other.game"
    Game.new(DEFAULT, war, level=2).journal.close()
    Game.new(DEFAULT, other, level=2).journal.close()
    c = Console.resume(war, lang="ru", games=games)
    assert c.game.journal.path == war
    c.reopen(other)
    assert Console.resume(war, lang="ru", games=games).game.journal.path == other
    # a scenario of the same name keeps a pointer of its own
    assert pointer(games, tmp_path / "war.toml") is None


def test_a_game_over_is_not_resumed(tmp_path: Path) -> None:
    games = tmp_path / "games"
    war = tmp_path / "war.game"
    Game.new(DEFAULT, war, level=2).journal.close()
    c = Console.resume(DEFAULT, lang="en", level=2, games=games)
    ended = c.game.journal.path
    c.game.end_game()
    assert c.game.phase == "peace"
    again = Console.resume(DEFAULT, lang="en", level=2, games=games)
    assert again.game.journal.path != ended and again.game.phase != "peace"
