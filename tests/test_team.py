"""A team's screen (issue 15): everything its widgets hold, as the browser would receive it, is
the side's; it orders on its move, asks, reads its reports; it catches up with other writers."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import ipywidgets.widgets.widget as ww
import pytest

from strategia.game.channel import channel
from strategia.game.game import Game
from strategia.game.trial import script_turn
from strategia.notation.refs import UnitRef
from strategia.ui.team import TeamScreen

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ROOT / "maps" / "continental.toml"


def _state_of_new_widgets(before: set[str]) -> str:
    """The state of every widget made since `before`, as the kernel would send it."""
    states = []
    for key, widget in list(ww._instances.items()):
        if key in before:
            continue
        try:
            state = widget.get_state()
        except Exception:  # a widget closed meanwhile
            continue
        state.pop("placeholder", None)  # the forms' fixed examples («51 а.д.»), not the game's
        states.append(state)
    return json.dumps(states, ensure_ascii=False, default=str)


def _named(text: str, ref: UnitRef) -> bool:
    kind = str(ref).split(" ", 1)[1]
    return re.search(rf"(?<![\d]){ref.number}\s*{re.escape(kind)}", text) is not None


@pytest.mark.parametrize("level", [2, 3])
def test_a_team_screen_holds_only_its_side(level: int, tmp_path: Path) -> None:
    g = Game.new(DEFAULT, tmp_path / "g.game", level=level)
    while g.state.turn <= 5:
        script_turn(g)
    before = set(ww._instances)
    screen = TeamScreen(g, "blue")
    own = [u for u in screen.view().units]
    screen.click(own[0].cell.lon, own[0].cell.lat, {"unit": str(own[0].ref)})
    assert screen.selected == own[0].ref and screen.reach_costs
    screen.submit(f"{own[1].ref} на {own[1].cell}")
    screen.ask("где 21 т.д.?")
    for k in range(len(screen.fight_choice.options)):
        screen.fight_choice.value = k
    sent = _state_of_new_widgets(before)
    ch = channel(g, "blue")
    known = {s.unit for s in ch.view().seen if s.unit is not None}
    for d in ch.told():
        known |= {UnitRef.parse(u["unit"]) for u in d.get("battle", {}).get("units", [])}
    known |= {
        u.ref
        for u in g.state.units.values()
        if any(_named(a["question"], u.ref) for a in ch.answers())
    }
    enemy = [u for u in g.state.units.values() if g.state.side_of(u.ref) not in ("blue", "green")]
    hidden = [u.ref for u in enemy if u.ref not in known]
    assert hidden and not [r for r in hidden if _named(sent, r)]
    assert "truth" not in sent and "Полный расчет" not in sent
    assert any(_named(sent, u.ref) for u in own)


def test_a_team_question_goes_through_the_side_s_channel(tmp_path: Path) -> None:
    """8.3 at the team's screen: a question is read against what the side knows (the channel's
    `ask`): a bare number of hidden units is refused in the channel's words, naming none; a unit
    nobody has is answered «не обнаружена» and paid for."""
    from strategia.core.errors import StrategiaError

    g = Game.new(DEFAULT, tmp_path / "g.game", level=2, seed=5)
    while not g.state.at_war:
        script_turn(g)
    screen = TeamScreen(g, "blue")
    refs = [u.ref for u in g.state.units.values() if u.ref.number == 21]
    assert len(refs) == 1 and g.state.side_of(refs[0]) == "red"  # 21 т.д. (and Red's 21 с.к.)
    with pytest.raises(StrategiaError) as e:
        channel(g, "blue").ask("где 21?")
    screen.ask("где 21?")
    shown = html.unescape(re.sub("<[^>]+>", "", screen.ask_error.value))
    assert shown.removeprefix("⚠").strip() == e.value.say("ru")
    assert not _named(shown, refs[0]) and not _named(shown, UnitRef.parse("21 с.к."))
    left = channel(g, "blue").questions_left()
    screen.ask("где 999 с.д.?")
    assert screen.ask_error.value == "" and "не обнаружена" in screen.answers.value
    assert channel(g, "blue").questions_left() == left - 1
    assert channel(g, "blue").answers()[-1]["question"] == "где 999 с.д.?"


def test_a_team_screen_catches_up_with_the_mediator(tmp_path: Path) -> None:
    path = tmp_path / "g.game"
    Game.new(DEFAULT, path, level=2)
    screen = TeamScreen(Game.open(path), "blue")
    assert "ходят красные" in screen.status.value
    mediator = Game.open(path)
    mediator.order("21 т.д. на 35,35")
    mediator.end_turn()
    assert screen.catch_up() and "ваш ход" in screen.status.value
    assert not screen.catch_up()


def test_a_team_order_out_of_turn_is_refused_beside_the_form(tmp_path: Path) -> None:
    g = Game.new(DEFAULT, tmp_path / "g.game", level=2)
    screen = TeamScreen(g, "blue")
    screen.submit("101 с.д. на 28,33", screen.form.free_error)
    assert "ходят красные" in screen.form.free_error.value
    assert len(g.journal.entries) == 1


def test_the_mediator_sees_the_sealed_orders_and_decides(tmp_path: Path) -> None:
    """Level 3: Blue seals an order at its screen (another process's game); the mediator's
    console catches up, lists it with its time, and rejects it with a note Blue is told."""
    from strategia.ui.console import Console

    path = tmp_path / "g.game"
    Game.new(DEFAULT, path, level=3)
    console = Console(Game.open(path), "ru", tmp_path)
    team = TeamScreen(Game.open(path), "blue")
    team.submit("101 с.д. на 28,33")
    assert "запечатан" in team.form.result.value and "101 с.д. на 28,33" in team.given.value
    assert console.catch_up()
    sealed = console.panels.sealed
    assert "101 с.д. на 28,33" in sealed.table.value and "Синие" in sealed.table.value
    sealed.note.value = "дорога занята"
    assert sealed.entry.value is None  # no order chosen until the mediator chooses one
    n = len(console.game.journal.entries)
    sealed.do_reject()
    assert "приказ не выбран" in sealed.error.value and "ничего не отклонено" in sealed.error.value
    assert len(console.game.journal.entries) == n and "101 с.д. на 28,33" in sealed.table.value
    sealed.entry.value = next(v for _, v in sealed.entry.options if v is not None)
    assert sealed.text.value == "101 с.д. на 28,33"  # to be corrected, for an amendment
    sealed.do_reject()
    assert "пока не поступали" in sealed.table.value and sealed.entry.value is None
    assert "отклонен приказ «101 с.д. на 28,33»: дорога занята" in sealed.done.value
    assert "сообщено синим" in sealed.done.value
    assert team.catch_up()
    assert "отклонен приказ «101 с.д. на 28,33»: дорога занята" in team.journal.value
    assert "101 с.д. на 28,33" not in team.given.value
