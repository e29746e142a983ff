"""Blows (9.8), artillery fire (9.7) and withdrawals (4.4), each decided by the engine's what-if
on the side's picture (`whatif`): a blow is struck where the engine's force ratio reaches the
style's threshold (the main effort's, or the held front's) and costs at most the style's risk
of the attacking strength; a battery fires on the known enemy in reach it would hurt most, not
on troops in contact with its own (9.7b), else interdicts (9.7d) a road the enemy comes by; a
division withdraws when the enemy beside it would strike it at the style's withdrawal ratio.

A blow takes the divisions beside the target that are free, in one echelon, or, where the
what-if finds it does better, the fewest that suffice in the first echelon and the rest in the
second (9.8c: it enters when the first is spent); at level 2 the unattacked neighbours across
a side of an attacker's cell (10 km, table 2; never across a corner) support it (9.8c), each
once a move. After a cell is taken the attackers advance into it (9.8a); a single attacker is
ordered to pursue beyond it when the what-if finds the way clear.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from strategia.core.geometry import Cell
from strategia.core.i18n import Text
from strategia.core.numbers import num, pct
from strategia.engine.artillery_reach import in_range
from strategia.engine.movement import reach
from strategia.engine.state import GameState, UnitState
from strategia.explain.trace import Step
from strategia.notation.orders import Attack, Move, Strike
from strategia.notation.refs import UnitRef
from strategia.players.decision import Decision, Goal, number, ratio, step, units
from strategia.players.ground import Ground
from strategia.players.picture import Known, Picture
from strategia.players.plan import ATTACKING, Plan
from strategia.players.styles import Style
from strategia.players.whatif import Tried, attempt, rating
from strategia.rules import RuleSet
from strategia.rules.kinds import DivisionKind

MAX_TARGETS = 48  # blows weighed by the engine's what-if in one move, the likeliest first
MAX_SHOTS = 12  # cells weighed for each battery
ORTHOGONAL = ((1, 0), (-1, 0), (0, 1), (0, -1))


def able(u: UnitState) -> bool:
    """Free to act this move: not busy, combat-capable, not on the march, time left."""
    return u.busy is None and u.combat_capable and not u.on_march and u.left > 0


def can_strike(u: UnitState) -> bool:
    return able(u) and u.division.kind in ATTACKING


def beside(u: UnitState, c: Cell) -> bool:
    return min(x.chebyshev(c) for x in u.cells) == 1


def power(u: UnitState, rules: RuleSet) -> float:
    return rating(u.division.kind, rules) * u.division.strength


@dataclass(frozen=True)
class Blow:
    """A blow weighed: its order tried on the picture, the threshold it met, its place."""

    tried: Tried
    threshold: float
    main: bool
    defenders: tuple[Known, ...]
    used: frozenset[UnitRef]

    @property
    def order(self) -> Attack:
        o = self.tried.order
        assert isinstance(o, Attack)
        return o

    @property
    def gain(self) -> float:
        return self.tried.enemy_lost - self.tried.own_lost


def weigh_blows(
    state: GameState,
    picture: Picture,
    plan: Plan,
    ground: Ground,
    rules: RuleSet,
    style: Style,
    side: str,
) -> list[Blow]:
    """Every blow worth striking this move, each weighed alone on `state`, best first."""
    if not plan.fights:
        return []
    own = [u for u in state.units.values() if state.side_of(u.ref) == side]
    strikers = [u for u in own if can_strike(u)]
    targets: dict[Cell, list[Known]] = {}
    for k in picture.enemies:
        if any(state.side_of(o.ref) != side for o in state.occupants(k.cell)):
            targets.setdefault(k.cell, []).append(k)
    ranked = []
    for cell, known in targets.items():
        near = [u for u in strikers if beside(u, cell)]
        if near:
            theirs = sum(rating(k.kind, rules) for k in known) or 1.0
            ranked.append((-sum(power(u, rules) for u in near) / theirs, cell, near, known))
    ranked.sort(key=lambda x: (x[0], x[1].lon, x[1].lat))
    out = []
    for _, cell, near, known in ranked[:MAX_TARGETS]:
        b = _weigh(state, cell, near, own, picture, plan, ground, rules, style, side, known)
        if b is not None:
            out.append(b)
    out.sort(key=lambda b: (-b.gain, b.order.target.lon, b.order.target.lat))
    return out


def _weigh(
    state: GameState,
    cell: Cell,
    near: list[UnitState],
    own: list[UnitState],
    picture: Picture,
    plan: Plan,
    ground: Ground,
    rules: RuleSet,
    style: Style,
    side: str,
    known: list[Known],
) -> Blow | None:
    main = plan.main is not None and plan.main.holds(ground.along(cell))
    threshold = plan.threshold(ground.along(cell), style)
    near = sorted(near, key=lambda u: (-power(u, rules), u.ref.number))
    helpers = _supporters(state, near, own, cell, picture, rules)
    whole = Attack(cell, (tuple(u.ref for u in near),), tuple(u.ref for u in helpers))
    best = _judged(attempt(state, whole, rules, side), near, threshold, style, rules)
    if best is None:
        return None
    r = best.ratio or 0.0
    if len(near) >= 2 and r >= 2 * threshold:
        total = sum(power(u, rules) for u in near)
        need, k, acc = total * 1.3 * threshold / r, 0, 0.0
        while k < len(near) and acc < need:
            acc, k = acc + power(near[k], rules), k + 1
        if k < len(near):
            first, rest = tuple(u.ref for u in near[:k]), tuple(u.ref for u in near[k:])
            two = replace(whole, echelons=(first, rest))
            tried = _judged(attempt(state, two, rules, side), near, threshold, style, rules)
            if tried is not None and tried.enemy_lost - tried.own_lost > best_gain(best):
                best = tried
    if style.pursue and len(near) == 1 and best.outcome == "taken":
        beyond = _beyond(near[0], cell, ground, picture)
        if beyond is not None:
            chase = replace(best.order, pursue=beyond)  # type: ignore[type-var]
            tried = _judged(attempt(state, chase, rules, side), near, threshold, style, rules)
            if tried is not None:
                best = tried
    used = frozenset(u.ref for u in near) | frozenset(u.ref for u in helpers)
    return Blow(best, threshold, main, tuple(known), used)


def best_gain(t: Tried) -> float:
    return t.enemy_lost - t.own_lost


def _judged(
    t: Tried, near: list[UnitState], threshold: float, style: Style, rules: RuleSet
) -> Tried | None:
    """The tried blow if it is worth striking: carried out whole, at the threshold's ratio,
    costing at most the style's risk of the attacking strength."""
    if not t.clean or t.ratio is None or t.ratio < threshold or t.outcome == "beaten_off":
        return None
    strength = sum(power(u, rules) for u in near)
    if strength <= 0 or t.own_lost / strength > style.risk + 1e-9:
        return None
    return t


