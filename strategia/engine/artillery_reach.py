"""Where a battery reaches and how well it fires there (9.7a, table 11, the level-3 formula).

Level 1: «не далее 30 км», table 2's distance at most `artillery.range_km`. Level 2: wherever
table 11 prints an efficiency for the target's offset along each axis (up to +30 km on each,
not +30/+30). Level 3: wherever the formula -x²/15 - x/3 + 120 (%) is above zero, x the
distance between the cells' centres in km, the same distance the efficiency is taken at.
`artillery.reach_by_efficiency = false` (a house rule) bounds levels 2 and 3 by the level-1
range as well.
"""

from __future__ import annotations

from strategia.core.geometry import Cell
from strategia.core.i18n import Text
from strategia.core.numbers import num
from strategia.explain.trace import Trace
from strategia.rules import RuleSet
from strategia.rules.distances import table_distance
from strategia.rules.english import en


def distance_km(firer: Cell, target: Cell, rules: RuleSet) -> float:
    """The distance in km as table 2 gives it: cells apart (Euclidean, rounded) × the cell."""
    dx, dy = firer.offset(target)
    return table_distance(dx, dy, rules) * float(rules.value("scale", "cell_km"))


def formula_km(firer: Cell, target: Cell, rules: RuleSet) -> float:
    """The distance the level-3 formula takes: between the cells' centres, in km, not rounded."""
    return firer.km(target, float(rules.value("scale", "cell_km")))


def offset_km(firer: Cell, target: Cell, rules: RuleSet) -> tuple[int, int]:
    """The target's offset from the battery along each axis in km, as table 11 reads it."""
    cell = float(rules.value("scale", "cell_km"))
    dx, dy = firer.offset(target)
    return round(abs(dx) * cell), round(abs(dy) * cell)


def by_efficiency(rules: RuleSet) -> bool:
    """Whether the reach is where the efficiency is above zero (levels 2-3) rather than the
    level-1 range."""
    return rules.active("artillery", "reach_by_efficiency") and bool(
        rules.value("artillery", "reach_by_efficiency")
    )


def efficiency(firer: Cell, target: Cell, rules: RuleSet) -> float:
    """Table 11 at level 2, the formula at level 3, as a share (1.2 = 120%); 1 at level 1;
    0 where table 11 prints nothing for the offset or the formula is not above zero."""
    if rules.level >= 3:
        x = formula_km(firer, target, rules)
        a, b, c = (float(rules.value("artillery_formula", k)) for k in "abc")
        return max(0.0, (a * x * x + b * x + c) / 100.0)
    if rules.level >= 2:
        dx, dy = offset_km(firer, target, rules)
        printed = rules.get("artillery_range", f"dy{dy}", f"dx{dx}")
        return max(0.0, float(printed) / 100.0) if printed is not None else 0.0
    return 1.0


def in_range(firer: Cell, target: Cell, rules: RuleSet) -> bool:
    """9.7a: whether a battery at `firer` reaches `target` at this level (the module says how)."""
    if rules.level >= 2 and efficiency(firer, target, rules) <= 0:
        return False
    if by_efficiency(rules):
        return True
    return distance_km(firer, target, rules) <= float(rules.value("artillery", "range_km")) + 1e-9


def explain_reach(ex: Trace, firer: Cell, target: Cell, rules: RuleSet) -> None:
    """The steps of the reach: table 2's distance where the range bounds it, the offset of
    table 11 at level 2, the formula's distance at level 3."""
    if not by_efficiency(rules):
        ex.step(
            Text("distance (table 2)", "дальность (табл. 2)"),
            distance_km(firer, target, rules),
            unit="km",
            rule="9.7a",
        )
    if rules.level == 2:
        dx, dy = offset_km(firer, target, rules)
        ex.step(
            Text("offset of the target along each axis", "смещение цели по каждой оси"),
            Text(
                en(f"+{dx} km in longitude, +{dy} km in latitude"),
                f"+{dx} км по долготе, +{dy} км по широте",
            ),
            rule="table 11",
        )
    elif rules.level >= 3:
        ex.step(
            Text("distance between the cells' centres", "расстояние между центрами клеток"),
            round(formula_km(firer, target, rules), 4),
            unit="km",
            rule="9.7a",
        )


def refusal(gun: str, firer: Cell, target: Cell, rules: RuleSet) -> tuple[str, str]:
    """Why `target` is out of reach of the battery `gun` at `firer`, in English and Russian."""
    if rules.level >= 3 and efficiency(firer, target, rules) <= 0:
        km = formula_km(firer, target, rules)
        return (
            f"{target} is {num(km)} km from {gun} at {firer}: the formula's efficiency there "
            "is not above zero (9.7a, level 3)",
            f"от {gun} в {firer} до {target} — {num(km, 'ru')} км: эффективность по формуле "
            "там не больше нуля (9.7а, 3 уровень)",
        )
    if rules.level == 2 and efficiency(firer, target, rules) <= 0:
        dx, dy = offset_km(firer, target, rules)
        return (
            f"{target} is +{num(dx)} km, +{num(dy)} km from {gun} at {firer}: table 11 prints "
            "no efficiency for that offset (9.7a)",
            f"клетка {target} смещена от {gun} в {firer} на +{num(dx, 'ru')} км, "
            f"+{num(dy, 'ru')} км: в табл. 11 для такого смещения эффективности нет (9.7а)",
        )
    km, most = distance_km(firer, target, rules), float(rules.value("artillery", "range_km"))
    return (
        f"{target} is {num(km)} km from {gun} at {firer}; artillery fires at most "
        f"{num(most)} km (9.7a)",
        f"от {gun} в {firer} до {target} — {num(km, 'ru')} км; артиллерия бьет не дальше "
        f"{num(most, 'ru')} км (9.7а)",
    )


__all__ = [
    "by_efficiency",
    "distance_km",
    "efficiency",
    "explain_reach",
    "formula_km",
    "in_range",
    "offset_km",
    "refusal",
]
