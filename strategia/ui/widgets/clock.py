"""The planning clock on screen (1.9, 5.2): the time left of the move, counting down, and the
mediator's control to extend it (journalled; the sides are told). `clock_text` is a plain
function; the widgets only show it and call `Game.extend`."""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Protocol

import ipywidgets as w

from strategia.core.i18n import Lang, Text
from strategia.game.game import Game

WORDS = {
    "clock": Text("clock", "часы"),
    "up": Text("time is up", "время вышло"),
    "title": Text("The planning clock", "Часы"),
    "none": Text("this game is played without clocks", "игра идет без часов"),
    "minutes": Text("minutes", "минут"),
    "note": Text("note", "пометка"),
    "note_hint": Text("why (the sides are told)", "почему (стороны узнают)"),
    "extend": Text("Extend the move", "Продлить ход"),
}
WARN_SECONDS = 60  # the last minute is shown in red


class Host(Protocol):
    game: Game
    lang: Lang

    def refresh(self) -> None: ...
    def working(self, errors: w.HTML | None = None) -> AbstractContextManager[None]: ...


def clock_text(left: float | None, lang: Lang) -> str:
    """The clock as the status line shows it: «часы 4:05», red in the last minute, «время
    вышло» at 0; empty without a clock."""
    if left is None:
        return ""
    if left <= 0:
        return f"<b style='color:#b71c1c'>{WORDS['up'](lang)}</b>"
    s = int(left + 0.999)  # a second not yet over still shows
    text = f"{WORDS['clock'](lang)} {s // 60}:{s % 60:02d}"
    return f"<b style='color:#b71c1c'>{text}</b>" if left <= WARN_SECONDS else text


class ClockLabel:
    """The countdown beside a status line; `tick` redraws it (called twice a second)."""

    def __init__(self, game: Game, lang: Lang) -> None:
        self.game, self.lang = game, lang
        self.widget = w.HTML()
        self.tick()

    def tick(self) -> None:
        value = clock_text(self.game.clock(), self.lang)
        if value != self.widget.value:
            self.widget.value = value


class ClockPanel:
    """The mediator's clock: the time left and a control to extend the move."""

    def __init__(self, host: Host) -> None:
        self.c = host
        lang = host.lang
        self.label = ClockLabel(host.game, lang)
        self.minutes = w.BoundedFloatText(
            value=2, min=0.5, max=120, step=0.5, description=WORDS["minutes"](lang)
        )
        self.note = w.Text(description=WORDS["note"](lang), placeholder=WORDS["note_hint"](lang))
        self.extend = w.Button(description=WORDS["extend"](lang), icon="clock-o")
        self.error = w.HTML()
        self.extend.on_click(lambda _: self.do_extend())
        title = w.HTML(f"<p><b>{WORDS['title'](lang)}</b></p>")
        self.controls = w.HBox([self.minutes, self.note, self.extend])
        self.widget = w.VBox([title, self.label.widget, self.controls, self.error])
        self.refresh()

    def refresh(self) -> None:
        on = self.c.game.clocked
        self.widget.layout.display = None if on else "none"
        self.label.game = self.c.game
        self.label.tick()

    def do_extend(self) -> None:
        with self.c.working(self.error):
            self.c.game.extend(float(self.minutes.value), self.note.value)
            self.note.value = ""
            self.c.refresh()


__all__ = ["ClockLabel", "ClockPanel", "clock_text"]
