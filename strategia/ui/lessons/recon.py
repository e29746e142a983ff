"""The reconnaissance lesson (6.2, 8.1-8.3): one position on three maps, as the mediator, Red and
Blue see it, before the war and once it has begun; questions and their answers as the asking side
receives them (never whether they were true); the budget of questions.

What each map shows comes from the game's views (`view_for`, `mediator_view`, `to_geojson`) and is
drawn with the console's layers; answers come from `Game.ask`.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import ipywidgets as w
import numpy as np
from matplotlib.axes import Axes

from strategia.core.errors import StrategiaError
from strategia.core.i18n import Lang, Text
from strategia.core.numbers import num, quantity
from strategia.game import recon
from strategia.game.game import Game
from strategia.game.order_words import question_in
from strategia.game.questions import parse_question
from strategia.game.views import ArmyNote, SideView, mediator_view, to_geojson, view_for
from strategia.notation.orders import parse_order
from strategia.theatre import terrain
from strategia.theatre.builder import ScenarioBuilder
from strategia.theatre.scenario import Scenario
from strategia.ui.lessons import maps as tm
from strategia.ui.lessons.show import (
    LABELLED,
    Html,
    Live,
    Picture,
    lesson_lang,
    new_figure,
    picture,
    scratch_dir,
    table_html,
)
from strategia.ui.widgets import layers

VIEWERS = ("mediator", "red", "blue")
WORDS = {
    "mediator": Text("the mediator", "посредник"),
    "red": Text("Red", "красные"),
    "blue": Text("Blue", "синие"),
    "first": Text(
        "{army}: first echelon, strip along {axis} {a}–{b}, {corps} corps",
        "{army}: первый эшелон, полоса по {axis} {a}–{b}, корпусов: {corps}",
    ),
    "divisions": Text(", {n} divisions", ", дивизий: {n}"),
    "second": Text(
        "{army}: second echelon or reserve (its number only)",
        "{army}: второй эшелон или резерв (только номер)",
    ),
    "members": Text("{army}: {echelon} — {members}", "{army}: {echelon} — {members}"),
    "echelon_first": Text("first echelon", "первый эшелон"),
    "echelon_second": Text("second echelon or reserve", "второй эшелон или резерв"),
    "lat": Text("latitude", "широте"),
    "lon": Text("longitude", "долготе"),
    "counters": Text("counters on the map: {n}", "фишек на карте: {n}"),
    "observed": Text(
        "hatched: the ground open to observation (8.2)",
        "штриховка — открытая для наблюдения зона (8.2)",
    ),
    "question": Text("question", "вопрос"),
    "answer": Text("the answer {side} receive", "ответ, который получают {side}"),
    "cost": Text("costs (questions)", "стоит (вопросов)"),
    "left": Text(
        "{side}: {left} of {allowance} questions left",
        "{side}: осталось {left} из {allowance}",
    ),
    "side": Text("side", "сторона"),
    "turn": Text("turn", "ход"),
    "order": Text("order", "приказ"),
    "outcome": Text("where the division is", "где дивизия"),
    "orders": Text("Red's orders", "Приказы красных"),
    "ask": Text("Ask", "Спросить"),
    "type": Text("the question", "вопрос"),
    "example": Text("examples", "примеры"),
}
QUESTIONS = (
    "где 5 т.д.?",
    "сколько дивизий в 10,9 10,10?",
    "какие войска в 11,12?",
    "есть ли войска в 4,7 4,8?",
)


def _scenario() -> Scenario:
    """Red (west) and Blue (east) along a border at longitude 12½: each with a first-echelon army
    (a corps and more) behind a covering division, and a second-echelon army further back."""
    return (
        ScenarioBuilder.blank(24, 14, name="учебный театр: разведка")
        .state("R", "Красные", "red", lon=(1, 12))
        .state("B", "Синие", "blue", lon=(13, 24))
        .paint("forest", lon=(15, 18), lat=(1, 5))
        .paint("hills", lon=(5, 8), lat=(10, 14))
        .road("1,7 24,7")
        .city("Красноград", "3,7", capital=True)
        .city("Синеград", "22,7", capital=True)
        .corps("R", "1 с.к.", "1 с.д.", "2 с.д.")
        .army("R", "1 А", "1 с.к.", "5 т.д.", "7 с.д.")
        .army("R", "2 А", "11 с.д.", "12 с.д.")
        .place(
            "R",
            "1 с.к. расположен между 10-9 и 10-10 фронтом на восток",
            "5 т.д. - 10,5 фронтом на восток",
            "7 с.д. - 11,12 фронтом на восток",
            "11 с.д. - 4,7 фронтом на восток",
            "12 с.д. - 4,8 фронтом на восток",
        )
        .corps("B", "11 с.к.", "101 с.д.", "102 с.д.")
        .army("B", "10 А", "11 с.к.", "121 т.д.", "103 с.д.")
        .army("B", "20 А", "131 м.д.")
        .place(
            "B",
            "11 с.к. расположен между 15-10 и 15-11 фронтом на запад",
            "121 т.д. - 17,4 фронтом на запад",
            "103 с.д. - 14,13 фронтом на запад",
            "131 м.д. - 21,8 фронтом на запад",
        )
        .build()
    )


def new_game(path: Path | None = None) -> Game:
    """The lesson's game at level 2, before the war (journaled in a scratch folder)."""
    return Game.new(_scenario(), path or scratch_dir() / "recon.game", level=2)


