"""Which of a scenario's forces take part at the game's level (3.6), and what they may do.

3.6: the neutral Green states field their с.д. at every level; from level 2 their м.д. and пт.д.
join them and the fortresses drawn on the map act, with their garrisons and fixed artillery
(fortresses are a level-2 part of the map, 2.x). A garrison holds its fortress: it never moves.
"""

from __future__ import annotations

from strategia.core.i18n import Text
from strategia.notation.refs import UnitRef
from strategia.rules import RuleSet
from strategia.rules.english import en
from strategia.rules.kinds import DivisionKind
from strategia.theatre.scenario import Scenario

GREEN = "green"


def out_of_play(ref: UnitRef, state_code: str, scenario: Scenario, rules: RuleSet) -> Text | None:
    """Why a division of the scenario takes no part at this level (None if it does)."""
    kind = ref.kind
    if kind is DivisionKind.FORTRESS and not rules.active("fortresses"):
        return Text(
            en(f"{ref}: fortresses act from level 2 (3.6)"),
            f"{ref}: крепости действуют со 2 уровня (3.6)",
        )
    if scenario.state(state_code).side != GREEN or not isinstance(kind, DivisionKind):
        return None
    allowed = rules.entry("neutral_forces").rows
    if kind is DivisionKind.FORTRESS or (
        kind.key in allowed and rules.active("neutral_forces", kind.key)
    ):
        return None
    return Text(
        en(f"{ref}: the Green states field {_listed(rules, 'en')} at level {rules.level} (3.6)"),
        f"{ref}: у «зеленых» на {rules.level} уровне только {_listed(rules, 'ru')} (3.6)",
    )


def _listed(rules: RuleSet, lang: str) -> str:
    kinds = [
        DivisionKind.from_key(k).ru
        for k in rules.entry("neutral_forces").rows
        if k in {d.key for d in DivisionKind} and rules.active("neutral_forces", k)
    ]
    return ", ".join(kinds)


def not_in_play(scenario: Scenario, rules: RuleSet) -> list[Text]:
    """Every division of the scenario left out at this level, with the reason."""
    out = []
    for f in scenario.forces:
        for ref in [*f.deployed_divisions(), *f.reserve_divisions()]:
            if (why := out_of_play(ref, f.state, scenario, rules)) is not None:
                out.append(why)
    return out


def stationary(ref: UnitRef, rules: RuleSet) -> bool:
    """A fortress garrison stays in its fortress (3.6: fixed artillery)."""
    return ref.kind is DivisionKind.FORTRESS and not bool(
        rules.get("fortresses", "garrison_moves", default=False)
    )
