"""A battle's report as a mediator reads it aloud: who struck whom where, the forces and their
ratio, the outcome; a table per unit (rating, multipliers, strength by regiment before and after,
losses); the steps in plain sentences with the numbers put into each formula, each with its rule;
the reconstructed values the battle used; the full explanation, folded.

It is written from the battle's record (`BattleRecord`, the numbers the battle used) and, for the
steps, from its explanation tree (`report_facts`); it takes an already filtered record, so a
side's copy (fog of war) is the same function on less data. `report_render` writes it as HTML,
Markdown, text or JSON.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from strategia.core.i18n import Lang, Text
from strategia.core.numbers import divisions, fixed, num, pct, turns
from strategia.engine.battle_record import BattleRecord, Fighting
from strategia.explain.render import rule_label
from strategia.explain.trace import Step
from strategia.game.report_facts import Facts, Rating, facts
from strategia.notation.refs import UnitRef
from strategia.rules.kinds import Facing, blow_on, side_name

W = {  # the report's words: (English, Russian)
    "battle": ("Battle for {target}", "Бой за {target}"),
    "turn": ("turn {turn}", "ход {turn}"),
    "forces": ("Forces:", "Силы:"),
    "outcome": ("Outcome:", "Итог:"),
    "against": ("against", "против"),
    "ratio": ("ratio", "соотношение"),
    "support": ("support", "поддержка"),
    "left": ("{x} left", "остается {x}"),
    "loses": ("{unit} loses {p}", "{unit} теряет {p}"),
    "no_loss": ("{unit}: no losses", "{unit}: без потерь"),
    "steps": ("How it was reckoned:", "Как это посчитано:"),
    "rec": ("Reconstructed in this battle", "Восстановлено в этом бою"),
    "rec_tail": (
        "all in `strategia rules`, changeable by house rules",
        "все это — в `strategia rules`, меняется правилами игры",
    ),
    "tree": ("The full reckoning", "Полный расчет"),
    "attack": ("attack", "наступление"),
    "defence": ("defence", "оборона"),
    "echelon": ("echelon {n}", "{n}-й эшелон"),
}
HEADER = (
    ("unit", "соединение"),
    ("side", "сторона"),
    ("rating", "рейтинг"),
    ("multipliers", "множители"),
    ("in battle", "в бою"),
    ("regiments before", "полки до боя"),
    ("losses", "потери"),
    ("regiments after", "полки после боя"),
)
OUTCOME = {
    "held": ("{target} holds", "{target} удержан"),
    "taken": ("{target} taken", "{target} взят"),
    "beaten_off": ("the attack on {target} is beaten off", "атака на {target} отбита"),
    "retreat": (
        "the defender retreats from {target} without battle (9.8a)",
        "противник отходит из {target}, не принимая боя (9.8а)",
    ),
    "no_battle": ("no battle", "боя нет"),
}
_WITH = {"front": "фронтом", "flank45": "флангом (45°)", "flank90": "флангом (90°)",
         "flank135": "флангом (135°)", "rear": "тылом"}  # fmt: skip


def w(key: str, lang: Lang, **values: object) -> str:
    en, ru = W[key]
    return (ru if lang == "ru" else en).format(**values)


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


def unit_name(name: str, lang: Lang) -> str:
    """A unit as the reader's notation writes it (17 с.д. / 17 RD)."""
    if lang == "ru":
        return name
    try:
        return UnitRef.parse(name).format(lang)
    except ValueError:
        return name


def _feminine(name: str) -> bool:
    """Whether the unit is a дивизия or a крепость (else a полк or a корпус)."""
    try:
        return UnitRef.parse(name).echelon == "division"
    except ValueError:
        return True


def _names(units: Sequence[str], lang: Lang) -> str:
    names = [unit_name(u, lang) for u in dict.fromkeys(units)]
    if len(names) < 2:
        return "".join(names)
    joiner = " и " if lang == "ru" else " and "
    return ", ".join(names[:-1]) + joiner + names[-1]


def _n(x: float, lang: Lang) -> str:
    """A rating as the report writes it: one decimal at least (2,0; 0,65; 1,67)."""
    return num(x, lang, keep=1)


def _first(rec: BattleRecord, role: str) -> list[Fighting]:
    return [u for u in rec.units if u.role == role and u.echelon == 1]


