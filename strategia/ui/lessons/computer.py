"""The lesson against the computer (issue 26): the class plays Red on a small theatre against
a computer player's Blue (`strategia.players`), then reads its decisions, each order with its
goal, the estimate it used and the rule ids, as the mediator's journal keeps them.

Red's orders go through Red's channel (the class is told what Red is told); Blue's player moves
through Blue's, knowing only what Blue may know. The maps are Red's view (the reconnaissance
lesson's `draw_view`); the decisions are `Game.decisions`, rendered, never recomputed.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import ipywidgets as w

from strategia.core.errors import StrategiaError
from strategia.core.i18n import Lang, Text
from strategia.game.channel import channel
from strategia.game.game import Game
from strategia.game.order_words import order_in, question_in
from strategia.players import Decision, Goal, Player, settings
from strategia.theatre.builder import ScenarioBuilder
from strategia.theatre.scenario import Scenario
from strategia.ui.lessons.recon import draw_view
from strategia.ui.lessons.show import (
    LABELLED,
    Html,
    Live,
    Picture,
    lesson_lang,
    new_figure,
    picture,
    rich_table,
    scratch_dir,
    state_name,
    table_html,
)

BLUE = settings("blue", "balanced", "attack@2")  # the computer's Blue: balanced, may attack
RED_MOVES = (
    ("5 т.д. на 9,6", "1 с.д. на 10,4"),  # turn 1: up to the border
    ("5 т.д. на 11,6",),  # turn 2: across it, the war begins (9.1)
)
WORDS = {
    "turn": Text("turn", "ход"),
    "order": Text("Red's order", "приказ красных"),
    "told": Text("what Red is told", "что сообщают красным"),
    "orders": Text("Red's move", "Ход красных"),
    "none": Text("(no orders)", "(приказов нет)"),
    "goal": Text("goal", "цель"),
    "given": Text("order or question", "приказ или вопрос"),
    "why": Text("why", "почему"),
    "decided": Text("Blue's decisions (the computer), turn {turn}",
                    "Решения синих (компьютер), ход {turn}"),
    "map": Text("Red's map after Blue's move, turn {turn}",
                "Карта красных после хода синих, ход {turn}"),
    "type": Text("Red's order", "приказ красных"),
    "give": Text("Give the order", "Отдать приказ"),
    "end": Text("End of Red's move: the computer moves", "Конец хода красных: ходит компьютер"),
    "given_now": Text("Red's orders this move", "Приказы красных в этом ходе"),
}  # fmt: skip


def _scenario() -> Scenario:
    """Red (west) and Blue (east) across a border at longitude 10½, a road between the
    capitals: four divisions of an army each, a т.д. among them."""
    return (
        ScenarioBuilder.blank(20, 12, name="учебный театр: против компьютера")
        .state("R", state_name("red"), "red", lon=(1, 10))
        .state("B", state_name("blue"), "blue", lon=(11, 20))
        .paint("forest", lon=(13, 15), lat=(1, 4))
        .paint("hills", lon=(4, 6), lat=(9, 12))
        .road("1,6 20,6")
        .city("Красноград", "2,6", capital=True)
        .city("Синеград", "19,6", capital=True)
        .army("R", "1 А", "1 с.д.", "2 с.д.", "5 т.д.", "7 с.д.")
        .place(
            "R",
            "1 с.д. - 9,4 фронтом на восток",
            "2 с.д. - 9,8 фронтом на восток",
            "5 т.д. - 7,6 фронтом на восток",
            "7 с.д. - 6,9 фронтом на восток",
        )
        .army("B", "10 А", "101 с.д.", "102 с.д.", "121 т.д.", "103 с.д.")
        .place(
            "B",
            "101 с.д. - 12,4 фронтом на запад",
            "102 с.д. - 12,8 фронтом на запад",
            "121 т.д. - 15,6 фронтом на запад",
            "103 с.д. - 16,9 фронтом на запад",
        )
        .build()
    )


class Match:
    """The class's game against the computer: the game, and Blue's player (kept between its
    moves: it remembers the enemy it saw)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.blue = Player.of_settings("blue", game.computer_sides()["blue"])
        self.given: list[tuple[str, str]] = []  # Red's orders this move, and what Red was told

    def order(self, text: str, lang: Lang) -> str:
        """Give one of Red's orders through Red's channel; what Red is told."""
        told = channel(self.game, "red").order(text)
        said = told.text(lang) if told is not None else ""
        self.given.append((text, said))
        return said

    def end_move(self) -> list[Decision]:
        """Red's move ends; Blue's computer moves and ends its move: its decisions."""
        self.game.end_turn()
        self.given = []
        done = self.blue.move(channel(self.game, "blue"))
        self.game.end_turn()
        return done


def new_match(path: Path | None = None) -> Match:
    """The lesson's game at level 2, Blue played by the computer (journalled in a scratch
    folder; the seed fixed, so that the lesson reads the same every time)."""
    game = Game.new(
        _scenario(), path or scratch_dir() / "computer.game", level=2, seed=1,
        computer={"blue": BLUE},
    )  # fmt: skip
    return Match(game)


