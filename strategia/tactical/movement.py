"""Moving on the table (003 speeds, 003 obstacles; 003 change of front for the free turns).

A turn is a budget of 1: every action spends a part of it. A move's time is its clear going at
the speed of its formation and pace, plus the part made in obstacles at the slowed speed: the
unit is in an obstacle from its leading figures' entering until its last figures have left (a
column has crossed when all its figures have). Positions are exact to a millionth of a cm; the
explanation gives every length, the cells used, and what a ruler reads.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from fractions import Fraction

from strategia.core.i18n import Text
from strategia.explain.trace import Trace, explain, quiet
from strategia.rules import RuleSet
from strategia.tactical import geometry as geo
from strategia.tactical.actions import Done, Mode, Move
from strategia.tactical.data import FRONT, OBSTACLES, SPEEDS, cm, exact, frac, ruler, turns
from strategia.tactical.skirmish import ObstacleKind, Table
from strategia.tactical.units import Arm, Condition, Formation, TacticalError, Unit

INF = Fraction(10**9)
_COUNTED = (ObstacleKind.HEDGE, ObstacleKind.TROOPS)  # counted 1 cm deep (003 obstacles)


@dataclass(frozen=True, slots=True)
class Zone:
    """A stretch of the move [start, end] (cm of travel) during which the unit is in something."""

    start: Fraction
    end: Fraction
    kind: ObstacleKind | None  # None: an enemy unit (contact)
    label: str
    other: str = ""  # the unit passed through, or met
    summit: Fraction | None = None  # a hill: travel at which the leading figures reach its top
    label_ru: str = ""  # the label as Russian writes it ("": as `label`)

    def said(self) -> Text:
        """The label in both languages."""
        return Text(self.label, self.label_ru or self.label)


def _body(u: Unit, bearing: float, rules: RuleSet) -> tuple[float, float, float]:
    """(half frontage across the bearing, nearest and farthest extent along it) of the unit."""
    w, d = u.footprint(rules)
    pts = [geo.local(c, (u.x, u.y), bearing) for c in geo.corners(u.x, u.y, u.facing, w, d)]
    us = [p[0] for p in pts]
    ws = [abs(p[1]) for p in pts]
    return max(ws), min(us), max(us)


def zones(table: Table, u: Unit, bearing: float, rules: RuleSet) -> list[Zone]:
    """Every obstacle, friendly unit and enemy the unit would be in moving along `bearing`."""
    half, lo, hi = _body(u, bearing, rules)
    origin = (u.x, u.y)
    out: list[Zone] = []

    def add(a: float, b: float, kind: ObstacleKind | None, label: str, **kw: object) -> None:
        start, end = exact(a - hi), exact(b - lo)
        if end > 0:
            out.append(Zone(start, end, kind, label, **kw))  # type: ignore[arg-type]

    for ob in table.skirmish.obstacles:
        if ob.kind is ObstacleKind.HEDGE:
            depth = float(frac(rules, "obstacle_rules", "hedge_depth_cm"))
            for c in geo.line_crossings(ob.line, origin, bearing, half):
                add(c, c + depth, ob.kind, ob.label, label_ru=ob.label_ru)
            continue
        ext = geo.band_extent(ob.polygon, origin, bearing, half)
        if ext is None:
            continue
        summit = None
        if ob.kind is ObstacleKind.HILL:
            summit = exact(geo.local(ob.summit(), origin, bearing)[0] - hi)
        add(ext[0], ext[1], ob.kind, ob.label, summit=summit, label_ru=ob.label_ru)
    for other in table.units:
        if other.name == u.name or other.out_of_action:
            continue
        ow, od = other.footprint(rules)
        rect = geo.corners(other.x, other.y, other.facing, ow, od)
        ext = geo.band_extent(rect, origin, bearing, half)
        if ext is None:
            continue
        if other.side != u.side:
            add(ext[0], ext[1], None, other.name, other=other.name)
        elif other.arm is not Arm.ARTILLERY:
            depth = float(frac(rules, "obstacle_rules", "troops_depth_cm"))
            add(ext[0], ext[0] + depth, ObstacleKind.TROOPS, other.name, other=other.name)
        elif other.formation is Formation.UNLIMBERED:
            add(ext[0], ext[1], ObstacleKind.BATTERY, other.name, other=other.name)
    return sorted(out, key=lambda z: z.start)


def _merge(spans: list[tuple[Fraction, Fraction]]) -> list[tuple[Fraction, Fraction]]:
    merged: list[tuple[Fraction, Fraction]] = []
    for a, b in sorted((max(a, Fraction(0)), b) for a, b in spans):
        if merged and a <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], b))
        else:
            merged.append((a, b))
    return merged


def time_for(
    d: Fraction, slowed: list[tuple[Fraction, Fraction]], v: Fraction, k: Fraction
) -> Fraction:
    """Turns to travel d cm when the spans `slowed` go at v × (1 − k) and the rest at v."""
    inside = sum((min(b, d) - a for a, b in slowed if a < d), Fraction(0))
    return (d - inside) / v + inside / (v * (1 - k))


def reach(
    t: Fraction, slowed: list[tuple[Fraction, Fraction]], v: Fraction, k: Fraction
) -> Fraction:
    """How far t turns take the unit (the inverse of `time_for`)."""
    s = Fraction(0)
    for a, b in slowed:
        if a > s:
            need = (a - s) / v
            if t <= need:
                return s + t * v
            t -= need
            s = a
        if b > s:
            need = (b - s) / (v * (1 - k))
            if t <= need:
                return s + t * v * (1 - k)
            t -= need
            s = b
    return s + t * v


def _effect(u: Unit, row: str, rules: RuleSet) -> Condition:
    col = "cavalry" if u.arm is Arm.CAVALRY else "infantry"
    return Condition.from_key(str(rules.value("obstacles", row, col)))


def _exempt(u: Unit, z: Zone, m: Move, rules: RuleSet) -> bool:
    """Crossed as if it were not there: forest and village in march order along roads and
    streets; friendly troops passed in march column through their intervals (003 obstacles)."""
    if z.kind in (ObstacleKind.FOREST, ObstacleKind.VILLAGE) and m.road and u.in_march_order():
        return bool(rules.value("obstacle_rules", "road_in_march"))
    if z.kind is ObstacleKind.TROOPS and u.formation is Formation.MARCH:
        return bool(rules.value("obstacle_rules", "march_through_intervals"))
    return False


def _direction(u: Unit, m: Move, rules: RuleSet, ex: Trace) -> tuple[Unit, float]:
    """The bearing of the move, after any about-face or free turn the rules allow."""
    back = m.mode in (Mode.WITHDRAWAL, Mode.RETREAT)
    base = (u.facing + (180 if back else 0)) % 360
    if m.mode is Mode.RETREAT:
        if u.arm is Arm.CAVALRY and u.formation.closed:
            raise TacticalError(
                f"{u.name}: only infantry retreats keeping closed order (003 change of front)"
            )
        if u.arm is Arm.ARTILLERY and u.formation is not Formation.LIMBERED:
            raise TacticalError(f"{u.name}: a battery retreats limbered (003 change of front)")
        _w, d = u.footprint(rules)
        fx, fy = geo.heading(u.facing)
        ex.step(
            Text(
                "about-face of the figures, no time", "разворот фигурок кругом, без потери времени"
            ),
            rules.value("front_change", "about_face_deg"),
            unit="°",
            rule=FRONT,
        )
        u = u.at(u.x - fx * d, u.y - fy * d, base)
    if m.heading is None or geo.normalize(m.heading - base) == 0:
        return u, base
    turn = geo.normalize(m.heading - base)
    if u.in_march_order() or m.mode is Mode.FLIGHT:
        why = Text("march order needs no change of front", "в походном порядке фронт не меняется")
        if m.mode is Mode.FLIGHT:
            why = Text("fleeing troops run any way", "бегущие бегут в любую сторону")
        ex.step(why, m.heading, unit="°", rule=FRONT)
        return u.at(u.x, u.y, m.heading if not back else (m.heading + 180) % 360), m.heading
    face_deg = float(rules.value("front_change", "square_face_deg"))
    if u.formation is Formation.SQUARE and math.isclose(turn % face_deg, 0, abs_tol=1e-6):
        ex.step(
            Text(
                "a square moves square to any face, no change of front",
                "каре движется перпендикулярно фасу без перемены фронта",
            ),
            m.heading,
            unit="°",
            rule=FRONT,
        )
        return u, m.heading
    raise TacticalError(
        f"{u.name}: moving towards {m.heading:g}° means a change of front first "
        f"(wheel {turn:+g}; 003 change of front)"
    )


def move(
    table: Table,
    name: str,
    m: Move,
    rules: RuleSet,
    *,
    until: Fraction = Fraction(1),
    reserve: Fraction = Fraction(0),
) -> Done:
    """Move a unit: as far as `m.distance`, or as far as the turn allows keeping `reserve` of it
    for what the unit does after; `until` stops the clock earlier (the attacked in phase 2)."""
    u = table.unit(name)
    if u.out_of_action:
        raise TacticalError(f"{u.name} has no figures left")
    if m.mode is Mode.FLIGHT and u.condition is not Condition.ROUTED:
        raise TacticalError(f"{u.name}: only routed troops flee (003 speeds)")
    if u.condition is Condition.ROUTED and m.mode is not Mode.FLIGHT:
        raise TacticalError(f"{u.name} is routed: it flees or rallies (003 formation changes)")
    what = m.mode.text
    head = Text(f"{u.name}: {what.en}", f"{u.name}: {what.ru}")
    with explain(head, rule=SPEEDS, unit="cm") as ex:
        if u.pending is not None:
            ex.step(
                Text(
                    f"busy forming {u.pending.target}", f"занят перестроением ({u.pending.target})"
                ),
                kind="cut",
                rule=SPEEDS,
            )
            ex.set(0)
            return Done(table, ex.freeze(), rest=m if until < 1 else None, cut=until >= 1)
        u, bearing = _direction(u, m, rules, ex)
        row = u.speed_row()
        v = frac(rules, "speeds", row, m.mode.column)
        if v == 0:
            raise TacticalError(
                f"{u.name}: {u.kind_text().en} has no {m.mode.en} pace "
                "(the seed's «--», 003 speeds)"
            )
        end = min(until, 1 - reserve)
        avail = max(Fraction(0), end - u.spent)
        ex.step(
            Text("time for the move", "время на передвижение"),
            turns(avail),
            unit="turn",
            note=Text(
                f"{turns(u.spent)} already spent, {turns(1 - end)} kept for what follows",
                f"уже затрачено {turns(u.spent)}, оставлено на последующее {turns(1 - end)}",
            ),
        )
        with quiet():
            found = zones(table, u, bearing, rules)
        with quiet():
            exempt = [_exempt(u, z, m, rules) for z in found]
            blocked = [
                z
                for z, free in zip(found, exempt, strict=True)
                if z.kind is None
                or (
                    u.arm is Arm.ARTILLERY
                    and not free
                    and rules.value("obstacle_artillery", z.kind.key, "impassable")
                )
            ]
        stop_why = min(blocked, key=lambda z: z.start) if blocked else None
        stop = max(stop_why.start, Fraction(0)) if stop_why is not None else INF
        slowing = [z for z, free in zip(found, exempt, strict=True) if z.kind and not free]
        with quiet():
            k = frac(rules, "slowdown", row, "slowdown") if slowing else Fraction(0)
        spans = _merge([(z.start, z.end) for z in slowing])
        wanted = m.distance if m.distance is not None else INF
        d = min(wanted, reach(avail, spans, v, k), stop)
        cost = time_for(d, spans, v, k)
        if any(z.start < d for z in slowing):
            frac(rules, "slowdown", row, "slowdown")
        for z, free in zip(found, exempt, strict=True):
            if free and z.start < d:
                _exempt(u, z, m, rules)
                ex.step(
                    Text(f"{z.label}: crossed unhindered", f"{z.said().ru}: беспрепятственно"),
                    rule=OBSTACLES,
                    kind="note",
                )
        for kind in sorted(
            {z.kind for z in slowing if z.start < d and z.kind in _COUNTED}, key=str
        ):
            rules.value("obstacle_rules", f"{kind.key}_depth_cm")
        _segments(ex, d, spans, v, k, [z for z in slowing if z.start < d])
        cut = False
        if stop_why is not None and d == stop and stop < wanted:
            cut = True
            why = (
                Text(
                    f"contact with {stop_why.label}: melee is phase 7",
                    f"соприкосновение с {stop_why.said().ru}: рукопашная — этап 7",
                )
                if stop_why.kind is None
                else Text(
                    f"{stop_why.label}: impassable to artillery",
                    f"{stop_why.said().ru}: непреодолимо для артиллерии",
                )
            )
            if stop_why.kind is not None:
                rules.value("obstacle_artillery", stop_why.kind.key, "impassable")
            ex.step(why, cm(stop), unit="cm", rule=OBSTACLES, kind="cut")
        rest = None
        if m.distance is not None and d < m.distance and not cut:
            if until < 1:
                rest = replace(m, distance=m.distance - d, heading=None)
            else:
                cut = True
                ex.step(
                    Text("the rest is beyond this turn", "остаток не успевает в этот ход"),
                    cm(m.distance - d),
                    unit="cm",
                    kind="cut",
                    rule=SPEEDS,
                )
        fx, fy = geo.heading(bearing)
        moved = u.at(u.x + fx * float(d), u.y + fy * float(d))
        moved = replace(moved, spent=u.spent + cost, moved=u.moved + d)
        table = table.with_unit(moved)
        table = _effects(table, moved.name, [z for z in found if z.start < d], d, m, rules, ex)
        by_ruler = cm(ruler(d, rules))
        ex.step(
            Text("distance moved", "пройдено"),
            cm(d),
            unit="cm",
            note=Text(f"≈ {by_ruler} cm by the ruler", f"≈ {by_ruler} см по линейке"),
        )
        ex.step(Text("part of the turn spent", "затрачено хода"), turns(cost), unit="turn")
        ex.set(cm(d))
        return Done(table, ex.freeze(), rest=rest, cut=cut)


def _segments(
    ex: Trace,
    d: Fraction,
    spans: list[tuple[Fraction, Fraction]],
    v: Fraction,
    k: Fraction,
    zs: list[Zone],
) -> None:
    """The move cut into clear going and stretches in obstacles, each with its time."""
    s = Fraction(0)
    for a, b in [*spans, (INF, INF)]:
        if s >= d:
            break
        if a > s:
            e = min(a, d)
            ex.step(
                Text(f"clear going {cm(s)} → {cm(e)} cm", f"без препятствий {cm(s)} → {cm(e)} см"),
                cm(e - s),
                unit="cm",
                rule=SPEEDS,
                note=Text(f"{turns((e - s) / v)} turn", f"{turns((e - s) / v)} хода"),
            )
            s = e
        if s >= d or b == INF:
            continue
        e = min(b, d)
        length = e - s
        clear = length / (1 - k)
        inside = [z.said() for z in zs if z.start < e and z.end > s]
        names = ", ".join(sorted({t.en for t in inside})) or "obstacle"
        names_ru = ", ".join(sorted({t.ru for t in inside})) or "препятствие"
        ex.step(
            Text(
                f"in {names}, {cm(s)} → {cm(e)} cm",
                f"в препятствии ({names_ru}), {cm(s)} → {cm(e)} см",
            ),
            cm(length),
            unit="cm",
            rule=SPEEDS,
            note=Text(
                f"as {cm(clear)} cm of clear going: {cm(clear)} − {cm(clear)} × {turns(k)} = "
                f"{cm(length)}; {turns(clear / v)} turn",
                f"как {cm(clear)} см без препятствий: {cm(clear)} − {cm(clear)} × {turns(k)} = "
                f"{cm(length)}; {turns(clear / v)} хода",
            ),
        )
        s = e


def _effects(
    table: Table, name: str, entered: list[Zone], d: Fraction, m: Move, rules: RuleSet, ex: Trace
) -> Table:
    """What crossing does to the unit's order, and to troops and batteries passed through."""
    u = table.unit(name)
    for z in entered:
        if z.kind is None or _exempt(u, z, m, rules):
            continue
        fresh = z.start >= 0
        if z.other and fresh:
            table = _passed(table, z, rules, ex)
        if u.arm is Arm.ARTILLERY:
            continue
        rows = [z.kind.key] if fresh else []
        if z.kind is ObstacleKind.HILL:
            top = z.summit
            rows = ["hill_up"] if fresh and (top is None or z.start < top) else []
            if top is not None and max(top, Fraction(0)) < min(d, z.end):
                rows.append("hill_down")
        for row in rows:
            after = _effect(u, row, rules)
            if u.condition in (Condition.SCATTERED, Condition.ROUTED) or not u.formation.closed:
                state = u.condition if u.formation.closed else Condition.SCATTERED
                ex.step(
                    Text(
                        f"{z.label}: already {state.en}, only slowed",
                        f"{z.said().ru}: уже {state.ru}, только замедление",
                    ),
                    rule=OBSTACLES,
                    kind="note",
                )
            elif after.rank > u.condition.rank:
                u = replace(u, condition=after)
                ex.step(
                    Text(f"crossing {z.label}", f"преодоление: {z.label}"),
                    after.key,
                    rule=OBSTACLES,
                )
    return table.with_unit(u)


def _passed(table: Table, z: Zone, rules: RuleSet, ex: Trace) -> Table:
    """Troops passed through are disordered; a battery passed through ceases fire."""
    other = table.unit(z.other)
    if (
        z.kind is ObstacleKind.TROOPS
        and rules.value("obstacle_rules", "passed_troops_disordered")
        and other.condition is Condition.FORMED
    ):
        table = table.with_unit(replace(other, condition=Condition.DISORDERED))
        ex.step(
            Text(
                f"{other.name} passed through: disordered",
                f"{other.name}: через строй прошли — расстроен",
            ),
            Condition.DISORDERED.key,
            rule=OBSTACLES,
        )
    if z.kind is ObstacleKind.BATTERY:
        stop = frac(rules, "obstacle_rules", "battery_ceasefire")
        table = table.with_unit(replace(other, ceasefire=max(other.ceasefire, stop)))
        ex.step(
            Text(f"{other.name} ceases fire", f"{other.name} прекращает огонь"),
            turns(stop),
            unit="turn",
            rule=OBSTACLES,
        )
    return table
