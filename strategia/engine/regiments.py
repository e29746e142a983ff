"""Below the division (4.9-4.11): a division parted into its regiments, regiments brought into a
division, and the march a regiment or a division makes between two commands.

Regiments on the map are counters of their own, named after their division: `2 с.п. 17 с.д.`
(the division's second rifle regiment). Each keeps its strength and its share of the whole
division (`Division.size`), so its rating and its weight in the balance of forces are a
regiment's. 4.11: «1 turn to leave the old command, then (where needed) a march (4.8), and 1
more to join the new one»: a regiment or division not on one card with its new command leaves,
marches there by road, recovers from the march (4.8) and joins.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from strategia.core.geometry import Cell
from strategia.core.i18n import Text
from strategia.core.numbers import turns
from strategia.engine.capability import at_work
from strategia.engine.cards import (
    WHAT,
    Done,
    begin,
    busy_why,
    card_why,
    cut_order,
    fits,
    named_units,
    pair_length,
    started,
    unit_names,
    why_if,
)
from strategia.engine.columns import march
from strategia.engine.state import Busy, GameState, UnitState
from strategia.explain.trace import explain, record
from strategia.notation.orders import FormDivision, March, SplitDivision
from strategia.notation.refs import UnitRef
from strategia.rules import RuleSet
from strategia.rules.english import en
from strategia.rules.units import Division


def regiment_units(u: UnitState) -> list[UnitState]:
    """A division's regiments as counters of their own, on its cells (the first half on its
    first cell, the rest on its second), facing as it faced."""
    d = u.division
    regs = d.regiments
    seen: dict[Any, int] = {}
    out = []
    for i, reg in enumerate(regs):
        seen[reg.kind] = seen.get(reg.kind, 0) + 1
        ref = UnitRef(d.number, d.kind, (seen[reg.kind], reg.kind))
        cell = u.cells[0] if len(u.cells) == 1 or i < (len(regs) + 1) // 2 else u.cells[1]
        out.append(replace(u, ref=ref, division=d.part((i,)), cells=(cell,), corps=None))
    return out


def split(state: GameState, order: SplitDivision, rules: RuleSet) -> Done:
    """A division parts into its regiments (4.9, level 3: the rule data says when and how
    long): each becomes a counter of its own on the division's cells."""
    [u] = named_units(state, (order.unit,), order)
    title = Text(en(f"{u.ref}: split into regiments"), f"{u.ref}: разделение на полки")
    with explain(title, rule="4.9") as ex:
        why = _level(rules, "split_turns", "4.9") or busy_why([u])
        why = why or why_if(
            len(u.division.regiments) < 2,
            en(f"{u.ref} has one regiment"),
            f"у {u.ref} один полк",
            "4.9",
        )
        if why:
            return cut_order(state, order, ex, [u], why)
        cost = float(rules.value("regrouping", "split_turns"))
        parts = [replace(r, spent=min(1.0, u.spent + cost)) for r in regiment_units(u)]
        names = unit_names(p.ref for p in parts)
        record(Text(en(f"now on the map: {names}"), f"теперь на карте: {names}"), None, kind="note")
        state = state.with_units(parts, [u.ref])
        return started(state, order, ex, cost, Text(en(names), names))


def form_division(state: GameState, order: FormDivision, rules: RuleSet) -> Done:
    """Regiments within a 1x2 card brought into a division in 2 turns (4.10): not combat-capable
    meanwhile (9.17, as for every regrouping); the division takes the regiments' strengths."""
    refs = (order.unit, *order.others)
    units = named_units(state, refs, order)
    names = unit_names(refs)
    into = order.division
    title = Text(en(f"{names} into {into}"), f"{names}: сведение в {into}")
    with explain(title, rule="4.10") as ex:
        taken = into in state.units and into not in refs
        kinds = {u.division.kind for u in units}
        why = _level(rules, "regiments_to_division", "4.10") or busy_why(units)
        why = why or why_if(
            taken, en(f"{into} is on the map already"), f"{into} уже на карте", "4.10"
        )
        why = why or why_if(
            kinds != {into.kind},
            en(f"{names}: regiments of {into.kind.ru if into.kind else '?'} divisions are needed"),
            f"{names}: нужны полки {into.kind.ru if into.kind else '?'}",
            "4.10",
        )
        why = why or card_why(units, pair_length(rules), "4.10")
        if why:
            return cut_order(state, order, ex, units, why)
        cost = float(rules.value("regrouping", "regiments_to_division"))
        plans = [("form-division", str(into), *map(str, refs))] + [
            ("form-division-into", str(into))
        ] * (len(units) - 1)
        new, rest = begin(units, cost, plans, "4.10", rules)
        outcome = Text(
            en(f"{names} → {into}, {turns(rest)} more"),
            f"{names} → {into}, еще {turns(rest, 'ru')}",
        )
        return started(state.with_units(new), order, ex, cost, outcome)


