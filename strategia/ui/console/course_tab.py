"""The console's «Ход войны» / Course of the war tab (issue 28): the course charted for the viewer
(the mediator: every side, `game.course`; a side: its own copy, `war_chart.side_course`), drawn
again only when the game has moved on or the viewer changed, with the figures to download.

The charts of another view never stay on the screen while the new ones are drawn (that takes
seconds): they are taken away at once when the viewer changes (`forget`), and a note that the
charts are being drawn shows until the new ones are there."""

from __future__ import annotations

import base64
from typing import Protocol

import ipywidgets as w

from strategia.core.i18n import Lang, Text
from strategia.game.course import course
from strategia.game.game import Game
from strategia.game.war_chart import chart_png, side_course, to_csv
from strategia.rules.kinds import side_name
from strategia.ui.widgets.notes import download_link

WORDS = {
    "csv": Text("The figures (CSV)", "Цифры (CSV)"),
    "png": Text("The picture (PNG)", "Рисунок (PNG)"),
    "alt": Text("The course of the war, charted", "Ход войны на графиках"),
    "drawing": Text("the charts for {who} are being drawn…", "графики для {who} строятся…"),
}


class Host(Protocol):
    game: Game
    lang: Lang
    viewer: str


class CoursePanel:
    """The charts of the game so far, for the viewer."""

    def __init__(self, host: Host) -> None:
        self.c = host
        self.widget = w.HTML()
        self.drawn: tuple[object, ...] | None = None  # what the charts were drawn for

    def refresh(self) -> None:
        g, lang, viewer = self.c.game, self.c.lang, self.c.viewer
        key = (g.journal.path, g.journal.seqs("end-turn")[-1:], viewer, lang)
        if key == self.drawn:
            return
        who = side_name(viewer, lang, "gen")
        self.widget.value = f"<p><i>⏳ {WORDS['drawing'].format(who=who)(lang)}</i></p>"
        self.drawn = None
        ds = course(g) if viewer == "mediator" else side_course(g, viewer)
        png = base64.b64encode(chart_png(ds, lang)).decode("ascii")
        name = f"{g.journal.path.stem}-{viewer}"
        links = download_link(f"{name}.csv", to_csv(ds), WORDS["csv"](lang), "text/csv")
        self.widget.value = (
            f"<img alt='{WORDS['alt'](lang)}' style='max-width:100%' "
            f"src='data:image/png;base64,{png}'><div><small>{links}"
            f"<a download='{name}.png' href='data:image/png;base64,{png}'>{WORDS['png'](lang)}</a>"
            "</small></div>"
        )
        self.drawn = key

    def forget(self) -> None:
        """The charts taken away (another viewer: they were drawn for the one before)."""
        self.widget.value = ""
        self.drawn = None
