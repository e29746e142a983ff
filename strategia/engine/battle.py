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
from dataclasses import dataclass, replace

from strategia import terrain
from strategia.combat_orders import Attack, Defence
from strategia.engine.columns import cut_transfer
from strategia.engine.result import Cut, OrderError, Result, cut
from strategia.engine.war import attacked
from strategia.explain import Trace, explain, record
from strategia.geometry import Cell, Direction
from strategia.i18n import Text
from strategia.kinds import Facing, RegimentsFacing
from strategia.notation import UnitRef
from strategia.ratings import rating, support_rating
from strategia.rules import RuleSet
from strategia.state import GameState, UnitState
from strategia.terrain import Relief
from strategia.units import DivisionKind

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
            moved = _retreat(state, enemy, attackers, rules, ex, cuts)
            if moved is not None:
                state = moved
                state = _pursue(state, attackers, target, rules, ex)
                state = _spend(state, attackers, rules)
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
        _exchange(a_fighters, d_fighters, a_support, d_support, rules)
        state, outcome = _losses(state, a_fighters, d_fighters, target, rules, ex)
        state = _spend(state, attackers, rules)
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
    elif not u.combat_capable or u.busy is not None:
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


def _exchange(
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


def _losses(
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
        state = _pursue(
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


def _retreat(
    state: GameState,
    enemy: list[UnitState],
    attackers: list[UnitState],
    rules: RuleSet,
    ex: Trace,
    cuts: list[Cut],
) -> GameState | None:
    """The defender withdraws (9.8a) to the free cell farthest from the attackers; None if it has
    no way back (encircled, 9.19 reconstructed) and must fight."""
    ds = state.theatre
    occupied = state.occupancy() > 0
    moved: list[UnitState] = []
    for u in enemy:
        options = []
        for d in Direction:
            c = u.cell.step(d)
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


def _pursue(
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


def _spend(state: GameState, attackers: list[UnitState], rules: RuleSet) -> GameState:
    if not rules.value("battle", "attack_spends_turn"):
        return state
    return state.with_units(
        [replace(state.unit(u.ref), spent=1.0) for u in attackers if u.ref in state.units]
    )


__all__ = ["Fighter", "battle", "side_hit"]
