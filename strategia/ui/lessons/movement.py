"""The movement lesson (4.2-4.8, table 4, 9.3): reach maps on the theatre, the 9.3 example drawn,
and the workbench where the class picks a division, the ground and a turn and sees its reach.

Every reachable cell and its cost comes from the engine's `reach`; every move from `apply`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import ipywidgets as w
from matplotlib.axes import Axes

from strategia import scenarios
from strategia.core.geometry import Cell, Direction
from strategia.core.i18n import Lang, Text
from strategia.core.numbers import num
from strategia.engine.apply import apply
from strategia.engine.state import GameState, initial_state
from strategia.engine.unit_reach import reach
from strategia.explain.render import explanation_html
from strategia.game.views import mediator_view, to_geojson
from strategia.notation.orders import parse_order
from strategia.notation.refs import UnitRef
from strategia.rules import RuleSet, load_ruleset
from strategia.theatre.builder import ScenarioBuilder
from strategia.theatre.scenario import Forces
from strategia.theatre.scenario_io import load_scenario
from strategia.ui.lessons import maps as tm
from strategia.ui.lessons.common import division_choice, relief_choice, small_map
from strategia.ui.lessons.show import (
    LABELLED,
    Html,
    Live,
    Picture,
    lesson_lang,
    new_figure,
    picture,
)

MODES = {
    "forward": Text("forward (4.2)", "поступательно (4.2)"),
    "road": Text("along roads (4.2)", "по дорогам (4.2)"),
    "withdraw": Text("withdrawal (4.4)", "отход (4.4)"),
}
WORDS = {
    "division": Text("division", "дивизия"),
    "ground": Text("ground", "местность"),
    "river": Text("a river at 6½ (4.2)", "река у 6½ (4.2)"),
    "road": Text("a road along latitude 5", "дорога по широте 5"),
    "mode": Text("movement", "движение"),
    "turn": Text("turn first (4.3)", "сначала поворот (4.3)"),
    "no_turn": Text("no turn", "без поворота"),
    "cells": Text("{n} cells within reach", "клеток в досягаемости: {n}"),
    "numbers": Text(
        "in each cell: the share of the turn it takes to get there",
        "в клетке — доля хода, за которую до нее можно дойти",
    ),
    "ordered": Text("ordered to", "приказ"),
    "moved": Text("moved to", "продвинута до"),
}


def _cells(r: Any, origin: Cell) -> tuple[list[tuple[int, int]], list[float]]:
    """The cells reached (the unit's own left out) and the share of the turn each costs."""
    cells = sorted((c.lon, c.lat) for c in r.cells() if c != origin)
    return cells, [r.cost_to(Cell(x, y)) for x, y in cells]


def draw_reach(
    ax: Axes,
    state: GameState,
    ref: UnitRef,
    rules: RuleSet,
    mode: str,
    lang: Lang,
    window: tm.Window | None = None,
) -> int:
    """The unit's reach this turn (engine's `reach`) shaded over the theatre, each cell by the
    share of the turn it costs; the counters on top. Returns the number of cells reached."""
    r = reach(state, ref, rules, mode)
    u = state.unit(ref)
    cells, costs = _cells(r, u.cell)
    if window is None:
        window = tm.window_around(state.theatre, [*cells, (u.cell.lon, u.cell.lat)], 2)
    tm.draw_theatre(ax, state.theatre, state.level, lang, window)
    tm.draw_cells(ax, cells, tm.cost_colours(costs, r.budget))
    for (x, y), c in zip(cells, costs, strict=True):
        ax.text(x, y, num(c, lang, digits=2), ha="center", va="center", fontsize=6.5, zorder=8)
    tm.draw_counters(ax, to_geojson(mediator_view(state)))
    return len(cells)


# --- reach on the theatre itself ---------------------------------------------------------------


def _without_formations(f: Forces) -> Forces:
    """The side's forces with no fronts, armies, corps, deployment or mobilisation."""
    return replace(f, fronts=(), armies=(), corps=(), deployment=(), mobilisation=())


def theatre_alone(placement: str, level: int = 2, state: str = "B") -> GameState:
    """The continental theatre with one division of `state` on it (Blue's by default)."""
    sc = load_scenario(scenarios.default())
    bare = replace(sc, forces=tuple(_without_formations(f) for f in sc.forces))
    return initial_state(ScenarioBuilder.edit(bare).place(state, placement).build(), level)


@dataclass(frozen=True)
class ReachCase:
    """One panel: a division placed on the theatre, how it moves, and a caption."""

    placement: str
    mode: str
    caption: Text
    turn: str = ""


THEATRE_CASES = (
    ReachCase(
        "121 т.д. - 24,24 фронтом на восток",
        "forward",
        Text(
            "т.д. at Бродки, forward",
            "т.д. в Бродках, поступательно",
        ),
    ),
    ReachCase(
        "121 т.д. - 24,24 фронтом на восток",
        "road",
        Text("the same т.д., along the roads", "та же т.д., по дорогам"),
    ),
    ReachCase(
        "101 с.д. - 24,24 фронтом на восток",
        "forward",
        Text("с.д. at Бродки, forward", "с.д. в Бродках, поступательно"),
    ),
)
THEATRE_WINDOW = (18, 31, 18, 30)


def theatre_reach(
    cases: Sequence[ReachCase] = THEATRE_CASES, lang: Lang | None = None, level: int = 2
) -> Picture:
    """Reach maps on the continental theatre, side by side, one per case."""
    lang = lang or lesson_lang()
    rules = load_ruleset(level=level)
    fig = new_figure(4.4 * len(cases), 4.6)
    axes = fig.subplots(1, len(cases), squeeze=False)[0]
    alts = []
    for ax, case in zip(axes, cases, strict=True):
        state = theatre_alone(case.placement, level)
        ref = UnitRef.parse(case.placement.split(" - ")[0])
        n = draw_reach(ax, state, ref, rules, case.mode, lang, THEATRE_WINDOW)
        ax.set_title(f"{case.caption(lang)}\n{WORDS['cells'](lang).format(n=n)}", fontsize=9)
        alts.append(f"{case.caption(lang)}: {n}")
    fig.suptitle(WORDS["numbers"](lang), fontsize=9)
    return picture(fig, "\n".join(alts), lang)


# --- the example of 9.3 -------------------------------------------------------------------------


def example_9_3(lang: Lang | None = None) -> tuple[Picture, Html]:
    """«Ordered to move a т.д. 30 km through hills, the mediator moves it 20 km» (9.3): the map
    before and after, and what the player and the mediator are told."""
    lang = lang or lesson_lang()
    rules = load_ruleset(level=2)
    state = initial_state(
        small_map("hills").place("R", "5 т.д. - 4,5 фронтом на восток").build(), 2
    )
    order = parse_order("5 т.д. на 7,5", state)
    after, result = apply(state, order, rules)
    ref = UnitRef.parse("5 т.д.")
    fig = new_figure(9, 3.2)
    axes = fig.subplots(1, 2)
    window = (1, 12, 2, 8)
    for ax, st, title in (
        (axes[0], state, WORDS["ordered"](lang) + " 7,5"),
        (axes[1], after, WORDS["moved"](lang) + f" {after.unit(ref).cell}"),
    ):
        tm.draw_theatre(ax, st.theatre, 2, lang, window)
        tm.draw_counters(ax, to_geojson(mediator_view(st)))
        ax.plot([7], [5], "x", color="#b00000", ms=12, mew=3, zorder=10)
        ax.set_title(title, fontsize=9)
    player = Text("the player is told", "игроку")(lang)
    mediator = Text("the mediator's record", "посреднику")(lang)
    cuts = "; ".join(c.reason(lang) for c in result.cuts)
    text = (
        f"<p>{player}: <b>{result.outcome(lang)}</b></p><p>{mediator}: {cuts}</p>"
        + explanation_html(result.explanation, lang)
    )
    alt = f"{player}: {result.outcome(lang)}\n{mediator}: {cuts}"
    return picture(fig, alt, lang), Html(text, alt)


# --- the workbench ------------------------------------------------------------------------------


def movement_workbench(lang: Lang | None = None, level: int = 2) -> Live:
    """Pick a division, the ground, a river, a road, how it moves and a turn first: its reach
    on the small map (each cell with the share of the turn it costs) and the turn's breakdown."""
    lang = lang or lesson_lang()
    kind = division_choice(lang)
    relief = relief_choice(lang)
    river = w.Checkbox(description=WORDS["river"](lang), style=LABELLED)
    road = w.Checkbox(description=WORDS["road"](lang), style=LABELLED)
    mode = w.ToggleButtons(
        options=[(t(lang), k) for k, t in MODES.items()],
        description=WORDS["mode"](lang),
        style=LABELLED,
    )
    turn = w.Dropdown(
        options=[(WORDS["no_turn"](lang), "")] + [(d.label(lang), d.key) for d in Direction],
        description=WORDS["turn"](lang),
        style=LABELLED,
    )
    image = w.Image(format="png", layout=w.Layout(width="800px"))
    text = w.HTML()
    first: list[Picture] = []

    def show(*_: Any) -> None:
        rules = load_ruleset(level=level)
        b = small_map(relief.value, river.value, road.value).place(
            "R", f"5 {kind.value.ru} - 4,5 фронтом на восток"
        )
        state = initial_state(b.build(), level)
        ref = UnitRef(5, kind.value)
        breakdown = ""
        if turn.value:
            to = Direction.from_key(turn.value).ru
            order = parse_order(f"5 {kind.value.ru} поворот на {to}", state)
            state, res = apply(state, order, rules)
            breakdown = explanation_html(res.explanation, lang)
        fig = new_figure(8, 4.6)
        ax = fig.subplots()
        n = draw_reach(ax, state, ref, rules, mode.value, lang, (1, 16, 1, 9))
        ax.set_title(WORDS["cells"](lang).format(n=n), fontsize=9)
        pic = picture(fig, f"{kind.value.label(lang)}: {WORDS['cells'](lang).format(n=n)}", lang)
        first.append(pic)
        image.value = pic.png
        text.value = breakdown

    for c in (kind, relief, river, road, mode, turn):
        c.observe(show, names="value")
    show()
    box = w.VBox([w.HBox([kind, relief]), w.HBox([river, road]), mode, turn, image, text])
    return Live(box, first[0], first[0].alt)


# --- tables, turning, the march ------------------------------------------------------------------


def rule_table(entry: str, lang: Lang | None = None, level: int = 2) -> Html:
    """A table of the rules (table 4, 4.3's turns, 4.8's march) in its own terms."""
    from strategia.ui.lessons.show import entry_table

    return entry_table(load_ruleset(level=level), entry, lang or lesson_lang())


def turning(lang: Lang | None = None, kind: str = "т.д.", to: str = "север") -> Picture:
    """4.3: a division facing east, its reach as it stands and after a 90° turn to the north
    (half a turn spent, half a move left, the new front)."""
    lang = lang or lesson_lang()
    rules = load_ruleset(level=2)
    state = initial_state(small_map().place("R", f"5 {kind} - 5,5 фронтом на восток").build(), 2)
    ref = UnitRef.parse(f"5 {kind}")
    order = parse_order(f"5 {kind} поворот на {to}", state)
    turned, res = apply(state, order, rules)
    fig = new_figure(9, 3.4)
    axes = fig.subplots(1, 2)
    alts = []
    captions = (
        Text(f"{kind} facing east", f"{kind} фронтом на восток"),
        Text(f"after «{order.format('en')}»", f"после «{order.format('ru')}»"),
    )
    for ax, st, caption in zip(axes, (state, turned), captions, strict=True):
        n = draw_reach(ax, st, ref, rules, "forward", lang, (1, 11, 1, 9))
        title = f"{caption(lang)}: {WORDS['cells'](lang).format(n=n)}"
        ax.set_title(title, fontsize=9)
        alts.append(title)
    return picture(fig, "\n".join([*alts, res.outcome(lang)]), lang)


def march(lang: Lang | None = None) -> Html:
    """4.8: a с.д. marching along a road, the engine's breakdown."""
    lang = lang or lesson_lang()
    rules = load_ruleset(level=2)
    b = small_map("plain", road=True).place("R", "6 с.д. - 2,5 фронтом на восток")
    state = initial_state(b.build(), 2)
    _after, result = apply(state, parse_order("6 с.д. марш на 10,5", state), rules)
    return Html(explanation_html(result.explanation, lang), result.outcome(lang))
