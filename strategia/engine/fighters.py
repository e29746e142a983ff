"""Who fights a battle and with what rating (9.5, 9.6, 9.8b, 9.8c).

Echelons name divisions, or regiments of a division (`1 с.п. 101 с.д.`: part of a division may
stand in one echelon and the rest in the next, 9.8c's «1/3 с.д.»). An attacker strikes with the
side of itself that faces the target. A defender is struck on the side each attacker stands at,
relative to its own facing (9.5, 9.6): the attackers on one side make one blow; blows on two or
more sides make a combined blow. Its rating against each blow comes from that side's row of
tables 9-1, 9-2 and 10, and its rating in the battle weighs them by each blow's share of the
attacking strength (`battle.several_sides`, reconstructed). Ground, a river, the march and 9.17
multiply the ratings; a пт.д. fighting tanks or SP guns triples (9.8b).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

from strategia.core.geometry import Cell, Direction
from strategia.core.i18n import Text
from strategia.core.numbers import and_list, num, plural_ru_gen
from strategia.engine.battle_record import Blow, Factor
from strategia.engine.state import GameState, UnitState
from strategia.explain.trace import explain, quiet, record
from strategia.notation.refs import UnitRef
from strategia.rules import RuleSet
from strategia.rules.distances import table_distance
from strategia.rules.english import en
from strategia.rules.kinds import DivisionKind, Facing, RegimentsFacing, blow_on
from strategia.rules.ratings import rating, support_rating
from strategia.rules.units import Division
from strategia.theatre import terrain
from strategia.theatre.terrain import Relief

FACINGS = (Facing.FRONT, Facing.FLANK45, Facing.FLANK90, Facing.FLANK135, Facing.REAR)
ARMOURED = (DivisionKind.TANK, DivisionKind.SP_GUN)
GROUND = {
    Relief.FOREST: "defender_forest",
    Relief.HILLS: "defender_hills",
    Relief.SWAMP: "defender_swamp",
    Relief.MOUNTAINS: "defender_mountains",
}


def side_hit(facing: Direction, frm: Cell, to: Cell) -> Facing:
    """The side of a counter at `frm`, facing `facing`, that faces the cell `to`."""
    d = Direction.from_delta(*frm.offset(to))
    diff = abs((d.index - facing.index + 4) % 8 - 4)
    return FACINGS[diff]


def nearest(u: UnitState, target: Cell) -> Cell:
    return min(u.cells, key=lambda c: (c.chebyshev(target), c.km(target)))


@dataclass(frozen=True)
class Member:
    """A division in an echelon, or the regiments of it (indices in its `regiments`) there."""

    unit: UnitState
    part: tuple[int, ...] | None = None

    @property
    def division(self) -> Division:
        d = self.unit.division
        return d.part(self.part) if self.part is not None else d

    @property
    def name(self) -> str:
        return str(self.unit.ref)

    @property
    def regiments(self) -> tuple[str, ...]:
        """The regiments fighting, when only part of the division does."""
        if self.part is None:
            return ()
        d = self.unit.division
        return tuple(_regiment_name(d, i) for i in self.part)


def _regiment_name(d: Division, i: int) -> str:
    kind = d.regiments[i].kind
    n = 1 + sum(1 for r in d.regiments[:i] if r.kind is kind)
    return f"{n} {kind.ru}"


def member_of(state: GameState, ref: UnitRef) -> Member | None:
    """The division `ref` names, or the regiment of a division on the map it names."""
    if ref in state.units:
        return Member(state.units[ref])
    if ref.regiment is not None and ref.division in state.units:
        u = state.units[ref.division]
        i = u.division.regiment_index(*ref.regiment)
        return Member(u, (i,)) if i is not None else None
    return None


def gather(members: list[Member]) -> list[Member]:
    """One member per division in an echelon: the regiments named together."""
    out: dict[UnitRef, Member] = {}
    for m in members:
        had = out.get(m.unit.ref)
        if had is None:
            out[m.unit.ref] = m
        elif had.part is not None and m.part is not None:
            out[m.unit.ref] = Member(m.unit, tuple(sorted({*had.part, *m.part})))
        else:
            out[m.unit.ref] = Member(m.unit)
    return list(out.values())


def complete(echelons: list[list[Member]]) -> list[list[Member]]:
    """A division named only in part fights with the rest of it where its first part stands."""
    named: dict[UnitRef, set[int]] = {}
    first: dict[UnitRef, tuple[int, int]] = {}
    for e, members in enumerate(echelons):
        for k, m in enumerate(members):
            if m.part is None:
                named[m.unit.ref] = set(range(len(m.unit.division.regiments)))
            else:
                named.setdefault(m.unit.ref, set()).update(m.part)
            first.setdefault(m.unit.ref, (e, k))
    out = [list(x) for x in echelons]
    for ref, (e, k) in first.items():
        m = out[e][k]
        rest = set(range(len(m.unit.division.regiments))) - named[ref]
        if rest and m.part is not None:
            out[e][k] = Member(m.unit, tuple(sorted({*m.part, *rest})))
    return out


@dataclass
class Fighter:
    """A division (or part of one) in the battle: its rating, the multipliers, what it lost."""

    member: Member
    role: str  # "attacker" or "defender"
    echelon: int
    rating: float
    factors: list[Factor] = field(default_factory=list)
    blows: tuple[Blow, ...] = ()
    lost: float = 0.0  # effective rating lost

    @property
    def unit(self) -> UnitState:
        return self.member.unit

    @property
    def factor(self) -> float:
        return math.prod(f.value for f in self.factors)

    @property
    def effective(self) -> float:
        return self.rating * self.factor

    @property
    def left(self) -> float:
        return max(0.0, self.effective - self.lost)


def condition(u: UnitState, rules: RuleSet) -> list[Factor]:
    """A unit's state: on the march half (4.8), not combat-capable a quarter (9.17)."""
    if u.on_march and rules.active("march"):
        v = float(rules.value("march", "defence_factor"))
        return [Factor(Text("on the march", "на марше"), v, "4.8")]
    if not u.combat_capable:
        v = float(rules.value("battle", "not_combat_capable"))
        what = u.busy.what if u.busy else ""
        return [Factor(Text(en(f"not combat-capable ({what})"), "небоеспособна"), v, "9.17")]
    return []