def battle_report(
    rec: BattleRecord,
    lang: Lang = "ru",
    *,
    turn: int | None = None,
    explanation: Step | None = None,
) -> BattleReport:
    """The report of one battle from its record (and its explanation, for the steps)."""
    f = facts(explanation)
    head = w("battle", lang, target=rec.target)
    title = f"{head}, {w('turn', lang, turn=turn)}." if turn is not None else f"{head}."
    rows = tuple(_row(u, rec, f, lang) for u in rec.units)
    return BattleReport(
        lang,
        title,
        _summary(rec, f, lang),
        tuple(h[1] if lang == "ru" else h[0] for h in HEADER),
        rows,
        _steps(rec, f, lang),
        _reconstructed(f, lang),
        explanation,
        rec,
    )


# --- the summary ------------------------------------------------------------------------------


def _summary(rec: BattleRecord, f: Facts, lang: Lang) -> tuple[tuple[str, str], ...]:
    if rec.outcome in ("retreat", "no_battle"):
        text = OUTCOME[rec.outcome][lang == "ru"].format(target=rec.target)
        who = side_name(rec.attacker, lang, capital=True)
        chased = [_pursuit_line(p, lang) for p in rec.pursuit]
        return (("", f"{who}: {text}."), *(("", c) for c in chased))
    return (
        ("", _who(rec, lang)),
        (w("forces", lang), _forces(rec, f, lang)),
        (w("outcome", lang), _outcome(rec, lang)),
    )