def _supporters(
    state: GameState,
    attackers: list[UnitState],
    own: list[UnitState],
    target: Cell,
    picture: Picture,
    rules: RuleSet,
) -> list[UnitState]:
    """Level 2 (9.8c): the side's unattacked divisions across a side of an attacker's cell."""
    if not rules.active("battle", "support_radius_km"):
        return []
    taken = {u.ref for u in attackers}
    cells = {
        Cell(c.lon + dx, c.lat + dy) for u in attackers for c in u.cells for dx, dy in ORTHOGONAL
    }
    out = []
    for u in own:
        if u.ref in taken or u.ref in picture.engaged or u.busy is not None:
            continue
        if target in u.cells or not any(c in cells for c in u.cells):
            continue
        out.append(u)
    return sorted(out, key=lambda u: u.ref.number)


def _beyond(u: UnitState, target: Cell, ground: Ground, picture: Picture) -> Cell | None:
    """The cell beyond the one taken, the way the attacker strikes, if it is free ground of the
    enemy with no enemy known on or beside it."""
    d = (target.lon - u.cell.lon, target.lat - u.cell.lat)
    c = Cell(target.lon + d[0], target.lat + d[1])
    if not ground.on_map(c) or not ground.at(ground.enemy, c) or not ground.at(ground.land, c):
        return None
    if any(x.chebyshev(c) <= 1 for k in picture.enemies for x in k.cells if k.cell != target):
        return None
    return c


def choose_blows(blows: Iterable[Blow]) -> list[Blow]:
    """The blows to strike: the best first, none sharing a division."""
    used: set[UnitRef] = set()
    out = []
    for b in blows:
        if b.used & used:
            continue
        used |= b.used
        out.append(b)
    return out


def blow_decision(b: Blow, t: Tried) -> Decision:
    """The decision of a blow as it was tried in its turn."""
    o = t.order
    assert isinstance(o, Attack)
    goal = Goal.PURSUE if o.pursue is not None else Goal.ATTACK
    parts = [_knowledge(b.defenders)]
    parts.append(
        step(
            Text(
                "force ratio by the engine's battle (first echelons)",
                "соотношение сил по расчету боя (первые эшелоны)",
            ),
            ratio(t.ratio or 0.0),
            rule="9.8",
            note=Text(f"at least {num(b.threshold)}", f"не менее {num(b.threshold, 'ru')}"),
        )
    )
    where = (
        Text("the main effort", "главный удар")
        if b.main
        else Text("the front held", "удерживаемый фронт")
    )
    parts.append(step(Text("the threshold of", "порог для"), where, rule="5.4"))
    parts.append(_losses(t))
    if len(o.echelons) > 1:
        parts.append(
            step(
                Text("second echelon", "второй эшелон"),
                units(o.echelons[1]),
                rule="9.8c",
                note=Text("enters when the first is spent", "вступает, когда первый иссякнет"),
            )
        )
    if o.support:
        parts.append(
            step(
                Text("supported by its neighbours", "поддержка соседей"),
                units(o.support),
                rule="9.8c",
                note=Text("across a side of the cell, 10 km", "через сторону клетки, 10 км"),
            )
        )
    if o.pursue is not None:
        parts.append(
            step(
                Text("pursuit beyond the cell taken", "преследование за взятую клетку"),
                Text(str(o.pursue)),
                rule="9.8a",
            )
        )
    label = Text(f"blow on {o.target}", f"удар по {o.target}")
    reason = step(label, goal.text, rule="9.8", children=parts)
    return Decision(goal, o.format("ru"), reason, units=(*o.attackers, *o.support))


