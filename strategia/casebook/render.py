"""The case book written out: a line per case (and, for a failure, what was expected beside
what was found), and a printable page grouped by chapter, in Russian or English."""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from typing import Any

from strategia.casebook import tactical
from strategia.casebook.case import Case, Expect, Step
from strategia.casebook.probes import LABELS
from strategia.casebook.run import CaseRun
from strategia.casebook.shown import TEXTS, in_english, question, translate, units_in
from strategia.core.errors import StrategiaError
from strategia.core.geometry import Direction
from strategia.core.i18n import Lang, Text
from strategia.core.numbers import num
from strategia.engine.state import BUSY
from strategia.notation.refs import UnitRef
from strategia.rules.kinds import RegimentKind, side_name

CHAPTERS = {
    "0": Text("0. The levels of the game", "0. Уровни игры"),
    "1": Text("1. The game and its turns", "1. Игра и ее ходы"),
    "2": Text("2. The theatre", "2. Театр военных действий"),
    "3": Text("3. Forces", "3. Силы"),
    "4": Text("4. Movement", "4. Передвижение"),
    "5": Text("5. Planning and deployment", "5. Планирование и развертывание"),
    "6": Text("6. Forces by level, mobilisation", "6. Силы по уровням, мобилизация"),
    "8": Text("8. Information and reconnaissance", "8. Информация и разведка"),
    "9": Text("9. Combat", "9. Боевые действия"),
    "table": Text("Tables (numbered as in 000)", "Таблицы (по нумерации правил 000)"),
    "003": Text("Seed 003: the tactical rules", "Сид 003: тактические правила"),
}
WORDS = {
    "passed": Text("passed", "выполнен"),
    "failed": Text("FAILED", "НЕ ВЫПОЛНЕН"),
    "changed": Text("changes under the house rules", "меняется по домашним правилам"),
    "same": Text("the same under the house rules", "по домашним правилам так же"),
    "expected": Text("expected", "ожидалось"),
    "found": Text("found", "найдено"),
    "position": Text("Position", "Позиция"),
    "orders": Text("Orders", "Приказы"),
    "expect": Text("Expected", "Ожидается"),
    "level": Text("level", "уровень"),
    "example": Text("the seed's worked example", "пример из сида"),
    "reading": Text("reading", "прочтение"),
    "silent": Text("the seed is silent", "сид молчит"),
    "summary": Text("cases: {n}, passed: {ok}", "случаев: {n}, выполнено: {ok}"),
    "title": Text("Strategia: the case book", "Strategia: книга случаев"),
    "error": Text("could not be played", "не разыгран"),
}
CSS = """body{font:14px/1.45 Georgia,serif;max-width:52em;margin:2em auto;color:#222}
h1{font-size:1.6em}h2{font-size:1.25em;border-bottom:1px solid #999;margin-top:2em}
.case{margin:1.2em 0;page-break-inside:avoid}.case h3{font-size:1.05em;margin:.2em 0}
.quote{font-style:italic;margin:.3em 0 .3em 1em}.meta{color:#555;font-size:.9em}
pre{font:12px/1.2 monospace;background:#f6f6f6;padding:.4em;overflow-x:auto}
.ok{color:#070}.bad{color:#b00;font-weight:bold}td,th{padding:0 .6em 0 0;text-align:left}
@media print{body{margin:0;max-width:none}pre{white-space:pre-wrap}}"""


def value(v: Any, lang: Lang) -> str:
    """A value as a mediator writes it."""
    if isinstance(v, bool):
        return ("да" if v else "нет") if lang == "ru" else ("yes" if v else "no")
    if isinstance(v, int | float):
        return num(float(v), lang)
    if isinstance(v, list):
        return ", ".join(value(x, lang) for x in v) or "—"
    if isinstance(v, dict):
        return "; ".join(f"{k}: {value(x, lang)}" for k, x in v.items()) or "—"
    return "—" if v is None or v == "" else str(v)


