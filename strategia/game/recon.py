"""Reconnaissance (8.3): the price of the players' questions (`questions`) and their answers.

A side may ask from the start of the war, 15 questions for every 10 turns begun, accumulating
(a yes/no question counts half, a kind-of-troops question two); at most 20% of its answers may
be false, and at level 2 every question costs a resource. Only other sides' troops count.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar, cast

import numpy as np

from strategia.core.errors import StrategiaError
from strategia.core.geometry import Cell
from strategia.core.i18n import Text
from strategia.core.numbers import cells_list, num, pct, quantity, turns
from strategia.core.vocab import norm
from strategia.engine.state import GameState, UnitState
from strategia.explain.trace import Explained, explain, record
from strategia.explain.trace import Value as StepValue
from strategia.game.questions import COST_PARAM, Question, feature_problem
from strategia.notation.refs import (
    UnitRef,
)
from strategia.rules import RuleSet
from strategia.rules.english import en
from strategia.rules.kinds import DivisionKind, Side, side_name
from strategia.theatre import terrain

_ARMS = tuple(k for k in DivisionKind if k is not DivisionKind.FORTRESS)

Composition = tuple[tuple[DivisionKind, int], ...]
AnswerValue = bool | int | tuple[Cell, ...] | Composition
T = TypeVar("T")


class ReconError(StrategiaError):
    """A question the rules refuse: before the war, beyond the budget, about one's own troops."""


def cost(q: Question, rules: RuleSet) -> float:
    """What a question counts against the budget (8.3): yes/no 0.5, a number 1, the arm 2."""
    return float(rules.value("reconnaissance", COST_PARAM[q.kind]))


def resource_cost(rules: RuleSet) -> float:
    """The resources a question costs (8.3, level 2); 0 where the rule does not act."""
    if not rules.active("reconnaissance", "resource_cost"):
        return 0.0
    return float(rules.value("reconnaissance", "resource_cost"))


@dataclass(frozen=True, slots=True)
class Budget:
    """A side's questions at a turn: granted so far (accumulating), spent, and resources spent."""

    side: str
    turn: int
    allowance: float
    spent: float
    resources: float = 0.0

    @property
    def left(self) -> float:
        return round(self.allowance - self.spent, 9)


def budget(state: GameState, side: str, rules: RuleSet, history: Sequence[Past] = ()) -> Budget:
    """The side's budget at the state's turn: questions × the blocks of turns begun, less spent."""
    side = Side.parse(side).key
    override = state.scenario.settings.recon_questions
    per_block = float(rules.value("reconnaissance", "questions"))
    if override is not None:
        per_block = float(override)
        _note("questions per block, set by the scenario", "вопросов на блок по сценарию", per_block)
    per_turns = int(rules.value("reconnaissance", "per_turns"))
    blocks = math.ceil(max(state.turn, 1) / per_turns)
    turn = state.turn
    per = turns(per_turns, "ru")
    _note(f"{per_turns}-turn blocks begun by turn {turn}", f"блоков по {per}", blocks)
    own = [p for p in map(_past, history) if p[0] == side]
    spent, res = sum(p[1] for p in own), sum(p[2] for p in own)
    b = Budget(side, turn, per_block * blocks, spent, res)
    _note("questions granted", "выделено вопросов", b.allowance, "q")
    _note("questions spent", "израсходовано вопросов", b.spent, "q")
    return b


def _note(en: str, ru: str, value: StepValue, unit: str = "", note: Text | None = None) -> None:
    record(Text(en, ru), value, unit=unit, rule="8.3", note=note)


def _enemies(state: GameState, side: str) -> set[str]:
    return {s.code for s in state.scenario.states if s.side != side}


def _owner(state: GameState, ref: UnitRef) -> str | None:
    """The state code of a unit, corps or army, on the map or in the order of battle."""
    if ref in state.units:
        return state.units[ref].owner
    for f in state.scenario.forces:
        named = [a.ref for a in f.armies] + [c.ref for c in f.corps] + f.reserve_divisions()
        if ref in named + f.deployed_divisions():
            return f.state
    return next((u.owner for u in state.units.values() if u.corps == ref), None)


