"""The regular battle (9.8) and the other forms of 9.5, explained step by step.

The attacker names the cell, its echelons and support, and how far it would pursue; the
defender accepts battle with its echelons and support or retreats (9.8a). Who fights and with
what rating is `fighters`; the exchange of losses, the losses, the retreat and the pursuit are
`battle_outcome`. Every battle's data is kept in its result (`BattleRecord`) for the report.
"""

from __future__ import annotations

from strategia.core.geometry import Cell
from strategia.core.i18n import Text
from strategia.engine.battle_outcome import exchange, losses, pursue, retreat, spend
from strategia.engine.battle_record import BattleRecord, Fighting, Pursuit
from strategia.engine.conditions import NEEDS, lacks_time
from strategia.engine.fighters import (
    Fighter,
    Member,
    attacker,
    complete,
    defender,
    gather,
    member_of,
    side_hit,
    support,
)
from strategia.engine.movement import move
from strategia.engine.result import Cut, OrderError, Result, cut
from strategia.engine.state import GameState, UnitState
from strategia.engine.war import attacked
from strategia.explain.trace import explain, record
from strategia.notation.orders import Attack, Defence, Move
from strategia.notation.refs import UnitRef
from strategia.rules import RuleSet
from strategia.rules.english import en
from strategia.rules.kinds import DivisionKind
from strategia.theatre import terrain

CANNOT_ATTACK = (DivisionKind.ARTILLERY, DivisionKind.ANTI_TANK, DivisionKind.FORTRESS)


def battle(state: GameState, order: Attack, rules: RuleSet) -> tuple[GameState, Result]:
    """Resolve a blow on the troops in a cell (9.8, 9.5): ratings, exchange, losses, outcome."""
    target = order.target
    first = member_of(state, order.unit)
    if first is None:
        raise OrderError(
            en(f"{order.format('en')}: {order.unit} is not on the map"),
            ru=f"{order}: {order.unit} нет на карте",
        )
    side = state.side_of(first.unit.ref)
    enemy = [u for u in state.occupants(target) if state.side_of(u.ref) != side]
    if not enemy:
        return _into_empty(state, order, first.unit, rules)
    cuts: list[Cut] = []
    title = Text(en(f"Battle for {target}"), f"Бой за {target}")
    them = state.side_of(enemy[0].ref)
    with explain(title, rule="9.8") as ex:
        a_echelons = _attackers(state, order, rules, cuts)
        attackers = [m.unit for e in a_echelons for m in e]
        defence = order.defence or Defence((tuple(u.ref for u in enemy),))
        if not attackers:  # no blow struck: nobody attacked, no war begins (9.1)
            ex.step(
                Text("no division can strike: nothing happens", "некому наносить удар: боя нет"),
                kind="note",
                rule="9.8",
            )
            rec = BattleRecord(str(target), side, them, "no_battle")
            return state, _result(order, Text("no battle", "боя нет"), ex.freeze(), cuts, rec)
        state = attacked(state, first.unit.owner, enemy[0].owner, target, str(first.unit.ref))
        if defence.retreat:
            moved = retreat(state, enemy, attackers, rules, ex, cuts)
            if moved is not None:
                state, went = pursue(moved, attackers, target, order.pursue, rules, cuts)
                state = spend(state, attackers, rules)
                outcome = Text(
                    en(f"{target}: the defender retreats"), f"{target}: противник отходит"
                )
                rec = BattleRecord(str(target), side, them, "retreat", pursuit=went)
                return state, _result(order, outcome, ex.freeze(), cuts, rec)
        d_echelons = _defenders(state, defence, target, side, cuts)
        with explain(Text("Attacker", "Наступающий"), rule="9.8") as ga:
            a_fighters = [
                [attacker(m, n, target, rules) for m in e] for n, e in enumerate(a_echelons, 1)
            ]
            a_support, a_used = support(state, order.support, side, attackers, target, rules)
        engaged = [f for e in a_fighters for f in e]
        with explain(Text("Defender", "Обороняющийся"), rule="9.8") as gd:
            d_fighters = [
                [defender(state, m, n, a_fighters[0], rules) for m in e]
                for n, e in enumerate(d_echelons, 1)
            ]
            d_units = [m.unit for e in d_echelons for m in e]
            d_support, d_used = support(state, defence.support, them, d_units, target, rules)
        attack = round(sum(f.effective for f in a_fighters[0]) + a_support, 6)
        defend = round(sum(f.effective for f in d_fighters[0]) + d_support, 6)
        ga.set(attack)
        gd.set(defend)
        ex.step(
            Text("force ratio (first echelons)", "соотношение сил (первые эшелоны)"),
            round(attack / defend, 3) if defend > 0 else None,
            rule="9.8",
        )
        rounds, used = exchange(a_fighters, d_fighters, a_support, d_support, rules)
        before = state
        state, key, outcome = losses(state, a_fighters, d_fighters, target, rules)
        chased: tuple[Pursuit, ...] = ()
        if key == "taken":
            winners = [f.unit for f in engaged if f.unit.ref in state.units]
            state, chased = pursue(state, winners, target, order.pursue, rules, cuts)
        state = spend(state, attackers, rules)
        state = state.evolve(
            engaged=state.engaged | {u.ref for u in d_units},
            committed=state.committed | set(a_used) | set(d_used),
        )
        ex.set(outcome)
        fought = [f for e in a_fighters + d_fighters for f in e]
        rec = BattleRecord(
            str(target),
            side,
            them,
            key,
            tuple(_fighting(f, before, state, rules) for f in fought),
            attack,
            defend,
            a_support,
            d_support,
            tuple(map(str, a_used + d_used)),
            rounds,
            used,
            chased,
        )
        return state, _result(order, outcome, ex.freeze(), cuts, rec)


