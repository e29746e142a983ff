"""A battle's report as a mediator reads it aloud: who struck whom where, the forces and their
ratio, the outcome; a table per unit (rating, multipliers, strength by regiment before and after,
losses); the steps in plain sentences with the numbers put into each formula, each with its rule;
the reconstructed values the battle used; the full explanation, folded.

It is written from the battle's record (`BattleRecord`, the numbers the battle used) and, for the
steps (`report_steps`), from its explanation tree (`report_facts`); it takes an already filtered
record, so a side's copy (fog of war) is the same function on less data. `report_render` writes
it as HTML, Markdown, text or JSON; the shared words are in `report_words`.
"""

from __future__ import annotations

from dataclasses import dataclass

from strategia.core.i18n import Lang, Text
from strategia.core.numbers import divisions, fixed, num, pct
from strategia.engine.battle_record import BattleRecord, Fighting
from strategia.explain.render import rule_label
from strategia.explain.trace import Step
from strategia.game.report_facts import Facts, facts
from strategia.game.report_steps import reconstructed, steps
from strategia.game.report_strike import strike_parts
from strategia.game.report_words import (
    HEADER,
    OUTCOME,
    feminine,
    first,
    hidden,
    n,
    names,
    pursuit_line,
    unit_name,
    w,
)
from strategia.rules.kinds import Facing, blow_on, side_name


@dataclass(frozen=True)
class BattleReport:
    """A battle's report in one language: plain strings, ready for any renderer."""

    lang: Lang
    title: str  # «Бой за 5,3, ход 1.»
    summary: tuple[tuple[str, str], ...]  # (bold lead, text): who, forces, outcome
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    steps: tuple[str, ...]
    reconstructed: tuple[str, ...]
    tree: Step | None
    record: BattleRecord


def battle_report(
    rec: BattleRecord,
    lang: Lang = "ru",
    *,
    turn: int | None = None,
    explanation: Step | None = None,
    outcome: Text | None = None,
    tree: bool = True,
) -> BattleReport:
    """The report of one battle (or strike) from its record (and its explanation, for the
    steps; `outcome`, a strike's that closed a road or a bridge). `tree` False: the report
    keeps no breakdown (a side's copy of a strike: the facts of its own battery only)."""
    f = facts(explanation)
    if rec.outcome == "strike":
        title, summary, header, rows, lines = strike_parts(rec, lang, turn, explanation, outcome)
        shown = explanation if tree else None
        return BattleReport(
            lang, title, summary, header, rows, lines, reconstructed(f, lang), shown, rec
        )
    head = w("battle", lang, target=rec.target)
    title = f"{head}, {w('turn', lang, turn=turn)}." if turn is not None else f"{head}."
    rows = tuple(_row(u, rec, f, lang) for u in rec.units)
    return BattleReport(
        lang,
        title,
        _summary(rec, f, lang),
        tuple(h[1] if lang == "ru" else h[0] for h in HEADER),
        rows,
        steps(rec, f, lang),
        reconstructed(f, lang),
        explanation,
        rec,
    )


# --- the summary ------------------------------------------------------------------------------


def _summary(rec: BattleRecord, f: Facts, lang: Lang) -> tuple[tuple[str, str], ...]:
    if rec.outcome in ("retreat", "no_battle"):
        text = OUTCOME[rec.outcome][lang == "ru"].format(target=rec.target)
        who = side_name(rec.attacker, lang, capital=True)
        chased = [pursuit_line(p, lang) for p in rec.pursuit]
        return (("", f"{who}: {text}."), *(("", c) for c in chased))
    return (
        ("", _who(rec, lang)),
        (w("forces", lang), _forces(rec, f, lang)),
        (w("outcome", lang), _outcome(rec, lang)),
    )


