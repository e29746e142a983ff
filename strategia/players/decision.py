"""A computer player's decision: the order it gives (in journal notation, or none), its goal and
its reason, a tree of steps like the engine's explanations (`strategia.explain.trace.Step`),
rendered in Russian and English by the same renderers.

    Decision(Goal.ATTACK, "удар по 45,23: 17 с.д., 18 с.д. при поддержке 51 а.д.", reason)

The reason's first line is a sentence saying what is done and what for («27 т.д. выдвигается на
39,24 для развертывания», «2 с.д. поворачивает фронтом на юг»), never the goal's name set against
itself; the lines under it give the estimate it used («известна 2 с.д. в 45,23»; «соотношение по
расчету боя 2,4 : 1 ≥ 1,5») and the rule ids; it names only what the side knows.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from strategia.core.i18n import Lang, Text
from strategia.core.numbers import num
from strategia.core.vocab import Kind
from strategia.explain.render import explanation_text
from strategia.explain.trace import Step, Value
from strategia.notation.refs import UnitRef


class Goal(Kind):
    """What a decision is for."""

    PLAN = ("plan", "замысел", "plan")
    DEPLOY = ("deploy", "развертывание", "deploy")
    HOLD = ("hold", "удержание", "hold")
    ATTACK = ("attack", "удар", "attack")
    PURSUE = ("pursue", "преследование", "pursue")
    STRIKE = ("strike", "огонь", "artillery fire")
    WITHDRAW = ("withdraw", "отход", "withdraw")
    REGROUP = ("regroup", "перегруппировка", "regroup")
    TURN = ("turn", "поворот", "turn")  # a turn in place (4.3): no move, no blow
    REINFORCE = ("reinforce", "усиление", "reinforce")
    RECONNOITRE = ("reconnoitre", "разведка", "reconnoitre")

    @property
    def text(self) -> Text:
        return Text(self.en, self.ru)


@dataclass(frozen=True)
class Decision:
    """One decision: its goal, the order in notation (None: a decision that gives none, such
    as the plan of the move or a question asked), and the reason."""

    goal: Goal
    order: str | None
    reason: Step
    question: str | None = None  # a reconnaissance question asked (8.3)
    units: tuple[UnitRef, ...] = ()  # the side's units the order gives work to

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"goal": self.goal.key, "reason": self.reason.to_json()}
        if self.question is not None:
            d["question"] = self.question
        return d

    def lines(self, lang: Lang = "ru") -> list[str]:
        """The reason in words, a line a step."""
        return explanation_text(self.reason, lang)

    def text(self, lang: Lang = "ru") -> str:
        return "\n".join(self.lines(lang))


def step(
    label: Text,
    value: Value = None,
    *,
    rule: str = "",
    unit: str = "",
    children: Iterable[Step] = (),
    kind: str = "step",
    note: Text | None = None,
) -> Step:
    """A step of a reason."""
    return Step(label, value, unit, rule, note, kind, tuple(children))


def ratio(x: float) -> Text:
    """A force ratio as a mediator writes it: «2,4 : 1»."""
    return Text(f"{num(x, 'en')} : 1", f"{num(x, 'ru')} : 1")


def units(refs: Iterable[UnitRef]) -> Text:
    """Units named as the journal names them: «17 с.д., 18 с.д.»."""
    refs = list(refs)
    return Text(", ".join(r.format("en") for r in refs), ", ".join(r.format("ru") for r in refs))


def number(x: float) -> Text:
    return Text(num(x, "en"), num(x, "ru"))


__all__ = ["Decision", "Goal", "number", "ratio", "step", "units"]
