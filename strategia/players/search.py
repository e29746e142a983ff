"""The search over the move's plans (5.4): each candidate plan (its main effort in one sector or
another) is played out by the engine on the side's picture (`whatif`: the blows it would strike
at its thresholds, the main effort's and the held front's), followed by the enemy's likely
reply (the one-move player's blows: every enemy division it knows of beside a division of the
side strikes where the engine's ratio reaches the `greedy` style's threshold), over several
enemy dispositions sampled from what the side knows only: the first is the picture as it is;
each other adds, on the enemy's border cells the side does not see and knows nothing of, a
с.д. with the chance of 5.8's covering density (1/3 division per 10 km, times the style's
`unknown_density`). Nothing else of the enemy is used.

A plan's value is the enemy's rating lost less the side's own (divisions of level-1 rating,
9.6), and a tenth of the side's attacking rating left beside the enemy in the main effort (what
the next move may strike with), its mean over the samples; the plan kept from the last move is
changed only when another beats it by the style's `replan_value`. A `think` budget in seconds
stops the search when spent (the plans not played out are not weighed).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, replace

from strategia.core.i18n import Lang, Text
from strategia.core.layered import Layered
from strategia.core.numbers import num
from strategia.engine.state import GameState, UnitState
from strategia.explain.trace import Step
from strategia.notation.refs import UnitRef
from strategia.players.decision import step
from strategia.players.fight import able, beside, choose_blows, weigh_blows
from strategia.players.ground import Ground
from strategia.players.picture import Picture
from strategia.players.plan import ATTACKING, Plan
from strategia.players.styles import Style
from strategia.players.whatif import FAKE, attempt, full_division, rating, strength
from strategia.players.withdraw import danger
from strategia.rules import RuleSet
from strategia.rules.kinds import DivisionKind, Formation

LETTERS = "АБВГДЕЖЗ"
LATIN = "ABCDEFGH"
REPLY_RATIO = 1.5  # the enemy's likely reply: the one-move player's ratio for a blow
SAMPLED = FAKE + 50_000  # the numbers given to enemy divisions sampled where none is known


@dataclass(frozen=True)
class Weighed:
    """A candidate plan and its value (None: not played out within the budget)."""

    plan: Plan
    value: float | None
    kept: bool


def sample(state: GameState, picture: Picture, ground: Ground, rules: RuleSet, style: Style,
           rng: random.Random) -> GameState:  # fmt: skip
    """`state` with enemy divisions sampled on the enemy's border cells the side neither sees
    nor knows anything of (see the module)."""
    chance = float(rules.value("deployment", "cover_density")) * style.unknown_density
    known = picture.near_enemy
    units = dict(state.units.items())
    owner = ground.enemy_codes[0] if ground.enemy_codes else ""
    n = SAMPLED
    for c in ground.facing:
        if ground.at(picture.visible, c) or c in known or state.occupants(c):
            continue
        if not ground.at(ground.land, c) or rng.random() >= chance or not owner:
            continue
        ref = UnitRef(n, DivisionKind.RIFLE)
        n += 1
        units[ref] = UnitState(
            ref=ref,
            owner=owner,
            division=full_division(ref.number, DivisionKind.RIFLE, rules),
            cells=(c,),
            facing=state.scenario.default_facing(owner, c),
            formation=Formation.LINEAR,
        )
    return replace(state, units=Layered(units))


def reply(state: GameState, picture: Picture, rules: RuleSet, side: str) -> float:
    """The side's rating lost to the enemy's likely reply on `state` (see the module)."""
    lost = 0.0
    for u in sorted(state.units.values(), key=lambda u: u.ref.number):
        if u.ref not in state.units or state.side_of(u.ref) != side:
            continue  # (destroyed by an earlier blow of the reply)
        u = state.unit(u.ref)
        t = danger(state, u, picture, rules, side)
        if t is not None and t.clean and (t.ratio or 0.0) >= REPLY_RATIO:
            lost += t.enemy_lost  # the enemy's blow: its "enemy" is the side
            state = t.state
    return lost


def play_out(state: GameState, picture: Picture, plan: Plan, ground: Ground, rules: RuleSet,
             style: Style, side: str) -> float:  # fmt: skip
    """A plan's value on one disposition: its blows' and fire's gain (the engine's battles on
    the picture), less what the enemy's likely reply costs the side."""
    before = _ratings(state, rules, side)
    blows = choose_blows(weigh_blows(state, picture, plan, ground, rules, style, side))
    for b in blows:
        t = attempt(state, b.order, rules, side)
        if t.clean and (t.ratio or 0.0) >= b.threshold:
            state = t.state
    after = _ratings(state, rules, side)
    gain = (before[1] - after[1]) - (before[0] - after[0])
    return gain - reply(state, picture, rules, side) + _pressure(state, plan, ground, rules, side)


def _ratings(state: GameState, rules: RuleSet, side: str) -> tuple[float, float]:
    """(the side's, the enemy's) ratings of the units on `state`."""
    mine = [r for r in state.units if state.side_of(r) == side]
    theirs = [r for r in state.units if state.side_of(r) != side]
    return strength(state, mine, rules), strength(state, theirs, rules)


