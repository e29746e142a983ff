"""Artillery (9.7): strikes on a cell within 30 km, on roads and bridges, and interdiction fire.

A strike multiplies the ratings of the units in the cell by the share its ground leaves them
(0.5 in the open ... 0.8 in mountains); at level 2 the loss is scaled by table 11's efficiency
for the target's offset, at level 3 by the formula -x²/15 - x/3 + 120 (%) of the distance.
Artillery does not fire on units in contact (9.7b); at level 2 the mediator asks again, and a
confirmed order hits both sides.
"""

from __future__ import annotations

from dataclasses import replace

from strategia.core.geometry import Cell
from strategia.core.i18n import Text
from strategia.core.numbers import num, pct
from strategia.engine.battle_record import BattleRecord, Fighting
from strategia.engine.losses import weaken
from strategia.engine.result import Cut, OrderError, Result, cut
from strategia.engine.state import Closure, GameState, Interdiction, UnitState
from strategia.explain.trace import Trace, explain, record
from strategia.notation.orders import Strike
from strategia.notation.refs import Placement
from strategia.rules import RuleSet
from strategia.rules.distances import table_distance
from strategia.rules.kinds import DivisionKind
from strategia.theatre import terrain
from strategia.theatre.terrain import Relief

SURVIVE = {
    Relief.PLAIN: "survive_plain",
    Relief.FOREST: "survive_forest",
    Relief.HILLS: "survive_hills",
    Relief.SWAMP: "survive_swamp",
    Relief.MOUNTAINS: "survive_mountains",
}


def distance_km(firer: Cell, target: Cell, rules: RuleSet) -> float:
    """The distance in km as table 2 gives it: cells apart (Euclidean, rounded) × the cell."""
    dx, dy = firer.offset(target)
    return table_distance(dx, dy, rules) * float(rules.value("scale", "cell_km"))


def in_range(firer: Cell, target: Cell, rules: RuleSet) -> bool:
    """9.7a: «no further than 30 km»: the distance of table 2, not each axis (a shot 3 cells
    along and 2 across is 35 km: out of range)."""
    return distance_km(firer, target, rules) <= float(rules.value("artillery", "range_km")) + 1e-9


def efficiency(firer: Cell, target: Cell, rules: RuleSet) -> float:
    """Table 11 at level 2, the formula at level 3, as a share (1.2 = 120%); 1 at level 1."""
    if rules.level >= 3:
        cell = float(rules.value("scale", "cell_km"))
        x = firer.km(target, cell)
        a, b, c = (float(rules.value("artillery_formula", k)) for k in "abc")
        return max(0.0, (a * x * x + b * x + c) / 100.0)
    if rules.level >= 2:
        dx, dy = (abs(v) * 10 for v in firer.offset(target))
        return float(rules.value("artillery_range", f"dy{dy}", f"dx{dx}")) / 100.0
    return 1.0


def survival(state: GameState, cell: Cell, rules: RuleSet) -> float:
    """The share of their ratings a strike leaves units on this cell (9.7a)."""
    ds = state.theatre
    i, j = terrain.index(ds, cell)
    if state.level >= 2 and bool(state.grid.fortress[i, j]):
        return float(rules.value("artillery", "survive_fortress"))
    if int(state.grid.settlement[i, j]) > 0:
        return float(rules.value("artillery", "survive_town"))
    relief = Relief(int(state.grid.relief[i, j]))
    return float(rules.value("artillery", SURVIVE.get(relief, "survive_plain")))


def loss_share(state: GameState, firer: Cell, target: Cell, rules: RuleSet) -> float:
    """What a strike from `firer` destroys on `target`: (1 - survival) × efficiency, at most all."""
    lost = 1.0 - survival(state, target, rules)
    eff = efficiency(firer, target, rules)
    if eff != 1.0:
        record(
            Text("efficiency at this range", "эффективность на этой дальности"),
            round(eff, 4),
            unit="×",
            rule="table 11" if rules.level == 2 else "9.7a",
        )
    return min(1.0, round(lost * eff, 6))


def _in_contact(state: GameState, u: UnitState, gun: UnitState) -> list[UnitState]:
    """The enemy's units in contact with `u` (beside it), the firing battery not counted: it is
    not «our troops in contact» with its own target (9.7b)."""
    side = state.side_of(u.ref)
    return [o for o in state.beside(u.cells) if state.side_of(o.ref) != side and o.ref != gun.ref]


