"""Withdrawal (4.4): a division the enemy beside it would strike at the style's withdrawal
ratio (the engine's battle on the side's picture) withdraws out of contact, to a cell the side
sees, beside a friend if it can; where the front is held, a division the enemy's artillery hit
with no enemy beside it withdraws away from the battery.
"""

from __future__ import annotations

from strategia.core.geometry import Cell
from strategia.core.i18n import Text
from strategia.core.numbers import num, pct
from strategia.engine.state import GameState, UnitState
from strategia.engine.unit_reach import reach
from strategia.notation.orders import Attack, Move
from strategia.notation.refs import UnitRef
from strategia.players.decision import Decision, Goal, ratio, step
from strategia.players.fight import ORTHOGONAL, able, beside, knowledge, power
from strategia.players.ground import Ground
from strategia.players.picture import Known, Picture
from strategia.players.plan import ATTACKING, Plan
from strategia.players.styles import Style
from strategia.players.whatif import Tried, attempt
from strategia.rules import RuleSet
from strategia.rules.kinds import DivisionKind


def withdrawals(
    state: GameState,
    picture: Picture,
    plan: Plan,
    ground: Ground,
    rules: RuleSet,
    style: Style,
    side: str,
    busy: set[UnitRef],
) -> tuple[GameState, list[Decision]]:
    """Divisions the enemy beside them would strike at the withdrawal ratio withdrawn (4.4),
    and, where the front is held, those the enemy's artillery hit with no enemy beside them
    (out of the battery's reach, if they can)."""
    out: list[Decision] = []
    own = sorted(
        (
            u
            for u in state.units.values()
            if state.side_of(u.ref) == side
            and able(u)
            and u.ref not in busy
            and u.division.kind is not DivisionKind.FORTRESS
        ),
        key=lambda u: u.ref.number,
    )
    for u in own:
        if u.ref not in state.units:
            continue
        u = state.unit(u.ref)
        near = [k for k in picture.beside(u.cells) if k.kind in ATTACKING and beside(u, k.cell)]
        if not near:
            main = plan.main is not None and plan.main.holds(ground.along(u.cell))
            if u.ref in picture.struck and (not main or u.division.strength < 0.6):
                moved = _withdraw(state, u, picture, ground, rules, side)
                if moved is not None:
                    state = moved.state
                    out.append(_shelled_decision(moved))
            continue
        threat = danger(state, u, picture, rules, side)
        if threat is None or threat.ratio is None or threat.ratio < style.withdraw_ratio:
            continue
        moved = _withdraw(state, u, picture, ground, rules, side)
        if moved is None:
            continue
        state = moved.state
        share = min(1.0, threat.enemy_lost / max(power(u, rules), 1e-9))
        out.append(_withdraw_decision(moved, threat, share, style, near))
    return state, out


def danger(
    state: GameState, u: UnitState, picture: Picture, rules: RuleSet, side: str
) -> Tried | None:
    """The enemy's blow on `u` by every enemy division it knows of beside it, as the engine
    would fight it (None: no enemy that can strike stands beside it)."""
    refs = [
        o.ref
        for k in picture.beside(u.cells)
        if k.kind in ATTACKING and beside(u, k.cell)
        for o in state.occupants(k.cell)
        if state.side_of(o.ref) != side and o.division.kind in ATTACKING
    ]
    refs = list(dict.fromkeys(refs))
    if not refs:
        return None
    them = state.side_of(refs[0])
    blow = Attack(u.cell, (tuple(r for r in refs if state.side_of(r) == them),))
    return attempt(state, blow, rules, them, losses=True)


def _shelled_decision(t: Tried) -> Decision:
    o = t.order
    assert isinstance(o, Move)
    parts = [
        step(
            Text(
                "hit by the enemy's artillery, no enemy beside it",
                "под огнем артиллерии противника, противника рядом нет",
            ),
            None,
            rule="9.7a",
        ),
        step(
            Text("withdrawn, away from the battery, to", "отходит от батареи в"),
            Text(str(o.to)),
            rule="4.4",
        ),
    ]
    label = Text(
        f"{o.unit.format('en')} withdraws to {o.to}", f"{o.unit.format('ru')} отходит в {o.to}"
    )
    reason = step(label, rule="4.4", children=parts)
    return Decision(Goal.WITHDRAW, o.format("ru"), reason, units=(o.unit,))


def _withdraw(
    state: GameState, u: UnitState, picture: Picture, ground: Ground, rules: RuleSet, side: str
) -> Tried | None:
    r = reach(state, u.ref, rules, "withdraw")
    enemy_cells = [c for k in picture.enemies for c in k.cells]
    friends = {
        c
        for o in state.units.values()
        if state.side_of(o.ref) == side and o.ref != u.ref
        for c in o.cells
    }
    options = []
    for c in r.cells():
        if c in u.cells or not all(ground.at(picture.visible, x) for x in r.path_to(c)):
            continue
        gap = min((c.chebyshev(e) for e in enemy_cells), default=9)
        if gap < 2:
            continue
        touching = any(Cell(c.lon + dx, c.lat + dy) in friends for dx, dy in ORTHOGONAL)
        back = picture.came_from.get(u.ref) == c  # whence it came last move: the last choice
        options.append(
            (back, -gap, not touching, not ground.at(ground.own, c), r.cost_to(c), c.lon, c.lat, c)
        )
    for *_, c in sorted(options)[:4]:
        t = attempt(state, Move(u.ref, c, mode="withdraw"), rules, side)
        if t.clean:
            return t
    return None


def _withdraw_decision(
    t: Tried, threat: Tried, share: float, style: Style, known: list[Known]
) -> Decision:
    o = t.order
    assert isinstance(o, Move)
    parts = [
        knowledge(known),
        step(
            Text(
                "the enemy's blow on it, by the engine's battle",
                "удар противника по ней, по расчету боя",
            ),
            ratio(threat.ratio or 0.0),
            rule="9.8",
            note=Text(
                f"at least {num(style.withdraw_ratio)}: outmatched",
                f"не менее {num(style.withdraw_ratio, 'ru')}: силы неравны",
            ),
        ),
        step(
            Text("it would lose", "она потеряла бы"),
            Text(pct(share), pct(share, "ru")),
            rule="9.8c",
        ),
        step(
            Text("withdrawn out of contact to", "отходит из соприкосновения в"),
            Text(str(o.to)),
            rule="4.4",
        ),
    ]
    label = Text(
        f"{o.unit.format('en')} withdraws to {o.to}", f"{o.unit.format('ru')} отходит в {o.to}"
    )
    reason = step(label, rule="4.4", children=parts)
    return Decision(Goal.WITHDRAW, o.format("ru"), reason, units=(o.unit,))


__all__ = ["danger", "withdrawals"]
