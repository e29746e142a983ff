"""The ratings lesson (9.6, tables 1, 7-10): regiments' ratings, a division's rating derived from
them and checked against the printed tables, and the diagram of which regiment takes part how by
formation and the side the blow lands on.

Every rating is the engine's (`rating`, `contributions`, `derivation_check`).
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as w

from strategia.core.i18n import Lang, Text
from strategia.explain.render import explanation_html, fmt, rule_label
from strategia.rules import RuleSet, load_ruleset
from strategia.rules.english import en
from strategia.rules.kinds import Facing, Formation, RegimentsFacing, Role
from strategia.rules.ratings import contributions, derivation_check, rating
from strategia.rules.units import Division, new_division
from strategia.ui.lessons.common import division_choice
from strategia.ui.lessons.show import (
    LABELLED,
    Html,
    Live,
    Svg,
    entry_table,
    lesson_lang,
    table_html,
)

ROLE_COLOUR = {Role.DIRECT: "#c62828", Role.SUPPORT: "#f9a825", Role.NONE: "#bdbdbd"}
# a regiment's part, a letter on its box: the data's (D, S) in English, the words' in Russian
ROLE_MARK = {Role.DIRECT: Text("D", "Н"), Role.SUPPORT: Text("S", "П"), Role.NONE: Text("-", "-")}
BLOW_ANGLE = {
    Facing.FRONT: 0,
    Facing.FLANK45: 45,
    Facing.FLANK90: 90,
    Facing.FLANK135: 135,
    Facing.REAR: 180,
}
WORDS = {
    "formation": Text("formation", "построение"),
    "facing": Text("the blow lands on", "удар приходится в"),
    "turned": Text("regiments", "полки"),
    "legend": Text(
        "D: {direct}, S: {support}, -: {none}",
        "Н — {direct}, П — {support}, «-» — {none}",
    ),
    "up": Text("the front at the top; the arrow: the blow", "фронт вверху; стрелка — удар"),
    "table": Text("table", "таблица"),
    "division": Text("division", "дивизия"),
    "column": Text("column", "графа"),
    "printed": Text("printed", "напечатано"),
    "derived": Text("derived from the regiments", "по полкам"),
    "agrees": Text("agrees", "совпадает"),
    "yes": Text("yes", "да"),
    "no": Text("no: the printed value stands", "нет: действует напечатанное"),
}


def division_svg(
    division: Division,
    rules: RuleSet,
    formation: Formation,
    facing: Facing,
    regiments_facing: RegimentsFacing,
    lang: Lang = "ru",
) -> str:
    """The division seen from above, facing up: its regiments placed by the formation, coloured by
    the part the engine gives each (direct, support, none), and the blow's arrow (9.6)."""
    parts = contributions(division, rules, formation, facing, regiments_facing)
    boxes = []
    line = [c for c in parts if c.group in ("line", "first")]
    rear = [c for c in parts if c.group == "second"]
    arm = [c for c in parts if c.group == "arm"]
    width = 360
    for items, y in ((line, 60), (rear, 115), (arm, 165)):
        n = max(len(items), 1)
        for i, c in enumerate(items):
            x = width / 2 - n * 36 + i * 72
            label = html.escape(c.regiment.kind.label(lang))
            text = "<text x='{}' y='{}' font-size='10' text-anchor='middle'>{}</text>"
            boxes.append(
                f"<rect x='{x}' y='{y}' width='64' height='30' fill='{ROLE_COLOUR[c.role]}' "
                "stroke='#333'/>"
                + text.format(x + 32, y + 14, label)
                + text.format(x + 32, y + 26, f"{ROLE_MARK[c.role](lang)} {fmt(c.value, lang)}")
            )
    angle = BLOW_ANGLE[facing]
    mid = width / 2
    arrow = (
        f"<g transform='rotate({angle} {mid} 110)'><line x1='{mid}' y1='5' x2='{mid}' y2='45' "
        "stroke='#000' stroke-width='3' marker-end='url(#a)'/></g>"
    )
    defs = (
        "<defs><marker id='a' markerWidth='8' markerHeight='8' refX='4' refY='4' orient='auto'>"
        "<path d='M0,0 L8,4 L0,8 z'/></marker></defs>"
    )
    words = WORDS["legend"].format(
        direct=Role.DIRECT.label(lang), support=Role.SUPPORT.label(lang), none=Role.NONE.label(lang)
    )(lang)
    legend = (
        f"<text x='5' y='212' font-size='10'>{html.escape(words)}</text>"
        f"<text x='5' y='226' font-size='10'>{html.escape(WORDS['up'](lang))}</text>"
    )
    return (
        f"<svg width='{width + 40}' height='232' xmlns='http://www.w3.org/2000/svg'>"
        f"{defs}{arrow}{''.join(boxes)}{legend}</svg>"
    )


