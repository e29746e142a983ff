"""Finishing regrouping work whose time has run out (4.10, 4.11), and the corps check (4.9)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from strategia.core.i18n import Text
from strategia.core.numbers import num, turns
from strategia.engine.capability import at_work
from strategia.engine.cards import EPS, WHAT, Plan, card_length, card_why, pair_length, unit_names
from strategia.engine.regiments import formed, march_to_join
from strategia.engine.result import Result
from strategia.engine.state import Busy, GameState, UnitState
from strategia.explain.trace import explain, record
from strategia.notation.refs import UnitRef
from strategia.rules import RuleSet
from strategia.rules.english import en
from strategia.rules.kinds import RegimentKind
from strategia.rules.units import Division, Regiment
from strategia.theatre import terrain


def _fill(strengths: list[float], pool: float) -> tuple[list[float], float]:
    """The strengths topped up from `pool`, weakest first, each to at most 1.0; and what is left."""
    room = sum(1.0 - s for s in strengths)
    if pool >= room - EPS:
        return [1.0] * len(strengths), round(max(pool - room, 0.0), 9)
    low, level = sorted(strengths), 1.0
    for k in range(1, len(low) + 1):
        level = (pool + sum(low[:k])) / k
        if k == len(low) or level <= low[k]:
            break
    return [round(max(s, level), 9) for s in strengths], 0.0


def _pool(target: Division, others: Sequence[Division]) -> Division:
    """The target with the others' strengths pooled into its regiments of the same kind."""
    regs = list(target.regiments)
    for kind in dict.fromkeys(r.kind for d in others for r in d.regiments):
        pool = round(sum(r.strength for d in others for r in d.regiments if r.kind == kind), 9)
        idx = [i for i, r in enumerate(regs) if r.kind == kind]
        filled, lost = _fill([regs[i].strength for i in idx], pool) if idx else ([], pool)
        for i, s in zip(idx, filled, strict=True):
            regs[i] = replace(regs[i], strength=s)
        now = ", ".join(f"{num(s)}" for s in filled) or "—"
        now_ru = ", ".join(f"{num(s, 'ru')}" for s in filled) or "—"
        pooled = Text(
            en(f"{kind.en} pooled into {target}: now {now}"),
            f"{kind.ru} в {target}: теперь {now_ru}",
        )
        record(pooled, pool, unit="regt", rule="4.10")
        if lost > EPS:
            why = ("to the cap", "сверх полной") if idx else (f"{target} has none", "нет в дивизии")
            label = Text(en(f"{kind.en}: lost {why[0]}"), f"{kind.ru}: потеряно, {why[1]}")
            record(label, lost, unit="regt", rule="4.10")
    return target.with_strengths(tuple(r.strength for r in regs))


def _enter(state: GameState, ref: UnitRef, plan: Plan, rules: RuleSet) -> tuple[GameState, Text]:
    corps = UnitRef.parse(plan[1])
    record(Text(en(f"{ref} in {corps}"), f"{ref} в {corps}"), None, kind="note", rule="4.10")
    return state.with_units([replace(state.unit(ref), corps=corps)]), Text(en(f"{ref}: {corps}"))


def _follow(state: GameState, ref: UnitRef, cost: float, plan: Plan, rules: RuleSet) -> GameState:
    """Work that follows at the start of a turn: what the turn's time does not cover is left."""
    u = state.unit(ref)
    rest = round(max(cost - u.left, 0.0), 9)
    return state.with_units([at_work(replace(u, spent=1.0), Busy(WHAT, rest, plan=plan), rules)])


def out_of_corps(
    state: GameState, ref: UnitRef, plan: Plan, rules: RuleSet
) -> tuple[GameState, Text]:
    """A division out of its old corps (4.11): it takes a turn to join the new one if it stands
    on its card, else it marches there first («then, where needed, a march (4.8)»)."""
    u, corps = state.unit(ref), UnitRef.parse(plan[1])
    members = [x for x in state if x.corps == corps and x.ref != ref]
    card = card_length(len(members) + 1, rules)
    cost = float(rules.value("regrouping", "transfer_in"))
    if members and not card_why([*members, u], card, "4.11"):
        text = Text(
            en(f"{ref} joins {corps}: {turns(cost)}"),
            f"{ref} включается в {corps}: {turns(cost, 'ru')}",
        )
        return _follow(state, ref, cost, ("division-in", str(corps)), rules), text
    if members:
        then = (WHAT, cost, "division-in", str(corps))
        return march_to_join(state, ref, members, card, then, rules)
    return join_corps(state, ref, plan, rules)


def join_corps(
    state: GameState, ref: UnitRef, plan: Plan, rules: RuleSet
) -> tuple[GameState, Text]:
    """The division joins its new corps if it stands on its card; else it stays separate."""
    u, corps = state.unit(ref), UnitRef.parse(plan[1])
    members = [x for x in state if x.corps == corps and x.ref != ref]
    card = card_length(len(members) + 1, rules)
    if members and not card_why([*members, u], card, "4.11"):
        return _enter(state, ref, plan, rules)
    text = Text(
        en(f"{ref} does not fit {corps}'s card: it stays separate"),
        f"{ref} не помещается на карточку {corps}: остается отдельной",
    )
    record(text, None, kind="note", rule="4.11")
    return state, text


