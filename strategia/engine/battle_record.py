"""What a battle was, as data: the units on each side with their ratings, the multipliers on
them, their regiments' strengths before and after; the totals, the ratio, the outcome, the
pursuit. The battle report (`strategia.game.report`) is written from it; the numbers are those
the battle used (the explanation tree holds the same numbers, step by step).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from strategia.core.i18n import Text


@dataclass(frozen=True, slots=True)
class Factor:
    """A multiplier on a unit's rating: what it is, its value and the rule."""

    label: Text
    value: float
    rule: str

    def to_json(self) -> dict[str, Any]:
        return {"label": self.label.to_json(), "value": self.value, "rule": self.rule}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Factor:
        return cls(Text.of(d["label"]), float(d["value"]), str(d["rule"]))


@dataclass(frozen=True, slots=True)
class Blow:
    """A side of a defender struck (9.5, 9.6): the side, its weight, the rating against it."""

    side: str  # a Facing key: front, flank45, flank90, flank135, rear
    weight: float  # the blow's share of the attackers' strength
    rating: float
    attackers: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"side": self.side, "weight": self.weight, "rating": self.rating,
                "attackers": list(self.attackers)}  # fmt: skip

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Blow:
        return cls(str(d["side"]), float(d["weight"]), float(d["rating"]),
                   tuple(d.get("attackers", ())))  # fmt: skip


Strengths = tuple[tuple[str, float], ...]  # (regiment type as the seeds write it, strength)


@dataclass(frozen=True, slots=True)
class Fighting:
    """One unit (or part of a division) in a battle."""

    unit: str
    role: str  # "attacker" or "defender"
    echelon: int  # from 1
    kind: str  # the division type (с.д., т.д. ...)
    rating: float  # from the tables (9.6), before the multipliers
    factors: tuple[Factor, ...]
    effective: float
    before: Strengths
    after: Strengths = ()
    lost: float = 0.0  # the share of its effective rating lost
    destroyed: bool = False
    part: tuple[str, ...] = ()  # the regiments fighting, when only part of the division does
    blows: tuple[Blow, ...] = ()  # the sides struck: a defender's (several), an attacker's own
    strength_before: float = 0.0  # in divisions
    strength_after: float = 0.0
    cell: str = ""  # a strike's: the cell the unit was hit on (9.7a, 9.7b)
    side: str = ""  # a strike's: the unit's side (9.7b: a strike in contact hits every side)

    def to_json(self) -> dict[str, Any]:
        return {
            "unit": self.unit, "role": self.role, "echelon": self.echelon, "kind": self.kind,
            "rating": self.rating, "factors": [f.to_json() for f in self.factors],
            "effective": self.effective, "before": [list(x) for x in self.before],
            "after": [list(x) for x in self.after], "lost": self.lost,
            "destroyed": self.destroyed, "part": list(self.part),
            "blows": [b.to_json() for b in self.blows],
            "strength_before": self.strength_before, "strength_after": self.strength_after,
            **({"cell": self.cell} if self.cell else {}),
            **({"side": self.side} if self.side else {}),
        }  # fmt: skip

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Fighting:
        return cls(
            unit=d["unit"], role=d["role"], echelon=int(d["echelon"]), kind=d["kind"],
            rating=float(d["rating"]), factors=tuple(Factor.from_json(f) for f in d["factors"]),
            effective=float(d["effective"]),
            before=tuple((str(k), float(v)) for k, v in d["before"]),
            after=tuple((str(k), float(v)) for k, v in d["after"]), lost=float(d["lost"]),
            destroyed=bool(d["destroyed"]), part=tuple(d.get("part", ())),
            blows=tuple(Blow.from_json(b) for b in d.get("blows", ())),
            strength_before=float(d.get("strength_before", 0.0)),
            strength_after=float(d.get("strength_after", 0.0)),
            cell=str(d.get("cell", "")), side=str(d.get("side", "")),
        )  # fmt: skip


@dataclass(frozen=True, slots=True)
class Pursuit:
    """An attacking division's pursuit after a retreat (9.8a): how far it may go, and went."""

    unit: str
    limit_km: float
    taken_km: float
    to: str  # the cell it reached

    def to_json(self) -> dict[str, Any]:
        return {"unit": self.unit, "limit_km": self.limit_km, "taken_km": self.taken_km,
                "to": self.to}  # fmt: skip

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Pursuit:
        return cls(d["unit"], float(d["limit_km"]), float(d["taken_km"]), d["to"])


OUTCOMES = ("held", "taken", "beaten_off", "retreat", "no_battle", "strike")


@dataclass(frozen=True, slots=True)
class BattleRecord:
    """A battle (9.8) as it was fought, or a strike on units (9.7: outcome "strike", the units
    fired on as defenders). `side` is whose account it is: "" the mediator's, in full; a side's
    account (`strategia.game.accounts`) keeps the enemy's units by name only."""

    target: str
    attacker: str  # the attacking side
    defender: str
    outcome: str  # one of OUTCOMES
    units: tuple[Fighting, ...] = ()
    attack: float = 0.0  # the first echelons' effective ratings, support included
    defence: float = 0.0
    attack_support: float = 0.0
    defence_support: float = 0.0
    supporters: tuple[str, ...] = ()
    rounds: int = 0
    turn_used: float = 0.0
    pursuit: tuple[Pursuit, ...] = ()
    notes: tuple[Text, ...] = field(default=())
    side: str = ""

    @property
    def ratio(self) -> float:
        """The attack's effective rating over the defence's (first echelons, support included)."""
        return self.attack / self.defence if self.defence > 0 else float("inf")

    def to_json(self) -> dict[str, Any]:
        return {
            "target": self.target, "attacker": self.attacker, "defender": self.defender,
            "outcome": self.outcome, "units": [u.to_json() for u in self.units],
            "attack": self.attack, "defence": self.defence,
            "attack_support": self.attack_support, "defence_support": self.defence_support,
            "supporters": list(self.supporters), "rounds": self.rounds,
            "turn_used": self.turn_used, "pursuit": [p.to_json() for p in self.pursuit],
            "notes": [n.to_json() for n in self.notes],
            **({"side": self.side} if self.side else {}),
        }  # fmt: skip

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> BattleRecord:
        return cls(
            target=d["target"], attacker=d["attacker"], defender=d["defender"],
            outcome=d["outcome"], units=tuple(Fighting.from_json(u) for u in d["units"]),
            attack=float(d["attack"]), defence=float(d["defence"]),
            attack_support=float(d.get("attack_support", 0.0)),
            defence_support=float(d.get("defence_support", 0.0)),
            supporters=tuple(d.get("supporters", ())), rounds=int(d.get("rounds", 0)),
            turn_used=float(d.get("turn_used", 0.0)),
            pursuit=tuple(Pursuit.from_json(p) for p in d.get("pursuit", ())),
            notes=tuple(Text.of(n) for n in d.get("notes", ())),
            side=str(d.get("side", "")),
        )  # fmt: skip
