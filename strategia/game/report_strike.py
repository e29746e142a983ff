"""A strike's report (9.7): who fired on which cell, and each unit hit with its cell, the share
its ground loses, the strike's efficiency, the share destroyed and its strength before and
after (9.7a; a confirmed strike in contact, 9.7b, hits units beside the target too).

Written from the strike's record (`BattleRecord` with outcome "strike") and its explanation's
title; `report.battle_report` gives it the shape of any report.
"""

from __future__ import annotations

from strategia.core.i18n import Lang
from strategia.core.numbers import divisions, num, pct
from strategia.engine.battle_record import BattleRecord, Fighting
from strategia.explain.render import rule_label
from strategia.explain.trace import Step
from strategia.game.report_facts import journal_name
from strategia.game.report_words import feminine, unit_name
from strategia.rules.kinds import side_name

HEADER = (
    ("unit", "соединение"),
    ("side", "сторона"),
    ("cell", "клетка"),
    ("multipliers", "множители"),
    ("share destroyed", "доля уничтоженного"),
    ("strength, divisions", "силы, дивизий"),
)


def strike_parts(
    rec: BattleRecord, lang: Lang, turn: int | None, explanation: Step | None
) -> tuple[str, tuple[tuple[str, str], ...], tuple[str, ...], tuple[tuple[str, ...], ...],
           tuple[str, ...]]:  # fmt: skip
    """The title, summary, header, rows and steps of a strike's report."""
    ru = lang == "ru"
    head = f"Артиллерийский удар по {rec.target}" if ru else f"Artillery strike on {rec.target}"
    title = f"{head}, {'ход' if ru else 'turn'} {turn}." if turn is not None else f"{head}."
    who = side_name(rec.attacker, lang, capital=True)
    battery = _battery(explanation)
    if battery:
        name = unit_name(battery, lang)
        fires = "бьет по" if ru else "fires on"
        lead = f"{name} ({who}) {fires} {rec.target} ({rule_label('9.7', lang)})."
    else:  # a side's account: the breakdown is not told
        lead = f"{who}: {head[:1].lower()}{head[1:]} ({rule_label('9.7', lang)})."
    losses = "; ".join(_loss(u, lang) for u in rec.units) or ("без потерь" if ru else "no losses")
    summary = (("", lead), ("Итог:" if ru else "Outcome:", f"{losses}."))
    header = tuple(h[1] if ru else h[0] for h in HEADER)
    rows = tuple(_row(u, rec, lang) for u in rec.units)
    return title, summary, header, rows, tuple(_step(u, rec, lang) for u in rec.units)


def _battery(explanation: Step | None) -> str:
    """The battery that fired, as the strike's explanation is titled («51 а.д. fires on ...»)."""
    title = explanation.label.en if explanation is not None else ""
    return journal_name(title.split(" fires on ")[0]) if " fires on " in title else ""


def _loss(u: Fighting, lang: Lang) -> str:
    who = unit_name(u.unit, lang) + (f" ({u.cell})" if u.cell else "")  # an old record: none
    if u.destroyed:
        if lang == "ru":
            return f"{who} уничтожена" if feminine(u.unit) else f"{who} уничтожен"
        return f"{who} destroyed"
    left = divisions(u.strength_after, lang)
    if lang == "ru":
        return f"{who} теряет {pct(u.lost, lang)} (остается {left})"
    return f"{who} loses {pct(u.lost, lang)} ({left} left)"


def _row(u: Fighting, rec: BattleRecord, lang: Lang) -> tuple[str, ...]:
    side = u.side or (rec.attacker if u.role == "attacker" else rec.defender)
    factors = ", ".join(
        f"× {num(x.value, lang)} {x.label(lang)} ({rule_label(x.rule, lang)})" for x in u.factors
    )
    after = "—" if u.destroyed else num(u.strength_after, lang)
    return (
        unit_name(u.unit, lang),
        side_name(side, lang, capital=True),
        u.cell or rec.target,
        factors or "—",
        pct(u.lost, lang),
        f"{num(u.strength_before, lang)} → {after}",
    )


def _step(u: Fighting, rec: BattleRecord, lang: Lang) -> str:
    who = unit_name(u.unit, lang)
    at = "в" if lang == "ru" else "at"
    what = ", ".join(f"{x.label(lang)} ({rule_label(x.rule, lang)})" for x in u.factors)
    chain = " × ".join(num(x.value, lang) for x in u.factors)
    share = f"{what}: {chain} = {pct(u.lost, lang)}" if u.factors else pct(u.lost, lang)
    after = num(u.strength_after, lang)
    return (
        f"{who} {at} {u.cell or rec.target}: {share}; {num(u.strength_before, lang)} → {after} "
        f"({rule_label('9.7a', lang)})."
    )
