"""A strike's report (9.7), as a battle's reads: who fired at what from where, the distance and
the efficiency with its numbers put in (table 11 at level 2, the formula -x²/15 - x/3 + 120 at
level 3), each unit hit with its cell, the share its ground loses and its strength before and
after (9.7a; a confirmed strike in contact hits units beside the target too, 9.7b), and what a
strike closed (a road for 5 turns to transfers and 2 to movement, a bridge or a pass for 7:
9.7c) or what interdiction fire will take (9.7d).

Written from the strike's record (`BattleRecord` with outcome "strike": the units hit) and its
explanation (`strike_facts`: the battery's cell, the distance, the efficiency, the closures, as
the engine worked them out); a side's copy has its own units only, and the facts of its own
battery's fire. `report.battle_report` gives it the shape of any report.
"""

from __future__ import annotations

from dataclasses import dataclass

from strategia.core.i18n import Lang, Text
from strategia.core.numbers import divisions, num, pct, turns
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
KINDS = ("units", "road", "bridge", "interdict")
TITLES = {
    "units": ("Artillery strike on {t}", "Артиллерийский удар по {t}"),
    "road": ("Artillery fire on the road at {t}", "Артиллерийский огонь по дороге в {t}"),
    "bridge": ("Artillery fire on the bridge at {t}", "Артиллерийский огонь по мосту в {t}"),
    "interdict": ("Interdiction fire on {t}", "Огонь на отсечение по {t}"),
}
FORMULA = (-1 / 15, -1 / 3, 120.0)  # 9.7a, level 3: -x*x/15 - x/3 + 120


@dataclass(frozen=True)
class StrikeFacts:
    """What the engine worked out of a strike, read from its explanation."""

    kind: str = "units"  # units, road, bridge, interdict
    battery: str = ""
    origin: str = ""  # the battery's cell
    distance_km: float | None = None  # table 2's (level 1)
    offset: Text | None = None  # the target's offset along each axis (level 2, table 11)
    table_cell: Text | None = None  # table 11's row and column
    centres_km: float | None = None  # between the cells' centres (level 3)
    coefficients: tuple[float, ...] = ()  # the formula's a, b, c (level 3)
    efficiency: float | None = None  # None: not recorded (1: level 1, or 100 %)
    share: float | None = None  # the share destroyed on the target's ground
    survive: float | None = None  # the share the target's ground leaves (9.7a)
    closed: tuple[tuple[Text, float], ...] = ()  # (what, turns): 9.7c

    @property
    def level(self) -> int:
        return 3 if self.centres_km is not None else 2 if self.offset is not None else 1


def strike_facts(explanation: Step | None) -> StrikeFacts:
    """The facts of a strike from its explanation's first level (nothing: none known)."""
    if explanation is None:
        return StrikeFacts()
    title = explanation.label.en
    battery = journal_name(title.split(" fires on ")[0]) if " fires on " in title else ""
    kind = next((k for k in KINDS if title.endswith(f"({k})")), "units")
    found: dict[str, object] = {"kind": kind, "battery": battery}
    coefficients: list[float] = []
    closed: list[tuple[Text, float]] = []
    for s in explanation.children:
        en, v = s.label.en, s.value
        number = float(v) if isinstance(v, int | float) and not isinstance(v, bool) else None
        if en == "the battery fires from" and isinstance(v, Text):
            found["origin"] = v.en
        elif en == "distance (table 2)" and number is not None:
            found["distance_km"] = number
        elif en == "offset of the target along each axis" and isinstance(v, Text):
            found["offset"] = v
        elif en == "distance between the cells' centres" and number is not None:
            found["centres_km"] = number
        elif en == "efficiency at this range" and number is not None:
            found["efficiency"] = number
        elif en == "share destroyed" and number is not None:
            found["share"] = number
        elif s.kind == "lookup" and s.rule == "table 11" and "km," in en:
            found["table_cell"] = s.label
        elif s.kind == "lookup" and s.rule == "9.7a" and s.unit.startswith("%"):
            coefficients.append(number or 0.0)
        elif s.kind == "lookup" and s.rule == "9.7c" and number is not None:
            closed.append((s.label, number))
        elif s.kind == "lookup" and s.rule == "9.7" and number is not None and not s.children:
            found["survive"] = number
    cell = found.pop("table_cell", None)
    return StrikeFacts(
        **found,  # type: ignore[arg-type]
        table_cell=cell if isinstance(cell, Text) else None,
        coefficients=tuple(coefficients),
        closed=tuple(closed),
    )


