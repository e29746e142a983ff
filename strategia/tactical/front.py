"""Change of front (003 change of front): a formed unit wheels about its front corner figure,
the opposite front corner figure's arc taken off the turn's movement; march order, a square to a
face, a skirmish line's about-face and a battery in position (any angle in half a turn) are the
exceptions.
"""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction

from strategia.core.i18n import Text
from strategia.explain.trace import explain, quiet
from strategia.rules import RuleSet
from strategia.tactical import geometry as geo
from strategia.tactical.actions import Done, Face
from strategia.tactical.data import FRONT, cm, exact, frac, turns
from strategia.tactical.skirmish import Table
from strategia.tactical.units import Arm, Formation, Unit


def face(
    table: Table, name: str, f: Face, rules: RuleSet, *, until: Fraction = Fraction(1)
) -> Done:
    """Change of front: wheel about the front corner figure, or the exceptions (003 change of
    front): march order, a square to a face, an infantry skirmish line's about-face, a battery
    in position (1/2 turn any angle)."""
    u = table.unit(name)
    target = (f.bearing if f.bearing is not None else u.facing + (f.angle or 0)) % 360
    angle = geo.normalize(target - u.facing)
    head = Text(f"{u.name}: change of front {angle:+g}°", f"{u.name}: перемена фронта {angle:+g}°")
    with explain(head, rule=FRONT, unit="turn") as ex:
        if u.pending is not None:
            ex.step(Text("busy forming", "занят перестроением"), kind="cut", rule=FRONT)
            ex.set(0)
            return Done(table, ex.freeze(), rest=f if until < 1 else None, cut=until >= 1)
        with quiet():
            free = free_turn(u, angle, rules)
        if angle == 0 or free is not None:
            ex.step(free or Text("no change", "без изменения"), 0, unit="turn", rule=FRONT)
            table = table.with_unit(u.at(u.x, u.y, target))
            ex.set(0)
            return Done(table, ex.freeze())
        avail = max(Fraction(0), min(until, Fraction(1)) - u.spent)
        if u.arm is Arm.ARTILLERY and u.formation is Formation.UNLIMBERED:
            need = frac(rules, "front_change", "battery_turn")
            if need > avail:
                ex.step(
                    Text("not enough of the turn left", "не хватает времени хода"),
                    turns(avail),
                    unit="turn",
                    kind="cut",
                )
                ex.set(0)
                return Done(table, ex.freeze(), rest=f if until < 1 else None, cut=until >= 1)
            table = table.with_unit(replace(u.at(u.x, u.y, target), spent=u.spent + need))
            ex.set(turns(need))
            return Done(table, ex.freeze())
        w, _ = u.footprint(rules)
        v = frac(rules, "speeds", u.speed_row(), "forward")
        frac(rules, "front_change", "extra_time")
        arc = exact(w * math.radians(abs(angle)))
        ex.step(
            Text(
                f"the opposite front corner figure wheels {abs(angle):g}° on a front of {w:g} cm",
                f"противоположная крайняя фигурка описывает дугу {abs(angle):g}° "
                f"при фронте {w:g} см",
            ),
            cm(arc),
            unit="cm",
            rule=FRONT,
        )
        need = arc / v
        ex.step(
            Text(
                f"time: {cm(arc)} cm at {cm(v)} cm a turn",
                f"время: {cm(arc)} см при {cm(v)} см за ход",
            ),
            turns(need),
            unit="turn",
            rule=FRONT,
        )
        rest = None
        cut = False
        if need > avail:
            part = float(avail * v) / w if w else 0.0
            done_angle = math.copysign(math.degrees(part), angle)
            ex.step(
                Text("wheeled as far as the time allows", "захождение насколько хватило времени"),
                round(done_angle, 3),
                unit="°",
                kind="cut",
            )
            if until < 1:
                rest = Face(bearing=target)
            else:
                cut = True
            angle, need = done_angle, avail
        x, y, new_facing, pivot, _ = geo.wheel(u.x, u.y, u.facing, w, angle)
        ex.step(
            Text("pivot (front corner figure)", "ось (крайняя передняя фигурка)"),
            f"{pivot[0]:.1f}, {pivot[1]:.1f}",
            rule=FRONT,
        )
        table = table.with_unit(
            replace(
                u.at(x, y, new_facing),
                spent=u.spent + need,
                moved=u.moved + exact(w * math.radians(abs(angle))),
            )
        )
        ex.set(turns(need))
        return Done(table, ex.freeze(), rest=rest, cut=cut)


def free_turn(u: Unit, angle: float, rules: RuleSet) -> Text | None:
    """Why this change of front costs nothing, if it does not."""
    if u.in_march_order():
        return Text(
            "march order: no change of front needed", "походный порядок: перемена фронта не нужна"
        )
    if u.formation is Formation.SQUARE:
        face_deg = float(rules.value("front_change", "square_face_deg"))
        if math.isclose(angle % face_deg, 0, abs_tol=1e-6):
            return Text("a square faces every way", "каре: фронт на любой фас")
    about = float(rules.value("front_change", "about_face_deg"))
    if u.arm is Arm.INFANTRY and u.formation is Formation.LOOSE and math.isclose(abs(angle), about):
        return Text(
            "a skirmish line faces about at no time", "цепь разворачивается без потери времени"
        )
    return None
