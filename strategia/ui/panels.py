"""The console's panels: orders, battles, journal, reconnaissance, score, the mediator's tools.

Each panel builds order text or questions and hands them to the console; what it shows comes
from the game's results and the engine's explanations, rendered, never recomputed.
"""

from __future__ import annotations

import html
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any, Protocol

import ipywidgets as w

from strategia.core.geometry import Cell, Direction
from strategia.core.i18n import Lang, Text
from strategia.engine.result import Result
from strategia.explain.render import explanation_html
from strategia.game import recon
from strategia.game.game import Game
from strategia.notation import FORMS, Order
from strategia.notation.grammar import Form
from strategia.notation.refs import UnitRef
from strategia.ui.rules_panel import RatingWorkbench, rules_sheet_panel


class Console(Protocol):
    """What the panels use of the console they sit in."""

    game: Game
    lang: Lang
    selected: UnitRef | None
    viewer: str

    def breakdown_html(self, r: Result) -> str: ...
    def refresh(self) -> None: ...
    def submit(self, text: str) -> Result | None: ...
    def working(self) -> AbstractContextManager[None]: ...
    def reopen(self, path: Path, level: int | None) -> None: ...
    def _viewers(self) -> list[tuple[str, str]]: ...


MENU_SLOTS = frozenset({"unit", "cell", "direction", "echelons"})  # what the order form fills


def order_menu(lang: Lang) -> list[tuple[str, Form]]:
    """The orders the form offers: every declared order whose slots it can fill, titled with
    its rule."""
    return [
        (f"{f.title(lang)} ({f.rule})", f)
        for f in FORMS
        if issubclass(f.cls, Order) and set(f.slot_types()) <= MENU_SLOTS
    ]


def _e(text: object) -> str:
    return html.escape(str(text))