def _who(rec: BattleRecord, lang: Lang) -> str:
    attackers = [u.unit for u in first(rec, "attacker")]
    defenders = [u.unit for u in first(rec, "defender")]
    a_side = side_name(rec.attacker, lang, capital=True)
    d_side = side_name(rec.defender, lang, capital=True)
    sides = dict.fromkeys(b.side for u in first(rec, "defender") for b in u.blows)
    where = [blow_on(s, lang) for s in sides]
    ground = _ground(first(rec, "defender"), lang)
    if lang == "ru":
        verb = "бьет" if len(attackers) == 1 else "бьют"
        who = f"{names(attackers, lang)} ({a_side}) {verb}"
        whom = f"{names(defenders, lang)} ({d_side})"
        if len(where) > 1:
            many = f"с {_ru_count(len(where))} сторон — {', '.join(where)}"
            return f"{who} {whom} {many}" + (f"; оборона {ground}." if ground else ".")
        part = (
            ""
            if not defenders
            else "обороняющиеся"
            if len(defenders) > 1
            else "обороняющуюся"
            if feminine(defenders[0])
            else "обороняющийся"
        )
        holding = f", {part} {ground}" if ground else ""
        return f"{who} {''.join(where)} {whom}{holding}.".replace("  ", " ")
    verb = "strikes" if len(attackers) == 1 else "strike"
    blows = " and ".join(where) if where else ""
    if len(where) > 1:
        blows = f"from {len(where)} sides: {blows}"
    holding = f"; the defence stands {ground}" if ground else ""
    return (
        (
            f"{names(attackers, lang)} ({a_side}) {verb} {names(defenders, lang)} "
            f"({d_side}) {blows}{holding}."
        )
        .replace("  ", " ")
        .replace(" .", ".")
        .replace(" ;", ";")
    )


def _ru_count(n: int) -> str:
    return {2: "двух", 3: "трех", 4: "четырех", 5: "пяти"}.get(n, str(n))


def _ground(defenders: list[Fighting], lang: Lang) -> str:
    """Where the first defender holds: its ground and river factors, as phrases."""
    if not defenders:
        return ""
    words = [x.label(lang) for x in defenders[0].factors if x.rule in ("9.8b", "9.5", "4.8")]
    words = [x for x in words if "пт.д." not in x and "armour" not in x]
    return (" и " if lang == "ru" else " and ").join(words)


def _side_formula(units: list[Fighting], support: float, lang: Lang) -> tuple[float, str]:
    """A side's first echelon in the battle: its total and how it adds up."""
    terms = []
    for u in units:
        term = n(u.rating, lang)
        for x in u.factors:
            term += f" × {num(x.value, lang)} {x.label(lang)}"
        terms.append(term)
    if support > 0:
        terms.append(f"{n(support, lang)} {w('support', lang)}")
    total = sum(u.effective for u in units) + support
    plain = len(units) == 1 and not units[0].factors and support <= 0
    return total, "" if plain else " + ".join(terms)


def _forces(rec: BattleRecord, f: Facts, lang: Lang) -> str:
    a, a_terms = _side_formula(first(rec, "attacker"), rec.attack_support, lang)
    d, d_terms = _side_formula(first(rec, "defender"), rec.defence_support, lang)
    a, d = rec.attack or a, rec.defence or d
    left = n(a, lang) + (f" ({a_terms})" if a_terms else "")
    right = n(d, lang) + (f" ({d_terms})" if d_terms else "")
    if rec.side:  # a side's account: the enemy's forces are not told
        if rec.side == rec.attacker:
            return f"{left} {w('against', lang)} ({w('unknown', lang)})."
        return f"({w('unknown', lang)}) {w('against', lang)} {right}."
    return f"{left} {w('against', lang)} {right} — {w('ratio', lang)} {ratio(a, d, lang)}."


def ratio(a: float, d: float, lang: Lang) -> str:
    """A force ratio as the table says it: 1,7 : 1 or 1 : 1,8."""
    if d <= 0:
        return "∞"
    r = a / d
    return f"{num(r, lang, 2, keep=1)} : 1" if r >= 1 else f"1 : {num(1 / r, lang, 2, keep=1)}"


def _by_unit(rec: BattleRecord) -> dict[str, tuple[float, float, bool]]:
    """Each unit's strength before and after (in divisions) and whether it was destroyed."""
    out: dict[str, tuple[float, float, bool]] = {}
    for u in rec.units:
        gone = u.destroyed or out.get(u.unit, (0.0, 0.0, False))[2]
        out[u.unit] = (u.strength_before, u.strength_after, gone)
    return out


