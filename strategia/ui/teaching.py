"""Workbenches for the teaching notebooks: each takes a few widgets' values, asks the engine, and
shows its answer with the breakdown. Nothing here computes a rule.
"""

from __future__ import annotations

import html
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any

import ipywidgets as w

from strategia.core.geometry import Direction
from strategia.core.i18n import Lang
from strategia.engine.apply import apply
from strategia.engine.movement import reach
from strategia.engine.state import GameState, initial_state
from strategia.explain.render import explanation_html
from strategia.notation.orders import parse_order
from strategia.notation.refs import UnitRef
from strategia.rules import RuleSet, load_ruleset
from strategia.rules.kinds import DivisionKind, Facing, Formation, RegimentsFacing, Role
from strategia.rules.ratings import contributions, rating
from strategia.rules.units import Division, new_division
from strategia.theatre.builder import ScenarioBuilder

ROLE_COLOUR = {Role.DIRECT: "#c62828", Role.SUPPORT: "#f9a825", Role.NONE: "#bdbdbd"}
BLOW_ANGLE = {
    Facing.FRONT: 0,
    Facing.FLANK45: 45,
    Facing.FLANK90: 90,
    Facing.FLANK135: 135,
    Facing.REAR: 180,
}


def division_svg(
    division: Division,
    rules: RuleSet,
    formation: Formation,
    facing: Facing,
    regiments_facing: RegimentsFacing,
) -> str:
    """The division seen from above, facing up: its regiments placed by the formation, coloured by
    the part the engine gives each (direct, support, none), and the blow's arrow (9.6)."""
    parts = contributions(division, rules, formation, facing, regiments_facing)
    boxes = []
    line = [c for c in parts if c.group in ("line", "first")]
    rear = [c for c in parts if c.group == "second"]
    arm = [c for c in parts if c.group == "arm"]
    width = 360
    for row, (items, y) in enumerate(((line, 60), (rear, 115), (arm, 165))):
        n = max(len(items), 1)
        for i, c in enumerate(items):
            x = width / 2 - n * 36 + i * 72
            label = html.escape(c.regiment.kind.ru)
            text = "<text x='{}' y='{}' font-size='10' text-anchor='middle'>{}</text>"
            boxes.append(
                f"<rect x='{x}' y='{y}' width='64' height='30' fill='{ROLE_COLOUR[c.role]}' "
                "stroke='#333'/>"
                + text.format(x + 32, y + 14, label)
                + text.format(x + 32, y + 26, f"{c.role.key} {c.value:g}")
            )
        del row
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
    legend = (
        "<text x='5' y='215' font-size='10'>D — непосредственно / direct, S — поддержкой / "
        "support, - — не участвует / none; фронт вверху / front at the top</text>"
    )
    return f"<svg width='{width + 40}' height='225' xmlns='http://www.w3.org/2000/svg'>{defs}{arrow}{''.join(boxes)}{legend}</svg>"


def _division_choice() -> w.Dropdown:
    return w.Dropdown(
        options=[(k.ru, k) for k in DivisionKind if k is not DivisionKind.FORTRESS],
        value=DivisionKind.TANK,
        description="дивизия",
    )


def ratings_workbench(lang: Lang = "ru", level: int = 2) -> w.VBox:
    """A division type, formation and the side hit: the diagram and the rating's breakdown."""
    kind = _division_choice()
    formation = w.ToggleButtons(options=[(f.label(lang), f) for f in Formation])
    facing = w.ToggleButtons(options=[(f.label(lang), f) for f in Facing])
    turned = w.ToggleButtons(options=[(f.label(lang), f) for f in RegimentsFacing])
    out = w.HTML()

    def show(*_: Any) -> None:
        rules = load_ruleset(level=level)
        d = new_division(1, kind.value, rules)
        r = rating(
            d, rules, formation=formation.value, facing=facing.value, regiments_facing=turned.value
        )
        out.value = division_svg(
            d, rules, formation.value, facing.value, turned.value
        ) + explanation_html(r.explanation, lang)

    for c in (kind, formation, facing, turned):
        c.observe(show, names="value")
    show()
    return w.VBox([kind, formation, facing, turned, out])


