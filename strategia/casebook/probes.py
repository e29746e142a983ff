"""What a case may expect, and how each is read off the game after its steps: a unit (where it
stands, its strength...), a step's result (what the player was told, what each side was told,
what 9.3 cut, the battle's numbers, a step of its explanation, a question's answer and price),
the game (turn, war, clock, score), a closed road or bridge, what a side is told and sees of the
enemy (`view`: covering forces, armies, open sectors: 5.8, 6.2, 8.1, 8.2) and its questions left
(8.3).

Each field is read as the mediator would check it, in the seed's terms: cells as `4,1`,
strengths in divisions, texts in Russian. `compare` says whether an actual value is the one
expected: numbers to within `TOLERANCE`, texts exactly, a `cut` by its rule ids.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from strategia.core.geometry import Cell
from strategia.core.i18n import Text
from strategia.engine.result import Result
from strategia.engine.state import BUSY, GameState, UnitState
from strategia.game.accounts import told
from strategia.game.channel import SideChannel
from strategia.game.game import Game
from strategia.game.views import SideView
from strategia.notation.refs import Placement, UnitRef
from strategia.theatre.scenario import scenario_warnings

TOLERANCE = 0.005


@dataclass(frozen=True, slots=True)
class Done:
    """What a step gave: its results (an order's one, an End turn's several), an answer, or
    the refusal it met (in Russian and English)."""

    results: tuple[Result, ...] = ()
    answer: dict[str, Any] | None = None
    refused: Text | None = None


def _unit(state: GameState, of: str) -> UnitState | None:
    ref = UnitRef.parse(of)
    return state.units.get(ref)


def _cell(c: Cell) -> str:
    """A cell as the book writes it, `4,1`, however the scenario wrote it (`4-1`, 6.3)."""
    return f"{c.lon},{c.lat}"


UNIT: dict[str, tuple[Text, Callable[[UnitState | None], Any]]] = {
    "at": (Text("stands at", "стоит в"), lambda u: _cell(u.cell) if u else None),
    "cells": (Text("occupies", "занимает"), lambda u: " ".join(map(_cell, u.cells)) if u else None),
    "strength": (Text("strength (divisions)", "сила (дивизий)"),
                 lambda u: round(u.division.strength, 4) if u else 0.0),
    "regiments": (Text("regiments' strengths", "сила полков"),
                  lambda u: [round(r.strength, 4) for r in u.division.regiments] if u else []),
    "facing": (Text("faces", "фронтом на"), lambda u: u.facing.ru if u else None),
    "formation": (Text("formation", "построение"), lambda u: u.formation.key if u else None),
    "busy": (Text("busy:", "занята:"), lambda u: u.busy.label.ru if u and u.busy else ""),
    "busy_left": (Text("turns of work left", "осталось ходов работы"),
                  lambda u: u.busy.left if u and u.busy else 0.0),
    "spent": (Text("share of the turn spent", "израсходовано хода"),
              lambda u: round(u.spent, 4) if u else None),
    "destroyed": (Text("destroyed", "уничтожена"), lambda u: u is None),
    "combat_capable": (Text("combat-capable", "боеспособна"),
                       lambda u: bool(u.combat_capable) if u else False),
    "on_march": (Text("on the march", "на марше"), lambda u: bool(u.on_march) if u else False),
    "on_map": (Text("on the map", "на карте"), lambda u: u is not None),
    "corps": (Text("in the corps", "в корпусе"), lambda u: str(u.corps) if u and u.corps else ""),
    "composition": (Text("regiments", "полки"),
                    lambda u: [r.kind.ru for r in u.division.regiments] if u else []),
}  # fmt: skip


def _account(r: Result) -> str | None:
    t = told(r, r.by) if r.by else None
    return t.text("ru") if t is not None else None


def _battle(r: Result, key: str) -> Any:
    b = r.battle
    if b is None:
        return None
    if key == "ratio":
        return round(b.ratio, 4) if math.isfinite(b.ratio) else "inf"
    return getattr(b, key)


def _after(r: Result) -> dict[str, float]:
    """Each unit's strength after the battle; a division fighting in two echelons (9.8c) is
    listed once, its whole strength (each part's record carries the whole division's)."""
    return {f.unit: round(f.strength_after, 4) for f in (r.battle.units if r.battle else ())}


def _explained(r: Result) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for s in r.explanation.walk():
        if s.rule and s.rule not in out and isinstance(s.value, int | float | bool):
            out[s.rule] = s.value
    return out


RESULT: dict[str, tuple[Text, Callable[[Result], Any]]] = {
    "told": (Text("the player is told", "игроку сказано"), _account),
    "outcome": (Text("the mediator's record", "запись посредника"), lambda r: r.outcome("ru")),
    "cut": (Text("cut (9.3) under", "сокращен (9.3) по правилу"),
            lambda r: [c.rule for c in r.cuts]),
    "cut_reason": (Text("why it was cut", "почему сокращен"),
                   lambda r: " | ".join(c.reason("ru") for c in r.cuts)),
    "battle": (Text("the battle's outcome", "исход боя"), lambda r: _battle(r, "outcome")),
    "ratio": (Text("ratio of forces", "соотношение сил"), lambda r: _battle(r, "ratio")),
    "attack": (Text("the attack's rating", "сила наступающих"), lambda r: _battle(r, "attack")),
    "defence": (Text("the defence's rating", "сила обороняющихся"),
                lambda r: _battle(r, "defence")),
    "rounds": (Text("rounds", "схваток"), lambda r: _battle(r, "rounds")),
    "turn_used": (Text("share of the turn the battle took", "бой занял хода"),
                  lambda r: _battle(r, "turn_used")),
    "supporters": (Text("supported by", "поддержали"),
                   lambda r: sorted(_battle(r, "supporters") or ())),
    "after": (Text("strengths after (divisions)", "сила после (дивизий)"), _after),
    "hit": (Text("units hit", "пострадали"),
            lambda r: sorted({f.unit for f in r.battle.units}) if r.battle else []),
    "pursuit": (Text("pursuit (km)", "преследование (км)"),
                lambda r: {p.unit: p.taken_km for p in r.battle.pursuit} if r.battle else {}),
    "explained": (Text("steps of the explanation", "шаги объяснения"), _explained),
}  # fmt: skip


def _clock(g: Game) -> tuple[float | None, str | None]:
    c = g.move_clock()
    return (c.minutes, c.rule) if c is not None else (None, None)


def _warned(g: Game) -> list[str]:
    """The armies the scenario check warns of as outside 5.6's 4 to 10 divisions."""
    return sorted(
        p.message.split(":", 1)[0] for p in scenario_warnings(g.scenario) if "(5.6)" in p.message
    )


