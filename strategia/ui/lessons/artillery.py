"""The artillery lesson (9.7 a-d, table 11): what a strike destroys by the ground, its efficiency
by range at levels 2 and 3, the seed's example of 9.7d drawn, and the workbench.

Every share is the engine's (`efficiency`, `apply` of a strike order).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import ipywidgets as w

from strategia.core.geometry import Cell
from strategia.core.i18n import Lang, Text
from strategia.core.numbers import num, quantity, unit_word
from strategia.engine.apply import advance, apply
from strategia.engine.artillery import efficiency, in_range
from strategia.engine.state import GameState, initial_state
from strategia.explain.render import explanation_html, fmt
from strategia.game.scoring import strength_of
from strategia.game.views import mediator_view, to_geojson
from strategia.notation.orders import parse_order
from strategia.notation.refs import UnitRef
from strategia.rules import load_ruleset
from strategia.rules.kinds import Terrain
from strategia.theatre.builder import ScenarioBuilder
from strategia.ui.lessons import maps as tm
from strategia.ui.lessons.common import RELIEFS, relief_choice
from strategia.ui.lessons.show import (
    LABELLED,
    Html,
    Live,
    Picture,
    entry_table,
    lesson_lang,
    new_figure,
    picture,
    state_name,
)

WORDS = {
    "distance": Text("distance from the battery, km", "расстояние от батареи, км"),
    "efficiency": Text("efficiency, %", "эффективность, %"),
    "table11": Text("table 11 (level 2)", "таблица 11 (2 уровень)"),
    "formula": Text("the formula (level 3)", "формула (3 уровень)"),
    "ground": Text("the target's ground", "местность цели"),
    "destroyed": Text("share destroyed", "доля уничтоженного"),
    "level": Text("level", "уровень"),
    "dx": Text("target east of the battery, cells", "цель восточнее батареи, клеток"),
    "dy": Text("target north of the battery, cells", "цель севернее батареи, клеток"),
    "before": Text("before the strike", "до удара"),
    "after": Text("next turn: 21 т.д. enters 22,11", "следующий ход: 21 т.д. входит в 22,11"),
    "strength": Text("Red's strength (Σ ratings): {a} before, {b} after",
                     "силы красных (Σ рейтингов): {a} до, {b} после"),
}  # fmt: skip


def strike_rules(lang: Lang | None = None) -> Html:
    """9.7a: the share a strike leaves by the ground, as the rule data gives it."""
    rules = load_ruleset(level=1)
    rows = [r for r in rules.entry("artillery").rows if r.startswith("survive_")]
    return entry_table(rules, "artillery", lang or lesson_lang(), rows=rows)


def strike_setup(relief: str, dx: int = 0, dy: int = 2, level: int = 1) -> tuple[GameState, str]:
    """A Blue а.д. fires on a Red с.д. standing on `relief` in 8,4, from `dx`, `dy` cells off."""
    b = ScenarioBuilder.blank(16, 9).state("R", state_name("red"), "red", lat=(1, 4))
    b = b.state("B", state_name("blue"), "blue", lat=(5, 9))
    if relief != "plain":
        b = b.paint(relief, lon=8, lat=4)
    b = b.place("R", "1 с.д. - 8,4 фронтом на север")
    b = b.place("B", f"51 а.д. - {8 - dx},{4 + dy} фронтом на юг")
    return initial_state(b.build(), level), "51 а.д. огонь по 8,4"


def destroyed(relief: str, dx: int = 0, dy: int = 2, level: int = 1) -> tuple[float, Any]:
    """The share of the с.д. a strike destroys, and the engine's result."""
    state, order = strike_setup(relief, dx, dy, level)
    after, result = apply(state, parse_order(order, state), load_ruleset(level=level))
    ref = UnitRef.parse("1 с.д.")
    left = after.units[ref].division.strength if ref in after.units else 0.0
    return round(1 - left / state.unit(ref).division.strength, 4), result


def by_ground(lang: Lang | None = None) -> Picture:
    """9.7a: a strike on an с.д. on each ground, the share destroyed (engine), at level 2 (at
    level 1 all ground but mountains counts as plain, 2.2) from 20 km: table 11 gives 85%."""
    lang = lang or lesson_lang()
    shares = [destroyed(r, 0, 2, 2)[0] for r in RELIEFS]
    fig = new_figure(6.5, 3)
    ax = fig.subplots()
    names = [Terrain.from_key(r).label(lang) for r in RELIEFS]
    ax.bar(names, shares, color="#6d4c41")
    for x, v in enumerate(shares):
        ax.text(x, v + 0.01, fmt(v, lang), ha="center", fontsize=8)
    ax.set_ylabel(WORDS["destroyed"](lang), fontsize=8)
    ax.set_xlabel(WORDS["ground"](lang), fontsize=8)
    ax.tick_params(labelsize=8)
    ax.set_ylim(0, 0.6)
    return picture(
        fig, "\n".join(f"{n}: {fmt(v, lang)}" for n, v in zip(names, shares, strict=True)), lang
    )


