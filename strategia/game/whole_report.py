"""The game's report as a whole (issue 28: `strategia game report GAME --whole`): a printable
page in either language with the course of the war charted and its figures at the end, the
score of each side with its breakdown (1.1, reconstructed), and every turn's battles as their
reports. A side's copy holds only what the side knows: its own course (`side_course`), its
accounts of its battles, and its score once the war is over (1.1, 1.5)."""

from __future__ import annotations

import base64
import html

from strategia.core.i18n import Lang, Text
from strategia.core.numbers import num
from strategia.explain.render import STYLE as TREE_STYLE
from strategia.explain.render import explanation_html
from strategia.game import report_render as rr
from strategia.game.channel import channel
from strategia.game.course import course
from strategia.game.game import Game
from strategia.game.war_chart import TITLES, chart_png, side_course
from strategia.rules.kinds import side_name

WORDS = {
    "title": Text("«{name}»: the game's report", "«{name}»: отчет об игре"),
    "own": Text("«{name}»: the game's report for {side}", "«{name}»: отчет об игре для {side}"),
    "where": Text("level {level}, turn {turn}", "уровень {level}, ход {turn}"),
    "course": Text("The course of the war", "Ход войны"),
    "end": Text("At the end of turn {turn}", "На конец хода {turn}"),
    "score": Text("The score now (turn {turn})", "Счет сейчас (ход {turn})"),
    "battles": Text("The battles, turn by turn", "Бои по ходам"),
    "later": Text("told when the war is over (1.1)", "сообщается по окончании войны (1.1)"),
}
FIGURES = ("strength", "divisions", "cells", "cities", "score")
HEADS = {
    "strength": Text("forces", "силы"),
    "divisions": Text("divisions", "дивизий"),
    "cells": Text("enemy cells held", "клеток противника"),
    "cities": Text("cities held", "городов"),
    "score": Text("score", "очки"),
}


def _e(text: object) -> str:
    return html.escape(str(text))


def whole_page(g: Game, lang: Lang, side: str | None = None) -> str:
    """The page (see the module); `side`: that side's copy."""
    name = g.scenario.name
    if side is None:
        head = WORDS["title"](lang).format(name=name)
        ds = course(g)
        fights = rr.fights(g.results)
        sides = [str(s) for s in ds["side"].values]
    else:
        ch = channel(g, side)
        head = WORDS["own"](lang).format(name=name, side=side_name(side, lang, case="gen"))
        ds = side_course(g, side)
        fights = ch.fights()
        sides = [side]
    png = base64.b64encode(chart_png(ds, lang)).decode("ascii")
    last = int(ds.turn.max())
    rows = []
    for s in sides:
        at = ds.sel(turn=last) if side is not None else ds.sel(turn=last, side=s)
        cells = [num(float(at[k]), lang) if k in at else "—" for k in FIGURES]
        rows.append(f"<tr><td>{_e(side_name(s, lang, capital=True))}</td>"
                    + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")  # fmt: skip
    heads = "".join(f"<th>{_e(HEADS[k](lang))}</th>" for k in FIGURES)
    scores = []
    for s in sides:
        who = _e(side_name(s, lang, capital=True))
        if side is not None and g.phase != "peace":
            scores.append(f"<p><b>{who}:</b> {_e(WORDS['later'](lang))}</p>")
            continue
        sc = g.score(s)
        scores.append(f"<h4>{who}: {num(sc.value, lang)}</h4>"
                      + explanation_html(sc.explanation, lang, open_depth=3))  # fmt: skip
    where = WORDS["where"](lang).format(level=g.level, turn=g.state.turn)
    return (
        f"<!DOCTYPE html><html lang='{lang}'><head><meta charset='utf-8'><title>{_e(head)}"
        f"</title><style>{rr.CSS}table.sg-end td,table.sg-end th{{padding:2px 8px;"
        "border-bottom:1px solid #ddd;text-align:right}</style>"
        f"{TREE_STYLE}</head><body><div class='sr-report'><h2>{_e(head)}</h2><p>{_e(where)}</p>"
        f"<h3>{_e(WORDS['course'](lang))}</h3>"
        f"<img alt='{_e(TITLES['title'](lang))}' style='max-width:100%' "
        f"src='data:image/png;base64,{png}'>"
        f"<h4>{_e(WORDS['end'](lang).format(turn=last))}</h4>"
        f"<table class='sg-end'><tr><th></th>{heads}</tr>{''.join(rows)}</table>"
        f"<h3>{_e(WORDS['score'](lang).format(turn=g.state.turn))}</h3>{''.join(scores)}"
        f"<h3>{_e(WORDS['battles'](lang))}</h3>{rr.reports_html(fights, lang)}"
        "</div></body></html>"
    )


__all__ = ["whole_page"]