def diagram(
    kind: str = "т.д.",
    formation: Formation = Formation.LINEAR,
    facing: Facing = Facing.FLANK90,
    regiments_facing: RegimentsFacing = RegimentsFacing.ENEMY,
    lang: Lang | None = None,
) -> Svg:
    """One division's diagram (who takes part how) and its rating as the engine gives it."""
    lang = lang or lesson_lang()
    rules = load_ruleset(level=2)
    d = new_division(1, kind, rules)
    r = rating(d, rules, formation=formation, facing=facing, regiments_facing=regiments_facing)
    alt = f"{d.kind.label(lang)}: {formation.label(lang)}, {facing.label(lang)}, "
    alt += f"{regiments_facing.label(lang)} = {fmt(r.value, lang)}"
    return Svg(division_svg(d, rules, formation, facing, regiments_facing, lang), alt)


def breakdown(
    kind: str = "т.д.", facing: Facing = Facing.FLANK90, lang: Lang | None = None
) -> Html:
    """A division's rating against a blow, step by step (9.6, tables 7-10)."""
    lang = lang or lesson_lang()
    rules = load_ruleset(level=2)
    r = rating(new_division(5, kind, rules), rules, facing=facing)
    return Html(
        explanation_html(r.explanation, lang),
        f"{en(kind) if lang == 'en' else kind}, {facing.label(lang)} = {fmt(r.value, lang)}",
    )


def derivation_table(lang: Lang | None = None) -> Html:
    """Tables 8, 9-1, 9-2 and 10 against their derivation from table 7, cell by cell, each column
    by its name in the tables (rules --check)."""
    lang = lang or lesson_lang()
    rules = load_ruleset(level=2)
    by_rule = {e.rule: e for e in rules.entries.values()}
    rows = []
    for r in derivation_check(rules):
        column = by_rule[r.table].column_label(r.column)(lang)
        agrees = WORDS["yes" if r.agrees else "no"](lang)
        division = en(r.division) if lang == "en" else r.division
        rows.append((rule_label(r.table, lang), division, column, r.printed, r.derived, agrees))
    keys = ("table", "division", "column", "printed", "derived", "agrees")
    heads = [WORDS[k](lang) for k in keys]
    alt = "\n".join(" | ".join(str(v) for v in row) for row in rows)
    return Html(table_html(heads, rows, lang=lang), alt)


def ratings_workbench(lang: Lang | None = None, level: int = 2) -> Live:
    """A division type, its formation, the side hit, whether its regiments turned to the enemy:
    the diagram and the rating's breakdown."""
    lang = lang or lesson_lang()
    kind = division_choice(lang)
    formation = w.ToggleButtons(
        options=[(f.label(lang), f) for f in Formation],
        description=WORDS["formation"](lang),
        style=LABELLED,
    )
    facing = w.ToggleButtons(
        options=[(f.label(lang), f) for f in Facing],
        description=WORDS["facing"](lang),
        style=LABELLED,
    )
    turned = w.ToggleButtons(
        options=[(f.label(lang), f) for f in RegimentsFacing],
        description=WORDS["turned"](lang),
        style=LABELLED,
    )
    out = w.HTML()

    def show(*_: Any) -> None:
        rules = load_ruleset(level=level)
        d = new_division(1, kind.value, rules)
        r = rating(
            d, rules, formation=formation.value, facing=facing.value, regiments_facing=turned.value
        )
        out.value = division_svg(
            d, rules, formation.value, facing.value, turned.value, lang
        ) + explanation_html(r.explanation, lang)

    for c in (kind, formation, facing, turned):
        c.observe(show, names="value")
    show()
    box = w.VBox([kind, formation, facing, turned, out])
    alt = f"{kind.value.ru}: {formation.value.label(lang)}, {facing.value.label(lang)}"
    return Live(box, out.value, alt)


def rule_table(entry: str, lang: Lang | None = None) -> Html:
    """A table of the rule data (table 7, table 1) in its own terms."""
    return entry_table(load_ruleset(level=2), entry, lang or lesson_lang())
