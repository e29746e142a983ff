"""The mediator's truth view, in the Mediator tab (issue 28): for a chosen side, its picture of
the enemy beside the truth (`game.truth`): what it has in sight, the marks it believes in that
are wrong or still right, the units it does not know of, the false answers it was given. On the
map, the mediator's counters (the truth) with the side's last-known marks over them, dashed.

`truth_html` is a plain function; the panel declares a side choice and calls the console.
"""

from __future__ import annotations

import html
from typing import Protocol

import ipywidgets as w

from strategia.core.i18n import Lang, Text
from strategia.core.numbers import count, plural_en
from strategia.game.game import Game
from strategia.game.report_words import unit_name
from strategia.game.truth import Truth, truth_view
from strategia.rules.kinds import side_name

WORDS = {
    "title": Text("A side's picture against the truth", "Картина стороны и действительность"),
    "none": Text("—", "—"),
    "side": Text("side", "сторона"),
    "legend": Text(
        "On the map: the counters are where the units are; the dashed squares, where the side "
        "believes them to be.",
        "На карте: фишки — где части на самом деле; пунктирные квадраты — где их считает сторона.",
    ),
    "wrong": Text("Believed where they are not", "Считает там, где их нет"),
    "right": Text("Marks still right", "Верные отметки"),
    "unknown": Text("Units it does not know of", "Части, о которых сторона не знает"),
    "false": Text("False answers given", "Ложные ответы"),
    "believed": Text("believed at {cells} (turn {turn})", "считает в {cells} (ход {turn})"),
    "actually": Text("actually at {cells}", "на самом деле в {cells}"),
    "gone": Text("no longer on the map", "уже нет на карте"),
}


class Host(Protocol):
    game: Game
    lang: Lang

    def show_truth(self, side: str | None) -> None: ...


def _e(text: object) -> str:
    return html.escape(str(text))


def _units(n: int, lang: Lang) -> str:
    return count(n, "часть", "части", "частей") if lang == "ru" else _en(n, "unit")


def _en(n: int, word: str) -> str:
    return f"{n} {plural_en(n, word, word + 's')}"


def _about(n: int) -> str:
    """«о 1 части», «о 5 частях» (the prepositional after «о»)."""
    return count(n, "части", "частях", "частях")


def summary(t: Truth, lang: Lang) -> str:
    """One sentence: in sight, marks wrong and right, unknown, false answers."""
    who = side_name(t.side, lang, capital=True)
    wrong, right = len(t.wrong), len(t.beliefs) - len(t.wrong)
    if lang == "ru":
        return (
            f"{who}: в поле зрения {_units(len(t.in_sight), lang)} противника; отметок "
            f"неверных — {wrong}, верных — {right}; не знают о {_about(len(t.unknown))}; "
            f"ложных ответов — {len(t.false_answers)}."
        )
    return (
        f"{who}: {_units(len(t.in_sight), lang)} of the enemy in sight; {_en(wrong, 'mark')} "
        f"wrong, {right} right; {_units(len(t.unknown), lang)} unknown to it; "
        f"{_en(len(t.false_answers), 'false answer')}."
    )


def truth_html(t: Truth, lang: Lang) -> str:
    """The truth view as the Mediator tab shows it: summary, legend, then the lists."""
    out = [f"<p><b>{_e(summary(t, lang))}</b></p><p><small>{_e(WORDS['legend'](lang))}</small></p>"]

    def listed(key: str, items: list[str], open_: bool = True) -> None:
        if items:
            body = "".join(f"<li>{x}</li>" for x in items)
            flag = " open" if open_ else ""
            out.append(f"<details{flag}><summary>{_e(WORDS[key](lang))} ({len(items)})</summary>"
                       f"<ul>{body}</ul></details>")  # fmt: skip

    def cells(cs: tuple[object, ...]) -> str:
        return ", ".join(str(c) for c in cs)

    listed("wrong", [
        f"<b>{_e(unit_name(b.mark.unit, lang))}</b>: "
        + _e(WORDS["believed"](lang).format(cells=cells(b.mark.cells), turn=b.mark.turn))
        + "; " + _e(WORDS["actually"](lang).format(cells=cells(b.actual)) if b.actual
                    else WORDS["gone"](lang))
        for b in t.wrong
    ])  # fmt: skip
    listed("right", [
        _e(f"{unit_name(b.mark.unit, lang)}: {cells(b.mark.cells)}") for b in t.beliefs if b.right
    ], False)  # fmt: skip
    listed("unknown", [_e(f"{unit_name(u, lang)}: {cells(c)}") for u, c in t.unknown], False)
    listed("false", [
        _e(f"[{a['turn']}] {a['question']} → "
           f"{a['answer'][lang] if isinstance(a['answer'], dict) else a['answer']}")
        for a in t.false_answers
    ])  # fmt: skip
    return "".join(out)


class TruthPanel:
    """A side chosen, its picture against the truth (none: the map as usual)."""

    def __init__(self, host: Host, sides: list[tuple[str, str]]) -> None:
        self.c = host
        lang = host.lang
        self.side = w.Dropdown(
            options=[(WORDS["none"](lang), ""), *sides],
            value="",
            description=WORDS["side"](lang),
        )
        self.report = w.HTML()
        self.side.observe(lambda ch: self.c.show_truth(str(ch["new"]) or None), names="value")
        self.widget = w.VBox([w.HTML(f"<b>{_e(WORDS['title'](lang))}</b>"), self.side, self.report])

    def refresh(self) -> None:
        side = str(self.side.value)
        self.report.value = truth_html(truth_view(self.c.game, side), self.c.lang) if side else ""