def strike(state: GameState, order: Strike, rules: RuleSet) -> tuple[GameState, Result]:
    """Carry out an artillery order (9.7 a-d)."""
    gun = state.unit(order.unit)
    if gun.division.kind is not DivisionKind.ARTILLERY:
        raise OrderError(
            f"{order}: only an artillery division (а.д.) strikes (9.7)",
            ru=f"{order}: огонь ведет только артиллерийская дивизия (а.д.) (9.7)",
        )
    cuts: list[Cut] = []
    title = Text(
        f"{gun.ref} fires on {order.target} ({order.kind})", f"{gun.ref}: огонь по {order.target}"
    )
    if not in_range(gun.cell, order.target, rules):
        km, most = distance_km(gun.cell, order.target, rules), rules.value("artillery", "range_km")
        raise OrderError(
            f"{order}: {order.target} is {num(km)} km from {gun.ref} at {gun.cell}; "
            f"artillery fires at most {most} km (9.7a)",
            ru=f"{order}: до {order.target} от {gun.ref} в {gun.cell} {num(km, 'ru')} км; "
            f"артиллерия бьет не дальше {most} км (9.7а)",
        )
    with explain(title, rule="9.7") as ex:
        ex.step(
            Text("distance (table 2)", "дальность (таблица 2)"),
            distance_km(gun.cell, order.target, rules),
            unit="km",
            rule="9.7a",
        )
        why = None
        if gun.busy is not None or gun.left <= 0 or not gun.combat_capable:
            why = cut(
                "9.7",
                f"{gun.ref} cannot fire this turn",
                f"{gun.ref} не может вести огонь в этот ход",
            )
        if why is not None:
            return _nothing(state, order, gun, ex, [why])
        if order.kind == "road":
            return _close(state, order, gun, rules, ex)
        if order.kind == "bridge":
            return _close(state, order, gun, rules, ex)
        share = loss_share(state, gun.cell, order.target, rules)
        ex.step(Text("share destroyed", "доля уничтоженного"), share, rule="9.7a")
        if order.kind == "interdict":
            side = state.side_of(gun.ref)
            new = state.evolve(
                interdictions=(
                    *state.interdictions,
                    Interdiction(order.target, side, share, state.turn, gun.ref),
                ),
            )
            new = new.with_units([replace(gun, spent=1.0)])
            ex.set(share)
            outcome = Text(
                f"interdiction fire on {order.target}", f"огонь на отсечение по {order.target}"
            )
            return new, Result(order.format("ru"), outcome, ex.freeze(), tuple(cuts))
        side = state.side_of(gun.ref)
        targets = [u for u in state.occupants(order.target) if state.side_of(u.ref) != side]
        if not targets:  # fired all the same: the battery's turn is spent (no free probing, 1.6)
            why = cut("9.7", f"no enemy in {order.target}", f"в {order.target} нет противника")
            record(why.reason, None, kind="cut", rule=why.rule)
            ex.set(0.0)
            shot = Text(
                f"{gun.ref} fired on {order.target}", f"{gun.ref} вела огонь по {order.target}"
            )
            return state.with_units([replace(gun, spent=1.0)]), Result(
                order.format("ru"), shot, ex.freeze(), (why,)
            )
        contact = {
            o.ref: o
            for t in targets
            for o in _in_contact(state, t, gun)
            if state.side_of(o.ref) == side
        }
        if contact:
            why = None
            if not rules.active("battle", "support_radius_km"):  # level 1
                why = cut(
                    "9.7b",
                    f"{order.target} is in contact with our troops: no fire",
                    f"{order.target} в боевом соприкосновении: огонь не ведется",
                )
            elif not order.confirmed:
                why = cut(
                    "9.7b",
                    f"{order.target} is in contact with our troops: the mediator asks again"
                    " (add '(подтверждено)' / '(confirmed)')",
                    f"{order.target} в соприкосновении: посредник переспрашивает",
                )
            if why is not None:
                return _nothing(state, order, gun, ex, [why])
            ex.step(
                Text(
                    "confirmed: the strike hits both sides in contact",
                    "подтверждено: огонь поражает обе стороны",
                ),
                kind="note",
                rule="9.7b",
            )
            targets = [u for u in state.occupants(order.target) if u.ref != gun.ref]
        changed: list[UnitState] = []
        gone = []
        lost = 0.0
        hit: list[Fighting] = []
        for t in targets:
            here = share
            after = weaken(t, here, rules, state)
            lost += t.division.strength - (after.division.strength if after is not None else 0.0)
            hit.append(_hit(t, after, here))
            ex.step(
                Text(
                    f"{t.ref} loses {pct(here)}" + (" — destroyed" if after is None else ""),
                    f"{t.ref} теряет {pct(here, 'ru')}"
                    + (" — уничтожена" if after is None else ""),
                ),
                round(here, 6),
                rule="9.7a",
            )
            if after is None:
                gone.append(t.ref)
            else:
                changed.append(after)
        new = state.with_units([*changed, replace(gun, spent=1.0)], gone)
        ex.set(share)
        outcome = Text(
            f"strike on {order.target}: losses {lost:.2g} divisions",
            f"удар по {order.target}: потери {lost:.2g} дивизии",
        )
        them = state.side_of(targets[0].ref)
        rec = BattleRecord(str(order.target), side, them, "strike", tuple(hit))
        return new, Result(order.format("ru"), outcome, ex.freeze(), tuple(cuts), rec)


