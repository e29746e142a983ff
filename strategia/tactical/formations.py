"""Formation changes, restoring order, limbering (003 formation changes, 003 limbering,
003 obstacles).

A change takes its part of the turn for every pair of figures; a change that needs more than
the turn has left is begun and finishes on the next turn (the unit is busy until then).
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from strategia.core.i18n import Text
from strategia.explain.trace import Trace, explain, quiet, record
from strategia.rules import RuleSet
from strategia.tactical.actions import Done, Form, Restore
from strategia.tactical.data import (
    FORMATIONS,
    IMPOSSIBLE,
    LIMBERING,
    OBSTACLES,
    frac,
    parse_fraction,
    turns,
)
from strategia.tactical.skirmish import Table
from strategia.tactical.units import FORMATIONS as ALLOWED
from strategia.tactical.units import Arm, Condition, Formation, Pending, TacticalError, Unit

F = Formation
_ROWS: dict[frozenset[Formation], str] = {
    frozenset({F.MARCH, F.LINE}): "march_line",
    frozenset({F.MARCH, F.COLUMN}): "march_column",
    frozenset({F.MARCH, F.SQUARE}): "march_column",
    frozenset({F.LINE, F.COLUMN}): "line_column",
    frozenset({F.LINE, F.SQUARE}): "line_column",
    frozenset({F.COLUMN, F.SQUARE}): "column_square",
}
_GUNS: dict[tuple[Formation, Formation], tuple[str, ...]] = {
    (F.LIMBERED, F.UNLIMBERED): ("unlimber",),
    (F.UNLIMBERED, F.LIMBERED): ("limber",),
    (F.UNLIMBERED, F.PROLONGE): ("on_prolonge",),
    (F.PROLONGE, F.UNLIMBERED): ("off_prolonge",),
    (F.LIMBERED, F.PROLONGE): ("unlimber", "on_prolonge"),
    (F.PROLONGE, F.LIMBERED): ("off_prolonge", "limber"),
}


def pairs(figures: int, rules: RuleSet) -> Fraction:
    """Pairs of figures a change is timed by; an odd figure counts as the rule data says."""
    per = int(rules.value("scale", "pair_figures"))
    whole, odd = divmod(figures, per)
    return whole + (frac(rules, "scale", "odd_figure_pairs") if odd else Fraction(0))


def change_time(u: Unit, target: Formation, rules: RuleSet) -> Fraction:
    """The time `u` needs to take `target`, its lookups recorded in the current explanation."""
    if target not in ALLOWED[u.arm]:
        allowed = ", ".join(f.key for f in ALLOWED[u.arm])
        raise TacticalError(f"{u.name}: {u.arm.en} forms {allowed}, not {target.key}")
    if u.arm is Arm.ARTILLERY:
        if target is u.formation:
            return Fraction(0)
        parts = _GUNS[(u.formation, target)]
        total = sum((frac(rules, "limbering", p) for p in parts), Fraction(0))
        if u.lost:
            total += u.lost * frac(rules, "limbering", "per_lost_figure")
        return total
    col = "cavalry" if u.arm is Arm.CAVALRY else "infantry"
    rallying = u.condition in (Condition.SCATTERED, Condition.ROUTED) or u.formation is F.LOOSE
    if target is F.LOOSE:
        row = "closed_loose" if u.formation is not F.LOOSE else ""
    elif rallying:
        row = "loose_closed"
    elif target is u.formation:
        return Fraction(0)
    else:
        row = _ROWS[frozenset({u.formation, target})]
    if not row:
        return Fraction(0)
    cell = rules.value("formation_change", row, col)
    if cell == IMPOSSIBLE:
        raise TacticalError(f"{u.name}: {u.arm.en} cannot form {target.en} (003 formation changes)")
    figures = u.figures
    if u.arm is Arm.CAVALRY and F.COLUMN in (u.formation, target) and row != "loose_closed":
        least = int(rules.value("formation_rules", "cavalry_column_squadrons"))
        if u.squadrons < least:
            raise TacticalError(
                f"{u.name}: a column of squadrons needs {least} squadrons or more "
                "(003 formation changes, *)"
            )
        if row == "line_column":
            figures -= -(-u.figures // u.squadrons)  # the head squadron's figures do not count
    per_pair = parse_fraction(cell)
    with quiet():
        n = pairs(figures, rules)
    if figures != u.figures:
        record(
            Text(
                "figures counted (the head squadron's do not)",
                "фигурок в счет (без головного эскадрона)",
            ),
            figures,
            rule=FORMATIONS,
        )
    record(Text("pairs of figures", "пар фигурок"), turns(n), rule=FORMATIONS)
    total = per_pair * n
    if u.condition is Condition.ROUTED and row == "loose_closed":
        total *= int(rules.value("formation_rules", "routed_factor"))
    return total


def _serve(
    table: Table, u: Unit, target: str, need: Fraction, facing: float | None,
    until: Fraction, ex: Trace, finish: Unit,
) -> Done:  # fmt: skip
    """Spend `need` of the turn: finish now into `finish`, or begin and leave the rest pending."""
    avail = max(Fraction(0), min(until, Fraction(1)) - u.spent)
    if need <= avail:
        done = replace(finish, spent=u.spent + need, changed=True, pending=None)
        if facing is not None:
            done = done.at(done.x, done.y, facing)
        ex.set(turns(need))
        return Done(table.with_unit(done), ex.freeze())
    left = need - avail
    ex.step(
        Text("not finished: left for later", "не завершено: остается на потом"),
        turns(left),
        unit="turn",
        note=Text(f"{turns(avail)} served now", f"{turns(avail)} выполнено сейчас"),
    )
    busy = replace(u, spent=u.spent + avail, changed=True, pending=Pending(target, left, facing))
    ex.set(turns(avail))
    return Done(
        table.with_unit(busy),
        ex.freeze(),
        rest=Form(F.from_key(target), facing) if target != "order" else Restore(),
    )


def form(
    table: Table, name: str, f: Form, rules: RuleSet, *, until: Fraction = Fraction(1)
) -> Done:
    """Change formation (or limber, unlimber, take on or off the prolonges)."""
    u = table.unit(name)
    target = f.formation
    head = Text(
        f"{u.name}: {u.formation.en} → {target.en}", f"{u.name}: {u.formation.ru} → {target.ru}"
    )
    rule = LIMBERING if u.arm is Arm.ARTILLERY else FORMATIONS
    with explain(head, rule=rule, unit="turn") as ex:
        if u.pending is not None:
            if u.pending.target != target.key:
                raise TacticalError(f"{u.name} is busy: finishing {u.pending.target} first")
            ex.step(
                Text("carrying on the change begun", "продолжение начатого перестроения"),
                turns(u.pending.left),
                unit="turn",
            )
            return _serve(
                table,
                u,
                target.key,
                u.pending.left,
                u.pending.facing,
                until,
                ex,
                _formed(u, target),
            )
        need = change_time(u, target, rules)
        if need == 0 and target is u.formation:
            ex.step(
                Text(f"already in {target.en}", f"уже: {target.ru}"), 0, unit="turn", kind="note"
            )
            ex.set(0)
            return Done(table, ex.freeze())
        facing = f.facing
        if facing is not None and not _free_facing(u, target):
            raise TacticalError(
                f"{u.name}: only forming closed order from loose, or unlimbering or limbering, "
                "takes a new facing at no time; wheel instead (003 change of front)"
            )
        ex.step(
            Text("time of the change", "время перестроения"), turns(need), unit="turn", rule=rule
        )
        return _serve(table, u, target.key, need, facing, until, ex, _formed(u, target))


def _formed(u: Unit, target: Formation) -> Unit:
    condition = u.condition
    if u.arm is not Arm.ARTILLERY and (
        u.formation is F.LOOSE or condition in (Condition.SCATTERED, Condition.ROUTED)
    ):
        condition = Condition.FORMED
    return replace(u, formation=target, condition=condition)


def _free_facing(u: Unit, target: Formation) -> bool:
    if u.arm is Arm.ARTILLERY:
        return True
    rallying = u.formation is F.LOOSE or u.condition in (Condition.SCATTERED, Condition.ROUTED)
    return rallying and target.closed


def restore(table: Table, name: str, rules: RuleSet, *, until: Fraction = Fraction(1)) -> Done:
    """Restore order: disordered 1/5 turn whatever the size; scattered as forming from loose
    order (003 obstacles; 003 formation changes)."""
    u = table.unit(name)
    head = Text(f"{u.name}: restoring order", f"{u.name}: восстановление строя")
    with explain(head, rule=OBSTACLES, unit="turn") as ex:
        if u.pending is not None:
            if u.pending.target != "order":
                raise TacticalError(f"{u.name} is busy: finishing {u.pending.target} first")
            return _serve(
                table,
                u,
                "order",
                u.pending.left,
                None,
                until,
                ex,
                replace(u, condition=Condition.FORMED),
            )
        if u.condition is Condition.FORMED:
            ex.step(Text("in order already", "строй в порядке"), 0, unit="turn", kind="note")
            ex.set(0)
            return Done(table, ex.freeze())
        if u.condition is Condition.ROUTED:
            raise TacticalError(
                f"{u.name} is routed: it rallies by forming closed order (form ...)"
            )
        if u.condition is Condition.DISORDERED:
            need = frac(rules, "obstacle_rules", "restore_order")
        else:
            n = pairs(u.figures, rules)
            col = "cavalry" if u.arm is Arm.CAVALRY else "infantry"
            need = frac(rules, "formation_change", "loose_closed", col) * n
            ex.step(
                Text(
                    "scattered: formed as from loose order, pairs",
                    "рассыпанные: построение как из рассыпного строя, пар",
                ),
                turns(n),
                rule=FORMATIONS,
            )
        ex.step(
            Text("time to restore order", "время восстановления строя"), turns(need), unit="turn"
        )
        return _serve(
            table, u, "order", need, None, until, ex, replace(u, condition=Condition.FORMED)
        )


def carry_on(table: Table, name: str, rules: RuleSet) -> Done:
    """At the start of a turn, a change begun earlier takes its time first."""
    u = table.unit(name)
    assert u.pending is not None
    if u.pending.target == "order":
        return restore(table, name, rules)
    return form(table, name, Form(F.from_key(u.pending.target), u.pending.facing), rules)
