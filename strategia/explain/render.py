"""Renderers of explanations: plain text lines, HTML for notebooks, and JSON (`Step.to_json`).

They format the numbers the engine recorded and never compute any of their own. Numbers, units
and rule ids are written in the reader's language (`strategia.core.numbers`): 0,5 хода [9.8в].
"""

from __future__ import annotations

import html
import json
import re
from fractions import Fraction

from strategia.core.i18n import Lang, Text
from strategia.core.numbers import num, quantity, unit_word
from strategia.explain.trace import Step, Value

_RULE = {"ru": "правило", "en": "rule"}
_KIND_MARK = {"lookup": "·", "cut": "✂", "note": "—", "step": "•"}
_LETTERS = str.maketrans("abcdefgh", "абвгдежз")
# Rule ids that are not the seeds' numbers: the reconstructed loss rule and seed 003's sections
# (it numbers none).
_RULE_NAMES = {
    "loss_rule": Text("9.8c, loss rule", "9.8в, правило потерь"),
    "003 turn sequence": Text("003 turn sequence", "003, порядок действий"),
    "003 speeds": Text("003 speeds", "003, скорость передвижения"),
    "003 speeds, note 3": Text("003 speeds, note 3", "003, скорость передвижения, примеч. 3"),
    "003 formation changes": Text("003 formation changes", "003, скорость перестроения"),
    "003 change of front": Text("003 change of front", "003, перемена фронта"),
    "003 limbering": Text("003 limbering", "003, снятие с передков"),
    "003 obstacles": Text("003 obstacles", "003, движение через препятствие"),
    "003 formations": Text("003 formations", "003, построения"),
}


def rule_label(rule: str, lang: Lang = "en") -> str:
    """A rule id as the reader's seeds write it: `table 9-1` is «табл. 9-1», `9.8b` is «9.8б»."""
    if rule in _RULE_NAMES:
        return _RULE_NAMES[rule](lang)
    if lang != "ru":
        return rule
    out = re.sub(r"\btables?\b", "табл.", rule)
    return re.sub(r"(\d)([a-h])\b", lambda m: m[1] + m[2].translate(_LETTERS), out)


def fmt(value: Value | list[object], lang: Lang = "en") -> str:
    """A value as the sheet prints it: numbers without float noise (0.30000000000000004 -> 0.3,
    a decimal comma in Russian), yes/no in the reader's language, a value told in words as
    its words."""
    if isinstance(value, bool):
        return ("да" if value else "нет") if lang == "ru" else ("yes" if value else "no")
    if isinstance(value, int | float):
        return num(value, lang)
    if isinstance(value, Text):
        return value(lang)
    if isinstance(value, list | tuple):
        return ", ".join(fmt(v, lang) for v in value)  # type: ignore[arg-type]
    if value is None:
        return ""
    return str(value)


def value_text(step: Step, lang: Lang = "en") -> str:
    """A step's value with its unit, in the reader's language: 0,5 хода; × 1,7; 20 км."""
    v = step.value
    if isinstance(v, int | float) and not isinstance(v, bool) and step.unit:
        return quantity(v, step.unit, lang, digits=3)
    if isinstance(v, str) and step.unit and (n := _fraction(v)) is not None:
        return f"{v} {unit_word(step.unit, n, lang)}"  # "2/5 хода": seed 003's fractions
    return fmt(v, lang)


def _fraction(text: str) -> float | None:
    try:
        return float(Fraction(text.replace(" ", "")))
    except (ValueError, ZeroDivisionError):
        return None


def _line(step: Step, lang: Lang) -> str:
    text = step.label(lang)
    if step.value is not None:
        text += f" = {value_text(step, lang)}"
    if step.rule:
        text += f"  [{rule_label(step.rule, lang)}]"
    if step.note is not None:
        text += f"  ({step.note(lang)})"
    return text


def explanation_text(step: Step, lang: Lang = "en", indent: str = "  ") -> list[str]:
    """The tree as indented lines, the root first; each line: label = value unit [rule] (note)."""
    lines: list[str] = []

    def visit(s: Step, depth: int) -> None:
        mark = "" if depth == 0 else _KIND_MARK.get(s.kind, "•") + " "
        lines.append(f"{indent * depth}{mark}{_line(s, lang)}")
        for c in s.children:
            visit(c, depth + 1)

    visit(step, 0)
    return lines


STYLE = (
    "<style>.strategia-expl ul{list-style:none;padding-left:1.2em;margin:0}"
    ".strategia-expl .sr{color:#666;font-size:85%}.strategia-expl .sn{color:#8a5a00}"
    ".strategia-expl .st-cut{color:#b00}.strategia-expl .st-lookup{color:#345}</style>"
)


def explanation_html(step: Step, lang: Lang = "en", open_depth: int = 2) -> str:
    """The tree as nested, collapsible HTML lists (open to `open_depth` levels; 0: folded)."""

    def visit(s: Step, depth: int) -> str:
        label = html.escape(s.label(lang))
        value = ""
        if s.value is not None:
            value = f' = <b class="sv">{html.escape(value_text(s, lang))}</b>'
        rule = (
            f' <span class="sr" title="{_RULE[lang]}">[{html.escape(rule_label(s.rule, lang))}]'
            "</span>"
            if s.rule
            else ""
        )
        note = f' <i class="sn">{html.escape(s.note(lang))}</i>' if s.note is not None else ""
        head = f'<span class="st st-{s.kind}">{label}{value}{rule}{note}</span>'
        if not s.children:
            return f"<li>{head}</li>"
        inner = "".join(visit(c, depth + 1) for c in s.children)
        opened = " open" if depth < open_depth else ""
        return f"<li><details{opened}><summary>{head}</summary><ul>{inner}</ul></details></li>"

    return f'{STYLE}<div class="strategia-expl"><ul>{visit(step, 0)}</ul></div>'


def explanation_json(step: Step) -> str:
    return json.dumps(step.to_json(), ensure_ascii=False, indent=2)