def _wars(g: Game) -> list[str]:
    """The pairs of states at war (9.1), by their names: «Красные — Синие»."""
    names = {st.code: st.name for st in g.state.scenario.states}
    pairs = {" — ".join(sorted((names[a], names[b]))) for a, b in g.state.wars}
    return sorted(pairs)


def _told_to(r: Result, game: Game) -> dict[str, str]:
    """What each side of the game is told of the result ("": nothing), in Russian."""
    sides = dict.fromkeys(s.side for s in game.state.scenario.states)
    out = {}
    for side in sides:
        t = told(r, side)
        out[side] = t.text.ru if t is not None else ""
    return out


# how an enemy division is known to a side: told in full in an open sector (8.2) or in
# contact, as a covering force's position only (6.2, 8.1), or not at all ("")
HOW = {"open": "открытый участок", "contact": "соприкосновение", "cover": "прикрытие"}


def _known(view: SideView, game: Game) -> dict[str, str]:
    """Every enemy division on the map, and how the side knows of it."""
    hostile = {s.code for s in game.state.scenario.states if s.side != view.side}
    out: dict[str, str] = {}
    for u in game.state.units.values():
        if u.owner not in hostile:
            continue
        how = next((x.how for x in view.seen if x.unit == u.ref), None)
        if how is None:  # a covering force is told by its position, not its name
            how = next((x.how for x in view.seen if x.how == "cover" and x.cells == u.cells), "")
        out[str(u.ref)] = HOW.get(how or "", "")
    return out


