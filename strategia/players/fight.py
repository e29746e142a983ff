"""Blows (9.8), decided by the engine's what-if on the side's picture (`whatif`): a blow is
struck where the engine's force ratio reaches the style's threshold (the main effort's, or the
held front's) and costs at most the style's risk of the attacking strength.

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
from strategia.core.numbers import num
from strategia.engine.state import GameState, UnitState
from strategia.explain.trace import Step
from strategia.notation.orders import Attack
from strategia.notation.refs import UnitRef
from strategia.players.decision import Decision, Goal, ratio, step, units
from strategia.players.ground import Ground
from strategia.players.picture import Known, Picture
from strategia.players.plan import ATTACKING, Plan
from strategia.players.styles import Style
from strategia.players.whatif import Tried, attempt, rating
from strategia.rules import RuleSet

MAX_TARGETS = 48  # blows weighed by the engine's what-if in one move, the likeliest first
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
    striking = {u.ref for u in strikers}
    for cell, known in targets.items():
        near = [
            u
            for u in state.beside([cell])
            if u.ref in striking and beside(u, cell) and state.side_of(u.ref) == side
        ]
        near = list({u.ref: u for u in near}.values())
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
    best = _judged(attempt(state, whole, rules, side, losses=True), near, threshold, style, rules)
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
            tried = _judged(
                attempt(state, two, rules, side, losses=True), near, threshold, style, rules
            )
            if tried is not None and tried.enemy_lost - tried.own_lost > best_gain(best):
                best = tried
    if style.pursue and len(near) == 1 and best.outcome == "taken":
        beyond = _beyond(near[0], cell, ground, picture)
        if beyond is not None:
            chase = replace(best.order, pursue=beyond)  # type: ignore[type-var]
            tried = _judged(
                attempt(state, chase, rules, side, losses=True), near, threshold, style, rules
            )
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


def assign(
    state: GameState,
    picture: Picture,
    cells: Iterable[Cell],
    rules: RuleSet,
    side: str,
    units: Iterable[UnitState],
    reach: int = 8,
    need: float = 3.0,
) -> dict[UnitRef, Cell]:
    """The blows the main effort gathers for (5.4): each of the side's `units` given the enemy
    cell within `reach` cells it is nearest to (then by longitude and latitude) among those
    that still need strength, a cell needing `need` times the rating of the enemy known on and
    beside it, counting the side's divisions already beside it."""
    targets = sorted(set(cells), key=lambda c: (c.lon, c.lat))
    want: dict[Cell, float] = {}
    for c in targets:
        theirs = sum(rating(k.kind, rules) for k in picture.beside([c])) or 1.0
        there = sum(
            power(u, rules)
            for u in state.beside([c])
            if state.side_of(u.ref) == side and can_strike(u) and beside(u, c)
        )
        want[c] = need * theirs - there
    out: dict[UnitRef, Cell] = {}
    pending = sorted(units, key=lambda u: (min((u.cell.chebyshev(c) for c in targets), default=0),
                                           u.ref.number))  # fmt: skip
    for u in pending:
        open_ = [c for c in targets if want[c] > 0 and u.cell.chebyshev(c) <= reach]
        if not open_:
            continue
        c = min(open_, key=lambda c: (u.cell.chebyshev(c), c.lon, c.lat))
        out[u.ref] = c
        want[c] -= power(u, rules)
    return out


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
    parts = [knowledge(b.defenders)]
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
        Text("of the main effort", "главного удара")
        if b.main
        else Text("of the front held", "удерживаемого фронта")
    )
    parts.append(step(Text("the threshold", "порог"), where, rule="5.4"))
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
    who, one = units(o.attackers), len(o.attackers) == 1
    label = Text(
        f"{who.en} {'strikes' if one else 'strike'} the enemy at {o.target}",
        f"{who.ru} {'наносит' if one else 'наносят'} удар по {o.target}",
    )
    if o.pursue is not None:
        label = Text(
            f"{label.en} and {'pursues' if one else 'pursue'} to {o.pursue}",
            f"{label.ru} с преследованием до {o.pursue}",
        )
    reason = step(label, rule="9.8", children=parts)
    return Decision(goal, o.format("ru"), reason, units=(*o.attackers, *o.support))


def knowledge(known: Iterable[Known]) -> Step:
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


__all__ = ["Blow", "able", "assign", "blow_decision", "choose_blows", "knowledge", "weigh_blows"]
