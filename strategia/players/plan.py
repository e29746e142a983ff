"""The operational plan of a move (5.4): the front cut into sectors, one army's strip each (5.6:
4 to 10 divisions), the balance of forces estimated in each, and the main effort where the
estimate favours the side most; the rest of the front is held.

The enemy in a sector is estimated from what the side knows (`picture`): the counters it
knows of there (each a full-strength division of the kind seen, с.д. when not known), the
stretches of the border where it knows of none taken to be held at 5.8's covering density
(1/3 division per 10 km, times the style's `unknown_density`), the first-echelon armies told
of (6.2, 8.1: their strips and divisions), and the counts its questions were answered (8.3);
the largest of these. A posture decides whether the side may begin the war (9.1): from a
given turn, or never (it waits to be attacked).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from strategia.core.errors import Problem, RuleDataError
from strategia.core.i18n import Text
from strategia.core.numbers import num
from strategia.engine.state import UnitState
from strategia.explain.trace import Step
from strategia.game.views import ArmyNote
from strategia.players.decision import number, ratio, step
from strategia.players.ground import Ground
from strategia.players.picture import Known, Picture
from strategia.players.styles import Style
from strategia.players.whatif import rating
from strategia.rules import RuleSet
from strategia.rules.kinds import DivisionKind

NOT_IN_LINE = (DivisionKind.FORTRESS,)
ATTACKING = (
    DivisionKind.RIFLE,
    DivisionKind.TANK,
    DivisionKind.MOTORISED,
    DivisionKind.SP_GUN,
    DivisionKind.CAVALRY,
)
MOBILE = (DivisionKind.TANK, DivisionKind.MOTORISED, DivisionKind.SP_GUN)
BAND = 6  # cells either side of the border a sector's forces are counted in
ARMY_MIN, ARMY_MAX = 4, 10  # 5.6


@dataclass(frozen=True)
class Posture:
    """Whether the side may begin the war (9.1): from turn `attack_from`, or never (None: it
    waits to be attacked, and fights once at war)."""

    attack_from: int | None = None

    @classmethod
    def parse(cls, text: str) -> Posture:
        """`wait`, `attack` (from turn 1) or `attack@N`."""
        t = text.strip().lower()
        if t == "wait":
            return cls(None)
        if t == "attack":
            return cls(1)
        if t.startswith("attack@") and t[7:].isdigit() and int(t[7:]) >= 1:
            return cls(int(t[7:]))
        raise RuleDataError(
            "posture",
            [Problem(f"posture {text!r}", "expected wait, attack or attack@N (N a turn from 1)")],
        )

    def key(self) -> str:
        return "wait" if self.attack_from is None else f"attack@{self.attack_from}"

    def may_begin(self, turn: int) -> bool:
        return self.attack_from is not None and turn >= self.attack_from

    def text(self) -> Text:
        if self.attack_from is None:
            return Text("wait to be attacked", "ждать нападения")
        n = self.attack_from
        return Text(f"attack from turn {n}", f"наступать с {n}-го хода")


@dataclass(frozen=True)
class Sector:
    """One army's strip of the front: its positions along the front, own divisions near the
    border and their strength, the enemy's estimated strength and how it was estimated."""

    number: int
    lo: int
    hi: int
    own: tuple[UnitState, ...]
    own_strength: float
    enemy: float
    known: float
    known_kind: float  # of the enemy known, what is known by its kind (in sight, open ground)
    assumed: float
    army: float
    counted: float

    @property
    def balance(self) -> float:
        return round(self.own_strength / self.enemy, 3) if self.enemy > 0 else math.inf

    def holds(self, along: int) -> bool:
        return self.lo <= along <= self.hi

    def label(self, case: str = "nom") -> Text:
        """«полоса 2 (15-26)»; `case` "gen", "prep" or "dat": «разведка полосы 2», «в полосе 2»,
        «к полосе 2»."""
        word = {"nom": "полоса", "gen": "полосы"}.get(case, "полосе")
        return Text(
            f"sector {self.number} ({self.lo}-{self.hi})",
            f"{word} {self.number} ({self.lo}-{self.hi})",
        )


@dataclass(frozen=True)
class Plan:
    """The move's plan: the sectors, the main effort (None: the front is held), whether the
    side fights (at war, or its posture lets it begin), and the reason."""

    sectors: tuple[Sector, ...]
    main: Sector | None
    fights: bool
    reason: Step
    kept: bool = False  # its main effort kept from the last move

    def sector_of(self, along: int) -> Sector | None:
        return next((s for s in self.sectors if s.holds(along)), None)

    def threshold(self, along: int, style: Style) -> float:
        """The ratio a blow at this place needs: the main effort's, or the held front's."""
        main = self.main is not None and self.main.holds(along)
        return style.attack_ratio if main else style.hold_attack_ratio


