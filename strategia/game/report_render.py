"""Battle reports written out: an HTML fragment for the console, a whole HTML page that prints
well, Markdown, plain text and JSON; per battle, and per turn (every battle and strike of it).

Each takes the records and results already chosen for the reader (a side's copy is made by
filtering them before), and formats them; nothing is computed here.
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from typing import Any

from strategia.core.i18n import Lang
from strategia.engine.battle_record import BattleRecord
from strategia.engine.result import Result
from strategia.explain.render import STYLE as TREE_STYLE
from strategia.explain.render import explanation_html, explanation_text
from strategia.explain.trace import Step
from strategia.game.report import BattleReport, battle_report
from strategia.game.report_facts import journal_name
from strategia.game.report_words import w

CSS = """
.sr-report{font-family:system-ui,sans-serif;font-size:13px;line-height:1.4;max-width:1100px}
.sr-report h3{font-size:15px;margin:6px 0}
.sr-report p{margin:3px 0}
.sr-report table{border-collapse:collapse;margin:6px 0;font-size:12px}
.sr-report th,.sr-report td{border:1px solid #bbb;padding:2px 5px;vertical-align:top;
text-align:left}
.sr-report th{background:#eee}
.sr-report ol{margin:4px 0 4px 18px;padding:0}
.sr-report .rec{color:#7a4a00;font-size:11px}
.sr-report .rec ul{margin:2px 0 2px 16px;padding:0}
.sr-report details{margin-top:4px}
.sr-report .rec-list p{margin:6px 0 2px}
@media print{.sr-report details.tree{display:none}
.sr-report{font-size:11pt}
.sr-battle{page-break-inside:avoid}}
"""


def _e(text: object) -> str:
    return html.escape(str(text))


def _code(text: str) -> str:
    """`text` with `code` spans."""
    parts = _e(text).split("`")
    return "".join(f"<code>{p}</code>" if i % 2 else p for i, p in enumerate(parts))


def html_fragment(rep: BattleReport, tree: bool = True, folds: bool = True) -> str:
    """One battle's report as HTML (for the console and inside a page). `folds` False (a page
    to print): the reconstructed values laid out open, not in a fold."""
    lang = rep.lang
    lines = [f"<p><b>{_e(rep.title)}</b> {_e(rep.summary[0][1])}</p>"]
    lines += [
        f"<p>{f'<b>{_e(lead)}</b> ' if lead else ''}{_e(text)}</p>"
        for lead, text in rep.summary[1:]
    ]
    if rep.rows:
        head = "".join(f"<th>{_e(h)}</th>" for h in rep.header)
        body = "".join(
            "<tr>" + "".join(f"<td>{_e(c)}</td>" for c in row) + "</tr>" for row in rep.rows
        )
        lines.append(f"<table><tr>{head}</tr>{body}</table>")
    if rep.steps:
        steps = "".join(f"<li>{_e(s)}</li>" for s in rep.steps)
        lines.append(f"<p>{_e(w('steps', lang))}</p><ol>{steps}</ol>")
    if rep.reconstructed:
        rec = "".join(f"<li>{_e(r)}</li>" for r in rep.reconstructed)
        tail = _code(w("rec_tail", lang))
        head = f"[{_e(w('rec', lang))}: {len(rep.reconstructed)}] {tail}"
        if folds:
            lines.append(f"<details class='rec'><summary>{head}</summary><ul>{rec}</ul></details>")
        else:
            lines.append(f"<div class='rec rec-list'><p>{head}</p><ul>{rec}</ul></div>")
    if tree and rep.tree is not None:
        lines.append(
            f"<details class='tree'><summary>{_e(w('tree', lang))}</summary>"
            f"{explanation_html(rep.tree, lang, open_depth=1)}</details>"
        )
    return f"<div class='sr-battle'>{''.join(lines)}</div>"


def report_html(result: Result, lang: Lang = "ru", turn: int | None = None) -> str:
    """A battle's or strike's report as an HTML fragment (styled), from its result."""
    return (
        f"<style>{CSS}</style>{TREE_STYLE}<div class='sr-report'>{_item(result, lang, turn)}</div>"
    )


def _tree(r: Result) -> Step | None:
    """The breakdown a report may show: the mediator's; none in a side's account (1.6)."""
    return None if r.battle is not None and r.battle.side else r.explanation


def record_of(r: Result) -> BattleRecord | None:
    """A battle's or strike's record; a strike on a road or a bridge, or interdiction fire,
    has none of its own: one with no units is made for its report."""
    if r.battle is not None:
        return r.battle
    cell = fight_cell(r)
    if r.explanation.rule != "9.7" or cell is None:
        return None
    return BattleRecord(f"{cell[0]},{cell[1]}", r.by, "", "strike")


def report_of(r: Result, lang: Lang, turn: int | None) -> BattleReport | None:
    """The report of a battle or a strike (None: the result is neither). A strike's is written
    with its facts from the explanation (a side's account has its own battery's only, and no
    breakdown)."""
    rec = record_of(r)
    if rec is None:
        return None
    if rec.outcome == "strike":
        return battle_report(
            rec, lang, turn=turn, explanation=r.explanation, outcome=r.outcome, tree=not rec.side
        )
    return battle_report(rec, lang, turn=turn, explanation=_tree(r))


def _item(r: Result, lang: Lang, turn: int | None, folds: bool = True) -> str:
    rep = report_of(r, lang, turn)
    if rep is not None:
        return html_fragment(rep, folds=folds)
    title = r.explanation.label(lang)
    head = f"{title}, {w('turn', lang, turn=turn)}." if turn is not None else f"{title}."
    return (
        f"<div class='sr-battle'><p><b>{_e(head)}</b> {_e(r.outcome(lang))}.</p>"
        f"<details><summary>{_e(w('tree', lang))}</summary>"
        f"{explanation_html(r.explanation, lang, open_depth=1)}</details></div>"
    )


def reports_html(results: Sequence[tuple[int, Result]], lang: Lang = "ru") -> str:
    """The reports of `results` laid out for print (see `page`), without the page around them."""
    return "".join(_item(r, lang, t, folds=False) for t, r in results) or "<p>—</p>"


def page(title: str, results: Sequence[tuple[int, Result]], lang: Lang = "ru") -> str:
    """A whole HTML page of reports that prints well: the summary, the table per unit, the
    steps and the reconstructed values laid out open; the full trees fold away on paper."""
    body = reports_html(results, lang)
    return (
        f"<!DOCTYPE html><html lang='{lang}'><head><meta charset='utf-8'>"
        f"<title>{_e(title)}</title><style>{CSS}</style>{TREE_STYLE}</head>"
        f"<body><div class='sr-report'><h3>{_e(title)}</h3>{body}</div></body></html>"
    )


def markdown(rep: BattleReport) -> str:
    """One battle's report as Markdown (a table, numbered steps, the tree as text, folded)."""
    lang = rep.lang
    out = [f"**{rep.title}** {rep.summary[0][1]}", ""]
    out += [f"**{lead}** {text}" if lead else text for lead, text in rep.summary[1:]]
    if rep.rows:
        out += ["", "| " + " | ".join(rep.header) + " |", "|" + " --- |" * len(rep.header)]
        out += ["| " + " | ".join(c.replace("|", "/") for c in row) + " |" for row in rep.rows]
    if rep.steps:
        out += ["", w("steps", lang)]
        out += [f"{n}. {s}" for n, s in enumerate(rep.steps, 1)]
    if rep.reconstructed:
        out += ["", f"[{w('rec', lang)}] {w('rec_tail', lang)}:", ""]
        out += [f"- {r}" for r in rep.reconstructed]
    if rep.tree is not None:
        lines = "\n".join(explanation_text(rep.tree, lang))
        out += ["", f"<details><summary>{w('tree', lang)}</summary>", "", "```", lines, "```"]
        out += ["", "</details>"]
    return "\n".join(out) + "\n"


def text(rep: BattleReport) -> str:
    """One battle's report as plain text (for a terminal): summary, table rows, steps."""
    out = [f"{rep.title} {rep.summary[0][1]}"]
    out += [f"{lead} {t}".strip() for lead, t in rep.summary[1:]]
    for row in rep.rows:
        out.append("  " + " | ".join(row))
    out += [f"  {n}. {s}" for n, s in enumerate(rep.steps, 1)]
    if rep.reconstructed:
        out.append(f"  [{w('rec', rep.lang)}] " + "; ".join(rep.reconstructed))
    return "\n".join(out)


def turn_markdown(title: str, results: Sequence[tuple[int, Result]], lang: Lang = "ru") -> str:
    out = [f"# {title}", ""]
    for t, r in results:
        rep = report_of(r, lang, t)
        if rep is not None:
            out.append(markdown(rep))
        else:
            head = f"{r.explanation.label(lang)}, {w('turn', lang, turn=t)}."
            out += [f"**{head}** {r.outcome(lang)}.", ""]
    return "\n".join(out)


def turn_text(title: str, results: Sequence[tuple[int, Result]], lang: Lang = "ru") -> str:
    out = [title]
    for t, r in results:
        rep = report_of(r, lang, t)
        if rep is not None:
            out.append(text(rep))
        else:
            out.append(
                f"{r.explanation.label(lang)}, {w('turn', lang, turn=t)}. {r.outcome(lang)}."
            )
    return "\n\n".join(out)


def report_json(results: Sequence[tuple[int, Result]], lang: Lang = "ru") -> list[dict[str, Any]]:
    """Each battle's record and its report's sentences; each strike's outcome and tree."""
    out: list[dict[str, Any]] = []
    for t, r in results:
        item: dict[str, Any] = {"turn": t, "order": r.order, "outcome": r.outcome.to_json()}
        rep = report_of(r, lang, t)
        if rep is not None:
            item |= {
                "battle": rep.record.to_json(),
                "report": {
                    "lang": lang,
                    "title": rep.title,
                    "summary": [list(x) for x in rep.summary],
                    "header": list(rep.header),
                    "rows": [list(x) for x in rep.rows],
                    "steps": list(rep.steps),
                    "reconstructed": list(rep.reconstructed),
                },
            }
        item["explanation"] = r.explanation.to_json()
        out.append(item)
    return out


def dumps(data: object) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2)