def _told_of(view: SideView) -> dict[str, str]:
    """What the side is told of each enemy division it knows by name: where it stands, its
    facing and formation (8.2: «построение и ориентация»), in the journal's notation."""
    return {
        str(x.unit): Placement(x.unit, x.cells, x.facing, x.formation).format("ru")
        for x in view.seen
        if x.unit is not None
    }


_TOLD: dict[str, tuple[Text, Callable[[SideView, Game], Any]]] = {
    "known": (Text("knows of the enemy's divisions", "знает о дивизиях противника"), _known),
    "told_of": (Text("is told of them", "о них сообщено"), lambda v, g: _told_of(v)),
    "regiments_of": (Text("is told their composition", "сообщен их состав"),
                     lambda v, g: {str(x.unit): list(x.regiments) for x in v.seen if x.unit}),
    "covering": (Text("covering forces told by position at", "прикрытие известно в клетках"),
                 lambda v, g: [" ".join(map(str, x.cells)) for x in sorted(
                     (x for x in v.seen if x.how == "cover"), key=lambda x: x.cells)]),
    "questions_left": (Text("questions left (8.3)", "осталось вопросов (8.3)"),
                       lambda v, g: SideChannel(g, v.side).questions_left()),
}  # fmt: skip

GAME: dict[str, tuple[Text, Callable[[Game], Any]]] = {
    "turn": (Text("turn", "ход"), lambda g: g.state.turn),
    "side": (Text("to move", "ходят"), lambda g: g.side),
    "at_war": (Text("at war", "идет война"), lambda g: bool(g.state.at_war)),
    "wars": (Text("at war with each other", "воюют между собой"), lambda g: _wars(g)),
    "phase": (Text("phase", "фаза"), lambda g: g.phase),
    "clock": (Text("minutes for the move", "минут на ход"), lambda g: _clock(g)[0]),
    "clock_rule": (Text("the move's time by rule", "время хода по правилу"),
                   lambda g: _clock(g)[1]),
    "score": (Text("score", "очки"),
              lambda g: {s: g.score(s).value for s in dict.fromkeys(
                  st.side for st in g.scenario.states)}),
    "army_divisions": (Text("divisions of each army", "дивизий в армиях"),
                       lambda g: {str(a.ref): len(f.army_divisions(a))
                                  for f in g.scenario.forces for a in f.armies}),
    "warned": (Text("the scenario check warns of", "проверка сценария предупреждает о"), _warned),
}  # fmt: skip


def _seen(v: SideView, how: tuple[str, ...]) -> list[str]:
    return sorted(" ".join(map(_cell, s.cells)) for s in v.seen if s.how in how)


VIEW: dict[str, tuple[Text, Callable[[SideView, Game], Any]]] = {
    **_TOLD,
    "cover": (Text("covering forces (positions only)", "войска прикрытия (только расположение)"),
              lambda v, g: _seen(v, ("cover",))),
    "seen": (Text("in full", "полностью"),
             lambda v, g: sorted(str(s.unit) for s in v.seen if s.how != "cover" and s.unit)),
    "first_echelon": (Text("armies of the first echelon", "армии первого эшелона"),
                      lambda v, g: sorted(str(a.army) for a in v.armies if a.echelon == "first")),
    "second_echelon": (Text("other armies (numbers only)", "прочие армии (только номера)"),
                       lambda v, g: sorted(str(a.army) for a in v.armies if a.echelon != "first")),
    "strips": (Text("strips of deployment", "полосы развертывания"),
               lambda v, g: {str(a.army): f"{a.strip[0]}-{a.strip[1]}"
                          for a in v.armies if a.strip is not None}),
    "corps_count": (Text("the number of corps", "число корпусов"),
                    lambda v, g: {str(a.army): a.corps for a in v.armies if a.corps is not None}),
}  # fmt: skip

