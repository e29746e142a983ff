"""A side's losses: the forces destroyed or taken away from it, as the journal records them.

The one definition the course of the war (`strategia.game.course`), the score
(`strategia.game.scoring`) and everything that reads them (the charts, the game's report, the
balance sweeps) use:

- a unit's loss in a result is its strength before less its strength after, in divisions
  (0 after when destroyed), weighed by the level-1 rating of its division's kind (9.6, table
  ``initial_ratings``, as `scoring.strength_of` weighs the forces);
- the units hit in a result are those of its battle's or strike's record (`Result.battle`: a
  battle, 9.8; an artillery strike, 9.7a-b, which in contact hits every side) and those its
  interdiction fire hit on the move or in a column (`Result.losses`, 9.7d); a unit fighting in
  parts is counted once;
- a unit's side is the one its record names (a strike's), else its role's: the attacker's or
  the defender's side of the battle;
- a side's losses in a turn are the sum over the results of that turn, and its losses so far
  the sum over every result.

Arrivals are never losses: reserves mobilised (6.4) are `reinforcements`, the forces of the
divisions new in a position that the scenario's mobilisation plan brings.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from strategia.engine.battle_record import BattleRecord, Fighting
from strategia.engine.result import Result, UnitLoss
from strategia.engine.state import GameState
from strategia.game.past import ResultRow
from strategia.rules import RuleSet
from strategia.rules.kinds import DivisionKind

ROUND = 6  # the figures' decimals, as the course keeps them


def rating(kind: str | DivisionKind, rules: RuleSet) -> float:
    """The level-1 rating of a division kind (9.6, ``initial_ratings``), given as the kind or
    as the seeds write it (с.д., т.д. ...)."""
    key = kind.key if isinstance(kind, DivisionKind) else DivisionKind.parse(kind).key
    return float(rules.param("initial_ratings", key, "rating").value)


def side_of(record: BattleRecord, unit: Fighting) -> str:
    """The side of a unit in a battle's or a strike's record: the one the record names, else
    the side of its role (attacker, defender)."""
    if unit.side:
        return unit.side
    return record.attacker if unit.role == "attacker" else record.defender


def hit(result: Result) -> tuple[UnitLoss, ...]:
    """Every unit the result hit, once each, with its side and its strength before and after:
    its battle's or strike's record, then its interdiction fire (`Result.losses`)."""
    out: list[UnitLoss] = []
    rec = result.battle
    if rec is not None:
        seen: set[str] = set()
        for u in rec.units:
            if u.unit in seen:  # a division fighting in parts: its strengths are the whole's
                continue
            seen.add(u.unit)
            rule = "9.7a" if rec.outcome == "strike" else "9.8c"
            out.append(UnitLoss(u.unit, side_of(rec, u), u.kind, u.strength_before,
                                u.strength_after, rule, u.cell or rec.target))  # fmt: skip
    return (*out, *result.losses)


def of_result(result: Result, rules: RuleSet) -> dict[str, float]:
    """Each side's loss in one result (the sides it hit; see the module)."""
    out: dict[str, float] = defaultdict(float)
    for u in hit(result):
        drop = u.strength_before - u.strength_after
        if drop > 0:
            out[u.side] += rating(u.kind, rules) * drop
    return {s: round(v, ROUND) for s, v in out.items()}


def by_turn(rows: Iterable[ResultRow], rules: RuleSet) -> dict[tuple[int, str], float]:
    """Each side's losses in each turn, by (turn, side), from the game's results (`Game.results`:
    (entry, turn, side, result)); a turn and side with none are absent."""
    out: dict[tuple[int, str], float] = defaultdict(float)
    for _, turn, _, r in rows:
        for side, lost in of_result(r, rules).items():
            out[(turn, side)] += lost
    return {k: round(v, ROUND) for k, v in out.items()}


def total(results: Iterable[Result], rules: RuleSet) -> dict[str, float]:
    """Each side's losses over `results` (a game's so far: `Game.result_values()`); a side with
    none is absent."""
    out: dict[str, float] = defaultdict(float)
    for r in results:
        for side, lost in of_result(r, rules).items():
            out[side] += lost
    return {s: round(v, ROUND) for s, v in out.items()}


def reinforcements(before: GameState, after: GameState, rules: RuleSet) -> dict[str, float]:
    """Each side's forces that arrived between two positions (6.4): the divisions in `after`,
    not in `before`, that the scenario's mobilisation plan brings, their level-1 ratings times
    strength; a side with none is absent."""
    planned = {ref for f in after.scenario.forces for a in f.mobilisation for ref in a.divisions}
    out: dict[str, float] = defaultdict(float)
    for ref, u in after.units.items():
        if ref in planned and ref not in before.units:
            out[after.side_of(ref)] += rating(u.division.kind, rules) * u.division.strength
    return {s: round(v, ROUND) for s, v in out.items()}


__all__ = ["by_turn", "hit", "of_result", "rating", "reinforcements", "side_of", "total"]
