"""The regular battle (9.8) and the other forms of 9.5, explained step by step.

The attacker names the cell and its echelons; the defender accepts battle with its echelons or
retreats (9.8a). Each division's rating comes from `strategia.ratings` for the side the blow
lands on; the defender's is multiplied by its ground (9.8b); a пт.д. fighting tanks triples.
The loss rule is the reconstruction in the rule data (`loss_rule`): echelons exchange losses at
a fixed rate per unit of effective rating, in rounds that end when an engaged echelon is
destroyed and the next enters (9.8c), until the turn is over.
"""

from __future__ import annotations

import math

from strategia.core.geometry import Cell, Direction
from strategia.core.i18n import Text
from strategia.engine.battle_outcome import Fighter, exchange, losses, pursue, retreat, spend
from strategia.engine.result import Cut, OrderError, Result, cut
from strategia.engine.state import GameState, UnitState
from strategia.engine.war import attacked
from strategia.explain.trace import explain, record
from strategia.notation.orders import Attack, Defence
from strategia.notation.refs import UnitRef
from strategia.rules import RuleSet
from strategia.rules.kinds import DivisionKind, Facing, RegimentsFacing
from strategia.rules.ratings import rating, support_rating
from strategia.theatre import terrain
from strategia.theatre.terrain import Relief

FACINGS = (Facing.FRONT, Facing.FLANK45, Facing.FLANK90, Facing.FLANK135, Facing.REAR)
CANNOT_ATTACK = (DivisionKind.ARTILLERY, DivisionKind.ANTI_TANK, DivisionKind.FORTRESS)
ARMOURED = (DivisionKind.TANK, DivisionKind.SP_GUN)


def side_hit(facing: Direction, frm: Cell, to: Cell) -> Facing:
    """The side of a counter at `frm`, facing `facing`, that faces the cell `to`."""
    d = Direction.from_delta(*frm.offset(to))
    diff = abs((d.index - facing.index + 4) % 8 - 4)
    return FACINGS[diff]


def _nearest(u: UnitState, target: Cell) -> Cell:
    return min(u.cells, key=lambda c: (c.chebyshev(target), c.km(target)))


def battle(state: GameState, order: Attack, rules: RuleSet) -> tuple[GameState, Result]:
    """Resolve a blow on the troops in a cell (9.8, 9.5): ratings, exchange, losses, outcome."""
    target = order.target
    defenders = [u for u in state.occupants(target)]
    first = state.unit(order.unit)
    side = state.side_of(first.ref)
    enemy = [u for u in defenders if state.side_of(u.ref) != side]
    if not enemy:
        raise OrderError(f"{order}: no enemy in {target} to attack")
    cuts: list[Cut] = []
    title = Text(f"Battle for {target}", f"Бой за {target}")
    with explain(title, rule="9.8") as ex:
        attackers = _attackers(state, order, rules, cuts)
        defence = order.defence or Defence((tuple(u.ref for u in enemy),))
        state = attacked(state, first.owner, enemy[0].owner)
        if not attackers:
            ex.step(
                Text("no division can strike: nothing happens", "некому наносить удар: боя нет"),
                kind="note",
                rule="9.8",
            )
            return state, Result(
                order.format("ru"), Text("no battle", "боя нет"), ex.freeze(), tuple(cuts)
            )
        if defence.retreat:
            moved = retreat(state, enemy, attackers, rules, ex, cuts)
            if moved is not None:
                state = moved
                state = pursue(state, attackers, target, rules, ex)
                state = spend(state, attackers, rules)
                outcome = Text(f"{target}: the defender retreats", f"{target}: противник отходит")
                return state, Result(order.format("ru"), outcome, ex.freeze(), tuple(cuts))
        d_echelons = _defenders(state, defence, target, side, cuts)
        sides = {side_hit(u.facing, _nearest(u, target), target) for u in attackers}
        with explain(Text("Attacker", "Наступающий"), rule="9.8") as ga:
            a_fighters = [
                [_attacker(state, u, target, rules) for u in e] for e in _echelons(order, attackers)
            ]
            a_support = _support(
                state, order.support, [f.unit for e in a_fighters for f in e], target, rules
            )
        with explain(Text("Defender", "Обороняющийся"), rule="9.8") as gd:
            armour = any(u.division.kind in ARMOURED for u in attackers)
            main = _main_blow(state, attackers, a_fighters)
            d_fighters = [
                [_defender(state, u, main, len(sides), armour, attackers, rules) for u in e]
                for e in d_echelons
            ]
            d_support = _support(
                state, defence.support, [f.unit for e in d_fighters for f in e], target, rules
            )
        ga.set(round(sum(f.effective for e in a_fighters for f in e) + a_support, 6))
        gd.set(round(sum(f.effective for e in d_fighters for f in e) + d_support, 6))
        exchange(a_fighters, d_fighters, a_support, d_support, rules)
        state, outcome = losses(state, a_fighters, d_fighters, target, rules, ex)
        state = spend(state, attackers, rules)
        ex.set(outcome.en)
        return state, Result(order.format("ru"), outcome, ex.freeze(), tuple(cuts))


