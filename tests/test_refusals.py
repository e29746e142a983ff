"""Orders that would do nothing at all are refused, not journalled (issue 24): a fortress
garrison ordered to move (3.6), a blow on a cell none of its units stands beside (9.8), a move
whose first step breaks 4.2's 30°. Refused the way a bad order is (an error naming the order
and why, in both languages, nothing written), through `Game.order`, a side's channel and the
command line alike. An order 9.3 cuts to nothing at all is still carried out «as far as
possible» for the player, and shown to the mediator as cut to nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from strategia.cli import main
from strategia.core.geometry import Cell
from strategia.engine.result import OrderError
from strategia.game.channel import channel
from strategia.game.game import Game, GameError
from strategia.notation.orders import parse_order
from strategia.notation.refs import UnitRef
from strategia.theatre.builder import ScenarioBuilder
from strategia.theatre.scenario import Scenario
from strategia.ui.console import Console


def _scenario() -> Scenario:
    """Red on lon 1-8, Blue on 9-16. Red: 1 с.д. at 4,5 and 2 с.д. at 8,5 facing east, a
    garrison at 3,3; Blue: 101 с.д. at 9,5 facing west."""
    b = ScenarioBuilder.blank(16, 9).state("R", "К", "red", lon=(1, 8))
    b = b.state("B", "С", "blue", lon=(9, 16)).fortress("3,3")
    b = b.place("R", "1 с.д. - 4,5 фронтом на восток", "2 с.д. - 8,5 фронтом на восток",
                "91 крепость - 3,3")  # fmt: skip
    return b.place("B", "101 с.д. - 9,5 фронтом на запад").build()


@pytest.fixture
def game(tmp_path: Path) -> Game:
    return Game.new(_scenario(), tmp_path / "g.game", level=2)


def _refused(g: Game, text: str, side: str | None = None) -> OrderError:
    """`text` refused, nothing written."""
    n = len(g.journal.entries)
    with pytest.raises(OrderError) as e:
        if side is None:
            g.order(text)
        else:
            channel(g, side).order(text)
    assert len(g.journal.entries) == n and len(Game.open(g.journal.path).journal.entries) == n
    english = parse_order(text, g.state).format("en")  # an English message in English notation
    assert str(e.value).startswith(english) and e.value.say("ru").startswith(text)
    return e.value


def test_a_garrison_ordered_to_move_is_refused(game: Game) -> None:
    """3.6: «со стационарной артиллерией»: a garrison never moves; an order to move it, turn it
    or march it does nothing, and is refused, not carried out «as far as possible» (9.3)."""
    before = game.state
    for text in ("91 крепость на 3,4", "91 крепость поворот на север"):
        for side in (None, "red"):
            e = _refused(game, text, side)
            assert "fortress garrison" in str(e) and "garrisons never move (3.6)" in str(e)
            assert "гарнизоны не перемещаются (3.6)" in e.say("ru")
    assert game.state == before


def test_a_blow_no_named_unit_touches_is_refused_in_the_same_words_enemy_or_not(
    game: Game,
) -> None:
    """9.8: a blow is struck on a cell beside the attacker. 1 с.д. at 4,5 stands five cells
    from 9,5: the blow is refused; a blow on an empty cell as far away reads the same (1.6:
    nothing told of the enemy). With 2 с.д. (at 8,5, beside 9,5) named too, it is fought."""
    held = _refused(game, "удар по 9,5: 1 с.д.", "red")
    empty = _refused(game, "удар по 9,7: 1 с.д.", "red")
    assert str(held).replace("9,5", "X") == str(empty).replace("9,7", "X")
    assert held.say("ru").replace("9,5", "X") == empty.say("ru").replace("9,7", "X")
    assert "none of 1 RD stands beside 9,5" in str(held)
    assert "ни одна из частей (1 с.д.) не стоит рядом с 9,5" in held.say("ru")
    n = len(game.journal.entries)
    r = game.order("удар по 9,5: 1 с.д., 2 с.д.")
    assert r is not None and r.battle is not None and len(game.journal.entries) == n + 1
    assert any(c.rule == "9.3" and "1 RD" in c.reason.en for c in r.cuts)  # cut, not refused


def test_a_move_whose_first_step_breaks_the_30_degrees_is_refused(game: Game) -> None:
    """4.2 (002): forward movement deviates at most 30° from the facing. 1 с.д. at 4,5 faces
    east: 4,7 (90°) and 5,6 (45°) are refused, 6,6 (26.6°) is carried out; a withdrawal is
    measured from the back (west): 4,7 refused there too. A move whose first leg goes and
    whose second breaks the rule is carried out as far as it goes, the rest cut (9.3)."""
    e = _refused(game, "1 с.д. на 4,7", "red")
    assert "4,7 lies 90° off its facing (E); a move may deviate at most 30° (4.2)" in str(e)
    assert "4,7 отклоняется на 90° от направления фронта (на восток)" in e.say("ru")
    assert "допустимо не более 30° (4.2)" in e.say("ru")
    assert "45°" in str(_refused(game, "1 с.д. на 5,6"))
    assert "off its back (W)" in str(_refused(game, "1 с.д. отход на 4,7"))
    n = len(game.journal.entries)
    r = game.order("1 с.д. на 5,7 через 5,5")
    assert r is not None and len(game.journal.entries) == n + 1
    assert game.state.unit(UnitRef.parse("1 с.д.")).cell.lon == 5
    assert [c.rule for c in r.cuts] == ["4.2"] and not r.cut_to_nothing


def test_the_command_line_refuses_them_too(game: Game, capsys: pytest.CaptureFixture[str]) -> None:
    path = str(game.journal.path)
    n = len(game.journal.entries)
    game.journal.close()
    for args in (["--side", "red"], []):
        code = main(["game", "order", path, "91 крепость на 3,4", "--lang", "ru", *args])
        err = capsys.readouterr().err
        assert code == 2 and "гарнизоны не перемещаются (3.6)" in err, err
    assert len(Game.open(path).journal.entries) == n


def test_level_3_refuses_a_garrison_at_once_and_voids_a_blow_when_its_turn_comes(
    tmp_path: Path,
) -> None:
    """Level 3: orders wait for the turn. A garrison never moves, whatever happens first: the
    order is refused when given. Whether a blow's units stand beside its cell is known when the
    blow's turn comes (after the moves, 1.7): then it is void, journalled as not carried out."""
    g = Game.new(_scenario(), tmp_path / "l3.game", level=3)
    _refused(g, "91 крепость на 3,4", "red")
    assert channel(g, "red").order("удар по 9,5: 1 с.д.") is None  # sealed
    results = g.end_turn()
    void = next(r for r in results if r.order == "удар по 9,5: 1 с.д.")
    assert void.outcome.en == "not carried out"
    assert "none of 1 RD stands beside 9,5" in void.cuts[0].reason.en