def _members(state: GameState, ref: UnitRef) -> list[UnitState]:
    if ref.echelon == "division":
        return [state.units[ref]] if ref in state.units else []
    if ref.echelon == "corps":
        return [u for u in state.units.values() if u.corps == ref]
    armies = [a for f in state.scenario.forces for a in f.armies if a.ref == ref]
    return [u for a in armies for m in a.members for u in _members(state, m)]


def _place_cells(state: GameState, q: Question) -> tuple[Cell, ...]:
    if not q.place:
        return q.cells
    cells = tuple(c for n, c in terrain.places(state.theatre) if norm(n) == norm(q.place))
    if not cells:
        raise ReconError(
            f"{q}: no place {q.place!r} on the map", ru=f"{q}: на карте нет места «{q.place}»"
        )
    return cells


def true_answer(state: GameState, asker_side: str, q: Question) -> AnswerValue:
    """The true answer from the state; only the troops of sides other than the asker's count."""
    enemies = _enemies(state, Side.parse(asker_side).key)
    if q.kind == "mobilisation":
        points = [
            a.cell for f in state.scenario.forces if f.state in enemies for a in f.mobilisation
        ]
        return tuple(dict.fromkeys(points))
    if q.kind == "where":
        assert q.unit is not None
        owner = _owner(state, q.unit)
        if owner is None:  # answered as for an enemy unit not on the map: no free probing (1.6)
            return ()
        if owner not in enemies:
            raise ReconError(
                f"{q}: {q.unit} is not an enemy unit; ask about the enemy (8.3)",
                ru=f"{q}: {q.unit} — не часть противника; спрашивают о противнике (8.3)",
            )
        return tuple(dict.fromkeys(c for u in _members(state, q.unit) for c in u.cells))
    problem = q.feature and feature_problem(state.theatre, q.feature, q.cells[0])
    if problem:
        raise ReconError(f"{q}: {problem}", ru=f"{q}: {_problem_ru(problem)}")
    seen = {u.ref: u for c in _place_cells(state, q) for u in state.occupants(c)}
    units = [u for u in seen.values() if u.owner in enemies]
    if q.kind in ("presence", "place"):
        return bool(units)
    if q.kind == "count":
        return len(units)
    return _composition(Counter(u.division.kind for u in units))


def _composition(counts: Counter[DivisionKind]) -> Composition:
    order = list(DivisionKind)
    return tuple(sorted(counts.items(), key=lambda kv: (-kv[1], order.index(kv[0]))))


def answer_text(state: GameState, q: Question, value: AnswerValue) -> Text:
    """The short answer the rule asks for: `Да`, `3 дивизии`, `в 40,21`, `2 т.д., 1 с.д.`."""
    if isinstance(value, bool):
        return Text("Yes", "Да") if value else Text("No", "Нет")
    if isinstance(value, int):
        return Text(quantity(value, "div"), quantity(value, "div", "ru"))
    if q.kind == "kind":
        comp = cast(Composition, value)
        if not comp:
            return Text("no troops", "войск нет")
        return Text(
            ", ".join(f"{n} {k.en}" for k, n in comp), ", ".join(f"{n} {k.ru}" for k, n in comp)
        )
    cells = cast(tuple[Cell, ...], value)
    if q.kind == "where":
        where = Text(en(f"in {cells_list(cells)}"), f"в {cells_list(cells, 'ru')}")
        return where if cells else Text("not found", "не обнаружена")
    names = {c: n for n, c in terrain.places(state.theatre)}
    listed = ", ".join(f"{names[c]} ({c})" if c in names else str(c) for c in cells)
    return Text(listed or "none", listed or "нет")


def _pick(rng: np.random.Generator, options: Sequence[T]) -> T | None:
    return options[int(rng.integers(len(options)))] if options else None