def _outcome(rec: BattleRecord, lang: Lang) -> str:
    head = OUTCOME[rec.outcome][lang == "ru"].format(target=rec.target)
    parts = []
    order = [u for u in rec.units if u.role == "defender"] + [
        u for u in rec.units if u.role == "attacker"
    ]
    strengths = _by_unit(rec)
    unseen = {u.unit for u in order if hidden(rec, u)}
    for name in dict.fromkeys(u.unit for u in order):
        before, after, destroyed = strengths[name]
        if name in unseen and not destroyed:
            continue  # the enemy's losses are not told, only a unit seen destroyed
        parts.append(_loss_phrase(name, before, after, destroyed, lang))
    return f"{head}. " + "; ".join(p for p in parts if p) + "."


def _loss_phrase(name: str, before: float, after: float, destroyed: bool, lang: Lang) -> str:
    who = unit_name(name, lang)
    if destroyed:
        if lang == "ru":
            return f"{who} уничтожена" if feminine(name) else f"{who} уничтожен"
        return f"{who} destroyed"
    if before <= 0 or after >= before - 1e-9:
        return w("no_loss", lang, unit=who)
    share = pct(1 - after / before, lang)
    left = w("left", lang, x=divisions(after, lang))
    return f"{w('loses', lang, unit=who, p=share)} ({left})"


# --- the table --------------------------------------------------------------------------------


def _regiments(strengths: tuple[tuple[str, float], ...], lang: Lang) -> str:
    """A division's regiments and their strengths: «3 с.п., ап: 0,85» when all are at one
    strength, else each: «т.п. 0,70 · мот.п. 1,00»."""
    if not strengths:
        return "—"
    if len({round(v, 2) for _, v in strengths}) == 1:
        counts: dict[str, int] = {}
        for k, _ in strengths:
            counts[k] = counts.get(k, 0) + 1
        kinds = ", ".join(
            f"{n} {unit_name(k, lang)}" if n > 1 else unit_name(k, lang) for k, n in counts.items()
        )
        return f"{kinds}: {fixed(strengths[0][1], lang)}"
    return " · ".join(f"{unit_name(k, lang)} {fixed(v, lang)}" for k, v in strengths)


def _rating_cell(u: Fighting, f: Facts, lang: Lang) -> str:
    text = n(u.rating, lang)
    if len(u.blows) == 1:
        b = u.blows[0]
        face = Facing.from_key(b.side).label(lang)
        r = f.rating(u.unit, Facing.from_key(b.side).en)
        table = f", {rule_label(r.table, lang)}" if r is not None and r.table else ""
        return f"{text} — {face}{table}"
    if len(u.blows) > 1:
        parts = [f"{Facing.from_key(b.side).label(lang)} {n(b.rating, lang)}" for b in u.blows]
        return f"{text} — " + ", ".join(parts)
    return text


def _row(u: Fighting, rec: BattleRecord, f: Facts, lang: Lang) -> tuple[str, ...]:
    side = u.side or (rec.attacker if u.role == "attacker" else rec.defender)
    role = w("attack" if u.role == "attacker" else "defence", lang)
    name = unit_name(u.unit, lang) + (f" ({', '.join(u.part)})" if u.part else "")
    if hidden(rec, u):  # a side's account: the enemy named, nothing more
        gone = (
            (("уничтожена" if feminine(u.unit) else "уничтожен") if lang == "ru" else "destroyed")
            if u.destroyed
            else "—"
        )
        return (
            name,
            f"{side_name(side, lang, capital=True)} ({role})",
            "—",
            "—",
            "—",
            "—",
            gone,
            "—",
        )
    factors = ", ".join(
        f"× {num(x.value, lang)} {x.label(lang)} ({rule_label(x.rule, lang)})" for x in u.factors
    )
    lost = max(0.0, u.strength_before - u.strength_after)
    losses = "—"
    if u.destroyed:
        losses = (
            ("уничтожена" if feminine(u.unit) else "уничтожен") if lang == "ru" else "destroyed"
        )
    elif lost > 1e-9 and u.strength_before > 0:
        losses = f"{divisions(lost, lang)} ({pct(lost / u.strength_before, lang)})"
    echelons = len({x.echelon for x in rec.units if x.role == u.role}) > 1
    where = f", {w('echelon', lang, n=u.echelon)}" if echelons else ""
    return (
        name,
        f"{side_name(side, lang, capital=True)} ({role}{where})",
        _rating_cell(u, f, lang),
        factors or "—",
        n(u.effective, lang),
        _regiments(u.before, lang),
        losses,
        _regiments(u.after, lang) if not u.destroyed else "—",
    )
