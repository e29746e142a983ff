"""Regrouping orders (4.10, 4.11): divisions formed into a corps or merged, regiments and
divisions passed to another command.

`N KIND` is the N-th regiment of that kind, `полк N` the N-th of all. Under 4.11 the regiment
(division) leaves its old command at once, the old division busy for the turn out; the new one
(the division itself) is busy until the turn in is served too. The work finishes in
`strategia.engine.regroup_done`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from strategia.core.i18n import Text
from strategia.core.numbers import divisions, num, turns
from strategia.engine.cards import (
    EPS,
    WHAT,
    Done,
    Plan,
    Why,
    begin,
    busy_why,
    card_length,
    card_why,
    cut_order,
    inactive_why,
    named_units,
    pair_length,
    started,
    unit_names,
    why_if,
)
from strategia.engine.result import OrderError
from strategia.engine.state import Busy, GameState, UnitState
from strategia.explain.trace import Trace, explain, record
from strategia.notation.orders import FormCorps, Merge, TransferDivision, TransferRegiment
from strategia.notation.refs import UnitRef
from strategia.rules import RuleSet
from strategia.rules.english import en


def regroup(state: GameState, order: FormCorps | Merge, rules: RuleSet) -> Done:
    """Forming a corps of divisions on one corps card, or merging weakened divisions of one type
    on a 1x2 card, 1 to 1.5 divisions together, into one of them: 3 turns (4.10)."""
    units = named_units(state, (order.unit, *order.others), order)
    if isinstance(order, Merge) and (order.into not in (u.ref for u in units) or len(units) < 2):
        raise OrderError(
            en(f"{order.format('en')}: merge two or more divisions into one of them"),
            ru=f"{order}: сливаются две дивизии или больше, в одну из них",
        )
    names, forming = unit_names(u.ref for u in units), isinstance(order, FormCorps)
    what_en, what_ru = (
        ("forming a corps", "сведение в корпус") if forming else ("merging", "слияние")
    )
    with explain(Text(en(f"{names}: {what_en}"), f"{names}: {what_ru}"), rule="4.10") as ex:
        why = inactive_why(rules, "4.10") or busy_why(units)
        if isinstance(order, FormCorps):
            why = why or card_why(units, card_length(len(units), rules), "4.9")
            plans: list[Plan] = [("corps", str(order.corps))] * len(units)
        else:
            kinds = len({u.division.kind for u in units})
            mixed = why_if(
                kinds > 1, en(f"{names}: not of one type"), f"{names}: разного типа", "4.10"
            )
            why = (
                why
                or mixed
                or card_why(units, pair_length(rules), "4.10")
                or _strength(units, rules)
            )
            others = tuple(str(u.ref) for u in units if u.ref != order.into)
            plans = [
                ("merge", *others) if u.ref == order.into else ("merge-into", str(order.into))
                for u in units
            ]
        if why:
            return cut_order(state, order, ex, units, why)
        cost = float(
            rules.value("regrouping", "divisions_to_corps" if forming else "merge_weakened")
        )
        new, rest = begin(units, cost, plans, "4.10", rules)
        outcome = Text(
            en(f"{names}: {what_en}, {turns(rest)} more"),
            f"{names}: {what_ru}, еще {turns(rest, 'ru')}",
        )
        return started(state.with_units(new), order, ex, cost, outcome)


def _strength(units: Sequence[UnitState], rules: RuleSet) -> Why:
    for u in units:
        label = Text(en(f"{u.ref}: strength"), f"{u.ref}: численность")
        record(label, u.division.strength, unit="div", rule="4.10")
    total = round(sum(u.division.strength for u in units), 9)
    lo, hi = (float(rules.value("regrouping", k)) for k in ("merge_min", "merge_max"))
    record(Text("together", "вместе"), total, unit="div", rule="4.10")
    why_en = f"together {divisions(total)}: a merge needs {num(lo)} to {num(hi)}"
    why_ru = (
        f"вместе {divisions(total, 'ru')}: для слияния нужно от {num(lo, 'ru')} до {num(hi, 'ru')}"
    )
    return why_if(not lo - EPS <= total <= hi + EPS, why_en, why_ru, "4.10")


def transfer_regiment(state: GameState, order: TransferRegiment, rules: RuleSet) -> Done:
    """A regiment leaves its division in 1 turn and joins the next one in 1 more (4.11)."""
    giver, receiver = named_units(state, (order.unit, order.to), order)
    which, g, r = order.which(), giver.ref, receiver.ref
    with explain(Text(en(f"{g}: {which} to {r}"), f"{g}: {which} в {r}"), rule="4.11") as ex:
        places = [i for i, x in enumerate(giver.division.regiments) if order.kind in (None, x.kind)]
        why = inactive_why(rules, "4.11") or busy_why((giver, receiver))
        why = why or why_if(
            order.regiment > len(places), en(f"{g} has no {which}"), f"у {g} нет {which}", "4.11"
        )
        if why:
            return cut_order(state, order, ex, (giver, receiver), why)
        if card_why((giver, receiver), pair_length(rules), "4.11"):
            return _detach(state, order, giver, places[order.regiment - 1], rules, ex)
        out = float(rules.value("regrouping", "transfer_out"))
        cost = out + float(rules.value("regrouping", "transfer_in"))
        i, d, n = places[order.regiment - 1], giver.division, len(giver.division.line)
        reg, rest, part = d.regiments[i], d.regiments[:i] + d.regiments[i + 1 :], i < n
        n -= part
        d = replace(d, line=rest[:n], arm=rest[n:])
        [new], _ = begin(
            [replace(giver, division=d)], out, [("regiment-out", str(r))], "4.11", rules
        )
        plan = ("regiment-in", str(g), reg.kind.key, reg.strength, "line" if part else "arm")
        busy = Busy(WHAT, max(cost - giver.left, 0.0), plan=plan)
        waits = replace(receiver, spent=1.0, busy=busy)
        text = Text(
            en(f"{reg.kind.en} ({num(reg.strength)}) leaves {g}"), f"{reg.kind.ru} выведен из {g}"
        )
        if not d.regiments:
            text = Text(
                en(f"{text.en}; {g} has no regiments left"), f"{text.ru}; {g} расформирована"
            )
        record(text, None, kind="note", rule="4.11")
        gone = [] if d.regiments else [g]
        state = state.with_units([waits] if gone else [waits, new], gone)
        return started(state, order, ex, cost, text)


def _detach(
    state: GameState, order: TransferRegiment, giver: UnitState, i: int, rules: RuleSet, ex: Trace
) -> Done:
    """4.11 with a march: the regiment leaves its division as a counter of its own (1 turn), then
    marches to the new division and joins it (1 turn more)."""
    d = giver.division
    reg = d.regiments[i]
    n = 1 + sum(1 for r in d.regiments[:i] if r.kind is reg.kind)
    part = replace(giver, ref=UnitRef(d.number, d.kind, (n, reg.kind)), division=d.part((i,)))
    part = replace(part, cells=giver.cells[:1], corps=None)
    rest = d.regiments[:i] + d.regiments[i + 1 :]
    k = len(d.line) - (i < len(d.line))
    left = replace(giver, division=replace(d, line=rest[:k], arm=rest[k:]))
    out = float(rules.value("regrouping", "transfer_out"))
    plan = ("regiment-march", str(order.to))
    [part], _ = begin([part], out, [plan], "4.11", rules)
    if part.busy is None:  # out within this turn: the march begins with the next
        part = replace(part, busy=Busy(WHAT, 0.0, plan=plan))
    text = Text(
        en(f"{part.ref} leaves {giver.ref} to march to {order.to} (4.8)"),
        f"{part.ref} выводится из {giver.ref} для марша к {order.to} (4.8)",
    )
    record(text, None, kind="note", rule="4.11")
    gone = [] if left.division.regiments else [giver.ref]
    state = state.with_units([part] if gone else [part, left], gone)
    return started(state, order, ex, out, text)


def transfer_division(state: GameState, order: TransferDivision, rules: RuleSet) -> Done:
    """A division leaves its corps in 1 turn, marches to the new corps' card if it is not on
    it, and joins it in 1 more turn (4.11)."""
    [u] = named_units(state, (order.division,), order)
    members, old, to = [x for x in state if x.corps == order.to], order.unit, order.to
    if to == old or any(state.side_of(x.ref) != state.side_of(u.ref) for x in members):
        raise OrderError(
            en(f"{order.format('en')}: {to} is not another corps of the same side"),
            ru=f"{order}: {to} — не другой корпус той же стороны",
        )
    with explain(Text(en(f"{old}: {u.ref} to {to}"), f"{old}: {u.ref} в {to}"), rule="4.11") as ex:
        why = inactive_why(rules, "4.11") or busy_why([u])
        why = why or why_if(
            u.corps != old, en(f"{u.ref} is not in {old}"), f"{u.ref} не в {old}", "4.11"
        )
        if why := why or why_if(
            not members, en(f"{to} has no divisions"), f"в {to} нет дивизий", "4.11"
        ):
            return cut_order(state, order, ex, [u], why)
        cost = float(rules.value("regrouping", "transfer_out"))
        plan = ("division", str(to))
        [new], _ = begin([replace(u, corps=None)], cost, [plan], "4.11", rules)
        if new.busy is None:  # out within this turn: what follows begins with the next
            new = replace(new, busy=Busy(WHAT, 0.0, plan=plan))
        note = Text(en(f"{u.ref} out of {old}"), f"{u.ref} выведена из {old}")
        record(note, None, kind="note", rule="4.11")
        return started(state.with_units([new]), order, ex, cost, Text(en(f"{u.ref}: {old} → {to}")))