def _false(
    state: GameState, enemies: set[str], q: Question, truth: AnswerValue, rng: np.random.Generator
) -> AnswerValue | None:
    """A plausible wrong answer of the same form, or None if there is none."""
    if isinstance(truth, bool):
        return not truth
    if isinstance(truth, int):
        return _pick(rng, [n for n in (truth - 2, truth - 1, truth + 1, truth + 2) if n >= 0])
    ds, codes = state.theatre, [s.code for s in state.scenario.states]
    if q.kind == "kind":
        comp = dict(cast(Composition, truth))
        new = _pick(rng, [k for k in _ARMS if k not in comp])
        if new is None:
            return None
        old = _pick(rng, list(comp))
        comp[new] = comp.pop(old) if old is not None else int(rng.integers(1, 3))
        return _composition(Counter(comp))
    cells, st = cast(tuple[Cell, ...], truth), ds["state"].values
    if q.kind == "where" and cells:
        steps = [(dx, dy) for dx in range(-2, 3) for dy in range(-2, 3) if dx or dy]
        moved = [tuple(Cell(c.lon + dx, c.lat + dy) for c in cells) for dx, dy in steps]
        return _pick(rng, [m for m in moved if all(terrain.on_map(ds, c) for c in m)])
    if q.kind == "where":  # not on the map: somewhere in its state's land, and a unit nobody
        # has somewhere in the main enemies' land, so that it reads as one not found (1.6)
        owner = _owner(state, cast(UnitRef, q.unit))
        lands = [owner] if owner in codes else _main(state, enemies)
        mask = np.isin(st, [codes.index(c) + 1 for c in lands]) & (
            ds["relief"].values != terrain.Relief.WATER
        )
    else:
        mask = np.isin(st, [codes.index(c) + 1 for c in enemies]) & (ds["settlement"].values > 0)
    others = [Cell(int(i) + 1, int(j) + 1) for i, j in zip(*np.nonzero(mask), strict=True)]
    other = _pick(rng, [c for c in others if c not in cells])
    if other is None:
        return cells[:-1] if cells else None
    out = list(cells) or [other]
    out[int(rng.integers(len(out)))] = other
    return tuple(out)


def _main(state: GameState, enemies: set[str]) -> list[str]:
    """The asker's enemies that are not neutrals (all of them if every one is)."""
    sides = {s.code: s.side for s in state.scenario.states}
    return sorted(c for c in enemies if sides[c] != "green") or sorted(enemies)


@dataclass(frozen=True, slots=True)
class Answer:
    """An answer: the short `text` the side hears, and for the mediator whether it is `true`
    and the `truth` (its text and value); its `cost` in questions and `resources` (level 2)."""

    question: Question
    text: Text
    value: AnswerValue
    true: bool
    truth: Text
    truth_value: AnswerValue
    cost: float
    resources: float
    turn: int

    def to_json(self, for_side: bool) -> dict[str, Any]:
        """For the asking side only the question (canonical Russian) and the answer's text; for
        the mediator also `true` (the flag), `truth` (the true answer's text), cost and turn."""
        d: dict[str, Any] = {"question": str(self.question), "answer": self.text.to_json()}
        if not for_side:
            d |= {"side": self.question.side, "true": self.true, "truth": self.truth.to_json()}
            d |= {"cost": self.cost, "resources": self.resources, "turn": self.turn}
        return d


Past = Answer | Mapping[str, Any]  # a previous answer, or its mediator JSON (`to_json(False)`)


def _past(a: Past) -> tuple[str, float, float, bool]:
    """A previous answer's side, cost, resources and truth flag."""
    if isinstance(a, Answer):
        return a.question.side, a.cost, a.resources, a.true
    return str(a["side"]), float(a["cost"]), float(a.get("resources", 0.0)), bool(a["true"])


