"""The console's tabs: orders, battles, journal, reconnaissance, score, the mediator's tools and
the rules at the game's level.

Each tab builds order text or questions and hands them to the console; what it shows comes from
the game's results and the engine's explanations, rendered, never recomputed.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any, Protocol

import ipywidgets as w

from strategia.core.errors import StrategiaError
from strategia.core.geometry import Cell
from strategia.core.i18n import Lang, Text
from strategia.core.numbers import num
from strategia.engine.result import Result
from strategia.engine.state import GameState
from strategia.explain.render import explanation_html
from strategia.game import recon
from strategia.game.channel import channel
from strategia.game.game import Game
from strategia.game.order_words import question_in
from strategia.notation.refs import UnitRef
from strategia.notation.say import say
from strategia.rules.kinds import side_name
from strategia.ui.console.battles import BattlesPanel
from strategia.ui.console.computer import ComputerPanel
from strategia.ui.console.course_tab import CoursePanel
from strategia.ui.console.mediator import JournalPanel, MediatorPanel
from strategia.ui.console.rules import RatingWorkbench, rules_sheet_panel
from strategia.ui.console.sealed import SealedPanel
from strategia.ui.console.truth import TruthPanel
from strategia.ui.widgets.clock import ClockPanel
from strategia.ui.widgets.notes import REPORT_CSS, question_examples_html
from strategia.ui.widgets.order_form import OrderForm, order_menu, submit_on_enter

__all__ = ["Panels", "order_menu"]

TITLES = [
    ("Orders", "Приказы"),
    ("Battles", "Бои"),
    ("Journal", "Журнал"),
    ("Recon", "Разведка"),
    ("Score", "Очки"),
    ("Mediator", "Посредник"),
    ("Rules", "Правила"),
    ("Course of the war", "Ход войны"),
]
HIDDEN = Text(
    "This is a side's view: the mediator's tools (the computer players, the clock, the sealed "
    "orders, interventions, the truth view) are hidden. Return to the mediator's view above.",
    "Это вид стороны: инструменты посредника (компьютерные игроки, часы, запечатанные приказы, "
    "вмешательства, сравнение с истиной) скрыты. Вернитесь вверху к виду посредника.",
)
# Tab titles whole, every tab on one row: the tabs take the width their titles need (a little
# smaller and closer than the notebook's), which the panel's narrowest width (460 px) holds in
# either language; were a font ever wider, the row scrolls sideways rather than wrap.
TAB_CSS = (
    "<style>.sg-tabs .lm-TabBar-tab,.sg-tabs .p-TabBar-tab{flex:0 0 auto!important;"
    "min-width:0!important;max-width:none!important;padding:0 5px!important;font-size:12px}"
    ".sg-tabs .lm-TabBar-content,.sg-tabs .p-TabBar-content{flex-wrap:nowrap}"
    ".sg-tabs>.lm-TabBar,.sg-tabs>.p-TabBar{overflow-x:auto;overflow-y:hidden}"
    ".sg-tabs .lm-TabBar-tabLabel{overflow:visible!important;text-overflow:clip!important}</style>"
)


class Console(Protocol):
    """What the tabs use of the console they sit in."""

    game: Game
    shown_at: int  # the journal position the console shows
    lang: Lang
    selected: UnitRef | None
    inspected: UnitRef | None
    viewer: str
    games: Path

    @property
    def shown(self) -> GameState: ...

    def breakdown_html(self, r: Result) -> str: ...
    def refresh(self) -> None: ...
    def undo(self) -> None: ...
    def submit(self, text: str, errors: w.HTML | None = None) -> Result | None: ...
    def playing(self) -> None: ...
    def working(self, errors: w.HTML | None = None) -> AbstractContextManager[None]: ...
    def reopen(self, path: Path, level: int | None = None) -> None: ...
    def show_history(self, seq: int | None) -> None: ...
    def continue_here(self) -> None: ...
    def show_truth(self, side: str | None) -> None: ...
    def set_computer(self, side: str, plays: bool, style: str = "", posture: str = "") -> None: ...
    def computer_moves(self) -> object: ...
    def _viewers(self) -> list[tuple[str, str]]: ...


def _e(text: object) -> str:
    return html.escape(str(text))


class Panels:
    """The tabs beside the map."""

    def __init__(self, console: Console, go_to: Callable[[int, int], None]) -> None:
        self.c = console
        lang = console.lang
        self.orders = OrderForm(console)
        self.battles = BattlesPanel(console, go_to)
        self.journal = JournalPanel(console)
        self.mediator = MediatorPanel(console)
        self.sealed = SealedPanel(console)
        self.computer = ComputerPanel(console)
        self.truth = TruthPanel(console, console._viewers()[1:])
        self.course = CoursePanel(console)
        self.clock = ClockPanel(console)
        g = console.game
        self.recon_side = w.Dropdown(
            options=console._viewers()[1:], description=Text("side", "сторона")(lang)
        )
        self._default_side()
        self.question = w.Text(
            placeholder=Text("where is 21 TD?", "где 21 т.д.?")(lang), layout=w.Layout(width="98%")
        )
        self.ask = w.Button(description=Text("Ask", "Спросить")(lang))
        self.ask_forms = w.HTML(question_examples_html(lang))
        self.ask_error = w.HTML()
        self.answers = w.HTML()
        self.ask.on_click(lambda _: self.do_ask())
        submit_on_enter(self.question, self.do_ask)
        self.recon_side.observe(lambda _: self.refresh(), names="value")
        self.score = w.HTML()
        # the mediator's own tools: shown in the mediator's view only (`_mediator_tab`)
        self.tools = (self.computer.widget, self.clock.widget, self.sealed.widget,
                      self.mediator.widget, self.truth.widget)  # fmt: skip
        self.tools_hidden = w.HTML(f"<p><i>{_e(HIDDEN(lang))}</i></p>")
        self.mediator_tab = w.VBox(list(self.tools))
        level = g.level
        self.tabs = w.Tab(
            children=[
                self.orders.widget,
                self.battles.widget,
                self.journal.widget,
                w.VBox(
                    [
                        self.recon_side,
                        self.question,
                        self.ask_forms,
                        self.ask,
                        self.ask_error,
                        self.answers,
                    ]
                ),
                self.score,
                self.mediator_tab,
                w.VBox(
                    [
                        w.HTML(
                            f"<b>{Text('The game is at level', 'Уровень игры')(lang)} {level}</b>"
                        ),
                        RatingWorkbench(lang=lang, level=level).widget,
                        rules_sheet_panel(lang, level=level),
                    ]
                ),
                self.course.widget,
            ]
        )
        for n, (en, ru) in enumerate(TITLES):
            self.tabs.set_title(n, Text(en, ru)(lang))
        self.tabs.observe(lambda _: self._course(), names="selected_index")
        self.tabs.add_class("sg-tabs")
        self.widget = w.VBox(
            [w.HTML(TAB_CSS + REPORT_CSS), self.tabs], layout=w.Layout(width="100%")
        )

    def _course(self) -> None:
        """The course of the war charted, when its tab is open (drawn on demand: it reads every
        turn's position)."""
        if self.tabs.selected_index == len(TITLES) - 1:
            self.course.refresh()

    # --- what the console calls ---------------------------------------------------------------

    def _default_side(self) -> None:
        """The reconnaissance tab asks for the side to move (at level 3, the first side), or
        the side the console is shown as."""
        sides = [v for _, v in self.recon_side.options]
        g = self.c.game
        want = self.c.viewer if self.c.viewer in sides else g.side
        if want in sides:
            self.recon_side.value = want

    def clear_inputs(self) -> None:
        """The turn passed: what was typed for the move before is cleared (the order form,
        notation, the question, the intervention) with their errors; the reconnaissance tab
        turns to the side now to move."""
        self.orders.clear()
        self.question.value = ""
        self.ask_error.value = ""
        self.mediator.note.value = ""
        self.mediator.note_cell.value = ""
        self.mediator.note_error.value = ""
        self._default_side()

    def viewer_changed(self, viewer: str) -> None:
        """Another viewer: the last order's breakdown and the errors shown for the one before
        are cleared (the mediator's cuts never stay on a side's view)."""
        self.orders.result.value = ""
        self.orders.form_error.value = ""
        self.orders.free_error.value = ""
        self.ask_error.value = ""
        self.battles.forget()
        self.course.forget()  # the charts of the view before never stay shown
        if viewer in [v for _, v in self.recon_side.options]:
            self.recon_side.value = viewer

    def set_playing(self, playing: bool) -> None:
        """The game's commands, enabled only on the game now (not while looking back)."""
        for b in (self.orders.give, self.orders.free_go, self.ask, self.mediator.intervene,
                  self.mediator.peace, self.mediator.peace_yes, self.sealed.reject,
                  self.sealed.amend, self.clock.extend):  # fmt: skip
            b.disabled = not playing
        for who, _, _ in self.computer.rows.values():
            who.disabled = not playing
        if not playing:
            self.computer.go.disabled = True

    def set_target(self, cell: Cell) -> None:
        self.orders.set_target(cell)

    def order_text(self) -> str:
        return self.orders.order_text()

    def show_result(self, text: str, result: Result | None) -> None:
        self.orders.show_result(text, result)

    def show_turn(self, results: list[Result], since: int | None = None) -> None:
        self.orders.show_turn(results, since)

    def turn_since(self) -> int:
        """The entry after which the moves ended are to be told: before the first the Orders
        tab tells of now, else the journal's last (the moves to come)."""
        shown = self.orders.shown_from
        return shown - 1 if shown is not None else self.c.game.journal.last_seq

    def _mediator_tab(self, mediator: bool) -> None:
        """The Mediator tab holds the mediator's tools (the computer's settings and last move,
        the clock, the sealed orders, an intervention being typed, the truth view) in the
        mediator's view only; in a side's view it says they are hidden."""
        want = self.tools if mediator else (self.tools_hidden,)
        if tuple(self.mediator_tab.children) != want:
            self.mediator_tab.children = want
        self.recon_side.disabled = not mediator  # a side asks for itself only

    def refresh(self, history: int | None = None) -> None:
        lang = self.c.lang
        g = self.c.game
        mediator = self.c.viewer == "mediator"
        self._mediator_tab(mediator)
        self.orders.refresh()
        self.battles.refresh()
        self.journal.refresh(history)
        self.mediator.refresh()
        self.sealed.refresh()
        self.computer.refresh()
        self.truth.refresh()
        self._course()
        self.clock.refresh()
        answers = [a for a in g.answers if mediator or a["side"] == self.c.viewer]
        rows = []
        for a in answers:
            answer = a["answer"][lang] if isinstance(a["answer"], dict) else a["answer"]
            flag = Text("true", "верно") if a.get("true") else Text("FALSE", "ЛОЖЬ")
            truth = f" <i>({flag(lang)})</i>" if mediator else ""
            who = f"[{_e(side_name(a['side'], lang, capital=True))}, {a['turn']}]"
            asked = question_in(a["question"], lang)
            rows.append(f"<li>{who} {_e(asked)} → <b>{_e(answer)}</b>{truth}</li>")
        self.answers.value = f"{self._budget()}<ul>{''.join(rows)}</ul>"
        sides = sorted({s.side for s in g.scenario.states})
        if mediator:
            self.score.value = "".join(
                explanation_html(g.score(s).explanation, lang) for s in sides
            )
        else:  # a side's score is told when the war is over (1.1)
            try:
                score = channel(g, self.c.viewer).score()
                self.score.value = explanation_html(score.explanation, lang)
            except StrategiaError as e:
                self.score.value = f"<p><i>{_e(say(e, lang))}</i></p>"

    def _budget(self) -> str:
        """Questions left to the chosen side (8.3)."""
        g = self.c.game
        side = str(self.recon_side.value)
        b = recon.budget(g.state, side, g.rules, [a for a in g.answers if a["side"] == side])
        left = Text("questions left", "осталось вопросов")(self.c.lang)
        who = side_name(side, self.c.lang, capital=True)
        lang = self.c.lang
        return f"<p>{_e(who)}: {left} <b>{num(b.left, lang)}</b> / {num(b.allowance, lang)}</p>"

    def do_ask(self) -> dict[str, Any] | None:
        answer = None
        with self.c.working(self.ask_error):
            self.c.playing()  # not while looking back (Enter in the box, the button disabled)
            answer = self.c.game.ask(
                str(self.recon_side.value), self.question.value, at=self.c.shown_at
            )
            self.c.refresh()
        return answer

    # kept for scripts and tests that drove the old panels
    @property
    def result(self) -> w.HTML:
        return self.orders.result

    @property
    def target(self) -> w.Widget:
        return self.orders.fields["cell"]
