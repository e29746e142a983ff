"""The planning clock (1.9, 5.2) and level 3 without a mediator (1.4), issue 12.

Times from the rule data (continental.toml, turn_order): `planning_minutes` 30 (5.2) for each
side's first move, `clock_move` 5 (1.9: three to five minutes, the upper end, reconstructed) at
levels 1-2, `clock_level3` 10 (1.9, level 3). Time is read from the journal's stamps; the tests
move "now" instead of waiting.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from strategia.cli import main
from strategia.game import clock as clock_mod
from strategia.game.channel import SideChannel
from strategia.game.game import Game, GameError
from strategia.theatre.builder import ScenarioBuilder
from strategia.theatre.scenario import Scenario
from strategia.ui.widgets.clock import clock_text


def _scenario(mediator: bool = True) -> Scenario:
    b = ScenarioBuilder.blank(12, 6, name="Часы")
    b = b.state("R", "Красные", "red", lon=(1, 6)).state("B", "Синие", "blue", lon=(7, 12))
    b = b.place("R", "13 с.д. - 2,3 фронтом на восток")
    b = b.place("B", "101 с.д. - 11,3 фронтом на запад")
    sc = b.build()
    if not mediator:
        from dataclasses import replace

        sc = replace(sc, settings=replace(sc.settings, mediator=False))
    return sc


def _minutes_of_move(g: Game) -> float:
    c = g.move_clock()
    assert c is not None
    return c.minutes


def _at(g: Game, seconds: float) -> dt.datetime:
    """`seconds` after the move in progress began."""
    c = g.move_clock()
    assert c is not None
    return c.began + dt.timedelta(seconds=seconds)


def test_level_2_first_moves_have_the_planning_time_then_five_minutes(tmp_path: Path) -> None:
    """Red's first move and Blue's first move: 30 min each (5.2); Red's second: 5 min (1.9)."""
    g = Game.new(_scenario(), tmp_path / "c.game", level=2, clock=True)
    assert g.clocked
    c = g.move_clock()
    assert c is not None and (c.minutes, c.rule) == (30.0, "5.2")
    g.end_turn()  # Red's first move ends: Blue's first
    assert _minutes_of_move(g) == 30.0
    g.end_turn()  # Blue's ends: Red's second move
    c = g.move_clock()
    assert c is not None and (c.minutes, c.rule) == (5.0, "1.9")
    assert c.left(_at(g, 4 * 60 + 30)) == pytest.approx(30.0)  # 5 min - 4 min 30 s
    assert c.up(_at(g, 5 * 60))


def test_level_3_ten_minutes_after_the_first_turn_and_a_set_time(tmp_path: Path) -> None:
    """Level 3: the first turn 30 min (5.2), the next 10 (1.9); `clock_minutes` 7 replaces the
    level's time, not the planning time."""
    g = Game.new(_scenario(), tmp_path / "c.game", level=3, clock=True)
    assert _minutes_of_move(g) == 30.0
    g.end_turn()
    assert _minutes_of_move(g) == 10.0
    h = Game.new(_scenario(), tmp_path / "d.game", level=3, clock_minutes=7)
    assert h.clocked and _minutes_of_move(h) == 30.0
    h.end_turn()
    assert _minutes_of_move(h) == 7.0


