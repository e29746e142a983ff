"""Artillery (9.7): strikes on a cell in reach, on roads and bridges, and interdiction fire.

A strike multiplies the ratings of the units in the cell by the share its ground leaves them
(0.5 in the open ... 0.8 in mountains); at level 2 the loss is scaled by table 11's efficiency
for the target's offset, at level 3 by the formula -x²/15 - x/3 + 120 (%) of the distance. Where
a battery reaches at each level is `artillery_reach`'s. Artillery does not fire on units in
contact with our troops (9.7b); at level 2 the mediator asks again, and a confirmed strike hits
the target cell's units and every unit of another side in contact with them, each by the ground
of its own cell (`artillery.contact_hits_all`); the firing battery is never among them.
"""

from __future__ import annotations

from dataclasses import replace

from strategia.core.geometry import Cell
from strategia.core.i18n import Text
from strategia.core.numbers import divisions, num, pct, turns
from strategia.engine.artillery_reach import (
    distance_km,
    efficiency,
    explain_reach,
    in_range,
    refusal,
)
from strategia.engine.battle_record import BattleRecord, Factor, Fighting
from strategia.engine.fighters import nearest
from strategia.engine.losses import weaken
from strategia.engine.result import Cut, OrderError, Result, cut
from strategia.engine.state import Closure, GameState, Interdiction, UnitState
from strategia.explain.trace import Trace, explain, record
from strategia.notation.orders import Strike
from strategia.notation.refs import Placement, UnitRef
from strategia.rules import RuleSet
from strategia.rules.english import en
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
GROUND = {  # the ground a strike's loss is read by (9.7a), as a sentence names it
    "survive_plain": Text("open ground", "открытая местность"),
    "survive_forest": Text("forest", "лес"),
    "survive_hills": Text("hills", "холмы"),
    "survive_swamp": Text("swamp", "болото"),
    "survive_mountains": Text("mountains", "горы"),
    "survive_town": Text("a town", "город"),
    "survive_fortress": Text("a fortress", "крепость"),
}


def lost_label(where: Text) -> Text:
    """The share a strike destroys on a ground, as its step is labelled."""
    return Text(en(f"lost by the ground ({where.en})"), f"потери по местности ({where.ru})")


def ground(state: GameState, cell: Cell) -> str:
    """The row of `artillery` a strike on this cell is read by: its fortress (level 2), town or
    relief (9.7a)."""
    i, j = terrain.index(state.theatre, cell)
    if state.level >= 2 and bool(state.grid.fortress[i, j]):
        return "survive_fortress"
    if int(state.grid.settlement[i, j]) > 0:
        return "survive_town"
    return SURVIVE.get(Relief(int(state.grid.relief[i, j])), "survive_plain")


def survival(state: GameState, cell: Cell, rules: RuleSet) -> float:
    """The share of their ratings a strike leaves units on this cell (9.7a)."""
    return float(rules.value("artillery", ground(state, cell)))


def _efficiency(firer: Cell, target: Cell, rules: RuleSet) -> float:
    """The strike's efficiency at the target's range, recorded where it is not 1."""
    eff = efficiency(firer, target, rules)
    if eff != 1.0:
        record(
            Text("efficiency at this range", "эффективность на этой дальности"),
            round(eff, 4),
            unit="×",
            rule="table 11" if rules.level == 2 else "9.7a",
        )
    return eff


def loss_share(state: GameState, firer: Cell, target: Cell, rules: RuleSet) -> float:
    """What a strike from `firer` destroys on `target`: (1 - survival) × efficiency, at most all."""
    lost = 1.0 - survival(state, target, rules)
    return min(1.0, round(lost * _efficiency(firer, target, rules), 6))


def _in_contact(state: GameState, units: list[UnitState], gun: UnitState) -> list[UnitState]:
    """Every unit of another side than one of `units` beside it (on one of the eight cells
    around, or its own), the firing battery not counted: it is not «our troops in contact» with
    its own target (9.7b)."""
    found: dict[UnitRef, UnitState] = {}
    for u in units:
        side = state.side_of(u.ref)
        for o in state.beside(u.cells):
            if state.side_of(o.ref) != side and o.ref != gun.ref:
                found.setdefault(o.ref, o)
    return list(found.values())


