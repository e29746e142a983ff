"""The outcome of a battle (9.8, 9.8a, 9.8c): the exchange of losses between engaged echelons, the
losses taken off each unit, a retreat and the pursuit, and the time the attackers spent.

The loss rule is the reconstruction in the rule data (`loss_rule`): echelons exchange losses at a
fixed rate per unit of effective rating, in rounds that end when an engaged echelon is destroyed
and the next enters (9.8c), until the turn is over.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import replace
from fractions import Fraction

from strategia.core.geometry import Cell
from strategia.core.i18n import Text
from strategia.core.numbers import num, pct, turns
from strategia.engine.battle_record import Pursuit
from strategia.engine.fighters import Fighter
from strategia.engine.losses import cut_transfer
from strategia.engine.reach import ReachRequest, radius, reach_many
from strategia.engine.result import Cut, cut
from strategia.engine.state import GameState, UnitState
from strategia.engine.unit_reach import FASTEST_KM, _blocked, unit_costs
from strategia.explain.trace import Trace, explain, record
from strategia.notation.refs import UnitRef
from strategia.rules import RuleSet
from strategia.rules.english import en
from strategia.theatre import terrain
from strategia.theatre.terrain import RELIEF_TERRAIN_KEY, Relief


def exchange(
    a: list[list[Fighter]],
    d: list[list[Fighter]],
    a_support: float,
    d_support: float,
    rules: RuleSet,
) -> tuple[int, float]:
    """The reconstructed loss rule, round by round (loss_rule, 9.8c); fighters' `lost` is set.
    The rounds fought and the share of the turn the battle lasted."""
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
                en(f"round {n}: echelon {ai + 1} against echelon {di + 1}"),
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
                        en(f"the defender's echelon {di + 1} is destroyed; the next enters (9.8c)"),
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
                        en(f"the attacker's echelon {ai + 1} is destroyed; the next enters (9.8c)"),
                        f"{ai + 1}-й эшелон наступления уничтожен; вступает следующий",
                    ),
                    None,
                    kind="note",
                    rule="9.8c",
                )
                ai += 1
        g.set(round(1.0 - time_left, 6))
    return n, round(1.0 - time_left, 6)


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
) -> tuple[GameState, str, Text]:
    """Each fighter loses the share of its effective rating it lost, from every regiment it
    fought with (a division fighting in parts loses by part); the state, and the outcome."""
    floor = float(rules.value("loss_rule", "destroyed_below"))
    strengths: dict[UnitRef, list[float]] = {}
    units: dict[UnitRef, UnitState] = {}
    with explain(Text("Losses", "Потери"), rule="9.8c") as g:
        for f in [f for e in a + d for f in e]:
            share = f.lost / f.effective if f.effective > 0 else 0.0
            if share <= 0:
                continue
            u = f.unit
            units[u.ref] = u
            now = strengths.setdefault(u.ref, [r.strength for r in u.division.regiments])
            idx = f.member.part if f.member.part is not None else range(len(now))
            for i in idx:
                now[i] = round(now[i] * (1.0 - share), 6)
            who = f"{u.ref}" + (f" ({', '.join(f.member.regiments)})" if f.member.part else "")
            label = Text(en(f"{who} loses {pct(share)}"), f"{who} теряет {pct(share, 'ru')}")
            g.step(label, round(share, 6), rule="9.8c")
        changed: list[UnitState] = []
        gone: list[UnitRef] = []
        for ref, now in strengths.items():
            u = units[ref]
            div = u.division.with_strengths(tuple(now))
            if div.strength < floor:
                gone.append(ref)
                g.step(Text(en(f"{ref} destroyed"), f"{ref} уничтожена"), kind="note", rule="9.8c")
                continue
            u = u.but(division=div)
            if u.busy is not None and u.busy.what == "transfer":
                u = cut_transfer(state, u, rules)
            changed.append(u)
    state = state.with_units(changed, gone)
    d_left = sum(f.left for e in d for f in e)
    a_left = sum(f.left for e in a for f in e)
    if not any(u.ref not in gone for u in state.occupants(target)) and d_left <= 1e-9:
        text = Text(
            en(f"{target} taken; the defender destroyed"), f"{target} взят; обороняющийся уничтожен"
        )
        return state, "taken", text
    if a_left <= 1e-9:
        text = Text(
            en(f"the attack on {target} is beaten off; the attacker destroyed"),
            f"атака на {target} отбита; наступающий уничтожен",
        )
        return state, "beaten_off", text
    return state, "held", Text(en(f"{target} holds"), f"{target} удержан")


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
    occupied = state.occupied
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
            relief = Relief(int(state.grid.relief[terrain.index(ds, c)]))
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
                        en(f"{u.ref} has no way back: encircled, it must accept battle"),
                        f"{u.ref}: пути отхода нет (окружение), бой принят",
                    )
                )
                record(cuts[-1].reason, None, kind="cut", rule="9.19")
                return None
            continue
        best = max(options, key=lambda c: (min(a.cell.km(c) for a in attackers), -c.km(u.cell)))
        moved.append(replace(u, cells=(best,), spent=1.0))
        record(
            Text(en(f"{u.ref} retreats to {best}"), f"{u.ref} отходит в {best}"),
            None,
            kind="note",
            rule="9.8a",
        )
    return state.with_units(moved)


def pursue(
    state: GameState,
    attackers: list[UnitState],
    vacated: Cell,
    goal: Cell | None,
    rules: RuleSet,
    cuts: list[Cut],
) -> tuple[GameState, tuple[Pursuit, ...]]:
    """9.8a: after the defender's retreat, each attacking division may advance the same turn «no
    further than 2/3 of the greatest move for its arm in that ground»: along its cheapest path
    towards `goal` (the order's, else the vacated cell), into and beyond the vacated cell, as far
    as 2/3 of a turn's movement takes it. The strongest goes first; no two end on one cell.
    What the order asked beyond that (a `goal` not reached) is added to `cuts` (9.3)."""
    share = float(rules.value("battle", "pursuit_share"))
    asked = goal
    goal = goal or vacated
    cell_km = float(rules.value("scale", "cell_km"))
    out: list[Pursuit] = []
    label = Text(en(f"Pursuit towards {goal}"), f"Преследование к {goal}")
    with explain(label, rule="9.8a") as g:
        for first in sorted(attackers, key=lambda x: -x.division.strength):
            if first.ref not in state.units:
                continue
            u = state.unit(first.ref)
            speed = _speed_in(state, u, vacated, rules)
            limit_km = round(share * speed, 2)
            costs = unit_costs(state, u, rules, "forward")
            req = ReachRequest(u.cell, costs, tuple(range(8)), share, None)
            r = reach_many([req], _blocked(state), radius(share, FASTEST_KM))[0]
            path = r.path_to(goal) if r.reachable(goal) else []
            if not path:
                path = r.path_to(r.nearest(goal)) or [u.cell]
            end = path[-1]
            taken = round(sum(a.km(b, cell_km) for a, b in itertools.pairwise(path)), 3)
            g.step(
                Text(
                    en(
                        f"{u.ref}: may advance {num(limit_km)} km (2/3 of {num(speed)}); "
                        f"advances {num(taken)} km to {end}"
                    ),
                    f"{u.ref}: может продвинуться на {num(limit_km, 'ru')} км "
                    f"(2/3 от {num(speed, 'ru')}); "
                    f"продвигается на {num(taken, 'ru')} км в {end}",
                ),
                taken,
                unit="km",
                rule="9.8a",
            )
            if asked is not None and end != asked:
                why = _beyond(state, u, req, asked, end, limit_km, rules)
                cuts.append(why)
                g.step(why.reason, None, kind="cut", rule=why.rule)
            if end != u.cell:
                state = state.with_units([replace(u, cells=(end,))])
            out.append(Pursuit(str(u.ref), limit_km, taken, str(end)))
    return state, tuple(out)


def _beyond(
    state: GameState,
    u: UnitState,
    req: ReachRequest,
    goal: Cell,
    end: Cell,
    limit_km: float,
    rules: RuleSet,
) -> Cut:
    """Why a pursuit stopped at `end` short of the `goal` it was ordered to (9.3): the way there
    is longer than the pursuit's share of a move (9.8a), or there is no way at all."""
    share = float(rules.value("battle", "pursuit_share"))
    part = str(Fraction(share).limit_denominator(12))
    reach = max(abs(v) for v in u.cell.offset(goal)) + 2
    whole = reach_many([replace(req, budget=1e6)], _blocked(state), reach)[0]
    if not whole.reachable(goal):
        return cut(
            "9.3",
            en(
                f"{u.ref}: {goal} cannot be reached in pursuit: it stops as near as it can, at "
                f"{end}"
            ),
            f"{u.ref}: {goal} недостижима при преследовании: остановлена как можно ближе, в {end}",
        )
    cost = whole.cost_to(goal)
    cell_km = float(rules.value("scale", "cell_km"))
    km = round(sum(a.km(b, cell_km) for a, b in itertools.pairwise(whole.path_to(goal))), 2)
    return cut(
        "9.8a",
        en(
            f"{u.ref}: pursuit to {goal} asks {num(km)} km ({turns(cost)} of movement), more than "
            f"{part} of its move ({num(limit_km)} km): it stops at {end}"
        ),
        f"{u.ref}: преследование до {goal} — {num(km, 'ru')} км ({turns(cost, 'ru')} движения), "
        f"больше {part} хода ({num(limit_km, 'ru')} км): остановлена в {end}",
    )


def _speed_in(state: GameState, u: UnitState, cell: Cell, rules: RuleSet) -> float:
    """Table 4's speed for the unit's arm in the ground of `cell` (0 where it may not go)."""
    ds = state.theatre
    relief = Relief(int(state.grid.relief[terrain.index(ds, cell)]))
    row = RELIEF_TERRAIN_KEY[relief]
    if row not in rules.entry("movement").rows or not rules.active("movement", row):
        return 0.0
    col = u.division.kind.key if u.division.kind.key != "fortress" else "rifle"
    v = rules.value("movement", row, col)
    return 0.0 if isinstance(v, str) else float(v)


def spend(state: GameState, attackers: list[UnitState], rules: RuleSet) -> GameState:
    if not rules.value("battle", "attack_spends_turn"):
        return state
    return state.with_units(
        [replace(state.unit(u.ref), spent=1.0) for u in attackers if u.ref in state.units]
    )


__all__ = ["exchange", "losses", "pursue", "retreat", "spend"]