def test_an_order_cut_to_nothing_is_told_as_carried_out_and_marked_for_the_mediator(
    game: Game, tmp_path: Path
) -> None:
    """9.3: 1 с.д. uses its turn to reach 5,5; ordered on again, nothing of it can be done. The
    order is journalled; Red is told where its division stands, as after any order (9.3: never
    that it was cut); the mediator's journal, the command line and the console mark it «cut
    to nothing»; an order cut only in part is not marked."""
    game.order("1 с.д. на 5,5")
    r = game.order("1 с.д. на 6,5")
    assert r is not None and r.cut_to_nothing
    assert "1 с.д. на 6,5  →  1 с.д. - 5,5" in game.journal_text("ru")
    assert "сокращен до нуля (9.3)" in game.journal_text("ru")
    assert "cut to nothing (9.3)" in game.journal_text("en")
    red = channel(game, "red").journal_text("ru")
    assert "1 с.д. на 6,5  →  1 с.д. - 5,5" in red and "сокращен" not in red and "9.3" not in red
    again = Game.open(game.journal.path)  # read from the journal's record: the same
    assert "сокращен до нуля (9.3)" in again.journal_text("ru")
    c = Console(again, lang="ru", games=tmp_path)
    last = again.results[-1][3]
    assert "сокращен до нуля" in c.breakdown_html(last)
    c.set_viewer("red")
    assert "сокращен" not in c.breakdown_html(last)
    first = again.results[-2][3]
    assert not first.cut_to_nothing


def test_a_team_screen_shows_the_refusal_beside_its_form(game: Game) -> None:
    from strategia.ui.team import TeamScreen

    red = TeamScreen(game, "red", "ru")
    n = len(game.journal.entries)
    red.form.free.value = "91 крепость на 3,4"
    red.form.give_free()
    assert "гарнизоны не перемещаются (3.6)" in red.form.free_error.value
    assert len(game.journal.entries) == n


# --- orders above the game's level (0.2), transfers not between cities (4.5) -------------------


def _with_cities() -> Scenario:
    """`_scenario` with Red's cities A (2,8) and B (6,8) on a railway."""
    b = ScenarioBuilder.blank(16, 9).state("R", "К", "red", lon=(1, 8))
    b = b.state("B", "С", "blue", lon=(9, 16)).city("A", "2,8").city("B", "6,8")
    b = b.railway("2,8 6,8").place("R", "1 с.д. - 4,5 фронтом на восток", "3 с.д. - 2,8")
    return b.place("B", "101 с.д. - 9,5 фронтом на запад").build()