OUTCOMES = {
    "held": Text("the position held", "позиция удержана"),
    "taken": Text("the position taken", "позиция взята"),
    "beaten_off": Text("the attack beaten off", "атака отбита"),
    "retreat": Text("the defender retreated", "обороняющийся отошел"),
    "no_battle": Text("no battle", "боя нет"),
    "strike": Text("an artillery strike", "артиллерийский удар"),
}
PHASES = {
    "deployment": Text("deployment (no war yet)", "развертывание (войны еще нет)"),
    "combat": Text("combat", "боевые действия"),
    "peace": Text("peace talks", "мирные переговоры"),
}


def _word(name: str, v: str, lang: Lang) -> str:
    """A key the program records (a battle's outcome, the phase, a formation) in words."""
    from strategia.rules.kinds import Formation

    table = {"battle": OUTCOMES, "phase": PHASES}.get(name)
    if table is not None and v in table:
        return table[v](lang)
    if name == "formation" and (f := Formation.find(v)) is not None:
        return f.label(lang)
    return v


UNIT_VALUES = ("seen", "first_echelon", "second_echelon", "warned", "hit", "supporters")
UNIT_KEYS = ("strips", "corps_count", "army_divisions", "after", "pursuit")


def _shown(name: str, v: Any, lang: Lang, subject: str = "") -> str:
    """A value as the book prints it, in the reader's words (`shown.translate`)."""
    if name in ("told", "outcome", "at_notation") and isinstance(v, str):
        return f"«{notation(v, lang, placement=True)}»"
    if name in ("cut_reason", "refused") and isinstance(v, str):
        v = units_in(v, lang)
        russian = lang != "ru" and re.search("[а-яё]{3,}", v.lower()) is not None
        return f"«{v}»" + (" (in Russian)" if russian else "")
    v = translate(name, v, lang, subject)
    if name in ("battle", "phase") and isinstance(v, str):
        return _word(name, v, lang)
    if name == "score" and isinstance(v, dict):
        return value({side_name(k, lang, capital=True): x for k, x in v.items()}, lang)
    if lang != "ru":
        v = _english(name, v)
    return value(v, lang)


def _english(name: str, v: Any) -> Any:
    """A value the probes give in Russian (a facing, a unit, a regiment's kind, a unit's work,
    a side) written in English; as given where it cannot be read."""

    def unit(x: Any) -> Any:
        try:
            return UnitRef.parse(str(x)).format("en")
        except StrategiaError:
            return x

    try:
        if name == "facing" and isinstance(v, str) and v:
            d = Direction.parse(v)
            return d.aliases[0] if d.aliases else d.en
        if name == "composition" and isinstance(v, list):
            return [RegimentKind.parse(str(x)).en for x in v]
        if name == "busy" and isinstance(v, str):
            return next((b.en for k, b in BUSY.items() if v in (k, b.ru)), v)
    except (StrategiaError, ValueError, KeyError):
        return v
    if name in UNIT_VALUES and isinstance(v, list):
        return [unit(x) for x in v]
    if name in UNIT_KEYS and isinstance(v, dict):
        return {unit(k): x for k, x in v.items()}
    if name == "corps" and isinstance(v, str) and v:
        return unit(v)
    return v


def subject(e: Expect, lang: Lang) -> str:
    if e.subject == "unit":
        try:
            return UnitRef.parse(str(e.of)).format(lang)
        except StrategiaError:
            return str(e.of)
    if e.subject == "result":
        return f"{'шаг' if lang == 'ru' else 'step'} {e.of}"
    if e.subject == "closed":
        return f"{'закрыто в' if lang == 'ru' else 'closed at'} {e.of}"
    if e.subject == "view":
        who = side_name(str(e.of), lang, "dat", capital=True)
        return f"{who} сообщено" if lang == "ru" else f"{who} is told"
    if e.subject == "troop":
        return str(e.of)
    return "игра" if lang == "ru" else "the game"


PHRASES = {
    ("cut", False): Text("carried out uncut (9.3)", "исполнен без сокращений (9.3)"),
    ("cut", True): Text("cut (9.3)", "сокращен (9.3)"),
    ("busy", ""): Text("not busy", "не занята"),
}


def _phrase(name: str, want: Any, lang: Lang, subject: str, is_tactical: bool) -> str:
    """A field and the value expected of it, as a sentence reads it."""
    if isinstance(want, bool | str) and (name, want) in PHRASES:
        return PHRASES[(name, want)](lang)
    if subject == "troop" or (is_tactical and name in tactical.LABELS):
        label = tactical.LABELS[name](lang) if name in tactical.LABELS else name
    else:
        label = LABELS[name][0](lang) if name in LABELS else name
    return f"{label} {_shown(name, want, lang, subject)}"


