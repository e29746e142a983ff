"""The sides a computer plays, in the Mediator tab (issue 26): each side played by its team or
by a computer player (`strategia.players`) in a style and a posture, set and taken back by the
mediator (journalled: `Game.play_by_computer`). A computer's side moves when its turn comes: at
levels 1-2 it gives its orders and ends its move, at level 3 it seals its orders for the turn;
«компьютер думает…» shows while it does. Its orders and their reasons go to the mediator's
journal (the Journal tab), and its last move is listed here, for the mediator only.

`Seats` keeps the players between their moves (their memory of the enemy) and runs those due;
the words and the lists are plain functions (`seat_rows`, `thinking_html`, `moves_html`); the
panel only declares its widgets and calls the console.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, Protocol

import ipywidgets as w

from strategia.core.i18n import Lang, Text
from strategia.engine import flow
from strategia.engine.result import Result
from strategia.game.channel import channel
from strategia.game.game import Game
from strategia.game.order_words import order_in, question_in
from strategia.game.positions import StaleError, holder
from strategia.players import Decision, Player, Posture, load_styles, settings
from strategia.rules.kinds import side_name
from strategia.ui.console.status import T

WORDS = {
    "title": Text("Computer players", "Компьютерные игроки"),
    "team": Text("team", "команда"),
    "computer": Text("computer", "компьютер"),
    "style": Text("style", "стиль"),
    "posture": Text("posture", "замысел"),
    "thinking": Text("the computer is thinking…", "компьютер думает…"),
    "last": Text("The computer's last move", "Последний ход компьютера"),
    "none": Text("no computer has moved yet", "компьютер еще не ходил"),
    "moves": Text("Computer moves", "Ход компьютера"),
    "hint": Text(
        "a computer's side moves when its turn comes; its orders and reasons are in the journal",
        "сторона компьютера ходит в свою очередь; ее приказы и их причины — в журнале",
    ),
}
POSTURES = ("attack@1", "attack@3", "wait")  # the postures offered; a game's own is kept too


@dataclass(frozen=True)
class Seat:
    """A side as the panel shows it: who plays it, and the computer's style and posture."""

    side: str
    name: str  # the side's name, in the console's language
    computer: bool
    style: str
    posture: str


def seat_rows(g: Game, lang: Lang) -> list[Seat]:
    """Every side of the game, in the order they move, with who plays it now."""
    played = g.computer_sides()
    out = []
    for side in flow.sides_in_order(g.state, g.rules):
        s = played.get(side) or settings(side)
        out.append(
            Seat(side, side_name(side, lang, capital=True), side in played, s["style"],
                 s["posture"])
        )  # fmt: skip
    return out


def style_options(lang: Lang, also: str = "") -> list[tuple[str, str]]:
    """The styles offered (a game's own, from a styles file, kept too)."""
    out = [(s.name(lang), key) for key, s in load_styles().items()]
    return out + ([(also, also)] if also and all(k != also for _, k in out) else [])


def posture_options(lang: Lang, also: str = "") -> list[tuple[str, str]]:
    keys = list(POSTURES) + ([also] if also and also not in POSTURES else [])
    return [(Posture.parse(k).text()(lang), k) for k in keys]


def thinking_html(side: str | None, lang: Lang) -> str:
    """The mark shown while a computer moves (empty when none does)."""
    if side is None:
        return ""
    who = side_name(side, lang, capital=True)
    return f"<b style='color:#8a5a00'>⏳ {WORDS['thinking'](lang)} ({html.escape(who)})</b>"


def last_move(g: Game) -> list[tuple[int, dict[str, Any]]]:
    """The decisions of the computer's last move (its side and turn)."""
    seqs = g.journal.seqs("decision")
    if not seqs:
        return []
    last = g.journal.entry(seqs[-1]).data
    return g.decisions(str(last["side"]), int(last["turn"]))


