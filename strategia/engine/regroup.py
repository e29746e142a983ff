"""Regrouping (4.9-4.11): corps off their card, divisions formed into a corps or merged, regiments
and divisions passed to another command.

    свести 17 с.д., 18 с.д. в 5 с.к.    form 5 RC from 17 RD, 18 RD      a corps (4.10, 3 turns)
    слить 17 с.д., 18 с.д. в 17 с.д.     merge 17 RD, 18 RD into 17 RD     weakened ones (4.10)
    17 с.д. передать 2 с.п. в 18 с.д.    17 RD pass 2 RR to 18 RD          a regiment (4.11)
    17 с.д. передать полк 4 в 18 с.д.    17 RD pass regiment 4 to 18 RD    ... by its place
    1 с.к. передать 17 с.д. в 2 с.к.     1 RC pass 17 RD to 2 RC           a division (4.11)

Readings: a card is a strip one cell wide along a grid line: 1x2 for a division (4.9: regiments
at most split_distance_km apart), 1xL for a corps with L from [narrows] (the longest listed for
more divisions). `N KIND` is the N-th regiment of that kind, `полк N` the N-th of all. Work is a
Busy("regrouping", plan=...) on the engine's clock (as turning, 4.3), for all its divisions from
when the last is free; `advance` clears it, `complete` applies the effect. Under 4.11 the regiment
(division) leaves its old command at once, the old division busy for the turn out; the new one
(the division itself) is busy until the turn in is served too. 4.10 leaves divisions not
combat-capable meanwhile (9.17).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from strategia.engine.result import Cut, OrderError, Result
from strategia.explain import Trace, explain, record
from strategia.geometry import Cell
from strategia.i18n import Lang, Text
from strategia.notation import IllegalNotationError as Illegal
from strategia.notation import InvalidNotationError as Invalid
from strategia.notation import NotationContext, NotationError, Placement, UnitRef
from strategia.orders import Order
from strategia.rules import RuleSet
from strategia.state import Busy, GameState, UnitState
from strategia.units import Division, Regiment, RegimentKind

WHAT = "regrouping"
EPS = 1e-9
Why = tuple[Text, str] | None  # why an order is cut, and the rule
Done = tuple[GameState, Result]
Plan = tuple[Any, ...]


def _names(refs: Iterable[UnitRef], lang: Lang = "ru") -> str:
    return ", ".join(r.format(lang) for r in refs)


def _pass(giver: UnitRef, what: str, to: UnitRef, lang: Lang) -> str:
    verb, into = ("передать", "в") if lang == "ru" else ("pass", "to")
    return f"{giver.format(lang)} {verb} {what} {into} {to.format(lang)}"


@dataclass(frozen=True, slots=True, repr=False)
class FormCorps(Order):
    """Bring `unit` and `others` together into `corps` (4.10, level 2)."""

    others: tuple[UnitRef, ...]
    corps: UnitRef

    def format(self, lang: Lang = "ru") -> str:
        units, corps = _names((self.unit, *self.others), lang), self.corps.format(lang)
        return f"свести {units} в {corps}" if lang == "ru" else f"form {corps} from {units}"


@dataclass(frozen=True, slots=True, repr=False)
class Merge(Order):
    """Merge weakened divisions, `unit` and `others`, into one of them, `into` (4.10, level 2)."""

    others: tuple[UnitRef, ...]
    into: UnitRef

    def format(self, lang: Lang = "ru") -> str:
        units, into = _names((self.unit, *self.others), lang), self.into.format(lang)
        return f"слить {units} в {into}" if lang == "ru" else f"merge {units} into {into}"


@dataclass(frozen=True, slots=True, repr=False)
class TransferRegiment(Order):
    """Pass the `regiment`-th (from 1) regiment of `kind` (of any kind if None) to division `to`
    (4.11, level 3)."""

    regiment: int
    kind: RegimentKind | None
    to: UnitRef

    def which(self, lang: Lang = "ru") -> str:
        if self.kind is None:
            return f"{'полк' if lang == 'ru' else 'regiment'} {self.regiment}"
        return f"{self.regiment} {self.kind.ru if lang == 'ru' else self.kind.en}"

    def format(self, lang: Lang = "ru") -> str:
        return _pass(self.unit, self.which(lang), self.to, lang)


@dataclass(frozen=True, slots=True, repr=False)
class TransferDivision(Order):
    """Corps `unit` passes `division` to corps `to` (4.11, level 3)."""

    division: UnitRef
    to: UnitRef

    def format(self, lang: Lang = "ru") -> str:
        return _pass(self.unit, self.division.format(lang), self.to, lang)


# --- notation ------------------------------------------------------------------------------------

_VERB = re.compile(r"\s*(свести|form|слить|merge)(?=\s|$)|.*?\s(передать|pass)(?=\s|$)", re.I)
_FORMS = {
    "свести": r"\s*свести\s+(?P<units>.+)\s+во?\s+(?P<corps>.+)",
    "form": r"\s*form\s+(?P<corps>.+?)\s+from\s+(?P<units>.+)",
    "merge": r"\s*(?:слить|merge)\s+(?P<units>.+)\s+(?:во?|into)\s+(?P<into>.+)",
    "pass": r"(?P<unit>.+?)\s+(?:передать|pass)\s+(?P<what>.*?)\s*(?<=\s)(?:во?|to)\s+(?P<to>.+)",
}
_HELP = {
    "свести": "свести <дивизии> в <корпус>",
    "form": "form <corps> from <divisions>",
    "merge": "слить <дивизии> в <дивизию> / merge <divisions> into <division>",
    "pass": "<unit> передать <what> в <unit> / <unit> pass <what> to <unit>",
}
_REGIMENT = re.compile(r"(?:(?:полк|regiment)\s+(?=\d))?(\d*)\s*(.*)", re.I)
_KINDS = "N <type>, <type> or полк N / regiment N; types: " + ", ".join(
    f"{k.ru}/{k.en}" for k in RegimentKind
)


def _unit(text: str, a: int, b: int, context: NotationContext | None, echelon: str) -> UnitRef:
    """The unit written in text[a:b] (a at its first letter); errors point into the whole text."""
    try:
        ref = UnitRef.parse(text[a:b], context)
    except NotationError as e:
        raise type(e)(text, e.problem, a + (e.column or 1), e.expected) from None
    if ref.echelon not in echelon.split("|"):
        what = echelon.replace("|", " or ")
        raise Illegal(text, f"{ref} is not a {what}", a + 1, f"a {what}")
    return ref


def _divisions(text: str, a: int, b: int, context: NotationContext | None) -> list[UnitRef]:
    out: list[UnitRef] = []
    for piece in text[a:b].split(","):
        at = a + len(piece) - len(piece.lstrip())
        if (ref := _unit(text, at, a + len(piece), context, "division")) in out:
            raise Illegal(text, f"{ref} named twice", at + 1, "different divisions")
        out.append(ref)
        a += len(piece) + 1
    return out


def parse_regroup(text: str, context: NotationContext | None = None) -> Order | None:
    """One of this module's orders from the journal's notation; None if `text` is none of their
    forms. A form that is recognised but malformed raises the notation errors."""
    if (verb := _VERB.match(text)) is None:
        return None
    form = "pass" if verb[2] else "merge" if verb[1].lower() == "слить" else verb[1].lower()
    if (m := re.fullmatch(_FORMS[form], text, re.I)) is None:
        raise Invalid(text, f"incomplete order {verb[1] or verb[2]!r}", len(text), _HELP[form])
    if form in ("свести", "form"):
        refs = _divisions(text, *m.span("units"), context)
        return FormCorps(refs[0], tuple(refs[1:]), _unit(text, *m.span("corps"), None, "corps"))
    if form == "merge":
        refs = _divisions(text, *m.span("units"), context)
        into = _unit(text, *m.span("into"), context, "division")
        if len(refs) < 2:
            raise Invalid(text, "one division: nothing to merge", m.start("units") + 1, "two")
        if into not in refs:
            problem = f"{into} is not one of those merged"
            raise Illegal(text, problem, m.start("into") + 1, _names(refs))
        return Merge(refs[0], tuple(refs[1:]), into)
    giver = _unit(text, *m.span("unit"), context, "corps|division")
    echelon = giver.echelon
    to = _unit(text, *m.span("to"), context, echelon)
    if to == giver:
        raise Illegal(text, f"{to} passes to itself", m.start("to") + 1, f"another {echelon}")
    if echelon == "corps":
        division = _unit(text, *m.span("what"), context, "division")
        return TransferDivision(giver, division, to)
    r = _REGIMENT.fullmatch(m["what"])
    assert r is not None  # the pattern matches any text
    at = m.start("what") + r.start(2) + 1
    if not (r[1] or r[2]) or int(r[1] or "1") == 0:
        raise Invalid(text, f"no regiment {r[1]}".strip(), m.start("what") + 1, _KINDS)
    try:
        kind = RegimentKind.parse(r[2]) if r[2] else None
    except ValueError:
        raise Invalid(text, f"unknown regiment type {r[2]!r}", at, _KINDS) from None
    return TransferRegiment(giver, int(r[1] or 1), kind, to)


# --- cards, time and conditions ------------------------------------------------------------------


def fits(cells: Iterable[Cell], length: int) -> bool:
    """Whether the cells lie in a strip one cell wide and `length` long along a grid line."""
    cs = set(cells)
    lons, lats = {c.lon for c in cs}, {c.lat for c in cs}
    if len(lons) <= 1:
        return not lats or max(lats) - min(lats) < length
    return len(lats) == 1 and max(lons) - min(lons) < length


def card_length(n: int, rules: RuleSet) -> int:
    """The corps card's length for `n` divisions ([narrows]; the longest listed beyond)."""
    rows = rules.entry("narrows").rows
    k = max([i for i in range(1, n + 1) if f"corps_length_{i}" in rows] or [1])
    return int(rules.value("narrows", f"corps_length_{k}"))