def ask(
    state: GameState,
    side: str,
    q: Question,
    rules: RuleSet,
    *,
    history: Sequence[Past] = (),
    seed: int | None = None,
    lie: bool | None = None,
    lie_probability: float | None = None,
) -> Explained[Answer]:
    """Answer a side's question (8.3), true or (at most 20% of the side's answers) false.

    `history` is the side's previous answers, as Answers or their mediator JSON (other sides'
    are ignored); `seed` (default: the
    scenario's) with the side and the question's number makes the draw reproducible; `lie`
    is the mediator's choice (None: drawn, lying with `lie_probability`, by default the
    largest false share, when one more false answer keeps the share within it). The
    explanation (the cost, the budget, the draw, whether the answer is true) is for the
    mediator only. A refused question raises a ReconError.
    """
    side = Side.parse(side).key
    if q.side and Side.parse(q.side).key != side:
        raise ReconError(
            f"{q}: asked by {q.side}, not {side}",
            ru=f"{q}: спрашивают {side_name(q.side)}, а не {side_name(side)}",
        )
    q, turn = replace(q, side=side), state.turn
    own = [p for p in map(_past, history) if p[0] == side]
    with explain(Text(en(f"reconnaissance: {q.format('en')}"), f"разведка: {q}"), rule="8.3") as tr:
        if not state.at_war:
            raise ReconError(
                f"{q}: turn {turn}, no war yet; reconnaissance begins with it (8.3)",
                ru=f"{q}: ход {turn}, войны еще нет; разведка начинается с войной (8.3)",
            )
        price = cost(q, rules)
        b = budget(state, side, rules, history)
        _note("questions left", "осталось вопросов", b.left, "q")
        if price > b.left + 1e-9:
            raise ReconError(
                f"{q}: costs {quantity(price, 'q', 'en')}; {side} has {num(b.left)} left of the "
                f"{num(b.allowance)} granted by turn {turn} (8.3)",
                ru=f"{q}: стоит {quantity(price, 'q', 'ru')}; у {side_name(side, 'ru', 'gen')} "
                f"осталось {num(b.left, 'ru')} из {num(b.allowance, 'ru')}, "
                f"данных к ходу {turn} (8.3)",
            )
        _note("left after this question", "останется после вопроса", b.left - price, "q")
        res = resource_cost(rules)
        if res:
            _note("resources spent before", "израсходовано ресурсов", b.resources, "res")
        truth = true_answer(state, side, q)
        n, false_so_far = len(own), sum(not p[3] for p in own)
        seed = state.scenario.settings.seed if seed is None else seed
        rng = np.random.default_rng([seed % 2**63, list(Side).index(Side.from_key(side)), n])
        with explain(Text("a false answer?", "ложный ответ?"), rule="8.3") as draw:
            share = float(rules.value("reconnaissance", "max_false_share"))
            _note("false answers so far", "ложных ответов было", false_so_far)
            _note("answers, this one included", "ответов, с этим", n + 1)
            allowed = false_so_far + 1 <= share * (n + 1) + 1e-9
            _note("one more false answer within the share", "ещё один ложный допустим", allowed)
            if lie is None:
                p = share if lie_probability is None else lie_probability
                u = float(rng.random())
                _note("probability of a false answer", "вероятность ложного ответа", p)
                _note(f"drawn (seed {seed}, {side}, question {n})", f"выпало (вопрос {n})", u)
                lying = allowed and u < p
            elif lie and not allowed:
                raise ReconError(
                    f"{q}: a false answer would make {false_so_far + 1} of {n + 1} answers "
                    f"false, more than {share:.0%} (8.3)",
                    ru=f"{q}: с ложным ответом ложных было бы {false_so_far + 1} из {n + 1}, "
                    f"больше {pct(share, 'ru')} (8.3)",
                )
            else:
                _note("the mediator's choice: false", "решение посредника: ложный", lie)
                lying = lie
            value = _false(state, _enemies(state, side), q, truth, rng) if lying else truth
            if value is None:
                if lie:
                    raise ReconError(
                        f"{q}: no plausible false answer to give",
                        ru=f"{q}: правдоподобного ложного ответа нет",
                    )
                _note("no plausible false answer: the truth", "ложного ответа нет: правда", None)
                value, lying = truth, False
            draw.set(lying)
        text = answer_text(state, q, value)
        mediator = Text("true? for the mediator only", "правдив ли — только для посредника")
        _note(f"answer: {text.en}", f"ответ: {text.ru}", not lying, note=mediator)
        tr.set(text.en)
        truth_text = answer_text(state, q, truth)
        answer = Answer(q, text, value, not lying, truth_text, truth, price, res, turn)
        return tr.explained(answer)


_FEATURES_RU = {"fortress": "крепости", "city": "города", "bridge": "моста", "road": "дороги",
                "pass": "перевала"}  # fmt: skip


def _problem_ru(problem: str) -> str:
    """`feature_problem`'s words in Russian."""
    words = problem.split()
    if problem.endswith("is off the map"):
        return f"{words[0]} вне карты"
    if words[0] == "no" and len(words) == 4:
        return f"в {words[3]} нет {_FEATURES_RU.get(words[1], words[1])}"
    return problem
