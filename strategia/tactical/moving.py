"""Whether a unit counts as moving this turn (003 speeds, note 3).

«Для того, чтобы считаться двигающимся, отряд должен в ход совершить передвижение в любую
сторону на дистанцию не меньше 2 см, либо совершить перестроение.» The rules that say what it
changes (fire, tests) are lost from the seed: the engine says it of every unit that acts (in the
explanation, the table's JSON and the console), and the mediator applies it to the results
entered.
"""

from __future__ import annotations

from strategia.core.i18n import Text
from strategia.explain.trace import Explained, explain, quiet
from strategia.rules import RuleSet
from strategia.tactical.data import MOVING, cm, frac
from strategia.tactical.units import Unit


def moving(u: Unit, rules: RuleSet) -> Explained[bool]:
    """Whether `u` counts as moving this turn: it moved at least `moving.min_cm` in any
    direction, or changed formation (`moving.formation_change`); and why."""
    head = Text(f"{u.name}: counts as moving", f"{u.name}: считается двигающимся")
    with explain(head, rule=MOVING) as ex:
        least = frac(rules, "moving", "min_cm")
        ex.step(
            Text("moved this turn, in any direction", "пройдено за ход в любую сторону"),
            cm(u.moved),
            unit="cm",
            rule=MOVING,
        )
        formed = bool(rules.value("moving", "formation_change"))
        ex.step(
            Text("changed formation this turn", "перестроение в этот ход"),
            u.changed,
            rule=MOVING,
        )
        yes = u.moved >= least or (formed and u.changed)
        ex.set(yes)
        return ex.explained(yes)


def is_moving(u: Unit, rules: RuleSet) -> bool:
    """`moving`'s answer alone, recorded nowhere (for the table's JSON and the console)."""
    with quiet():
        return moving(u, rules).value


__all__ = ["is_moving", "moving"]
