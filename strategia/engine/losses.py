"""What losses do to a unit on the map: weakened regiments, a transfer cut short, interdiction
fire on the move (9.6, 9.7, 4.5)."""

from __future__ import annotations

from dataclasses import replace

from strategia.core.geometry import Cell
from strategia.core.i18n import Text
from strategia.engine.capability import at_work
from strategia.engine.result import UnitLoss
from strategia.engine.state import Busy, GameState, UnitState
from strategia.explain.trace import explain
from strategia.rules import RuleSet
from strategia.rules.english import en


def weaken(u: UnitState, share: float, rules: RuleSet, state: GameState) -> UnitState | None:
    """The unit after losing `share` of every regiment; None if nothing fighting is left."""
    keep = 1.0 - share
    div = u.division.with_strengths(
        tuple(round(r.strength * keep, 6) for r in u.division.regiments)
    )
    if div.strength < float(rules.value("loss_rule", "destroyed_below")):
        return None
    out = replace(u, division=div)
    if out.busy is not None and out.busy.what == "transfer":
        out = cut_transfer(state, out, rules)
    return out


def cut_transfer(state: GameState, u: UnitState, rules: RuleSet) -> UnitState:
    """A transfer attacked in transit ends where the unit is (4.5); it then recovers."""
    rest = float(rules.value("rail_transfer", "recovery_turns"))
    return at_work(u, Busy("recovering", rest), rules)


def interdicted(
    state: GameState, u: UnitState, path: list[Cell], rules: RuleSet
) -> tuple[UnitState | None, Cell | None]:
    """A unit moving along `path` through an enemy's interdicted cell, fired on during its side's
    turn after the fire (9.7d): the unit after its losses (None if destroyed) and where."""
    side = state.side_of(u.ref)
    for c in path[1:]:
        for f in state.interdictions:
            if f.cell == c and f.side != side and state.turn <= f.turn + 1:
                with explain(
                    Text(
                        en(f"{u.ref} passes interdiction fire at {c}"),
                        f"{u.ref} проходит огонь на отсечение в {c}",
                    ),
                    rule="9.7d",
                ) as g:
                    g.step(Text("share destroyed", "доля уничтоженного"), f.loss, rule="9.7d")
                    after = weaken(u, f.loss, rules, state)
                    g.set(f.loss)
                return after, c
    return u, None


def fire_losses(
    state: GameState, before: UnitState, after: UnitState | None, at: Cell | None
) -> tuple[UnitLoss, ...]:
    """What interdiction fire at `at` (None: none was passed) took of `before`, left as
    `after` (None: destroyed), as the result records it (9.7d)."""
    if at is None:
        return ()
    return (
        UnitLoss(
            unit=str(before.ref),
            side=state.side_of(before.ref),
            kind=before.division.kind.ru,
            strength_before=round(before.division.strength, 4),
            strength_after=round(after.division.strength, 4) if after is not None else 0.0,
            rule="9.7d",
            cell=str(at),
        ),
    )
