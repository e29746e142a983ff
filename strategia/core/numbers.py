"""Numbers as a mediator writes them: a decimal comma in Russian, no float noise (0.705882 is
0,71), percentages, kilometres, turns and divisions with their words in the right form
(1 дивизия, 2 дивизии, 5 дивизий; 0,5 хода), and the units of the rule data in both languages.

Every number the console, the reports and the explanations show goes through `num` or one of
the functions built on it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from decimal import ROUND_HALF_UP, Decimal
from functools import lru_cache

from strategia.core.i18n import Lang

NBSP = "\u00a0"


def plural_ru(n: float, one: str, few: str, many: str) -> str:
    """The Russian word for `n` of something: 1 дивизия, 2 дивизии, 5 дивизий, 21 дивизия;
    a fraction takes the genitive singular, which is the `few` form (0,5 хода, 1,5 дивизии)."""
    if not float(n).is_integer():
        return few
    k = abs(int(n))
    if k % 10 == 1 and k % 100 != 11:
        return one
    if 2 <= k % 10 <= 4 and not 12 <= k % 100 <= 14:
        return few
    return many


def plural_ru_gen(n: float, one: str, many: str) -> str:
    """The Russian word for `n` of something in the genitive (after «из», «с», «больше»): из 1
    дивизии, из 2 дивизий, из 21 дивизии, больше 0,5 хода; `one` is the genitive singular,
    `many` the genitive plural."""
    if not float(n).is_integer():
        return one
    k = abs(int(n))
    return one if k % 10 == 1 and k % 100 != 11 else many


def plural_en(n: float, one: str, many: str) -> str:
    """The English word for `n` of something: 1 turn, 0.5 turn, 2 turns, 0 turns."""
    return one if 0 < abs(n) <= 1 else many


@lru_cache(maxsize=8192, typed=True)
def num(x: float, lang: Lang = "en", digits: int = 3, decimals: int = 2, keep: int = 0) -> str:
    """`x` with at most `digits` significant digits and `decimals` decimals, no trailing zeros
    beyond `keep` decimals: 0.705882 -> 0,71; 1.6667 -> 1,67; 20.001 -> 20; 12500 -> 12 500;
    with keep=1, 2 -> 2,0."""
    if isinstance(x, bool):
        return ("да" if x else "нет") if lang == "ru" else ("yes" if x else "no")
    x = float(x)
    if math.isinf(x):
        return "∞"
    if math.isnan(x):
        return "—"
    if x == 0:
        return "0"
    magnitude = math.floor(math.log10(abs(x)))
    places = max(0, min(decimals, digits - 1 - magnitude))
    text = f"{half_up(x, places):,.{places}f}"
    if "." in text:
        whole, frac = text.split(".")
        frac = frac.rstrip("0").ljust(min(keep, places), "0")
        text = f"{whole}.{frac}" if frac else whole
    if float(text.replace(",", "")) == 0:
        return _small(x, lang, decimals)
    if keep and "." not in text and places >= keep:
        text += "." + "0" * keep
    return _localise(text, lang)


def half_up(x: float, places: int) -> Decimal:
    """`x` rounded to `places` decimals as a reader rounds the number written out: halves up,
    from its 12 significant digits (0.825 and 0.8250000001 are both 0.83; 0.8249999999999 is
    0.825 with float noise, and 0.83 too)."""
    return Decimal(f"{float(x):.12g}").quantize(Decimal(1).scaleb(-places), ROUND_HALF_UP)


def fixed(x: float, lang: Lang = "en", decimals: int = 2) -> str:
    """`x` with exactly `decimals` decimals (a table's column: 0,70 · 0,17)."""
    return _localise(f"{half_up(x, decimals):,.{decimals}f}", lang)


def _small(x: float, lang: Lang, decimals: int) -> str:
    """A number too small for its decimals, written as below the smallest one shown."""
    bound = _localise(f"{10**-decimals:.{decimals}f}", lang)
    return f"<{bound}" if x > 0 else f">−{bound}"


def _localise(text: str, lang: Lang) -> str:
    whole = text.split(".")[0].lstrip("-")
    if len(whole.replace(",", "")) < 5:  # no separator in four-digit numbers: 1500, 2026
        text = text.replace(",", "")
    if lang == "ru":
        return text.replace(",", NBSP).replace(".", ",")
    return text.replace(",", NBSP)  # a comma would read as a cell (12,500)


def pct(share: float, lang: Lang = "en") -> str:
    """A share as a percentage: 0.8333 -> 83 % (ru) / 83% (en); below 1 % one decimal."""
    p = float(share) * 100
    text = num(p, lang, digits=2, decimals=1) if 0 < abs(p) < 1 else num(int(half_up(p, 0)), lang)
    return f"{text}{NBSP}%" if lang == "ru" else f"{text}%"


def signed(x: float, lang: Lang = "en", digits: int = 3) -> str:
    """A change with its sign: +0,5 / −0,17."""
    text = num(abs(x), lang, digits)
    return f"+{text}" if x > 0 else f"−{text}" if x < 0 else text


# The units of the rule data and the engine's steps: (English one, many; Russian one, few, many).
UNITS: dict[str, tuple[str, str, str, str, str]] = {
    "turn": ("turn", "turns", "ход", "хода", "ходов"),
    "day": ("day", "days", "день", "дня", "дней"),
    "km": ("km", "km", "км", "км", "км"),
    "cm": ("cm", "cm", "см", "см", "см"),
    "cell": ("cell", "cells", "клетка", "клетки", "клеток"),
    "div": ("division", "divisions", "дивизия", "дивизии", "дивизий"),
    "regt": ("regiment", "regiments", "полк", "полка", "полков"),
    "pts": ("point", "points", "очко", "очка", "очков"),
    "q": ("question", "questions", "вопрос", "вопроса", "вопросов"),
    "res": ("resource", "resources", "ресурс", "ресурса", "ресурсов"),
    "min": ("min", "min", "мин", "мин", "мин"),
    "figures": ("figure", "figures", "фигурка", "фигурки", "фигурок"),  # the seed's фигурка
    "men": ("man", "men", "человек", "человека", "человек"),
    "pair": ("pair", "pairs", "пара", "пары", "пар"),
    "squadrons": ("squadron", "squadrons", "эскадрон", "эскадрона", "эскадронов"),
    "road": ("road", "roads", "дорога", "дороги", "дорог"),
    "°": ("°", "°", "°", "°", "°"),
    "%": ("%", "%", "%", "%", "%"),
}
# Compound units, written as they are: English, Russian.
COMPOUND: dict[str, tuple[str, str]] = {
    "per turn": ("per turn", "за ход"),
    "km/turn": ("km a turn", "км за ход"),
    "div/10 km": ("divisions per 10 km", "дивизии на 10 км"),
    "%/km": ("% per km", "% на км"),
    "%/km²": ("% per km²", "% на км²"),
    "×": ("×", "×"),
    "× its time": ("× its time", "× его время"),
    "turn a pair": ("turn a pair", "хода на пару"),
}


def shown(text: str) -> float | None:
    """The number a text written by `num` stands for (the number as the reader sees it, so that
    its word agrees with it: 0.99999 is written 1, and 1 it is), or None for «<0,01» and words."""
    try:
        return float(text.replace(NBSP, "").replace(",", ".").replace("−", "-"))
    except ValueError:
        return None


def unit_word(unit: str, x: float, lang: Lang = "en", case: str = "nom") -> str:
    """The unit's word for `x` of it in `lang` (an unknown unit as written); `case="gen"` for the
    Russian genitive (из 2 дивизий, больше 1 хода)."""
    if unit in UNITS:
        en1, en2, one, few, many = UNITS[unit]
        if lang != "ru":
            return plural_en(x, en1, en2)
        return plural_ru_gen(x, few, many) if case == "gen" else plural_ru(x, one, few, many)
    if unit in COMPOUND:
        return COMPOUND[unit][1 if lang == "ru" else 0]
    return unit


def quantity(x: float, unit: str, lang: Lang = "en", digits: int = 3, case: str = "nom") -> str:
    """A number and its unit: 1 ход, 0,5 хода, 5 ходов; 20 км; 2 turns; × 1,7 for a factor. The
    word agrees with the number as written (0.99999 turn is «1 ход»); `case="gen"` for the
    Russian genitive (из 2 дивизий)."""
    if unit == "×":
        return f"× {num(x, lang, digits)}"
    if unit == "%":
        return f"{num(x, lang, digits)}{NBSP}%" if lang == "ru" else f"{num(x, lang, digits)}%"
    if not unit:
        return num(x, lang, digits)
    if unit == "°":
        return f"{num(x, lang, digits)}°"
    text = num(x, lang, digits)
    value = shown(text)
    return f"{text} {unit_word(unit, x if value is None else value, lang, case)}"


def count(n: float, one: str, few: str, many: str, lang: Lang = "ru") -> str:
    """A number and a Russian word that agrees with it (3 стороны, 5 сторон); `lang` for the
    number's decimal comma."""
    text = num(n, lang)
    value = shown(text)
    return f"{text} {plural_ru(n if value is None else value, one, few, many)}"


def km(x: float, lang: Lang = "en") -> str:
    """A distance: 20 км / 20 km (20.001 is 20)."""
    return quantity(x, "km", lang)


def turns(x: float, lang: Lang = "en", case: str = "nom") -> str:
    """A time: 1 ход, 0,5 хода, 5 ходов / 1 turn, 0.5 turn, 2 turns (`case="gen"`: больше 5
    ходов)."""
    return quantity(x, "turn", lang, case=case)


def divisions(x: float, lang: Lang = "en", case: str = "nom") -> str:
    """A strength in divisions: 0,17 дивизии, 1 дивизия, 2 дивизии / 0.17 of a division
    (`case="gen"`: из 2 дивизий)."""
    if lang == "en" and 0 < abs(x) < 1:
        return f"{num(x, lang)} of a division"
    return quantity(x, "div", lang, case=case)


def and_list(items: Iterable[object], lang: Lang = "en", sep: str = ", ") -> str:
    """Items in prose, the last joined by «и» / "and": 1 с.д., 2 с.д. и 3 с.д. (a list in
    notation is written as the notation writes it, space-separated)."""
    words = [str(x) for x in items]
    if len(words) < 2:
        return "".join(words)
    last = " и " if lang == "ru" else " and "
    return sep.join(words[:-1]) + last + words[-1]


def cells_list(cells: Iterable[object], lang: Lang = "en") -> str:
    """Cells in prose: 29,24 и 30,24; 29,24; 30,24 и 31,24 (a semicolon between cells, whose
    own comma would read as a list's)."""
    return and_list(cells, lang, "; ")