class Panels:
    """The tabs beside the map."""

    def __init__(self, console: Console) -> None:
        self.c = console
        lang = console.lang
        self.unit_info = w.HTML()
        self.kind = w.Dropdown(
            options=order_menu(lang),
            description=Text("order", "приказ")(lang),
        )
        self.target = w.Text(description=Text("cell", "клетка")(lang), placeholder="45,22")
        self.facing = w.Dropdown(
            options=[(d.label(lang), d) for d in Direction],
            description=Text("facing", "фронтом")(lang),
        )
        self.echelons = w.Text(
            description=Text("echelons", "эшелоны")(lang),
            placeholder="17 с.д., 18 с.д.; 19 с.д. // оборона: 101 с.д.",
        )
        self.preview = w.HTML()
        self.give = w.Button(
            description=Text("Give the order", "Отдать приказ")(lang), button_style="primary"
        )
        self.free = w.Text(
            description=Text("notation", "запись")(lang),
            placeholder="17 с.д. на 45,25",
            layout=w.Layout(width="95%"),
        )
        self.free_go = w.Button(description=Text("Give", "Отдать")(lang))
        self.result = w.HTML()
        for control in (self.kind, self.target, self.facing, self.echelons):
            control.observe(lambda _: self._preview(), names="value")
        self.give.on_click(lambda _: self.c.submit(self.order_text()))
        self.free_go.on_click(lambda _: self.c.submit(self.free.value))
        orders = w.VBox(
            [
                self.unit_info,
                self.kind,
                self.target,
                self.facing,
                self.echelons,
                self.preview,
                self.give,
                w.HTML("<hr>"),
                self.free,
                self.free_go,
                self.result,
            ]
        )
        self.battles = w.Select(rows=8, layout=w.Layout(width="95%"))
        self.battle = w.HTML()
        self.battles.observe(lambda _: self._show_battle(), names="value")
        self.journal = w.HTML()
        self.recon_side = w.Dropdown(
            options=[s for _, s in console._viewers()[1:]],
            description=Text("side", "сторона")(lang),
        )
        self.question = w.Text(placeholder="где 21 т.д.?", layout=w.Layout(width="95%"))
        self.ask = w.Button(description=Text("Ask", "Спросить")(lang))
        self.answers = w.HTML()
        self.ask.on_click(lambda _: self.do_ask())
        self.recon_side.observe(lambda _: self.refresh(), names="value")
        self.score = w.HTML()
        self.note = w.Text(placeholder=Text("weather, news...", "погода, вводная...")(lang))
        self.note_cell = w.Text(description=Text("road at", "дорога в")(lang), placeholder="33,24")
        self.note_turns = w.BoundedIntText(
            value=2, min=1, max=20, description=Text("turns", "ходов")(lang)
        )
        self.intervene = w.Button(description=Text("Intervene (9.4)", "Вмешаться (9.4)")(lang))
        self.interventions = w.HTML()
        self.intervene.on_click(lambda _: self.do_intervene())
        self.open_path = w.Text(
            description=Text("open", "открыть")(lang),
            placeholder="maps/continental.toml or war.game",
        )
        self.open_level = w.Dropdown(
            options=[("—", None), ("1", 1), ("2", 2), ("3", 3)],
            description=Text("level", "уровень")(lang),
        )
        self.open_go = w.Button(description=Text("Open", "Открыть")(lang))
        self.open_go.on_click(lambda _: self.do_open())
        self.saved = w.HTML()
        self.peace = w.Button(
            description=Text(
                "End the war: peace talks (1.5)", "Конец войны: мирные переговоры (1.5)"
            )(lang),
            button_style="danger",
        )
        self.peace.on_click(lambda _: self.do_peace())
        mediator = w.VBox(
            [
                self.note,
                self.note_cell,
                self.note_turns,
                self.intervene,
                self.interventions,
                w.HTML("<hr>"),
                self.peace,
                self.saved,
                self.open_path,
                self.open_level,
                self.open_go,
            ]
        )
        self.tabs = w.Tab(
            children=[
                orders,
                w.VBox([self.battles, self.battle]),
                self.journal,
                w.VBox([self.recon_side, self.question, self.ask, self.answers]),
                self.score,
                mediator,
                w.VBox([RatingWorkbench(lang=lang).widget, rules_sheet_panel(lang)]),
            ]
        )
        titles = [
            ("Orders", "Приказы"),
            ("Battles", "Бои"),
            ("Journal", "Журнал"),
            ("Recon", "Разведка"),
            ("Score", "Очки"),
            ("Mediator", "Посредник"),
            ("Rules", "Правила"),
        ]
        for n, (en, ru) in enumerate(titles):
            self.tabs.set_title(n, Text(en, ru)(lang))
        self.widget = self.tabs

    # --- orders ---------------------------------------------------------------------------------

    def set_target(self, cell: Cell) -> None:
        self.target.value = str(cell)
        self._preview()

    def order_text(self) -> str:
        unit = str(self.c.selected) if self.c.selected else "?"
        form: Form = self.kind.value
        values = {
            "unit": unit,
            "cell": self.target.value.strip() or "?",
            "direction": self.facing.value.ru,
            "echelons": self.echelons.value.strip() or unit,
        }
        return form.sketch("ru", values)

    def _preview(self) -> None:
        self.preview.value = f"<code>{_e(self.order_text())}</code>"

    def show_result(self, text: str, result: Result | None) -> None:
        if result is None:
            noted = Text("noted for the turn", "принят к исполнению")(self.c.lang)
            self.result.value = f"<p>{_e(text)} — {noted}</p>"
        else:
            self.result.value = self.c.breakdown_html(result)

    def show_turn(self, results: list[Result]) -> None:
        self.result.value = "".join(f"<p>{_e(r.outcome(self.c.lang))}</p>" for r in results)

    # --- refresh --------------------------------------------------------------------------------

    def refresh(self) -> None:
        lang = self.c.lang
        g = self.c.game
        u = g.state.units.get(self.c.selected) if self.c.selected else None
        if u is not None:
            regs = ", ".join(f"{r.kind.ru} {r.strength:.0%}" for r in u.division.regiments)
            busy = f"; {u.busy.what} ({u.busy.left:g})" if u.busy else ""
            self.unit_info.value = (
                f"<b>{_e(u.ref)}</b> — {_e(', '.join(str(c) for c in u.cells))}, "
                f"{_e(u.facing.label(lang))}, {Text('left', 'остаток хода')(lang)} {u.left:.2g}"
                f"{_e(busy)}<br><small>{_e(regs)}</small>"
            )
        else:
            self.unit_info.value = (
                f"<i>{Text('click a unit on the map', 'выберите часть на карте')(lang)}</i>"
            )
        self._preview()
        mediator = self.c.viewer == "mediator"
        fights = [(seq, t, r) for seq, t, _, r in g.results if r.explanation.rule in ("9.8", "9.7")]
        self.battles.options = [
            (f"{Text('turn', 'ход')(lang)} {t}: {r.order} → {r.outcome(lang)}", seq)
            for seq, t, r in reversed(fights)
        ]
        self.journal.value = f"<pre style='font-size:11px'>{_e(g.journal_text(lang))}</pre>"
        answers = [a for a in g.answers if mediator or a["side"] == self.c.viewer]
        rows = []
        for a in answers:
            answer = a["answer"][lang] if isinstance(a["answer"], dict) else a["answer"]
            flag = Text("true", "верно") if a.get("true") else Text("FALSE", "ЛОЖЬ")
            truth = f" <i>({flag(lang)})</i>" if mediator else ""
            who = f"[{_e(a['side'])}, {a['turn']}]"
            rows.append(f"<li>{who} {_e(a['question'])} → <b>{_e(answer)}</b>{truth}</li>")
        self.answers.value = f"{self._budget()}<ul>{''.join(rows)}</ul>"
        sides = sorted({s.side for s in g.scenario.states})
        self.score.value = "".join(
            explanation_html(g.score(s).explanation, lang)
            for s in (sides if mediator else [self.c.viewer])
        )
        self.interventions.value = (
            "<ul>" + "".join(f"<li>{t}: {_e(x)}</li>" for t, x in g.interventions) + "</ul>"
        )
        saved = Text("saved as you play in", "сохраняется по ходу игры в")(lang)
        self.saved.value = f"<small>{saved} <code>{_e(g.journal.path)}</code></small>"

    def _budget(self) -> str:
        """Questions left to the chosen side (8.3)."""
        g = self.c.game
        side = str(self.recon_side.value)
        b = recon.budget(g.state, side, g.rules, [a for a in g.answers if a["side"] == side])
        left = Text("questions left", "осталось вопросов")(self.c.lang)
        return f"<p>{_e(side)}: {left} <b>{b.left:g}</b> / {b.allowance:g}</p>"

    def _show_battle(self) -> None:
        seq = self.battles.value
        for s, _, _, r in self.c.game.results:
            if s == seq:
                self.battle.value = self.c.breakdown_html(r)

    # --- the other tabs' actions ---------------------------------------------------------------

    def do_ask(self) -> dict[str, Any] | None:
        answer = None
        with self.c.working():
            answer = self.c.game.ask(str(self.recon_side.value), self.question.value)
            self.c.refresh()
        return answer

    def do_intervene(self) -> None:
        with self.c.working():
            cell = Cell.parse(self.note_cell.value) if self.note_cell.value.strip() else None
            self.c.game.intervene(self.note.value or "—", cell, int(self.note_turns.value))
            self.c.refresh()

    def do_peace(self) -> None:
        """The war ends (1.5): no more orders; the score stands."""
        with self.c.working():
            self.c.game.end_game()
            self.c.refresh()

    def do_open(self) -> None:
        with self.c.working():
            self.c.reopen(Path(self.open_path.value), self.open_level.value)
