"""Units in English notation inside an English sentence: `17 с.д.` is `17 RD` there, `2 с.п.`
`2 RR`, `5 т.к.` `5 TC`, `1 А` `1 A`; a type named alone (`a с.д.`, `ап`) too. The engine
writes its English sentences through `en`, the Russian ones as the journal writes units."""

from __future__ import annotations

import re
from functools import lru_cache

from strategia.rules.kinds import CommandKind, CorpsKind, DivisionKind, RegimentKind

# Every type's Russian abbreviation to its English one: с.д. -> RD, ап -> AR, А -> A (an army).
ABBREVIATIONS = {
    k.ru: k.en for kinds in (DivisionKind, CorpsKind, CommandKind, RegimentKind) for k in kinds
} | {"А": "A"}
_ALTERNATIVES = "|".join(re.escape(a) for a in sorted(ABBREVIATIONS, key=len, reverse=True))
_NUMBERED = re.compile(rf"(?<![\w.])(\d+) ({_ALTERNATIVES})(?![\w])")
_WORDS = "|".join(re.escape(a) for a in sorted(ABBREVIATIONS, key=len, reverse=True) if len(a) > 1)
_ALONE = re.compile(rf"(?<![\w.])({_WORDS})(?![\w])")
_CYRILLIC = re.compile("[\u0400-\u04ff]")


@lru_cache(maxsize=16384)
def _english(text: str) -> str:
    text = _NUMBERED.sub(lambda m: f"{m[1]} {ABBREVIATIONS[m[2]]}", text)
    return _ALONE.sub(lambda m: ABBREVIATIONS[m[1]], text)


def en(x: object) -> str:
    """`x` (a unit, or a text naming units) with every unit in English notation."""
    text = str(x)
    return text if text.isascii() or not _CYRILLIC.search(text) else _english(text)
