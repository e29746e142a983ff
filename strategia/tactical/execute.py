"""Carrying out a unit's planned actions in order, within the turn's budget.

"As far as possible" moves keep back the time the unit's later actions need (seed: the battalion
that will form square, 2/5 of a turn, moves only 3/5 of a turn first). A clock stop (`until`)
lets the attacked carry out only the part of their plans the attack's part of the turn covers
(phase 2); what is left of a plan is returned for later.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from strategia.explain.trace import Step, quiet
from strategia.rules import RuleSet
from strategia.tactical.actions import Action, Done, Face, Form, Move, Restore
from strategia.tactical.data import exact, frac
from strategia.tactical.formations import change_time, form, pairs, restore
from strategia.tactical.front import face, free_turn
from strategia.tactical.geometry import normalize
from strategia.tactical.movement import move
from strategia.tactical.moving import moving
from strategia.tactical.skirmish import Table
from strategia.tactical.units import Arm, Condition, Formation, TacticalError


def perform(
    table: Table,
    name: str,
    action: Action,
    rules: RuleSet,
    *,
    until: Fraction = Fraction(1),
    reserve: Fraction = Fraction(0),
) -> Done:
    """One action of one unit."""
    if isinstance(action, Move):
        return move(table, name, action, rules, until=until, reserve=reserve)
    if isinstance(action, Face):
        return face(table, name, action, rules, until=until)
    if isinstance(action, Form):
        return form(table, name, action, rules, until=until)
    return restore(table, name, rules, until=until)


def fixed_time(table: Table, name: str, action: Action, rules: RuleSet) -> Fraction:
    """The time an action other than a move will take (0 if it cannot be told beforehand)."""
    u = table.unit(name)
    with quiet():
        try:
            if isinstance(action, Form):
                if u.pending is not None and u.pending.target == action.formation.key:
                    return u.pending.left
                return change_time(u, action.formation, rules)
            if isinstance(action, Restore):
                if u.pending is not None and u.pending.target == "order":
                    return u.pending.left
                if u.condition is Condition.DISORDERED:
                    return frac(rules, "obstacle_rules", "restore_order")
                if u.condition is Condition.SCATTERED:
                    col = "cavalry" if u.arm is Arm.CAVALRY else "infantry"
                    per = frac(rules, "formation_change", "loose_closed", col)
                    return per * pairs(u.figures, rules)
                return Fraction(0)
            if isinstance(action, Face):
                target = (
                    action.bearing if action.bearing is not None else u.facing + (action.angle or 0)
                )
                angle = normalize(target - u.facing)
                if angle == 0 or free_turn(u, angle, rules) is not None:
                    return Fraction(0)
                if u.arm is Arm.ARTILLERY and u.formation is Formation.UNLIMBERED:
                    return frac(rules, "front_change", "battery_turn")
                w, _ = u.footprint(rules)
                v = frac(rules, "speeds", u.speed_row(), "forward")
                return exact(w * math.radians(abs(angle))) / v if v else Fraction(0)
        except TacticalError:
            return Fraction(0)
    return Fraction(0)


@dataclass(frozen=True)
class Carried:
    """A plan carried out (as far as it went): the table, each action's explanation, the rest."""

    table: Table
    steps: tuple[Step, ...]
    rest: tuple[Action, ...]


def carry_out(
    table: Table,
    name: str,
    actions: tuple[Action, ...],
    rules: RuleSet,
    *,
    until: Fraction = Fraction(1),
    later: tuple[Action, ...] = (),
) -> Carried:
    """Carry out `actions` in order; `later` are actions planned for later in the turn (after
    fire), whose time the moves keep back as well. Then whether the unit counts as moving
    (003 speeds, note 3), in the current explanation."""
    steps: list[Step] = []
    rest: tuple[Action, ...] = ()
    for i, action in enumerate(actions):
        after = (*actions[i + 1 :], *later)
        reserve = sum((fixed_time(table, name, a, rules) for a in after), Fraction(0))
        done = perform(table, name, action, rules, until=until, reserve=reserve)
        table = done.table
        steps.append(done.explanation)
        if done.rest is not None:
            rest = (done.rest, *actions[i + 1 :])
            break
    if actions:
        moving(table.unit(name), rules)
    return Carried(table, tuple(steps), rest)
