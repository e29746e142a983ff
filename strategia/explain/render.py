"""Renderers of explanations: plain text lines, HTML for notebooks, and JSON (`Step.to_json`).

They format the numbers the engine recorded and never compute any of their own.
"""

from __future__ import annotations

import html
import json
from fractions import Fraction

from strategia.core.i18n import Lang, Text
from strategia.explain.trace import Step, Value

_RULE = {"ru": "правило", "en": "rule"}
_KIND_MARK = {"lookup": "·", "cut": "✂", "note": "—", "step": "•"}
_YES_NO = {"en": ("no", "yes"), "ru": ("нет", "да")}

# The units the rule data and the engine record, by their key: English (singular, plural) and
# Russian (one, two to four, five and more: 1 ход, 2 хода, 5 ходов; a fraction takes the second).
_UNITS: dict[str, tuple[tuple[str, str], tuple[str, str, str]]] = {
    "turn": (("turn", "turns"), ("ход", "хода", "ходов")),
    "cell": (("cell", "cells"), ("клетка", "клетки", "клеток")),
    "pts": (("point", "points"), ("очко", "очка", "очков")),
    "regt": (("regiment", "regiments"), ("полк", "полка", "полков")),
    "figures": (("figure", "figures"), ("фигурка", "фигурки", "фигурок")),
    "div": (("division", "divisions"), ("дивизия", "дивизии", "дивизий")),
    "day": (("day", "days"), ("день", "дня", "дней")),
    "men": (("man", "men"), ("человек", "человека", "человек")),
    "pair": (("pair", "pairs"), ("пара", "пары", "пар")),
    "q": (("question", "questions"), ("вопрос", "вопроса", "вопросов")),
    "res": (("resource", "resources"), ("ресурс", "ресурса", "ресурсов")),
    "road": (("road", "roads"), ("дорога", "дороги", "дорог")),
    "squadrons": (("squadron", "squadrons"), ("эскадрон", "эскадрона", "эскадронов")),
}
_FIXED = {  # abbreviations and compound units: no plural
    "km": "км", "cm": "см", "min": "мин", "km/turn": "км/ход", "%/km": "%/км",
    "%/km²": "%/км²", "div/10 km": "див./10 км", "per turn": "за ход",
    "turn a pair": "хода на пару", "× its time": "× своего времени",
}  # fmt: skip


# Rule ids that are not the seeds' numbers: seed 003's sections (it numbers none) and the
# reconstructed loss rule; in Russian a table is «таблица».
_RULE_NAMES = {
    "003 turn sequence": Text("003 turn sequence", "003, порядок действий"),
    "003 speeds": Text("003 speeds", "003, скорость передвижения"),
    "003 formation changes": Text("003 formation changes", "003, скорость перестроения"),
    "003 change of front": Text("003 change of front", "003, перемена фронта"),
    "003 limbering": Text("003 limbering", "003, снятие с передков"),
    "003 obstacles": Text("003 obstacles", "003, движение через препятствие"),
    "003 formations": Text("003 formations", "003, построения"),
    "loss_rule": Text("loss rule, reconstructed", "правило потерь, восстановлено"),
}


def rule_text(rule: str, lang: Lang = "en") -> str:
    """A rule id as the reader calls it: "table 4" is «таблица 4» in Russian; 4.8 stays 4.8."""
    if rule in _RULE_NAMES:
        return _RULE_NAMES[rule](lang)
    if lang == "ru" and rule.startswith("table "):
        return "таблица " + rule.removeprefix("table ")
    return rule


def _unit(unit: str, value: Value, lang: Lang) -> str:
    """ " 20 км", "30°": the unit after a value, with its space."""
    name = unit_text(unit, _number(value), lang)
    return name if unit in ("°", "%") else f" {name}"


def unit_text(unit: str, value: Value = None, lang: Lang = "en") -> str:
    """A unit's name in `lang`, agreeing with the number it follows (2 turns, 2 хода)."""
    if unit in _UNITS:
        (one, many), (ru1, ru2, ru5) = _UNITS[unit]
        if isinstance(value, int | float) and not isinstance(value, bool):
            if lang == "en":
                return one if value == 1 else many
            if value != int(value):
                return ru2
            n = abs(int(value))
            if n % 10 == 1 and n % 100 != 11:
                return ru1
            return ru2 if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14 else ru5
        return many if lang == "en" else ru5
    return _FIXED.get(unit, unit) if lang == "ru" else unit


# Values that name something: a rule data cell that refers to another ("linear_ratings.flank90"
# is «таблица 9-1, фланг 90»). The rule data registers them as it loads (`name_values`).
_NAMED: dict[str, Text] = {}


def name_values(names: dict[str, Text]) -> None:
    """Show these text values by their names in both languages wherever they are rendered."""
    _NAMED.update(names)


def fmt(value: Value, lang: Lang = "en") -> str:
    """A value as the sheet prints it: numbers without float noise (0.30000000000000004 -> 0.3)."""
    if isinstance(value, bool):
        return _YES_NO[lang][value]
    if isinstance(value, str) and value in _NAMED:
        return _NAMED[value](lang)
    if isinstance(value, float):
        if value == int(value) and abs(value) < 1e15:
            return str(int(value))
        return f"{value:.4f}".rstrip("0").rstrip(".")
    if value is None:
        return ""
    return str(value)


def _number(value: Value) -> Value:
    """A value as the number a unit agrees with: "2/5" (a fraction as text) counts as 0.4."""
    if isinstance(value, str):
        try:
            return float(Fraction(value.replace(" ", "")))
        except (ValueError, ZeroDivisionError):
            return value
    return value


def _line(step: Step, lang: Lang) -> str:
    text = step.label(lang)
    if step.value is not None:
        text += f" = {fmt(step.value, lang)}"
        if step.unit:
            text += _unit(step.unit, step.value, lang)
    if step.rule:
        text += f"  [{rule_text(step.rule, lang)}]"
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


def explanation_html(step: Step, lang: Lang = "en") -> str:
    """The tree as nested, collapsible HTML lists (open to the second level)."""

    def visit(s: Step, depth: int) -> str:
        label = html.escape(s.label(lang))
        value = ""
        if s.value is not None:
            value = f' <b class="sv">{html.escape(fmt(s.value, lang))}</b>'
            if s.unit:
                value += html.escape(_unit(s.unit, s.value, lang))
        rid = html.escape(rule_text(s.rule, lang))
        rule = f' <span class="sr" title="{_RULE[lang]}">[{rid}]</span>' if s.rule else ""
        note = f' <i class="sn">{html.escape(s.note(lang))}</i>' if s.note is not None else ""
        head = f'<span class="st st-{s.kind}">{label}{value}{rule}{note}</span>'
        if not s.children:
            return f"<li>{head}</li>"
        inner = "".join(visit(c, depth + 1) for c in s.children)
        opened = " open" if depth < 2 else ""
        return f"<li><details{opened}><summary>{head}</summary><ul>{inner}</ul></details></li>"

    style = (
        "<style>.strategia-expl ul{list-style:none;padding-left:1.2em;margin:0}"
        ".strategia-expl .sr{color:#666;font-size:85%}.strategia-expl .sn{color:#8a5a00}"
        ".strategia-expl .st-cut{color:#b00}.strategia-expl .st-lookup{color:#345}</style>"
    )
    return f'{style}<div class="strategia-expl"><ul>{visit(step, 0)}</ul></div>'


def explanation_json(step: Step) -> str:
    return json.dumps(step.to_json(), ensure_ascii=False, indent=2)