def attacker(m: Member, echelon: int, target: Cell, rules: RuleSet) -> Fighter:
    """An attacker, rated for the side of itself it strikes with (9.5, 9.6)."""
    u = m.unit
    hit = side_hit(u.facing, nearest(u, target), target)
    label = Text(en(f"{m.name} strikes with its {hit.en}"), f"{m.name} наносит удар: {hit.ru}")
    with explain(label, rule="9.8") as g:
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
        r = rating(
            m.division, rules, formation=u.formation, facing=hit, regiments_facing=u.regiments
        ).value
        f = Fighter(m, "attacker", echelon, r, condition(u, rules), (Blow(hit.key, 1.0, r),))
        g.set(round(f.effective, 6))
    return f


def blows(d: UnitState, attackers: list[Fighter]) -> dict[Facing, list[Fighter]]:
    """The attackers grouped by the side of `d` each strikes (from where it stands)."""
    out: dict[Facing, list[Fighter]] = {}
    for a in attackers:
        here = nearest(d, a.unit.cell)
        # an attacker on one of the defender's cells (as last-known cells may put it in a
        # what-if) strikes from the cells it does not share with it; one wholly on it, in front
        apart = tuple(c for c in a.unit.cells if c != here)
        side = Facing.FRONT
        if apart:
            side = side_hit(d.facing, here, nearest(replace(a.unit, cells=apart), here))
        out.setdefault(side, []).append(a)
    return dict(sorted(out.items(), key=lambda kv: FACINGS.index(kv[0])))


def defender(
    state: GameState, m: Member, echelon: int, attackers: list[Fighter], rules: RuleSet
) -> Fighter:
    """A defender rated against each blow by that side's row (9.6), the blows weighed by their
    share of the attacking strength; then its ground, its condition, пт.д. against armour."""
    u = m.unit
    by_side = blows(u, attackers)
    combined = len(by_side) > 1
    rf = u.regiments
    if combined and rules.value("battle", "combined_blow_front_line"):
        rf = RegimentsFacing.FRONT_LINE
    title = Text(en(f"{m.name} defends"), f"{m.name} обороняется")
    with explain(title, rule="9.8") as g:
        if combined:
            g.step(
                Text(
                    en(
                        f"struck on {len(by_side)} sides ({and_list(s.en for s in by_side)}): "
                        "a combined blow"
                    ),
                    f"удар с {len(by_side)} {plural_ru_gen(len(by_side), 'стороны', 'сторон')} "
                    f"({and_list((s.ru for s in by_side), 'ru')}): "
                    "комбинированный",
                ),
                len(by_side),
                rule="9.5",
            )
        total = sum(a.effective for a in attackers) or 1.0
        rule = str(rules.value("battle", "several_sides"))
        rated: list[Blow] = []
        for side, group in by_side.items():
            weight = sum(a.effective for a in group) / total
            r = rating(m.division, rules, formation=u.formation, facing=side, regiments_facing=rf)
            names = tuple(a.member.name for a in group)
            rated.append(Blow(side.key, round(weight, 6), r.value, names))
            g.step(
                Text(
                    en(
                        f"against the blow on its {side.en} ({', '.join(names)}): weight "
                        f"{num(weight)}"
                    ),
                    f"против удара {blow_on(side.key)} ({', '.join(names)}): "
                    f"вес {num(weight, 'ru')}",
                ),
                r.value,
                rule="9.6",
            )
        if rule == "weakest":
            value = min(b.rating for b in rated)
        else:
            value = sum(b.weight * b.rating for b in rated)
        g.step(Text("rating in this battle", "рейтинг в этом бою"), round(value, 6), rule="9.6")
        factors = _ground(state, u, attackers, rules) + condition(u, rules)
        armour = any(a.unit.division.kind in ARMOURED for a in attackers)
        if armour and u.division.kind is DivisionKind.ANTI_TANK:
            v = float(rules.value("battle", "anti_tank_vs_armour"))
            factors.append(Factor(Text("пт.д. against armour", "пт.д. против танков"), v, "9.8b"))
        f = Fighter(m, "defender", echelon, round(value, 6), factors, tuple(rated))
        g.set(round(f.effective, 6))
    return f


