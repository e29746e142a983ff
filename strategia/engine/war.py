"""The start of the war (9.1): crossing any border, a neutral's included, begins it.

The main sides (Red and Blue, or whichever are not neutral) go to war with each other at the
first crossing; a neutral (Green) state whose border is crossed, or whose troops are attacked,
joins the war against the violator.
"""

from __future__ import annotations

from strategia.core.geometry import Cell
from strategia.core.i18n import Text
from strategia.engine.state import GameState, WarStart
from strategia.explain.trace import record
from strategia.rules.english import en


def _pair(a: str, b: str) -> tuple[str, str]:
    x, y = sorted((a, b))
    return x, y


def _declare(state: GameState, violator: str, victim: str, cell: Cell, unit: str) -> GameState:
    """War between the two states, and between the main sides if it had not begun; how it
    began is kept (`GameState.war_log`: the turn, the states, the cell, the unit), for the
    announcement to every side (`strategia.game.war_news`)."""
    wars = set(state.wars)
    new = _pair(violator, victim) not in wars
    wars.add(_pair(violator, victim))
    began = not state.at_war
    if began:
        mains = [s for s in state.scenario.states if s.side != "green"]
        for a in mains:
            for b in mains:
                if a.side != b.side:
                    wars.add(_pair(a.code, b.code))
    if new or began:
        va, vi = state.scenario.state(violator), state.scenario.state(victim)
        what = "the war begins: " if began else ""
        what_ru = "начало войны: " if began else ""
        record(
            Text(
                en(
                    f"{what}{va.name} crossed into {vi.name}"
                    + (" (a neutral: it joins the war)" if vi.side == "green" else "")
                ),
                f"{what_ru}войска государства «{va.name}» перешли границу государства «{vi.name}»"
                + (" (нейтральное государство вступает в войну)" if vi.side == "green" else ""),
            ),
            None,
            kind="note",
            rule="9.1",
        )
    log = state.war_log
    if new or began:
        log = (*log, WarStart(state.turn, violator, victim, cell, unit, began))
    return state.evolve(at_war=True, wars=frozenset(wars), war_log=log)


def crossing(state: GameState, owner: str, cells: list[Cell], unit: str = "") -> GameState:
    """The state after a unit of `owner` (`unit`) entered `cells`: war where a border was
    crossed."""
    st = state.grid.state
    codes = [s.code for s in state.scenario.states]
    for c in cells:
        if not state.grid.on_map(c):
            continue
        k = int(st[c.lon - 1, c.lat - 1])
        if k and codes[k - 1] != owner and not state.at_war_between(owner, codes[k - 1]):
            state = _declare(state, owner, codes[k - 1], c, unit)
    return state


def attacked(
    state: GameState, attacker: str, defender: str, cell: Cell, unit: str = ""
) -> GameState:
    """An attack on another state's troops (on `cell`, led by `unit`) is a crossing of its
    border (9.1)."""
    if attacker == defender or state.at_war_between(attacker, defender):
        return state
    return _declare(state, attacker, defender, cell, unit)