def _pressure(state: GameState, plan: Plan, ground: Ground, rules: RuleSet, side: str) -> float:
    """A tenth of the side's free attacking rating in the main effort beside the enemy: what
    the next move may strike with."""
    if plan.main is None:
        return 0.0
    total = 0.0
    for u in state.units.values():
        if state.side_of(u.ref) != side or u.division.kind not in ATTACKING or not able(u):
            continue
        if not plan.main.holds(ground.along(u.cell)):
            continue
        if any(state.side_of(o.ref) != side for o in state.beside([u.cell]) if beside(u, o.cell)):
            total += rating(u.division.kind, rules) * u.division.strength
    return round(total / 10, 6)


def search(
    state: GameState,
    picture: Picture,
    plan: Plan,
    ground: Ground,
    rules: RuleSet,
    style: Style,
    side: str,
    rng: random.Random,
    think: float | None = None,
) -> tuple[Plan, list[Weighed], float]:
    """The plan to play (the kept one unless another beats it by `replan_value`), every
    candidate weighed, and the seconds spent (see the module)."""
    t0 = time.perf_counter()
    if not plan.fights or not plan.sectors or style.search_plans <= 0:
        return plan, [], 0.0
    kept = plan.main
    ranked = sorted(plan.sectors, key=lambda s: (s is not kept, -_finite(s.balance), s.number))
    candidates = [replace(plan, main=s) for s in ranked[: style.search_plans]]
    states = [state] + [sample(state, picture, ground, rules, style, rng)
                        for _ in range(style.samples - 1)]  # fmt: skip
    out: list[Weighed] = []
    for cand in candidates:
        if think is not None and out and time.perf_counter() - t0 > think:
            out.append(Weighed(cand, None, cand.main is kept))
            continue
        values = [play_out(s, picture, cand, ground, rules, style, side) for s in states]
        out.append(Weighed(cand, round(sum(values) / len(values), 3), cand.main is kept))
    best = max((w for w in out if w.value is not None), key=lambda w: w.value or 0.0)
    base = next((w for w in out if w.kept and w.value is not None), None)
    chosen = best
    if base is not None and (best.value or 0.0) < (base.value or 0.0) + style.replan_value:
        chosen = base
    return chosen.plan, out, round(time.perf_counter() - t0, 3)


def _finite(x: float) -> float:
    return x if x < 1e9 else 1e9


def weighed_step(weighed: list[Weighed], chosen: Plan, style: Style) -> Step:
    """«3 замысла: А 2,1; Б 1,4; В 0,9 — выбран А», each plan named by its main effort."""
    names: list[Text] = []
    chosen_at = 0
    for n, w in enumerate(weighed):
        if w.plan.main is chosen.main:
            chosen_at = n
        names.append(Text(LATIN[n], LETTERS[n]))
    en = "; ".join(f"{names[n].en} {_value(w, 'en')}" for n, w in enumerate(weighed))
    ru = "; ".join(f"{names[n].ru} {_value(w, 'ru')}" for n, w in enumerate(weighed))
    count = len(weighed)
    children = []
    for n, w in enumerate(weighed):
        where = w.plan.main
        label = Text(
            f"plan {names[n].en}: the main effort in {where.label().en if where else 'none'}"
            + _why_en(w),
            f"замысел {names[n].ru}: главный удар в {where.label('prep').ru if where else 'нет'}"
            + _why_ru(w),
        )
        children.append(step(label, rule="5.4"))
    children.append(
        step(
            Text(
                f"a plan kept is changed only for one better by {num(style.replan_value)} "
                "divisions of rating",
                f"сохраненный замысел меняется только на лучший на {num(style.replan_value, 'ru')} "
                "дивизии рейтинга",
            ),
            rule="5.4",
        )
    )
    return step(
        Text(
            f"{count} plan{'' if count == 1 else 's'} played out by the engine: {en} — "
            f"{names[chosen_at].en} chosen",
            f"{count} {_plans_ru(count)}: {ru} — выбран {names[chosen_at].ru}",
        ),
        rule="5.4",
        children=children,
    )


def _value(w: Weighed, lang: Lang) -> str:
    if w.value is None:
        return "not played out" if lang == "en" else "не разыгран"
    return num(w.value, lang)


def _plans_ru(n: int) -> str:
    """«1 замысел разыгран», «3 замысла разыграно», «5 замыслов разыграно»."""
    if n % 10 == 1 and n % 100 != 11:
        return "замысел разыгран"
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return "замысла разыграно"
    return "замыслов разыграно"


def _why_en(w: Weighed) -> str:
    if not w.kept:
        return ""
    return ", kept from the last move" if w.plan.kept else ", the best balance's"


def _why_ru(w: Weighed) -> str:
    if not w.kept:
        return ""
    return ", сохранен с прошлого хода" if w.plan.kept else ", по лучшему соотношению"


__all__ = ["Weighed", "play_out", "reply", "sample", "search", "weighed_step"]
