"""A value a case expects, put in the reader's language before the book prints it: unit names as
the reader's notation writes them (`1 т.д.`, `1 TD`), rule ids as the reader's seeds do
(«табл. 11», «9.7а»), and the keys the program reads (a closed road's kind, a formation, how a
side knows of an enemy division) in words. The case files keep the program's values, which is
what the run compares.
"""

from __future__ import annotations

from typing import Any

from strategia.casebook import tactical
from strategia.casebook.probes import CLOSED, HOW
from strategia.core.errors import StrategiaError
from strategia.core.geometry import Direction
from strategia.core.i18n import Lang
from strategia.explain.render import rule_label
from strategia.notation.refs import Placement, UnitRef
from strategia.rules.kinds import Formation, RegimentKind, side_name

_UNITS = ("hit", "after", "pursuit", "supporters", "seen", "told_of", "regiments_of")
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


def _placement(v: Any, lang: Lang) -> Any:
    try:
        return Placement.parse(str(v)).format(lang)
    except StrategiaError:
        return v


def translate(name: str, v: Any, lang: Lang, subject: str = "") -> Any:
    """`v`, the value of field `name` (of `subject`), with its words in `lang`."""
    if subject == "troop":
        words = tactical.shown(name, v, lang)
        return v if words is None else words
    if name == "explained" and isinstance(v, dict):
        return {rule_label(str(k), lang): x for k, x in v.items()}
    if name == "what" and isinstance(v, list):
        return [CLOSED[x](lang) if x in CLOSED else x for x in v]
    if name == "closed_for" and isinstance(v, dict):
        return {CLOSED[k](lang) if k in CLOSED else k: x for k, x in v.items()}
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
        if name == "seen":
            x = (x or "—") if lang == "ru" else _HOW_EN.get(str(x), x)
        elif name == "told_of":
            x = _placement(x, lang)
        elif name == "regiments_of" and isinstance(x, list):
            x = [_word(r, RegimentKind, lang) for r in x]
        out[_unit(k, lang)] = x
    return out


__all__ = ["HOW", "translate"]
