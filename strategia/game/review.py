"""Checking a game played without a mediator (6.3, 9.3): every order the rules cut is an error.

9.3: any error (ambiguous information, an impossible order...) costs 50 points; a deliberate one
(moving troops across the sea, say) 500. Which errors are deliberate is reconstructed: an order
of which nothing could be carried out because the way is impossible (no way at all, water,
impassable ground), or which names another side's unit.
"""

from __future__ import annotations

from collections.abc import Sequence

from strategia.core.i18n import Text
from strategia.engine.result import Result
from strategia.explain.trace import Explained, explain
from strategia.game.order_words import order_in
from strategia.rules import RuleSet
from strategia.rules.english import en
from strategia.rules.kinds import side_name

Recorded = tuple[int, int, str, Result]  # journal entry, turn, side, the result

DELIBERATE = ("no way for", "is water", "impassable")


def review(results: Sequence[Recorded], rules: RuleSet) -> dict[str, Explained[float]]:
    """Penalty points per side, each with the list of the orders found wrong."""
    error = float(rules.value("mediator", "penalty_error"))
    deliberate = float(rules.value("mediator", "penalty_deliberate"))
    out: dict[str, Explained[float]] = {}
    sides = {side for _, _, side, _ in results if side}
    for side in sorted(sides):
        with explain(
            Text(
                en(f"Penalties of {side_name(side, 'en')}"),
                f"Штрафы {side_name(side, 'ru', 'gen')}",
            ),
            rule="9.3",
            unit="pts",
        ) as ex:
            total = 0.0
            for seq, turn, s, r in results:
                if s != side or not r.cuts:
                    continue
                reasons = "; ".join(c.reason.en for c in r.cuts)
                nothing_done = r.explanation.value in (0, 0.0, None)
                worst = nothing_done and any(w in reasons for w in DELIBERATE)
                points = deliberate if worst else error
                ex.step(
                    Text(
                        en(f"turn {turn}, entry {seq}: {order_in(r.order, 'en')} — {reasons}"),
                        f"ход {turn}, запись {seq}: {r.order}",
                    ),
                    points,
                    unit="pts",
                    rule="9.3",
                )
                total += points
            ex.set(total)
            out[side] = ex.explained(total)
    return out