def moves_html(decisions: list[tuple[int, dict[str, Any]]], lang: Lang) -> str:
    """A computer's move (`last_move`'s decisions), each order with its reason folded under it:
    for the mediator."""
    if not decisions:
        return f"<p><i>{WORDS['none'](lang)}</i></p>"
    last = decisions[-1][1]
    mine = [d for _, d in decisions]
    who = side_name(str(last["side"]), lang, capital=True)
    turn = Text("turn", "ход")(lang)
    rows = []
    for d in mine:
        head = (
            order_in(str(d.get("order") or ""), lang)
            or question_in(str(d.get("question") or ""), lang)
            or d["text"][lang].split("\n")[0]
        )
        rows.append(
            f"<li><details><summary><code>{html.escape(str(head))}</code></summary>"
            f"<pre style='font-size:11px;white-space:pre-wrap'>{html.escape(d['text'][lang])}"
            "</pre></details></li>"
        )
    return (
        f"<p><b>{WORDS['last'](lang)}</b>: {html.escape(who)}, {turn} {last['turn']}</p>"
        f"<ul style='margin:2px 0'>{''.join(rows)}</ul>"
    )


class Seats:
    """The computer players of the console's game, kept between their moves."""

    def __init__(self) -> None:
        self._players: dict[tuple[str, str], Player] = {}

    def player(self, g: Game, side: str) -> Player:
        s = g.computer_sides()[side]
        key = (side, json.dumps(s, sort_keys=True))
        if key not in self._players:
            self._players[key] = Player.of_settings(side, s, f"{g.journal.path} (styles)")
        return self._players[key]

    def play(
        self, g: Game, thinking: Callable[[str | None], None]
    ) -> tuple[list[Decision], list[Result]]:
        """The computer's sides due move, each once at most: at levels 1-2 one after another
        until a team's side is to move (or every computer side has moved), each move ended; at
        level 3 each seals its orders. Their decisions, and the results of the moves ended."""
        decisions: list[Decision] = []
        results: list[Result] = []
        moved: set[str] = set()
        me = holder()
        while True:
            g.refresh()
            due, turn = [s for s in g.computer_due() if s not in moved], g.state.turn
            if not due:
                break
            for side in due if g.simultaneous else due[:1]:
                if not g.claim(side, turn, by=me):
                    return decisions, results  # another holder of the game plays this move
                thinking(side)
                try:
                    decisions += self.player(g, side).move(channel(g, side, move=turn))
                except StaleError:
                    pass  # the move was ended meanwhile by another holder: the rest not given
                finally:
                    thinking(None)
                moved.add(side)
            if g.simultaneous:
                break
            try:
                results += g.end_turn(side=due[0], turn=turn)
            except StaleError:
                break  # ended meanwhile by another holder: not twice
        return decisions, results

    def turn(self, g: Game) -> None:
        """One turn of a game every side of which the computer plays (a trial): the sides'
        moves, and at level 3 the turn carried out as a mediator would."""
        turn = g.state.turn
        self.play(g, lambda _: None)
        if g.simultaneous and g.state.turn == turn and g.phase != "peace":
            g.end_turn(turn=turn)


class _Panels(Protocol):
    computer: ComputerPanel

    def show_turn(self, results: list[Result], since: int | None = None) -> None: ...
    def turn_since(self) -> int: ...


class _Console(Protocol):
    game: Game
    lang: Lang
    history: int | None
    seats: Seats
    busy: w.HTML

    @property
    def panels(self) -> _Panels: ...

    def refresh(self) -> None: ...
    def working(self, errors: w.HTML | None = None) -> AbstractContextManager[None]: ...
    def _playing(self) -> None: ...
    def deselect(self) -> None: ...
    def _computer_moves(self) -> tuple[list[Decision], list[Result]]: ...
    def _thinking(self, side: str | None) -> None: ...


class ComputerSides:
    """The console's commands for the computer's sides (`Console` has them): what the Mediator
    tab's rows and the end of a move call."""

    def set_computer(
        self: _Console, side: str, plays: bool, style: str = "", posture: str = ""
    ) -> None:
        """The mediator gives `side` to the computer (in `style`, `posture`) or back to its
        team; if its turn has come, it moves."""
        with self.working(self.panels.computer.error):
            self._playing()
            chosen = settings(side, style or "balanced", posture or None) if plays else None
            self.game.play_by_computer(side, chosen)
            self.refresh()
        if plays and self.history is None and self.game.computer_due():
            self._computer_moves()

    def computer_moves(self: _Console) -> list[Decision]:
        """The computer's sides whose turn it is move (`Seats.play`), «компьютер думает…»
        shown meanwhile; their decisions."""
        return self._computer_moves()[0]

    def _computer_moves(self: _Console) -> tuple[list[Decision], list[Result]]:
        done: tuple[list[Decision], list[Result]] = ([], [])
        with self.working(self.panels.computer.error):
            self._playing()
            since = self.panels.turn_since()  # the moves told with those the computer ends
            done = self.seats.play(self.game, self._thinking)
            self.deselect()
            self.refresh()
            ends = self.game.journal.seqs("end-turn")
            if ends and ends[-1] > since:  # it ended moves: each told, whose and which turn
                self.panels.show_turn(done[1], since)
        return done

    def _thinking(self: _Console, side: str | None) -> None:
        self.busy.value = thinking_html(side, self.lang) or f"<i>⏳ {T['working'](self.lang)}</i>"
        self.panels.computer.show_thinking(side)


