"""The battle lesson (9.8 a-c, 9.5, tables 9-1, 9-2, 10, the reconstructed loss rule): one section
per rule, each a battle the engine fights on the small map, and the workbench.

A battle here is an order in journal notation applied by the engine (`apply`); the losses shown
are the strengths the engine leaves. To add a section for another rule (a division in the
supporting formation, a blow from two sides): a `battle_setup` placing the units, a function
that fights it and shows the engine's breakdown or its losses, a section in the notebook.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import ipywidgets as w

from strategia.core.geometry import Cell, Direction
from strategia.core.i18n import Lang, Text
from strategia.engine.apply import apply
from strategia.engine.result import Result
from strategia.engine.state import GameState, initial_state
from strategia.explain.render import fmt
from strategia.game import report_render as rr
from strategia.notation.orders import parse_order
from strategia.notation.refs import UnitRef
from strategia.rules import load_ruleset
from strategia.rules.english import en
from strategia.rules.kinds import DivisionKind, Facing, Formation, Terrain
from strategia.theatre.builder import ScenarioBuilder
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
    table_html,
)

WORDS = {
    "attacker_loss": Text("attacker's loss", "потери наступающего"),
    "defender_loss": Text("defender's loss", "потери обороняющегося"),
    "share": Text("share of the strength lost", "доля потерянной численности"),
    "ratio": Text("force ratio, attackers : defender", "соотношение сил: наступающие к обороне"),
    "ground": Text("the defender's ground", "местность обороняющегося"),
    "river": Text("behind a river", "за рекой"),
    "case": Text("battle", "бой"),
    "order": Text("order", "приказ"),
    "outcome": Text("outcome", "исход"),
    "none": Text("none", "нет"),
    "attack": Text("blow {n}", "удар {n}"),
    "defence": Text("defence {n}", "оборона {n}"),
    "support": Text("support", "поддержка"),
    "formation": Text("the defender's formation", "построение обороняющегося"),
    "rating": Text("the defender's rating", "рейтинг обороняющегося"),
    "blows": Text("blows", "удары"),
    "weight": Text("share", "доля"),
    "side": Text("side struck", "сторона удара"),
    "one_side": Text("both from the front", "оба с фронта"),
    "two_sides": Text("front and rear", "с фронта и с тыла"),
    "attackers": Text("attackers", "наступающие"),
}  # fmt: skip


def battle_setup(
    attackers: Sequence[str],
    defenders: Sequence[str],
    relief: str = "plain",
    level: int = 2,
    support: str = "",
    river: bool = False,
) -> tuple[GameState, str]:
    """A battle on the small map: attackers (notation, beside 8,5, facing east) against the
    defenders in 9,5 (more in 10,5 and 10,4, facing west); the order of the blow."""
    b = ScenarioBuilder.blank(16, 9).state("R", state_name("red"), "red", lon=(1, 8))
    b = b.state("B", state_name("blue"), "blue", lon=(9, 16))
    if relief != "plain":
        b = b.paint(relief, lon=9, lat=5)
    if river:
        b = b.river("8.5,0.5 8.5,9.5")
    spots = ["8,5", "8,4", "8,6", "9,4", "9,6"]
    placed = [f"{a} - {spots[i]} фронтом на восток" for i, a in enumerate(attackers)]
    if support:
        placed.append(f"{support} - 7,5 фронтом на восток")
    b = b.place("R", *placed)
    cells = ["9,5", "10,5", "10,4"]
    b = b.place(
        "B", *(f"{d} - {c} фронтом на запад" for d, c in zip(defenders, cells, strict=False))
    )
    state = initial_state(b.build(), level)
    order = f"удар по 9,5: {', '.join(attackers)}" + (
        f" при поддержке {support}" if support else ""
    )
    if len(defenders) > 1:
        order += f" // оборона: {defenders[0]}; {', '.join(defenders[1:])}"
    return state, order


@dataclass(frozen=True)
class Fought:
    """A battle fought: the order, the engine's result, each side's share of strength lost."""

    order: str
    shown: Text  # the order in the journal's notation, in each language
    result: Result
    attacker_loss: float
    defender_loss: float


def _strength(state: GameState, refs: Sequence[UnitRef]) -> float:
    return sum(state.units[r].division.strength for r in refs if r in state.units)


def fight(state: GameState, order: str, level: int = 2) -> Fought:
    """Apply the blow; the losses are the strengths before less those the engine leaves."""
    rules = load_ruleset(level=level)
    o = parse_order(order, state)
    red = [u.ref for u in state.units.values() if state.side_of(u.ref) == "red"]
    blue = [u.ref for u in state.units.values() if state.side_of(u.ref) != "red"]
    after, result = apply(state, o, rules)
    a0, d0 = _strength(state, red), _strength(state, blue)
    a_loss = 1 - _strength(after, red) / a0 if a0 else 0.0
    d_loss = 1 - _strength(after, blue) / d0 if d0 else 0.0
    shown = Text(o.format("en"), o.format("ru"))
    return Fought(order, shown, result, round(a_loss, 4), round(d_loss, 4))


def show_battle(f: Fought, lang: Lang | None = None) -> Html:
    """The order and the battle's report, as the console shows it (`strategia.game.report`):
    who struck whom, the forces and their ratio, the outcome, the table per unit, the steps
    with their numbers, the reconstructed values it used."""
    lang = lang or lesson_lang()
    head = f"<p><code>{html.escape(f.shown(lang))}</code></p>"
    alt = f"{f.shown(lang)} → {f.result.outcome(lang)}"
    rep = rr.report_of(f.result, lang, None)
    if rep is None:  # not a battle: its outcome
        return Html(head + f"<p><b>{html.escape(f.result.outcome(lang))}</b></p>", alt)
    body = rr.html_fragment(rep, tree=False)
    return Html(f"{head}<style>{rr.CSS}</style><div class='sr-report'>{body}</div>", alt)


# --- the sections -----------------------------------------------------------------------------


def regular_battle(lang: Lang | None = None) -> Html:
    """9.8: a т.д. and an с.д. strike an с.д. in the open."""
    return show_battle(fight(*battle_setup(["1 т.д.", "2 с.д."], ["101 с.д."])), lang)


def by_ground(lang: Lang | None = None) -> Picture:
    """9.8b: the same blow (т.д. and с.д. against с.д.) with the defender on each ground, and
    behind a river: each side's loss, as the engine gives it."""
    lang = lang or lesson_lang()
    cases = [(Terrain.from_key(r).label(lang), r, False) for r in RELIEFS]
    cases.append((WORDS["river"](lang), "plain", True))
    results = [
        fight(*battle_setup(["1 т.д.", "2 с.д."], ["101 с.д."], relief, river=river))
        for _, relief, river in cases
    ]
    fig = new_figure(8, 3.4)
    ax = fig.subplots()
    xs = range(len(cases))
    ax.bar([x - 0.2 for x in xs], [f.attacker_loss for f in results], 0.4,
           label=WORDS["attacker_loss"](lang), color="#c62828")  # fmt: skip
    ax.bar([x + 0.2 for x in xs], [f.defender_loss for f in results], 0.4,
           label=WORDS["defender_loss"](lang), color="#1565c0")  # fmt: skip
    ax.set_xticks(list(xs), [c[0] for c in cases], fontsize=8)
    ax.set_xlabel(WORDS["ground"](lang), fontsize=8)
    ax.set_ylabel(WORDS["share"](lang), fontsize=8)
    ax.legend(fontsize=8)
    ax.grid(True, axis="y", lw=0.3)
    alt = "\n".join(
        f"{c[0]}: {WORDS['attacker_loss'](lang)} {fmt(f.attacker_loss, lang)}, "
        f"{WORDS['defender_loss'](lang)} {fmt(f.defender_loss, lang)}"
        for c, f in zip(cases, results, strict=True)
    )
    return picture(fig, alt, lang)


