"""A strike's report of its own (issue 24), as a battle's reads (REPORT-EXAMPLE): who fired at
what from where, the distance and the efficiency with the numbers put in (table 11 at level 2,
the formula -x²/15 - x/3 + 120 at level 3), each unit hit with its strength before and after,
and what a strike closed: a road for 5 turns to transfers and 2 to movement, a bridge for 7
(seed 000, 9.7c: «закрывается на пять ходов для переброски войск и на два хода - для их
движения ... мост (перевал) закрывается для всякого движения войск и грузов на 7 ходов»). The
console's Battles tab, the team screen and `strategia game report` show it; a side's copy keeps
what the side may know."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_russian import latin

from strategia.cli import main
from strategia.core.geometry import Cell
from strategia.game import report_render as rr
from strategia.game.channel import channel
from strategia.game.game import Game
from strategia.theatre.builder import ScenarioBuilder
from strategia.theatre.scenario import Scenario
from strategia.ui.console import Console
from strategia.ui.console.battles import item_label
from strategia.ui.team import TeamScreen


def _board() -> Scenario:
    """Red (lon 1-6): 51 а.д. at 4,3, 52 а.д. at 4,5, 53 а.д. at 6,7; Blue (lon 7-16):
    101 с.д. at 7,3 in a forest. A road along lat 5 from 5,5 to 12,5, crossing a river between
    lon 8 and 9 on a bridge."""
    b = ScenarioBuilder.blank(16, 9).state("R", "К", "red", lon=(1, 6))
    b = b.state("B", "С", "blue", lon=(7, 16)).paint("forest", lon=7, lat=3)
    b = b.road("5,5 12,5").river("8.5,0.5 8.5,9.5")
    b = b.place("R", "51 а.д. - 4,3", "52 а.д. - 4,5", "53 а.д. - 6,7")
    return b.place("B", "101 с.д. - 7,3 фронтом на запад").build()


def _game(tmp_path: Path, level: int, *orders: str) -> Game:
    g = Game.new(_board(), tmp_path / f"s{level}.game", level=level)
    for o in orders:
        g.order(o)
    if g.simultaneous:
        g.end_turn()
    return g


def _text(g: Game, lang: str = "ru", side: str | None = None) -> str:
    items = channel(g, side).fights() if side else rr.fights(g.results)
    return rr.turn_text("", items, lang).replace("\u00a0", " ")  # type: ignore[arg-type]


def test_a_strike_on_units_at_level_2_reads_table_11(tmp_path: Path) -> None:
    """51 а.д. at 4,3 fires on 7,3: +30 km in longitude, +0 in latitude, table 11: 50 %.
    101 с.д. in a forest (9.7a: 0.6 left, 0.4 lost): 0.4 × 0.5 = 20 %, 1 → 0.8."""
    g = _game(tmp_path, 2, "51 а.д. огонь по 7,3")
    ru = _text(g)
    assert "Артиллерийский удар по 7,3, ход 1. 51 а.д. (Красные) из 4,3 бьет по 7,3 (9.7а)." in ru
    assert "Дальность: +30 км по долготе, +0 км по широте: эффективность 50 % (табл. 11)." in ru
    assert "Итог: 101 с.д. (7,3) теряет 20 % (остается 0,8 дивизии)." in ru
    assert "101 с.д. | Синие | 7,3 | × 0,4 потери по местности (лес) (9.7а), × 0,5 " in ru
    assert "| 20 % | 1 → 0,8" in ru
    assert "1. Смещение цели от 51 а.д. в 4,3: +30 км по долготе, +0 км по широте; табл. 11" in ru
    assert "2. 101 с.д. в 7,3: потери по местности (лес) (9.7а), эффективность удара (табл. 11): " \
        "0,4 × 0,5 = 20 %; 1 → 0,8 (9.7а)." in ru  # fmt: skip
    assert not latin(ru.split("[Восстановлено")[0])
    en = _text(g, "en")
    assert "51 AD (Red) from 4,3 fires on 7,3 (9.7a)." in en
    assert "Range: +30 km in longitude, +0 km in latitude: efficiency 50% (table 11)." in en


def test_a_strike_at_level_3_puts_the_distance_into_the_formula(tmp_path: Path) -> None:
    """Level 3: 51 а.д. at 4,3 fires on 7,4, 31.6 km between the cells' centres:
    -31.6²/15 - 31.6/3 + 120 = 42.8 %; open ground (0.5 lost): 0.5 × 0.428 = 21 %."""
    b = _board()
    g = Game.new(b, tmp_path / "l3.game", level=3)
    g.order("51 а.д. огонь на отсечение 7,4", "red")
    g.end_turn()
    ru = _text(g)
    assert "Дальность: 31,6 км между центрами клеток: −31,6²/15 − 31,6/3 + 120 = 42,8 % (9.7а)." \
        in ru  # fmt: skip
    assert "x = 31,6 км; эффективность −x²/15 − x/3 + 120 = −31,6²/15 − 31,6/3 + 120 = 42,8 %" in ru
    assert "Огонь на отсечение по 7,4, ход 1." in ru
    assert "войска, которые пройдут через 7,4 при ходе противника, теряют 21 % (9.7г)" in ru
    assert "7,4: по местности остается 0,5; уничтожается (1 − 0,5) × 0,43 = 21 %" in ru


def test_a_road_closes_for_5_and_2_turns_a_bridge_for_7(tmp_path: Path) -> None:
    """9.7c on turn 1: the road at 6,5 closed to transfers on turns 1-5, to movement on turns
    1-2; the bridge at 8,5 closed to everything on turns 1-7; the state says the same."""
    g = _game(tmp_path, 2, "52 а.д. огонь по дороге 6,5", "53 а.д. огонь по мосту 8,5")
    closures = {(c.cell, c.what): c.until_turn for c in g.state.closures}
    assert closures == {
        (Cell(6, 5), "road-transfer"): 5,
        (Cell(6, 5), "road-movement"): 2,
        (Cell(8, 5), "bridge"): 7,
    }
    ru = _text(g)
    assert "Артиллерийский огонь по дороге в 6,5, ход 1. 52 а.д. (Красные) из 4,5 бьет по 6,5" in ru
    assert "Итог: дорога в 6,5 закрыта на 5 ходов для переброски войск и на 2 хода для их " \
        "движения (9.7в)." in ru  # fmt: skip
    assert "6,5: дорога закрыта для переброски: 5 ходов (ходы 1–5); дорога закрыта для " \
        "движения: 2 хода (ходы 1–2) (9.7в)." in ru  # fmt: skip
    assert "Итог: мост (перевал) в 8,5 закрыт для всякого движения войск и грузов на 7 ходов " \
        "(9.7в)." in ru  # fmt: skip
    assert "(ходы 1–7)" in ru
    en = _text(g, "en")
    assert "the road at 6,5 is closed for 5 turns to transfers and for 2 turns to movement" in en
    assert "the bridge (pass) at 8,5 is closed to all movement of troops and loads for 7 turns" \
        in en  # fmt: skip


def test_every_screen_shows_the_strike_s_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    g = _game(tmp_path, 2, "51 а.д. огонь по 7,3", "52 а.д. огонь по дороге 6,5")
    c = Console(g, lang="ru", games=tmp_path)
    b = c.panels.battles
    labels = [label for label, _ in b.list.options]
    assert len(labels) == 2 and not any("бой за" in x for x in labels)
    assert any("51 а.д.: огонь по 7,3" in x for x in labels)
    for n, _ in enumerate(b.items):
        b.show(n)
        assert "из 4," in b.report.value and "Полный расчет" in b.report.value
    t, r = b.items[1]
    assert "дорога в 6,5 закрыта на 5 ходов" in rr.report_html(r, "ru", t)
    assert "ход 1 ·" in item_label(t, r, "ru")
    # the firing side's screen: its own battery's fire, from where and how well; no breakdown
    red = TeamScreen(g, "red", "ru")
    reports = []
    for _, k in red.fight_choice.options:
        red.fight_choice.value = k
        reports.append(red.report.value)
    joined = "".join(reports).replace("\u00a0", " ")
    assert len(reports) == 2 and "51 а.д. (Красные) из 4,3 бьет по 7,3" in joined
    assert "эффективность 50 %" in joined and "дорога в 6,5 закрыта" in joined
    assert "Полный расчет" not in joined and "101 с.д." not in joined  # whom it hit: untold
    assert "потери противника не сообщаются" in joined
    # the side fired on: its own unit hit, not the battery nor where it fired from
    blue = TeamScreen(g, "blue", "ru")
    assert "101 с.д. (7,3) теряет 20 %" in blue.report.value.replace("\u00a0", " ")
    assert "51 а.д." not in blue.report.value and "4,3" not in blue.report.value
    assert "Полный расчет" not in blue.report.value
    # the command line: the mediator's, and a side's copy
    path = str(g.journal.path)
    assert main(["game", "report", path, "--lang", "ru"]) == 0
    out = capsys.readouterr().out
    assert "Дальность: +30 км по долготе" in out and "дорога в 6,5 закрыта на 5 ходов" in out
    assert main(["game", "report", path, "--side", "blue", "--lang", "ru"]) == 0
    out = capsys.readouterr().out.replace("\u00a0", " ")
    assert "101 с.д. (7,3) теряет 20 %" in out and "4,3" not in out and "6,5" not in out
