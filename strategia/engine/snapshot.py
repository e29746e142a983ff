"""A game state as JSON and back, exactly: the snapshots a game's store keeps at every End turn.

`state_to_json` writes every field the engine reads (each unit with its division's regiments and
their strengths, the work in hand, closures, interdiction fire, the wars, the turn, the sides'
movement statutes) and `state_from_json` rebuilds an equal `GameState` over the scenario the
game was started from, so a game reopened from a snapshot plays on exactly as the game that
wrote it. Units keep their order, floats their exact value (JSON writes the shortest repr that
reads back the same).

The views' `UnitState.to_json` is a different, lossy thing: what a side may be shown.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from strategia.core.errors import StrategiaError
from strategia.core.geometry import Cell, Direction
from strategia.core.layered import Layered
from strategia.engine.state import Busy, Closure, GameState, Interdiction, UnitState, WarStart
from strategia.notation.orders import Statute
from strategia.notation.refs import UnitRef
from strategia.rules.kinds import CorpsKind, DivisionKind, Formation, RegimentKind, RegimentsFacing
from strategia.rules.units import Division, Regiment
from strategia.theatre.scenario import Scenario

FORMAT = 1


class SnapshotError(StrategiaError):
    """A snapshot that does not describe a state: what is wrong and where in it."""


def cell_to_json(c: Cell) -> list[Any]:
    return [c.lon, c.lat] if c.sep == "," else [c.lon, c.lat, c.sep]


def cell_from_json(d: Any) -> Cell:
    if not (isinstance(d, list) and len(d) in (2, 3) and all(isinstance(x, int) for x in d[:2])):
        raise SnapshotError(f"{d!r}: not a cell")
    return Cell(d[0], d[1], str(d[2]) if len(d) == 3 else ",")


def ref_to_json(r: UnitRef) -> list[Any]:
    if r.kind is None:
        return [r.number]
    if r.regiment is not None or not isinstance(r.kind, CorpsKind | DivisionKind):
        return [r.number, "written", str(r)]  # a regiment, an army or a front: as written
    return [r.number, "corps" if isinstance(r.kind, CorpsKind) else "division", r.kind.key]


def ref_from_json(d: Any) -> UnitRef:
    if not isinstance(d, list) or not d or not isinstance(d[0], int):
        raise SnapshotError(f"{d!r}: not a unit")
    if len(d) == 1:
        return UnitRef(d[0])
    if len(d) == 3 and d[1] == "written" and isinstance(d[2], str):
        try:
            return UnitRef.parse(d[2])
        except StrategiaError as e:
            raise SnapshotError(f"{d!r}: not a unit ({e})") from None
    if len(d) != 3 or d[1] not in ("corps", "division"):
        raise SnapshotError(f"{d!r}: not a unit")
    kind = CorpsKind.from_key(d[2]) if d[1] == "corps" else DivisionKind.from_key(d[2])
    return UnitRef(d[0], kind)


def _item_to_json(x: Any) -> Any:
    """One element of a Busy's plan: text, a number, a cell, or a tuple of them."""
    if isinstance(x, Cell):
        return {"cell": cell_to_json(x)}
    if isinstance(x, tuple):
        return {"tuple": [_item_to_json(y) for y in x]}
    if x is None or isinstance(x, str | int | float | bool):
        return x
    raise SnapshotError(f"{x!r}: a plan item of type {type(x).__name__} cannot be kept")


def _item_from_json(d: Any) -> Any:
    if isinstance(d, dict) and d.keys() == {"cell"}:
        return cell_from_json(d["cell"])
    if isinstance(d, dict) and d.keys() == {"tuple"}:
        return tuple(_item_from_json(y) for y in d["tuple"])
    if d is None or isinstance(d, str | int | float | bool):
        return d
    raise SnapshotError(f"{d!r}: not a plan item")


def busy_to_json(b: Busy) -> dict[str, Any]:
    return {
        "what": b.what,
        "left": b.left,
        "target": [cell_to_json(c) for c in b.target],
        "facing": b.facing.key if b.facing is not None else None,
        "plan": [_item_to_json(x) for x in b.plan],
        "then": [_item_to_json(x) for x in b.then],
    }


def busy_from_json(d: Mapping[str, Any]) -> Busy:
    return Busy(
        what=str(d["what"]),
        left=d["left"],
        target=tuple(cell_from_json(c) for c in d["target"]),
        facing=Direction.from_key(d["facing"]) if d["facing"] is not None else None,
        plan=tuple(_item_from_json(x) for x in d["plan"]),
        then=tuple(_item_from_json(x) for x in d.get("then", ())),
    )


def _regiments(regs: Sequence[Regiment]) -> list[list[Any]]:
    return [[r.kind.key, r.strength] for r in regs]


def _regiments_from(d: Any) -> tuple[Regiment, ...]:
    return tuple(Regiment(RegimentKind.from_key(k), s) for k, s in d)


def unit_to_json(u: UnitState) -> dict[str, Any]:
    """Every field of a unit, its division's regiments (line, then arm) with their strengths."""
    d = u.division
    return {
        "ref": ref_to_json(u.ref),
        "owner": u.owner,
        "division": [d.number, d.kind.key, _regiments(d.line), _regiments(d.arm), d.size],
        "cells": [cell_to_json(c) for c in u.cells],
        "facing": u.facing.key,
        "formation": u.formation.key,
        "regiments": u.regiments.key,
        "corps": ref_to_json(u.corps) if u.corps is not None else None,
        "spent": u.spent,
        "road_dropped": u.road_dropped,
        "busy": busy_to_json(u.busy) if u.busy is not None else None,
        "on_march": u.on_march,
        "combat_capable": u.combat_capable,
    }


