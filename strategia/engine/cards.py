"""Regrouping's cards, clocks and conditions (4.9-4.11), shared by its orders and their finish.

Readings: a card is a strip one cell wide along a grid line: 1x2 for a division (4.9: regiments
at most split_distance_km apart), 1xL for a corps with L from [narrows] (the longest listed for
more divisions). Work is a Busy("regrouping", plan=...) on the engine's clock (as turning, 4.3),
for all its divisions from when the last is free; `advance` clears it, `regroup_done.complete`
applies the effect. 4.10 leaves divisions not combat-capable meanwhile (9.17).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from strategia.core.geometry import Cell
from strategia.core.i18n import Lang, Text
from strategia.core.numbers import cells_list, turns
from strategia.engine import capability
from strategia.engine.result import Cut, OrderError, Result
from strategia.engine.state import Busy, GameState, UnitState
from strategia.explain.trace import Trace, record
from strategia.notation.orders import Order
from strategia.notation.refs import Placement, UnitRef
from strategia.rules import RuleSet
from strategia.rules.english import en

WHAT = "regrouping"
EPS = 1e-9
Why = tuple[Text, str] | None  # why an order is cut, and the rule
Done = tuple[GameState, Result]
Plan = tuple[Any, ...]


def unit_names(refs: Iterable[UnitRef], lang: Lang = "ru") -> str:
    return ", ".join(r.format(lang) for r in refs)


def fits(cells: Iterable[Cell], length: int, column: bool = False) -> bool:
    """Whether the cells lie on one card: a strip one cell wide and `length` long along a grid
    line; with `column`, also a column of at most `length` cells each beside the next (a corps
    strung out along a road or trail through a narrow, 4.7)."""
    cs = set(cells)
    lons, lats = {c.lon for c in cs}, {c.lat for c in cs}
    if len(lons) <= 1:
        return not lats or max(lats) - min(lats) < length
    if len(lats) == 1:
        return max(lons) - min(lons) < length
    return column and len(cs) <= length and _chain(cs)


def _chain(cs: set[Cell]) -> bool:
    """Whether the cells form one unbranched line of neighbours."""
    near = {c: [d for d in cs if d != c and c.chebyshev(d) == 1] for c in cs}
    if any(len(n) > 2 for n in near.values()):
        return False
    seen, todo = set(), [next(iter(cs))]
    while todo:
        c = todo.pop()
        if c not in seen:
            seen.add(c)
            todo += near[c]
    return seen == cs and sum(len(n) == 1 for n in near.values()) == 2


def card_length(n: int, rules: RuleSet) -> int:
    """The corps card's length for `n` divisions ([narrows]; the longest listed beyond)."""
    rows = rules.entry("narrows").rows
    k = max([i for i in range(1, n + 1) if f"corps_length_{i}" in rows] or [1])
    return int(rules.value("narrows", f"corps_length_{k}"))


def pair_length(rules: RuleSet) -> int:
    """The division's 1x2 card in cells: regiments at most split_distance_km apart (4.9)."""
    km = float(rules.value("regrouping", "split_distance_km"))
    return 1 + int(km / float(rules.value("scale", "cell_km")) + EPS)


def card_why(
    units: Sequence[UnitState], length: int, rule: str, march: bool = False, column: bool = False
) -> Why:
    """Why the units are not on one 1x`length` card (None if they are), recorded."""
    cells = sorted({c for u in units for c in u.cells})
    ok = fits(cells, length, column)
    at, at_ru = cells_list(cells), cells_list(cells, "ru")
    names = unit_names(u.ref for u in units)
    record(
        Text(en(f"{at} on one 1x{length} card"), f"{at_ru} на карточке 1*{length}"), ok, rule=rule
    )
    why_en = en(f"{names} at {at}: not within 1x{length}")
    why_ru = f"{names} в {at_ru}: не в 1*{length}"
    if march:
        why_en += "; a march (4.8) is needed, which the engine does not make for a regiment"
        why_ru += "; нужен марш (4.8), который для полка не выполняется"
    return None if ok else (Text(why_en, why_ru), rule)


def why_if(cond: bool, en: str, ru: str, rule: str) -> Why:
    return (Text(en, ru), rule) if cond else None


def inactive_why(rules: RuleSet, rule: str) -> Why:
    row = "transfer_out" if rule == "4.11" else None
    level = rules.param("regrouping", row).level if row else rules.entry("regrouping").level
    en, ru = f"{rule} is a level-{level} rule", f"{rule} — правило {level} уровня"
    return why_if(not rules.active("regrouping", row), en, ru, rule)


def busy_why(units: Iterable[UnitState]) -> Why:
    u = next((u for u in units if u.busy is not None), None)
    if u is None or u.busy is None:
        return None
    b = u.busy
    busy_en = en(f"busy: {u.ref} ({b.label.en}, {turns(b.left)} left)")
    return why_if(
        True, busy_en, f"занята: {u.ref} ({b.label.ru}, осталось {turns(b.left, 'ru')})", "9.3"
    )


def begin(
    units: Sequence[UnitState], cost: float, plans: Sequence[Plan], rule: str, rules: RuleSet
) -> tuple[list[UnitState], float]:
    """The units at work on a common clock: busy for what the rest of this turn does not cover;
    not combat-capable while regrouping (4.10), as the rule data says (9.17)."""
    left = min(u.left for u in units)
    rest = round(max(cost - left, 0.0), 9)
    record(Text("left of this turn", "остаток хода"), left, unit="turn", rule="4.3")
    record(Text("to do after this turn", "останется после хода"), rest, unit="turn", rule=rule)
    capable = capability.capable(WHAT if rule == "4.10" else "passing", rules)
    if not capable:
        record(Text("not combat-capable", "небоеспособны"), None, kind="note", rule="9.17")
    busy = [Busy(WHAT, rest, plan=p) if rest > EPS else None for p in plans]
    spent = 1.0 if rest > EPS else None
    return [
        replace(
            u,
            spent=spent or min(1.0, u.spent + cost),
            busy=b,
            combat_capable=u.combat_capable and capable,
        )
        for u, b in zip(units, busy, strict=True)
    ], rest


def named_units(state: GameState, refs: Sequence[UnitRef], order: Order) -> list[UnitState]:
    if missing := [r for r in refs if r not in state.units]:
        names = unit_names(missing)
        raise OrderError(
            en(f"{order.format('en')}: {names} not on the map"), ru=f"{order}: {names} нет на карте"
        )
    if len(set(refs)) != len(refs) or len({state.side_of(r) for r in refs}) != 1:
        raise OrderError(
            en(f"{order.format('en')}: the divisions must be different and one side's"),
            ru=f"{order}: дивизии должны быть разными и одной стороны",
        )
    return [state.unit(r) for r in refs]


def cut_order(
    state: GameState, order: Order, ex: Trace, units: Iterable[UnitState], why: Why
) -> Done:
    assert why is not None
    ex.step(why[0], kind="cut", rule=why[1])
    ex.set(0.0)
    cells = [(u.ref, u.cells if fits(u.cells, 2) else u.cells[:1], u.facing) for u in units]
    at = [Placement(*c) for c in cells]
    where = Text("; ".join(p.format("en") for p in at), "; ".join(p.format("ru") for p in at))
    return state, Result(order.format("ru"), where, ex.freeze(), (Cut(*why),))


def started(state: GameState, order: Order, ex: Trace, cost: float, outcome: Text) -> Done:
    ex.set(cost)
    return state, Result(order.format("ru"), outcome, ex.freeze())