def _hit(t: UnitState, after: UnitState | None, share: float) -> Fighting:
    """A unit under fire, for the strike's record (its regiments before and after)."""

    def regiments(u: UnitState | None) -> tuple[tuple[str, float], ...]:
        return tuple((r.kind.ru, round(r.strength, 4)) for r in u.division.regiments) if u else ()

    return Fighting(
        unit=str(t.ref),
        role="defender",
        echelon=1,
        kind=t.division.kind.ru,
        rating=0.0,
        factors=(),
        effective=0.0,
        before=regiments(t),
        after=regiments(after),
        lost=round(share, 6),
        destroyed=after is None,
        strength_before=round(t.division.strength, 4),
        strength_after=round(after.division.strength, 4) if after else 0.0,
    )


def _close(
    state: GameState, order: Strike, gun: UnitState, rules: RuleSet, ex: Trace
) -> tuple[GameState, Result]:
    ds = state.theatre
    i, j = terrain.index(ds, order.target)
    if order.kind == "road":
        if not state.grid.road[i, j]:
            return _nothing(
                state,
                order,
                gun,
                ex,
                [cut("9.7c", f"no road at {order.target}", f"в {order.target} нет дороги")],
            )
        t1 = int(rules.value("artillery", "road_closed_transfer"))
        t2 = int(rules.value("artillery", "road_closed_movement"))
        closures: tuple[Closure, ...] = (
            Closure(order.target, "road-transfer", state.turn + t1 - 1),
            Closure(order.target, "road-movement", state.turn + t2 - 1),
        )
        outcome = Text(
            f"road at {order.target} closed: {t1} turns to transfers, {t2} to movement",
            f"дорога в {order.target} закрыта: {t1} ходов для переброски, {t2} для движения",
        )
    else:
        bridge = bool(terrain.bridges(ds)[:, i, j].any() or terrain.passes(ds)[i, j])
        if not bridge:
            return _nothing(
                state,
                order,
                gun,
                ex,
                [
                    cut(
                        "9.7c",
                        f"no bridge or pass at {order.target}",
                        f"в {order.target} нет моста или перевала",
                    )
                ],
            )
        t = int(rules.value("artillery", "bridge_closed"))
        closures = (Closure(order.target, "bridge", state.turn + t - 1),)
        outcome = Text(
            f"bridge at {order.target} closed to everything for {t} turns",
            f"мост в {order.target} закрыт на {t} ходов",
        )
    ex.set(outcome)
    new = state.evolve(closures=(*state.closures, *closures)).with_units([replace(gun, spent=1.0)])
    return new, Result(order.format("ru"), outcome, ex.freeze())


def _nothing(
    state: GameState, order: Strike, gun: UnitState, ex: Trace, cuts: list[Cut]
) -> tuple[GameState, Result]:
    for c in cuts:
        record(c.reason, None, kind="cut", rule=c.rule)
    ex.set(0.0)
    p = Placement(gun.ref, gun.cells[:1], gun.facing)
    return state, Result(
        order.format("ru"), Text(p.format("en"), p.format("ru")), ex.freeze(), tuple(cuts)
    )


__all__ = ["efficiency", "in_range", "loss_share", "strike", "survival"]