def _regiment_march(
    state: GameState, ref: UnitRef, plan: Plan, rules: RuleSet
) -> tuple[GameState, Text]:
    """A regiment out of its division marches to its new one (4.11) to join it."""
    to = UnitRef.parse(plan[1])
    if to not in state.units:
        return state, Text(en(f"{to} is gone: {ref} stays"), f"{to} нет: {ref} остается")
    then = (WHAT, float(rules.value("regrouping", "transfer_in")), "regiment-join", str(to))
    return march_to_join(state, ref, [state.unit(to)], pair_length(rules), then, rules)


def _regiment_joins(
    state: GameState, ref: UnitRef, plan: Plan, rules: RuleSet
) -> tuple[GameState, Text]:
    """The regiment, arrived, is taken into its new division (4.11)."""
    to = UnitRef.parse(plan[1])
    reg_unit = state.unit(ref)
    if to not in state.units:
        return state, Text(en(f"{to} is gone: {ref} stays"), f"{to} нет: {ref} остается")
    u = state.unit(to)
    d, part = u.division, reg_unit.division
    d = replace(d, line=(*d.line, *part.line), arm=(*d.arm, *part.arm))
    text = Text(en(f"{ref} joins {to}"), f"{ref} включен в {to}")
    record(text, None, kind="note", rule="4.11")
    return state.with_units([replace(u, division=d)], [ref]), text


def _attach(state: GameState, ref: UnitRef, plan: Plan, rules: RuleSet) -> tuple[GameState, Text]:
    u, reg = state.unit(ref), Regiment(RegimentKind.from_key(plan[2]), float(plan[3]))
    d = u.division
    d = replace(d, line=(*d.line, reg)) if plan[4] == "line" else replace(d, arm=(*d.arm, reg))
    text = Text(
        en(f"{reg.kind.ru} ({num(reg.strength)}) joins {ref}"), f"{reg.kind.ru} включен в {ref}"
    )
    record(text, None, kind="note", rule="4.11")
    return state.with_units([replace(u, division=d)]), text


def _merged(state: GameState, ref: UnitRef, plan: Plan, rules: RuleSet) -> tuple[GameState, Text]:
    target = state.unit(ref)
    there = [state.units[o] for o in map(UnitRef.parse, plan[1:]) if o in state.units]
    division = _pool(target.division, [o.division for o in there])
    gone = unit_names(u.ref for u in there)
    text = Text(
        en(f"{ref}: strength {num(division.strength)}; {gone} leave the map"),
        f"{ref}: численность {num(division.strength, 'ru')}; {gone} сняты с карты",
    )
    return state.with_units([replace(target, division=division)], [o.ref for o in there]), text


_FINISH = {
    "corps": _enter,
    "merge": _merged,
    "regiment-in": _attach,
    "division": out_of_corps,
    "division-in": join_corps,
    "form-division": formed,
    "regiment-march": _regiment_march,
    "regiment-join": _regiment_joins,
}


def corps_check(state: GameState, rules: RuleSet) -> tuple[GameState, list[Text]]:
    """4.9 (level 2): a corps whose divisions do not fit on its card loses them; they become
    separate. A corps filing through a narrow (4.7) keeps its column. Nothing at level 1."""
    if not rules.active("regrouping"):
        return state, []
    corps: dict[UnitRef, list[UnitState]] = {}
    for u in state:
        if u.corps is not None:
            corps.setdefault(u.corps, []).append(u)
    changed: list[UnitState] = []
    notes: list[Text] = []
    narrow = state.grid.narrows
    for ref, members in corps.items():
        strung = all(narrow[terrain.index(state.theatre, c)] for u in members for c in u.cells)
        if card_why(members, card_length(len(members), rules), "4.9", column=strung):
            changed += [replace(u, corps=None) for u in members]
            names = unit_names(u.ref for u in members)
            lost = en(f"{ref} does not fit its card: {names} lose corps subordination")
            notes.append(Text(lost, f"{ref} не помещается на карточку: {names} вне корпуса"))
            record(notes[-1], None, kind="note", rule="4.9")
    return state.with_units(changed), notes


def complete(
    state: GameState, rules: RuleSet, before: GameState | None = None
) -> tuple[GameState, list[Result]]:
    """Finish the regrouping work whose time has run out, then check the corps (4.9).

    `advance` passes the state it advanced as `before`: the work it has just cleared (its last
    turn over) is finished here."""
    ending: dict[UnitRef, Busy] = {}
    for u in state:
        b = u.busy or (p.busy if before and (p := before.units.get(u.ref)) else None)
        if b is not None and b.what == WHAT and u.busy is None:
            ending[u.ref] = b
    before_side = {r: state.side_of(r) for r in ending}
    state = state.with_units([at_work(state.unit(r), None, rules) for r in ending])
    results: list[Result] = []
    for ref, b in ending.items():
        if (finish := _FINISH.get(b.plan[0])) is None or ref not in state.units:
            continue
        rule = "4.10" if b.plan[0] in ("corps", "merge", "form-division") else "4.11"
        done = Text(en(f"{ref}: regrouping done"), f"{ref}: переформирование закончено")
        with explain(done, rule=rule) as ex:
            state, outcome = finish(state, ref, b.plan, rules)
        by = state.side_of(ref) if ref in state.units else before_side.get(ref, "")
        results.append(Result(f"{ref} ({b.label.ru})", outcome, ex.freeze(), by=by))
    with explain(Text("Corps cards", "Карточки корпусов"), rule="4.9") as ex:
        state, notes = corps_check(state, rules)
    if notes:
        outcome = Text("; ".join(n.en for n in notes), "; ".join(n.ru for n in notes))
        results.append(Result("(карточки корпусов, 4.9)", outcome, ex.freeze()))  # mediator's note
    return state, results