def _attackers(state: GameState, order: Attack, rules: RuleSet, cuts: list[Cut]) -> list[UnitState]:
    """The attacking divisions that may strike: the rest are cut, with the reason (9.3)."""
    side = state.side_of(order.unit)
    out: list[UnitState] = []
    is_pass = (
        bool(terrain.passes(state.theatre)[terrain.index(state.theatre, order.target)])
        and state.level >= 2
    )
    for ref in order.attackers:
        if ref not in state.units:
            raise OrderError(f"{order}: {ref} is not on the map")
        u = state.unit(ref)
        if state.side_of(ref) != side:
            raise OrderError(f"{order}: {ref} is not on the attacker's side")
        why = None
        if u.division.kind in CANNOT_ATTACK:
            why = cut(
                "9.8",
                f"{ref}: artillery, anti-tank included, cannot strike",
                f"{ref}: артиллерия, в том числе противотанковая, наносить удар не может",
            )
        elif u.on_march:
            why = cut(
                "4.8",
                f"{ref} is on the march: it cannot attack",
                f"{ref} на марше: атаковать не может",
            )
        elif u.busy is not None or not u.combat_capable:
            why = cut(
                "9.17",
                f"{ref} is not combat-capable now ({u.busy.what if u.busy else 'recovering'})",
                f"{ref} сейчас небоеспособна",
            )
        elif min(c.chebyshev(order.target) for c in u.cells) != 1:
            why = cut(
                "9.3",
                f"{ref} is not beside {order.target}: it takes no part",
                f"{ref} не рядом с {order.target}: в бою не участвует",
            )
        elif is_pass and len(out) >= int(rules.value("battle", "pass_attackers")):
            why = cut(
                "9.5",
                f"{ref}: the pass lets one division through at a time",
                f"{ref}: через перевал атакует одна дивизия",
            )
        if why is not None:
            cuts.append(why)
            record(why.reason, None, kind="cut", rule=why.rule)
        else:
            out.append(u)
    return out


def _echelons(order: Attack, attackers: list[UnitState]) -> list[list[UnitState]]:
    ok = {u.ref: u for u in attackers}
    return [x for x in ([ok[r] for r in e if r in ok] for e in order.echelons) if x]


def _defenders(
    state: GameState, defence: Defence, target: Cell, side: str, cuts: list[Cut]
) -> list[list[UnitState]]:
    """The defender's echelons: the first in the target cell, later ones beside it (9.8c)."""
    here = [u for u in state.occupants(target) if state.side_of(u.ref) != side]
    echelons: list[list[UnitState]] = []
    named: set[UnitRef] = set()
    for n, e in enumerate(defence.echelons):
        units: list[UnitState] = []
        for ref in e:
            u = state.units.get(ref)
            if (
                u is None
                or state.side_of(ref) == side
                or not (u in here if n == 0 else min(c.chebyshev(target) for c in u.cells) <= 1)
            ):
                cuts.append(
                    cut(
                        "9.8c",
                        f"{ref} cannot defend {target} in echelon {n + 1}",
                        f"{ref} не может оборонять {target} в {n + 1}-м эшелоне",
                    )
                )
                continue
            units.append(u)
            named.add(ref)
        if units:
            echelons.append(units)
    missing = [u for u in here if u.ref not in named]
    if missing:  # everyone in the cell is in the fight: the first echelon
        if echelons:
            echelons[0] += missing
        else:
            echelons.append(missing)
    return echelons


def _attacker(state: GameState, u: UnitState, target: Cell, rules: RuleSet) -> Fighter:
    hit = side_hit(u.facing, _nearest(u, target), target)
    with explain(
        Text(f"{u.ref} strikes with its {hit.en}", f"{u.ref} атакует: {hit.ru}"), rule="9.8"
    ) as g:
        if hit in (Facing.FLANK135, Facing.REAR):
            g.step(
                Text(
                    "its back to the target: fighting with an inverted front",
                    "тылом к цели: бой с перевернутым фронтом",
                ),
                kind="note",
                rule="9.5",
            )
        elif hit is not Facing.FRONT:
            g.step(
                Text("striking with a flank, not its front", "удар флангом, а не фронтом"),
                kind="note",
                rule="9.5",
            )
        r = rating(u.division, rules, formation=u.formation, facing=hit).value
        factor = _condition(u, rules)
        f = Fighter(u, r, factor)
        g.set(round(f.effective, 6))
    return f