def start_the_war(game: Game, lang: Lang | None = None) -> Html:
    """Red's т.д. crosses the border (9.1): the war begins; next turn it withdraws to its own
    side of the border. It is Blue's move then. The orders and their outcomes, as Red is told."""
    lang = lang or lesson_lang()
    rows = []
    for order in ("5 т.д. на 13,5", "", "5 т.д. отход на 11,5"):
        if order:
            shown = parse_order(order, game.state).format(lang)
            result = game.order(order)
            rows.append((game.state.turn, shown, result.outcome(lang) if result else ""))
        game.end_turn()
    heads = [WORDS["turn"](lang), WORDS["order"](lang), WORDS["outcome"](lang)]
    alt = "\n".join(f"{t}: {o} → {r}" for t, o, r in rows)
    return Html(table_html(heads, rows, WORDS["orders"](lang), lang=lang), alt)


def view_of(game: Game, viewer: str) -> SideView:
    """What `viewer` knows now, with the answers to its own questions."""
    if viewer == "mediator":
        return mediator_view(game.state, game.answers, game.rules)
    own = [a for a in game.answers if a["side"] == viewer]
    return view_for(game.state, viewer, game.rules, own)


def army_lines(view: SideView, lang: Lang) -> list[str]:
    """The armies `view` knows of, as its side is told of them (6.2, 8.1); the mediator's
    with their members."""
    out = []
    for a in view.armies:
        if a.members:  # the mediator's view: every army with its members
            echelon = WORDS["echelon_first" if a.echelon == "first" else "echelon_second"](lang)
            members = ", ".join(str(m) for m in a.members)
            out.append(WORDS["members"].format(army=a.army, echelon=echelon, members=members)(lang))
            continue
        if a.echelon == "first" and a.strip is not None:
            line = WORDS["first"].format(
                army=a.army,
                axis=WORDS[a.along or "lat"](lang),
                a=a.strip[0],
                b=a.strip[1],
                corps=a.corps,
            )(lang)
            if a.divisions is not None:
                line += WORDS["divisions"].format(n=a.divisions)(lang)
        else:
            line = WORDS["second"].format(army=a.army)(lang)
        out.append(line)
    return out


def _strip(ax: Axes, game: Game, a: ArmyNote, colour: str) -> None:
    """A first-echelon army's strip as a bar at the edge of its state's ground."""
    if a.strip is None or a.echelon != "first":
        return
    codes = [s.code for s in game.scenario.states]
    grid = game.state.theatre["state"].values
    cols = np.nonzero((grid == codes.index(a.state) + 1).any(axis=1))[0] + 1
    lo, hi = a.strip
    if a.along == "lat":
        w_, _ = terrain.size(game.state.theatre)
        x = 0.7 if cols.mean() < w_ / 2 else w_ + 0.3
        ax.plot([x, x], [lo - 0.45, hi + 0.45], color=colour, lw=5, solid_capstyle="butt")
        ax.text(x, hi + 0.6, str(a.army), ha="center", va="bottom", fontsize=7, color=colour)
    else:
        ax.plot([lo - 0.45, hi + 0.45], [0.7, 0.7], color=colour, lw=5, solid_capstyle="butt")
        ax.text(hi + 0.6, 0.7, str(a.army), ha="left", va="center", fontsize=7, color=colour)


def draw_view(ax: Axes, game: Game, viewer: str, lang: Lang) -> SideView:
    """One side's map: the theatre, the ground it observes, the counters it knows, the strips of
    the armies it is told of."""
    view = view_of(game, viewer)
    ds = game.state.theatre
    w_, h_ = terrain.size(ds)
    tm.draw_theatre(ax, ds, game.level, lang, (1, w_, 1, h_))
    if view.observed:
        tm.draw_cells(ax, [(c.lon, c.lat) for c in view.observed], "#455a64", 0.8, hatch="///")
    tm.draw_counters(ax, to_geojson(view))
    sides = dict((s.code, s.side) for s in game.scenario.states)
    for a in view.armies:
        _strip(ax, game, a, layers.SIDE_COLOURS.get(sides.get(a.state, ""), "#555555"))
    ax.set_xlim(0.3, w_ + 0.7)
    return view