def echelons(lang: Lang | None = None) -> Html:
    """9.8c: two с.д. in the first echelon and a т.д. in the second strike two defending
    echelons (an с.д. in 9,5, another behind it in 10,5)."""
    state, order = battle_setup(["1 с.д.", "2 с.д.", "3 т.д."], ["101 с.д.", "102 с.д."])
    order = order.replace("1 с.д., 2 с.д., 3 т.д.", "1 с.д., 2 с.д.; 3 т.д.")
    return show_battle(fight(state, order), lang)


def support(lang: Lang | None = None) -> Html:
    """9.8c (level 2): the same blow with and without an а.д. in support: each side's losses."""
    lang = lang or lesson_lang()
    rows = []
    for sup in ("", "50 а.д."):
        f = fight(*battle_setup(["1 т.д.", "2 с.д."], ["101 с.д."], support=sup))
        rows.append((f.shown(lang), f.result.outcome(lang), f.attacker_loss, f.defender_loss))
    heads = [WORDS[k](lang) for k in ("order", "outcome", "attacker_loss", "defender_loss")]
    alt = "\n".join(" | ".join(str(v) for v in r) for r in rows)
    return Html(table_html(heads, rows, lang=lang), alt)


def _defender_rating(f: Fought, unit: str) -> float:
    """The defender's rating against the blow (tables 9-1, 9-2, 10), from the battle's record."""
    assert f.result.battle is not None
    return next(u.rating for u in f.result.battle.units if u.unit == unit)


