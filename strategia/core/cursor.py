"""A cursor over one line of notation: the numbers and cells every notation is made of.

Errors raised through it point into the line (1-based columns). `strategia.notation` builds
units, placements and orders on it.
"""

from __future__ import annotations

import re

from strategia.core.errors import InvalidNotationError, NotationError

DASHES = "-‐‑‒–—−"  # hyphen-minus, hyphens, figure dash, en and em dashes, minus sign
MAX_DIGITS = 6
MAX_LENGTH = 4000  # characters: a line of notation longer than this is refused unread
_NUMBER = re.compile(r"[0-9]+")
_CELL_SEP = re.compile(f"[,{re.escape(DASHES)}]")

CellParts = tuple[int, int, str, int, int]  # lon, lat, separator, where lon and lat start


class Cursor:
    """A position in `text`; `take` and the readers advance it."""

    def __init__(self, text: str, pos: int = 0) -> None:
        if len(text) > MAX_LENGTH:
            raise InvalidNotationError(
                text[:60] + "…", f"{len(text)} characters", 1, f"at most {MAX_LENGTH}"
            )
        self.text = text
        self.pos = pos

    def error(
        self,
        cls: type[NotationError],
        problem: str,
        expected: str | None = None,
        at: int | None = None,
    ) -> NotationError:
        """An error about the text at `at` (the cursor if None)."""
        return cls(self.text, problem, (self.pos if at is None else at) + 1, expected)

    def skip(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def take(self, pattern: re.Pattern[str]) -> re.Match[str] | None:
        """The match of `pattern` after any blanks, the cursor moved past it; None otherwise."""
        self.skip()
        match = pattern.match(self.text, self.pos)
        if match:
            self.pos = match.end()
        return match

    def at_end(self) -> bool:
        self.skip()
        return self.pos == len(self.text)

    def number(self, what: str) -> tuple[int, int]:
        """A positive whole number and where it starts."""
        match = self.take(_NUMBER)
        if match is None:
            raise self.error(InvalidNotationError, f"no {what}", "a whole number from 1")
        if len(match[0]) > MAX_DIGITS or int(match[0]) == 0:
            expected = f"a whole number from 1 to {10**MAX_DIGITS - 1}"
            problem = f"{what} {match[0]} out of range"
            raise self.error(InvalidNotationError, problem, expected, match.start())
        return int(match[0]), match.start()

    def cell_parts(self) -> CellParts:
        """A cell as `45,22` or `45-22`: longitude, latitude, separator and their positions."""
        lon, lon_at = self.number("longitude")
        sep = self.take(_CELL_SEP)
        if sep is None:
            raise self.error(InvalidNotationError, "no separator after the longitude", "',' or '-'")
        lat, lat_at = self.number("latitude")
        return lon, lat, "," if sep[0] == "," else "-", lon_at, lat_at

    def expect_end(self, after: str) -> None:
        if not self.at_end():
            raise self.error(InvalidNotationError, f"unexpected text after the {after}", "the end")
