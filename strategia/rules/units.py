"""Units as the seeds define them: regiments, divisions, corps, armies and fortresses (table 1).

Kinds are enums with the seeds' Russian abbreviations and English aliases. A division keeps its
current strength per regiment (1.0 = full), so losses reduce it and its ratings follow
(`strategia.ratings`). Compositions are rule data (table 1), read through `RuleSet`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from strategia.core.errors import StrategiaError
from strategia.rules.english import en
from strategia.rules.kinds import CorpsKind, DivisionKind, RegimentKind

if TYPE_CHECKING:
    from strategia.rules import RuleSet


@dataclass(frozen=True, slots=True)
class Regiment:
    """One regiment and what is left of it: `strength` 1.0 is full, 0.0 destroyed."""

    kind: RegimentKind
    strength: float = 1.0

    def __post_init__(self) -> None:
        if not 0.0 <= self.strength <= 1.0:
            raise StrategiaError(
                f"{self.kind.en}: strength {self.strength} out of range, expected 0..1",
                ru=f"{self.kind.ru}: численность {self.strength} вне пределов, нужно от 0 до 1",
            )

    def __repr__(self) -> str:
        s = "" if self.strength == 1.0 else f", {self.strength!r}"
        return f"Regiment(RegimentKind.{self.kind.name}{s})"

    def weakened(self, fraction_lost: float) -> Regiment:
        """This regiment after losing `fraction_lost` of its full strength."""
        return replace(self, strength=max(0.0, round(self.strength - fraction_lost, 9)))


@dataclass(frozen=True, slots=True)
class Division:
    """A division: number, kind, line regiments (left to right abreast) and supporting artillery.

    The split follows table 8's formula (9.6): line regiments fight with their direct ratings,
    the supporting artillery with its support rating.
    """

    number: int
    kind: DivisionKind
    line: tuple[Regiment, ...]
    arm: tuple[Regiment, ...] = ()
    size: int = 0  # regiments of the whole division (0 when made: as many as it has)

    def __post_init__(self) -> None:
        if not self.size:
            object.__setattr__(self, "size", len(self.line) + len(self.arm))

    def __repr__(self) -> str:
        size = f", size={self.size}" if self.size != len(self.regiments) else ""
        return (
            f"Division({self.number}, DivisionKind.{self.kind.name}, {self.line!r}, {self.arm!r}"
            f"{size})"
        )

    def __str__(self) -> str:
        return f"{self.number} {self.kind.ru}"

    @property
    def regiments(self) -> tuple[Regiment, ...]:
        """Line regiments, then the supporting artillery."""
        return self.line + self.arm

    @property
    def strength(self) -> float:
        """What is left of a whole division, 1.0 = full: the regiments' strengths over the
        regiments of the whole division (a detached regiment of a four-regiment division at
        full strength is 0.25; a division that received a regiment may exceed 1)."""
        regs = self.regiments
        n = self.size or len(regs)
        return sum(r.strength for r in regs) / n if n else 0.0

    def part(self, indices: tuple[int, ...]) -> Division:
        """The regiments at `indices` (of `regiments`) as a part of this division (4.9, 9.8c)."""
        n = len(self.line)
        line = tuple(self.regiments[i] for i in indices if i < n)
        arm = tuple(self.regiments[i] for i in indices if i >= n)
        return Division(self.number, self.kind, line, arm, self.size or len(self.regiments))

    def regiment_index(self, n: int, kind: RegimentKind) -> int | None:
        """The index (in `regiments`) of the `n`-th regiment of `kind`, if there is one."""
        places = [i for i, r in enumerate(self.regiments) if r.kind is kind]
        return places[n - 1] if 0 < n <= len(places) else None

    @property
    def destroyed(self) -> bool:
        return all(r.strength <= 0.0 for r in self.regiments)

    def with_strengths(self, strengths: tuple[float, ...] | float) -> Division:
        """This division with its regiments (line, then arm) at the given strengths."""
        regs = self.regiments
        if isinstance(strengths, int | float):
            strengths = (float(strengths),) * len(regs)
        if len(strengths) != len(regs):
            raise StrategiaError(
                f"{en(self)}: {len(strengths)} strengths given for {len(regs)} regiments "
                f"({', '.join(r.kind.en for r in regs)})",
                ru=f"{self}: численностей дано: {len(strengths)}, а полков {len(regs)} "
                f"({', '.join(r.kind.ru for r in regs)})",
            )
        new = tuple(Regiment(r.kind, s) for r, s in zip(regs, strengths, strict=True))
        n = len(self.line)
        return Division(self.number, self.kind, new[:n], new[n:], self.size)


@dataclass(frozen=True, slots=True)
class Corps:
    """A corps: a number, a kind and its divisions (4.7, 4.10)."""

    number: int
    kind: CorpsKind
    divisions: tuple[Division, ...] = field(default=())

    def __post_init__(self) -> None:
        if not self.divisions:
            raise StrategiaError(
                f"{self.number} {self.kind.en}: a corps needs divisions",
                ru=f"{self.number} {self.kind.ru}: в корпусе нужны дивизии",
            )

    def __str__(self) -> str:
        return f"{self.number} {self.kind.ru}"


@dataclass(frozen=True, slots=True)
class Army:
    """An army: 4 to 10 divisions, in corps or separate (5.6)."""

    number: int
    corps: tuple[Corps, ...] = ()
    divisions: tuple[Division, ...] = ()

    @property
    def all_divisions(self) -> tuple[Division, ...]:
        return tuple(d for c in self.corps for d in c.divisions) + self.divisions


def composition(
    kind: DivisionKind | str, rules: RuleSet
) -> tuple[tuple[RegimentKind, ...], tuple[RegimentKind, ...]]:
    """Table 1's line regiments and supporting artillery of a division kind."""
    k = DivisionKind.parse(kind)
    line = rules.value("compositions", k.key, "line")
    arm = rules.value("compositions", k.key, "arm")
    return tuple(map(RegimentKind.from_key, line)), tuple(map(RegimentKind.from_key, arm))


def new_division(number: int, kind: DivisionKind | str, rules: RuleSet) -> Division:
    """A division at full strength with the composition table 1 gives its kind."""
    k = DivisionKind.parse(kind)
    line, arm = composition(k, rules)
    return Division(number, k, tuple(map(Regiment, line)), tuple(map(Regiment, arm)))
