"""Reconnaissance (8.3): questions asked where the side knows too little, within its budget.

From the war on, a sector where the enemy known by its kind (in sight, in the open) is less
than half the estimate (the rest covering counters known by position, a density assumed,
armies told of) is asked about: «сколько дивизий в ...?» over the enemy's ground of the sector
near the border that the side does not see (a numeric question, one of the 15 a side has for
every 10 turns), unless a fresh answer covers it. The main effort's sector first, then the
least known. A move spends at most the style's `questions_share` of what is left.
"""

from __future__ import annotations

from dataclasses import dataclass

from strategia.core.geometry import Cell
from strategia.core.i18n import Text
from strategia.core.numbers import num
from strategia.explain.trace import Step
from strategia.players.decision import number, step
from strategia.players.ground import Ground
from strategia.players.picture import COUNT_Q, Picture
from strategia.players.plan import Plan, Sector
from strategia.players.styles import Style

COST = 1.0  # a question with a numeric answer (8.3)
DEPTH = 3  # cells of the enemy's ground beyond the border a question covers
MOST_CELLS = 40


@dataclass(frozen=True)
class Question:
    """A question to ask, and why."""

    text: str
    reason: Step


def questions(
    picture: Picture, plan: Plan, ground: Ground, left: float, style: Style
) -> list[Question]:
    """The questions of this move (see the module)."""
    if not picture.at_war or not plan.sectors:
        return []
    allowance = left * style.questions_share
    counted = [c for c in picture.counts]
    order = sorted(
        plan.sectors,
        key=lambda s: (plan.main is not s, -(s.assumed / s.enemy if s.enemy else 0), s.number),
    )
    out: list[Question] = []
    for s in order:
        if allowance < COST:
            break
        if s.known_kind * 2 >= s.enemy or any(_covers(c.cells, s, ground) for c in counted):
            continue
        cells = _unseen(s, ground, picture)
        if not cells:
            continue
        text = f"{COUNT_Q[0]}{' '.join(str(c) for c in cells)}{COUNT_Q[1]}"
        out.append(Question(text, _reason(s, len(cells), left)))
        allowance -= COST
    return out


def _covers(cells: tuple[Cell, ...], s: Sector, ground: Ground) -> bool:
    inside = [c for c in cells if s.holds(ground.along(c))]
    return bool(inside) and len(inside) * 2 >= len(cells)


def _unseen(s: Sector, ground: Ground, picture: Picture) -> list[Cell]:
    """The enemy's ground of the sector within `DEPTH` cells of the border, not in sight."""
    w, h = ground.size
    out = []
    for i in range(w):
        for j in range(h):
            c = Cell(i + 1, j + 1)
            if not ground.enemy[i, j] or not ground.land[i, j] or picture.visible[i, j]:
                continue
            if not 1 <= int(ground.to_own[i, j]) <= DEPTH or not s.holds(ground.along(c)):
                continue
            out.append(c)
    out.sort(key=lambda c: (int(ground.to_own[c.lon - 1, c.lat - 1]), ground.along(c)))
    return sorted(out[:MOST_CELLS], key=lambda c: (c.lon, c.lat))


def _reason(s: Sector, n: int, left: float) -> Step:
    parts = [
        step(Text("enemy known there", "известный противник"), number(s.known), rule="8.2"),
        step(
            Text("assumed at the covering density", "принято по плотности прикрытия"),
            number(s.assumed),
            rule="5.8",
            note=Text("it knows too little", "сведений мало"),
        ),
        step(Text("cells asked about", "клеток в вопросе"), n, rule="8.3"),
        step(
            Text("questions left (15 for every 10 turns)", "осталось вопросов (15 на 10 ходов)"),
            Text(num(left), num(left, "ru")),
            rule="8.3",
        ),
    ]
    label = Text(f"Reconnaissance of {s.label().en}", f"Разведка {s.label('gen').ru}")
    return step(label, rule="8.3", children=parts)


__all__ = ["Question", "questions"]