def expectation(
    e: Expect,
    lang: Lang,
    actual: dict[str, Any] | None = None,
    shown: dict[str, Any] | None = None,
    is_tactical: bool = False,
) -> list[str]:
    """The expectation in words, a line a field; with `actual`, what was found beside it;
    `shown`: what to write instead of an expected value (the program's own words in `lang`)."""
    out = []
    for name, want in e.fields:
        if name == "of":
            continue
        if shown and name in shown:
            want = shown[name]
        line = f"{subject(e, lang)}: {_phrase(name, want, lang, e.subject, is_tactical)}"
        if actual is not None:
            found = actual.get(name)
            line += f" — {WORDS['found'](lang)} {_shown(name, found, lang, e.subject)}"
        out.append(line)
    return out


def lines(runs: Sequence[CaseRun], lang: Lang = "en") -> str:
    """A line per case (pass or fail); under a failure, each expectation beside its finding;
    under house rules, whether the case changes."""
    out = []
    width = max([10, *(len(x.case.id) for x in runs)])
    for r in runs:
        mark = WORDS["passed" if r.passed else "failed"](lang)
        house = ""
        if r.changed is not None:
            house = f"  [{WORDS['changed' if r.changed else 'same'](lang)}]"
        out.append(f"{mark:<12} {r.case.id:<{width}} {r.case.title(lang)}{house}")
        if r.error is not None:
            out.append(f"    {WORDS['error'](lang)}: {r.error(lang)}")
        for k in r.checks:
            if not k.passed or r.changed:
                shown = expectation(k.expect, lang, dict(k.actual), is_tactical=r.case.is_tactical)
                out += [f"    {x}" for x in shown]
    ok = sum(r.passed for r in runs)
    out.append(WORDS["summary"](lang).format(n=len(runs), ok=ok))
    return "\n".join(out)


def _e(x: object) -> str:
    return html.escape(str(x))


def step(s: Step, lang: Lang) -> str:
    """A step of a case as the book prints it."""
    who = f"{side_name(s.side, lang, capital=True)}: " if s.side else ""
    if s.kind in tactical.STEP_KINDS:
        return tactical.step_text(s, lang)
    if s.kind == "end_turn":
        times = f" ({s.text} {'раз' if lang == 'ru' else 'times'})" if s.text.isdigit() else ""
        return ("конец хода" if lang == "ru" else "end of turn") + times
    if s.kind == "undo":
        return "отмена" if lang == "ru" else "undo"
    if s.kind == "order":
        return who + notation(s.text, lang)
    if s.kind == "ask":
        return f"{who}{'вопрос' if lang == 'ru' else 'question'}: {question(s.text, lang)}"
    return f"{'посредник' if lang == 'ru' else 'mediator'}: {s.text}"


# the words of the cases' sources (`source = "000, 9.7а; 002, табл. 1"`), in English
SOURCE_WORDS = {
    "табл.": "table", "примеч.": "note", "комментарий": "commentary",
    "скорость перестроения": "formation changes", "движение через препятствие": "obstacles",
    "скорость передвижения": "movement speeds", "порядок действий в каждый ход": "turn sequence",
    "перемена фронта": "change of front", "снятие с передков": "unlimbering",
    "рельеф и крепости 2 уровня": "level 2 relief and fortresses",
    "рельеф 1 уровня": "level 1 relief", "крепости 2 уровня": "level 2 fortresses",
    "«Рельеф местности»": "“Relief”",
}  # fmt: skip
_RULE_LETTER = str.maketrans("абвгдежз", "abcdefgh")


def source_in(text: str, lang: Lang) -> str:
    """A case's source as the reader writes it: the seeds' words and rule ids in English."""
    if lang == "ru":
        return text
    for ru, en in sorted(SOURCE_WORDS.items(), key=lambda kv: -len(kv[0])):
        text = text.replace(ru, en)
    return re.sub(r"(\d\.\d+)([а-з])\b", lambda m: m[1] + m[2].translate(_RULE_LETTER), text)


