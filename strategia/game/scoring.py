"""Scoring (section 10 is missing: reconstructed from 1.1 and 9.3, the figures in `scoring`).

A side scores for the losses of the enemies it is at war with and loses for its own (the balance
of forces, 1.1), scores for enemy cities, capitals, fortresses and cells its troops hold
(territory, 1.1), and loses the penalties of 9.3 when played without a mediator. Losses are the
forces destroyed or taken away by battles, strikes and interdiction fire, as the journal records
them (`strategia.game.losses`): a side's reserves arriving (6.4) never count. With no losses on
either side the balance is `scoring.balance_without_losses` (0: reconstructed), and the game is
scored on ground alone.
"""

from __future__ import annotations

from collections.abc import Mapping

from strategia.core.i18n import Text
from strategia.core.numbers import num
from strategia.engine.state import GameState
from strategia.explain.trace import Explained, explain
from strategia.rules import RuleSet
from strategia.rules.english import en
from strategia.rules.kinds import side_name
from strategia.theatre import terrain


def strength_of(state: GameState, side: str, rules: RuleSet) -> float:
    """A side's forces as the sum of its divisions' level-1 ratings times strength (9.6)."""
    total = 0.0
    for u in state.units.values():
        if state.side_of(u.ref) == side:
            total += (
                float(rules.param("initial_ratings", u.division.kind.key, "rating").value)
                * u.division.strength
            )
    return round(total, 6)


def enemies_at_war(state: GameState, side: str) -> list[str]:
    """The sides at war with `side` (9.1): a state of each is at war with a state of the other."""
    codes = {s.code: s.side for s in state.scenario.states}
    mine = [c for c, sd in codes.items() if sd == side]
    out = []
    for other in dict.fromkeys(sd for sd in codes.values() if sd != side):
        theirs = [c for c, sd in codes.items() if sd == other]
        if any(state.at_war_between(a, b) for a in mine for b in theirs):
            out.append(other)
    return out


_PLACES = {
    "cells": ("enemy cells held", "занятых клеток противника", "per_cell"),
    "cities": ("enemy cities held", "занятых городов противника", "per_city"),
    "capitals": ("enemy capitals held", "занятых столиц противника", "per_capital"),
    "fortresses": ("enemy fortresses held", "занятых крепостей противника", "per_fortress"),
}


def score(
    now: GameState,
    side: str,
    rules: RuleSet,
    lost: Mapping[str, float],
    penalties: float = 0.0,
) -> Explained[float]:
    """A side's score in position `now` with its breakdown: the balance of forces against the
    sides it is at war with, from `lost`, each side's losses so far (`strategia.game.losses`;
    a neutral scores nothing for other sides' battles), their ground it holds, and the
    penalties of 9.3."""
    with explain(
        Text(en(f"Score of {side_name(side, 'en')}"), f"Очки {side_name(side, 'ru', 'gen')}"),
        rule="1.1",
        unit="pts",
    ) as ex:
        enemies = enemies_at_war(now, side)
        with explain(Text("balance of forces", "соотношение сил"), rule="1.1", unit="pts") as g:
            own_lost = float(lost.get(side, 0.0))
            g.step(
                Text("own rating lost", "потеряно своего рейтинга"), round(own_lost, 4), rule="9.6"
            )
            enemy_lost = 0.0
            for e in enemies:
                theirs = float(lost.get(e, 0.0))
                enemy_lost += theirs
                g.step(
                    Text(
                        en(f"rating of {side_name(e, 'en')} destroyed"),
                        f"уничтожено рейтинга {side_name(e, 'ru', 'gen')}",
                    ),
                    round(theirs, 4),
                    rule="9.6",
                )
            per_enemy = float(rules.value("scoring", "per_enemy_rating"))
            per_own = float(rules.value("scoring", "per_own_rating"))
            if not enemies:
                g.step(
                    Text("at war with no one: nothing to score", "войны нет: очков нет"),
                    kind="note",
                    rule="9.1",
                )
                balance = 0.0
            elif own_lost == 0 and enemy_lost == 0:
                balance = float(rules.value("scoring", "balance_without_losses"))
                g.step(
                    Text(
                        en(
                            f"no losses on either side: balance of forces {num(balance)}, "
                            "scored on ground (reconstructed)"
                        ),
                        f"потерь нет ни у одной стороны: соотношение сил {num(balance, 'ru')}, "
                        "счет по территории (восстановлено)",
                    ),
                    kind="note",
                    rule="1.1",
                )
            else:
                balance = enemy_lost * per_enemy + own_lost * per_own
            g.set(round(balance, 2))
        with explain(Text("territory held", "занятая территория"), rule="1.1", unit="pts") as g:
            ds = now.theatre
            codes = [s.code for s in now.scenario.states]
            sides_of = {s.code: s.side for s in now.scenario.states}
            held = {c for u in now.units.values() if now.side_of(u.ref) == side for c in u.cells}
            counts = dict.fromkeys(_PLACES, 0)
            for c in held:
                if not terrain.on_map(ds, c):
                    continue
                i, j = terrain.index(ds, c)
                k = int(ds["state"].values[i, j])
                if not k or sides_of[codes[k - 1]] not in enemies:
                    continue
                counts["cells"] += 1
                settlement = int(ds["settlement"].values[i, j])
                counts["capitals"] += settlement == 2
                counts["cities"] += settlement == 1
                counts["fortresses"] += bool(ds["fortress"].values[i, j])
            points = 0.0
            for what, (label_en, label_ru, key) in _PLACES.items():
                g.step(Text(label_en, label_ru), counts[what], rule="1.1")
                points += counts[what] * float(rules.value("scoring", key))
            g.set(points)
        ex.step(Text("penalties (9.3)", "штрафы (9.3)"), -penalties, unit="pts", rule="9.3")
        total = round(balance + points - penalties, 2)
        ex.set(total)
        return ex.explained(total)
