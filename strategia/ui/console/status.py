"""The console's words, its status line and an order's breakdown, as plain functions of the
game and what the viewer chose (the console shows what they return)."""

from __future__ import annotations

import html

from strategia.core.i18n import Lang, Text
from strategia.engine.result import Result
from strategia.explain.render import explanation_html, rule_label
from strategia.game import report_render as rr
from strategia.game.entries import Entry
from strategia.game.game import Game
from strategia.game.order_words import order_in
from strategia.rules.kinds import side_name

T = {
    "turn": Text("Turn", "Ход"),
    "to_move": Text("to move", "ходят"),
    "phase": Text("phase", "этап"),
    "end_turn": Text("End turn", "Конец хода"),
    "execute": Text("Execute the turn", "Исполнить ход"),
    "undo": Text("Undo", "Отменить"),
    "view": Text("View", "Вид"),
    "mediator": Text("mediator", "посредник"),
    "working": Text("working…", "идет расчет…"),
    "clock_on": Text("with clocks", "с часами"),
    "no_clock": Text("no clock", "без часов"),
    "find": Text("Find", "Найти"),
    "legend": Text("Legend", "Условные знаки"),
    "whole": Text("Whole map", "Вся карта"),
    "cut": Text(
        "cut by the rules (9.3), for the mediator", "сокращено по правилам (9.3), для посредника"
    ),
    "nothing": Text(
        "cut to nothing by the rules (9.3), for the mediator: the player is told where the unit "
        "stands",
        "сокращен до нуля по правилам (9.3), для посредника: играющему сообщается, где стоит часть",
    ),
    "history": Text("history: the game as it was", "история: игра, какой она была"),
    "back": Text("Back to now", "К текущему ходу"),
    "forked": Text(
        "A new game, {game}: {was} as it was after entry {entry}",
        "Новая игра, {game}: {was}, какой она была после записи {entry}",
    ),
}
PHASES = {
    "deployment": Text("deployment", "развертывание"),
    "combat": Text("war", "война"),
    "peace": Text("peace talks", "мирные переговоры"),
}


def _e(text: object) -> str:
    return html.escape(str(text))


def status_html(g: Game, turn: int, side: str, phase: str, looking_back: bool, lang: Lang) -> str:
    """The head line: the game, the turn shown, who moves and the phase (as they were at the
    journal entry looked back at), the level, the clock."""
    clock = T["no_clock"](lang) if not g.clocked else T["clock_on"](lang)
    who = (
        Text("every side gives orders", "приказы отдают все стороны")(lang)
        if g.simultaneous
        else f"ходят <b>{_e(side_name(side, lang))}</b>"
        if lang == "ru"
        else f"<b>{_e(side_name(side, lang))}</b> to move"
    )
    past = f" — <b style='color:#8a5a00'>{T['history'](lang)}</b>" if looking_back else ""
    return (
        f"<b>{_e(g.scenario.name)}</b> — {T['turn'](lang)} {turn}, {who}, "
        f"{T['phase'](lang)}: {PHASES.get(phase, Text(phase))(lang)}, "
        f"{Text('level', 'уровень')(lang)} {g.level}, {clock}{past}"
    )


def breakdown_html(result: Result, viewer: str, lang: Lang, turn: int) -> str:
    """An order's outcome; for the mediator also what was cut (or that it was cut to nothing,
    9.3) and the full breakdown (a battle's or a strike's as its report)."""
    out = f"<p><b>{_e(result.outcome(lang))}</b></p>"
    if viewer != "mediator":
        return out
    if result.cuts:
        cuts = "".join(
            f"<li>[{_e(rule_label(c.rule, lang))}] {_e(c.reason(lang))}</li>" for c in result.cuts
        )
        head = T["nothing"] if result.cut_to_nothing else T["cut"]
        out += f"<p style='color:#b00'>{head(lang)}:</p><ul>{cuts}</ul>"
    if result.battle is not None or result.explanation.rule == "9.7":
        return out + rr.report_html(result, lang, turn)
    return out + explanation_html(result.explanation, lang)


__all__ = ["PHASES", "T", "breakdown_html", "status_html", "undo_label"]


def undo_label(last: Entry | None, viewer: str, lang: Lang) -> tuple[int | None, str]:
    """The entry Undo takes back and the button's label naming it: the newest entry that may
    be taken back (`last`), in a side's view only if it is that side's own (a side's view names
    nothing of another side's)."""
    if last is None or viewer not in ("mediator", last.data.get("side")):
        return None, T["undo"](lang)
    what = order_in(str(last.data.get("order") or ""), lang) or last.data.get("text") or ""
    return last.seq, f"{T['undo'](lang)}: {what}"
