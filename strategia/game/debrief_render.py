"""A side's debrief (`debrief.Debrief`) as text, as HTML for its screen, and as a page to print,
in Russian or English; summary first (losses, arrivals, units identified), then what the side
was told, line by line as its journal writes it."""

from __future__ import annotations

import html

from strategia.core.i18n import Lang, Text
from strategia.core.numbers import and_list, cells_list, divisions, pct
from strategia.game.channel import told_line
from strategia.game.debrief import Debrief, Loss
from strategia.game.report_words import feminine, unit_name
from strategia.rules.kinds import side_name

WORDS = {
    "title": Text("Debrief for {side}, turn {turn}", "Сводка для {side}, ход {turn}"),
    "since_start": Text("since the game began", "с начала игры"),
    "since": Text("since the end of your move on turn {turn}", "с конца вашего хода {turn}"),
    "since_3": Text("the results of turn {turn}", "итоги хода {turn}"),
    "losses": Text("Losses", "Потери"),
    "arrived": Text("Arrived", "Прибыли"),
    "identified": Text("Identified", "Опознаны"),
    "told": Text("You were told", "Вам сообщено"),
    "nothing": Text("Nothing happened to your troops.", "С вашими войсками ничего не произошло."),
    "destroyed": Text("destroyed", "уничтожена"),
    "destroyed_m": Text("destroyed", "уничтожен"),
    "at": Text("at", "в"),
}


def _title(d: Debrief, lang: Lang) -> str:
    return WORDS["title"](lang).format(side=side_name(d.side, lang, case="gen"), turn=d.turn)


def _since(d: Debrief, lang: Lang, simultaneous: bool) -> str:
    if d.since <= 1:
        return WORDS["since_start"](lang)
    key = "since_3" if simultaneous else "since"
    return WORDS[key](lang).format(turn=d.since_turn)


def _loss(x: Loss, lang: Lang) -> str:
    unit = unit_name(x.unit, lang)
    if x.destroyed:
        word = WORDS["destroyed" if feminine(x.unit) else "destroyed_m"](lang)
        return f"{unit} {word}"
    lost = pct((x.before - x.after) / x.before if x.before else 0.0, lang)
    left = divisions(x.after, lang)
    return f"{unit}: −{lost}, {'остается' if lang == 'ru' else 'left'} {left}"


def summary_lines(d: Debrief, lang: Lang) -> list[tuple[str, str]]:
    """(heading, sentence) of the summary; none when nothing happened."""
    out = []
    if d.losses:
        out.append((WORDS["losses"](lang), "; ".join(_loss(x, lang) for x in d.losses)))
    if d.arrived:
        names = (unit_name(u, lang) for u in d.arrived)
        out.append((WORDS["arrived"](lang), and_list(names, lang)))
    if d.identified:
        at = WORDS["at"](lang)
        seen = (f"{unit_name(x.unit, lang)} {at} {cells_list(x.cells, lang)}" for x in d.identified)
        out.append((WORDS["identified"](lang), and_list(seen, lang, "; ")))
    return out


def debrief_text(d: Debrief, lang: Lang, simultaneous: bool = False) -> str:
    """The debrief as plain text."""
    head = _title(d, lang)
    lines = [f"{head} ({_since(d, lang, simultaneous)})"]
    if d.empty:
        return "\n".join([*lines, WORDS["nothing"](lang)])
    lines += [f"{h}: {s}." for h, s in summary_lines(d, lang)]
    if d.told:
        lines.append(f"{WORDS['told'](lang)}:")
        lines += [f"  {told_line(t, lang)}" for t in d.told]
    return "\n".join(lines)


def debrief_html(d: Debrief, lang: Lang, simultaneous: bool = False) -> str:
    """The debrief for the side's screen: the summary, then what it was told, folded."""
    e = html.escape
    head = _title(d, lang)
    out = [f"<div class='sg-debrief'><b>{e(head)}</b> <small>({e(_since(d, lang, simultaneous))})"
           "</small>"]  # fmt: skip
    if d.empty:
        out.append(f"<p>{e(WORDS['nothing'](lang))}</p>")
    for h, s in summary_lines(d, lang):
        out.append(f"<p><b>{e(h)}:</b> {e(s)}.</p>")
    if d.told:
        items = "".join(f"<li>{e(told_line(t, lang))}</li>" for t in d.told)
        out.append(
            f"<details open><summary>{e(WORDS['told'](lang))} ({len(d.told)})</summary>"
            f"<ul>{items}</ul></details>"
        )
    return "".join(out) + "</div>"


def debrief_page(d: Debrief, lang: Lang, simultaneous: bool = False) -> str:
    """The debrief as a page of its own, to print."""
    title = html.escape(_title(d, lang))
    return (
        f"<!DOCTYPE html><html lang='{lang}'><head><meta charset='utf-8'><title>{title}</title>"
        "<style>body{font:14px/1.45 sans-serif;max-width:46em;margin:2em auto}"
        "details>summary{font-weight:bold}@media print{details>*{display:block}}</style>"
        f"</head><body>{debrief_html(d, lang, simultaneous)}</body></html>"
    )


__all__ = ["debrief_html", "debrief_page", "debrief_text", "summary_lines"]