def unit_from_json(d: Mapping[str, Any]) -> UnitState:
    number, kind, line, arm, *size = d["division"]
    return UnitState(
        ref=ref_from_json(d["ref"]),
        owner=str(d["owner"]),
        division=Division(
            number,
            DivisionKind.from_key(kind),
            _regiments_from(line),
            _regiments_from(arm),
            int(size[0]) if size else 0,
        ),
        cells=tuple(cell_from_json(c) for c in d["cells"]),
        facing=Direction.from_key(d["facing"]),
        formation=Formation.from_key(d["formation"]),
        regiments=RegimentsFacing.from_key(d.get("regiments", RegimentsFacing.ENEMY.key)),
        corps=ref_from_json(d["corps"]) if d["corps"] is not None else None,
        spent=d["spent"],
        road_dropped=bool(d["road_dropped"]),
        busy=busy_from_json(d["busy"]) if d["busy"] is not None else None,
        on_march=bool(d["on_march"]),
        combat_capable=bool(d["combat_capable"]),
    )


def closure_to_json(c: Closure) -> list[Any]:
    return [cell_to_json(c.cell), c.what, c.until_turn]


def closure_from_json(d: Any) -> Closure:
    return Closure(cell_from_json(d[0]), str(d[1]), int(d[2]))


def war_to_json(x: WarStart) -> list[Any]:
    return [x.turn, x.violator, x.victim, cell_to_json(x.cell), x.unit, x.began]


def war_from_json(d: Any) -> WarStart:
    return WarStart(int(d[0]), str(d[1]), str(d[2]), cell_from_json(d[3]), str(d[4]), bool(d[5]))


def interdiction_to_json(f: Interdiction) -> list[Any]:
    return [cell_to_json(f.cell), f.side, f.loss, f.turn, ref_to_json(f.by)]


def interdiction_from_json(d: Any) -> Interdiction:
    return Interdiction(cell_from_json(d[0]), str(d[1]), d[2], int(d[3]), ref_from_json(d[4]))


def statute_to_json(side: str, s: Statute) -> dict[str, Any]:
    """A side's movement statute (5.9)."""
    return {
        "side": side,
        "unit": ref_to_json(s.unit),
        "formation": s.formation.key if s.formation is not None else None,
        "echelons": [[ref_to_json(r) for r in e] for e in s.echelons],
        "rest": s.rest,
        "gap": s.gap,
    }


def statute_from_json(d: Mapping[str, Any]) -> tuple[str, Statute]:
    formation = Formation.from_key(d["formation"]) if d["formation"] is not None else None
    echelons = tuple(tuple(ref_from_json(r) for r in e) for e in d["echelons"])
    gap = int(d["gap"]) if d["gap"] is not None else None
    return str(d["side"]), Statute(
        ref_from_json(d["unit"]), formation, echelons, int(d["rest"]), gap
    )


def state_to_json(state: GameState) -> dict[str, Any]:
    """The whole state but its scenario (which the game's header keeps)."""
    return {
        "format": FORMAT,
        "level": state.level,
        "turn": state.turn,
        "at_war": state.at_war,
        "wars": sorted([list(w) for w in state.wars]),
        "closures": [closure_to_json(c) for c in state.closures],
        "interdictions": [interdiction_to_json(f) for f in state.interdictions],
        "units": [unit_to_json(u) for u in state.units.values()],
        "engaged": [ref_to_json(r) for r in sorted(state.engaged, key=str)],
        "committed": [ref_to_json(r) for r in sorted(state.committed, key=str)],
        **({"statutes": [statute_to_json(*x) for x in state.statutes]} if state.statutes else {}),
        **({"war_log": [war_to_json(x) for x in state.war_log]} if state.war_log else {}),
    }


def state_from_json(d: Mapping[str, Any], scenario: Scenario) -> GameState:
    """The state `state_to_json` wrote, over `scenario`; a SnapshotError if it is not one."""
    try:
        if d.get("format") != FORMAT:
            raise SnapshotError(f"snapshot format {d.get('format')!r}, expected {FORMAT}")
        units = [unit_from_json(u) for u in d["units"]]
        return GameState(
            scenario=scenario,
            level=int(d["level"]),
            turn=int(d["turn"]),
            units=Layered((u.ref, u) for u in units),
            closures=tuple(closure_from_json(c) for c in d["closures"]),
            at_war=bool(d["at_war"]),
            wars=frozenset((str(a), str(b)) for a, b in d["wars"]),
            interdictions=tuple(interdiction_from_json(f) for f in d["interdictions"]),
            engaged=frozenset(ref_from_json(r) for r in d.get("engaged", ())),
            committed=frozenset(ref_from_json(r) for r in d.get("committed", ())),
            statutes=tuple(statute_from_json(x) for x in d.get("statutes", ())),
            war_log=tuple(war_from_json(x) for x in d.get("war_log", ())),
        )
    except SnapshotError:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
        raise SnapshotError(f"not a state snapshot: {type(e).__name__}: {e}") from None


__all__ = ["SnapshotError", "state_from_json", "state_to_json", "unit_from_json", "unit_to_json"]
