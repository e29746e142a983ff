"""A team's own screen: its map, units, orders, journal, reconnaissance and battle reports.

Everything the screen shows comes through the side's channel (`strategia.game.channel`): the
map is drawn from the side's view, the journal is what the side was told, the reports are its
accounts of its battles, the answers come without their truth. The side is fixed when the
screen is made (`strategia serve` sets it for the team's server, never the page's URL); the
screen catches up with the other writers (the mediator, the other teams) by itself.
"""

from __future__ import annotations

import asyncio
import html
import os
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import ipywidgets as w

from strategia.core.errors import StrategiaError
from strategia.core.geometry import Cell
from strategia.core.i18n import Lang, Text, check_lang
from strategia.engine.result import Result
from strategia.engine.state import GameState
from strategia.engine.unit_reach import reach
from strategia.game import report_render as rr
from strategia.game.accounts import Told
from strategia.game.channel import SideChannel, channel
from strategia.game.debrief import debrief
from strategia.game.debrief_render import debrief_html, debrief_page
from strategia.game.game import Game
from strategia.game.last_known import last_known
from strategia.game.order_words import order_in, question_in
from strategia.game.positions import StaleError
from strategia.game.views import SideView, to_geojson
from strategia.notation.refs import UnitRef
from strategia.notation.say import say
from strategia.rules.kinds import side_name
from strategia.ui.widgets import hover, layers, marks
from strategia.ui.widgets.clock import ClockLabel
from strategia.ui.widgets.mapview import MapView, beside, front
from strategia.ui.widgets.notes import (
    REPORT_CSS,
    download_link,
    journal_html,
    question_examples_html,
    report_box,
    war_banner_html,
)
from strategia.ui.widgets.order_form import OrderForm, error_html, submit_on_enter
from strategia.ui.widgets.watch import caught_up, watch

T = {
    "turn": Text("Turn", "Ход"),
    "level": Text("level", "уровень"),
    "your_move": Text("your move", "ваш ход"),
    "their_move": Text("{side} to move", "ходят {side}"),
    "sealed": Text(
        "orders are sealed until the mediator ends the turn",
        "приказы запечатаны до конца хода посредником",
    ),
    "orders": Text("Orders", "Приказы"),
    "journal": Text("Journal", "Журнал"),
    "recon": Text("Reconnaissance", "Разведка"),
    "battles": Text("Battles", "Бои"),
    "ask": Text("Ask", "Спросить"),
    "question": Text("a question: where is 21 TD?", "вопрос: где 21 т.д.?"),
    "left": Text("questions left", "осталось вопросов"),
    "given": Text("Orders given this turn", "Отданные в этот ход приказы"),
    "none": Text("none yet", "пока нет"),
    "working": Text("working…", "идет расчет…"),
    "peace": Text("the war is over: peace talks", "война окончена: мирные переговоры"),
    "print": Text("Debrief to print", "Сводка для печати"),
}

MAP_HEIGHT = "calc(100vh - 112px)"  # the window's height below the screen's head and banner


def _e(text: object) -> str:
    return html.escape(str(text))