def three_maps(game: Game, lang: Lang | None = None) -> Picture:
    """The same position as the mediator, Red and Blue see it, side by side, with what each is
    told of the armies."""
    lang = lang or lesson_lang()
    fig = new_figure(16, 4.6)
    axes = fig.subplots(1, 3)
    alts = []
    for ax, viewer in zip(axes, VIEWERS, strict=True):
        view = draw_view(ax, game, viewer, lang)
        n = len(to_geojson(view)["features"])
        armies = army_lines(view, lang)
        title = f"{WORDS[viewer](lang)} — {WORDS['counters'](lang).format(n=n)}"
        ax.set_title(title, fontsize=10, fontweight="bold")
        ax.text(0.0, -0.16, "\n".join(armies), transform=ax.transAxes, va="top", fontsize=7.5)
        alts.append("; ".join([title, *armies]))
    fig.supxlabel(WORDS["observed"](lang), fontsize=8, y=0.0)
    return picture(fig, "\n".join(alts), lang)


# --- questions -----------------------------------------------------------------------------------


def ask(game: Game, side: str, questions: Sequence[str], lang: Lang | None = None) -> Html:
    """Ask questions for `side` and show them as the side receives them: the answer, what it cost,
    and the questions left (8.3). Whether an answer is true is never shown."""
    lang = lang or lesson_lang()
    rows = []
    for q in questions:
        a = game.ask(side, q)
        rows.append((_question(game, a["question"], lang), a["answer"][lang], a["cost"]))
    return Html(_answers_table(game, side, rows, lang), _answers_alt(game, side, rows, lang))


def _question(game: Game, text: str, lang: Lang) -> str:
    """A question as the journal keeps it (canonical), in the reader's language."""
    return parse_question(text, game.state).format(lang)


def _budget_line(game: Game, side: str, lang: Lang) -> str:
    own = [a for a in game.answers if a["side"] == side]
    b = recon.budget(game.state, side, game.rules, own)
    return WORDS["left"].format(
        side=WORDS[side](lang),
        left=num(b.left, lang),
        allowance=quantity(b.allowance, "q", lang, case="gen")
        if lang == "ru"
        else num(b.allowance, lang),
    )(lang)


def _answers_table(
    game: Game, side: str, rows: Sequence[tuple[str, str, float]], lang: Lang
) -> str:
    heads = [
        WORDS["question"](lang),
        WORDS["answer"].format(side=WORDS[side](lang))(lang),
        WORDS["cost"](lang),
    ]
    return (
        table_html(heads, rows, lang=lang)
        + f"<p><b>{html.escape(_budget_line(game, side, lang))}</b></p>"
    )


def _answers_alt(game: Game, side: str, rows: Sequence[tuple[str, str, float]], lang: Lang) -> str:
    return "\n".join(
        [*(f"{q} → {a} ({num(c, lang)})" for q, a, c in rows), _budget_line(game, side, lang)]
    )


def recon_workbench(game: Game, lang: Lang | None = None) -> Live:
    """The class asks: a side, a question in the journal's notation; the side's map and every
    answer it has received, as it receives them."""
    lang = lang or lesson_lang()
    side = w.ToggleButtons(
        options=[(WORDS[s](lang), s) for s in ("blue", "red")],
        description=WORDS["side"](lang),
        style=LABELLED,
    )
    asked = [question_in(q, lang) for q in QUESTIONS]  # in the reader's words
    examples = w.Dropdown(options=asked, description=WORDS["example"](lang), style=LABELLED)
    text = w.Text(
        value=asked[0],
        description=WORDS["type"](lang),
        style=LABELLED,
        layout=w.Layout(width="420px"),
    )
    button = w.Button(description=WORDS["ask"](lang), button_style="primary")
    message = w.HTML()
    image = w.Image(format="png", layout=w.Layout(width="560px"))
    answers = w.HTML()
    first: list[Picture] = []

    def redraw(*_: Any) -> None:
        fig = new_figure(6.4, 4.6)
        ax = fig.subplots()
        view = draw_view(ax, game, side.value, lang)
        ax.set_title(WORDS[side.value](lang), fontsize=10, fontweight="bold")
        pic = picture(fig, "; ".join(army_lines(view, lang)), lang)
        first.append(pic)
        image.value = pic.png
        rows = [
            (_question(game, a["question"], lang), a["answer"][lang], a["cost"])
            for a in game.answers
            if a["side"] == side.value
        ]
        answers.value = _answers_table(game, side.value, rows, lang)

    def on_ask(_: Any) -> None:
        try:
            game.ask(side.value, text.value)
            message.value = ""
        except StrategiaError as e:
            message.value = f"<span style='color:#b00'>{html.escape(e.say(lang))}</span>"
        redraw()

    examples.observe(lambda ch: setattr(text, "value", ch["new"]), names="value")
    side.observe(redraw, names="value")
    button.on_click(on_ask)
    redraw()
    box = w.VBox([side, examples, w.HBox([text, button]), message, w.HBox([image, answers])])
    return Live(box, first[0], first[0].alt)
