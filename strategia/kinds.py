"""The game's closed vocabularies as enums: each member has its Russian and English names.

`Kind.parse` accepts any of a member's names (case- and dot-insensitive) and raises an
`UnknownNameError` that suggests the closest name otherwise.
"""

from __future__ import annotations

import re
from enum import Enum
from typing import Self

from strategia.errors import UnknownNameError
from strategia.i18n import Lang, Text


def _norm(name: str) -> str:
    return re.sub(r"[\s._\-]+", "", name.strip().lower()).replace("ё", "е")


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
        wanted = _norm(str(name))
        for member in cls:
            if any(_norm(n) == wanted for n in member.names()):
                return member
        allowed = [n for m in cls for n in (m.ru, m.en, m.key)]
        raise UnknownNameError(cls.what(), str(name), allowed)

    @classmethod
    def from_key(cls, key: str) -> Self:
        for member in cls:
            if member.key == key:
                return member
        raise UnknownNameError(cls.what(), key, [m.key for m in cls])


class Side(Kind):
    """The teams' colours (rule 1.2), in their preferred order."""

    RED = ("red", "красные", "Red", "к", "r")
    BLUE = ("blue", "синие", "Blue", "с", "b")
    GREEN = ("green", "зеленые", "Green", "з", "g")
    BLACK = ("black", "черные", "Black", "ч", "k")


class Terrain(Kind):
    """The relief and route kinds the movement and combat tables are indexed by (2.x, table 4)."""

    PLAIN = ("plain", "равнина", "plain", "open", "открытая местность")
    FOREST = ("forest", "лес", "forest")
    MOUNTAINS = ("mountains", "горы", "mountains")
    SWAMP = ("swamp", "болота", "swamp", "болото")
    HILLS = ("hills", "холмы", "hills", "холмистая местность")
    RIVER = ("river", "реки", "river", "река")
    ROAD = ("road", "дороги", "road", "дорога")
    TRAIL_MOUNTAINS = ("trail_mountains", "тропы в горах", "mountain trail")
    TRAIL_SWAMP = ("trail_swamp", "тропы в болотах", "swamp trail")
    TRAIL_FOREST = ("trail_forest", "тропы в лесу", "forest trail")
    TOWN = ("town", "город", "town", "населенный пункт")
    FORTRESS = ("fortress", "крепость", "fortress")


class Formation(Kind):
    """A division's formation (9.6): linear (abreast) or supporting (two ahead, one behind)."""

    LINEAR = ("linear", "линейное", "linear", "line", "линейное (атакующее)", "атакующее")
    SUPPORTING = ("supporting", "опорное", "supporting", "support", "опорное (оборонительное)")


class Facing(Kind):
    """The side of a division a blow lands on (tables 9-1, 9-2, 10)."""

    FRONT = ("front", "фронт", "front")
    FLANK45 = ("flank45", "фланг 45", "flank 45", "f45")
    FLANK90 = ("flank90", "фланг 90", "flank 90", "f90")
    FLANK135 = ("flank135", "фланг 135", "flank 135", "f135")
    REAR = ("rear", "тыл", "rear")


class RegimentsFacing(Kind):
    """Whether the defending regiments have turned to meet the blow (tables 9-1 / 9-2, 10*)."""

    ENEMY = ("enemy", "к противнику", "towards the enemy", "turned")
    FRONT_LINE = ("front_line", "к линии фронта", "towards the front line", "not-turned")


class Role(Kind):
    """How a regiment takes part in a fight (9.6): with its direct or its support rating."""

    DIRECT = ("D", "непосредственно", "direct")
    SUPPORT = ("S", "поддержкой", "support")
    NONE = ("-", "не участвует", "takes no part")
