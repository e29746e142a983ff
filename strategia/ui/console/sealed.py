"""The mediator's view of the orders sealed for a level-3 turn: who submitted what and when, and
the mediator's decision on each, rejected or amended with a note the side is told (journalled).

The order decided on is chosen from the sealed orders listed, and none is chosen until the
mediator chooses one (nothing is rejected by accident); after a decision none is chosen again,
and the panel says what was done, naming the order, as the side is told it.
"""

from __future__ import annotations

import html
from contextlib import AbstractContextManager
from typing import Protocol

import ipywidgets as w

from strategia.core.errors import StrategiaError
from strategia.core.i18n import Lang, Text
from strategia.game.channel import settled
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
    "choose": Text("— choose the order —", "— выберите приказ —"),
    "done": Text("told to {side}", "сообщено {side}"),
}
NONE_CHOSEN = {  # a decision asked for with no order chosen: (en, ru)
    "reject": (
        "Reject: no order is chosen: choose the sealed order to reject; nothing was rejected",
        "«Отклонить»: приказ не выбран — выберите запечатанный приказ; ничего не отклонено",
    ),
    "amend": (
        "Amend: no order is chosen: choose the sealed order to amend; nothing was amended",
        "«Исправить»: приказ не выбран — выберите запечатанный приказ; ничего не исправлено",
    ),
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
        self.entry = w.Dropdown(
            options=[(WORDS["choose"](lang), None)], value=None,
            description=WORDS["entry"](lang), layout=w.Layout(width="98%"),
        )  # fmt: skip
        self.done = w.HTML()  # what the last decision did, as the side is told it
        self._orders: dict[int, tuple[str, str]] = {}  # the listed orders: entry -> side, order
        self._filled = ""  # the order text last put into the amended order's box
        self._done_turn = 0  # the turn `done` tells of
        self.entry.observe(lambda _: self._fill(), names="value")
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
        self.widget = w.VBox([self.table, self.controls, self.done])

    def refresh(self) -> None:
        g, lang = self.c.game, self.c.lang
        if g.state.turn != self._done_turn:  # a decision of a turn carried out: told already
            self.done.value = ""
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
        self._orders = {int(s["seq"]): (str(s["side"]), str(s["order"])) for s in sealed}
        self.entry.options = [(WORDS["choose"](lang), None)] + [
            (f"{s['seq']}: {side_name(s['side'], lang, capital=True)} — "
             f"{order_in(s['order'], lang)}", s["seq"])
            for s in sealed
        ]  # fmt: skip
        self.entry.value = chosen if chosen in self._orders else None
        self.controls.layout.display = None if sealed else "none"

    def _fill(self) -> None:
        """The order chosen, put into the amended order's box to be corrected (unless the
        mediator typed something else there)."""
        chosen = self.entry.value
        if self.text.value.strip() not in ("", self._filled):
            return
        text = order_in(self._orders[chosen][1], self.c.lang) if chosen in self._orders else ""
        self.text.value = self._filled = text

    def _chosen(self, what: str) -> int:
        """The sealed order chosen to decide on; refused if none is."""
        if self.entry.value is None:
            en, ru = NONE_CHOSEN[what]
            raise StrategiaError(en, ru=ru)
        return int(self.entry.value)

    def _told(self, seq: int, kind: str, note: str) -> None:
        """What the decision did, said as the side is told it."""
        side, was = self._orders.get(seq, ("", ""))
        g, lang = self.c.game, self.c.lang
        now = next((str(s["order"]) for s in g.submitted() if s["seq"] == seq), "")
        said = settled({"kind": kind, "was": was, "order": now, "text": note}, lang)
        who = WORDS["done"].format(side=side_name(side, lang, "dat"))(lang)
        self.done.value = f"<p>✓ {_e(said)} <small>({_e(who)})</small></p>"
        self._done_turn = g.state.turn

    def do_reject(self) -> None:
        with self.c.working(self.error):
            seq = self._chosen("reject")
            self.c.game.reject(seq, self.note.value, at=self.c.shown_at)
            self._told(seq, "reject", self.note.value)
            self.note.value = self.text.value = self._filled = ""
            self.entry.value = None
            self.c.refresh()

    def do_amend(self) -> None:
        with self.c.working(self.error):
            seq = self._chosen("amend")
            self.c.game.amend(seq, self.text.value, self.note.value, at=self.c.shown_at)
            self._told(seq, "amend", self.note.value)
            self.note.value = self.text.value = self._filled = ""
            self.entry.value = None
            self.c.refresh()


__all__ = ["SealedPanel"]
