"""Artillery fire (9.7), decided by the engine's what-if on the side's picture: each free
battery fires on the known enemy in reach (9.7a, at the game's level) it would hurt most, never
on troops in contact with the side's own (9.7b); with none, it interdicts (9.7d) a road of the
enemy's ground in reach that leads past a known enemy towards the front. A battery that
supports a blow this move (9.8c) does not fire too.
"""

from __future__ import annotations

from strategia.core.geometry import Cell
from strategia.core.i18n import Text
from strategia.engine.artillery_reach import in_range
from strategia.engine.state import GameState, UnitState
from strategia.notation.orders import Strike
from strategia.notation.refs import UnitRef
from strategia.players.decision import Decision, Goal, number, step
from strategia.players.fight import able, knowledge
from strategia.players.ground import Ground
from strategia.players.picture import Known, Picture
from strategia.players.whatif import Tried, attempt
from strategia.rules import RuleSet
from strategia.rules.kinds import DivisionKind

MAX_SHOTS = 12  # cells weighed for each battery


def fire(
    state: GameState,
    picture: Picture,
    ground: Ground,
    rules: RuleSet,
    side: str,
    busy: set[UnitRef],
) -> tuple[GameState, list[Decision]]:
    """Each free battery's fire (9.7), tried on `state` one after another."""
    out: list[Decision] = []
    guns = sorted(
        (
            u
            for u in state.units.values()
            if state.side_of(u.ref) == side
            and u.division.kind is DivisionKind.ARTILLERY
            and able(u)
            and u.ref not in busy
        ),
        key=lambda u: u.ref.number,
    )
    if not picture.at_war or not guns:
        return state, out
    mine = [u for u in state.units.values() if state.side_of(u.ref) == side]
    contact = {
        Cell(c.lon + dx, c.lat + dy)
        for u in mine
        for c in u.cells
        for dx in (-1, 0, 1)
        for dy in (-1, 0, 1)
    }
    for gun in guns:
        cells = sorted(
            {k.cell for k in picture.enemies if k.cell not in contact},
            key=lambda c: (c.km(gun.cell), c.lon, c.lat),
        )
        cells = [c for c in cells if in_range(gun.cell, c, rules)][:MAX_SHOTS]
        best: Tried | None = None
        for c in cells:
            t = attempt(state, Strike(gun.ref, c), rules, side, losses=True)
            if t.clean and t.enemy_lost > 0.05 and (best is None or t.enemy_lost > best.enemy_lost):
                best = t
        if best is not None:
            state = best.state
            out.append(_strike_decision(best, picture))
            continue
        d = _interdict(state, gun, picture, ground, rules, side, contact)
        if d is not None:
            state, decision = d
            out.append(decision)
    return state, out


def _strike_decision(t: Tried, picture: Picture) -> Decision:
    o = t.order
    assert isinstance(o, Strike)
    known = [k for k in picture.enemies if k.cell == o.target]
    parts = [
        knowledge(known),
        step(
            Text("in reach at this level", "в пределах досягаемости на этом уровне"),
            Text(str(o.target)),
            rule="9.7a",
        ),
        step(
            Text("not in contact with own troops", "не в соприкосновении со своими войсками"),
            None,
            rule="9.7b",
        ),
        step(
            Text(
                "expected loss of the enemy (divisions of rating)",
                "ожидаемые потери противника (в дивизиях рейтинга)",
            ),
            number(t.enemy_lost),
            rule="9.7a",
        ),
    ]
    label = Text(
        f"{o.unit.format('en')} fires on {o.target}",
        f"{o.unit.format('ru')} ведет огонь по {o.target}",
    )
    reason = step(label, rule="9.7", children=parts)
    return Decision(Goal.STRIKE, o.format("ru"), reason, units=(o.unit,))


def _interdict(
    state: GameState,
    gun: UnitState,
    picture: Picture,
    ground: Ground,
    rules: RuleSet,
    side: str,
    contact: set[Cell],
) -> tuple[GameState, Decision] | None:
    """Interdiction fire (9.7d) on a road of the enemy's ground in reach that leads past a
    known enemy towards the front, if there is one."""
    roads = state.grid.road
    near: list[tuple[int, Cell, Known]] = []
    for k in picture.enemies:
        for dx in range(-3, 4):
            for dy in range(-3, 4):
                c = Cell(k.cell.lon + dx, k.cell.lat + dy)
                if (
                    not ground.on_map(c)
                    or c in contact
                    or not ground.at(ground.enemy, c)
                    or not roads[c.lon - 1, c.lat - 1]
                    or state.occupants(c)
                ):
                    continue
                if in_range(gun.cell, c, rules):
                    near.append((ground.depth(c) if ground.at(ground.enemy, c) else 0, c, k))
    if not near:
        return None
    near.sort(key=lambda x: (x[1].km(gun.cell), x[1].lon, x[1].lat))
    _, cell, k = near[0]
    t = attempt(state, Strike(gun.ref, cell, "interdict"), rules, side)
    if not t.clean:
        return None
    parts = [
        knowledge([k]),
        step(
            Text("a road towards the front, in reach", "дорога к фронту в пределах досягаемости"),
            Text(str(cell)),
            rule="9.7a",
        ),
        step(
            Text(
                "what passes it in the enemy's move is hit", "бьет то, что пройдет в ход противника"
            ),
            None,
            rule="9.7d",
        ),
    ]
    label = Text(
        f"{gun.ref.format('en')} lays interdiction fire on {cell}",
        f"{gun.ref.format('ru')} ведет огонь на отсечение по {cell}",
    )
    reason = step(label, rule="9.7d", children=parts)
    return t.state, Decision(Goal.STRIKE, t.order.format("ru"), reason, units=(gun.ref,))


__all__ = ["fire"]