def small_map(relief: str = "plain", river: bool = False, road: bool = False) -> ScenarioBuilder:
    """A 16 x 9 map of one relief, Red on the left, Blue on the right, for the workbenches."""
    b = (
        ScenarioBuilder.blank(16, 9, name="учебная карта")
        .state("R", "Красные", "red", lon=(1, 12))
        .state("B", "Синие", "blue", lon=(13, 16))
    )
    if relief != "plain":
        b = b.paint(relief, lon=(4, 12))
    if river:
        b = b.river("6.5,0.5 6.5,9.5")
    if road:
        b = b.road("1,5 12,5")
    return b


def reach_html(state: GameState, ref: UnitRef, rules: RuleSet, mode: str = "forward") -> str:
    """A unit's reachable cells as a table of turns used (engine's reach), the unit marked."""
    r = reach(state, ref, rules, mode)
    u = state.unit(ref)
    rows = []
    for y in range(state.height, 0, -1):
        cells = []
        for x in range(1, state.width + 1):
            from strategia.core.geometry import Cell

            c = Cell(x, y)
            if c == u.cell:
                cells.append("<td style='background:#c62828;color:#fff'>★</td>")
            elif r.reachable(c):
                cells.append(f"<td style='background:#fff59d'>{r.cost_to(c):.2g}</td>")
            else:
                cells.append("<td></td>")
        rows.append(f"<tr><th>{y}</th>{''.join(cells)}</tr>")
    head = "<tr><th></th>" + "".join(f"<th>{x}</th>" for x in range(1, state.width + 1)) + "</tr>"
    return f"<table style='font-size:10px;border-collapse:collapse'>{head}{''.join(rows)}</table>"


def movement_workbench(lang: Lang = "ru", level: int = 2) -> w.VBox:
    """Pick a unit type and ground; see its reachable area with the turns each cell costs."""
    kind = _division_choice()
    relief = w.Dropdown(
        options=["plain", "forest", "hills", "swamp", "mountains"], description="местность"
    )
    river = w.Checkbox(description="река / river")
    road = w.Checkbox(description="дорога / road")
    mode = w.ToggleButtons(options=["forward", "road", "withdraw"])
    turn = w.Dropdown(
        options=[("—", None)] + [(d.label(lang), d) for d in Direction], description="поворот"
    )
    out = w.HTML()

    def show(*_: Any) -> None:
        rules = load_ruleset(level=level)
        b = small_map(relief.value, river.value, road.value).place(
            "R", f"5 {kind.value.ru} - 4,5 фронтом на восток"
        )
        state = initial_state(b.build(), level)
        ref = UnitRef(5, kind.value)
        text = ""
        if turn.value is not None:
            state, res = apply(
                state, parse_order(f"5 {kind.value.ru} поворот на {turn.value.ru}", state), rules
            )
            text = explanation_html(res.explanation, lang)
        out.value = reach_html(state, ref, rules, mode.value) + text

    for c in (kind, relief, river, road, mode, turn):
        c.observe(show, names="value")
    show()
    return w.VBox([w.HBox([kind, relief]), w.HBox([river, road]), mode, turn, out])


