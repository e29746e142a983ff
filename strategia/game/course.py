"""The course of the war: a game's states turn by turn as an xarray Dataset.

`course(game)` reads the game's state after every turn (from its snapshots) and its results,
and returns a Dataset with dimensions ``turn`` (0 the start, then each turn played: the
position after it) and ``side`` (the scenario's sides, in the order they move):

- ``strength``: the side's forces, the sum of its divisions' level-1 ratings times strength
  (9.6, `strategia.game.scoring.strength_of`);
- ``divisions``: its strength in divisions (a division whole is 1);
- ``losses``: the forces destroyed or taken away from it in that turn by battles, artillery
  strikes and interdiction fire, from the turn's results (`strategia.game.losses`: level-1
  ratings times the strength lost; never negative, 0 at the start);
- ``reinforcements``: the forces that arrived in that turn, the divisions the mobilisation plan
  brings (6.4: level-1 ratings times strength; 0 at the start). A turn's ``strength`` is the
  last one's less ``losses`` plus ``reinforcements``, where no regrouping moved strength
  between units;
- ``cells``: the cells of other sides' states its troops stand on; ``cities``: of them, cities
  and capitals;
- ``score``: its score after the turn (1.1, reconstructed: `strategia.game.scoring.score`,
  from the losses of every turn so far, without 9.3's penalties);
- ``battles``: the battles it fought in that turn, attacking or attacked (9.8; a blow that
  found no battle and an artillery strike are not battles); ``strikes``: the artillery
  strikes it fired (9.7);
- ``at_war`` (turn only): whether the war had begun (9.1) by the end of the turn;
- ``strength_by_arm`` (turn, side, arm): ``strength`` by the divisions' kind (table 1: с.д.,
  т.д., м.д., ... in the order the rules' table of 9.6 lists them; the coordinate is the kind's
  key, ``rifle``, with ``arm_ru`` «с.д.» and ``arm_en`` "RD" beside it); its sum over ``arm``
  is ``strength``;
- ``sector_strength`` (turn, side, sector): the side's forces in each sector of the front, and
  ``force_ratio``: them over its enemy's there, NaN where the enemy has none
  (`strategia.game.fronts` defines the sectors; the coordinate ``sector`` numbers them, with
  ``sector_lo`` and ``sector_hi`` their positions along the front, ``front_axis`` its axis).

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
from strategia.game import fronts, losses
from strategia.game.game import Game
from strategia.game.scoring import score, strength_of
from strategia.rules import RuleSet
from strategia.rules.kinds import DivisionKind
from strategia.theatre import terrain

SIDE_VARIABLES = (
    "strength", "divisions", "losses", "reinforcements", "cells", "cities", "score", "battles",
    "strikes",
)  # fmt: skip
NOT_BATTLES = ("no_battle", "strike")

__all__ = [
    "NOT_BATTLES", "SIDE_VARIABLES", "arms", "course", "ground_held", "states_by_turn",
]  # fmt: skip


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


def arms(rules: RuleSet) -> list[str]:
    """The division kinds the rules rate (9.6's table), in its order: the arms."""
    return list(rules.entry("initial_ratings").rows)


def _by_arm(state: GameState, sides: list[str], kinds: list[str], rules: RuleSet) -> Any:
    out = np.zeros((len(sides), len(kinds)))
    for u in state.units.values():
        side, kind = state.side_of(u.ref), u.division.kind.key
        rating = float(rules.param("initial_ratings", kind, "rating").value)
        out[sides.index(side), kinds.index(kind)] += rating * u.division.strength
    return out


def _fronts(g: Game, states: list[GameState], sides: list[str]) -> tuple[Any, Any, Any]:
    """The front, the sides' forces by sector and their ratio, (turn, side, sector)."""
    front = fronts.front_of(g.scenario)
    n, m = len(states), len(front.sectors)
    strength, ratio = np.zeros((n, len(sides), m)), np.full((n, len(sides), m), np.nan)
    for t, st in enumerate(states):
        strength[t] = fronts.forces(front, fronts.on_front(st), g.rules, sides)
        for k, side in enumerate(sides):
            foes = [sides.index(e) for e in fronts.enemies(st, side) if e in sides]
            for j in range(m):
                ratio[t, k, j] = fronts.ratio(strength[t, k, j], strength[t, foes, j].sum())
    return front, strength, ratio


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


def course(g: Game, states: list[GameState] | None = None) -> xr.Dataset:
    """The course of the war of game `g` (see the module); `states`: `states_by_turn(g)`,
    when the caller has read them already."""
    states = states_by_turn(g) if states is None else states
    rules: RuleSet = g.rules
    order = [*flow.sides_in_order(g.start, rules), *(s.side for s in g.scenario.states)]
    sides = list(dict.fromkeys(order))
    n = len(states)
    values: dict[str, np.ndarray[Any, Any]] = {k: np.zeros((n, len(sides))) for k in SIDE_VARIABLES}
    battles, strikes = _fights(g, n - 1)
    lost = losses.by_turn(g.results, rules)
    so_far: dict[str, float] = {}
    for t, st in enumerate(states):
        came = losses.reinforcements(states[t - 1], st, rules) if t else {}
        for side in sides:  # the results of turn t lead to position t (0: the start)
            so_far[side] = so_far.get(side, 0.0) + lost.get((t, side), 0.0)
        for k, side in enumerate(sides):
            values["strength"][t, k] = strength_of(st, side, rules)
            values["divisions"][t, k] = _divisions(st, side)
            values["losses"][t, k] = lost.get((t, side), 0.0)
            values["reinforcements"][t, k] = came.get(side, 0.0)
            values["cells"][t, k], values["cities"][t, k] = ground_held(st, side)
            values["score"][t, k] = score(st, side, rules, so_far).value
            values["battles"][t, k] = battles[(t, side)]
            values["strikes"][t, k] = strikes[(t, side)]
    ints = ("cells", "cities", "battles", "strikes")
    data: dict[str, Any] = {
        k: (("turn", "side"), v.astype(np.int32) if k in ints else v.round(6))
        for k, v in values.items()
    }
    data["at_war"] = ("turn", np.array([st.at_war for st in states], dtype=bool))
    kinds = arms(rules)
    by_arm = np.array([_by_arm(st, sides, kinds, rules) for st in states])
    data["strength_by_arm"] = (("turn", "side", "arm"), by_arm.round(6))
    front, in_sector, ratio = _fronts(g, states, sides)
    data["sector_strength"] = (("turn", "side", "sector"), in_sector)
    data["force_ratio"] = (("turn", "side", "sector"), ratio)
    ds = xr.Dataset(
        data,
        coords={
            "turn": np.arange(n, dtype=np.int32),
            "side": np.array(sides, dtype=str),
            **arm_coords(kinds),
            **sector_coords(front),
        },
        attrs={
            "scenario": g.scenario.name,
            "level": g.level,
            "engine": str(g.journal.header.get("engine", "")),
            "rules_digest": str(g.journal.header.get("rules", {}).get("digest", "")),
            "front_axis": front.axis,
            "front_depth": fronts.DEPTH,
        },
    )
    for name, (en, unit) in _ABOUT.items():
        ds[name].attrs.update(long_name=en, units=unit)
    return ds


def arm_coords(kinds: list[str]) -> dict[str, Any]:
    """The ``arm`` coordinate and its Russian and English abbreviations (с.д., RD)."""
    named = [DivisionKind.from_key(k) for k in kinds]
    return {
        "arm": np.array(kinds, dtype=str),
        "arm_ru": ("arm", np.array([k.ru for k in named], dtype=str)),
        "arm_en": ("arm", np.array([k.en for k in named], dtype=str)),
    }


def sector_coords(front: fronts.Front) -> dict[str, Any]:
    """The ``sector`` coordinate (numbers from 1) and each sector's positions along the front."""
    return {
        "sector": np.array([s.number for s in front.sectors], dtype=np.int32),
        "sector_lo": ("sector", np.array([s.lo for s in front.sectors], dtype=np.int32)),
        "sector_hi": ("sector", np.array([s.hi for s in front.sectors], dtype=np.int32)),
    }


_ABOUT = {
    "strength": ("forces: sum of ratings times strength (9.6)", "rating"),
    "divisions": ("strength in divisions", "divisions"),
    "losses": ("forces destroyed or taken away in the turn (battles, strikes, fire)", "rating"),
    "reinforcements": ("forces arrived in the turn (6.4)", "rating"),
    "cells": ("cells of other sides' states held", "cells"),
    "cities": ("cities and capitals of other sides held", "cities"),
    "score": ("score (1.1, reconstructed; no 9.3 penalties)", "points"),
    "battles": ("battles fought in the turn (9.8)", "battles"),
    "strikes": ("artillery strikes fired in the turn (9.7)", "strikes"),
    "at_war": ("the war has begun (9.1)", ""),
    "strength_by_arm": ("forces by the divisions' kind (9.6, table 1)", "rating"),
    "sector_strength": ("forces in the front's sector (strategia.game.fronts)", "rating"),
    "force_ratio": ("own forces in the sector over the enemy's", "1"),
}