def _condition(u: UnitState, rules: RuleSet) -> float:
    """A unit's state: on the march half (4.8), not combat-capable a quarter (9.17)."""
    factor = 1.0
    if u.on_march and rules.active("march"):
        factor *= float(rules.value("march", "defence_factor"))
    elif not u.combat_capable:
        factor *= float(rules.value("battle", "not_combat_capable"))
    return factor


def _main_blow(
    state: GameState, attackers: list[UnitState], fighters: list[list[Fighter]]
) -> UnitState:
    strength = {f.unit.ref: f.effective for e in fighters for f in e}
    return max(attackers, key=lambda u: strength.get(u.ref, 0.0))


def _defender(
    state: GameState,
    u: UnitState,
    main: UnitState,
    n_sides: int,
    armour: bool,
    attackers: list[UnitState],
    rules: RuleSet,
) -> Fighter:
    here = _nearest(u, main.cell)
    hit = side_hit(u.facing, here, _nearest(main, here))
    rf = RegimentsFacing.ENEMY
    with explain(
        Text(f"{u.ref}: the blow lands on its {hit.en}", f"{u.ref}: удар в {hit.ru}"), rule="9.8"
    ) as g:
        if n_sides > 1 and rules.value("battle", "combined_blow_front_line"):
            rf = RegimentsFacing.FRONT_LINE
            g.step(
                Text(
                    f"struck from {n_sides} sides: a combined blow",
                    f"удар с {n_sides} сторон: комбинированный",
                ),
                n_sides,
                rule="9.5",
            )
        r = rating(u.division, rules, formation=u.formation, facing=hit, regiments_facing=rf).value
        factor = _ground(state, u, attackers, rules) * _condition(u, rules)
        if armour and u.division.kind is DivisionKind.ANTI_TANK:
            factor *= float(rules.value("battle", "anti_tank_vs_armour"))
        f = Fighter(u, r, factor)
        g.set(round(f.effective, 6))
    return f


def _ground(state: GameState, u: UnitState, attackers: list[UnitState], rules: RuleSet) -> float:
    """The defender's ground (9.8b, 9.5): the best of its relief, a town or a fortress; a river."""
    ds = state.theatre
    i, j = terrain.index(ds, u.cell)
    relief = Relief(int(terrain.relief_at_level(ds, state.level)[i, j]))
    options: list[float] = [1.0]
    key = {
        Relief.FOREST: "defender_forest",
        Relief.HILLS: "defender_hills",
        Relief.SWAMP: "defender_swamp",
        Relief.MOUNTAINS: "defender_mountains",
    }.get(relief)
    if key:
        options.append(float(rules.value("battle", key)))
    if int(ds["settlement"].values[i, j]) > 0:
        options.append(float(rules.value("battle", "defender_town")))
    if bool(ds["fortress"].values[i, j]) and rules.active("battle", "defender_fortress"):
        options.append(float(rules.value("battle", "defender_fortress")))
    factor = max(options)
    crossings = terrain.river_crossings(ds)
    across = [
        a
        for a in attackers
        if crossings[
            (
                Direction.from_delta(*_nearest(a, u.cell).offset(u.cell)).index,
                *terrain.index(ds, _nearest(a, u.cell)),
            )
        ]
    ]
    if attackers and len(across) == len(attackers):
        factor *= float(rules.value("battle", "defender_river"))
    elif across:
        record(
            Text(
                "some attackers cross the river, some do not: no river bonus",
                "часть атакующих форсирует реку, часть нет: без учета реки",
            ),
            None,
            kind="note",
            rule="9.8b",
        )
    return factor


def _support(
    state: GameState,
    refs: tuple[UnitRef, ...],
    engaged: list[UnitState],
    target: Cell,
    rules: RuleSet,
) -> float:
    """Level 2: unattacked divisions within 10 km add their support ratings (9.8c)."""
    if not refs:
        return 0.0
    if not rules.active("battle", "support_radius_km"):
        record(
            Text(
                "support by neighbours is a level-2 rule: none",
                "поддержка соседей — правило 2 уровня",
            ),
            None,
            kind="cut",
            rule="9.8c",
        )
        return 0.0
    reach_cells = math.floor(
        float(rules.value("battle", "support_radius_km")) / float(rules.value("scale", "cell_km"))
    )
    total = 0.0
    engaged_refs = {u.ref for u in engaged}
    for ref in refs:
        u = state.units.get(ref)
        near = u is not None and any(
            min(c.chebyshev(e.cell) for c in u.cells) <= reach_cells for e in engaged
        )
        if u is None or ref in engaged_refs or target in u.cells or not near:
            record(
                Text(f"{ref} cannot support here", f"{ref} не может поддержать"),
                None,
                kind="cut",
                rule="9.8c",
            )
            continue
        total += support_rating(u.division, rules).value
    return round(total, 6)


__all__ = ["battle", "side_hit"]