def fights(
    results: Sequence[tuple[int, int, str, Result]], turn: int | None = None, at: str | None = None
) -> list[tuple[int, Result]]:
    """The battles and strikes among a game's results (seq, turn, side, result), as (turn,
    result): of one turn, at one target cell, or all."""
    out = []
    for _, t, _, r in results:
        if r.battle is None and r.explanation.rule not in ("9.8", "9.7"):
            continue
        if turn is not None and t != turn:
            continue
        if at is not None and (r.battle is None or r.battle.target != at):
            continue
        out.append((t, r))
    return out


def fight_cell(r: Result) -> tuple[int, int] | None:
    """The cell a battle or strike was for."""
    if r.battle is not None:
        lon, lat = r.battle.target.split(",")
        return int(lon), int(lat)
    words = r.order.replace(":", " ").split()
    for w_ in reversed(words):
        if "," in w_ and all(p.isdigit() for p in w_.split(",")):
            lon, lat = w_.split(",")
            return int(lon), int(lat)
    return None


def destroyed(results: list[tuple[int, int, str, Result]], turn: int) -> set[str]:
    """The units destroyed in the battles and strikes of `turn`."""
    out: set[str] = set()
    for _t, r in fights(results, turn):
        if r.battle is not None:
            out |= {u.unit for u in r.battle.units if u.destroyed}
        else:
            for s in r.explanation.walk():
                if "destroyed" in s.label.en:
                    out.add(journal_name(s.label.en.split(" loses")[0].split(" destroyed")[0]))
    return out