def supporting_formation(lang: Lang | None = None) -> Html:
    """9.6, table 10: the same blow (an с.д. on an с.д. in the open, on its front) against a
    defender in the linear formation and in the supporting one (`101 с.д. построение опорное`,
    a quarter of a turn): the defender's rating by the tables and each side's losses; then the
    engine's breakdown of the second battle."""
    lang = lang or lesson_lang()
    rules = load_ruleset(level=2)
    rows, last = [], None
    for formation in (Formation.LINEAR, Formation.SUPPORTING):
        state, order = battle_setup(["1 с.д."], ["101 с.д."])
        if formation is Formation.SUPPORTING:
            reform = parse_order("101 с.д. построение опорное", state)
            state, _ = apply(state, reform, rules)
        last = fight(state, order)
        rows.append((formation.label(lang), _defender_rating(last, "101 с.д."),
                     last.attacker_loss, last.defender_loss))  # fmt: skip
    assert last is not None
    heads = [WORDS[k](lang) for k in ("formation", "rating", "attacker_loss", "defender_loss")]
    alt = "\n".join(
        " | ".join(fmt(v, lang) if isinstance(v, float) else v for v in r) for r in rows
    )
    return Html(table_html(heads, rows, lang=lang) + show_battle(last, lang).html, alt)


def two_sides(lang: Lang | None = None) -> Html:
    """9.5, 9.6: two с.д. strike an с.д. facing west, first both from its front (both in 8,5),
    then one from its front and one from its rear (10,5, facing west). Struck on two sides, its
    regiments cannot all face the enemy: each blow is rated by the side it lands on and weighs
    its share of the attackers. The blows as the engine recorded them, each side's losses, and
    the breakdown of the second battle."""
    lang = lang or lesson_lang()
    rows, last = [], None
    for case in ("one_side", "two_sides"):
        state, order = battle_setup(["1 с.д.", "2 с.д."], ["101 с.д."])
        u = state.unit(UnitRef.parse("2 с.д."))
        if case == "two_sides":
            state = state.with_units([replace(u, cells=(Cell(10, 5),), facing=Direction.W)])
        else:
            state = state.with_units([replace(u, cells=(Cell(8, 5),))])
        last = fight(state, order)
        assert last.result.battle is not None
        d = next(x for x in last.result.battle.units if x.unit == "101 с.д.")
        blows = "; ".join(
            f"{Facing.from_key(b.side).label(lang)} × {fmt(b.weight, lang)} = {fmt(b.rating, lang)}"
            for b in d.blows
        )
        rows.append((WORDS[case](lang), blows, d.rating, last.attacker_loss,
                     last.defender_loss))  # fmt: skip
    assert last is not None
    heads = [WORDS[k](lang) for k in ("attackers", "blows", "rating", "attacker_loss",
                                      "defender_loss")]  # fmt: skip
    alt = "\n".join(
        " | ".join(fmt(v, lang) if isinstance(v, float) else v for v in r) for r in rows
    )
    return Html(table_html(heads, rows, lang=lang) + show_battle(last, lang).html, alt)


def outcome_by_ratio(ratios: list[float], level: int = 2) -> list[tuple[float, float, float]]:
    """(force ratio, attacker's loss share, defender's loss share) for с.д. against one с.д.,
    the attackers' strength scaled to the ratio (the reconstructed loss rule, engine's numbers)."""
    out = []
    for ratio in ratios:
        n = max(1, int(ratio + 0.999))
        state, order = battle_setup([f"{i + 1} с.д." for i in range(n)], ["101 с.д."], level=level)
        units = [state.unit(UnitRef.parse(f"{i + 1} с.д.")) for i in range(n)]
        state = state.with_units(
            [replace(u, division=u.division.with_strengths(ratio / n)) for u in units]
        )
        f = fight(state, order, level)
        out.append((ratio, f.attacker_loss, f.defender_loss))
    return out


