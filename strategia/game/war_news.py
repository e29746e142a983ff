"""The start of the war announced (9.1: «Началом войны считается пересечение любой границы, в
том числе - границы нейтрального государства»): who crossed which border, where, on which turn;
and each neutral state that a later crossing brings into the war.

The mediator is told all of it. What a side is told (reconstructed: 9.1 says what begins the
war, not who hears of it; 1.6 says the players know only what the mediator tells them):

- every side, that the war began (or a neutral joined it), on which turn, and which state's
  troops crossed into which state: a war is no secret, and 8.3's reconnaissance opens with it;
- the side whose troops crossed, also the unit and the cell: its own;
- the side whose border was crossed, also the cell, its own ground (an enemy on its ground is in
  sight of it, `views`), never the unit: the enemy's counter is told as its view tells it;
- any other side, no cell and no unit.

A side receives it through its channel only (`strategia.game.channel`); the mediator's journal
and console read `mediator_news`.
"""

from __future__ import annotations

from dataclasses import dataclass

from strategia.core.i18n import Text
from strategia.engine.state import GameState, WarStart
from strategia.game.history import History
from strategia.game.report_words import feminine, unit_name
from strategia.theatre.scenario import Scenario

MEDIATOR = "mediator"


@dataclass(frozen=True)
class News:
    """One announcement: the journal entry it follows, the turn, its words."""

    seq: int
    turn: int
    text: Text
    began: bool


def _name(sc: Scenario, code: str) -> str:
    return sc.state(code).name


def words(ws: WarStart, sc: Scenario, side: str) -> Text:
    """What `side` ("mediator" for everything) is told of one crossing."""
    va, vi = _name(sc, ws.violator), _name(sc, ws.victim)
    crosser, crossed = sc.state(ws.violator).side, sc.state(ws.victim).side
    unit = ws.unit if ws.unit and side in (MEDIATOR, crosser) else ""
    cell = str(ws.cell) if side in (MEDIATOR, crosser, crossed) else ""
    if ws.began:
        head = Text(f"The war begins (9.1), turn {ws.turn}", f"Началась война (9.1), ход {ws.turn}")
    else:
        head = Text(
            f"«{vi}» enters the war (9.1), turn {ws.turn}",
            f"Государство «{vi}» вступает в войну (9.1), ход {ws.turn}",
        )
    who_en = (
        f"{unit_name(unit, 'en')} of «{va}» crossed" if unit else f"the troops of «{va}» crossed"
    )
    verb = "перешла" if feminine(unit) else "перешел"
    who_ru = f"{unit} государства «{va}» {verb}" if unit else f"войска государства «{va}» перешли"
    at_en, at_ru = (f" at {cell}", f" в {cell}") if cell else ("", "")
    return Text(
        f"{head.en}: {who_en} the border of «{vi}»{at_en}",
        f"{head.ru}: {who_ru} границу государства «{vi}»{at_ru}",
    )


def _seq(g: History, ws: WarStart) -> int:
    """The journal entry the crossing happened in: the first result of its turn that names the
    unit, else the first of its turn by the crossing side, else the last of the turn."""
    of_turn = [(seq, by, r) for seq, turn, by, r in g.results if turn == ws.turn]
    side = g.scenario.state(ws.violator).side
    for seq, _, r in of_turn:
        if ws.unit and ws.unit in r.order:
            return seq
    for seq, _, r in of_turn:
        if r.by == side:
            return seq
    return of_turn[-1][0] if of_turn else g.seen


def news(g: History, side: str = MEDIATOR) -> list[News]:
    """Every announcement of the war's start and growth `side` receives, in turn."""
    return [
        News(_seq(g, ws), ws.turn, words(ws, g.scenario, side), ws.began) for ws in g.state.war_log
    ]


def banner(state: GameState, side: str = MEDIATOR) -> Text | None:
    """The start of the war as `side` was told it, in the game `state` (the game now, or as it
    was at a journal entry); None: peace still."""
    first = next((ws for ws in state.war_log if ws.began), None)
    return words(first, state.scenario, side) if first is not None else None


__all__ = ["MEDIATOR", "News", "banner", "news", "words"]
