"""Distances on the grid (tables 2 and 3): Euclidean distances in cells, rounded as the rules do."""

from __future__ import annotations

import math

from strategia.rules import RuleSet


def round_to(value: float, step: float) -> float:
    """`value` rounded to the nearest multiple of `step` (halves away from zero)."""
    return math.floor(value / step + 0.5) * step


def table_distance(dx: int, dy: int, rules: RuleSet, *, diagonal: bool = False) -> float:
    """Cells between cells `dx`, `dy` apart: table 2, or table 3 for a counter set at 45°."""
    entry = "distances_45" if diagonal else "distances"
    step = float(rules.value(entry, "step"))
    return round_to(math.hypot(dx, dy), step)
