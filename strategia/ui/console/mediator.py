"""The mediator's tab and the journal's: interventions (9.4) with their cell and duration, each
to be taken back like an order; the end of the war, confirmed first (1.5); opening a game or a
new one; and the journal with a slider that shows the game at any of its entries.
"""

from __future__ import annotations

import html
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Protocol

import ipywidgets as w

from strategia.core.errors import StrategiaError
from strategia.core.geometry import Cell
from strategia.core.i18n import Lang, Text
from strategia.core.numbers import turns
from strategia.engine.state import GameState
from strategia.game.channel import channel
from strategia.game.game import Game
from strategia.game.order_words import order_in
from strategia.notation.refs import UnitRef
from strategia.ui.widgets.notes import journal_html
from strategia.ui.widgets.order_form import submit_on_enter, unit_info


class Host(Protocol):
    game: Game
    shown_at: int  # the journal position the console shows
    lang: Lang
    games: Path
    viewer: str
    inspected: UnitRef | None

    @property
    def shown(self) -> GameState: ...

    def refresh(self) -> None: ...
    def playing(self) -> None: ...
    def undo(self) -> None: ...
    def working(self, errors: w.HTML | None = None) -> AbstractContextManager[None]: ...
    def reopen(self, path: Path, level: int | None = None) -> None: ...
    def show_history(self, seq: int | None) -> None: ...
    def continue_here(self) -> None: ...


def _e(text: object) -> str:
    return html.escape(str(text))


class MediatorPanel:
    """Interventions, the end of the war, opening games."""

    def __init__(self, host: Host) -> None:
        self.c = host
        lang = host.lang
        self.note = w.Text(
            description=Text("what", "что")(lang),
            placeholder=Text("weather, news...", "погода, вводная...")(lang),
        )
        self.note_cell = w.Text(
            description=Text("road at", "дорога в")(lang),
            placeholder=Text("33,24 (optional)", "33,24 (можно без)")(lang),
        )
        self.note_turns = w.BoundedIntText(
            value=2, min=1, max=20, description=Text("turns", "ходов")(lang)
        )
        self.intervene = w.Button(description=Text("Intervene (9.4)", "Вмешаться (9.4)")(lang))
        self.note_error = w.HTML()
        self.interventions = w.HTML()
        self.intervene.on_click(lambda _: self.do_intervene())
        submit_on_enter(self.note, self.do_intervene)
        submit_on_enter(self.note_cell, self.do_intervene)
        self.peace = w.Button(
            description=Text("End the war…", "Конец войны…")(lang), button_style="danger"
        )
        self.peace_yes = w.Button(
            description=Text("Yes: peace talks (1.5)", "Да: мирные переговоры (1.5)")(lang),
            button_style="danger",
        )
        self.peace_no = w.Button(description=Text("No, go on", "Нет, продолжить")(lang))
        self.peace_ask = w.HBox([self.peace_yes, self.peace_no])
        self.peace_ask.layout.display = "none"
        self.peace.on_click(lambda _: self.ask_peace())
        self.peace_yes.on_click(lambda _: self.do_peace())
        self.peace_no.on_click(lambda _: self.cancel_peace())
        self.saved = w.HTML()
        self.open_path = w.Text(
            description=Text("open", "открыть")(lang),
            placeholder="maps/continental.toml, war.game",
            layout=w.Layout(width="98%"),
        )
        self.open_level = w.Dropdown(
            options=[("—", None), ("1", 1), ("2", 2), ("3", 3)],
            description=Text("level", "уровень")(lang),
        )
        self.open_go = w.Button(description=Text("Open", "Открыть")(lang))
        self.open_error = w.HTML()
        self.open_go.on_click(lambda _: self.do_open())
        submit_on_enter(self.open_path, self.do_open)
        self.widget = w.VBox(
            [
                w.HTML(f"<b>{Text('Interventions (9.4)', 'Вмешательства (9.4)')(lang)}</b>"),
                self.note,
                self.note_cell,
                self.note_turns,
                self.intervene,
                self.note_error,
                self.interventions,
                w.HTML("<hr style='margin:4px 0'>"),
                self.peace,
                self.peace_ask,
                w.HTML("<hr style='margin:4px 0'>"),
                self.saved,
                self.open_path,
                self.open_level,
                self.open_go,
                self.open_error,
            ]
        )

    def refresh(self) -> None:
        lang = self.c.lang
        g = self.c.game
        rows = []
        for i in g.intervention_list():
            where = f", {Text('road at', 'дорога в')(lang)} {i['cell']}" if i.get("cell") else ""
            long = f", {turns(i['turns'], lang)}" if i.get("cell") and i.get("turns") else ""
            head = Text("turn", "ход")(lang)
            rows.append(f"<li>{head} {i['turn']}: {_e(i['text'])}{_e(where)}{_e(long)}</li>")
        last = g.undoable()
        hint = ""
        if last is not None and last.kind == "intervention":
            hint = Text(
                "«Undo» in the head takes the last one back",
                "«Отменить» вверху отменяет последнее",
            )(lang)
        self.interventions.value = (
            f"<ul style='margin:2px 0'>{''.join(rows)}</ul><small>{hint}</small>" if rows else ""
        )
        saved = Text("saved as you play in", "сохраняется по ходу игры в")(lang)
        where = Text("new games go to", "новые игры — в")(lang)
        self.saved.value = (
            f"<small>{saved} <code>{_e(g.journal.path)}</code>; {where} "
            f"<code>{_e(self.c.games)}</code></small>"
        )

    def do_intervene(self) -> None:
        with self.c.working(self.note_error):
            self.c.playing()  # not while looking back
            cell = Cell.parse(self.note_cell.value) if self.note_cell.value.strip() else None
            text = self.note.value.strip()  # nothing in it: refused, never journalled (9.4)
            turns = int(self.note_turns.value) if cell else None
            self.c.game.intervene(text, cell, turns, at=self.c.shown_at)
            self.note.value = ""
            self.note_cell.value = ""
            self.c.refresh()

    def ask_peace(self) -> None:
        self.peace_ask.layout.display = "flex"

    def cancel_peace(self) -> None:
        self.peace_ask.layout.display = "none"

    def do_peace(self) -> None:
        """The war ends (1.5): no more orders; the score stands."""
        with self.c.working(self.note_error):
            self.peace_ask.layout.display = "none"
            self.c.game.end_game()
            self.c.refresh()

    def do_open(self) -> None:
        with self.c.working(self.open_error):
            given = Path(self.open_path.value.strip())
            # from where the console runs, or from the project (the notebook runs in notebooks/)
            path = next((p for p in (given, Path.cwd().parent / given) if p.is_file()), given)
            if not path.is_file():
                raise StrategiaError(
                    f"{path}: no such file (a scenario .toml or a .game)",
                    ru=f"{path}: такого файла нет (нужен сценарий .toml или игра .game)",
                )
            self.c.reopen(path, self.open_level.value)