class Host(Protocol):
    game: Game
    lang: Lang
    viewer: str

    def set_computer(self, side: str, plays: bool, style: str = "", posture: str = "") -> None: ...
    def computer_moves(self) -> object: ...
    def working(self, errors: w.HTML | None = None) -> AbstractContextManager[None]: ...


class ComputerPanel:
    """A row a side: team or computer, the computer's style and posture; the thinking mark;
    the computer's last move (the mediator's view only)."""

    def __init__(self, host: Host) -> None:
        self.c = host
        lang = host.lang
        self.thinking = w.HTML()
        self.error = w.HTML()
        self.last = w.HTML()
        self.go = w.Button(description=WORDS["moves"](lang), icon="play")
        self.go.on_click(lambda _: self.c.computer_moves())
        self.rows: dict[str, tuple[w.ToggleButtons, w.Dropdown, w.Dropdown]] = {}
        self._quiet = False
        boxes = []
        for seat in seat_rows(host.game, lang):
            who = w.ToggleButtons(
                options=[(WORDS["team"](lang), "team"), (WORDS["computer"](lang), "computer")],
                value="computer" if seat.computer else "team",
            )
            who.style.button_width = "90px"
            style = w.Dropdown(
                options=style_options(lang, seat.style), value=seat.style,
                description=WORDS["style"](lang), layout=w.Layout(width="210px"),
            )  # fmt: skip
            posture = w.Dropdown(
                options=posture_options(lang, seat.posture), value=seat.posture,
                description=WORDS["posture"](lang), layout=w.Layout(width="260px"),
            )  # fmt: skip
            for box in (style, posture):
                box.style.description_width = "60px"
                box.observe(lambda _, s=seat.side: self.changed(s), names="value")
            who.observe(lambda _, s=seat.side: self.changed(s), names="value")
            self.rows[seat.side] = (who, style, posture)
            boxes.append(
                w.VBox([w.HTML(f"<b>{html.escape(seat.name)}</b>"), who, w.HBox([style, posture])])
            )
        self.widget = w.VBox(
            [
                w.HTML(f"<b>{WORDS['title'](lang)}</b> <small>{WORDS['hint'](lang)}</small>"),
                *boxes,
                w.HBox([self.go, self.thinking]),
                self.error,
                self.last,
                w.HTML("<hr style='margin:4px 0'>"),
            ]
        )

    def changed(self, side: str) -> None:
        """A row changed by the mediator: the side given to the computer (or back to its team),
        with the style and posture chosen."""
        if self._quiet:
            return
        who, style, posture = self.rows[side]
        self.c.set_computer(side, who.value == "computer", str(style.value), str(posture.value))

    def show_thinking(self, side: str | None) -> None:
        self.thinking.value = thinking_html(side, self.c.lang)

    def refresh(self) -> None:
        g, lang = self.c.game, self.c.lang
        self._quiet = True
        try:
            for seat in seat_rows(g, lang):
                who, style, posture = self.rows[seat.side]
                who.value = "computer" if seat.computer else "team"
                if seat.style not in [v for _, v in style.options]:
                    style.options = style_options(lang, seat.style)
                style.value = seat.style
                if seat.posture not in [v for _, v in posture.options]:
                    posture.options = posture_options(lang, seat.posture)
                posture.value = seat.posture
                style.disabled = posture.disabled = not seat.computer
        finally:
            self._quiet = False
        self.go.disabled = not g.computer_due()
        mediator = self.c.viewer == "mediator"
        self.last.value = moves_html(last_move(g), lang) if mediator else ""


__all__ = [
    "ComputerPanel", "ComputerSides", "Seat", "Seats", "last_move", "moves_html", "seat_rows",
    "thinking_html",
]  # fmt: skip