def field_units(units: Sequence[UnitState]) -> list[UnitState]:
    """The divisions that stand in the line (a fortress garrison never moves, 3.6)."""
    return [u for u in units if u.division.kind not in NOT_IN_LINE]


def make_plan(
    ground: Ground,
    picture: Picture,
    armies: Sequence[ArmyNote],
    rules: RuleSet,
    style: Style,
    posture: Posture,
    rng: random.Random,
    keep: int | None = None,
) -> Plan:
    """The plan of the move (see the module); `keep`: the place along the front of the main
    effort the side kept from its last move (a style with `keep_margin` keeps it there until
    another sector's balance beats it by that share)."""
    fights = picture.at_war or posture.may_begin(picture.turn)
    own = [u for u in field_units(picture.own) if u.division.kind in ATTACKING]
    sectors = _sectors(ground, picture, own, armies, rules, style)
    main: Sector | None = None
    why: Text | None = None
    if fights and sectors:
        best = max(s.balance for s in sectors)
        if style.keep_margin <= 0:  # the one-move player: drawn again among the near-best
            near = [s for s in sectors if s.balance >= best * 0.95]
            pick = near[rng.randrange(len(near))]
        else:
            pick, why = keep_or_move(sectors, keep, style)
        if pick.balance >= style.main_effort_balance or style.concentrate:
            main = pick
    with_war = Text("at war", "идет война") if picture.at_war else posture.text()
    lines = [step(Text("posture", "позиция"), with_war, rule="9.1")]
    for s in sectors:
        lines.append(_sector_step(s, style))
    if main is not None:
        lines.append(
            step(
                Text("main effort", "главный удар"),
                main.label(),
                rule="5.4",
                note=why
                or Text(
                    f"the best balance, {num(main.balance)} ≥ {num(style.main_effort_balance)}",
                    f"лучшее соотношение, {num(main.balance, 'ru')} ≥ "
                    f"{num(style.main_effort_balance, 'ru')}",
                ),
            )
        )
    else:
        why = (
            Text("no sector's balance is good enough", "нет полосы с достаточным соотношением")
            if fights
            else Text("not at war: the front is held", "войны нет: фронт удерживается")
        )
        lines.append(step(Text("main effort", "главный удар"), Text("none", "нет"), note=why))
    if main is not None:
        head = Text(
            f"Plan of the move: the main effort in {main.label().en}",
            f"Замысел хода: главный удар в {main.label('prep').ru}",
        )
    else:
        head = Text(
            "Plan of the move: no main effort, the front is held",
            "Замысел хода: главного удара нет, фронт удерживается",
        )
    reason = step(head, rule="5.4", children=lines)
    kept = keep is not None and main is not None and main.holds(keep) and style.keep_margin > 0
    return Plan(tuple(sectors), main, fights, reason, kept)


def keep_or_move(sectors: Sequence[Sector], keep: int | None, style: Style) -> tuple[Sector, Text]:
    """The main effort kept where it was (`keep`, a place along the front), unless another
    sector's balance beats it by the style's `keep_margin`; why, in words."""
    best = max(sectors, key=lambda s: (_finite(s.balance), -s.number))
    kept = next((s for s in sectors if keep is not None and s.holds(keep)), None)
    m = num(style.keep_margin * 100)
    if kept is None:
        return best, Text(
            f"the best balance, {num(best.balance)}: the main effort begins there",
            f"лучшее соотношение, {num(best.balance, 'ru')}: главный удар начинается здесь",
        )
    if kept is best or _finite(best.balance) <= _finite(kept.balance) * (1 + style.keep_margin):
        return kept, Text(
            f"kept from the last move: no sector's balance beats it by more than {m} %",
            f"сохранен с прошлого хода: ни одна полоса не лучше более чем на {m} %",
        )
    return best, Text(
        f"moved from {kept.label().en}: {num(best.balance)} beats {num(kept.balance)} "
        f"by more than {m} %",
        f"перенесен из {kept.label('gen').ru}: {num(best.balance, 'ru')} лучше "
        f"{num(kept.balance, 'ru')} более чем на {m} %",
    )


def _finite(x: float) -> float:
    return x if math.isfinite(x) else 1e6


