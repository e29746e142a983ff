"""A scripted game: deterministic orders chosen from the position, for the golden journals."""

from __future__ import annotations

from strategia.combat_orders import Attack
from strategia.engine.artillery import in_range
from strategia.game import Game
from strategia.geometry import Cell
from strategia.units import DivisionKind


def script_turn(g: Game, n_moves: int = 6) -> None:
    """One side's (or, at level 3, every side's) orders for this turn, then the end of its move."""
    sides = [g.side] if not g.simultaneous else sorted({g.state.side_of(r) for r in g.state.units})
    for side in sides:
        mine = sorted(
            (u for u in g.state.units.values() if g.state.side_of(u.ref) == side),
            key=lambda u: u.ref.number,
        )
        if side in ("red", "blue"):
            _attacks(g, side)
            _strikes(g, side, mine)
            for u in [
                u
                for u in mine
                if u.division.kind not in (DivisionKind.ARTILLERY, DivisionKind.FORTRESS)
            ][:n_moves]:
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


def _attacks(g: Game, side: str) -> None:
    for u in sorted(g.state.units.values(), key=lambda u: u.ref.number):
        if (
            g.state.side_of(u.ref) != side
            or u.division.kind
            in (DivisionKind.ARTILLERY, DivisionKind.ANTI_TANK, DivisionKind.FORTRESS)
            or u.left <= 0
        ):
            continue
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                c = Cell(u.cell.lon + dx, u.cell.lat + dy)
                foes = [
                    o for o in g.state.occupants(c) if g.state.side_of(o.ref) not in (side, "green")
                ]
                if foes and (dx or dy):
                    g.order(Attack(u.ref, c, ((u.ref,),)).format("ru"), side)
                    return


def _strikes(g: Game, side: str, mine: list) -> None:  # type: ignore[type-arg]
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
    while g.state.turn <= turns:
        script_turn(g)
    return g
