"""The mediator's view of the orders sealed for a level-3 turn: who submitted what and when, and
the mediator's decision on each, rejected or amended with a note the side is told (journalled).
"""

from __future__ import annotations

import html
from contextlib import AbstractContextManager
from typing import Protocol

import ipywidgets as w

from strategia.core.i18n import Lang, Text
from strategia.game.game import Game
from strategia.game.order_words import order_in
from strategia.rules.kinds import side_name
from strategia.ui.widgets.order_form import submit_on_enter

WORDS = {
    "title": Text("Orders sealed for the turn", "Приказы, запечатанные на ход"),
    "none": Text("none submitted yet", "пока не поступали"),
    "entry": Text("order", "приказ"),
    "note": Text("note", "пометка"),
    "note_hint": Text("why: the side is told", "почему: сторона узнает"),
    "amended": Text("amended order", "исправленный приказ"),
    "reject": Text("Reject", "Отклонить"),
    "amend": Text("Amend", "Исправить"),
}


class Host(Protocol):
    game: Game
    shown_at: int  # the journal position the console shows
    lang: Lang

    def refresh(self) -> None: ...
    def working(self, errors: w.HTML | None = None) -> AbstractContextManager[None]: ...


def _e(text: object) -> str:
    return html.escape(str(text))


class SealedPanel:
    """The sealed orders of the turn and the mediator's decisions on them (level 3 only)."""

    def __init__(self, host: Host) -> None:
        self.c = host
        lang = host.lang
        self.table = w.HTML()
        self.entry = w.Dropdown(description=WORDS["entry"](lang), layout=w.Layout(width="98%"))
        self.note = w.Text(
            description=WORDS["note"](lang),
            placeholder=WORDS["note_hint"](lang),
            layout=w.Layout(width="98%"),
        )
        self.text = w.Text(description=WORDS["amended"](lang), layout=w.Layout(width="98%"))
        for box in (self.entry, self.note, self.text):
            box.style.description_width = "140px"
        self.reject = w.Button(description=WORDS["reject"](lang), button_style="danger")
        self.amend = w.Button(description=WORDS["amend"](lang))
        self.error = w.HTML()
        self.reject.on_click(lambda _: self.do_reject())
        self.amend.on_click(lambda _: self.do_amend())
        submit_on_enter(self.text, self.do_amend)
        self.controls = w.VBox(
            [self.entry, self.note, self.text, w.HBox([self.reject, self.amend]), self.error]
        )
        self.widget = w.VBox([self.table, self.controls])

    def refresh(self) -> None:
        g, lang = self.c.game, self.c.lang
        if not g.simultaneous:
            self.widget.layout.display = "none"
            return
        self.widget.layout.display = None
        sealed = g.submitted()
        rows = "".join(
            f"<tr><td>{s['seq']}</td><td>{_e(side_name(s['side'], lang, capital=True))}</td>"
            f"<td><code>{_e(order_in(s['order'], lang))}</code></td><td>{_e(s['time'][11:19])}</td>"
            f"<td>{_e('; '.join(s['notes']))}</td></tr>"
            for s in sealed
        )
        body = f"<table>{rows}</table>" if rows else f"<p><i>{WORDS['none'](lang)}</i></p>"
        self.table.value = f"<p><b>{WORDS['title'](lang)}</b></p>{body}"
        chosen = self.entry.value
        self.entry.options = [
            (f"{s['seq']}: {order_in(s['order'], lang)}", s["seq"]) for s in sealed
        ]
        seqs = [s["seq"] for s in sealed]
        if seqs:
            self.entry.value = chosen if chosen in seqs else seqs[0]
        self.controls.layout.display = None if sealed else "none"

    def do_reject(self) -> None:
        with self.c.working(self.error):
            self.c.game.reject(int(self.entry.value or 0), self.note.value, at=self.c.shown_at)
            self.note.value = ""
            self.c.refresh()

    def do_amend(self) -> None:
        with self.c.working(self.error):
            self.c.game.amend(
                int(self.entry.value or 0), self.text.value, self.note.value, at=self.c.shown_at
            )
            self.note.value = self.text.value = ""
            self.c.refresh()


__all__ = ["SealedPanel"]
