"""The rules sheet handed to players (rule 0.3): every entry in effect, as text or JSON.

Reconstructed values are marked `*`, values changed by a house rule `†`; footnotes say why.
"""

from __future__ import annotations

from typing import Any

from strategia.core.i18n import Lang, Text
from strategia.core.numbers import quantity, unit_word
from strategia.explain.render import fmt, rule_label
from strategia.rules.kinds import RegimentKind
from strategia.rules.model import VALUE, Entry, Param, RuleSet, told

RECONSTRUCTED = "[r]"
OVERRIDDEN = "[h]"
MARKS = {"en": (RECONSTRUCTED, OVERRIDDEN), "ru": ("[в]", "[и]")}

_WORDS = {
    "sheet": Text("rules sheet", "лист правил"),
    "level": Text("level", "уровень"),
    "house": Text("house rules", "изменения правил"),
    "marks": Text(
        "[r] reconstructed: the seeds give no value   [h] changed by a house rule (0.3)",
        "[в] восстановлено: в правилах нет значения   [и] изменено по соглашению игроков (0.3)",
    ),
    "source": Text("source", "источник"),
    "was": Text("was", "было"),
    "key": Text("key", "ключ"),
}


def _cell_text(p: Param, lang: Lang = "en", rules: RuleSet | None = None) -> str:
    v = p.value
    if isinstance(v, list):
        names = [
            RegimentKind.from_key(k).label(lang) if p.type == "regiments" else str(k) for k in v
        ]
        text = ", ".join(names) if names else "—"
    elif isinstance(v, float | int | bool):
        text = fmt(v, lang)
        if p.unit and p.column == VALUE and p.unit not in ("", "×") and not isinstance(v, bool):
            text = quantity(v, p.unit, lang, digits=4)
    else:
        shown = told(p, rules)
        text = shown(lang) if isinstance(shown, Text) else str(shown)
        if lang == "en" and p.type == "pattern":
            text = str(v)
    if p.unit == "×":
        text = "×" + text
    r, h = MARKS[lang]
    return text + (r if p.reconstructed else "") + (h if p.overridden else "")


def _visible_rows(e: Entry, level: int) -> list[str]:
    return [
        r for r, cells in e.rows.items() if cells and min(p.level for p in cells.values()) <= level
    ]


def entries_in_effect(rules: RuleSet) -> list[Entry]:
    return [e for e in rules.entries.values() if e.level <= rules.level]


def _footnotes(e: Entry, rows: list[str], lang: Lang) -> list[str]:
    notes = []
    r, h = MARKS[lang]
    for row in rows:
        for p in e.rows[row].values():
            where = e.row_label(row)(lang) + (
                "" if p.column == VALUE else f" / {e.column_label(p.column)(lang)}"
            )
            if p.why is not None:
                notes.append(f"    {r} {where}: {p.why(lang)}")
            if p.overridden:
                was = _WORDS["was"](lang)
                o = p.overridden
                extra = f"; {o.note}" if o.note else ""
                notes.append(f"    {h} {where}: {o.source}, {was} {fmt(o.previous, lang)}{extra}")
            if p.note:
                notes.append(f"    - {where}: {p.remark(lang)}")
    return notes


def sheet_text(rules: RuleSet, lang: Lang = "en", keys: bool = True) -> str:
    """The rules sheet as plain text, one block an entry, in the data's order; with `keys`,
    each entry's key in the rule data (a house rule names it: `strategia rules` prints it, the
    console's sheet, read by players, leaves it out)."""
    level_word = _WORDS["level"](lang)
    out = [f"{rules.title(lang)} — {_WORDS['sheet'](lang)}, {level_word} {rules.level}"]
    houses = rules.sources[1:]
    if houses:
        out.append(f"{_WORDS['house'](lang)}: {', '.join(houses)}")
    out.append(_WORDS["marks"](lang))
    for e in entries_in_effect(rules):
        rows = _visible_rows(e, rules.level)
        out.append("")
        key = f"; {_WORDS['key'](lang)} `{e.key}`" if keys else ""
        rid = rule_label(e.rule, lang)
        out.append(f"{rid}. {e.title(lang)}  ({level_word} {e.level}{key})")
        if e.source:
            out.append(f"    {_WORDS['source'](lang)}: {e.origin(lang)}")
        if e.note:
            out.append(f"    {e.remark(lang)}")
        labels = [e.row_label(r)(lang) for r in rows]
        width = max((len(lab) for lab in labels), default=0) + 2
        if e.shape == "params":
            for r, lab in zip(rows, labels, strict=True):
                p = e.rows[r][VALUE]
                rid = f" [{rule_label(p.rule, lang)}]" if p.rule != e.rule else ""
                out.append(f"    {(lab + rid).ljust(width + 8, '.')} {_cell_text(p, lang, rules)}")
        else:
            cols = [c for c in e.columns if any(e.rows[r].get(c) for r in rows)]
            grid = [
                [
                    _cell_text(e.rows[r][c], lang, rules)
                    if c in e.rows[r] and e.rows[r][c].level <= rules.level
                    else "—"
                    for c in cols
                ]
                for r in rows
            ]
            heads = [e.column_label(c)(lang) for c in cols]
            widths = [max([len(h)] + [len(g[i]) for g in grid]) + 2 for i, h in enumerate(heads)]
            unit = f"({unit_word(e.unit, 2, lang)})" if e.unit else ""
            out.append(
                "    "
                + unit.ljust(width)
                + "".join(h.ljust(w) for h, w in zip(heads, widths, strict=True))
            )
            for lab, g in zip(labels, grid, strict=True):
                out.append(
                    "    "
                    + lab.ljust(width)
                    + "".join(v.ljust(w) for v, w in zip(g, widths, strict=True))
                )
        out.extend(_footnotes(e, rows, lang))
    return "\n".join(line.rstrip() for line in out)


def sheet_json(rules: RuleSet) -> dict[str, Any]:
    """The rules sheet as data: every entry in effect with ids, levels, marks and labels."""
    entries = []
    for e in entries_in_effect(rules):
        rows = _visible_rows(e, rules.level)
        entries.append(
            {
                "key": e.key,
                "rule": e.rule,
                "level": e.level,
                "title": e.title.to_json(),
                "shape": e.shape,
                "type": e.type,
                **({"unit": e.unit} if e.unit else {}),
                **({"note": e.note} if e.note else {}),
                **({"note_ru": e.note_ru} if e.note_ru else {}),
                **({"source": e.source} if e.source else {}),
                **({"source_ru": e.source_ru} if e.source_ru else {}),
                "columns": [{"key": c, "label": e.column_label(c).to_json()} for c in e.columns],
                "rows": [
                    {
                        "key": r,
                        "label": e.row_label(r).to_json(),
                        "cells": {
                            c: p.to_json() for c, p in e.rows[r].items() if p.level <= rules.level
                        },
                    }
                    for r in rows
                ],
            }
        )
    return {
        "ruleset": rules.name,
        "title": rules.title.to_json(),
        "level": rules.level,
        "sources": list(rules.sources),
        "entries": entries,
    }
