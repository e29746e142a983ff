"""Quick trials: a few turns of a scenario, and the balance of forces after each.

`balance` plays the turns with the moves it is given: the scenario builder's trial and
`strategia scenario trial` give it the computer player's on every side (`strategia.players`,
which this package does not import; see `strategia.ui.builder.trial`). By default it plays a
simple deterministic script: each side strikes with its artillery at the nearest enemy in
range, attacks with one division beside an enemy, and moves its first divisions two cells ahead.
The script is not a player; it is kept for the golden journals of the tests and as the
opponent the computer player is measured against (`benchmarks/player_trials.py`).
"""

from __future__ import annotations

from collections.abc import Callable

from strategia.core.geometry import Cell
from strategia.engine.artillery import in_range
from strategia.engine.state import UnitState
from strategia.game.game import Game, GameError
from strategia.game.scoring import strength_of
from strategia.notation.orders import Attack
from strategia.rules.kinds import DivisionKind

NOT_ATTACKING = (DivisionKind.ARTILLERY, DivisionKind.ANTI_TANK, DivisionKind.FORTRESS)


def script_turn(g: Game, n_moves: int = 6) -> None:
    """One side's (or, at level 3, every side's) scripted orders, then the end of its move."""
    sides = [g.side] if not g.simultaneous else sorted({g.state.side_of(r) for r in g.state.units})
    for side in sides:
        mine = sorted(
            (u for u in g.state.units.values() if g.state.side_of(u.ref) == side),
            key=lambda u: u.ref.number,
        )
        if side == "green":
            continue
        _attack(g, side)
        _strikes(g, side, mine)
        movers = [
            u
            for u in mine
            if u.division.kind not in (DivisionKind.ARTILLERY, DivisionKind.FORTRESS)
        ]
        for u in movers[:n_moves]:
            if u.ref not in g.state.units:
                continue
            u = g.state.unit(u.ref)
            dx, dy = u.facing.delta
            to = Cell(
                min(g.state.width, max(1, u.cell.lon + 2 * dx)),
                min(g.state.height, max(1, u.cell.lat + 2 * dy)),
            )
            g.order(f"{u.ref} на {to}", side)
    g.end_turn()


def _attack(g: Game, side: str) -> None:
    for u in sorted(g.state.units.values(), key=lambda u: u.ref.number):
        if g.state.side_of(u.ref) != side or u.division.kind in NOT_ATTACKING or u.left <= 0:
            continue
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                c = Cell(u.cell.lon + dx, u.cell.lat + dy)
                foes = [
                    o for o in g.state.occupants(c) if g.state.side_of(o.ref) not in (side, "green")
                ]
                if foes and (dx or dy):
                    g.order(Attack(c, ((u.ref,),)).format("ru"), side)
                    return


def _strikes(g: Game, side: str, mine: list[UnitState]) -> None:
    for u in mine:
        if u.division.kind is not DivisionKind.ARTILLERY or u.ref not in g.state.units:
            continue
        foes = sorted(
            (
                o
                for o in g.state.units.values()
                if g.state.side_of(o.ref) not in (side, "green")
                and in_range(u.cell, o.cell, g.rules)
            ),
            key=lambda o: (o.cell.km(u.cell), o.ref.number),
        )
        if foes:
            g.order(f"{u.ref} огонь по {foes[0].cell}", side)


def play(g: Game, turns: int) -> Game:
    """Play the script until turn `turns` is over."""
    while g.state.turn <= turns:
        script_turn(g)
    return g


def balance(
    g: Game, turns: int, move: Callable[[Game], object] = script_turn
) -> dict[str, list[float]]:
    """Play `turns` turns, each by calls of `move` (one side's move, or a whole turn, ended:
    the script's by default); each side's forces (the sum of 9.6 ratings times strength) at
    the start and after every turn."""
    sides = sorted({s.side for s in g.scenario.states})
    out: dict[str, list[float]] = {s: [strength_of(g.state, s, g.rules)] for s in sides}
    for _ in range(turns):
        day = g.state.turn
        while g.state.turn == day and g.phase != "peace":
            before = (g.side, g.journal.last_seq)
            move(g)
            if (g.state.turn, g.side, g.journal.last_seq) == (day, *before):
                raise GameError(
                    "the trial's moves did not move the game on",
                    ru="ходы пробной игры не продвинули игру",
                )
        for s in sides:
            out[s].append(strength_of(g.state, s, g.rules))
    return out