def case_html(r: CaseRun, lang: Lang) -> str:
    """One case as the book prints it."""
    c: Case = r.case
    word = WORDS["passed" if r.passed else "failed"](lang)
    mark = f"<span class='{'ok' if r.passed else 'bad'}'>{word}</span>"
    tags = [f"{WORDS['level'](lang)} {c.level}"] if c.level else []
    tags.append(_e(source_in(c.source, lang)))
    if c.example:
        tags.append(WORDS["example"](lang))
    parts = [
        f"<div class='case' id='case-{_e(c.id)}'><h3><code>{_e(c.id)}</code>. "
        f"{_e(c.title(lang))} {mark}</h3>",
        f"<div class='meta'>{' · '.join(tags)}</div>",
        f"<div class='quote'>«{_e(c.quote)}»</div>",
    ]
    if c.reading is not None:
        parts.append(f"<p><b>{WORDS['reading'](lang)}:</b> {_e(c.reading(lang))}</p>")
    if c.silent is not None:
        parts.append(f"<p><b>{WORDS['silent'](lang)}:</b> {_e(c.silent(lang))}</p>")
    parts.append(f"<p><b>{WORDS['position'](lang)}</b></p><pre>{_e(position(c, lang))}</pre>")
    orders = "".join(f"<li><code>{_e(step(s, lang))}</code></li>" for s in c.steps)
    parts.append(f"<p><b>{WORDS['orders'](lang)}</b></p><ol>{orders}</ol>")
    found = {id(k.expect): dict(k.actual) for k in r.checks if not k.passed}
    items = "".join(
        f"<li>{_e(x)}</li>"
        for e in c.expects
        for x in expectation(
            e, lang, found.get(id(e)), _words(r, e, lang, id(e) in found), c.is_tactical
        )
    )
    parts.append(f"<p><b>{WORDS['expect'](lang)}</b></p><ul>{items}</ul>")
    if c.note is not None:
        parts.append(f"<p class='meta'>{_e(c.note(lang))}</p>")
    if r.error is not None:
        parts.append(f"<p class='bad'>{WORDS['error'](lang)}: {_e(r.error(lang))}</p>")
    return "".join(parts) + "</div>"


def _words(r: CaseRun, e: Expect, lang: Lang, failed: bool) -> dict[str, Any] | None:
    """For the English book, the English words of what a step gave, where the case expects
    (and found) the Russian ones."""
    if lang == "ru" or failed or e.subject != "result" or not r.done:
        return None
    spec = dict(e.fields)
    done = r.done[int(e.of) - 1]
    words = {name: in_english(done, name, spec) for name in TEXTS if name in spec}
    return {k: v for k, v in words.items() if v is not None}


POSITION = {
    "relief": Text("relief", "рельеф"),
    "states": Text("states", "государства"),
    "order_of_battle": Text("order of battle", "состав"),
    "deployment": Text("deployment", "развертывание"),
    "mobilisation": Text("mobilisation", "мобилизация"),
    "roads": Text("roads", "дороги"),
    "railways": Text("railways", "железные дороги"),
    "trails": Text("trails", "тропы"),
    "rivers": Text("rivers", "реки"),
    "cities": Text("cities", "города"),
    "capitals": Text("capitals", "столицы"),
    "fortresses": Text("fortresses", "крепости"),
    "legend": Text(
        ". plain  h hills  f forest  s swamp  ^ mountains  ~ water",
        ". равнина  h холмы  f лес  s болото  ^ горы  ~ вода",
    ),
}


def notation(text: str, lang: Lang, placement: bool = False) -> str:
    """An order (or a deployment line) in the reader's language's notation; as written if it
    cannot be read alone."""
    if lang == "ru" or not text.strip():
        return text
    from strategia.notation.orders import parse_order
    from strategia.notation.refs import Placement

    try:
        return Placement.parse(text).format(lang) if placement else parse_order(text).format(lang)
    except StrategiaError:
        return text


