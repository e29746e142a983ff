"""The words of a move's decision (`moves`, `advance`): its first line a sentence saying what the
division does and what for («27 т.д. выдвигается на 39,24 для развертывания»), the aim under it.
"""

from __future__ import annotations

from strategia.core.i18n import Text
from strategia.core.numbers import num
from strategia.notation.orders import March, Move, Order, Transfer, Turn
from strategia.players.decision import Decision, Goal, step
from strategia.players.whatif import Tried

# What a move does, as the first line of its reason says it: (en, ru, rule), «на {to}».
_MODE = {
    "forward": ("moves to", "выдвигается на", "4.2"),
    "road": ("moves by road to", "идет по дороге на", "4.1"),
    "withdraw": ("withdraws to", "отходит на", "4.4"),
}
# What for, after it (a turn in place says only where it faces).
_FOR = {
    Goal.DEPLOY: Text(" to deploy", " для развертывания"),
    Goal.REINFORCE: Text(" to reinforce", " для усиления"),
    Goal.ATTACK: Text(" to attack", " для удара"),
    Goal.REGROUP: Text(" to regroup", " для перегруппировки"),
}


def _done(o: Order) -> tuple[Text, str]:
    """What the order does, in words to follow the unit's name, and its rule."""
    if isinstance(o, Move):
        en_, ru, rule = _MODE[o.mode]
        return Text(f"{en_} {o.to}", f"{ru} {o.to}"), rule
    if isinstance(o, Turn):
        return Text(f"turns to face {o.facing.en}", f"поворачивает фронтом на {o.facing.ru}"), "4.3"
    if isinstance(o, Transfer):
        return Text(f"is transferred to {o.to}", f"перебрасывается в {o.to}"), "4.5"
    if isinstance(o, March):
        return Text(f"marches by road to {o.to}", f"идет маршем по дорогам на {o.to}"), "4.8"
    return Text(f"is given «{o.format('en')}»", f"получает приказ «{o.format('ru')}»"), ""


def move_decision(goal: Goal, t: Tried, why: Text, rule: str) -> Decision:
    """A move's decision: its first line a sentence («27 т.д. выдвигается на 39,24 для
    развертывания»), the aim under it. An order that only turns the unit is a turn (4.3),
    whatever it was meant for: its aim says that."""
    o: Order = t.order
    unit = o.unit
    if isinstance(o, Turn):
        goal = Goal.TURN
    after = t.state.units.get(unit)
    parts = [step(Text("aim", "цель"), why, rule=rule)]
    if after is not None and after.busy is not None:
        parts.append(
            step(
                Text("turns it takes", "займет ходов"),
                Text(num(after.busy.left + 1), num(after.busy.left + 1, "ru")),
                rule=rule,
            )
        )
    done, done_rule = _done(o)
    purpose = _FOR.get(goal, Text("", ""))
    label = Text(
        f"{unit.format('en')} {done.en}{purpose.en}", f"{unit.format('ru')} {done.ru}{purpose.ru}"
    )
    reason = step(label, rule=done_rule or rule, children=parts)
    return Decision(goal, o.format("ru"), reason, units=(unit,))


__all__ = ["move_decision"]
