"""A game forked from any turn or entry (issue 28): a new file whose journal is the original's up
to that point, replayed exactly; its header names where it came from; the original is only read;
the fork plays on by itself. From the command line (`strategia game fork`, `--json`) and from
the console's history view («continue from here as a new game»); bad points refused in both
languages, nothing written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from strategia.cli import main
from strategia.game.fork import fork, forked_from
from strategia.game.game import Game, GameError
from strategia.game.trial import script_turn
from strategia.ui.console import Console

ROOT = Path(__file__).parents[1]
DEFAULT = ROOT / "maps" / "continental.toml"


def _played(path: Path, level: int, moves: int) -> Game:
    g = Game.new(DEFAULT, path, level=level, seed=11)
    for _ in range(moves):
        script_turn(g)
    return g


def _bodies(g: Game, upto: int) -> list[tuple[str, object]]:
    return [(e.kind, e.data) for e in g.journal.entries[1:upto]]


@pytest.mark.parametrize("level", [2, 3])
def test_a_fork_at_a_turn_is_the_game_as_it_was_then_and_plays_on_alone(
    tmp_path: Path, level: int
) -> None:
    """Forked at turn 3's start: the fork's state is `state_at(3)`, its entries are the
    original's up to the End turn that began turn 3, its replay finds no difference; an order
    given in the fork changes nothing in the original."""
    g = _played(tmp_path / "a.game", level, 10)
    entries = g.journal.last_seq
    f = fork(g, tmp_path / "b.game", turn=3)
    assert f.replay_problems == [] and f.state == g.state_at(3) and f.state.turn == 3
    point = forked_from(f)
    assert point is not None and point["game"] == "a.game" and point["turn"] == 3
    assert _bodies(f, point["entry"]) == _bodies(g, point["entry"])
    assert f.journal.last_seq == point["entry"] and f.seed == g.seed
    script_turn(f)
    assert Game.open(tmp_path / "a.game").journal.last_seq == entries
    again = Game.open(tmp_path / "b.game", verify=True)
    assert again.replay_problems == [] and again.state == f.state


def test_a_fork_at_an_entry_is_the_game_after_that_entry(tmp_path: Path) -> None:
    """Entry 2 is Red's first order of turn 1: the fork holds it and nothing after; at the last
    entry the fork is the game as it is."""
    g = _played(tmp_path / "a.game", 2, 4)
    after_2 = Game.open(tmp_path / "a.game", upto=2)
    f = fork(g, tmp_path / "b.game", entry=2)
    assert f.state == after_2.state and f.journal.last_seq == 2 and f.replay_problems == []
    whole = fork(g, tmp_path / "c.game", entry=g.journal.last_seq)
    assert whole.state == g.state and whole.side == g.side


def test_bad_fork_points_are_refused_in_both_languages_and_nothing_is_written(
    tmp_path: Path,
) -> None:
    g = _played(tmp_path / "a.game", 2, 4)
    new = tmp_path / "b.game"
    for kw, en, ru in [
        ({"turn": 99}, "turn 99: this game has turns 1 to 2", "ход 99: в этой игре ходы с 1 по 2"),
        ({"entry": 0}, "entry 0: this game has entries 1 to", "запись 0: в этой игре записи с 1"),
        ({}, "a fork needs a turn or an entry", "для ответвления нужен ход или запись"),
        ({"turn": 2, "entry": 3}, "a fork needs a turn or an entry", "нужен ход или запись"),
    ]:
        with pytest.raises(GameError) as e:
            fork(g, new, **kw)  # type: ignore[arg-type]
        assert en in str(e.value) and ru in e.value.say("ru")
        assert not new.exists()
    (tmp_path / "taken.game").write_bytes(b"")
    with pytest.raises(GameError, match="the file exists"):
        fork(g, tmp_path / "taken.game", turn=2)
    assert (tmp_path / "taken.game").read_bytes() == b""


def test_the_command_line_forks_and_says_so_in_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _played(tmp_path / "a.game", 2, 6).journal.close()
    a, b = str(tmp_path / "a.game"), str(tmp_path / "b.game")
    assert main(["game", "fork", a, b, "--turn", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["forked_from"]["turn"] == 2 and data["turn"] == 2 and data["problems"] == []
    assert main(["game", "replay", b]) == 0
    assert "все результаты, ответы и снимки воспроизведены" in capsys.readouterr().out
    assert main(["game", "fork", a, str(tmp_path / "c.game"), "--turn", "9"]) == 2
    assert "ход 9: в этой игре ходы с 1 по 3" in capsys.readouterr().err
    with pytest.raises(SystemExit) as e:  # the parser's: neither --turn nor --entry
        main(["game", "fork", a, str(tmp_path / "c.game"), "--lang", "en"])
    assert e.value.code == 2
    assert "--turn" in capsys.readouterr().err and not (tmp_path / "c.game").exists()


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_console_continues_from_the_entry_looked_back_at(tmp_path: Path, lang: str) -> None:
    """In the history view, «continue from here as a new game» forks the game at the entry
    shown; the console goes on with the fork (the game now, at that point), the original is
    untouched; the button is disabled when the game is shown now."""
    console = Console.open(DEFAULT, lang=lang, level=2, games=tmp_path / "games")
    console.submit("21 т.д. на 35,35")
    console.submit("22 т.д. на 35,36")
    console.end_turn()
    original = console.game.journal.path
    n = console.game.journal.last_seq
    assert console.panels.journal.fork.disabled
    console.panels.journal.slider.value = 2
    assert not console.panels.journal.fork.disabled
    console.panels.journal.fork.click()
    assert console.game.journal.path != original and console.history is None
    assert console.game.journal.last_seq == 2 and console.game.side == "red"
    word = {"en": "A new game", "ru": "Новая игра"}[lang]
    assert word in console.message.value and console.game.journal.path.name in console.message.value
    assert Game.open(original).journal.last_seq == n
    console.submit("22 т.д. на 35,36")  # the fork plays on
    assert console.game.journal.last_seq == 3 and Game.open(original).journal.last_seq == n
