"""Order templates: words, slots and optional groups, compiled once.

    "{unit} по дороге на {to:cell} [через {via:cells}]"

Words match in any case; `в|во` accepts either (the first is written); `{field:type}` is a slot;
`{a+b:type}` fills a list's head and rest; `[...]` is optional.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache


@dataclass(frozen=True, slots=True)
class Phrase:
    """Words to match, each with its spellings (the first is written)."""

    words: tuple[tuple[str, ...], ...]

    @property
    def pattern(self) -> re.Pattern[str]:
        return _phrase_pattern(self.words)

    def write(self) -> str:
        out = ""
        for w in self.words:
            out += w[0] if out and set(w[0]) <= _PUNCT else f" {w[0]}"
        return out.strip()

    def __str__(self) -> str:
        return self.write()


@dataclass(frozen=True, slots=True)
class Slot:
    """A value read into one field (or a list into a head field and a rest field)."""

    fields: tuple[str, ...]
    type: str


@dataclass(frozen=True, slots=True)
class Group:
    """An optional part of a form."""

    items: tuple[Item, ...]


Item = Phrase | Slot | Group
_PUNCT = frozenset(":;,/()")


@cache
def _phrase_pattern(words: tuple[tuple[str, ...], ...]) -> re.Pattern[str]:
    body = ""
    for n, alternatives in enumerate(words):
        alt = "|".join(re.escape(a) for a in sorted(alternatives, key=len, reverse=True))
        if n:  # blanks between words, optional beside punctuation
            punct = set(words[n - 1][0]) <= _PUNCT or set(alternatives[0]) <= _PUNCT
            body += r"\s*" if punct else r"\s+"
        body += f"(?:{alt})"
    last = words[-1][0][-1]
    first = words[0][0][0]
    return re.compile(
        ("(?<!\\w)" if first.isalnum() else "") + body + ("(?!\\w)" if last.isalnum() else ""),
        re.IGNORECASE,
    )


_TOKEN = re.compile(r"\{[^}]*\}|\[|\]|[^\s\[\]{}]+")


def phrase(text: str) -> Phrase:
    """The phrase of words written `text` (`в|во` for either word)."""
    return Phrase(tuple(tuple(w.split("|")) for w in text.split()))


@cache
def compile_template(text: str) -> tuple[Item, ...]:
    """The items of a template; a ValueError for a malformed one (a declaration's mistake)."""
    stack: list[list[Item]] = [[]]
    words: list[tuple[str, ...]] = []

    def flush() -> None:
        if words:
            stack[-1].append(Phrase(tuple(words)))
            words.clear()

    for tok in _TOKEN.findall(text):
        if tok == "[":
            flush()
            stack.append([])
        elif tok == "]":
            flush()
            if len(stack) < 2:
                raise ValueError(f"template {text!r}: unbalanced ']'")
            inner = stack.pop()
            stack[-1].append(Group(tuple(inner)))
        elif tok.startswith("{"):
            flush()
            name, _, kind = tok[1:-1].partition(":")
            stack[-1].append(Slot(tuple(name.split("+")), kind or name))
        else:
            words.append(tuple(tok.split("|")))
    flush()
    if len(stack) != 1:
        raise ValueError(f"template {text!r}: unbalanced '['")
    return tuple(stack[0])
