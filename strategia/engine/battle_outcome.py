"""The outcome of a battle (9.8, 9.8a, 9.8c): the exchange of losses between engaged echelons, the
losses taken off each unit, a retreat and the pursuit, and the time the attackers spent.

The loss rule is the reconstruction in the rule data (`loss_rule`): echelons exchange losses at a
fixed rate per unit of effective rating, in rounds that end when an engaged echelon is destroyed
and the next enters (9.8c), until the turn is over.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from strategia.core.geometry import Cell
from strategia.core.i18n import Text
from strategia.engine.losses import cut_transfer
from strategia.engine.result import Cut, cut
from strategia.engine.state import GameState, UnitState
from strategia.explain.trace import Trace, explain, record
from strategia.notation.refs import UnitRef
from strategia.rules import RuleSet
from strategia.theatre import terrain
from strategia.theatre.terrain import Relief


@dataclass
class Fighter:
    """A division in the battle: its rating, the multipliers on it, what it has lost."""

    unit: UnitState
    rating: float
    factor: float
    lost: float = 0.0  # effective rating lost

    @property
    def effective(self) -> float:
        return self.rating * self.factor

    @property
    def left(self) -> float:
        return max(0.0, self.effective - self.lost)


def exchange(
    a: list[list[Fighter]],
    d: list[list[Fighter]],
    a_support: float,
    d_support: float,
    rules: RuleSet,
) -> None:
    """The reconstructed loss rule, round by round (loss_rule, 9.8c); fighters' `lost` is set."""
    k = float(rules.value("loss_rule", "exchange"))
    with explain(Text("Exchange of losses", "Обмен потерями"), rule="9.8c", unit="turn") as g:
        time_left, ai, di, n = 1.0, 0, 0, 0
        while time_left > 1e-9 and ai < len(a) and di < len(d):
            n += 1
            A = sum(f.left for f in a[ai]) + a_support
            D = sum(f.left for f in d[di]) + d_support
            a_body, d_body = sum(f.left for f in a[ai]), sum(f.left for f in d[di])
            t_d = d_body / (k * A) if A > 0 else math.inf
            t_a = a_body / (k * D) if D > 0 else math.inf
            tau = min(time_left, t_d, t_a)
            label = Text(
                f"round {n}: echelon {ai + 1} against echelon {di + 1}",
                f"раунд {n}: {ai + 1}-й эшелон против {di + 1}-го",
            )
            with explain(label, rule="9.8c") as r:
                r.step(
                    Text(
                        "attacker's effective rating (with support)",
                        "эффективный рейтинг наступающего (с поддержкой)",
                    ),
                    round(A, 6),
                )
                r.step(
                    Text(
                        "defender's effective rating (with support)",
                        "эффективный рейтинг обороняющегося (с поддержкой)",
                    ),
                    round(D, 6),
                )
                r.step(
                    Text("share of the turn this round lasts", "доля хода, которую длится раунд"),
                    round(tau, 6),
                    unit="turn",
                )
                r.step(
                    Text(
                        "defender's loss = exchange × attacker × time",
                        "потери обороняющегося = коэффициент × наступающий × время",
                    ),
                    round(k * A * tau, 6),
                    rule="loss_rule",
                )
                r.step(
                    Text(
                        "attacker's loss = exchange × defender × time",
                        "потери наступающего = коэффициент × обороняющийся × время",
                    ),
                    round(k * D * tau, 6),
                    rule="loss_rule",
                )
                _spread(a[ai], k * D * tau)
                _spread(d[di], k * A * tau)
                r.set(round(tau, 6))
            time_left -= tau
            if tau >= t_d - 1e-12:
                record(
                    Text(
                        f"the defender's echelon {di + 1} is destroyed; the next enters (9.8c)",
                        f"{di + 1}-й эшелон обороны уничтожен; вступает следующий",
                    ),
                    None,
                    kind="note",
                    rule="9.8c",
                )
                di += 1
            if tau >= t_a - 1e-12:
                record(
                    Text(
                        f"the attacker's echelon {ai + 1} is destroyed; the next enters (9.8c)",
                        f"{ai + 1}-й эшелон наступления уничтожен; вступает следующий",
                    ),
                    None,
                    kind="note",
                    rule="9.8c",
                )
                ai += 1
        g.set(round(1.0 - time_left, 6))


def _spread(echelon: list[Fighter], loss: float) -> None:
    """A side's loss spread over its engaged units by their share of its effective rating."""
    body = sum(f.left for f in echelon)
    if body <= 0:
        return
    shares = [f.left / body for f in echelon]
    for f, share in zip(echelon, shares, strict=True):
        f.lost = min(f.effective, f.lost + loss * share)