def _ground(
    state: GameState, u: UnitState, attackers: list[Fighter], rules: RuleSet
) -> list[Factor]:
    """The defender's ground (9.8b, 9.5): the best of its relief, a town or a fortress; a river
    if every attacker strikes across it."""
    ds = state.theatre
    i, j = terrain.index(ds, u.cell)
    relief = Relief(int(state.grid.relief[i, j]))
    options: list[Factor] = []
    if key := GROUND.get(relief):
        options.append(Factor(_RELIEF[relief], float(rules.value("battle", key)), "9.8b"))
    if int(state.grid.settlement[i, j]) > 0:
        options.append(
            Factor(
                Text("in a town", "в населенном пункте"),
                float(rules.value("battle", "defender_town")),
                "9.5",
            )
        )
    if bool(state.grid.fortress[i, j]) and rules.active("battle", "defender_fortress"):
        v = float(rules.value("battle", "defender_fortress"))
        options.append(Factor(Text("in a fortress", "в крепости"), v, "9.5"))
    out = [max(options, key=lambda f: f.value)] if options else []
    crossings = state.grid.crossings
    across = [
        a
        for a in attackers
        if crossings[
            (
                Direction.from_delta(*nearest(a.unit, u.cell).offset(u.cell)).index,
                *terrain.index(ds, nearest(a.unit, u.cell)),
            )
        ]
    ]
    if attackers and len(across) == len(attackers):
        v = float(rules.value("battle", "defender_river"))
        out.append(Factor(Text("behind a river", "за рекой"), v, "9.8b"))
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
    return out


_RELIEF = {
    Relief.FOREST: Text("in forest", "в лесу"),
    Relief.HILLS: Text("in hills", "в холмах"),
    Relief.SWAMP: Text("in swamp", "в болотах"),
    Relief.MOUNTAINS: Text("in mountains", "в горах"),
}


def support(
    state: GameState,
    refs: tuple[UnitRef, ...],
    side: str,
    engaged: list[UnitState],
    target: Cell,
    rules: RuleSet,
) -> tuple[float, list[UnitRef]]:
    """Level 2 (9.8c): unattacked divisions within 10 km of an engaged one, by table 2's distance
    (a neighbour across a side of the cell, not across a corner: 15 km), add their support
    ratings; a division supports one battle a turn. The sum, and the supporters committed."""
    if not refs:
        return 0.0, []
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
        return 0.0, []
    radius = float(rules.value("battle", "support_radius_km"))
    total, used = 0.0, []
    engaged_refs = {u.ref for u in engaged}
    for ref in refs:
        u = state.units.get(ref)
        why = None
        if u is None or state.side_of(ref) != side or target in u.cells or ref in engaged_refs:
            why = Text(en(f"{ref} cannot support here"), f"{ref} не может поддержать")
        elif ref in state.engaged:
            why = Text(en(f"{ref} is attacked this turn"), f"{ref} атакована в этот ход")
        elif ref in state.committed:
            why = Text(
                en(f"{ref} already supports another battle this turn"),
                f"{ref} уже поддерживает другой бой в этот ход",
            )
        elif (km := _nearest_km(u, engaged, rules)) > radius + 1e-9:  # 9.8c, table 2
            why = Text(
                en(f"{ref} is {num(km)} km away (table 2), farther than {num(radius)} km"),
                f"{ref} в {num(km, 'ru')} км (табл. 2), дальше {num(radius, 'ru')} км",
            )
        if why is not None:
            record(why, None, kind="cut", rule="9.8c")
            continue
        assert u is not None
        record(
            Text(en(f"{ref}: distance (table 2)"), f"{ref}: расстояние (табл. 2)"),
            _nearest_km(u, engaged, rules),
            unit="km",
            rule="9.8c",
        )
        value = support_rating(u.division, rules).value
        total += value
        used.append(ref)
    return round(total, 6), used


def _nearest_km(u: UnitState, engaged: list[UnitState], rules: RuleSet) -> float:
    """Table 2's distance in km from `u` to the nearest engaged division, cell to cell (9.8c)."""
    with quiet():
        cell = float(rules.value("scale", "cell_km"))
        return min(
            table_distance(*c.offset(e), rules) * cell
            for d in engaged
            for e in d.cells
            for c in u.cells
        )