def strike(state: GameState, order: Strike, rules: RuleSet) -> tuple[GameState, Result]:
    """Carry out an artillery order (9.7 a-d)."""
    gun = state.unit(order.unit)
    if gun.division.kind is not DivisionKind.ARTILLERY:
        raise OrderError(
            en(f"{order.format('en')}: only an artillery division (а.д.) strikes (9.7)"),
            ru=f"{order}: огонь ведет только артиллерийская дивизия (а.д.) (9.7)",
        )
    cuts: list[Cut] = []
    title = Text(
        en(f"{gun.ref} fires on {order.target} ({order.kind})"),
        f"{gun.ref}: огонь по {order.target}",
    )
    if not in_range(gun.cell, order.target, rules):
        why_en, why_ru = refusal(str(gun.ref), gun.cell, order.target, rules)
        raise OrderError(en(f"{order.format('en')}: {en(why_en)}"), ru=f"{order}: {why_ru}")
    with explain(title, rule="9.7") as ex:
        at = Text(str(gun.cell), str(gun.cell))
        ex.step(Text("the battery fires from", "батарея ведет огонь из"), at, rule="9.7a")
        explain_reach(ex, gun.cell, order.target, rules)
        why = None
        if gun.busy is not None or not gun.combat_capable:
            why = cut(
                "9.7",
                en(f"{gun.ref} cannot fire this turn"),
                f"{gun.ref} не может вести огонь в этот ход",
            )
        if why is not None:
            return _nothing(state, order, gun, ex, [why])
        if order.kind == "road":
            return _close(state, order, gun, rules, ex)
        if order.kind == "bridge":
            return _close(state, order, gun, rules, ex)
        if order.kind == "interdict":
            share = loss_share(state, gun.cell, order.target, rules)
            ex.step(Text("share destroyed", "доля уничтоженного"), share, rule="9.7a")
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
                en(f"interdiction fire on {order.target}"), f"огонь на отсечение по {order.target}"
            )
            return new, Result(order.format("ru"), outcome, ex.freeze(), tuple(cuts))
        return _on_units(state, order, gun, rules, ex)


def _on_units(
    state: GameState, order: Strike, gun: UnitState, rules: RuleSet, ex: Trace
) -> tuple[GameState, Result]:
    """A strike on the units in the target cell (9.7a), and on those in contact with them once
    the mediator's question is confirmed (9.7b)."""
    side = state.side_of(gun.ref)
    eff = _efficiency(gun.cell, order.target, rules)
    targets = [u for u in state.occupants(order.target) if state.side_of(u.ref) != side]
    if not targets:  # fired all the same: the battery's turn is spent (no free probing, 1.6)
        why = cut("9.7", en(f"no enemy in {order.target}"), f"в {order.target} нет противника")
        record(why.reason, None, kind="cut", rule=why.rule)
        ex.set(0.0)
        shot = Text(
            en(f"{gun.ref} fired on {order.target}"), f"{gun.ref} вела огонь по {order.target}"
        )
        return state.with_units([replace(gun, spent=1.0)]), Result(
            order.format("ru"), shot, ex.freeze(), (why,)
        )
    contact = _in_contact(state, targets, gun)
    hit = [(t, order.target) for t in targets]
    if any(state.side_of(o.ref) == side for o in contact):
        refused = _asked_again(order, rules)
        if refused is not None:
            return _nothing(state, order, gun, ex, [refused])
        hit = _confirmed(state, order, gun, contact, rules, ex)
    share = _share(state, order.target, eff, rules)
    ex.step(Text("share destroyed", "доля уничтоженного"), share, rule="9.7a")
    changed: list[UnitState] = []
    gone = []
    fought: list[Fighting] = []
    lost = 0.0
    for u, cell in hit:
        after, f = _hit(state, u, cell, eff, side, rules, ex)
        lost += f.strength_before - f.strength_after
        fought.append(f)
        if after is None:
            gone.append(u.ref)
        else:
            changed.append(after)
    new = state.with_units([*changed, replace(gun, spent=1.0)], gone)
    ex.set(share)
    outcome = Text(
        en(f"strike on {order.target}: losses {divisions(float(f'{lost:.2g}'))}"),
        f"удар по {order.target}: потери {divisions(float(f'{lost:.2g}'), 'ru')}",
    )
    beside = [f for f in fought if f.cell != str(order.target)]
    if beside:
        outcome = Text(
            en(
                f"{outcome.en} (in contact, hit too: "
                + ", ".join(f"{f.unit} at {f.cell}" for f in beside)
                + ")"
            ),
            f"{outcome.ru} (в соприкосновении поражены также: "
            + ", ".join(f"{f.unit} в {f.cell}" for f in beside)
            + ")",
        )
    them = state.side_of(targets[0].ref)
    rec = BattleRecord(str(order.target), side, them, "strike", tuple(fought))
    return new, Result(order.format("ru"), outcome, ex.freeze(), (), rec)


def _asked_again(order: Strike, rules: RuleSet) -> Cut | None:
    """9.7b: no fire on units in contact with our troops at level 1; at level 2 the mediator
    asks again, and only a confirmed order fires (None)."""
    if not rules.active("artillery", "contact_hits_all"):  # level 1
        return cut(
            "9.7b",
            en(f"{order.target} is in contact with our troops: no fire"),
            f"{order.target} в боевом соприкосновении: огонь не ведется",
        )
    if not order.confirmed:  # the question is the player's to answer: he is told it
        return cut(
            "9.7b",
            en(
                f"{order.target} is in contact with our troops: the mediator asks again: is the"
                f" strike confirmed? ('{order.format('en')} (confirmed)')"
            ),
            f"{order.target} в боевом соприкосновении: посредник переспрашивает: огонь"
            f" подтверждается? («{order.format('ru')} (подтверждено)»)",
            told=True,
        )
    return None