def losses(
    state: GameState,
    a: list[list[Fighter]],
    d: list[list[Fighter]],
    target: Cell,
    rules: RuleSet,
    ex: Trace,
) -> tuple[GameState, Text]:
    """Each fighter loses the share of its effective rating it lost, from every regiment."""
    floor = float(rules.value("loss_rule", "destroyed_below"))
    changed: list[UnitState] = []
    gone: list[UnitRef] = []
    with explain(Text("Losses", "Потери"), rule="9.8c") as g:
        for f in [f for e in a + d for f in e]:
            share = f.lost / f.effective if f.effective > 0 else 0.0
            if share <= 0:
                continue
            keep = 1.0 - share
            div = f.unit.division.with_strengths(
                tuple(round(r.strength * keep, 6) for r in f.unit.division.regiments)
            )
            parts = ", ".join(f"{r.kind.ru} {r.strength:.2f}" for r in div.regiments)
            destroyed = div.strength < floor
            label = Text(
                f"{f.unit.ref} loses {share:.0%}: {parts}" + (" — destroyed" if destroyed else ""),
                f"{f.unit.ref} теряет {share:.0%}: {parts}"
                + (" — уничтожена" if destroyed else ""),
            )
            g.step(label, round(share, 6), rule="9.8c")
            if destroyed:
                gone.append(f.unit.ref)
            else:
                u = replace(f.unit, division=div)
                if u.busy is not None and u.busy.what == "transfer":
                    u = cut_transfer(state, u, rules)
                changed.append(u)
    state = state.with_units(changed, gone)
    d_left = sum(f.left for e in d for f in e)
    a_left = sum(f.left for e in a for f in e)
    if not any(u.ref not in gone for u in state.occupants(target)) and d_left <= 1e-9:
        state = pursue(
            state, [f.unit for e in a for f in e if f.unit.ref not in gone], target, rules, ex
        )
        return state, Text(
            f"{target} taken; the defender destroyed", f"{target} взят; обороняющийся уничтожен"
        )
    if a_left <= 1e-9:
        return state, Text(
            f"the attack on {target} is beaten off; the attacker destroyed",
            f"атака на {target} отбита; наступающий уничтожен",
        )
    return state, Text(f"{target} holds", f"{target} удержан")


def retreat(
    state: GameState,
    enemy: list[UnitState],
    attackers: list[UnitState],
    rules: RuleSet,
    ex: Trace,
    cuts: list[Cut],
) -> GameState | None:
    """The defender withdraws (9.8a) `battle.retreat_km` to the free cell farthest from the
    attackers; None if it has no way back (encircled, 9.19 reconstructed) and must fight."""
    ds = state.theatre
    occupied = state.occupancy() > 0
    moved: list[UnitState] = []
    cell_km = float(rules.value("scale", "cell_km"))
    n = max(1, round(float(rules.value("battle", "retreat_km")) / cell_km))
    for u in enemy:
        options = []
        ring = [
            Cell(u.cell.lon + dx, u.cell.lat + dy)
            for dx in range(-n, n + 1)
            for dy in range(-n, n + 1)
            if max(abs(dx), abs(dy)) == n
        ]
        for c in ring:
            if (
                not terrain.on_map(ds, c)
                or occupied[terrain.index(ds, c)]
                or c in [m.cell for m in moved]
            ):
                continue
            relief = Relief(int(terrain.relief_at_level(ds, state.level)[terrain.index(ds, c)]))
            if relief == Relief.WATER:
                continue
            if any(min(x.chebyshev(c) for x in a.cells) <= 1 for a in attackers):
                continue
            options.append(c)
        if not options:
            if rules.value("battle", "encircled_no_retreat"):
                cuts.append(
                    cut(
                        "9.19",
                        f"{u.ref} has no way back: encircled, it must accept battle",
                        f"{u.ref}: пути отхода нет (окружение), бой принят",
                    )
                )
                record(cuts[-1].reason, None, kind="cut", rule="9.19")
                return None
            continue
        best = max(options, key=lambda c: (min(a.cell.km(c) for a in attackers), -c.km(u.cell)))
        moved.append(replace(u, cells=(best,), spent=1.0))
        record(
            Text(f"{u.ref} retreats to {best}", f"{u.ref} отходит в {best}"),
            None,
            kind="note",
            rule="9.8a",
        )
    return state.with_units(moved)


def pursue(
    state: GameState, attackers: list[UnitState], target: Cell, rules: RuleSet, ex: Trace
) -> GameState:
    """The attacker may advance, the same turn, up to 2/3 of its greatest move there (9.8a)."""
    if not attackers or state.occupants(target):
        return state
    lead = max(attackers, key=lambda u: u.division.strength)
    relief = Relief(
        int(
            terrain.relief_at_level(state.theatre, state.level)[
                terrain.index(state.theatre, target)
            ]
        )
    )
    row = terrain.RELIEF_TERRAIN_KEY[relief]
    speed = (
        rules.value("movement", row, lead.division.kind.key)
        if row in rules.entry("movement").rows
        else 0
    )
    km = float(speed) if not isinstance(speed, str) else 0.0
    share = float(rules.value("battle", "pursuit_share"))
    reach_km = km * share
    step_km = float(rules.value("scale", "cell_km")) * lead.cell.km(target) / 10.0
    if reach_km + 1e-9 < step_km:
        record(
            Text(
                f"{lead.ref} may advance {reach_km:.3g} km: not as far as {target}",
                f"{lead.ref} может продвинуться на {reach_km:.3g} км: не до {target}",
            ),
            round(reach_km, 3),
            unit="km",
            rule="9.8a",
        )
        return state
    record(
        Text(
            f"{lead.ref} advances into {target} ({reach_km:.3g} km allowed)",
            f"{lead.ref} занимает {target} (до {reach_km:.3g} км)",
        ),
        round(reach_km, 3),
        unit="km",
        rule="9.8a",
    )
    return state.with_units([replace(state.unit(lead.ref), cells=(target,))])


def spend(state: GameState, attackers: list[UnitState], rules: RuleSet) -> GameState:
    if not rules.value("battle", "attack_spends_turn"):
        return state
    return state.with_units(
        [replace(state.unit(u.ref), spent=1.0) for u in attackers if u.ref in state.units]
    )


__all__ = ["Fighter", "exchange", "losses", "pursue", "retreat", "spend"]