KINDS = {
    "game": ("the game begins", "начало игры"), "order": ("order", "приказ"),
    "end-turn": ("end of a move", "конец хода"), "ask": ("question", "вопрос"),
    "intervention": ("intervention", "вмешательство"), "undo": ("taken back", "отмена"),
    "phase": ("phase", "этап"), "decision": ("the computer's decision", "решение компьютера"),
    "computer": ("a side given to the computer or back", "сторона передана компьютеру или обратно"),
    "reject": ("order rejected", "приказ отклонен"), "amend": ("order amended", "приказ исправлен"),
    "extend": ("time extended", "время продлено"),
}  # fmt: skip


class JournalPanel:
    """The journal as the paper one reads, and a slider over its entries: the game as it was."""

    def __init__(self, host: Host) -> None:
        self.c = host
        lang = host.lang
        self.slider = w.IntSlider(
            min=1,
            max=1,
            value=1,
            continuous_update=False,
            description=Text("entry", "запись")(lang),
            layout=w.Layout(width="98%"),
        )
        self.now = w.Button(
            description=Text("Back to now", "К текущему ходу")(lang), button_style="info"
        )
        self.fork = w.Button(
            description=Text("Continue from here as a new game", "Продолжить отсюда новой игрой")(
                lang
            ),
            icon="code-branch",
            layout=w.Layout(width="auto"),
            disabled=True,
        )
        self.where = w.HTML()
        self.unit = w.HTML()  # a unit clicked while looking back, as it was then
        self.text = w.HTML()
        self.slider.observe(lambda ch: self._moved(int(ch["new"])), names="value")
        self.now.on_click(lambda _: self.c.show_history(None))
        self.fork.on_click(lambda _: self.c.continue_here())
        self.widget = w.VBox(
            [w.HBox([self.slider, self.now, self.fork]), self.where, self.unit, self.text]
        )
        self._quiet = False

    def _moved(self, seq: int) -> None:
        if not self._quiet:
            self.c.show_history(None if seq >= self.slider.max else seq)

    def refresh(self, at: int | None) -> None:
        g = self.c.game
        lang = self.c.lang
        n = len(g.journal.entries)
        self._quiet = True
        self.slider.max = max(n, 1)
        self.slider.value = n if at is None else at
        self._quiet = False
        self.now.disabled = at is None
        self.fork.disabled = at is None
        self.unit.value = "" if at is None else past_unit_html(self.c.shown, self.c.inspected, lang)
        if at is None:
            self.where.value = Text(
                "<small>the game now; move the slider to see it at an earlier entry</small>",
                "<small>игра сейчас; сдвиньте ползунок, чтобы увидеть ее на прежней записи</small>",
            )(lang)
        else:
            e = g.journal.entries[at - 1]
            en, ru = KINDS.get(e.kind, (e.kind, e.kind))
            what = (ru if lang == "ru" else en) + (
                f": {order_in(e.data['order'], lang)}" if "order" in e.data else ""
            )
            self.where.value = (
                "<b style='color:#8a5a00'>"
                + Text(f"history: entry {at} of {n}", f"история: запись {at} из {n}")(lang)
                + f"</b> <small>({_e(what)})</small>"
            )
        text = (
            g.journal_text(lang)
            if self.c.viewer == "mediator"
            else channel(g, self.c.viewer).journal_text(lang)  # the side's own journal
        )
        self.text.value = journal_html(text, "11px")


def past_unit_html(state: GameState, ref: UnitRef | None, lang: Lang) -> str:
    """A unit as it was at the journal entry looked back at (its cells, facing, formation,
    regiments' strengths, the turn left, its work), or how to see one."""
    if ref is None or ref not in state.units:
        hint = Text(
            "click a unit on the map to see it as it was then",
            "щелкните по части на карте, чтобы увидеть ее такой, какой она была",
        )
        return f"<small><i>{hint(lang)}</i></small>"
    return unit_info(state, ref, lang)
