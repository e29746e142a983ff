"""Units of the tactical game (отряды): battalions or parts of them, squadrons, batteries.

A unit stands on the table at a point (the middle of its front, in cm) facing a compass bearing
in degrees (0 towards the far edge, +y; 90 to the right, +x). Its figures stand in the layout of
its formation (the rule data's `layout`), which gives its frontage and depth.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from strategia.core.errors import StrategiaError
from strategia.core.i18n import Text
from strategia.core.vocab import Kind
from strategia.rules import RuleSet
from strategia.tactical.data import parse_fraction


class TacticalError(StrategiaError):
    """An action the tactical rules do not allow (the unit, the rule and why)."""


class Arm(Kind):
    INFANTRY = ("infantry", "пехота", "infantry", "inf", "пех")
    CAVALRY = ("cavalry", "кавалерия", "cavalry", "cav", "кав")
    ARTILLERY = ("artillery", "артиллерия", "artillery", "art", "арт")


class Weight(Kind):
    LIGHT = ("light", "легкая", "light")
    MEDIUM = ("medium", "средняя", "medium")
    HEAVY = ("heavy", "тяжелая", "heavy")


class Draught(Kind):
    """How a battery's gunners go: on foot beside the guns, or mounted."""

    FOOT = ("foot", "пешая", "foot")
    HORSE = ("horse", "конная", "horse")


class Formation(Kind):
    LINE = ("line", "развернутый строй", "line", "линия", "развернутый")
    SQUARE = ("square", "каре", "square")
    COLUMN = ("column", "дивизионная колонна", "division column", "колонна")
    MARCH = ("march", "походная колонна", "march column", "походный порядок", "походная")
    LOOSE = (
        "loose", "рассыпной строй", "loose order",
        "skirmish", "skirmishers", "dispersed", "цепь", "врассыпную", "рассыпной",
    )  # fmt: skip
    LIMBERED = ("limbered", "на передках", "limbered", "передки")
    PROLONGE = ("prolonge", "на отвозах", "on prolonges", "prolonges", "wagons", "отвозы")
    UNLIMBERED = ("unlimbered", "на позиции", "in position", "position", "by hand", "вручную")

    @property
    def closed(self) -> bool:
        return self in (Formation.LINE, Formation.SQUARE, Formation.COLUMN, Formation.MARCH)


FORMATIONS: dict[Arm, tuple[Formation, ...]] = {
    Arm.INFANTRY: (Formation.LINE, Formation.SQUARE, Formation.COLUMN, Formation.MARCH,
                   Formation.LOOSE),
    Arm.CAVALRY: (Formation.LINE, Formation.COLUMN, Formation.MARCH, Formation.LOOSE),
    Arm.ARTILLERY: (Formation.LIMBERED, Formation.PROLONGE, Formation.UNLIMBERED),
}  # fmt: skip


class Condition(Kind):
    """The state of a unit's order (the obstacle table's words)."""

    FORMED = ("formed", "построенный", "formed", "ordered", "в порядке")
    DISORDERED = ("disordered", "расстроенный", "disordered", "расстроен")
    SCATTERED = ("scattered", "рассыпанный", "scattered", "рассыпан")
    ROUTED = ("routed", "бежавший", "routed", "бегущий", "в бегстве")

    @property
    def rank(self) -> int:
        return list(Condition).index(self)


@dataclass(frozen=True, slots=True)
class Pending:
    """A formation change (or rally) begun and not finished: `left` of a turn still to serve."""

    target: str  # a Formation key, or "order" (restoring order)
    left: Fraction
    facing: float | None = None

    def to_json(self) -> dict[str, Any]:
        return {"target": self.target, "left": str(self.left), "facing": self.facing}


