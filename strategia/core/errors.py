"""The errors Strategia raises for bad input: each names the input and what was expected."""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass, field


class StrategiaError(ValueError):
    """Base of every error about input (a name, a rules file, an order)."""


class UnknownNameError(StrategiaError):
    """A name (unit type, formation, facing, ruleset...) that is not one of the allowed ones."""

    def __init__(self, what: str, given: str, allowed: Iterable[str]) -> None:
        self.what = what
        self.given = given
        self.allowed = tuple(dict.fromkeys(allowed))
        close = difflib.get_close_matches(given, self.allowed, n=1, cutoff=0.5)
        hint = f": did you mean {close[0]!r}?" if close else ""
        super().__init__(
            f"unknown {what} {given!r}{hint} (allowed: {', '.join(self.allowed)})"
            if not close
            else f"unknown {what} {given!r}{hint}"
        )


@dataclass(frozen=True, slots=True)
class Problem:
    """One problem found in a file: where it is (a key, or file:line), what is wrong, and the
    file's line if `where` is a key."""

    where: str
    message: str
    line: int | None = field(default=None, compare=False)

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


class RuleDataError(StrategiaError):
    """A rules or house-rules file with problems; every problem found is listed at once."""

    def __init__(self, source: str, problems: Iterable[Problem]) -> None:
        self.source = source
        self.problems = tuple(problems)
        lines = "\n".join(
            f"  - {source}:{p.line}: {p}" if p.line else f"  - {p}" for p in self.problems
        )
        n = len(self.problems)
        super().__init__(f"{source}: {n} problem{'s' if n != 1 else ''}\n{lines}")


class InactiveRuleError(LookupError):
    """A rule was looked up that does not act at the game's level (rule 0.2)."""

    def __init__(self, key: str, rule_level: int, level: int) -> None:
        self.key = key
        self.rule_level = rule_level
        self.level = level
        super().__init__(
            f"rule {key} is a level-{rule_level} rule and does not act at level {level} (rule 0.2)"
        )


class NotationError(StrategiaError):
    """Notation that cannot be read: the input, the problem, the 1-based column, what would do."""

    def __init__(
        self, text: str, problem: str, column: int | None = None, expected: str | None = None
    ) -> None:
        self.text = text
        self.problem = problem
        self.column = column
        self.expected = expected
        notes = [f"column {column}"] if column is not None else []
        notes += [f"expected {expected}"] if expected else []
        detail = f" ({'; '.join(notes)})" if notes else ""
        super().__init__(f"{text}: {problem}{detail}")

    def within(self, text: str, offset: int) -> NotationError:
        """This error moved into the larger `text`, where what it was about starts at `offset`."""
        return type(self)(text, self.problem, offset + (self.column or 1), self.expected)


class InvalidNotationError(NotationError):
    """Malformed notation."""


class IllegalNotationError(NotationError):
    """Well-formed notation that is impossible here: a cell off the map, a unit that is not."""


class AmbiguousNotationError(NotationError):
    """Notation that matches more than one thing."""
