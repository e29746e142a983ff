"""An error in the reader's language, as the console and the command line show it: a notation
error in English names its units in the English notation and lists only the English words it
expects (`one of N, NE, E, ...`, not both spellings); the input it quotes stays as typed."""

from __future__ import annotations

import re

from strategia.core.errors import NotationError
from strategia.core.errors import say as said
from strategia.core.i18n import Lang
from strategia.rules.english import en

# The Russian halves of what the notation expects, said once in English.
_ENGLISH = (
    (re.compile(r"one of (.*) / (.*)", re.DOTALL), r"one of \2"),
    (re.compile(r"полк N / regiment N"), "regiment N"),
    (re.compile(r"'между <cell> и <cell>'"), "'between <cell> and <cell>'"),
    (re.compile(r"'[^']*' / ('[^']*')"), r"\1"),
    (re.compile(r"(?<![\w.])[^\s/,;:]*[А-Яа-яЁё][^\s/,;]*/([^\s,;]+)"), r"\1"),  # с.п./RR
)
_PAIRS = re.compile(r"[^,/]+/[^,/]+(?:, [^,/]+/[^,/]+)*")  # the order words: на/to, удар/attack


def english(expected: str) -> str:
    """What the notation expects, in English only."""
    if _PAIRS.fullmatch(expected):
        return ", ".join(dict.fromkeys(x.split("/", 1)[1] for x in expected.split(", ")))
    for pattern, repl in _ENGLISH:
        expected = pattern.sub(repl, expected)
    return en(expected)


def say(error: BaseException, lang: Lang = "en") -> str:
    """The message of `error` in `lang` (see the module)."""
    if lang != "en" or not isinstance(error, NotationError):
        return said(error, lang)
    notes = [f"column {error.column}"] if error.column is not None else []
    notes += [f"expected {english(error.expected)}"] if error.expected else []
    detail = f" ({'; '.join(notes)})" if notes else ""
    return f"{error.text}: {en(error.problem)}{detail}"
