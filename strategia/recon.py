"""Reconnaissance (8.3): the players' questions about the enemy, their price and the answers.

    есть ли войска в 40,21 41,21?        troops in 40,21 41,21?             yes / no     0.5
    есть ли войска в Краснодол?          troops in Краснодол?               yes / no     0.5
    есть ли войска на мосту 30,27?       troops on the bridge at 30,27?     yes / no     0.5
    сколько дивизий в 40,21?             how many divisions in 40,21?       a number     1
    где 17 с.д.?                         where is 17 RD?                    cells        1
    пункты мобилизации?                  mobilisation points?               cities       1
    какие войска в 40,21?                what troops in 40,21?              the arm      2

Places with a cell: `в крепости`, `в городе`, `на мосту`, `на дороге`, `на перевале` /
`in the fortress at`, `in the city at`, `on the bridge at`, `on the road at`, `on the pass at`.
A side may ask from the start of the war, 15 questions for every 10 turns begun, accumulating
(a yes/no question counts half, a kind-of-troops question two); at most 20% of its answers may
be false, and at level 2 every question costs a resource. Only other sides' troops count.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar, cast

import numpy as np

from strategia import terrain
from strategia.errors import StrategiaError
from strategia.explain import Explained, explain, record
from strategia.explain import Value as StepValue
from strategia.geometry import Cell
from strategia.i18n import Lang, Text, check_lang
from strategia.kinds import Side, _norm
from strategia.notation import (
    AmbiguousNotationError,
    IllegalNotationError,
    InvalidNotationError,
    NotationContext,
    NotationError,
    UnitRef,
    parse_cell,
)
from strategia.rules import RuleSet
from strategia.state import GameState, UnitState
from strategia.units import DivisionKind

# fmt: off
KINDS = ("presence", "count", "kind", "where", "place", "mobilisation")
COST_PARAM = {"presence": "cost_yes_no", "place": "cost_yes_no", "count": "cost_number",
              "where": "cost_number", "mobilisation": "cost_number", "kind": "cost_kind"}
FEATURES = {"fortress": ("в крепости", "in the fortress at"),
            "city": ("в городе", "in the city at"), "bridge": ("на мосту", "on the bridge at"),
            "road": ("на дороге", "on the road at"), "pass": ("на перевале", "on the pass at")}
_HEAD = {"presence": ("есть ли войска в", "troops in"), "place": ("есть ли войска в", "troops in"),
         "count": ("сколько дивизий в", "how many divisions in"),
         "kind": ("какие войска в", "what troops in"), "where": ("где", "where is")}
_FORMS = {kind: re.compile(r"\s*(?:" + pattern + r")(?!\w)", re.I) for kind, pattern in (
    ("mobilisation", r"(?:где\s+)?пункты\s+мобилизации|mobili[sz]ation\s+points"),
    ("count", r"(?:сколько\s+дивизий|how\s+many\s+divisions(?:\s+are\s+there)?)\s+(?:в|in)"),
    ("kind", r"(?:какие\s+войска|what\s+(?:kind\s+of\s+)?troops(?:\s+are\s+there)?)\s+(?:в|in)"),
    ("where", r"где(?:\s+находится)?|where(?:\s+is)?"),
    ("presence", r"есть\s+ли\s+войска|(?:are\s+there\s+)?(?:any\s+)?troops"),
    ("feature", r"в\s+(?:крепости|городе)|на\s+(?:мосту|дороге|перевале)"
                r"|(?:in|on)\s+(?:the\s+)?(?:fortress|city|bridge|road|pass)(?:\s+at)?"),
    ("in", r"в|in"),
)}
# fmt: on
_FEATURE_NAME = {ru.split()[-1]: key for key, (ru, _) in FEATURES.items()} | {
    k: k for k in FEATURES
}
_CELL = re.compile(r"[0-9]+\s*[,\-‐‑‒–—−]\s*[0-9]+|\S+")
_EXPECTED = "; ".join(f"'{h[0]} ...' / '{h[1]} ...'" for k, h in _HEAD.items() if k != "place")
_EXPECTED += "; 'пункты мобилизации' / 'mobilisation points'"
_HEADS = ("mobilisation", "count", "kind", "where", "presence")
_ARMS = tuple(k for k in DivisionKind if k is not DivisionKind.FORTRESS)

Composition = tuple[tuple[DivisionKind, int], ...]
AnswerValue = bool | int | tuple[Cell, ...] | Composition
T = TypeVar("T")


class ReconError(StrategiaError):
    """A question the rules refuse: before the war, beyond the budget, about one's own troops."""