def _pair_length(rules: RuleSet) -> int:
    """The division's 1x2 card in cells: regiments at most split_distance_km apart (4.9)."""
    km = float(rules.value("regrouping", "split_distance_km"))
    return 1 + int(km / float(rules.value("scale", "cell_km")) + EPS)


def _card(units: Sequence[UnitState], length: int, rule: str, march: bool = False) -> Why:
    cells = sorted({c for u in units for c in u.cells})
    ok, at, names = fits(cells, length), " ".join(map(str, cells)), _names(u.ref for u in units)
    record(Text(f"{at} on one 1x{length} card", f"{at} на карточке 1*{length}"), ok, rule=rule)
    en, ru = f"{names} at {at}: not within 1x{length}", f"{names} на {at}: не в 1*{length}"
    if march:
        en += "; a march (4.8) is needed, which the engine does not make for a regiment"
        ru += "; нужен марш (4.8), который для полка не выполняется"
    return None if ok else (Text(en, ru), rule)


def _if(cond: bool, en: str, ru: str, rule: str) -> Why:
    return (Text(en, ru), rule) if cond else None


def _inactive(rules: RuleSet, rule: str) -> Why:
    row = "transfer_out" if rule == "4.11" else None
    level = rules.param("regrouping", row).level if row else rules.entry("regrouping").level
    en, ru = f"{rule} is a level-{level} rule", f"{rule} — правило {level} уровня"
    return _if(not rules.active("regrouping", row), en, ru, rule)


