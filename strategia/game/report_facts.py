"""What a battle report takes from the battle's explanation tree besides its record: each rating's
terms (the regiments' parts, table 7), the printed value and its table, the rounds of the
exchange of losses with the coefficient, the notes (the war begins, a unit takes no part) and
the reconstructed values the battle used. The numbers are the ones the engine recorded; nothing
is computed here.

The tree is read by its structure and rule ids (a rating is a "9.6" group titled «Rating of ...»,
a regiment's part a "table 7" step); a tree without them (an old journal) gives no facts, and
the report is written from the record alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from strategia.core.errors import StrategiaError
from strategia.core.i18n import Text
from strategia.explain.trace import Step, Value
from strategia.notation.refs import UnitRef

PRINTED = ("table 9-1", "table 9-2", "table 10")
_RATING = "Rating of "
_AGAINST = " against a blow on the "


@dataclass(frozen=True, slots=True)
class Rating:
    """A division's rating against one blow, as the tree shows it was made."""

    unit: str
    facing: str  # the Facing's English name: front, flank 45, ... rear
    value: float
    terms: tuple[tuple[str, float], ...] = ()  # (regiment type, its part), table 7
    derived: float | None = None  # the sum of the terms
    printed: float | None = None  # the printed value used (tables 9-1, 9-2, 10)
    table: str = ""  # the printed value's table
    share: float | None = None  # the share the losses left (derived / full strength)
    strength: float | None = None  # level 1: the strength the initial rating is scaled by
    base: float | None = None  # level 1: the initial rating (9.6)


@dataclass(frozen=True, slots=True)
class Round:
    """A round of the exchange of losses (9.8c): echelons, ratings, its time, the two losses."""

    n: int
    label: Text
    attack: float
    defence: float
    time: float
    defender_loss: float
    attacker_loss: float


@dataclass(frozen=True, slots=True)
class Reconstructed:
    """A value the battle used that the seeds do not give."""

    label: Text
    value: Value
    unit: str
    rule: str
    why: Text


@dataclass(frozen=True)
class Facts:
    """Everything the report reads from a battle's tree."""

    ratings: dict[tuple[str, str], Rating] = field(default_factory=dict)
    support: dict[str, float] = field(default_factory=dict)
    exchange: float | None = None  # loss_rule.exchange
    rounds: tuple[Round, ...] = ()
    notes: tuple[tuple[Text, str], ...] = ()  # (text, rule): the war begins, cuts, retreats
    reconstructed: tuple[Reconstructed, ...] = ()

    def rating(self, unit: str, facing: str) -> Rating | None:
        return self.ratings.get((unit, facing))


def facts(tree: Step | None) -> Facts:
    """The facts of a battle's explanation (empty without one)."""
    if tree is None:
        return Facts()
    ratings: dict[tuple[str, str], Rating] = {}
    support: dict[str, float] = {}
    exchange: float | None = None
    rounds: list[Round] = []
    for s in tree.walk():
        en = s.label.en
        if s.rule == "9.6" and en.startswith(_RATING) and _AGAINST in en:
            r = _rating(s)
            ratings.setdefault((r.unit, r.facing), r)
        elif s.rule == "9.6" and en.startswith("Support rating of ") and _number(s.value):
            who = journal_name(en.removeprefix("Support rating of "))
            support.setdefault(who, float(s.value))  # type: ignore[arg-type]
        elif s.kind == "lookup" and s.rule == "9.8c" and s.unit == "per turn":
            exchange = float(s.value) if _number(s.value) else exchange  # type: ignore[arg-type]
        elif s.rule == "9.8c" and en.startswith("round ") and len(s.children) >= 5:
            rounds.append(_round(len(rounds) + 1, s))
    return Facts(ratings, support, exchange, tuple(rounds), _notes(tree), _reconstructed(tree))


def journal_name(name: str) -> str:
    """A unit an English label names (17 RD) as the record names it (17 с.д.)."""
    try:
        return UnitRef.parse(name).format("ru")
    except StrategiaError:
        return name


def _number(v: Value) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def _rating(s: Step) -> Rating:
    en = s.label.en
    unit = journal_name(en[len(_RATING) : en.index(_AGAINST)])
    facing = en[en.index(_AGAINST) + len(_AGAINST) :]
    terms: list[tuple[str, float]] = []
    derived = printed = share = strength = base = None
    table = ""
    for c in s.children:
        v = float(c.value) if _number(c.value) else None  # type: ignore[arg-type]
        if v is None:
            continue
        if c.rule == "table 7" and c.kind == "step":
            terms.append((c.label.ru.split(" (")[0].split(":")[0], v))
        elif c.label.en == "derived from the regiments":
            derived = v
        elif c.kind == "lookup" and c.rule in PRINTED:
            printed, table = v, c.rule
        elif c.label.en.startswith("share left"):
            share = v
        elif c.label.en == "strength left":
            strength = v
        elif c.kind == "lookup" and c.rule == "9.6":
            base = v
    value = float(s.value) if _number(s.value) else 0.0  # type: ignore[arg-type]
    return Rating(unit, facing, value, tuple(terms), derived, printed, table, share, strength, base)


def _round(n: int, s: Step) -> Round:
    v = [float(c.value) if _number(c.value) else 0.0 for c in s.children[:5]]  # type: ignore[arg-type]
    return Round(n, s.label, v[0], v[1], v[2], v[3], v[4])


_NOTE_RULES = ("9.1", "9.3", "9.5", "9.8a", "9.8c", "9.19", "9.8b")


def _notes(tree: Step) -> tuple[tuple[Text, str], ...]:
    """The remarks a reader needs: the war begins, units cut from the battle, retreats, an
    echelon destroyed and the next entering, a river crossed by some attackers only."""
    out: list[tuple[Text, str]] = []
    for s in tree.walk():
        if s.kind in ("note", "cut") and s.rule in _NOTE_RULES and s.value is None:
            en = s.label.en
            if en.startswith(("striking with", "its back to", "struck on")):
                continue
            if (s.label, s.rule) not in out:
                out.append((s.label, s.rule))
    return tuple(out)


def _reconstructed(tree: Step) -> tuple[Reconstructed, ...]:
    """The reconstructed values looked up in the battle, each once."""
    seen: dict[str, Reconstructed] = {}
    for s in tree.walk():
        if s.kind != "lookup" or s.note is None or not s.note.en.startswith("reconstructed: "):
            continue
        why = Text(
            s.note.en.removeprefix("reconstructed: ").split("; house rule")[0],
            s.note.ru.removeprefix("восстановлено: ").split("; изменено")[0],
        )
        key = f"{s.label.en}|{s.value!r}"
        seen.setdefault(key, Reconstructed(s.label, s.value, s.unit, s.rule, why))
    return tuple(seen.values())