@dataclass(frozen=True, slots=True)
class Question:
    """A reconnaissance question (8.3): its kind, the cells, unit or place it asks about, the side.

    `place` is a named place (`Краснодол`); `feature` with one cell a fortress, city, bridge,
    road or pass (`на мосту 30,27`).
    """

    kind: str
    cells: tuple[Cell, ...] = ()
    unit: UnitRef | None = None
    place: str = ""
    feature: str = ""
    side: str = ""

    def __post_init__(self) -> None:
        k = self.kind
        if k not in KINDS:
            raise StrategiaError(f"question kind {k!r}: expected one of {', '.join(KINDS)}")
        place = bool(self.place) or (self.feature in FEATURES and len(self.cells) == 1)
        if (
            (k == "where" and self.unit is None)
            or (k == "place" and not place)
            or (k in ("presence", "count", "kind") and not self.cells)
        ):
            raise StrategiaError(f"a {k!r} question needs its cells, unit or place: {self!r}")

    def __str__(self) -> str:
        return self.format("ru")

    def __repr__(self) -> str:
        side = f", side={self.side!r}" if self.side else ""
        return f"parse_question({self.format('ru')!r}{side})"

    def format(self, lang: Lang = "ru") -> str:
        """The canonical question: `есть ли войска в 40,21?`, `where is 17 RD?`."""
        en = check_lang(lang) == "en"
        if self.kind == "mobilisation":
            return "mobilisation points?" if en else "пункты мобилизации?"
        head = _HEAD[self.kind][en]
        if self.unit is not None:
            return f"{head} {self.unit.format(lang)}?"
        if self.place:
            return f"{head} {self.place}?"
        cells = " ".join(map(str, self.cells))
        if self.feature:
            return f"{_HEAD['place'][en].rsplit(' ', 1)[0]} {FEATURES[self.feature][en]} {cells}?"
        return f"{head} {cells}?"


def _col(text: str, pos: int) -> int:
    """The 1-based column of the first non-blank character at or after `pos`."""
    return len(text) - len(text[pos:].lstrip()) + 1


def _at(text: str, offset: int, err: NotationError) -> NotationError:
    return type(err)(text, err.problem, offset + (err.column or 1), err.expected)


def parse_question(
    text: str, context: NotationContext | None = None, *, side: str = ""
) -> Question:
    """A question from its Russian or English form (a trailing `?` optional); units, cells and
    place names are checked against `context` (a GameState or Scenario) if given."""
    end, side = len(text.rstrip().rstrip("?").rstrip()), Side.parse(side).key if side else ""
    heads = ((k, _FORMS[k].match(text, 0, end)) for k in _HEADS)
    kind, m = next(((k, m) for k, m in heads if m), ("", None))
    if m is None:
        raise InvalidNotationError(text, "not a reconnaissance question", 1, _EXPECTED)
    pos = m.end()
    if kind == "mobilisation" and text[pos:end].strip():
        raise InvalidNotationError(text, "unexpected text", _col(text, pos), "the end")
    if kind == "mobilisation":
        return Question(kind, side=side)
    if kind == "where":
        try:
            return Question(kind, unit=UnitRef.parse(text[pos:end], _units(context)), side=side)
        except NotationError as e:
            raise _at(text, pos, e) from None
    if kind == "presence" and (f := _FORMS["feature"].match(text, pos, end)):
        feature = _FEATURE_NAME[[w for w in f[0].lower().split() if w != "at"][-1]]
        cells = _cells(text, f.end(), end, context)
        ds, at = _theatre(context), _col(text, f.end())
        if len(cells) != 1:
            raise InvalidNotationError(text, f"{len(cells)} cells", at, "one cell")
        if ds is not None and (problem := _feature_problem(ds, feature, cells[0])):
            raise IllegalNotationError(text, problem, at, f"a cell with a {feature}")
        return Question("place", cells, feature=feature, side=side)
    if kind == "presence":
        if not (i := _FORMS["in"].match(text, pos, end)):
            expected = "'в <cells or place>' / 'in <cells or place>'"
            raise InvalidNotationError(text, "no place", _col(text, pos), expected)
        pos, rest = i.end(), text[i.end() : end].strip()
        if rest and not rest[0].isdigit():
            return Question("place", place=_place(text, pos, rest, context), side=side)
    return Question(kind, _cells(text, pos, end, context), side=side)


@dataclass(frozen=True)
class _Units:
    """A game's units for a `where` question: those on the map and every one in the scenario
    (armies, reserves not yet mobilised)."""

    width: int
    height: int
    known_units: tuple[UnitRef, ...]


def _units(context: NotationContext | None) -> NotationContext | None:
    sc = getattr(context, "scenario", None)
    if context is None or sc is None:
        return context
    known = tuple(dict.fromkeys([*context.known_units, *sc.known_units]))
    return _Units(context.width, context.height, known)


def _cells(text: str, pos: int, end: int, context: NotationContext | None) -> tuple[Cell, ...]:
    out = []
    for m in _CELL.finditer(text, pos, end):
        try:
            out.append(parse_cell(m[0], context))
        except NotationError as e:
            raise _at(text, m.start(), e) from None
    if not out:
        raise InvalidNotationError(text, "no cells", pos + 1, "cells like 40,21 41,21")
    return tuple(out)


def _theatre(context: object) -> Any:
    return getattr(context, "theatre", None)