def _confirmed(
    state: GameState,
    order: Strike,
    gun: UnitState,
    contact: list[UnitState],
    rules: RuleSet,
    ex: Trace,
) -> list[tuple[UnitState, Cell]]:
    """The units a confirmed strike in contact hits, each with the cell it is hit on: every
    unit in the target cell and, by `artillery.contact_hits_all`, every unit in contact with
    them, on its cell nearest the target (9.7b); never the battery."""
    hit = [(u, order.target) for u in state.occupants(order.target) if u.ref != gun.ref]
    if not rules.value("artillery", "contact_hits_all"):
        ex.step(
            Text(
                "confirmed: the strike hits every unit in the target cell",
                "подтверждено: удар поражает все части в клетке цели",
            ),
            kind="note",
            rule="9.7b",
        )
        return hit
    ex.step(
        Text(
            "confirmed: the strike hits the target cell and every unit in contact with it, "
            "each by the ground of its own cell",
            "подтверждено: удар поражает клетку цели и все части в соприкосновении с ней, "
            "каждую по местности ее клетки",
        ),
        kind="note",
        rule="9.7b",
    )
    near = [o for o in contact if order.target not in o.cells]
    return hit + [(o, nearest(o, order.target)) for o in near]


def _share(state: GameState, cell: Cell, eff: float, rules: RuleSet) -> float:
    """The share a strike at `eff` destroys of the units on `cell`, at most all."""
    return min(1.0, round((1.0 - survival(state, cell, rules)) * eff, 6))


def _hit(
    state: GameState,
    u: UnitState,
    cell: Cell,
    eff: float,
    firing: str,
    rules: RuleSet,
    ex: Trace,
) -> tuple[UnitState | None, Fighting]:
    """One unit under fire on `cell`: its loss by that cell's ground at the strike's efficiency;
    the unit after (None: destroyed) and its line in the strike's record."""
    key = ground(state, cell)
    where = GROUND[key]
    before = u.division.strength
    with explain(Text(en(f"{u.ref} at {cell}"), f"{u.ref} в {cell}"), rule="9.7a") as g:
        by_ground = round(1.0 - survival(state, cell, rules), 6)
        g.step(lost_label(where), by_ground, rule="9.7a")
        share = min(1.0, round(by_ground * eff, 6))
        if eff != 1.0:
            g.step(Text("× the strike's efficiency", "× эффективность удара"), round(eff, 4),
                   unit="×", rule="table 11" if rules.level == 2 else "9.7a")  # fmt: skip
        after = weaken(u, share, rules, state)
        left = after.division.strength if after is not None else 0.0
        g.step(
            Text(
                en(
                    f"{u.ref} loses {pct(share)}: {num(before)} → {num(left)} divisions"
                    + (" — destroyed" if after is None else "")
                ),
                f"{u.ref} теряет {pct(share, 'ru')}: {num(before, 'ru')} → {num(left, 'ru')} "
                "дивизии" + (" — уничтожена" if after is None else ""),
            ),
            share,
            rule="9.7a",
        )
        g.set(share)
    factors = [Factor(lost_label(where), by_ground, "9.7a")]
    if eff != 1.0:
        factors.append(
            Factor(
                Text("the strike's efficiency", "эффективность удара"),
                round(eff, 4),
                "table 11" if rules.level == 2 else "9.7a",
            )
        )
    side = state.side_of(u.ref)
    return after, Fighting(
        unit=str(u.ref),
        role="attacker" if side == firing else "defender",
        echelon=1,
        kind=u.division.kind.ru,
        rating=0.0,
        factors=tuple(factors),
        effective=0.0,
        before=_regiments(u),
        after=_regiments(after),
        lost=share,
        destroyed=after is None,
        strength_before=round(before, 4),
        strength_after=round(left, 4),
        cell=str(cell),
        side=side,
    )


def _regiments(u: UnitState | None) -> tuple[tuple[str, float], ...]:
    return tuple((r.kind.ru, round(r.strength, 4)) for r in u.division.regiments) if u else ()


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
                [cut("9.7c", en(f"no road at {order.target}"), f"в {order.target} нет дороги")],
            )
        t1 = int(rules.value("artillery", "road_closed_transfer"))
        t2 = int(rules.value("artillery", "road_closed_movement"))
        closures: tuple[Closure, ...] = (
            Closure(order.target, "road-transfer", state.turn + t1 - 1),
            Closure(order.target, "road-movement", state.turn + t2 - 1),
        )
        outcome = Text(
            en(f"road at {order.target} closed: {turns(t1)} to transfers, {turns(t2)} to movement"),
            f"дорога в {order.target} закрыта: {turns(t1, 'ru')} для переброски, "
            f"{turns(t2, 'ru')} для движения",
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
                        en(f"no bridge or pass at {order.target}"),
                        f"в {order.target} нет моста или перевала",
                    )
                ],
            )
        t = int(rules.value("artillery", "bridge_closed"))
        closures = (Closure(order.target, "bridge", state.turn + t - 1),)
        outcome = Text(
            en(f"bridge at {order.target} closed to everything for {turns(t)}"),
            f"мост в {order.target} закрыт на {turns(t, 'ru')}",
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


__all__ = ["distance_km", "efficiency", "ground", "in_range", "loss_share", "strike", "survival"]
