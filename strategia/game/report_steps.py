"""The steps of a battle's report: each rating with its regiments' parts, the multipliers, the
blows weighed, the support, each round of the exchange of losses with its numbers in the formula,
the shares lost, the pursuit and the notes, each with its rule; and the reconstructed values the
battle used, gathered."""

from __future__ import annotations

from strategia.core.i18n import Lang, Text
from strategia.core.numbers import num, pct, turns
from strategia.engine.battle_record import BattleRecord, Fighting
from strategia.explain.render import rule_label
from strategia.game.report_facts import Facts, Rating
from strategia.game.report_words import OUTCOME, WITH, hidden, n, names, pursuit_line, unit_name
from strategia.rules.kinds import Facing, blow_on


def _rating_step(u: Fighting, r: Rating | None, lang: Lang) -> str:
    who = unit_name(u.unit, lang)
    face = u.blows[0].side if u.blows else "front"
    if u.role == "attacker":
        side = Facing.from_key(face).label(lang)
        lead = f"{who} бьет {WITH[face]}" if lang == "ru" else f"{who} strikes with its {side}"
    else:
        lead = (
            f"{who} против удара {blow_on(face, lang)}"
            if lang == "ru"
            else f"{who} against a blow {blow_on(face, lang)}"
        )
    rules = ["9.6"]
    if r is not None and r.terms:
        formula = " + ".join(f"{unit_name(k, lang)} {num(v, lang)}" for k, v in r.terms)
        body = f"{formula} = {n(r.derived if r.derived is not None else u.rating, lang)}"
        rules.insert(0, "table 7")
        if r.printed is not None and r.share is not None:
            body += (
                f"; {rule_label(r.table, lang)}: {n(r.printed, lang)} × "
                f"{num(r.share, lang)} = {n(r.value, lang)}"
            )
        elif r.printed is not None and r.derived is not None and abs(r.printed - r.derived) > 1e-6:
            tell = "дает" if lang == "ru" else "gives"
            body += f"; {rule_label(r.table, lang)} {tell} {n(r.printed, lang)}"
        elif r.table:
            rules.insert(1, r.table)
    elif r is not None and r.strength is not None and r.base is not None:
        body = f"{n(r.base, lang)} × {num(r.strength, lang)} = {n(r.value, lang)}"
    else:
        body = n(u.rating, lang)
    line = f"{lead}: {body} ({'; '.join(rule_label(x, lang) for x in rules)})"
    if u.factors:
        chain = " × ".join([n(u.rating, lang), *(num(x.value, lang) for x in u.factors)])
        what = ", ".join(f"{x.label(lang)} ({rule_label(x.rule, lang)})" for x in u.factors)
        line += f"; {what}: {chain} = {n(u.effective, lang)}"
    return line + "."


def _blows_step(u: Fighting, lang: Lang) -> str:
    who = unit_name(u.unit, lang)
    terms = " + ".join(f"{num(b.weight, lang)} × {n(b.rating, lang)}" for b in u.blows)
    wheres = ", ".join(f"{names(b.attackers, lang)} {blow_on(b.side, lang)}" for b in u.blows)
    if lang == "ru":
        return f"{who}: удары {wheres}; по их весу {terms} = {n(u.rating, lang)} (9.5; 9.6)."
    return f"{who}: blows {wheres}; by their weight {terms} = {n(u.rating, lang)} (9.5; 9.6)."


def steps(rec: BattleRecord, f: Facts, lang: Lang) -> tuple[str, ...]:
    out: list[str] = []
    for u in rec.units:
        if hidden(rec, u):
            continue
        if u.role == "defender" and len(u.blows) > 1:
            for b in u.blows:
                r = f.rating(u.unit, Facing.from_key(b.side).en)
                single = Fighting(u.unit, u.role, u.echelon, u.kind, b.rating, (), b.rating,
                                  u.before, blows=(b,))  # fmt: skip
                out.append(_rating_step(single, r, lang))
            out.append(_blows_step(u, lang))
            if u.factors:
                chain = " × ".join([n(u.rating, lang), *(num(x.value, lang) for x in u.factors)])
                what = ", ".join(x.label(lang) for x in u.factors)
                out.append(f"{unit_name(u.unit, lang)}: {what}: {chain} = {n(u.effective, lang)}.")
        else:
            face = u.blows[0].side if u.blows else "front"
            out.append(_rating_step(u, f.rating(u.unit, Facing.from_key(face).en), lang))
    if rec.supporters:
        sup = ", ".join(
            unit_name(s, lang) + (f" +{n(f.support[s], lang)}" if s in f.support else "")
            for s in rec.supporters
        )
        lead = "Поддержка соседей" if lang == "ru" else "Support by neighbours"
        out.append(f"{lead}: {sup} ({rule_label('9.8c', lang)}).")
    out += _exchange(rec, f, lang)
    out += _shares(rec, lang)
    out += [pursuit_line(p, lang) for p in rec.pursuit]
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
                f"{k} × {n(r.attack, lang)} × {t} = {n(r.defender_loss, lang)}; наступающий "
                f"теряет {k} × {n(r.defence, lang)} × {t} = {n(r.attacker_loss, lang)} "
                f"(9.8в, восстановлено)."
            )
        else:
            out.append(
                f"Exchange of losses, {r.label('en')} ({time}): the defender loses "
                f"{k} × {n(r.attack, lang)} × {t} = {n(r.defender_loss, lang)}; the attacker "
                f"loses {k} × {n(r.defence, lang)} × {t} = {n(r.attacker_loss, lang)} "
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
        parts.append(f"{who} {n(lost, lang)} / {n(u.effective, lang)} = {pct(u.lost, lang)} {each}")
    if not parts:
        return []
    lead = "Потери по долям" if lang == "ru" else "Losses by shares"
    out = [f"{lead}: " + "; ".join(parts) + f" ({rule_label('9.8c', lang)})."]
    if any(hidden(rec, u) for u in rec.units if u.role == "defender"):
        return out  # the enemy's defence left is not told
    left = sum(u.effective * (1 - u.lost) for u in rec.units if u.role == "defender")
    head = OUTCOME[rec.outcome][lang == "ru"].format(target=rec.target)
    if lang == "ru":
        out.append(f"У обороны остается {n(left, lang)} рейтинга: {head} (9.8в).")
    else:
        out.append(f"The defence has {n(left, lang)} of its rating left: {head} (9.8c).")
    return out


def reconstructed(f: Facts, lang: Lang) -> tuple[str, ...]:
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