def _into_empty(
    state: GameState, order: Attack, lead: UnitState, rules: RuleSet
) -> tuple[GameState, Result]:
    """A blow on a cell with no enemy in it is a move into it (9.8 names troops in the cell;
    none there, the first attacker advances): refused at no cost it would tell the attacker
    what it may not know (1.6)."""

    title = Text(
        en(f"Blow on {order.target}: no enemy there"), f"Удар по {order.target}: противника нет"
    )
    with explain(title, rule="9.8") as ex:
        why = cut(
            "9.8",
            en(f"no enemy in {order.target}: the attack is carried out as a move into it"),
            f"в {order.target} нет противника: удар выполнен как движение в эту клетку",
        )
        record(why.reason, None, kind="cut", rule="9.8")
        state, r = move(state, Move(lead.ref, order.target), rules)
        ex.set(r.explanation.value)
    rec = BattleRecord(str(order.target), state.side_of(lead.ref), "", "no_battle")
    return state, Result(order.format("ru"), r.outcome, ex.freeze(), (why, *r.cuts), rec)


def _result(
    order: Attack, outcome: Text, expl: object, cuts: list[Cut], rec: BattleRecord
) -> Result:
    return Result(order.format("ru"), outcome, expl, tuple(cuts), rec)  # type: ignore[arg-type]


def _strengths(u: UnitState | None, part: tuple[int, ...] | None) -> tuple[tuple[str, float], ...]:
    if u is None:
        return ()
    regs = u.division.regiments
    idx = range(len(regs)) if part is None else part
    return tuple((regs[i].kind.ru, round(regs[i].strength, 4)) for i in idx if i < len(regs))


def _fighting(f: Fighter, before: GameState, after: GameState, rules: RuleSet) -> Fighting:
    ref = f.unit.ref
    now = after.units.get(ref)
    floor = float(rules.value("loss_rule", "destroyed_below"))
    return Fighting(
        unit=str(ref),
        role=f.role,
        echelon=f.echelon,
        kind=f.unit.division.kind.ru,
        rating=round(f.rating, 6),
        factors=tuple(f.factors),
        effective=round(f.effective, 6),
        before=_strengths(before.units.get(ref), f.member.part),
        after=_strengths(now, f.member.part),
        lost=round(f.lost / f.effective, 6) if f.effective > 0 else 0.0,
        destroyed=now is None or now.division.strength < floor,
        part=f.member.regiments,
        blows=f.blows,
        strength_before=round(f.unit.division.strength, 4),
        strength_after=round(now.division.strength, 4) if now is not None else 0.0,
    )


