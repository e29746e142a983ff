"""What executing an order produced: the journal's account, the explanation, what was cut (9.3)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from strategia.core.errors import StrategiaError
from strategia.core.i18n import Lang, Text
from strategia.engine.battle_record import BattleRecord
from strategia.explain.trace import Folded, Step


class OrderError(StrategiaError):
    """An order that makes no sense at all (another side's unit, nothing to do); nothing changes."""


@dataclass(frozen=True, slots=True)
class Cut:
    """A part of an order not carried out, and why (9.3): for the mediator, never the player
    unless a rule has the mediator say it to him (`told`: 9.7b's question)."""

    reason: Text
    rule: str
    told: bool = False  # the player is told of it too (9.7b: the mediator asks again)

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"reason": self.reason.to_json(), "rule": self.rule}
        return {**d, "told": True} if self.told else d


def cut(rule: str, en: str, ru: str, told: bool = False) -> Cut:
    """A Cut with its reason in both languages (`told`: the player hears it too)."""
    return Cut(Text(en, ru), rule, told)


@dataclass(frozen=True, slots=True)
class UnitLoss:
    """A unit's strength destroyed outside a battle's or a strike's record (9.7d: interdiction
    fire on a unit moving or in a column): for the mediator and the losses' count
    (`strategia.game.losses`), never told to a side as such."""

    unit: str  # as the journal writes it (21 т.д.)
    side: str  # the unit's side
    kind: str  # the division type as the seeds write it (с.д., т.д. ...)
    strength_before: float  # in divisions
    strength_after: float  # 0 when destroyed
    rule: str = "9.7d"
    cell: str = ""  # where it was hit

    def to_json(self) -> dict[str, Any]:
        return {"unit": self.unit, "side": self.side, "kind": self.kind,
                "strength_before": self.strength_before, "strength_after": self.strength_after,
                "rule": self.rule, **({"cell": self.cell} if self.cell else {})}  # fmt: skip

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> UnitLoss:
        return cls(str(d["unit"]), str(d["side"]), str(d["kind"]), float(d["strength_before"]),
                   float(d["strength_after"]), str(d.get("rule", "9.7d")),
                   str(d.get("cell", "")))  # fmt: skip


@dataclass(frozen=True, slots=True)
class Result:
    """The outcome of one order."""

    order: str  # the order as given, in canonical notation
    outcome: Text  # what happened, in journal notation ("17 с.д. - 45,24")
    explanation: Step
    cuts: tuple[Cut, ...] = ()
    battle: BattleRecord | None = None  # a battle's (or a strike's) data, for its report
    by: str = ""  # the side whose order or whose units it is ("": the mediator's)
    losses: tuple[UnitLoss, ...] = ()  # strength destroyed outside `battle` (9.7d)

    def of_side(self, side: str) -> Result:
        """This result as `side`'s (`by`), made without `dataclasses.replace`'s introspection:
        every order's result passes here."""
        return Result(
            self.order, self.outcome, self.explanation, self.cuts, self.battle, side, self.losses
        )

    @property
    def was_cut(self) -> bool:
        return bool(self.cuts)

    @property
    def cut_to_nothing(self) -> bool:
        """Whether 9.3 cut the order to nothing at all: cut, and nothing of it was done (no
        time of the turn used, no fire that hit, no attacker that struck). The player is told
        where its unit stands, as for any order carried out «as far as possible»; the mediator
        is shown it cut to nothing («сокращен до нуля»). Read from what the journal keeps (the
        cuts and the explanation's first step), so it is the same after the game is reopened."""
        if not self.cuts:
            return False
        value = self.explanation.value
        zero = isinstance(value, int | float) and not isinstance(value, bool) and value == 0
        if self.battle is not None and self.battle.outcome == "no_battle":
            return not self.battle.units and (value is None or zero)
        return zero and (self.explanation.unit == "turn" or self.explanation.rule == "9.7")

    def text(self, lang: Lang = "en") -> str:
        return self.outcome(lang)

    def to_json(self) -> dict[str, Any]:
        """Everything, the whole explanation tree included."""
        return self._json({"explanation": self.explanation.to_json()})

    def to_record(self) -> dict[str, Any]:
        """What a journal keeps: the explanation's first step only (`head`); the steps below it
        are worked out again when they are read (`from_json`'s `unfold`)."""
        return self._json({"head": self.explanation.head().to_json()})

    def _json(self, why: dict[str, Any]) -> dict[str, Any]:
        d: dict[str, Any] = {
            "order": self.order,
            "outcome": self.outcome.to_json(),
            "cuts": [c.to_json() for c in self.cuts],
            **why,
        }
        if self.battle is not None:
            d["battle"] = self.battle.to_json()
        if self.by:
            d["by"] = self.by
        if self.losses:
            d["losses"] = [x.to_json() for x in self.losses]
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any], unfold: Callable[[], Step] | None = None) -> Result:
        """The result `to_json` or `to_record` wrote; a record's explanation is `unfold`'s when
        its steps are read (without `unfold`, its first step alone)."""
        if "explanation" in d:
            why = Step.from_json(d["explanation"])
        else:
            head = Step.from_json(d["head"])
            why = Folded(head, unfold) if unfold is not None else head
        return cls(
            order=d["order"],
            outcome=Text.of(d["outcome"]),
            explanation=why,
            cuts=tuple(
                Cut(Text.of(c["reason"]), c["rule"], bool(c.get("told", False)))
                for c in d.get("cuts", ())
            ),
            battle=BattleRecord.from_json(d["battle"]) if "battle" in d else None,
            by=str(d.get("by", "")),
            losses=tuple(UnitLoss.from_json(x) for x in d.get("losses", ())),
        )