def _busy(units: Iterable[UnitState]) -> Why:
    u = next((u for u in units if u.busy is not None), None)
    what = f"{u.ref} ({u.busy.what}, {u.busy.left:g})" if u and u.busy else ""
    return _if(u is not None, f"busy: {what}", f"занята: {what}", "9.3")


def _begin(
    units: Sequence[UnitState], cost: float, plans: Sequence[Plan], rule: str
) -> tuple[list[UnitState], float]:
    """The units at work on a common clock: busy for what the rest of this turn does not cover."""
    left = min(u.left for u in units)
    rest = round(max(cost - left, 0.0), 9)
    record(Text("left of this turn", "остаток хода"), left, unit="turn", rule="4.3")
    record(Text("to do after this turn", "останется после хода"), rest, unit="turn", rule=rule)
    capable = rule != "4.10"
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


def _named(state: GameState, refs: Sequence[UnitRef], order: Order) -> list[UnitState]:
    if missing := [r for r in refs if r not in state.units]:
        raise OrderError(f"{order}: {_names(missing)} not on the map")
    if len(set(refs)) != len(refs) or len({state.side_of(r) for r in refs}) != 1:
        raise OrderError(f"{order}: the divisions must be different and one side's")
    return [state.unit(r) for r in refs]


def _cut(state: GameState, order: Order, ex: Trace, units: Iterable[UnitState], why: Why) -> Done:
    assert why is not None
    ex.step(why[0], kind="cut", rule=why[1])
    ex.set(0.0)
    cells = [(u.ref, u.cells if fits(u.cells, 2) else u.cells[:1], u.facing) for u in units]
    at = [Placement(*c) for c in cells]
    where = Text("; ".join(p.format("en") for p in at), "; ".join(p.format("ru") for p in at))
    return state, Result(order.format("ru"), where, ex.freeze(), (Cut(*why),))


