"""A tactical game on file: the skirmish and every card, action, phase and report in the journal.

The game's store (`strategia.game.store`, the same SQLite file as a game of «Стратегия»: every
entry committed before the command returns) is the game's truth: opening a game replays its
entries over the skirmish. Without a path the game lives in memory (notebooks, tests).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from strategia.core.errors import StrategiaError, read_text_file
from strategia.explain.trace import Explained, Step
from strategia.game.store import GameStore
from strategia.rules import RuleSet
from strategia.rules.load import apply_house_text
from strategia.tactical.actions import parse_actions
from strategia.tactical.data import check_fractions, tactical_rules
from strategia.tactical.phases import (
    Battle,
    Card,
    Phase,
    ReportKind,
    act,
    advance,
    new_battle,
    report,
    set_card,
)
from strategia.tactical.skirmish import Skirmish, Table, load_skirmish, parse_skirmish
from strategia.tactical.units import Condition

KIND = "tactical"


class TacticalGame:
    """A skirmish being played: the battle now, the rules in effect, the journal."""

    def __init__(
        self, skirmish: Skirmish, rules: RuleSet, journal: GameStore | None = None
    ) -> None:
        self.skirmish = skirmish
        self.rules = rules
        self.journal = journal
        self.battle: Battle = new_battle(skirmish)
        self.history: list[Step] = []

    # --- opening -----------------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        skirmish: str | Path | Skirmish,
        path: str | Path | None = None,
        house: list[str | Path] | None = None,
    ) -> TacticalGame:
        """A new game of a skirmish (a file or a parsed one), journaled at `path` if given."""
        sk = skirmish if isinstance(skirmish, Skirmish) else load_skirmish(skirmish)
        houses = [(str(h), read_text_file(h)) for h in house or []]
        rules = _rules(houses)
        journal = None
        if path is not None:
            journal = GameStore.create(
                path,
                {"game": KIND, "ruleset": "tactical", "skirmish": sk.text, "source": sk.source,
                 "house": [list(h) for h in houses]},
            )  # fmt: skip
        return cls(sk, rules, journal)

    @classmethod
    def open(cls, path: str | Path) -> TacticalGame:
        """A game from its journal, replayed."""
        journal = GameStore.open(path)
        head = journal.header
        if head.get("game") != KIND:
            journal.close()
            raise StrategiaError(f"{path}: not a tactical game (open it with `strategia game`)")
        sk = parse_skirmish(head["skirmish"], head.get("source", str(path)))
        rules = _rules([(str(s), str(t)) for s, t in head.get("house", [])])
        game = cls(sk, rules, None)
        for entry in journal.entries[1:]:
            game._apply(entry.kind, entry.data)
        game.journal = journal
        return game

    # --- what the mediator does ----------------------------------------------------------------

    @property
    def table(self) -> Table:
        return self.battle.table

    @property
    def phase(self) -> Phase:
        return self.battle.phase

    @property
    def last(self) -> Step | None:
        return self.history[-1] if self.history else None

    def card(self, unit: str, before: str = "", after: str = "", attack: str | None = None) -> Step:
        """Lay a unit's order card (phase 1): actions before and after fire, whom it attacks."""
        return self._do("card", {"unit": unit, "before": before, "after": after, "attack": attack})

    def act(self, unit: str, actions: str) -> Step:
        """Move a unit now (phases 2, 3, 5, 6), e.g. "move 5; form square"."""
        return self._do("act", {"unit": unit, "actions": actions})

    def advance(self) -> Step:
        """On to the next phase (its planned moves are carried out)."""
        return self._do("advance", {})

    def report(
        self,
        unit: str,
        kind: str,
        casualties: int = 0,
        outcome: str = "",
        condition: str | None = None,
        by: str | None = None,
    ) -> Step:
        """Enter a result (fire, test, melee, wavering) the seed has no table for: what befell
        `unit` (casualties in figures, outcome, new condition), `by` whom if anyone."""
        data = {"unit": unit, "kind": kind, "casualties": casualties, "outcome": outcome,
                "condition": condition, "by": by}  # fmt: skip
        return self._do("report", data)

    def to_json(self) -> dict[str, Any]:
        d = self.battle.to_json(self.rules)
        d["game"] = str(self.journal.path) if self.journal else None
        return d

    # --- the one path --------------------------------------------------------------------------

    def _do(self, kind: str, data: dict[str, Any]) -> Step:
        """Carry out an entry and write it; if it cannot be written, it did not happen."""
        battle, done = self.battle, len(self.history)
        step = self._apply(kind, data)
        if self.journal is not None:
            try:
                self.journal.append(kind, data)
            except BaseException:
                self.battle, self.history[done:] = battle, []
                raise
        return step

    def _apply(self, kind: str, data: dict[str, Any]) -> Step:
        ops: dict[str, Callable[[dict[str, Any]], Explained[Battle]]] = {
            "card": self._card,
            "act": lambda d: act(self.battle, d["unit"], parse_actions(d["actions"]), self.rules),
            "advance": lambda d: advance(self.battle, self.rules),
            "report": self._report,
        }
        if kind not in ops:
            raise StrategiaError(f"unknown journal entry {kind!r}")
        result = ops[kind](data)
        self.battle = result.value
        self.history.append(result.explanation)
        return result.explanation

    def _card(self, d: dict[str, Any]) -> Explained[Battle]:
        card = Card(
            parse_actions(d.get("before") or ""),
            parse_actions(d.get("after") or ""),
            d.get("attack") or None,
        )
        return set_card(self.battle, d["unit"], card, self.rules)

    def _report(self, d: dict[str, Any]) -> Explained[Battle]:
        condition = Condition.parse(d["condition"]) if d.get("condition") else None
        return report(
            self.battle,
            d["unit"],
            ReportKind.parse(d["kind"]),
            self.rules,
            casualties=int(d.get("casualties") or 0),
            outcome=str(d.get("outcome") or ""),
            condition=condition,
            by=d.get("by") or None,
        )


def _rules(houses: list[tuple[str, str]]) -> RuleSet:
    rules = tactical_rules()
    for source, text in houses:
        rules = apply_house_text(rules, text, source)
    check_fractions(rules)
    return rules
