"""The battles tab: every battle and strike of the game, newest first, by turn; the one chosen is
shown as its report (summary, table, steps, the full tree folded) and the map pans to it; the
report of a battle or of a whole turn can be saved to print (HTML) or to share (Markdown).
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Protocol

import ipywidgets as w

from strategia.core.i18n import Lang, Text
from strategia.engine.result import Result
from strategia.game import report_render as rr
from strategia.game.channel import channel
from strategia.game.game import Game
from strategia.rules.kinds import side_name
from strategia.ui.widgets.notes import download_link, report_box


class Host(Protocol):
    game: Game
    lang: Lang
    viewer: str


def _e(text: object) -> str:
    return html.escape(str(text))


def item_label(turn: int, r: Result, lang: Lang) -> str:
    """A fight in the list: its turn, what it was and how it ended."""
    head = Text("turn", "ход")(lang)
    if r.battle is not None and r.battle.outcome != "strike":
        what = Text(f"battle for {r.battle.target}", f"бой за {r.battle.target}")(lang)
        who = side_name(r.battle.attacker, lang, capital=True)
        return f"{head} {turn} · {what} · {who} → {r.outcome(lang)}"
    return f"{head} {turn} · {r.explanation.label(lang)} → {r.outcome(lang)}"


class BattlesPanel:
    """The list of fights, the chosen one's report, and the reports to save."""

    def __init__(self, host: Host, go_to: Callable[[int, int], None]) -> None:
        self.c = host
        self.go_to = go_to
        lang = host.lang
        self.turn = w.Dropdown(description=Text("turn", "ход")(lang), layout=w.Layout(width="50%"))
        self.list = w.Select(rows=7, layout=w.Layout(width="98%"))
        self.report = report_box()
        self.files = w.HTML()
        self.items: list[tuple[int, Result]] = []
        self.turn.observe(lambda _: self._fill(), names="value")
        self.list.observe(lambda _: self.show(), names="value")
        self.widget = w.VBox([self.turn, self.list, self.files, self.report])

    def refresh(self) -> None:
        """The game's fights; the turn filter keeps its choice while it is still there."""
        if self.c.viewer == "mediator":
            self.items = rr.fights(self.c.game.results)
        else:  # the side's own battles, each as it saw them
            self.items = channel(self.c.game, self.c.viewer).fights()
        turns = sorted({t for t, _ in self.items}, reverse=True)
        every = Text("every turn", "все ходы")(self.c.lang)
        options: list[tuple[str, int]] = [(every, 0), *((str(t), t) for t in turns)]
        chosen = self.turn.value if self.turn.value in turns else 0
        self.turn.options = options
        self.turn.value = chosen
        self._fill()

    def forget(self) -> None:
        """Another viewer: the chosen report is dropped (it was that viewer's account)."""
        self.list.value = None
        self.report.value = ""
        self.files.value = ""

    def _fill(self) -> None:
        lang = self.c.lang
        chosen = self.list.value
        shown = [
            (n, t, r)
            for n, (t, r) in enumerate(self.items)
            if not self.turn.value or t == self.turn.value
        ]
        self.list.options = [(item_label(t, r, lang), n) for n, t, r in reversed(shown)]
        if chosen in [n for n, _, _ in shown]:
            self.list.value = chosen
        self._files()

    def show(self, index: int | None = None) -> None:
        """The chosen fight's report; the map pans to it."""
        n = self.list.value if index is None else index
        if n is None or not 0 <= n < len(self.items):
            self.report.value = ""
            return
        t, r = self.items[n]
        self.report.value = rr.report_html(r, self.c.lang, t)
        cell = rr.fight_cell(r)
        if cell is not None:
            self.go_to(*cell)
        self._files(n)

    def _files(self, n: int | None = None) -> None:
        """Links that save the chosen report and the whole turn's (HTML prints well)."""
        lang = self.c.lang
        links = []
        name = self.c.game.journal.path.stem
        if n is not None and 0 <= n < len(self.items):
            t, r = self.items[n]
            cell = rr.fight_cell(r)
            target = f"{cell[0]}-{cell[1]}" if cell else f"{n}"
            title = f"{r.explanation.label(lang)}, {Text('turn', 'ход')(lang)} {t}"
            links.append(
                download_link(
                    f"{name}-turn{t}-{target}.html",
                    rr.page(title, [(t, r)], lang),
                    Text("⤓ this report, to print", "⤓ это донесение — для печати")(lang),
                )
            )
        turn = self.turn.value or None
        if turn is None and n is not None and 0 <= n < len(self.items):
            turn = self.items[n][0]
        if turn is not None:
            items = [(t, r) for t, r in self.items if t == turn]
            title = Text(f"Battles of turn {turn}", f"Бои хода {turn}")(lang)
            links.append(
                download_link(
                    f"{name}-turn{turn}.html",
                    rr.page(title, items, lang),
                    Text(f"⤓ turn {turn}, to print", f"⤓ ход {turn} — для печати")(lang),
                )
            )
            links.append(
                download_link(
                    f"{name}-turn{turn}.md",
                    rr.turn_markdown(title, items, lang),
                    Text(f"⤓ turn {turn}, as text (Markdown)", f"⤓ ход {turn} — текстом")(lang),
                    "text/markdown",
                )
            )
        self.files.value = f"<div style='font-size:12px'>{''.join(links)}</div>"


def fight_marks(
    game: Game, turn: int, destroyed: dict[str, tuple[int, int, int]], lang: Lang
) -> list[tuple[str, int, int, str]]:
    """The map's marks of turn `turn`: its battles and strikes, and the units destroyed in it
    (`destroyed`: where and in which turn each was last seen)."""
    out: list[tuple[str, int, int, str]] = []
    for _t, r in rr.fights(game.results, turn):
        cell = rr.fight_cell(r)
        if cell is not None:
            kind = "battle" if r.battle is not None else "strike"
            out.append((kind, cell[0], cell[1], r.outcome(lang)))
    out += [("destroyed", x, y, u) for u, (x, y, t) in destroyed.items() if t == turn]
    return out