def _who(rec: BattleRecord, lang: Lang) -> str:
    attackers = [u.unit for u in _first(rec, "attacker")]
    defenders = [u.unit for u in _first(rec, "defender")]
    a_side = side_name(rec.attacker, lang, capital=True)
    d_side = side_name(rec.defender, lang, capital=True)
    sides = dict.fromkeys(b.side for u in _first(rec, "defender") for b in u.blows)
    where = [blow_on(s, lang) for s in sides]
    ground = _ground(_first(rec, "defender"), lang)
    if lang == "ru":
        verb = "бьет" if len(attackers) == 1 else "бьют"
        who = f"{_names(attackers, lang)} ({a_side}) {verb}"
        whom = f"{_names(defenders, lang)} ({d_side})"
        if len(where) > 1:
            many = f"с {_ru_count(len(where))} сторон — {', '.join(where)}"
            return f"{who} {whom} {many}" + (f"; оборона {ground}." if ground else ".")
        part = (
            ""
            if not defenders
            else "обороняющиеся"
            if len(defenders) > 1
            else "обороняющуюся"
            if _feminine(defenders[0])
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
            f"{_names(attackers, lang)} ({a_side}) {verb} {_names(defenders, lang)} "
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
        term = _n(u.rating, lang)
        for x in u.factors:
            term += f" × {num(x.value, lang)} {x.label(lang)}"
        terms.append(term)
    if support > 0:
        terms.append(f"{_n(support, lang)} {w('support', lang)}")
    total = sum(u.effective for u in units) + support
    plain = len(units) == 1 and not units[0].factors and support <= 0
    return total, "" if plain else " + ".join(terms)


def _forces(rec: BattleRecord, f: Facts, lang: Lang) -> str:
    a, a_terms = _side_formula(_first(rec, "attacker"), rec.attack_support, lang)
    d, d_terms = _side_formula(_first(rec, "defender"), rec.defence_support, lang)
    a, d = rec.attack or a, rec.defence or d
    left = _n(a, lang) + (f" ({a_terms})" if a_terms else "")
    right = _n(d, lang) + (f" ({d_terms})" if d_terms else "")
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
    for name in dict.fromkeys(u.unit for u in order):
        before, after, destroyed = strengths[name]
        parts.append(_loss_phrase(name, before, after, destroyed, lang))
    return f"{head}. " + "; ".join(p for p in parts if p) + "."


def _loss_phrase(name: str, before: float, after: float, destroyed: bool, lang: Lang) -> str:
    who = unit_name(name, lang)
    if destroyed:
        if lang == "ru":
            return f"{who} уничтожена" if _feminine(name) else f"{who} уничтожен"
        return f"{who} destroyed"
    if before <= 0 or after >= before - 1e-9:
        return w("no_loss", lang, unit=who)
    share = pct(1 - after / before, lang)
    left = w("left", lang, x=divisions(after, lang))
    return f"{w('loses', lang, unit=who, p=share)} ({left})"


def _pursuit_line(p: object, lang: Lang) -> str:
    from strategia.engine.battle_record import Pursuit

    assert isinstance(p, Pursuit)
    who = unit_name(p.unit, lang)
    if lang == "ru":
        return (
            f"{who} преследует: может продвинуться на {num(p.limit_km, lang)} км, "
            f"продвигается на {num(p.taken_km, lang)} км в {p.to} (9.8а)."
        )
    return (
        f"{who} pursues: it may advance {num(p.limit_km, lang)} km, "
        f"advances {num(p.taken_km, lang)} km to {p.to} (9.8a)."
    )


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
        kinds = ", ".join(f"{n} {k}" if n > 1 else k for k, n in counts.items())
        return f"{kinds}: {fixed(strengths[0][1], lang)}"
    return " · ".join(f"{k} {fixed(v, lang)}" for k, v in strengths)


def _facing_of(u: Fighting) -> list[str]:
    return [b.side for b in u.blows]


def _rating_cell(u: Fighting, f: Facts, lang: Lang) -> str:
    text = _n(u.rating, lang)
    if len(u.blows) == 1:
        b = u.blows[0]
        face = Facing.from_key(b.side).label(lang)
        r = f.rating(u.unit, Facing.from_key(b.side).en)
        table = f", {rule_label(r.table, lang)}" if r is not None and r.table else ""
        return f"{text} — {face}{table}"
    if len(u.blows) > 1:
        parts = [f"{Facing.from_key(b.side).label(lang)} {_n(b.rating, lang)}" for b in u.blows]
        return f"{text} — " + ", ".join(parts)
    return text


def _row(u: Fighting, rec: BattleRecord, f: Facts, lang: Lang) -> tuple[str, ...]:
    side = rec.attacker if u.role == "attacker" else rec.defender
    role = w("attack" if u.role == "attacker" else "defence", lang)
    name = unit_name(u.unit, lang) + (f" ({', '.join(u.part)})" if u.part else "")
    factors = ", ".join(
        f"× {num(x.value, lang)} {x.label(lang)} ({rule_label(x.rule, lang)})" for x in u.factors
    )
    lost = max(0.0, u.strength_before - u.strength_after)
    losses = "—"
    if u.destroyed:
        losses = (
            ("уничтожена" if _feminine(u.unit) else "уничтожен") if lang == "ru" else "destroyed"
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
        _n(u.effective, lang),
        _regiments(u.before, lang),
        losses,
        _regiments(u.after, lang) if not u.destroyed else "—",
    )


# --- the steps --------------------------------------------------------------------------------


def _rating_step(u: Fighting, r: Rating | None, lang: Lang) -> str:
    who = unit_name(u.unit, lang)
    face = _facing_of(u)[0] if u.blows else "front"
    if u.role == "attacker":
        side = Facing.from_key(face).label(lang)
        lead = f"{who} бьет {_WITH[face]}" if lang == "ru" else f"{who} strikes with its {side}"
    else:
        lead = (
            f"{who} против удара {blow_on(face, lang)}"
            if lang == "ru"
            else f"{who} against a blow {blow_on(face, lang)}"
        )
    rules = ["9.6"]
    if r is not None and r.terms:
        formula = " + ".join(f"{k} {num(v, lang)}" for k, v in r.terms)
        body = f"{formula} = {_n(r.derived if r.derived is not None else u.rating, lang)}"
        rules.insert(0, "table 7")
        if r.printed is not None and r.share is not None:
            body += (
                f"; {rule_label(r.table, lang)}: {_n(r.printed, lang)} × "
                f"{num(r.share, lang)} = {_n(r.value, lang)}"
            )
        elif r.printed is not None and r.derived is not None and abs(r.printed - r.derived) > 1e-6:
            tell = "дает" if lang == "ru" else "gives"
            body += f"; {rule_label(r.table, lang)} {tell} {_n(r.printed, lang)}"
        elif r.table:
            rules.insert(1, r.table)
    elif r is not None and r.strength is not None and r.base is not None:
        body = f"{_n(r.base, lang)} × {num(r.strength, lang)} = {_n(r.value, lang)}"
    else:
        body = _n(u.rating, lang)
    line = f"{lead}: {body} ({'; '.join(rule_label(x, lang) for x in rules)})"
    if u.factors:
        chain = " × ".join([_n(u.rating, lang), *(num(x.value, lang) for x in u.factors)])
        what = ", ".join(f"{x.label(lang)} ({rule_label(x.rule, lang)})" for x in u.factors)
        line += f"; {what}: {chain} = {_n(u.effective, lang)}"
    return line + "."


def _blows_step(u: Fighting, lang: Lang) -> str:
    who = unit_name(u.unit, lang)
    terms = " + ".join(f"{num(b.weight, lang)} × {_n(b.rating, lang)}" for b in u.blows)
    wheres = ", ".join(f"{_names(b.attackers, lang)} {blow_on(b.side, lang)}" for b in u.blows)
    if lang == "ru":
        return f"{who}: удары {wheres}; по их весу {terms} = {_n(u.rating, lang)} (9.5; 9.6)."
    return f"{who}: blows {wheres}; by their weight {terms} = {_n(u.rating, lang)} (9.5; 9.6)."


def _steps(rec: BattleRecord, f: Facts, lang: Lang) -> tuple[str, ...]:
    out: list[str] = []
    for u in rec.units:
        if u.role == "defender" and len(u.blows) > 1:
            for b in u.blows:
                r = f.rating(u.unit, Facing.from_key(b.side).en)
                single = Fighting(u.unit, u.role, u.echelon, u.kind, b.rating, (), b.rating,
                                  u.before, blows=(b,))  # fmt: skip
                out.append(_rating_step(single, r, lang))
            out.append(_blows_step(u, lang))
            if u.factors:
                chain = " × ".join([_n(u.rating, lang), *(num(x.value, lang) for x in u.factors)])
                what = ", ".join(x.label(lang) for x in u.factors)
                out.append(f"{unit_name(u.unit, lang)}: {what}: {chain} = {_n(u.effective, lang)}.")
        else:
            face = u.blows[0].side if u.blows else "front"
            out.append(_rating_step(u, f.rating(u.unit, Facing.from_key(face).en), lang))
    if rec.supporters:
        sup = ", ".join(
            unit_name(s, lang) + (f" +{_n(f.support[s], lang)}" if s in f.support else "")
            for s in rec.supporters
        )
        lead = "Поддержка соседей" if lang == "ru" else "Support by neighbours"
        out.append(f"{lead}: {sup} ({rule_label('9.8c', lang)}).")
    out += _exchange(rec, f, lang)
    out += _shares(rec, lang)
    out += [_pursuit_line(p, lang) for p in rec.pursuit]
    out += [f"{t(lang)} ({rule_label(r, lang)})." for t, r in f.notes]
    return tuple(x[:1].upper() + x[1:] for x in out)


def _exchange(rec: BattleRecord, f: Facts, lang: Lang) -> list[str]:
    if not f.rounds or f.exchange is None:
        return []
    k = num(f.exchange, lang)
    out = []
    for r in f.rounds:
        time = turns(r.time, lang)
        t = num(r.time, lang)
        if lang == "ru":
            out.append(
                f"Обмен потерями, {r.label('ru')} ({time}): обороняющийся теряет "
                f"{k} × {_n(r.attack, lang)} × {t} = {_n(r.defender_loss, lang)}; наступающий "
                f"теряет {k} × {_n(r.defence, lang)} × {t} = {_n(r.attacker_loss, lang)} "
                f"(9.8в, восстановлено)."
            )
        else:
            out.append(
                f"Exchange of losses, {r.label('en')} ({time}): the defender loses "
                f"{k} × {_n(r.attack, lang)} × {t} = {_n(r.defender_loss, lang)}; the attacker "
                f"loses {k} × {_n(r.defence, lang)} × {t} = {_n(r.attacker_loss, lang)} "
                f"(9.8c, reconstructed)."
            )
    return out


def _shares(rec: BattleRecord, lang: Lang) -> list[str]:
    parts = []
    for u in rec.units:
        if u.lost <= 0 or u.effective <= 0:
            continue
        lost = u.lost * u.effective
        each = "каждого полка" if lang == "ru" else "of each regiment"
        who = unit_name(u.unit, lang) + (f" ({', '.join(u.part)})" if u.part else "")
        parts.append(
            f"{who} {_n(lost, lang)} / {_n(u.effective, lang)} = {pct(u.lost, lang)} {each}"
        )
    if not parts:
        return []
    lead = "Потери по долям" if lang == "ru" else "Losses by shares"
    out = [f"{lead}: " + "; ".join(parts) + f" ({rule_label('9.8c', lang)})."]
    left = sum(u.effective * (1 - u.lost) for u in rec.units if u.role == "defender")
    head = OUTCOME[rec.outcome][lang == "ru"].format(target=rec.target)
    if lang == "ru":
        out.append(f"У обороны остается {_n(left, lang)} рейтинга: {head} (9.8в).")
    else:
        out.append(f"The defence has {_n(left, lang)} of its rating left: {head} (9.8c).")
    return out


def _reconstructed(f: Facts, lang: Lang) -> tuple[str, ...]:
    """The reconstructed values the battle used, those with one reason together."""
    groups: dict[str, list[str]] = {}
    for r in f.reconstructed:
        value = r.value
        if isinstance(value, bool):
            shown = ("да" if value else "нет") if lang == "ru" else ("yes" if value else "no")
        elif isinstance(value, int | float):
            shown = num(value, lang)
        else:
            shown = value(lang) if isinstance(value, Text) else str(value)
        groups.setdefault(r.why(lang), []).append(
            f"{r.label(lang)} = {shown} [{rule_label(r.rule, lang)}]"
        )
    return tuple(f"{'; '.join(items)} — {why}" for why, items in groups.items())