def test_an_order_of_a_higher_level_is_refused_citing_0_2(tmp_path: Path) -> None:
    """Splitting into regiments is a level-3 rule (4.9), changing the frontage a level-2 one
    (4.6): below their level they do nothing, and are refused, naming the rule and the level."""
    g2 = Game.new(_with_cities(), tmp_path / "l2.game", level=2)
    for side in (None, "red"):
        e = _refused(g2, "1 с.д. разделить на полки", side)
        assert "rule 4.9 acts from level 3; this game is played at level 2 (0.2)" in str(e)
        assert "правило 4.9 действует с 3 уровня, а игра идет на 2 уровне (0.2)" in e.say("ru")
    g1 = Game.new(_with_cities(), tmp_path / "l1.game", level=1)
    e = _refused(g1, "1 с.д. растянуть на 4,6", "red")
    assert "rule 4.6 acts from level 2; this game is played at level 1 (0.2)" in str(e)
    g3 = Game.new(_with_cities(), tmp_path / "l3.game", level=3)
    assert channel(g3, "red").order("1 с.д. разделить на полки") is None  # in play: sealed


def test_a_transfer_not_between_cities_is_refused_citing_4_5(tmp_path: Path) -> None:
    """4.5: «между городами»: from a cell that is no city, or to one, a transfer does nothing
    and is refused; from a city to a city it is given. At level 3 the destination is refused at
    once (nothing changes it), where the division stands when its turn comes (it may move first)."""
    g = Game.new(_with_cities(), tmp_path / "g.game", level=2)
    e = _refused(g, "1 с.д. переброска в 6,8", "red")
    assert "1 RD stands at 4,5, which is no city: a transfer begins in a city (4.5)" in str(e)
    assert "1 с.д. стоит в 4,5, а это не город: переброска начинается в городе (4.5)" in e.say("ru")
    e = _refused(g, "3 с.д. переброска в 7,8")
    assert "7,8 is no city: a transfer goes from a city to a city (4.5)" in str(e)
    assert "7,8 — не город: переброска идет из города в город (4.5)" in e.say("ru")
    assert g.order("3 с.д. переброска в 6,8") is not None  # city to city: given
    g3 = Game.new(_with_cities(), tmp_path / "l3.game", level=3)
    e = _refused(g3, "3 с.д. переброска в 7,8", "red")
    assert "7,8 — не город" in e.say("ru")
    assert channel(g3, "red").order("1 с.д. переброска в 6,8") is None  # sealed: known later


def test_the_console_the_team_page_and_the_command_line_refuse_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from strategia.ui.team import TeamScreen

    g = Game.new(_with_cities(), tmp_path / "g.game", level=2)
    n = len(g.journal.entries)
    c = Console(g, lang="en", games=tmp_path)
    c.panels.orders.free.value = "1 RD split into regiments"
    c.panels.orders.give_free()
    assert "rule 4.9 acts from level 3" in c.panels.orders.free_error.value
    red = TeamScreen(g, "red", "ru")
    red.form.free.value = "1 с.д. переброска в 6,8"
    red.form.give_free()
    assert "а это не город: переброска начинается в городе (4.5)" in red.form.free_error.value
    assert len(g.journal.entries) == n
    path = str(g.journal.path)
    g.journal.close()
    for text, said in (("1 с.д. разделить на полки", "действует с 3 уровня"),
                       ("3 с.д. переброска в 7,8", "7,8 — не город")):  # fmt: skip
        for args in (["--side", "red"], []):
            code = main(["game", "order", path, text, "--lang", "ru", *args])
            err = capsys.readouterr().err
            assert code == 2 and said in err, err
    assert len(Game.open(path).journal.entries) == n


# --- an intervention with nothing in it (9.4) ---------------------------------------------------


def test_an_empty_intervention_is_refused_not_announced(
    game: Game, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An intervention with no words (empty, or a dash) does nothing: it is refused at the
    console, by `Game.intervene` and by the command line, nothing journalled, nothing told to
    any side (it was journalled «[посредник, 1] —» and announced to every side)."""
    n = len(game.journal.entries)
    for text in ("", "  ", "—", " - "):
        with pytest.raises(GameError) as e:
            game.intervene(text)
        assert "there is nothing in it" in str(e.value) and "(9.4)" in str(e.value)
        assert "в нем ничего нет" in e.value.say("ru")
    for lang, said in (("ru", "в нем ничего нет"), ("en", "there is nothing in it")):
        c = Console(game, lang=lang, games=tmp_path)
        m = c.panels.mediator
        m.note.value = ""
        m.do_intervene()
        assert said in m.note_error.value
        m.note.value, m.note_cell.value = "—", "4,5"
        m.do_intervene()
        assert said in m.note_error.value and "—" in m.note_error.value
    assert len(game.journal.entries) == n and not channel(game, "blue").told()
    path = str(game.journal.path)
    game.journal.close()
    code = main(["game", "intervene", path, "—", "--lang", "ru"])
    assert code == 2 and "вмешательство «—»: в нем ничего нет" in capsys.readouterr().err
    assert len(Game.open(path).journal.entries) == n
    g = Game.open(path)
    g.intervene("дожди: дорога в 4,5 размыта", Cell(4, 5), 2)  # words in it: announced
    assert "дожди" in channel(g, "blue").journal_text("ru")
