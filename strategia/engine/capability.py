"""Work that takes a unit's time over several turns, and whether the unit can fight meanwhile.

A unit at work is `busy` (`Busy.what`: turning, crossing, frontage, march, transfer, recovering,
regrouping, collided). Rule 9.17 is cut; the rule data (`combat_capability`) lists the states the
rules send to it: in transit (4.5), recovering after a transfer or a march (4.5, 4.8), regrouping
(4.10) and collided (4.12). A unit in one of them is not combat-capable and defends at
`battle.not_combat_capable` times its rating; turning or crossing a river only takes time.

Work with a whole turn or more still to do at the start of a turn takes that whole turn: it ends
with the turn, and the unit is as the work leaves it (not combat-capable, if 9.17 covers it) until
its next turn begins. Work with less than a turn to do ends within the turn.
"""

from __future__ import annotations

from dataclasses import replace

from strategia.engine.state import Busy, UnitState
from strategia.rules import RuleSet

EPS = 1e-9


def capable(what: str, rules: RuleSet) -> bool:
    """Whether a unit busy with `what` can fight (9.17, as the rule data lists the states)."""
    rows = rules.entry("combat_capability").rows
    return what not in rows or not bool(rules.value("combat_capability", what, "not_capable"))


def at_work(u: UnitState, busy: Busy | None, rules: RuleSet) -> UnitState:
    """The unit busy with `busy` (free if None), combat-capable as the rule data says."""
    ok = busy is None or capable(busy.what, rules)
    return replace(u, busy=busy, combat_capable=ok)


def carry_on(u: UnitState, rules: RuleSet) -> tuple[UnitState, bool]:
    """A turn of the unit's work (the unit's time already reset): the unit, and whether the work
    is over (its effect is then the caller's to apply)."""
    b = u.busy
    assert b is not None
    if b.left > 1.0 + EPS:
        return replace(u, spent=1.0, busy=replace(b, left=round(b.left - 1.0, 9))), False
    if b.left > 1.0 - EPS:  # a whole turn to go: it takes this turn, and ends with it
        return replace(u, spent=1.0, busy=replace(b, left=0.0)), False
    done = at_work(replace(u, spent=round(max(b.left, 0.0), 9)), None, rules)
    return done, True
