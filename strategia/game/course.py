"""The course of the war: a game's states turn by turn as an xarray Dataset.

`course(game)` reads the game's state after every turn (from its snapshots) and its results,
and returns a Dataset with dimensions ``turn`` (0 the start, then each turn played: the
position after it) and ``side`` (the scenario's sides, in the order they move):

- ``strength``: the side's forces, the sum of its divisions' level-1 ratings times strength
  (9.6, as the score counts them, `strategia.game.scoring.strength_of`);
- ``divisions``: its strength in divisions (a division whole is 1);
- ``losses``: the forces it lost in that turn (``strength`` before it less after; 0 at the
  start; reinforcements would show as negative);
- ``cells``: the cells of other sides' states its troops stand on; ``cities``: of them, cities
  and capitals;
- ``score``: its score after the turn (1.1, reconstructed: `strategia.game.scoring.score`,
  without 9.3's penalties);
- ``battles``: the battles it fought in that turn, attacking or attacked (9.8; a blow that
  found no battle and an artillery strike are not battles); ``strikes``: the artillery
  strikes it fired (9.7);
- ``at_war`` (turn only): whether the war had begun (9.1) by the end of the turn.

A game ended by peace talks holds its last position as its last turn. The attributes name the
scenario, the level, the engine's version and the rules' digest. The value is computed, never
kept: the game is its source (the charts of a game and the balance sweeps read it).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
import xarray as xr

from strategia.engine import flow
from strategia.engine.state import GameState
from strategia.game.game import Game
from strategia.game.scoring import score, strength_of
from strategia.rules import RuleSet
from strategia.theatre import terrain

SIDE_VARIABLES = (
    "strength", "divisions", "losses", "cells", "cities", "score", "battles", "strikes",
)  # fmt: skip
NOT_BATTLES = ("no_battle", "strike")

__all__ = ["NOT_BATTLES", "SIDE_VARIABLES", "course", "ground_held", "states_by_turn"]


def states_by_turn(g: Game) -> list[GameState]:
    """The game's position at the start and after each turn played (in peace, its last
    position closes the list)."""
    states = [g.state_at(t) for t in range(1, g.state.turn + 1)]
    if g.phase == "peace":
        states.append(g.state)
    return states


def ground_held(state: GameState, side: str) -> tuple[int, int]:
    """The cells of other sides' states the side's troops stand on, and of them the cities
    and capitals."""
    ds = state.theatre
    codes = [s.code for s in state.scenario.states]
    sides_of = {s.code: s.side for s in state.scenario.states}
    held = {c for u in state.units.values() if state.side_of(u.ref) == side for c in u.cells}
    cells = cities = 0
    for c in held:
        if not terrain.on_map(ds, c):
            continue
        i, j = terrain.index(ds, c)
        k = int(ds["state"].values[i, j])
        if not k or sides_of[codes[k - 1]] == side:
            continue
        cells += 1
        cities += int(ds["settlement"].values[i, j]) in (1, 2)
    return cells, cities


def _divisions(state: GameState, side: str) -> float:
    return round(
        sum(u.division.strength for u in state.units.values() if state.side_of(u.ref) == side), 6
    )


def _fights(g: Game, turns: int) -> tuple[Counter[tuple[int, str]], Counter[tuple[int, str]]]:
    """The battles each side fought and the strikes it fired, by (turn, side)."""
    battles: Counter[tuple[int, str]] = Counter()
    strikes: Counter[tuple[int, str]] = Counter()
    for _, turn, _, r in g.results:
        b = r.battle
        if b is None or turn > turns:
            continue
        if b.outcome == "strike":
            strikes[(turn, b.attacker)] += 1
        elif b.outcome not in NOT_BATTLES:
            for side in {b.attacker, b.defender} - {""}:
                battles[(turn, side)] += 1
    return battles, strikes


def course(g: Game) -> xr.Dataset:
    """The course of the war of game `g` (see the module)."""
    states = states_by_turn(g)
    rules: RuleSet = g.rules
    order = [*flow.sides_in_order(g.start, rules), *(s.side for s in g.scenario.states)]
    sides = list(dict.fromkeys(order))
    n = len(states)
    values: dict[str, np.ndarray[Any, Any]] = {k: np.zeros((n, len(sides))) for k in SIDE_VARIABLES}
    battles, strikes = _fights(g, n - 1)
    for t, st in enumerate(states):
        for k, side in enumerate(sides):
            values["strength"][t, k] = strength_of(st, side, rules)
            values["divisions"][t, k] = _divisions(st, side)
            values["cells"][t, k], values["cities"][t, k] = ground_held(st, side)
            values["score"][t, k] = score(g.start, st, side, rules).value
            values["battles"][t, k] = battles[(t, side)]
            values["strikes"][t, k] = strikes[(t, side)]
    values["losses"][1:] = values["strength"][:-1] - values["strength"][1:]
    ints = ("cells", "cities", "battles", "strikes")
    data: dict[str, Any] = {
        k: (("turn", "side"), v.astype(np.int32) if k in ints else v.round(6))
        for k, v in values.items()
    }
    data["at_war"] = ("turn", np.array([st.at_war for st in states], dtype=bool))
    ds = xr.Dataset(
        data,
        coords={"turn": np.arange(n, dtype=np.int32), "side": np.array(sides, dtype=str)},
        attrs={
            "scenario": g.scenario.name,
            "level": g.level,
            "engine": str(g.journal.header.get("engine", "")),
            "rules_digest": str(g.journal.header.get("rules", {}).get("digest", "")),
        },
    )
    for name, (en, unit) in _ABOUT.items():
        ds[name].attrs.update(long_name=en, units=unit)
    return ds


_ABOUT = {
    "strength": ("forces: sum of ratings times strength (9.6)", "rating"),
    "divisions": ("strength in divisions", "divisions"),
    "losses": ("forces lost in the turn", "rating"),
    "cells": ("cells of other sides' states held", "cells"),
    "cities": ("cities and capitals of other sides held", "cities"),
    "score": ("score (1.1, reconstructed; no 9.3 penalties)", "points"),
    "battles": ("battles fought in the turn (9.8)", "battles"),
    "strikes": ("artillery strikes fired in the turn (9.7)", "strikes"),
    "at_war": ("the war has begun (9.1)", ""),
}