def _knowledge(known: Iterable[Known]) -> Step:
    ways = {
        "contact": Text("in contact", "в соприкосновении"),
        "open": Text("in the open", "на открытом участке"),
        "cover": Text("by position", "по расположению"),
        "memory": Text("seen earlier", "замечена ранее"),
        "answer": Text("answered", "по ответу разведки"),
    }
    items = []
    for k in known:
        name = k.ref.format("en") if k.ref else f"a {k.kind.en}"
        name_ru = k.ref.format("ru") if k.ref else k.kind.ru
        how = ways.get(k.how, Text(k.how))
        items.append(
            step(
                Text(f"known: {name} at {k.cell}", f"известна {name_ru} в {k.cell}"),
                how,
                rule="8.2",
                note=None if k.kind_known else Text("taken as a RD", "принята за с.д."),
            )
        )
    label = Text("the enemy there, at full strength", "противник там, в полной численности")
    return step(label, len(items), rule="8.1", children=items)


def _losses(t: Tried) -> Step:
    return step(
        Text("expected losses (divisions of rating)", "ожидаемые потери (в дивизиях рейтинга)"),
        Text(
            f"enemy {num(t.enemy_lost)}, own {num(t.own_lost)}",
            f"противник {num(t.enemy_lost, 'ru')}, свои {num(t.own_lost, 'ru')}",
        ),
        rule="9.8c",
    )


# --- artillery ------------------------------------------------------------------------------------


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
            t = attempt(state, Strike(gun.ref, c), rules, side)
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
        _knowledge(known),
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
    label = Text(f"fire on {o.target}", f"огонь по {o.target}")
    reason = step(label, Goal.STRIKE.text, rule="9.7", children=parts)
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
        _knowledge([k]),
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
    label = Text(f"interdiction fire on {cell}", f"огонь на отсечение по {cell}")
    reason = step(label, Goal.STRIKE.text, rule="9.7d", children=parts)
    return t.state, Decision(Goal.STRIKE, t.order.format("ru"), reason, units=(gun.ref,))


# --- withdrawal -----------------------------------------------------------------------------------


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
    foes = [k for k in picture.enemies if k.kind in ATTACKING]
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
        refs = [
            o.ref
            for k in foes
            if beside(u, k.cell)
            for o in state.occupants(k.cell)
            if state.side_of(o.ref) != side and o.division.kind in ATTACKING
        ]
        refs = list(dict.fromkeys(refs))
        if not refs:
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
        known = [k for k in foes if beside(u, k.cell)]
        out.append(_withdraw_decision(moved, threat, share, style, known))
    return state, out


def danger(
    state: GameState, u: UnitState, picture: Picture, rules: RuleSet, side: str
) -> Tried | None:
    """The enemy's blow on `u` by every enemy division it knows of beside it, as the engine
    would fight it (None: no enemy that can strike stands beside it)."""
    refs = [
        o.ref
        for k in picture.enemies
        if k.kind in ATTACKING and beside(u, k.cell)
        for o in state.occupants(k.cell)
        if state.side_of(o.ref) != side and o.division.kind in ATTACKING
    ]
    refs = list(dict.fromkeys(refs))
    if not refs:
        return None
    them = state.side_of(refs[0])
    blow = Attack(u.cell, (tuple(r for r in refs if state.side_of(r) == them),))
    return attempt(state, blow, rules, them)


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
    label = Text(f"{o.unit.format('en')} withdraws", f"{o.unit.format('ru')} отходит")
    reason = step(label, Goal.WITHDRAW.text, rule="4.4", children=parts)
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
        options.append(
            (-gap, not touching, not ground.at(ground.own, c), r.cost_to(c), c.lon, c.lat, c)
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
        _knowledge(known),
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
    label = Text(f"{o.unit.format('en')} withdraws", f"{o.unit.format('ru')} отходит")
    reason = step(label, Goal.WITHDRAW.text, rule="4.4", children=parts)
    return Decision(Goal.WITHDRAW, o.format("ru"), reason, units=(o.unit,))


__all__ = ["Blow", "able", "blow_decision", "choose_blows", "fire", "weigh_blows", "withdrawals"]