def red_move(match: Match, orders: Sequence[str], lang: Lang | None = None) -> Html:
    """The class's orders for Red, and what Red is told of each; then the computer's Blue
    moves."""
    lang = lang or lesson_lang()
    turn = match.game.state.turn
    rows = [(turn, order_in(o, lang), match.order(o, lang)) for o in orders] or [
        (turn, WORDS["none"](lang), "")
    ]
    match.end_move()
    heads = [WORDS["turn"](lang), WORDS["order"](lang), WORDS["told"](lang)]
    alt = "\n".join(f"{t}: {o} → {r}" for t, o, r in rows)
    return Html(table_html(heads, rows, WORDS["orders"](lang)), alt)


def red_map(match: Match, lang: Lang | None = None) -> Picture:
    """Red's map now: its own divisions, and of Blue's what Red may know."""
    lang = lang or lesson_lang()
    fig = new_figure(7.2, 4.6)
    ax = fig.subplots()
    view = draw_view(ax, match.game, "red", lang)
    title = WORDS["map"].format(turn=match.game.state.turn - 1)(lang)
    ax.set_title(title, fontsize=10, fontweight="bold")
    unknown = Text("a counter", "фишка")(lang)
    seen = sorted(f"{s.unit or unknown} {s.cells[0]}" for s in view.seen)
    mine = sorted(f"{u.ref} {u.cell}" for u in view.units)
    return picture(fig, "; ".join([title, *mine, *seen]))


def _rows(match: Match, turn: int, lang: Lang) -> list[tuple[str, str, str]]:
    out = []
    for _, d in match.game.decisions("blue", turn):
        given = (
            order_in(str(d.get("order") or ""), lang)
            or question_in(str(d.get("question") or ""), lang)
            or "—"
        )
        out.append((Goal.from_key(d["goal"]).text(lang), given, d["text"][lang]))
    return out


def _decisions_html(rows: list[tuple[str, str, str]], caption: str, lang: Lang) -> str:
    heads = [WORDS["goal"](lang), WORDS["given"](lang), WORDS["why"](lang)]
    cells = [
        (html.escape(g), f"<code>{html.escape(o)}</code>",
         f"<pre style='font-size:11px;white-space:pre-wrap;margin:0'>{html.escape(r)}</pre>")
        for g, o, r in rows
    ]  # fmt: skip
    return rich_table(heads, cells, caption)


def decisions(match: Match, lang: Lang | None = None, turn: int | None = None) -> Html:
    """Blue's decisions of a turn (the last it moved in, by default), as the mediator's journal
    keeps them: the goal, the order or question, and why (its estimate and the rule ids)."""
    lang = lang or lesson_lang()
    turn = turn if turn is not None else match.game.state.turn - 1
    rows = _rows(match, turn, lang)
    caption = WORDS["decided"].format(turn=turn)(lang)
    alt = "\n".join([caption, *(f"{g}: {o}\n{r}" for g, o, r in rows)])
    return Html(_decisions_html(rows, caption, lang), alt)


def workbench(match: Match, lang: Lang | None = None) -> Live:
    """The class plays on: Red's orders typed in the journal's notation, then the end of Red's
    move; the computer's Blue moves, Red's map and Blue's decisions are shown again."""
    lang = lang or lesson_lang()
    text = w.Text(
        value=order_in("5 т.д. на 12,6", lang), description=WORDS["type"](lang), style=LABELLED,
        layout=w.Layout(width="420px"),
    )  # fmt: skip
    give = w.Button(description=WORDS["give"](lang), button_style="primary")
    end = w.Button(description=WORDS["end"](lang), layout=w.Layout(width="320px"))
    message = w.HTML()
    given = w.HTML()
    image = w.Image(format="png", layout=w.Layout(width="620px"))
    decided = w.HTML()
    first: list[Picture] = []

    def redraw() -> None:
        pic = red_map(match, lang)
        first.append(pic)
        image.value = pic.png
        decided.value = decisions(match, lang).html
        rows = [(order_in(o, lang), r) for o, r in match.given]
        given.value = table_html([WORDS["order"](lang), WORDS["told"](lang)], rows,
                                 WORDS["given_now"](lang)) if rows else ""  # fmt: skip

    def on_give(_: Any) -> None:
        try:
            match.order(text.value, lang)
            message.value = ""
        except StrategiaError as e:
            message.value = f"<span style='color:#b00'>{html.escape(e.say(lang))}</span>"
        redraw()

    def on_end(_: Any) -> None:
        match.end_move()
        message.value = ""
        redraw()

    give.on_click(on_give)
    end.on_click(on_end)
    redraw()
    box = w.VBox([w.HBox([text, give]), end, message, given, image, decided])
    return Live(box, first[0], first[0].alt)


__all__ = ["Match", "decisions", "new_match", "red_map", "red_move", "workbench"]
