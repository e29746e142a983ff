"""Closed vocabularies as enums: each member has its Russian and English names.

`Kind.parse` accepts any of a member's names (case- and dot-insensitive) and raises an
`UnknownNameError` that suggests the closest name otherwise. The game's own vocabularies
(sides, terrain, unit types...) are in `strategia.rules.kinds`.
"""

from __future__ import annotations

import re
from enum import Enum
from functools import cache
from typing import Any, Self

from strategia.core.errors import UnknownNameError
from strategia.core.i18n import Lang, Text


def norm(name: str) -> str:
    """A name reduced for comparison: lower case, without spaces, dots, dashes; е for ё."""
    return re.sub(r"[\s._\-]+", "", name.strip().lower()).replace("ё", "е")


@cache
def _names(cls: type[Kind]) -> dict[str, Any]:
    """Every name of a vocabulary's members, reduced by `norm`, to its member (the first
    member to have a name wins, as a search in order would find)."""
    out: dict[str, Any] = {}
    for member in cls:
        for n in member.names():
            out.setdefault(norm(n), member)
    return out


@cache
def _keys(cls: type[Kind]) -> dict[str, Any]:
    """A vocabulary's members by their data keys (the first member with a key wins)."""
    out: dict[str, Any] = {}
    for member in cls:
        out.setdefault(member.key, member)
    return out


class Kind(Enum):
    """A member of a vocabulary: `value` is the data key, with names in both languages."""

    __hash__ = object.__hash__  # members are singletons; identity hashing is cheap

    def __init__(self, key: str, ru: str, en: str, *aliases: str) -> None:
        self.key = key
        self.ru = ru
        self.en = en
        self.aliases = aliases

    @classmethod
    def what(cls) -> str:
        """What a member is called in error messages."""
        return cls.__name__.lower()

    @property
    def text(self) -> Text:
        return Text(self.en, self.ru)

    def label(self, lang: Lang = "ru") -> str:
        return self.text(lang)

    def names(self) -> tuple[str, ...]:
        return (self.key, self.ru, self.en, *self.aliases)

    @classmethod
    def parse(cls, name: str | Self) -> Self:
        """The member any of whose names is `name`, else an UnknownNameError."""
        if isinstance(name, cls):
            return name
        member = _names(cls).get(norm(str(name)))
        if isinstance(member, cls):
            return member
        allowed = [n for m in cls for n in (m.ru, m.en, m.key)]
        raise UnknownNameError(cls.what(), str(name), allowed)

    @classmethod
    def find(cls, name: str) -> Self | None:
        """The member any of whose names is `name`, or None."""
        member = _names(cls).get(norm(str(name)))
        return member if isinstance(member, cls) else None

    @classmethod
    def from_key(cls, key: str) -> Self:
        member = _keys(cls).get(key) if isinstance(key, str) else None
        if isinstance(member, cls):
            return member
        raise UnknownNameError(cls.what(), key, [m.key for m in cls])