def _started(state: GameState, order: Order, ex: Trace, cost: float, outcome: Text) -> Done:
    ex.set(cost)
    return state, Result(order.format("ru"), outcome, ex.freeze())


# --- the orders ----------------------------------------------------------------------------------


def regroup(state: GameState, order: FormCorps | Merge, rules: RuleSet) -> Done:
    """Forming a corps of divisions on one corps card, or merging weakened divisions of one type
    on a 1x2 card, 1 to 1.5 divisions together, into one of them: 3 turns (4.10)."""
    units = _named(state, (order.unit, *order.others), order)
    if isinstance(order, Merge) and (order.into not in (u.ref for u in units) or len(units) < 2):
        raise OrderError(f"{order}: merge two or more divisions into one of them")
    names, forming = _names(u.ref for u in units), isinstance(order, FormCorps)
    en, ru = ("forming a corps", "сведение в корпус") if forming else ("merging", "слияние")
    with explain(Text(f"{names}: {en}", f"{names}: {ru}"), rule="4.10") as ex:
        why = _inactive(rules, "4.10") or _busy(units)
        if isinstance(order, FormCorps):
            why = why or _card(units, card_length(len(units), rules), "4.9")
            plans: list[Plan] = [("corps", str(order.corps))] * len(units)
        else:
            kinds = len({u.division.kind for u in units})
            mixed = _if(kinds > 1, f"{names}: not of one type", f"{names}: разного типа", "4.10")
            why = (
                why or mixed or _card(units, _pair_length(rules), "4.10") or _strength(units, rules)
            )
            others = tuple(str(u.ref) for u in units if u.ref != order.into)
            plans = [
                ("merge", *others) if u.ref == order.into else ("merge-into", str(order.into))
                for u in units
            ]
        if why:
            return _cut(state, order, ex, units, why)
        cost = float(
            rules.value("regrouping", "divisions_to_corps" if forming else "merge_weakened")
        )
        new, rest = _begin(units, cost, plans, "4.10")
        outcome = Text(f"{names}: {en}, {rest:g} more turn(s)", f"{names}: {ru}, еще {rest:g}")
        return _started(state.with_units(new), order, ex, cost, outcome)


def _strength(units: Sequence[UnitState], rules: RuleSet) -> Why:
    for u in units:
        label = Text(f"{u.ref}: strength", f"{u.ref}: численность")
        record(label, u.division.strength, unit="div", rule="4.10")
    total = round(sum(u.division.strength for u in units), 9)
    lo, hi = (float(rules.value("regrouping", k)) for k in ("merge_min", "merge_max"))
    record(Text("together", "вместе"), total, unit="div", rule="4.10")
    en = f"together {total:.3g} divisions: a merge needs {lo:g} to {hi:g}"
    ru = f"вместе {total:.3g} дивизии: для слияния нужно от {lo:g} до {hi:g}"
    return _if(not lo - EPS <= total <= hi + EPS, en, ru, "4.10")


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
        now = ", ".join(f"{s:.3g}" for s in filled) or "—"
        en, ru = f"{kind.ru} pooled into {target}: now {now}", f"{kind.ru} в {target}: теперь {now}"
        record(Text(en, ru), pool, unit="regt", rule="4.10")
        if lost > EPS:
            why = ("to the cap", "сверх полной") if idx else (f"{target} has none", "нет в дивизии")
            label = Text(f"{kind.ru}: lost {why[0]}", f"{kind.ru}: потеряно, {why[1]}")
            record(label, lost, unit="regt", rule="4.10")
    return target.with_strengths(tuple(r.strength for r in regs))