def test_an_order_after_the_time_is_refused_until_the_mediator_extends(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Red's first move has 30 min; at 31 min the order is not given (nothing is written); the
    mediator extends by 2 min (32 min in all), the order at 31 min is then given, and both
    sides' journals tell of the extension."""
    g = Game.new(_scenario(), tmp_path / "c.game", level=2, clock=True)
    monkeypatch.setattr(clock_mod, "utc_now", lambda: _at(g, 31 * 60))
    before = g.journal.last_seq
    with pytest.raises(GameError) as refused:
        g.order("13 с.д. на 3,3")
    assert "5.2" in str(refused.value) and "extend" in str(refused.value)
    assert "истекло" in refused.value.ru
    assert g.journal.last_seq == before
    assert g.clock() == 0.0
    left = g.extend(2, "спор о правилах")
    assert left == pytest.approx(60.0)  # 32 min - 31 min
    assert g.order("13 с.д. на 3,3") is not None
    assert "продлено на 2 мин: спор о правилах" in SideChannel(g, "blue").journal_text("ru")
    assert "extended by 2 min" in SideChannel(g, "red").journal_text("en")
    again = Game.open(tmp_path / "c.game", verify=True)
    assert again.replay_problems == []
    assert again.move_clock() == g.move_clock()


def test_the_extension_counts_for_its_move_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Time is not carried over (1.9, «без накопления»): an extension of Red's first move does
    not lengthen Blue's."""
    g = Game.new(_scenario(), tmp_path / "c.game", level=2, clock=True)
    g.extend(5)
    assert _minutes_of_move(g) == 35.0
    g.end_turn()
    assert _minutes_of_move(g) == 30.0


def test_clock_refusals(tmp_path: Path) -> None:
    """Level 1 has no clock (1.9 is a level-2 rule); a game without clocks has none to extend;
    an extension must be a positive number of minutes, at most 120."""
    with pytest.raises(GameError, match=r"levels 2 and 3 \(1\.9\)"):
        Game.new(_scenario(), tmp_path / "a.game", level=1, clock=True)
    assert not (tmp_path / "a.game").exists()
    g = Game.new(_scenario(), tmp_path / "b.game", level=2)
    assert not g.clocked and g.clock() is None and g.move_clock() is None
    with pytest.raises(GameError, match="without clocks"):
        g.extend(3)
    h = Game.new(_scenario(), tmp_path / "c.game", level=2, clock=True)
    for bad in (0, -1, 121):
        with pytest.raises(GameError, match="extend by"):
            h.extend(bad)
    with pytest.raises(GameError, match="clock minutes"):
        Game.new(_scenario(), tmp_path / "d.game", level=2, clock_minutes=-3)


def test_level_3_without_a_mediator_is_refused_quoting_1_4(tmp_path: Path) -> None:
    """1.4: «Игра на 3-м уровне игры без посредника невозможна»; levels 1-2 without one play."""
    with pytest.raises(GameError) as refused:
        Game.new(_scenario(mediator=False), tmp_path / "a.game", level=3)
    assert "1.4" in str(refused.value) and "без посредника невозможна" in str(refused.value)
    assert "1.4" in refused.value.ru
    assert not (tmp_path / "a.game").exists()
    assert Game.new(_scenario(mediator=False), tmp_path / "b.game", level=2).level == 2


def test_the_command_line_clock(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    scenario = tmp_path / "c.toml"
    from strategia.theatre.scenario_io import format_scenario

    scenario.write_text(format_scenario(_scenario()), encoding="utf-8")
    game = tmp_path / "c.game"
    assert main(["game", "new", str(scenario), str(game), "--level", "2", "--clock"]) == 0
    assert main(["game", "extend", str(game), "3", "--note", "перерыв", "--lang", "en"]) == 0
    assert "extended by 3 min" in capsys.readouterr().out
    assert main(["game", "extend", str(game), "0"]) != 0
    assert Game.open(game).move_clock() is not None
    assert _minutes_of_move(Game.open(game)) == 33.0


@pytest.mark.parametrize(
    ("left", "lang", "shown"),
    [
        (None, "ru", ""),
        (245.0, "ru", "часы 4:05"),
        (245.2, "en", "clock 4:06"),  # a second begun still shows
        (0.0, "ru", "время вышло"),
        (0.0, "en", "time is up"),
    ],
)
def test_clock_text(left: float | None, lang: str, shown: str) -> None:
    assert shown in clock_text(left, lang)  # type: ignore[arg-type]
    if left is not None and 0 < left <= 60:
        assert "color" in clock_text(left, lang)  # type: ignore[arg-type]


def test_the_last_minute_is_red() -> None:
    assert "#b71c1c" in clock_text(59.0, "ru") and "#b71c1c" not in clock_text(61.0, "ru")


def test_the_console_counts_down_and_the_mediator_extends(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The console's clock shows the first move's 30 min counting down (29:00 a minute in); the
    Mediator tab's control extends by 2.5 min (31:30 left); a team's screen shows the same clock
    and its journal tells of the extension; at 40 min a team's order is refused on its screen."""
    from strategia.ui.console import Console
    from strategia.ui.team import TeamScreen

    g = Game.new(_scenario(), tmp_path / "c.game", level=3, clock=True)
    monkeypatch.setattr(clock_mod, "utc_now", lambda: _at(g, 60))
    console = Console(g, "ru", tmp_path)
    team = TeamScreen(Game.open(tmp_path / "c.game"), "blue")
    console.catch_up()
    assert "часы 29:00" in console.clock.widget.value
    panel = console.panels.clock
    assert panel.widget.layout.display is None  # shown: the game has a clock
    panel.minutes.value = 2.5
    panel.note.value = "перерыв"
    panel.do_extend()
    assert "часы 31:30" in console.clock.widget.value
    assert team.catch_up()
    assert "часы 31:30" in team.clock.widget.value
    assert "время хода продлено на 2,5 мин: перерыв" in team.journal.value
    monkeypatch.setattr(clock_mod, "utc_now", lambda: _at(g, 40 * 60))
    team.catch_up()
    assert "время вышло" in team.clock.widget.value
    before = g.journal.last_seq
    team.form.free.value = "101 с.д. на 10,3"
    team.form.give_free()
    assert "истекло" in team.form.free_error.value
    assert g.refresh().journal.last_seq == before