LABELS: dict[str, tuple[Text, Any]] = {
    **UNIT,
    **RESULT,
    **GAME,
    **VIEW,
    "refused": (Text("refused", "отказано"), None),
    "answer": (Text("the answer", "ответ"), None),
    "cost": (Text("questions paid", "оплачено вопросов"), None),
    "resources": (Text("resources paid (8.3, level 2)", "оплачено ресурсов (8.3, 2 уровень)"),
                  None),
    "told_to": (Text("each side is told", "сторонам сказано"), None),
    "what": (Text("closed", "закрыто"), None),
    "until": (Text("until turn", "до хода"), None),
    "closed_for": (Text("what, and through which turn", "что и по какой ход включительно"), None),
}  # fmt: skip
CLOSED = {  # what artillery closes (9.7c), as the book names it
    "road-transfer": Text("the road to transfers", "дорога для переброски"),
    "road-movement": Text("the road to movement", "дорога для движения"),
    "bridge": Text("the bridge (pass) to all movement", "мост (перевал) для всякого движения"),
}


def read(subject: str, of: Any, name: str, game: Game, done: list[Done], spec: Any) -> Any:
    """The actual value of field `name` of the subject (`unit` "1 т.д.", `result` step N,
    `game`, `closed` cell); a KeyError for a field the subject does not have."""
    if subject == "unit":
        return UNIT[name][1](_unit(game.state, str(of)))
    if subject == "game":
        return GAME[name][1](game)
    if subject == "view":
        return VIEW[name][1](SideChannel(game, str(of)).view(), game)
    if subject == "closed":
        found = [c for c in game.state.closures if c.cell == Cell.parse(str(of))]
        if name == "what":
            return sorted(c.what for c in found)
        if name == "until":
            return max((c.until_turn for c in found), default=None)
        if name == "closed_for":
            return {c.what: c.until_turn for c in found}
        raise KeyError(name)
    d = done[int(of) - 1]
    if name == "refused":
        return d.refused("ru") if d.refused is not None else None
    if d.refused is not None:
        return {"refused": d.refused("ru")}
    if name == "answer":
        a = (d.answer or {}).get("answer")
        return a.get("ru") if isinstance(a, dict) else a
    if name in ("cost", "resources"):
        return (d.answer or {}).get(name)
    results = d.results
    pick = int(dict(spec).get("of", len(results))) if results else 0
    if not results or not 1 <= pick <= len(results):
        return None
    if name == "told_to":
        return _told_to(results[pick - 1], game)
    return RESULT[name][1](results[pick - 1])


def compare(name: str, expected: Any, actual: Any) -> bool:
    """Whether `actual` is what was expected of field `name`."""
    if name == "cut":
        rules = list(actual or [])
        if isinstance(expected, bool):
            return bool(rules) == expected
        wanted = [expected] if isinstance(expected, str) else list(expected)
        return sorted(wanted) == sorted(rules)
    if name == "refused" and isinstance(expected, bool):
        return (isinstance(actual, str)) is expected
    if name in ("refused", "cut_reason") and isinstance(expected, str):  # a part of the text,
        return isinstance(actual, str) and _words(expected) in _words(actual)  # spaces aside
    if name == "busy" and isinstance(expected, str) and expected in BUSY:
        expected = BUSY[expected].ru  # the engine's own word for it, as the Russian is
    if name == "composition" and isinstance(expected, list) and isinstance(actual, list):
        return sorted(map(str, expected)) == sorted(map(str, actual))  # the kinds, in any order
    return _same(expected, actual)


def _words(text: str) -> str:
    return " ".join(text.split())  # any run of spaces (a non-breaking one too) as one space


def _same(expected: Any, actual: Any) -> bool:
    if isinstance(expected, bool) or isinstance(actual, bool):
        return expected is actual or expected == actual
    if isinstance(expected, int | float) and isinstance(actual, int | float):
        return abs(float(expected) - float(actual)) <= TOLERANCE
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(
            k in actual and _same(v, actual[k]) for k, v in expected.items()
        )
    if isinstance(expected, list):
        return (
            isinstance(actual, list)
            and len(expected) == len(actual)
            and all(_same(e, a) for e, a in zip(expected, actual, strict=True))
        )
    if isinstance(expected, str) and isinstance(actual, str):
        return _words(expected) == _words(actual)
    return bool(expected == actual)


__all__ = ["CLOSED", "GAME", "HOW", "LABELS", "RESULT", "UNIT", "VIEW", "Done", "compare", "read"]