def _grid(rows: list[str], name: str, lang: Lang = "ru") -> list[str]:
    """Map rows with their latitudes on the left and the longitudes below, as the seeds number
    cells (longitude first, latitude growing northward); a map of one character throughout in
    a line (its size and that character)."""
    width = max((len(r) for r in rows), default=0)
    if (len(rows) > 3 or width > 20) and len(set("".join(rows))) == 1:
        where = "везде" if lang == "ru" else "everywhere"
        return [f"{name}: {width} × {len(rows)}, {where} «{rows[0][0]}»"]
    pad = len(str(width)) + 1
    lat_pad = len(str(len(rows)))
    out = [f"{name}:"]
    for k, row in enumerate(rows):
        lat = len(rows) - k
        out.append(f"{lat:>{lat_pad}} " + "".join(ch.ljust(pad) for ch in row).rstrip())
    out.append(" " * (lat_pad + 1) + "".join(str(n).ljust(pad) for n in range(1, width + 1)))
    return out


def position(c: Case, lang: Lang = "ru") -> str:
    """The case's map (numbered as the seeds number cells), routes, places and forces, in the
    notation of its file, headed in the reader's language."""
    import tomllib

    if c.is_tactical:
        return tactical.position(c, lang)
    data = tomllib.loads(c.path.read_text(encoding="utf-8"))
    names: dict[str, str] = {}
    for st in data.get("state", []):
        names[str(st.get("code"))] = str(st.get("name"))
    m = data.get("map", {})
    rows: list[str] = []
    for key in ("relief", "states"):
        if key in m:
            rows += _grid(m[key].strip("\n").split("\n"), POSITION[key](lang), lang)
    rows.append(POSITION["legend"](lang))
    for table in ("routes", "places"):
        for k, v in data.get(table, {}).items():
            if v:
                rows.append(f"{POSITION[k](lang) if k in POSITION else k}: {'; '.join(v)}")
    default = {"R": "Красные", "B": "Синие"} if lang == "ru" else {"R": "Red", "B": "Blue"}
    for code, body in data.get("forces", {}).items():
        who = names.get(code) or default.get(code, code)
        for key in ("order_of_battle", "deployment", "mobilisation"):
            if key in body:
                rows.append(f"{who}, {POSITION[key](lang)}:")
                rows += [
                    f"  {_force_line(x.strip(), key, lang)}" for x in body[key].strip().split("\n")
                ]
    return "\n".join(rows)


def _force_line(text: str, key: str, lang: Lang) -> str:
    """A line of a state's forces in the reader's notation: a deployment line, an order of
    battle's `1 А: 1 с.к., 5 т.д.`, a mobilisation's `M+5: 3 с.д. - Красноград`."""
    if key == "deployment" or lang == "ru":
        return notation(text, lang, placement=True)
    head, sep, rest = text.partition(":")
    where = ""
    if key == "mobilisation":
        rest, dash, place = rest.rpartition(" - ")
        where = f" - {place}" if dash else ""
    try:
        refs = [UnitRef.parse(x.strip()).format(lang) for x in rest.split(",") if x.strip()]
        if key == "order_of_battle":
            head = UnitRef.parse(head.strip()).format(lang)
    except StrategiaError:
        return text
    return f"{head}{sep} {', '.join(refs)}{where}" if sep else text


def book_html(runs: Sequence[CaseRun], lang: Lang = "ru") -> str:
    """The book as a page to print: the cases by chapter, each with its rule, the seed's
    words, the position, the orders, what is expected and whether the program does it."""
    chapters: dict[str, list[CaseRun]] = {}
    for r in runs:
        chapters.setdefault(r.case.chapter, []).append(r)
    order = [k for k in CHAPTERS if k in chapters] + sorted(set(chapters) - set(CHAPTERS))
    ok = sum(r.passed for r in runs)
    body = [
        f"<h1>{WORDS['title'](lang)}</h1>",
        f"<p>{WORDS['summary'](lang).format(n=len(runs), ok=ok)}</p>",
    ]
    for key in order:
        head = CHAPTERS[key](lang) if key in CHAPTERS else key
        body.append(f"<h2>{_e(head)}</h2>")
        body += [case_html(r, lang) for r in chapters[key]]
    return (
        f"<!doctype html><html lang='{lang}'><head><meta charset='utf-8'>"
        f"<title>{WORDS['title'](lang)}</title><style>{CSS}</style></head><body>"
        + "".join(body)
        + "</body></html>"
    )


__all__ = ["CHAPTERS", "CSS", "book_html", "case_html", "expectation", "lines", "position", "value"]
