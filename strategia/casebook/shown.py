"""A value a case expects, put in the reader's language before the book prints it: unit names as
the reader's notation writes them (`1 т.д.`, `1 TD`), rule ids as the reader's seeds do
(«табл. 11», «9.7а»), and the keys the program reads (a closed road's kind, a formation, how a
side knows of an enemy division) in words. The case files keep the program's values, which is
what the run compares.
"""

from __future__ import annotations

import re
from typing import Any

from strategia.casebook import tactical
from strategia.casebook.probes import CLOSED, HOW, Done
from strategia.core.errors import StrategiaError
from strategia.core.geometry import Direction
from strategia.core.i18n import Lang
from strategia.explain.render import rule_label
from strategia.game.accounts import told
from strategia.game.questions import parse_question
from strategia.notation.refs import Placement, UnitRef
from strategia.rules.kinds import CorpsKind, DivisionKind, Formation, RegimentKind, side_name

_UNITS = ("hit", "after", "pursuit", "supporters", "seen", "known", "told_of", "regiments_of")
_HOW_EN = {"открытый участок": "an open sector (8.2)", "соприкосновение": "in contact",
           "прикрытие": "a covering force, its position only", "": "nothing"}  # fmt: skip


def _unit(name: Any, lang: Lang) -> Any:
    try:
        return UnitRef.parse(str(name)).format(lang)
    except StrategiaError:
        return name


def _word(v: Any, kind: Any, lang: Lang) -> Any:
    try:
        return kind.parse(str(v)).text(lang)
    except StrategiaError:
        return v


def _regiment(v: Any) -> Any:
    try:
        return RegimentKind.parse(str(v)).en
    except StrategiaError:
        return v


def _placement(v: Any, lang: Lang) -> Any:
    try:
        return Placement.parse(str(v)).format(lang)
    except StrategiaError:
        return v


_KINDS = {k.ru: k.en for k in (*DivisionKind, *CorpsKind) if k.ru != k.en}
_UNIT_IN_TEXT = re.compile(
    r"(?<![\w.])(\d+ )?("
    + "|".join(re.escape(k) for k in sorted(_KINDS, key=len, reverse=True))
    + r")(?![\w])"
)


def units_in(text: str, lang: Lang) -> str:
    """`text` with the units in it written in `lang`'s notation: an engine text in English
    still names units, and kinds, as the journal writes them («5 т.д. turned», «table 4, т.д.
    in mountains» are «5 TD turned», «table 4, TD in mountains»)."""
    if lang == "ru":
        return text

    def one(m: re.Match[str]) -> str:
        return f"{m.group(1) or ''}{_KINDS[m.group(2)]}"

    return _UNIT_IN_TEXT.sub(one, text)


def translate(name: str, v: Any, lang: Lang, subject: str = "") -> Any:
    """`v`, the value of field `name` (of `subject`), with its words in `lang`."""
    if subject == "troop":
        words = tactical.shown(name, v, lang)
        return v if words is None else words
    if name in ("cut", "clock_rule") and isinstance(v, list | str):
        return [rule_label(str(x), lang) for x in ([v] if isinstance(v, str) else v)]
    if name == "explained" and isinstance(v, dict):
        return {rule_label(str(k), lang): x for k, x in v.items()}
    if name == "what" and isinstance(v, list):
        return [CLOSED[x](lang) if x in CLOSED else x for x in v]
    if name == "closed_for" and isinstance(v, dict):
        through = "по {}-й ход" if lang == "ru" else "through turn {}"
        return [
            f"{CLOSED[k](lang) if k in CLOSED else k} — {through.format(x)}" for k, x in v.items()
        ]
    if name == "side" and subject == "game" and isinstance(v, str):
        return side_name(v, lang)
    if name == "told_to" and isinstance(v, dict):
        return {side_name(str(k), lang): x or "—" for k, x in v.items()}
    if name == "formation" and subject == "unit":
        return _word(v, Formation, lang)
    if name == "facing" and subject == "unit" and lang != "ru":
        return _word(v, Direction, lang)
    if name in _UNITS:
        return _units(name, v, lang)
    return v


def _units(name: str, v: Any, lang: Lang) -> Any:
    if isinstance(v, list):
        return [_unit(x, lang) for x in v]
    if not isinstance(v, dict):
        return v
    out = {}
    for k, x in v.items():
        if name == "known":
            x = (x or "—") if lang == "ru" else _HOW_EN.get(str(x), x)
        elif name == "told_of":
            x = _placement(x, lang)
        elif name == "regiments_of" and isinstance(x, list) and lang != "ru":
            x = [_regiment(r) for r in x]  # a unit kind's own text stays Russian
        out[_unit(k, lang)] = x
    return out


# what a step gave that the program words in both languages: the English book shows these in
# English where the case expects (and found) them in Russian
TEXTS = ("told", "outcome", "cut_reason", "refused", "answer", "told_to")


def in_english(done: Any, name: str, spec: dict[str, Any]) -> Any:
    """The English words of field `name` of a step (`done`: what it gave), None if there are
    none; `spec` is the expectation (its `of`, the sides of `told_to`)."""
    refused = getattr(done, "refused", None)
    if name == "refused" or refused is not None:
        return refused("en") if name == "refused" and refused is not None else None
    if isinstance(done, tactical.Done):
        if name == "cut_reason" and done.explanation is not None:
            steps = done.explanation.walk()
            return " | ".join(x.label("en") for x in steps if x.kind == "cut")
        return None
    if not isinstance(done, Done):
        return None
    if name == "answer":
        a = (done.answer or {}).get("answer")
        return a.get("en") if isinstance(a, dict) else None
    results = done.results
    pick = int(spec.get("of", len(results)))
    if not 1 <= pick <= len(results):
        return None
    r = results[pick - 1]
    if name == "told":
        t = told(r, r.by) if r.by else None
        return t.text.en if t is not None else None
    if name == "outcome":
        return r.outcome("en")
    if name == "cut_reason":
        return " | ".join(c.reason("en") for c in r.cuts)
    if name == "told_to" and isinstance(spec.get("told_to"), dict):
        said = {side: told(r, side) for side in spec["told_to"]}
        return {side: t.text.en if t is not None else "" for side, t in said.items()}
    return None


def question(text: str, lang: Lang) -> str:
    """A reconnaissance question in the reader's language, as written if it cannot be read."""
    try:
        return parse_question(text).format(lang)
    except StrategiaError:
        return text


__all__ = ["HOW", "TEXTS", "in_english", "question", "translate"]