@dataclass(frozen=True, slots=True)
class Unit:
    """One unit on the table, and what it has done this turn."""

    name: str
    side: str
    arm: Arm
    figures: int
    x: float
    y: float
    facing: float
    formation: Formation
    condition: Condition = Condition.FORMED
    weight: Weight = Weight.MEDIUM
    draught: Draught = Draught.FOOT
    squadrons: int = 1
    guns: int = 0
    lost: int = 0
    spent: Fraction = field(default=Fraction(0))
    moved: Fraction = field(default=Fraction(0))
    changed: bool = False
    pending: Pending | None = None
    ceasefire: Fraction = field(default=Fraction(0))

    def __post_init__(self) -> None:
        if self.formation not in FORMATIONS[self.arm]:
            allowed = ", ".join(f.key for f in FORMATIONS[self.arm])
            raise TacticalError(
                f"{self.name}: {self.arm.key} cannot be in {self.formation.key} "
                f"(its formations: {allowed})"
            )
        if self.arm is Arm.ARTILLERY and self.weight is Weight.MEDIUM:
            raise TacticalError(f"{self.name}: artillery is light or heavy (003 speeds)")

    # --- what it is ---------------------------------------------------------------------------

    @property
    def left(self) -> Fraction:
        """The part of this turn still free."""
        return max(Fraction(0), 1 - self.spent)

    @property
    def out_of_action(self) -> bool:
        return self.figures <= 0

    def kind_text(self) -> Text:
        f = self.formation.text
        if self.arm is Arm.INFANTRY:
            return Text(f"infantry, {f.en}", f"пехота, {f.ru}")
        w = self.weight.text
        if self.arm is Arm.CAVALRY:
            return Text(f"{w.en} cavalry, {f.en}", f"{w.ru} кавалерия, {f.ru}")
        d = self.draught.text
        return Text(f"{d.en} {w.en} battery, {f.en}", f"{d.ru} {w.ru} батарея, {f.ru}")

    def speed_row(self) -> str:
        """The row of the speed and slowdown tables this unit moves by (003 speeds)."""
        f = self.formation
        if self.arm is Arm.INFANTRY:
            return {Formation.LINE: "line", Formation.SQUARE: "line", Formation.COLUMN: "column",
                    Formation.MARCH: "march", Formation.LOOSE: "skirmish"}[f]  # fmt: skip
        if self.arm is Arm.CAVALRY:
            order = "dispersed" if f is Formation.LOOSE else "formed"
            return f"cavalry_{order}_{self.weight.key}"
        if f is Formation.LIMBERED:
            return (
                "limbered_horse"
                if self.draught is Draught.HORSE
                else f"limbered_foot_{self.weight.key}"
            )
        return ("prolonge_" if f is Formation.PROLONGE else "hand_") + self.weight.key

    def layout_row(self) -> str:
        if self.arm is Arm.CAVALRY and self.formation is Formation.COLUMN:
            return "cavalry_column"
        return self.formation.key

    def in_march_order(self) -> bool:
        """March column, or limbered guns (which move as a column of route)."""
        return self.formation in (Formation.MARCH, Formation.LIMBERED)

    # --- on the table ---------------------------------------------------------------------------

    def footprint(self, rules: RuleSet) -> tuple[float, float]:
        """(frontage, depth) in cm of the unit's formation (rule data `layout`)."""
        n = max(1, self.guns if self.arm is Arm.ARTILLERY else self.figures)
        row = self.layout_row()
        files_text = str(rules.value("layout", row, "files")).replace(" ", "")
        files = _files(files_text, n, self.squadrons)
        ranks = math.ceil(n / files)
        frontage = float(parse_fraction(rules.value("layout", row, "frontage")))
        depth = float(parse_fraction(rules.value("layout", row, "depth")))
        return files * frontage, ranks * depth

    def at(self, x: float, y: float, facing: float | None = None) -> Unit:
        f = self.facing if facing is None else facing
        return replace(self, x=round(x, 6), y=round(y, 6), facing=round(f % 360, 6))

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "name": self.name,
            "side": self.side,
            "arm": self.arm.key,
            "figures": self.figures,
            "at": [self.x, self.y],
            "facing": self.facing,
            "formation": self.formation.key,
            "condition": self.condition.key,
        }
        if self.arm is not Arm.INFANTRY:
            d["weight"] = self.weight.key
        if self.arm is Arm.ARTILLERY:
            d["draught"] = self.draught.key
            d["guns"] = self.guns
        if self.squadrons != 1:
            d["squadrons"] = self.squadrons
        if self.lost:
            d["lost"] = self.lost
        d["spent"] = str(self.spent)
        d["moved"] = str(self.moved)
        if self.changed:
            d["changed"] = True
        if self.pending is not None:
            d["pending"] = self.pending.to_json()
        if self.ceasefire:
            d["ceasefire"] = str(self.ceasefire)
        return d


def _files(text: str, n: int, squadrons: int) -> int:
    """Figures abreast from a layout cell: "n", "n/4", "n/s" (s: squadrons) or a number."""
    if text.startswith("n"):
        rest = text[1:]
        if not rest:
            return n
        if rest.startswith("/"):
            div = squadrons if rest[1:] == "s" else int(rest[1:])
            return max(1, math.ceil(n / max(1, div)))
        raise ValueError(f"layout: cannot read {text!r} (expected n, n/4, n/s or a number)")
    return max(1, min(n, int(text)))


def new_unit(
    name: str,
    side: str,
    arm: str | Arm,
    figures: int,
    at: tuple[float, float],
    facing: float = 0,
    formation: str | Formation | None = None,
    *,
    condition: str | Condition = Condition.FORMED,
    weight: str | Weight | None = None,
    draught: str | Draught = Draught.FOOT,
    squadrons: int = 1,
    guns: int = 0,
) -> Unit:
    """A unit from names in either language (формирование по умолчанию: строй для пехоты и
    кавалерии, на передках для артиллерии)."""
    a = Arm.parse(arm)
    default = Formation.LIMBERED if a is Arm.ARTILLERY else Formation.LINE
    w = Weight.parse(weight) if weight else (Weight.LIGHT if a is Arm.ARTILLERY else Weight.MEDIUM)
    if figures < 1:
        raise TacticalError(f"{name}: a unit has at least one figure, got {figures}")
    if a is Arm.ARTILLERY and guns < 1:
        raise TacticalError(f"{name}: a battery needs guns (guns = ...)")
    return Unit(
        name=name,
        side=side,
        arm=a,
        figures=figures,
        x=float(at[0]),
        y=float(at[1]),
        facing=float(facing) % 360,
        formation=Formation.parse(formation) if formation else default,
        condition=Condition.parse(condition),
        weight=w,
        draught=Draught.parse(draught),
        squadrons=squadrons,
        guns=guns,
    )
