"""The lesson on the case book (notebooks/07_casebook.ipynb): a case read as the book prints it,
then played on its map, before and after, each expectation beside what the program did; what a
house rule changes; and a picker for the class to open any case of the book."""

from __future__ import annotations

import base64
import html
from pathlib import Path
from typing import Any

import ipywidgets as w

from strategia.casebook import BOOK, CaseRun, load_book, run_book
from strategia.casebook.case import Case
from strategia.casebook.render import CSS, case_html, expectation
from strategia.core.i18n import Lang, Text
from strategia.explain.render import rule_label
from strategia.game.views import mediator_view, to_geojson
from strategia.ui.lessons import maps as tm
from strategia.ui.lessons.show import Html, Live, Picture, lesson_lang, new_figure, picture

WORDS = {
    "before": Text("before: the position", "до: позиция"),
    "after": Text("after the orders", "после приказов"),
    "ok": Text("as the book expects", "как в книге"),
    "not": Text("NOT as the book expects", "НЕ как в книге"),
    "changed": Text("changes under the house rule", "меняется по домашнему правилу"),
    "same": Text("the same under the house rule", "по домашнему правилу так же"),
    "open": Text("Open the case", "Открыть случай"),
    "case": Text("case", "случай"),
}
_PAGE = f"<style>{CSS.replace('body{', '.sg-case{')}</style>"


def _run(case_id: str, house: list[Path] | None = None) -> CaseRun:
    cases = [c for c in load_book(BOOK) if c.id == case_id]
    if not cases:
        raise LookupError(f"no case {case_id!r} in the book")
    return run_book(cases, house or [])[0]


def case_page(case_id: str, lang: Lang | None = None) -> Html:
    """The case as the book prints it: rule, the seed's words, position, orders, expected."""
    lang = lang or lesson_lang()
    run = _run(case_id)
    alt = f"{run.case.id}. {run.case.title(lang)}"
    return Html(f"{_PAGE}<div class='sg-case'>{case_html(run, lang)}</div>", alt)


def _table(run: CaseRun, lang: Lang) -> Picture:
    """A tactical case (seed 003): its table before and after the steps."""
    from strategia.tactical.phases import Battle
    from strategia.ui.lessons.tactical import draw_table

    played = run.played
    assert played is not None and played.tables is not None and played.rules is not None
    sk = played.tables[0].skirmish
    fig = new_figure(9, max(2.5, 4.5 * sk.height / sk.width + 1.2))
    axes = fig.subplots(1, 2)
    for ax, table, title in zip(axes, played.tables, ("before", "after"), strict=True):
        draw_table(ax, Battle(table), played.rules, lang, (0, sk.width, 0, sk.height))
        ax.set_title(WORDS[title](lang), fontsize=9)
    return picture(fig, f"{run.case.id}: {WORDS['before'](lang)} / {WORDS['after'](lang)}")


def _board(run: CaseRun, lang: Lang) -> Picture:
    if run.case.is_tactical:
        return _table(run, lang)
    assert run.start is not None and run.end is not None
    w, h = run.start.width, run.start.height
    if max(w, h) <= 24:  # a case's map is small: all of it
        window = (1, w, 1, h)
    else:
        cells = [(u.cell.lon, u.cell.lat) for st in (run.start, run.end) for u in st.units.values()]
        window = tm.window_around(run.start.theatre, cells or [(1, 1)], margin=2)
    x0, x1, y0, y1 = window
    fig = new_figure(9, max(2.0, 4.5 * (y1 - y0 + 1) / (x1 - x0 + 1) + 1.2))
    axes = fig.subplots(1, 2)
    for ax, st, title in ((axes[0], run.start, "before"), (axes[1], run.end, "after")):
        tm.draw_theatre(ax, st.theatre, run.case.level, lang, window)
        tm.draw_counters(ax, to_geojson(mediator_view(st)))
        ax.set_title(WORDS[title](lang), fontsize=9)
    return picture(fig, f"{run.case.id}: {WORDS['before'](lang)} / {WORDS['after'](lang)}", lang)


def _verdict(run: CaseRun, lang: Lang) -> tuple[str, str]:
    """Every expectation beside what was found, as HTML and as plain lines."""
    rows = [
        f"{'✓' if k.passed else '✗'} {line}"
        for k in run.checks
        for line in expectation(k.expect, lang, dict(k.actual), is_tactical=run.case.is_tactical)
    ]
    head = WORDS["ok" if run.passed else "not"](lang)
    items = "".join(f"<li>{html.escape(r)}</li>" for r in rows)
    return f"<p><b>{head}</b></p><ul>{items}</ul>", "\n".join([head, *rows])


def play(case_id: str, lang: Lang | None = None) -> tuple[Picture, Html]:
    """The case played: its map before and after the orders, and every expectation beside what
    the program did."""
    lang = lang or lesson_lang()
    run = _run(case_id)
    return _board(run, lang), Html(*_verdict(run, lang))


def house_effect(case_id: str, house_text: str, folder: Path, lang: Lang | None = None) -> Html:
    """The case under a house rule (the text of a house-rules file, 0.3): whether it changes,
    and what the program does then."""
    lang = lang or lesson_lang()
    path = Path(folder) / "house.toml"
    path.write_text(house_text, encoding="utf-8")
    run = _run(case_id, [path])
    head = f"{case_name(run.case, lang)}: {WORDS['changed' if run.changed else 'same'](lang)}"
    verdict, plain = _verdict(run, lang)
    rule = f"<pre><code>{html.escape(house_text.strip())}</code></pre>"  # the file, as code
    return Html(f"{rule}<p><b>{head}</b></p>{verdict}", f"{house_text.strip()}\n{head}\n{plain}")


def case_name(case: Case, lang: Lang) -> str:
    """A case as the reader names it: its id (`9.7a-4`) in English, its rule and number in
    Russian («9.7а № 4», «003, движение через препятствие № 1»)."""
    if lang != "ru":
        return case.id
    return f"{rule_label(case.rule, lang)} № {case.id.rsplit('-', 1)[-1]}"


def picker(lang: Lang | None = None) -> Live:
    """A list of every case of the book and a button to open one: its page, its map and the
    verdict."""
    lang = lang or lesson_lang()
    cases = load_book(BOOK)
    choice = w.Dropdown(
        options=[(f"{case_name(c, lang)}. {c.title(lang)}", c.id) for c in cases],
        description=WORDS["case"](lang),
        layout=w.Layout(width="95%"),
        style={"description_width": "initial"},
    )
    go = w.Button(description=WORDS["open"](lang), layout=w.Layout(width="auto"))
    shown = w.HTML()

    def show(_: Any = None) -> None:
        case_id = str(choice.value)
        board, verdict = play(case_id, lang)
        png = base64.b64encode(board.png).decode("ascii")
        shown.value = (
            case_page(case_id, lang).html
            + f"<img src='data:image/png;base64,{png}' alt='{html.escape(board.alt)}'>"
            + verdict.html
        )

    go.on_click(show)
    first = case_page(cases[0].id, lang)
    return Live(w.VBox([w.HBox([choice, go]), shown]), first.html, first.alt)


__all__ = ["case_name", "case_page", "house_effect", "picker", "play"]
