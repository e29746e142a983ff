"""Reading the tactical rule data: exact fractions, and values as the explanations print them.

The seed writes times and slowdowns as fractions ("1/20 хода", "на 1/3"); the rule data keeps them
as text and every reading goes through `RuleSet.value`, so each lookup lands in the explanation
being built. Fractions keep the seed's worked examples exact (8 × 1/20 = 2/5, 12 × 3/5 = 36/5).
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

from strategia.core.errors import Problem, RuleDataError
from strategia.explain.trace import Value
from strategia.rules import RuleSet, load_ruleset
from strategia.rules.model import VALUE

RULESET = "tactical"
# the seed's sections, as rule ids
SEQUENCE = "003 turn sequence"
SPEEDS = "003 speeds"
MOVING = "003 speeds, note 3"  # «для того, чтобы считаться двигающимся...»
FORMATIONS = "003 formation changes"
FRONT = "003 change of front"
LIMBERING = "003 limbering"
OBSTACLES = "003 obstacles"
LAYOUT = "003 formations"

_FRACTION_ENTRIES = ("slowdown", "formation_change", "limbering")
_FRACTION_PARAMS = (
    ("front_change", "extra_time"),
    ("front_change", "battery_turn"),
    ("obstacle_rules", "battery_ceasefire"),
    ("obstacle_rules", "restore_order"),
)
IMPOSSIBLE = "impossible"


def tactical_rules(house: str | Path | list[str | Path] | None = None) -> RuleSet:
    """The tactical rules with the house-rules file(s) applied; every fraction cell is checked."""
    rules = load_ruleset(RULESET, level=3, house=house)
    check_fractions(rules)
    return rules


def parse_fraction(text: object) -> Fraction:
    """A rule data value as an exact fraction: 10, 1.5, "1/3", "2/5"."""
    if isinstance(text, bool):
        raise ValueError(f"expected a number or a fraction, got {text!r}")
    if isinstance(text, int):
        return Fraction(text)
    if isinstance(text, float):
        return Fraction(repr(text))
    try:
        return Fraction(str(text).strip().replace(" ", ""))
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"expected a number or a fraction such as 1/3, got {text!r}") from None


def check_fractions(rules: RuleSet) -> None:
    """Raise a RuleDataError listing every fraction cell that does not read as one."""
    problems: list[Problem] = []
    cells = [p for key in _FRACTION_ENTRIES for p in rules.entry(key).params()]
    cells += [rules.param(e, r) for e, r in _FRACTION_PARAMS]
    for p in cells:
        if p.value == IMPOSSIBLE:
            continue
        try:
            parse_fraction(p.value)
        except ValueError as e:
            problems.append(Problem(p.key, str(e)))
    if problems:
        raise RuleDataError(" + ".join(rules.sources), problems)


def frac(rules: RuleSet, entry: str, row: str, column: str = VALUE) -> Fraction:
    """The exact value of a cell (recorded in the current explanation)."""
    return parse_fraction(rules.value(entry, row, column))


def exact(x: float | Fraction) -> Fraction:
    """A measured length (from geometry, in floats) as a fraction to a millionth of a cm."""
    if isinstance(x, Fraction):
        return x
    return Fraction(repr(round(x, 6)))


def cm(x: Fraction | float) -> Value:
    """A length as the explanations print it: 4, 7.2, 1.6."""
    f = exact(x)
    if f.denominator == 1:
        return int(f)
    return round(float(f), 3)


def turns(x: Fraction) -> Value:
    """A part of a turn as the seed writes it: 2/5, 1, 0."""
    if x.denominator == 1:
        return int(x)
    if x.denominator > 60:  # a wheel's arc or a measured length: no fraction the seed would write
        return round(float(x), 3)
    return f"{x.numerator}/{x.denominator}"


def to_json_fraction(x: Fraction) -> str:
    return str(x)


def from_json_fraction(x: Any) -> Fraction:
    return parse_fraction(x)


def ruler(x: Fraction, rules: RuleSet) -> Fraction:
    """The distance as a ruler reads it (the seed's examples measure to the half centimetre)."""
    step = parse_fraction(rules.value("scale", "ruler_cm"))
    return round(x / step) * step