def transfer_regiment(state: GameState, order: TransferRegiment, rules: RuleSet) -> Done:
    """A regiment leaves its division in 1 turn and joins the next one in 1 more (4.11)."""
    giver, receiver = _named(state, (order.unit, order.to), order)
    which, g, r = order.which(), giver.ref, receiver.ref
    with explain(Text(f"{g}: {which} to {r}", f"{g}: {which} в {r}"), rule="4.11") as ex:
        places = [i for i, x in enumerate(giver.division.regiments) if order.kind in (None, x.kind)]
        why = _inactive(rules, "4.11") or _busy((giver, receiver))
        why = why or _if(
            order.regiment > len(places), f"{g} has no {which}", f"у {g} нет {which}", "4.11"
        )
        if why := why or _card((giver, receiver), _pair_length(rules), "4.11", march=True):
            return _cut(state, order, ex, (giver, receiver), why)
        out = float(rules.value("regrouping", "transfer_out"))
        cost = out + float(rules.value("regrouping", "transfer_in"))
        i, d, n = places[order.regiment - 1], giver.division, len(giver.division.line)
        reg, rest, part = d.regiments[i], d.regiments[:i] + d.regiments[i + 1 :], i < n
        n -= part
        d = replace(d, line=rest[:n], arm=rest[n:])
        [new], _ = _begin([replace(giver, division=d)], out, [("regiment-out", str(r))], "4.11")
        plan = ("regiment-in", str(g), reg.kind.key, reg.strength, "line" if part else "arm")
        busy = Busy(WHAT, max(cost - giver.left, 0.0), plan=plan)
        waits = replace(receiver, spent=1.0, busy=busy)
        text = Text(f"{reg.kind.ru} ({reg.strength:g}) leaves {g}", f"{reg.kind.ru} выведен из {g}")
        if not d.regiments:
            text = Text(f"{text.en}; {g} has no regiments left", f"{text.ru}; {g} расформирована")
        record(text, None, kind="note", rule="4.11")
        gone = [] if d.regiments else [g]
        state = state.with_units([waits] if gone else [waits, new], gone)
        return _started(state, order, ex, cost, text)


def transfer_division(state: GameState, order: TransferDivision, rules: RuleSet) -> Done:
    """A division leaves its corps in 1 turn and joins another in 1 more, if it fits its card."""
    [u] = _named(state, (order.division,), order)
    members, old, to = [x for x in state if x.corps == order.to], order.unit, order.to
    if to == old or any(state.side_of(x.ref) != state.side_of(u.ref) for x in members):
        raise OrderError(f"{order}: {to} is not another corps of the same side")
    with explain(Text(f"{old}: {u.ref} to {to}", f"{old}: {u.ref} в {to}"), rule="4.11") as ex:
        why = _inactive(rules, "4.11") or _busy([u])
        why = why or _if(u.corps != old, f"{u.ref} is not in {old}", f"{u.ref} не в {old}", "4.11")
        if why := why or _if(not members, f"{to} has no divisions", f"в {to} нет дивизий", "4.11"):
            return _cut(state, order, ex, [u], why)
        cost = sum(float(rules.value("regrouping", k)) for k in ("transfer_out", "transfer_in"))
        [new], _ = _begin([replace(u, corps=None)], cost, [("division", str(to))], "4.11")
        note = Text(f"{u.ref} out of {old}", f"{u.ref} выведена из {old}")
        record(note, None, kind="note", rule="4.11")
        state = state.with_units([new])
        if new.busy is None:
            state, _ = _join(state, u.ref, ("division", str(to)), rules)
        return _started(state, order, ex, cost, Text(f"{u.ref}: {old} → {to}"))


# --- finishing the work, the corps check ---------------------------------------------------------


def _enter(state: GameState, ref: UnitRef, plan: Plan, rules: RuleSet) -> tuple[GameState, Text]:
    corps = UnitRef.parse(plan[1])
    record(Text(f"{ref} in {corps}", f"{ref} в {corps}"), None, kind="note", rule="4.10")
    return state.with_units([replace(state.unit(ref), corps=corps)]), Text(f"{ref}: {corps}")


def _join(state: GameState, ref: UnitRef, plan: Plan, rules: RuleSet) -> tuple[GameState, Text]:
    u, corps = state.unit(ref), UnitRef.parse(plan[1])
    members = [x for x in state if x.corps == corps and x.ref != ref]
    if members and not _card([*members, u], card_length(len(members) + 1, rules), "4.11"):
        return _enter(state, ref, plan, rules)
    text = Text(
        f"{ref} does not fit {corps}'s card: it stays separate; a march (4.8) first",
        f"{ref} не помещается на карточку {corps}: остается отдельной; нужен марш (4.8)",
    )
    record(text, None, kind="note", rule="4.11")
    return state, text