def _level(rules: RuleSet, param: str, rule: str) -> tuple[Text, str] | None:
    p = rules.param("regrouping", param)
    en, ru = f"{rule} is a level-{p.level} rule", f"{rule} — правило {p.level} уровня"
    return why_if(p.level > rules.level, en, ru, rule)


def formed(
    state: GameState, ref: UnitRef, plan: tuple[Any, ...], rules: RuleSet
) -> tuple[GameState, Text]:
    """The regiments' work is done: one division of them, on the leading regiment's card."""
    into = UnitRef.parse(plan[1])
    regs = [state.units[r] for r in map(UnitRef.parse, plan[2:]) if r in state.units]
    if not regs:
        return state, Text(
            en(f"{into}: no regiment is left to form it"), f"{into}: полков не осталось"
        )
    lead = regs[0]
    assert isinstance(into.kind, type(lead.division.kind))
    line = tuple(r for u in regs for r in u.division.line)
    arm = tuple(r for u in regs for r in u.division.arm)
    size = max(u.division.size or len(u.division.regiments) for u in regs)
    division = Division(into.number, lead.division.kind, line, arm, size)
    cells = tuple(dict.fromkeys(c for u in regs for c in u.cells))[:2]
    unit = replace(lead, ref=into, division=division, cells=cells, busy=None, combat_capable=True)
    text = Text(
        en(f"{into} formed of {unit_names(u.ref for u in regs)}"),
        f"{into} сведена из {unit_names(u.ref for u in regs)}",
    )
    record(text, None, kind="note", rule="4.10")
    return state.with_units([unit], [u.ref for u in regs]), text


def march_to_join(
    state: GameState,
    ref: UnitRef,
    near: list[UnitState],
    card: int,
    then: tuple[Any, ...],
    rules: RuleSet,
) -> tuple[GameState, Text]:
    """4.11's march: `ref` marches by road to the free cell nearest it from which it stands on
    one 1x`card` card with `near`, and then does the work `then` (joining). If no march can be
    made, it stays where it is, with the reason."""
    u = state.unit(ref)
    here = {c for x in near for c in x.cells}
    spots = sorted(
        (
            Cell(c.lon + dx, c.lat + dy)
            for c in here
            for dx in (-1, 0, 1)
            for dy in (-1, 0, 1)
            if (dx, dy) != (0, 0)
        ),
        key=lambda c: (c.km(u.cell), c.lon, c.lat),
    )
    free = [
        c
        for c in dict.fromkeys(spots)
        if c not in here and not state.occupants(c) and fits([*here, c], card)
    ]
    if u.ref.echelon == "regiment" and near:
        free = [near[0].cell, *free]  # a regiment may join its new division's own cell (4.12)
    for spot in free:
        if spot == u.cell:  # in place already: it joins at once
            work = Busy(str(then[0]), float(then[1]), plan=tuple(then[2:]))
            return state.with_units([at_work(u, work, rules)]), Text(en(f"{ref}: {spot}"))
        moved, r = march(state, March(ref, spot), rules)
        busy = moved.unit(ref).busy
        if r.cuts or busy is None or busy.what not in ("march", "recovering"):
            continue
        state = moved.with_units([replace(moved.unit(ref), busy=replace(busy, then=then))])
        text = Text(en(f"{ref} marches to {spot} (4.8)"), f"{ref} на марше в {spot} (4.8)")
        record(text, None, kind="note", rule="4.11")
        return state, text
    text = Text(
        en(
            f"{ref} cannot march to {unit_names(x.ref for x in near)}: no road; it stays at "
            f"{u.cell}"
        ),
        f"{ref} не может пройти маршем к {unit_names(x.ref for x in near)}: нет дороги; "
        f"остается в {u.cell}",
    )
    record(text, None, kind="cut", rule="4.11")
    return state, text


__all__ = ["WHAT", "form_division", "formed", "march_to_join", "regiment_units", "split"]
