"""Distances between cells as tables 2 and 3 give them: Euclidean, rounded to the table's step."""

from __future__ import annotations

import math

from strategia.core.geometry import round_to
from strategia.rules.model import RuleSet


def table_distance(dx: int, dy: int, rules: RuleSet, *, diagonal: bool = False) -> float:
    """Cells between cells `dx`, `dy` apart: table 2, or table 3 for a counter set at 45°."""
    entry = "distances_45" if diagonal else "distances"
    step = float(rules.value(entry, "step"))
    return round_to(math.hypot(dx, dy), step)
