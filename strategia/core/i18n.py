"""Bilingual text: the console and every explanation speak Russian and English."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, cast

Lang = Literal["ru", "en"]
LANGS: tuple[Lang, ...] = ("ru", "en")


@dataclass(frozen=True, slots=True)
class Text:
    """A phrase in both languages; `str()` gives the English."""

    en: str
    ru: str = ""

    def __post_init__(self) -> None:
        if not self.ru:
            object.__setattr__(self, "ru", self.en)

    def __call__(self, lang: Lang = "en") -> str:
        """The phrase in `lang`, falling back to English where no Russian is given."""
        return self.ru if lang == "ru" else self.en

    def __str__(self) -> str:
        return self.en

    def format(self, **values: object) -> Text:
        """Both languages with `{name}` placeholders filled in."""
        return Text(self.en.format(**values), self.ru.format(**values))

    def to_json(self) -> dict[str, str]:
        return {"en": self.en, "ru": self.ru}

    @classmethod
    def of(cls, value: object) -> Text:
        """A Text from a Text, a plain string, or a `{"ru": ..., "en": ...}` mapping."""
        if isinstance(value, Text):
            return value
        if isinstance(value, dict):
            d = cast(dict[str, str], value)
            return cls(en=str(d.get("en", d.get("ru", ""))), ru=str(d.get("ru", "")))
        return cls(en=str(value))


def check_lang(lang: str) -> Lang:
    """`lang` if it is one of the console's languages, else a ValueError naming the choices."""
    for known in LANGS:
        if lang == known:
            return known
    raise ValueError(f"unknown language {lang!r}: expected one of {', '.join(LANGS)}")