def _place(text: str, pos: int, name: str, context: NotationContext | None) -> str:
    """The place's name as the map writes it (a Russian case ending forgiven), if a map is known."""
    ds = _theatre(context)
    if ds is None:
        return name
    names = list(dict.fromkeys(n for n, _ in terrain.places(ds)))
    at = text.index(name, pos) + 1
    found = [n for n in names if _norm(n) == _norm(name)] or [n for n in names if _like(n, name)]
    if not found:
        raise IllegalNotationError(text, f"no place {name!r} on the map", at, ", ".join(names))
    if len(found) > 1:
        raise AmbiguousNotationError(text, f"{name!r} could be {', '.join(found)}", at)
    return found[0]


def _like(a: str, b: str) -> bool:
    """Words alike up to their last two letters: `Краснодоле` is `Краснодол`."""
    wa, wb = a.lower().replace("ё", "е").split(), b.lower().replace("ё", "е").split()
    if len(wa) != len(wb):
        return False
    ks = [max(len(x), len(y)) - 2 for x, y in zip(wa, wb, strict=True)]
    return all(k >= 3 and x[:k] == y[:k] for k, x, y in zip(ks, wa, wb, strict=True))


def _feature_problem(ds: Any, feature: str, cell: Cell) -> str | None:
    if not terrain.on_map(ds, cell):
        return f"{cell} is off the map"
    i, j = terrain.index(ds, cell)
    has = {
        "fortress": lambda: bool(ds["fortress"].values[i, j]),
        "city": lambda: int(ds["settlement"].values[i, j]) > 0,
        "bridge": lambda: bool(terrain.bridges(ds)[:, i, j].any()),
        "road": lambda: int(ds["road"].values[i, j]) > 0,
        "pass": lambda: bool(terrain.passes(ds)[i, j]),
    }[feature]()
    return None if has else f"no {feature} at {cell}"


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
    _note(f"{per_turns}-turn blocks begun by turn {turn}", f"блоков по {per_turns} ходов", blocks)
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
    cells = tuple(c for n, c in terrain.places(state.theatre) if _norm(n) == _norm(q.place))
    if not cells:
        raise ReconError(f"{q}: no place {q.place!r} on the map")
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
        if owner is None:
            raise ReconError(f"{q}: there is no {q.unit} in the game")
        if owner not in enemies:
            raise ReconError(f"{q}: {q.unit} is not an enemy unit; ask about the enemy (8.3)")
        return tuple(dict.fromkeys(c for u in _members(state, q.unit) for c in u.cells))
    problem = q.feature and _feature_problem(state.theatre, q.feature, q.cells[0])
    if problem:
        raise ReconError(f"{q}: {problem}")
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


def _divisions_ru(n: int) -> str:
    if n % 10 == 1 and n % 100 != 11:
        return "дивизия"
    return "дивизии" if n % 10 in (2, 3, 4) and n % 100 not in (12, 13, 14) else "дивизий"


def answer_text(state: GameState, q: Question, value: AnswerValue) -> Text:
    """The short answer the rule asks for: `Да`, `3 дивизии`, `в 40,21`, `2 т.д., 1 с.д.`."""
    if isinstance(value, bool):
        return Text("Yes", "Да") if value else Text("No", "Нет")
    if isinstance(value, int):
        return Text(
            f"{value} division{'' if value == 1 else 's'}", f"{value} {_divisions_ru(value)}"
        )
    if q.kind == "kind":
        comp = cast(Composition, value)
        if not comp:
            return Text("no troops", "войск нет")
        return Text(
            ", ".join(f"{n} {k.en}" for k, n in comp), ", ".join(f"{n} {k.ru}" for k, n in comp)
        )
    cells = cast(tuple[Cell, ...], value)
    if q.kind == "where":
        where = " ".join(map(str, cells))
        return Text(f"in {where}", f"в {where}") if cells else Text("not found", "не обнаружена")
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
    if q.kind == "where":  # the unit is gone: somewhere in its state's land
        owner = _owner(state, cast(UnitRef, q.unit))
        mask = (st == codes.index(owner) + 1 if owner in codes else st < 0) & (
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
        raise ReconError(f"{q}: asked by {q.side}, not {side}")
    q, turn = replace(q, side=side), state.turn
    own = [p for p in map(_past, history) if p[0] == side]
    with explain(Text(f"reconnaissance: {q.format('en')}", f"разведка: {q}"), rule="8.3") as tr:
        if not state.at_war:
            raise ReconError(f"{q}: turn {turn}, no war yet; reconnaissance begins with it (8.3)")
        price = cost(q, rules)
        b = budget(state, side, rules, history)
        _note("questions left", "осталось вопросов", b.left, "q")
        if price > b.left + 1e-9:
            raise ReconError(
                f"{q}: costs {price:g} questions; {side} has {b.left:g} left of the "
                f"{b.allowance:g} granted by turn {turn} (8.3)"
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
                    f"false, more than {share:.0%} (8.3)"
                )
            else:
                _note("the mediator's choice: false", "решение посредника: ложный", lie)
                lying = lie
            value = _false(state, _enemies(state, side), q, truth, rng) if lying else truth
            if value is None:
                if lie:
                    raise ReconError(f"{q}: no plausible false answer to give")
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