def _sectors(
    ground: Ground,
    picture: Picture,
    own: list[UnitState],
    armies: Sequence[ArmyNote],
    rules: RuleSet,
    style: Style,
) -> list[Sector]:
    if not ground.border:
        return []
    alongs = [ground.along(c) for c in ground.border]
    lo, hi = min(alongs), max(alongs)
    near = [u for u in own if ground.depth(u.cell) <= BAND]
    k = max(1, math.ceil(len(near) / ARMY_MAX))
    while k > 1 and len(near) / k < ARMY_MIN:
        k -= 1
    width = (hi - lo + 1) / k
    positions = sorted(set(alongs))
    density = float(rules.value("deployment", "cover_density")) * style.unknown_density
    rifle = rating(DivisionKind.RIFLE, rules)
    enemies = [e for e in picture.enemies if ground.at(ground.land, e.cell)]
    out = []
    for n in range(k):
        a = lo + round(n * width)
        b = lo + round((n + 1) * width) - 1 if n < k - 1 else hi
        mine = tuple(u for u in near if a <= ground.along(u.cell) <= b)
        strength = sum(rating(u.division.kind, rules) * u.division.strength for u in mine)
        theirs = [e for e in enemies if a <= ground.along(e.cell) <= b and _in_band(ground, e)]
        known = sum(rating(e.kind, rules) for e in theirs)
        known_kind = sum(rating(e.kind, rules) for e in theirs if e.kind_known)
        seen_at = {ground.along(e.cell) + d for e in theirs for d in (-1, 0, 1)}
        seen_at |= {ground.along(c) for c in ground.facing if ground.at(picture.visible, c)}
        open_ = [p for p in positions if a <= p <= b and p not in seen_at]
        assumed = len(open_) * density * rifle
        army = _armies(armies, ground, a, b, rifle)
        counted = _counted(picture, ground, a, b, rifle)
        enemy = max(known + assumed, army, counted, 0.1)
        out.append(
            Sector(
                n + 1,
                a,
                b,
                mine,
                round(strength, 3),
                round(enemy, 3),
                round(known, 3),
                round(known_kind, 3),
                round(assumed, 3),
                round(army, 3),
                round(counted, 3),
            )
        )
    return out


def _in_band(ground: Ground, e: Known) -> bool:
    c = e.cell
    return int(ground.to_own[c.lon - 1, c.lat - 1]) <= BAND


def _armies(armies: Sequence[ArmyNote], ground: Ground, a: int, b: int, rifle: float) -> float:
    """The first-echelon armies' divisions told of (6.2, 8.1), spread evenly over their strips,
    that fall in positions a..b (corps taken at 2 divisions where the count is not told)."""
    along = "lon" if ground.axis == 0 else "lat"
    total = 0.0
    for note in armies:
        if note.echelon != "first" or note.strip is None or note.along != along:
            continue
        n = note.divisions if note.divisions is not None else 2 * (note.corps or 0)
        s0, s1 = note.strip
        overlap = max(0, min(b, s1) - max(a, s0) + 1)
        total += n * overlap / (s1 - s0 + 1) * rifle
    return total


def _counted(picture: Picture, ground: Ground, a: int, b: int, rifle: float) -> float:
    """The divisions the side's questions counted in positions a..b (8.3), the freshest."""
    best = 0.0
    for c in sorted(picture.counts, key=lambda c: c.turn):
        inside = [x for x in c.cells if a <= ground.along(x) <= b]
        if inside and len(inside) * 2 >= len(c.cells):
            best = c.n * rifle
    return best


def _sector_step(s: Sector, style: Style) -> Step:
    parts = [
        step(Text("own divisions near the border", "своих дивизий у границы"), len(s.own)),
        step(Text("their strength (9.6)", "их сила (9.6)"), number(s.own_strength), rule="9.6"),
        step(Text("enemy known there", "известный противник"), number(s.known), rule="8.2"),
    ]
    if s.assumed:
        parts.append(
            step(
                Text(
                    "unknown border held at the covering density",
                    "неизвестный участок границы: плотность прикрытия",
                ),
                number(s.assumed),
                rule="5.8",
            )
        )
    if s.army:
        parts.append(
            step(
                Text("first-echelon armies told of", "армии первого эшелона"),
                number(s.army),
                rule="6.2",
            )
        )
    if s.counted:
        parts.append(
            step(
                Text("divisions counted by questions", "дивизий по ответам разведки"),
                number(s.counted),
                rule="8.3",
            )
        )
    parts.append(step(Text("enemy estimated", "оценка противника"), number(s.enemy)))
    value = ratio(s.balance) if math.isfinite(s.balance) else Text("no enemy", "противника нет")
    return step(
        Text(f"balance in {s.label().en}", f"соотношение в {s.label('prep').ru}"),
        value,
        rule="5.4",
        children=parts,
    )


__all__ = [
    "ATTACKING", "MOBILE", "Plan", "Posture", "Sector", "field_units", "keep_or_move", "make_plan",
]  # fmt: skip
