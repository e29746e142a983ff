"""Renderers of explanations: plain text lines, HTML for notebooks, and JSON (`Step.to_json`).

They format the numbers the engine recorded and never compute any of their own.
"""

from __future__ import annotations

import html
import json

from strategia.core.i18n import Lang
from strategia.explain.trace import Step, Value

_RULE = {"ru": "правило", "en": "rule"}
_KIND_MARK = {"lookup": "·", "cut": "✂", "note": "—", "step": "•"}


def fmt(value: Value) -> str:
    """A value as the sheet prints it: numbers without float noise (0.30000000000000004 -> 0.3)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        if value == int(value) and abs(value) < 1e15:
            return str(int(value))
        return f"{value:.4f}".rstrip("0").rstrip(".")
    if value is None:
        return ""
    return str(value)


def _line(step: Step, lang: Lang) -> str:
    text = step.label(lang)
    if step.value is not None:
        text += f" = {fmt(step.value)}"
        if step.unit:
            text += f" {step.unit}"
    if step.rule:
        text += f"  [{step.rule}]"
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
            value = f' <b class="sv">{html.escape(fmt(s.value))}</b>'
            if s.unit:
                value += f" {html.escape(s.unit)}"
        rule = (
            f' <span class="sr" title="{_RULE[lang]}">[{html.escape(s.rule)}]</span>'
            if s.rule
            else ""
        )
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