def _attackers(
    state: GameState, order: Attack, rules: RuleSet, cuts: list[Cut]
) -> list[list[Member]]:
    """The attacking echelons of the divisions (or regiments) that may strike: the rest are
    cut, with the reason (9.3)."""
    side = state.side_of(order.unit.division)
    is_pass = (
        bool(state.grid.passes[terrain.index(state.theatre, order.target)]) and state.level >= 2
    )
    echelons: list[list[Member]] = []
    taken = 0
    for refs in order.echelons:
        members: list[Member] = []
        for ref in refs:
            m = member_of(state, ref)
            if m is None:
                raise OrderError(
                    en(f"{order.format('en')}: {ref} is not on the map"),
                    ru=f"{order}: {ref} нет на карте",
                )
            if state.side_of(m.unit.ref) != side:
                raise OrderError(
                    en(f"{order.format('en')}: {ref} is not on the attacker's side"),
                    ru=f"{order}: {ref} — не на стороне наступающего",
                )
            why = _cannot_attack(state, m.unit, order.target)
            if why is None and is_pass and taken >= int(rules.value("battle", "pass_attackers")):
                why = cut(
                    "9.5",
                    en(f"{ref}: the pass lets one division through at a time"),
                    f"{ref}: через перевал атакует одна дивизия",
                )
            if why is not None:
                cuts.append(why)
                record(why.reason, None, kind="cut", rule=why.rule)
                continue
            taken += 1
            members.append(m)
        if members:
            echelons.append(gather(members))
    return complete(echelons)


def _cannot_attack(state: GameState, u: UnitState, target: Cell) -> Cut | None:
    ref = u.ref
    if u.division.kind in CANNOT_ATTACK:
        return cut(
            "9.8",
            en(f"{ref}: artillery, anti-tank included, cannot strike"),
            f"{ref}: артиллерия, в том числе противотанковая, наносить удар не может",
        )
    if u.on_march:
        return cut(
            "4.8",
            en(f"{ref} is on the march: it cannot attack"),
            f"{ref} на марше: атаковать не может",
        )
    if u.busy is not None or not u.combat_capable:
        what = u.busy.what if u.busy else "recovering"
        return cut(
            "9.17", en(f"{ref} is not combat-capable now ({what})"), f"{ref} сейчас небоеспособна"
        )
    if (spent := lacks_time(u, NEEDS[Attack])) is not None:
        return spent
    if min(c.chebyshev(target) for c in u.cells) != 1:
        return cut(
            "9.3",
            en(f"{ref} is not beside {target}: it takes no part"),
            f"{ref} не рядом с {target}: в бою не участвует",
        )
    return None


def _defenders(
    state: GameState, defence: Defence, target: Cell, side: str, cuts: list[Cut]
) -> list[list[Member]]:
    """The defender's echelons: the first in the target cell, later ones beside it (9.8c);
    everyone in the cell not named fights in the first."""
    here = [u for u in state.occupants(target) if state.side_of(u.ref) != side]
    echelons: list[list[Member]] = []
    named: set[UnitRef] = set()
    for n, e in enumerate(defence.echelons):
        members: list[Member] = []
        for ref in e:
            m = member_of(state, ref)
            ok = m is not None and state.side_of(m.unit.ref) != side
            if ok and m is not None:
                u = m.unit
                ok = u in here if n == 0 else min(c.chebyshev(target) for c in u.cells) <= 1
            if not ok or m is None:
                cuts.append(
                    cut(
                        "9.8c",
                        en(f"{ref} cannot defend {target} in echelon {n + 1}"),
                        f"{ref} не может оборонять {target} в {n + 1}-м эшелоне",
                    )
                )
                continue
            members.append(m)
            named.add(m.unit.ref)
        if members:
            echelons.append(gather(members))
    missing = [Member(u) for u in here if u.ref not in named]
    if missing:
        if echelons:
            echelons[0] += missing
        else:
            echelons.append(missing)
    return complete(echelons)


__all__ = ["battle", "side_hit"]