def strike_parts(
    rec: BattleRecord,
    lang: Lang,
    turn: int | None,
    explanation: Step | None,
    outcome: Text | None = None,
) -> tuple[str, tuple[tuple[str, str], ...], tuple[str, ...], tuple[tuple[str, ...], ...],
           tuple[str, ...]]:  # fmt: skip
    """The title, summary, header, rows and steps of a strike's report."""
    ru = lang == "ru"
    f = strike_facts(explanation)
    head = TITLES[f.kind][ru].format(t=rec.target)
    title = f"{head}, {'ход' if ru else 'turn'} {turn}." if turn is not None else f"{head}."
    who = side_name(rec.attacker, lang, capital=True)
    rule = rule_label("9.7d" if f.kind == "interdict" else "9.7a", lang)
    if f.battery:
        name = unit_name(f.battery, lang)
        fires = "бьет по" if ru else "fires on"
        origin = (f" из {f.origin}" if ru else f" from {f.origin}") if f.origin else ""
        lead = f"{name} ({who}){origin} {fires} {rec.target} ({rule})."
    else:  # a side's account of the enemy's fire: who fired, from where, is not told
        lead = f"{who}: {head[:1].lower()}{head[1:]} ({rule_label('9.7', lang)})."
    summary = [("", lead)]
    reach = _reach(f, lang)
    if reach:
        summary.append(("Дальность:" if ru else "Range:", reach))
    summary.append(("Итог:" if ru else "Outcome:", _outcome(rec, f, lang, turn, outcome)))
    header = tuple(h[1] if ru else h[0] for h in HEADER)
    rows = tuple(_row(u, rec, lang) for u in rec.units)
    steps = [s for s in (_reach_step(f, lang),) if s]
    steps += [_step(u, rec, lang) for u in rec.units]
    steps += [s for s in (_closure_step(rec, f, lang, turn), _interdiction_step(rec, f, lang)) if s]
    return title, tuple(summary), header, rows, tuple(steps)


# --- the range and the efficiency ----------------------------------------------------------------


def _efficiency(f: StrikeFacts) -> float:
    return f.efficiency if f.efficiency is not None else 1.0


def _share(x: float, lang: Lang) -> str:
    """An efficiency as a percentage, a decimal where it has one (42,8 %)."""
    p = num(x * 100, lang, digits=3, decimals=1)
    return f"{p}\u00a0%" if lang == "ru" else f"{p}%"


def _formula(f: StrikeFacts, lang: Lang) -> str:
    """The level-3 formula with the distance put in: −31,6²/15 − 31,6/3 + 120 = 42,8 %."""
    x = f.centres_km or 0.0
    xs = num(x, lang)
    a, b, c = f.coefficients if len(f.coefficients) == 3 else FORMULA
    if abs(a - FORMULA[0]) < 1e-6 and abs(b - FORMULA[1]) < 1e-6:
        body = f"−{xs}²/15 − {xs}/3 + {num(c, lang)}"
    else:  # a house rule's coefficients
        body = f"{num(a, lang, 4, 4)} × {xs}² {num(b, lang, 4, 4)} × {xs} + {num(c, lang)}"
    return f"{body} = {_share(_efficiency(f), lang)}"


def _reach(f: StrikeFacts, lang: Lang) -> str:
    """The summary's range line."""
    ru = lang == "ru"
    if f.kind in ("road", "bridge"):  # a closure does not depend on the efficiency (9.7c)
        where = _where(f, lang)
        reach = "в досягаемости" if ru else "in reach"
        return f"{where}: {reach} ({rule_label('9.7a', lang)})." if where else ""
    if f.level == 3:
        km = num(f.centres_km or 0.0, lang)
        what = "км между центрами клеток" if ru else "km between the cells' centres"
        return f"{km} {what}: {_formula(f, lang)} ({rule_label('9.7a', lang)})."
    if f.level == 2 and f.offset is not None:
        eff = _share(_efficiency(f), lang)
        word = "эффективность" if ru else "efficiency"
        return f"{f.offset(lang)}: {word} {eff} ({rule_label('table 11', lang)})."
    if f.distance_km is not None:
        km = num(f.distance_km, lang)
        full = "удар в полную силу" if ru else "the strike at full strength"
        unit = "км" if ru else "km"
        return f"{km} {unit} ({rule_label('table 2', lang)}): {full} ({rule_label('9.7a', lang)})."
    return ""


def _where(f: StrikeFacts, lang: Lang) -> str:
    """The target's distance or offset, as the level reads it."""
    km = "км" if lang == "ru" else "km"
    if f.centres_km is not None:
        return f"{num(f.centres_km, lang)} {km}"
    if f.offset is not None:
        return f.offset(lang)
    if f.distance_km is not None:
        return f"{num(f.distance_km, lang)} {km} ({rule_label('table 2', lang)})"
    return ""