def battle_setup(
    attackers: list[str],
    defenders: list[str],
    relief: str = "plain",
    level: int = 2,
    support: str = "",
) -> tuple[GameState, str]:
    """A battle on the small map: attackers (notation, beside 8,5) against the defenders in 9,5."""
    b = ScenarioBuilder.blank(16, 9).state("R", "Красные", "red", lon=(1, 8))
    b = b.state("B", "Синие", "blue", lon=(9, 16))
    if relief != "plain":
        b = b.paint(relief, lon=9, lat=5)
    spots = ["8,5", "8,4", "8,6", "9,4", "9,6"]
    placed = [f"{a} - {spots[i]} фронтом на восток" for i, a in enumerate(attackers)]
    if support:
        placed.append(f"{support} - 7,5 фронтом на восток")
    b = b.place("R", *placed)
    b = b.place(
        "B",
        *(
            f"{d} - {c} фронтом на запад"
            for d, c in zip(defenders, ["9,5", "10,5", "10,4"], strict=False)
        ),
    )
    state = initial_state(b.build(), level)
    first = " , ".join(attackers).replace(" , ", ", ")
    order = f"удар по 9,5: {first}" + (f" при поддержке {support}" if support else "")
    if len(defenders) > 1:
        order += f" // оборона: {defenders[0]}; {', '.join(defenders[1:])}"
    return state, order


def battle_workbench(lang: Lang = "ru", level: int = 2) -> w.VBox:
    """Attackers, defenders, ground, echelons, support: the battle's breakdown, live."""
    kinds = [k.ru for k in DivisionKind if k not in (DivisionKind.FORTRESS,)]
    att = [
        w.Dropdown(options=["—", *kinds], value=v, description=f"удар {i + 1}")
        for i, v in enumerate(("т.д.", "с.д.", "—"))
    ]
    dfd = [
        w.Dropdown(options=["—", *kinds], value=v, description=f"оборона {i + 1}")
        for i, v in enumerate(("с.д.", "—"))
    ]
    relief = w.Dropdown(
        options=["plain", "forest", "hills", "swamp", "mountains"], description="местность"
    )
    support = w.Dropdown(options=["—", "а.д.", "с.д."], description="поддержка")
    out = w.HTML()

    def show(*_: Any) -> None:
        rules = load_ruleset(level=level)
        attackers = [f"{i + 1} {d.value}" for i, d in enumerate(att) if d.value != "—"]
        defenders = [f"{101 + i} {d.value}" for i, d in enumerate(dfd) if d.value != "—"]
        if not attackers or not defenders:
            out.value = "—"
            return
        sup = f"50 {support.value}" if support.value != "—" else ""
        state, order = battle_setup(attackers, defenders, relief.value, level, sup)
        _after, res = apply(state, parse_order(order, state), rules)
        out.value = (
            f"<code>{html.escape(order)}</code><p><b>{html.escape(res.outcome(lang))}</b></p>"
            + explanation_html(res.explanation, lang)
        )

    for c in (*att, *dfd, relief, support):
        c.observe(show, names="value")
    show()
    return w.VBox([w.HBox(att), w.HBox(dfd), w.HBox([relief, support]), out])


def outcome_by_ratio(ratios: list[float], level: int = 2) -> list[tuple[float, float, float]]:
    """(force ratio, attacker's loss share, defender's loss share) for с.д. against one с.д.,
    the attackers' strength scaled to the ratio (the reconstructed loss rule, engine's numbers)."""
    rules = load_ruleset(level=level)
    out = []
    for ratio in ratios:
        n = max(1, int(ratio + 0.999))
        state, order = battle_setup([f"{i + 1} с.д." for i in range(n)], ["101 с.д."], level=level)
        units = [state.unit(UnitRef.parse(f"{i + 1} с.д.")) for i in range(n)]
        scaled = [replace(u, division=u.division.with_strengths(ratio / n)) for u in units]
        state = state.with_units(scaled)
        after, _ = apply(state, parse_order(order, state), rules)
        a_loss = (
            1
            - sum(after.units[u.ref].division.strength for u in units if u.ref in after.units)
            / ratio
        )
        d = after.units.get(UnitRef.parse("101 с.д."))
        out.append((ratio, round(a_loss, 4), round(1 - (d.division.strength if d else 0.0), 4)))
    return out


def scratch_dir() -> Path:
    return Path(tempfile.mkdtemp(prefix="strategia-"))