def range_chart(lang: Lang | None = None) -> Picture:
    """Table 11 (level 2) and the formula (level 3): the engine's efficiency at every offset of
    the target from the battery, against the distance."""
    lang = lang or lesson_lang()
    battery = Cell(1, 1)
    offsets = [(dx, dy) for dx in range(4) for dy in range(4)]
    fig = new_figure(6.5, 3.6)
    ax = fig.subplots()
    alts = []
    for level, style, label in ((3, "-", "formula"), (2, "o", "table11")):
        rules = load_ruleset(level=level)
        pts = sorted(
            (battery.km(t, 10.0), efficiency(battery, t, rules) * 100)
            for dx, dy in offsets
            if in_range(battery, t := Cell(1 + dx, 1 + dy), rules)
        )
        ax.plot([p[0] for p in pts], [p[1] for p in pts], style, label=WORDS[label](lang))
        km = unit_word("km", 5, lang)
        values = ", ".join(
            f"{num(p[0], lang)} {km}: {quantity(round(p[1], 1), '%', lang)}" for p in pts
        )
        alts.append(f"{WORDS[label](lang)}: {values}")
    ax.set_xlabel(WORDS["distance"](lang), fontsize=8)
    ax.set_ylabel(WORDS["efficiency"](lang), fontsize=8)
    ax.legend(fontsize=8)
    ax.grid(True, lw=0.3)
    return picture(fig, "\n".join(alts), lang)


# --- the example of 9.7d ------------------------------------------------------------------------


def example_9_7d(lang: Lang | None = None) -> tuple[Picture, Html]:
    """«Blue strikes to destroy on 22-10 and to cut off on 22-11. Two Red с.д. in 22-10: the
    losses are one с.д. ... a Red tank corps passes through the cell: its losses, one т.д.»"""
    lang = lang or lesson_lang()
    rules1 = load_ruleset(level=1)
    b = ScenarioBuilder.blank(30, 14).state("R", state_name("red"), "red", lat=(1, 10))
    b = b.state("B", state_name("blue"), "blue", lat=(11, 14))
    b = b.place("R", "1 с.д. - 22,10", "2 с.д. - 21,10").corps("R", "2 т.к.", "21 т.д.", "22 т.д.")
    b = b.place("R", "2 т.к. расположен между 20-9 и 21-9 фронтом на северо-восток")
    b = b.place("B", "151 а.д. - 22,13", "152 а.д. - 24,13")
    state = initial_state(b.build(), 1)
    state = state.with_units([replace(state.unit(UnitRef.parse("2 с.д.")), cells=(Cell(22, 10),))])
    start = state
    before = strength_of(state, "red", rules1)
    state, r1 = apply(state, parse_order("151 а.д. огонь по 22,10", state), rules1)
    state, r2 = apply(state, parse_order("152 а.д. огонь на отсечение 22,11", state), rules1)
    state, _ = advance(state, rules1)
    state, r3 = apply(state, parse_order("21 т.д. на 22,11", state), rules1)
    after = strength_of(state, "red", rules1)
    fig = new_figure(10, 3.6)
    axes = fig.subplots(1, 2)
    for ax, st, title in ((axes[0], start, "before"), (axes[1], state, "after")):
        tm.draw_theatre(ax, st.theatre, 1, lang, (17, 27, 7, 14))
        tm.draw_cells(ax, [(22, 11)], "#b71c1c", 0.9, hatch="xx")
        ax.plot([22], [10], "x", color="#b71c1c", ms=26, mew=3, zorder=10)
        tm.draw_counters(ax, to_geojson(mediator_view(st)))
        ax.set_title(WORDS[title](lang), fontsize=9)
    line = WORDS["strength"].format(a=fmt(before, lang), b=fmt(after, lang))(lang)
    text = f"<p><b>{line}</b></p>" + "".join(
        f"<p><b>{r.outcome(lang)}</b></p>{explanation_html(r.explanation, lang)}"
        for r in (r1, r2, r3)
    )
    alt = "\n".join([line, *(r.outcome(lang) for r in (r1, r2, r3))])
    return picture(fig, alt, lang), Html(text, alt)


# --- the workbench ------------------------------------------------------------------------------


def artillery_workbench(lang: Lang | None = None) -> Live:
    """The target's ground, where the battery stands, the level: the strike's breakdown."""
    lang = lang or lesson_lang()
    relief = relief_choice(lang, WORDS["ground"])
    dx = w.IntSlider(value=0, min=0, max=3, description=WORDS["dx"](lang), style=LABELLED)
    dy = w.IntSlider(value=2, min=0, max=3, description=WORDS["dy"](lang), style=LABELLED)
    level = w.ToggleButtons(
        options=[1, 2, 3], value=2, description=WORDS["level"](lang), style=LABELLED
    )
    out = w.HTML()

    def show(*_: Any) -> None:
        share, result = destroyed(relief.value, dx.value, dy.value, level.value)
        head = (
            f"<p><b>{WORDS['destroyed'](lang)}: {fmt(share, lang)}</b> — {result.outcome(lang)}</p>"
        )
        out.value = head + explanation_html(result.explanation, lang)

    for c in (relief, dx, dy, level):
        c.observe(show, names="value")
    show()
    box = w.VBox([relief, dx, dy, level, out])
    return Live(box, out.value, f"{WORDS['destroyed'](lang)}: {destroyed('plain', 0, 2, 2)[0]}")