class TeamScreen:
    """One side's screen on a game (see the module)."""

    def __init__(self, game: Game, side: str, lang: str = "ru") -> None:
        self.channel: SideChannel = channel(game, side)
        self.shown_at = game.position  # the journal position the screen shows
        self.game = game
        self.viewer = self.channel.side
        self.lang: Lang = check_lang(lang)
        self.selected: UnitRef | None = None
        self.reach_costs: dict[tuple[int, int], float] = {}
        self._features: dict[str, Any] = {"features": []}
        self._watch: asyncio.Task[None] | None = None
        self.status = w.HTML()
        self.clock = ClockLabel(self.game, self.lang)
        self.clock.widget.layout = w.Layout(margin="0 12px")
        self.message = w.HTML()
        self.busy = w.HTML(layout=w.Layout(width="110px"))
        self.mapview = MapView(
            game.state.theatre, game.level, self.click, self.lang, height=MAP_HEIGHT
        )
        self.whole = self.mapview.whole_button(self.lang)
        self.war_line = self.mapview.banner  # the start of the war (9.1), a line above the map
        self.mapview.on_hover = lambda x, y, p: self.mapview.show_readout(
            hover.readout(self, x, y, p)
        )
        self.form = OrderForm(self)
        self.debrief = w.HTML()  # what happened since the side's last move: the first thing seen
        self.given = w.HTML()
        self.journal = w.HTML(layout=w.Layout(max_height="70vh", overflow="auto"))
        self.question = w.Text(placeholder=T["question"](self.lang), layout=w.Layout(width="60%"))
        self.ask_button = w.Button(description=T["ask"](self.lang))
        self.ask_forms = w.HTML(question_examples_html(self.lang))
        self.ask_error = w.HTML()
        self._move = (game.state.turn, game.side)  # the move the inputs were filled for
        self.answers = w.HTML()
        self.ask_button.on_click(lambda _: self.ask(self.question.value))
        submit_on_enter(self.question, lambda: self.ask(self.question.value))
        self.fight_choice = w.Dropdown(options=[], layout=w.Layout(width="95%"))
        self.report = report_box()
        self.fight_choice.observe(lambda _: self._show_report(), names="value")
        tabs = w.Tab(
            [
                w.VBox([self.debrief, self.form.widget, self.given]),
                self.journal,
                w.VBox(
                    [
                        w.HBox([self.question, self.ask_button]),
                        self.ask_forms,
                        self.ask_error,
                        self.answers,
                    ]
                ),
                w.VBox([self.fight_choice, self.report]),
            ]
        )
        tabs.layout.width = "100%"
        for k, key in enumerate(("orders", "journal", "recon", "battles")):
            tabs.set_title(k, T[key](self.lang))
        self.widget = w.VBox(
            [
                w.HTML(REPORT_CSS),
                w.HBox([self.status, self.clock.widget, self.busy]),
                self.message,
                beside(self.mapview.map, tabs, above=self.war_line, overflow="auto"),
            ],
            layout=w.Layout(width="100%"),
        )
        self.widget.add_class("sg-team")
        self.refresh()
        self.mapview.start_at(self.front())

    @classmethod
    def from_env(cls) -> TeamScreen:
        """The screen `strategia serve` starts: the game and the side from the server's
        environment (STRATEGIA_GAME, STRATEGIA_SIDE), watching for other writers."""
        game = Game.open(Path(os.environ["STRATEGIA_GAME"]))
        screen = cls(game, os.environ["STRATEGIA_SIDE"], os.environ.get("STRATEGIA_LANG", "ru"))
        screen.watch()
        return screen

    # --- what the side sees -------------------------------------------------------------------

    @property
    def shown(self) -> GameState:
        """The state whose ground the readout tells (the map's, not its units)."""
        return self.game.state

    def view(self) -> SideView:
        return self.channel.view()

    def front(self) -> list[tuple[int, int]]:
        """The cells the map starts at (`mapview.front`): where the side's units meet the enemy
        units it sees or last knew of (the neutrals' only where it knows of no other)."""
        view = self.view()
        seen = [s for s in view.seen if s.side != "green"] or list(view.seen)
        known = [s.cells[0] for s in seen if s.cells]
        known += [m.cells[0] for m in last_known(self.channel) if m.cells and m.side != "green"]
        own = [(u.cell.lon, u.cell.lat) for u in view.units]
        return front(own, [(c.lon, c.lat) for c in known])

    def units_geojson(self) -> dict[str, Any]:
        """What the map's units layer is given: the counters of the side's view (it sends
        each counter's record, `layers.counter_records`)."""
        self._features = to_geojson(self.view())
        return layers.counters_geojson(
            self._features, str(self.selected) if self.selected else None, marks=False
        )

    def refresh(self) -> None:
        """Everything drawn again from the channel."""
        ch, lang = self.channel, self.lang
        self.shown_at = self.game.position  # what the team decides on: its commands' `at`
        st = ch.status()
        if st["phase"] == "peace":
            move = T["peace"](lang)
        elif st["simultaneous"]:
            move = T["sealed"](lang)
        elif st["to_move"] == ch.side:
            move = f"<b>{T['your_move'](lang)}</b>"
        else:
            move = T["their_move"].format(side=side_name(st["to_move"], lang))(lang)
        self.status.value = (
            f"<b>{_e(side_name(ch.side, lang, capital=True))}</b> — "
            f"<b>{_e(self.game.scenario.name)}</b>, {T['turn'](lang)} {st['turn']}, {move}, "
            f"{T['level'](lang)} {st['level']}"
        )
        self.mapview.show_banner(war_banner_html(ch.war(), lang))
        if (st["turn"], st["to_move"]) != self._move:  # the turn passed: inputs done with
            self._move = (st["turn"], st["to_move"])
            self.form.clear()
            self.question.value = ""
            self.ask_error.value = ""
        self.mapview.show_units(self.units_geojson())
        self.mapview.show_last_known(marks.last_known_geojson(last_known(ch), lang))
        fights = ch.fights(st["turn"])
        self.mapview.show_fights(
            [
                ("strike" if r.battle.outcome == "strike" else "battle", *_cell(r), r.outcome(lang))
                for _, r in fights
                if r.battle is not None
            ]
        )
        self.form.refresh()
        self.clock.tick()
        self._show_given()
        self._show_debrief()
        self.journal.value = journal_html(ch.journal_text(lang))
        self._show_answers()
        options = [
            (f"{T['turn'](lang)} {t}: {r.outcome(lang)}", k) for k, (t, r) in enumerate(ch.fights())
        ]
        self._fights = ch.fights()
        chosen = self.fight_choice.value
        self.fight_choice.options = options
        if options:  # the fight chosen before, or the latest
            keep = chosen is not None and int(chosen) < len(options)
            self.fight_choice.value = chosen if keep else options[-1][1]
        self._show_report()

    def _show_debrief(self) -> None:
        """The side's debrief (`game.debrief`) over its orders, with a page to print."""
        d = debrief(self.channel)
        lang, sim = self.lang, self.game.simultaneous
        name = f"debrief-{self.channel.side}-{d.turn}.html"
        link = download_link(name, debrief_page(d, lang, sim), T["print"](lang))
        self.debrief.value = (
            f"<div style='border-left:3px solid #8a5a00;padding:2px 8px;margin-bottom:6px'>"
            f"{debrief_html(d, lang, sim)}<small>{link}</small></div>"
        )

    def _show_given(self) -> None:
        sealed = [d for d in self.channel.told() if d["kind"] == "sealed"]
        rows = "".join(
            f"<li><code>{_e(order_in(d['order'], self.lang))}</code></li>" for d in sealed
        )
        body = f"<ul>{rows}</ul>" if rows else f"<p><i>{T['none'](self.lang)}</i></p>"
        self.given.value = (
            f"<p><b>{T['given'](self.lang)}</b></p>{body}" if self.game.simultaneous else ""
        )

    def _show_answers(self) -> None:
        lang = self.lang
        rows = "".join(
            f"<li>{T['turn'](lang)} {a['turn']}: {_e(question_in(a['question'], lang))} → "
            f"<b>{_e(a['answer'][lang] if isinstance(a['answer'], dict) else a['answer'])}</b></li>"
            for a in self.channel.answers()
        )
        left = ""
        with suppress(StrategiaError):
            left = f"<p>{T['left'](lang)}: {self.channel.questions_left():g}</p>"
        self.answers.value = left + (f"<ul>{rows}</ul>" if rows else "")

    def _show_report(self) -> None:
        k = self.fight_choice.value
        if k is None or not self._fights:
            self.report.value = ""
            return
        turn, r = self._fights[int(k)]
        self.report.value = rr.report_html(r, self.lang, turn)

    # --- what the side does -------------------------------------------------------------------

    def click(self, x: float, y: float, properties: dict[str, Any] | None = None) -> None:
        """A click on one of the side's counters selects it; anywhere else targets the cell."""
        unit = (properties or {}).get("unit")
        own = {str(u.ref): u.ref for u in self.view().units}
        if unit in own:
            self.selected = own[unit]
            self._show_reach()
            self.refresh()
            return
        self.form.set_target(Cell(round(x), round(y)))

    def _show_reach(self) -> None:
        """The selected unit's reach, searched on what the side knows: its own counters and the
        enemy's it sees (a hidden unit must not show as a hole in the shading)."""
        if self.selected is None or self.selected not in self.game.state.units:
            self.reach_costs = {}
            self.mapview.show_reach([])
            return
        known = _known_state(self.game.state, self.view())
        r = reach(known, self.selected, self.game.rules)
        self.reach_costs = {(c.lon, c.lat): float(r.cost_to(c)) for c in r.cells()}
        self.mapview.show_reach_costs([(x, y, v) for (x, y), v in self.reach_costs.items()])

    @contextmanager
    def working(self, errors: w.HTML | None = None) -> Iterator[None]:
        target = errors if errors is not None else self.message
        self.busy.value = f"<i>⏳ {T['working'](self.lang)}</i>"
        try:
            yield
            target.value = ""
        except StrategiaError as e:
            target.value = error_html(say(e, self.lang))
            if isinstance(e, StaleError):  # shown the game as it now is, to decide again
                self.refresh()
        finally:
            self.busy.value = ""

    def submit(self, text: str, errors: w.HTML | None = None) -> Result | None:
        """Give an order as the side; what the side is told of it is shown under the form."""
        with self.working(errors):
            told = self.channel.order(text, at=self.shown_at)
            self.form.result.value = self._told_html(text, told)
            self._show_reach()
            self.refresh()
        return None

    def breakdown_html(self, result: Result) -> str:
        return f"<p><b>{_e(result.outcome(self.lang))}</b></p>"

    def _told_html(self, text: str, told: Told | None) -> str:
        if told is None:
            turn = self.game.state.turn
            sealed = Text(
                f"sealed for turn {turn}, until the turn is carried out",
                f"запечатан на ход {turn} до исполнения хода",
            )(self.lang)
            return f"<p><code>{_e(text)}</code> — {sealed}</p>"
        return f"<p><b>{_e(told.text(self.lang))}</b></p>"

    def ask(self, text: str) -> None:
        with self.working(self.ask_error):
            self.channel.ask(text, at=self.shown_at)
            self.question.value = ""
            self.refresh()

    # --- other writers --------------------------------------------------------------------------

    def catch_up(self) -> bool:
        """Take in what other writers appended; redraw if anything came (True)."""
        came = caught_up(self.game, self.refresh)
        self.clock.tick()
        return came

    def watch(self) -> None:
        """Catch up by itself (`strategia.ui.widgets.watch`)."""
        self._watch = watch(self.catch_up)


def _cell(r: Result) -> tuple[int, int]:
    assert r.battle is not None
    lon, lat = r.battle.target.split(",")
    return int(lon), int(lat)


def _known_state(state: GameState, view: SideView) -> GameState:
    """The state with only the counters the side knows of: its own and the enemy's it sees."""
    own = {u.ref for u in view.units}
    seen = {c for s in view.seen for c in s.cells}
    hidden = [r for r, u in state.units.items() if r not in own and not set(u.cells) & seen]
    return state.with_units([], hidden)


__all__ = ["TeamScreen"]