RATIOS = [0.5, 0.75, 1, 1.5, 2, 2.5, 3]


def ratio_chart(lang: Lang | None = None) -> Picture:
    """The loss rule (reconstructed): each side's loss against the force ratio, с.д. against с.д.
    in the open."""
    lang = lang or lesson_lang()
    data = outcome_by_ratio(RATIOS)
    fig = new_figure(6.5, 3.4)
    ax = fig.subplots()
    ax.plot([d[0] for d in data], [d[1] for d in data], "o-", color="#c62828",
            label=WORDS["attacker_loss"](lang))  # fmt: skip
    ax.plot([d[0] for d in data], [d[2] for d in data], "s-", color="#1565c0",
            label=WORDS["defender_loss"](lang))  # fmt: skip
    ax.set_xlabel(WORDS["ratio"](lang), fontsize=8)
    ax.set_ylabel(WORDS["share"](lang), fontsize=8)
    ax.legend(fontsize=8)
    ax.grid(True, lw=0.3)
    alt = "\n".join(f"{fmt(r, lang)}: {fmt(a, lang)} / {fmt(d, lang)}" for r, a, d in data)
    return picture(fig, alt, lang)


# --- the workbench ------------------------------------------------------------------------------


def battle_workbench(lang: Lang | None = None, level: int = 2) -> Live:
    """Attackers, defenders, ground, echelons, support: the battle's breakdown, live."""
    lang = lang or lesson_lang()
    none = WORDS["none"](lang)
    # each kind shown in the reader's notation, kept in the journal's (the orders are built so)
    kinds = [(none, none)] + [
        (en(k.ru) if lang == "en" else k.ru, k.ru)
        for k in DivisionKind
        if k is not DivisionKind.FORTRESS
    ]
    att = [
        w.Dropdown(options=kinds, value=v, style=LABELLED,
                   description=WORDS["attack"].format(n=i + 1)(lang))
        for i, v in enumerate(("т.д.", "с.д.", none))
    ]  # fmt: skip
    dfd = [
        w.Dropdown(options=kinds, value=v, style=LABELLED,
                   description=WORDS["defence"].format(n=i + 1)(lang))
        for i, v in enumerate(("с.д.", none))
    ]  # fmt: skip
    relief = relief_choice(lang)
    river = w.Checkbox(description=WORDS["river"](lang), style=LABELLED)
    sup = w.Dropdown(
        options=[kinds[0], *(o for o in kinds if o[1] in ("а.д.", "с.д."))],
        description=WORDS["support"](lang), style=LABELLED,
    )  # fmt: skip
    out = w.HTML()

    def show(*_: Any) -> None:
        attackers = [f"{i + 1} {d.value}" for i, d in enumerate(att) if d.value != none]
        defenders = [f"{101 + i} {d.value}" for i, d in enumerate(dfd) if d.value != none]
        if not attackers or not defenders:
            out.value = "—"
            return
        s = f"50 {sup.value}" if sup.value != none else ""
        state, order = battle_setup(attackers, defenders, relief.value, level, s, river.value)
        out.value = show_battle(fight(state, order, level), lang).html

    for c in (*att, *dfd, relief, river, sup):
        c.observe(show, names="value")
    show()
    box = w.VBox([w.HBox(att), w.HBox(dfd), w.HBox([relief, river, sup]), out])
    return Live(box, out.value, "т.д., с.д. → с.д.")


GROUND_ROWS = (
    "defender_forest", "defender_hills", "defender_swamp", "defender_mountains",
    "defender_river", "anti_tank_vs_armour",
)  # fmt: skip


def ground_rules(lang: Lang | None = None) -> Html:
    """9.8b: the defender's multipliers by ground, and the пт.д.'s against armour."""
    return entry_table(load_ruleset(level=2), "battle", lang or lesson_lang(), rows=GROUND_ROWS)


def loss_rules(lang: Lang | None = None) -> Html:
    """The reconstructed loss rule's parameters."""
    return entry_table(load_ruleset(level=2), "loss_rule", lang or lesson_lang())