def _attach(state: GameState, ref: UnitRef, plan: Plan, rules: RuleSet) -> tuple[GameState, Text]:
    u, reg = state.unit(ref), Regiment(RegimentKind.from_key(plan[2]), float(plan[3]))
    d = u.division
    d = replace(d, line=(*d.line, reg)) if plan[4] == "line" else replace(d, arm=(*d.arm, reg))
    text = Text(f"{reg.kind.ru} ({reg.strength:g}) joins {ref}", f"{reg.kind.ru} включен в {ref}")
    record(text, None, kind="note", rule="4.11")
    return state.with_units([replace(u, division=d)]), text


def _merged(state: GameState, ref: UnitRef, plan: Plan, rules: RuleSet) -> tuple[GameState, Text]:
    target = state.unit(ref)
    there = [state.units[o] for o in map(UnitRef.parse, plan[1:]) if o in state.units]
    division = _pool(target.division, [o.division for o in there])
    gone = _names(u.ref for u in there)
    text = Text(
        f"{ref}: strength {division.strength:.3g}; {gone} leave the map",
        f"{ref}: численность {division.strength:.3g}; {gone} сняты с карты",
    )
    return state.with_units([replace(target, division=division)], [o.ref for o in there]), text


_FINISH = {"corps": _enter, "merge": _merged, "regiment-in": _attach, "division": _join}


def corps_check(state: GameState, rules: RuleSet) -> tuple[GameState, list[Text]]:
    """4.9 (level 2): a corps whose divisions do not fit on its card loses them; they become
    separate. Nothing at level 1."""
    if not rules.active("regrouping"):
        return state, []
    corps: dict[UnitRef, list[UnitState]] = {}
    for u in state:
        if u.corps is not None:
            corps.setdefault(u.corps, []).append(u)
    changed: list[UnitState] = []
    notes: list[Text] = []
    for ref, members in corps.items():
        if _card(members, card_length(len(members), rules), "4.9"):
            changed += [replace(u, corps=None) for u in members]
            names = _names(u.ref for u in members)
            en = f"{ref} does not fit its card: {names} lose corps subordination"
            notes.append(Text(en, f"{ref} не помещается на карточку: {names} вне корпуса"))
            record(notes[-1], None, kind="note", rule="4.9")
    return state.with_units(changed), notes


def complete(
    state: GameState, rules: RuleSet, before: GameState | None = None
) -> tuple[GameState, list[Result]]:
    """Finish the regrouping work whose time has run out, then check the corps (4.9).

    `advance` passes the state it advanced as `before`: work it has just cleared is finished
    here, as is work left in the state with no time to go (`left` <= 0)."""
    ending: dict[UnitRef, Busy] = {}
    for u in state:
        b = u.busy or (p.busy if before and (p := before.units.get(u.ref)) else None)
        if b is not None and b.what == WHAT and (u.busy is None or b.left <= EPS):
            ending[u.ref] = b
    state = state.with_units(
        [replace(state.unit(r), busy=None, combat_capable=True) for r in ending]
    )
    results: list[Result] = []
    for ref, b in ending.items():
        if (finish := _FINISH.get(b.plan[0])) is None or ref not in state.units:
            continue
        rule = "4.10" if b.plan[0] in ("corps", "merge") else "4.11"
        with explain(Text(f"{ref}: {WHAT} done", f"{ref}: перегруппировка"), rule=rule) as ex:
            state, outcome = finish(state, ref, b.plan, rules)
        results.append(Result(f"{ref} ({WHAT})", outcome, ex.freeze()))
    with explain(Text("Corps cards", "Карточки корпусов"), rule="4.9") as ex:
        state, notes = corps_check(state, rules)
    if notes:
        outcome = Text("; ".join(n.en for n in notes), "; ".join(n.ru for n in notes))
        results.append(Result(f"({WHAT}, 4.9)", outcome, ex.freeze()))
    return state, results


HANDLERS: dict[type[Order], Callable[[GameState, Any, RuleSet], Done]] = {
    FormCorps: regroup,
    Merge: regroup,
    TransferRegiment: transfer_regiment,
    TransferDivision: transfer_division,
}


def carry_out(state: GameState, order: Order, rules: RuleSet, side: str | None = None) -> Done:
    """`apply` for these orders: the acting division (for a corps' order, the division passed) is
    on the map and `side`'s, else an OrderError."""
    ref = order.division if isinstance(order, TransferDivision) else order.unit
    if ref not in state.units:
        raise OrderError(f"{order}: {ref} is not on the map")
    if side is not None and state.side_of(ref) != side:
        raise OrderError(f"{order}: {ref} is {state.side_of(ref)}'s, not {side}'s")
    return HANDLERS[type(order)](state, order, rules)