def _reach_step(f: StrikeFacts, lang: Lang) -> str:
    """The step that gives the efficiency, its numbers put in."""
    ru = lang == "ru"
    if f.kind in ("road", "bridge"):
        return ""
    who = unit_name(f.battery, lang) if f.battery else ""
    at = (f" в {f.origin}" if ru else f" at {f.origin}") if f.origin else ""
    if f.level == 3:
        x = num(f.centres_km or 0.0, lang)
        lead = "Расстояние от" if ru else "Distance from"
        to = "до цели между центрами клеток" if ru else "to the target, between the cells' centres"
        eff = "эффективность" if ru else "efficiency"
        return (
            f"{lead} {who}{at} {to}: x = {x} {'км' if ru else 'km'}; {eff} −x²/15 − x/3 + 120 = "
            f"{_formula(f, lang)} ({rule_label('9.7a', lang)}, {'3 уровень' if ru else 'level 3'})."
        )
    if f.level == 2 and f.offset is not None:
        lead = "Смещение цели от" if ru else "The target's offset from"
        cell = f" ({f.table_cell(lang)})" if f.table_cell is not None else ""
        table = rule_label("table 11", lang)
        eff = _share(_efficiency(f), lang)
        return f"{lead} {who}{at}: {f.offset(lang)}; {table}{cell}: {eff}."
    return ""


# --- the outcome ------------------------------------------------------------------------------


def _outcome(
    rec: BattleRecord, f: StrikeFacts, lang: Lang, turn: int | None, outcome: Text | None
) -> str:
    ru = lang == "ru"
    if f.kind in ("road", "bridge") and f.closed:
        return _closed(rec, f, lang) + "."
    if f.kind == "interdict" and f.share is not None:
        pass_ = (
            f"войска, которые пройдут через {rec.target} при ходе противника, теряют "
            if ru
            else f"troops passing through {rec.target} on the enemy's move lose "
        )
        return f"{pass_}{pct(f.share, lang)} ({rule_label('9.7d', lang)})."
    if rec.units:
        told = "; ".join(_loss(u, lang) for u in rec.units)
        if rec.side and rec.side == rec.attacker:  # the battery does not see whom it hit
            told += "; потери противника не сообщаются" if ru else "; the enemy's losses: untold"
        return told + "."
    if outcome is not None and f.kind != "units":
        return f"{outcome(lang)}."
    if rec.side and rec.side == rec.attacker:
        return (
            "потери противника не сообщаются (1.6)." if ru else "the enemy's losses: untold (1.6)."
        )
    return "без потерь." if ru else "no losses."


def _closed(rec: BattleRecord, f: StrikeFacts, lang: Lang) -> str:
    """What a strike closed and for how long (9.7c)."""
    ru = lang == "ru"
    parts = []
    for what, n in f.closed:
        long = turns(n, lang)
        if "transfer" in what.en:
            parts.append(f"на {long} для переброски войск" if ru else f"for {long} to transfers")
        elif "movement" in what.en:
            parts.append(f"на {long} для их движения" if ru else f"for {long} to movement")
        else:
            parts.append(
                f"для всякого движения войск и грузов на {long}"
                if ru
                else f"to all movement of troops and loads for {long}"
            )
    if f.kind == "road":
        head = f"дорога в {rec.target} закрыта" if ru else f"the road at {rec.target} is closed"
    else:
        head = (
            f"мост (перевал) в {rec.target} закрыт"
            if ru
            else (f"the bridge (pass) at {rec.target} is closed")
        )
    joined = (" и " if ru else " and ").join(parts)
    return f"{head} {joined} ({rule_label('9.7c', lang)})"


def _closure_step(rec: BattleRecord, f: StrikeFacts, lang: Lang, turn: int | None) -> str:
    """Each closure with the turns it lasts (a strike on turn 3 closes a road for 5 turns to
    transfers: turns 3 to 7)."""
    if f.kind not in ("road", "bridge") or not f.closed:
        return ""
    ru = lang == "ru"
    lines = []
    for what, n in f.closed:
        when = ""
        if turn is not None:
            last = turn + int(n) - 1
            when = f" (ходы {turn}–{last})" if ru else f" (turns {turn} to {last})"
        lines.append(f"{what(lang)}: {turns(n, lang)}{when}")
    return f"{rec.target}: {'; '.join(lines)} ({rule_label('9.7c', lang)})."


def _interdiction_step(rec: BattleRecord, f: StrikeFacts, lang: Lang) -> str:
    if f.kind != "interdict" or f.share is None or f.survive is None:
        return ""
    ru = lang == "ru"
    chain = f"(1 − {num(f.survive, lang)})"
    if f.efficiency is not None:
        chain += f" × {num(f.efficiency, lang)}"
    left = "по местности остается" if ru else "the ground leaves"
    what = "уничтожается" if ru else "destroyed"
    return (
        f"{rec.target}: {left} {num(f.survive, lang)}; {what} {chain} = {pct(f.share, lang)} "
        f"({rule_label('9.7a', lang)}; {rule_label('9.7d', lang)})."
    )


# --- the units hit ----------------------------------------------------------------------------


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


def side_facts(explanation: Step) -> Step:
    """A strike's explanation as the firing side may have it (its own battery's fire): the
    first level's facts, none of the units hit (each side is told of its own), no cuts (9.3)."""
    kept = tuple(s for s in explanation.children if not s.children and s.kind in ("step", "lookup"))
    head = explanation.head()
    return Step(head.label, head.value, head.unit, head.rule, head.note, head.kind, kept)


__all__ = ["StrikeFacts", "side_facts", "strike_facts", "strike_parts"]
