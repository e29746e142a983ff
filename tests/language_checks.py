"""What tests/test_language.py looks for in a text: the classes of mistakes a demanding mediator
finds in the console and on the command line.

In Russian: a word in Latin script; a noun that does not agree with its number («1 хода», «5
хода», «2 ходов»); a direction left in the nominative after «с» («с запад»); a decimal point
(0.33, not 0,33). What legitimately holds Latin letters or dots in Russian, and is left out:
commands and code (`strategia game ...`, <code>), file names and paths, addresses, the keys of
the scenario file (`forces.R.deployment`, `map.relief`) and its values as quoted («red», 'blu'),
rule ids with their letters («9.8в», «[4.3]», «(табл. 9-1; 9.6)»), the seeds' abbreviations
(«т.д.», «с.п.»), a river corner in the notation (10.5,4.5), the mobilisation days (M+5), the
names of file formats and of the text encoding (TOML, NetCDF, UTF-8), the program's name in its error
prefix («strategia game: ошибка:») and its options (--recover), the text map's characters (f, s, h, o, R, B...).

In English, by design, Cyrillic stays in: proper names the scenario gives (states, places, the
scenario's name) and text the players or the mediator typed (a note, an order quoted as given),
the seeds' words quoted in «» (a reconstructed reading cites the Russian it reads), and the
notation written both ways where a text says how to write it. Everything else, units and orders
included (21 TD to 35,35), is English.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable

from strategia.core.numbers import plural_ru, plural_ru_gen

_TAGS = re.compile(
    r"<style.*?</style>|<script.*?</script>|<code>.*?</code>|`[^`]*`|<[^>]+>", re.DOTALL
)
_PATHS = re.compile(
    r"(?:[\w.~-]*/[\w./~+-]*|[\w.-]+\.(?:toml|game|tgame|nc|jsonl|json|html|md|png|txt|ipynb))"
)
_URL = re.compile(r"https?://\S+")
_KEYS = re.compile(
    r"\[{1,2}[\w.<> -]+\]{1,2}|\b[a-z_][a-z0-9_]*(?:\.[\w<>|-]*)+"
)  # [map], forces.R.x
_QUOTED = re.compile(r"«[^«»]*»|(?<!\w)'[^'\n]*'(?!\w)|\"[^\"\n]*\"")
_PROGRAM = re.compile(r"\bstrategia [a-z-]+:|(?<![\w-])--?[a-z][\w-]*")  # and its options
# Names that are names in Russian too: file formats, and the mobilisation days' notation (M+5).
# A formula's variable is a letter in Russian too (9.7а: эффективность −x²/15 − x/3 + 120).
_NAMES = re.compile(
    r"\b(?:TOML|NetCDF|JSONL?|SQLite|HTML|Markdown|Voilà|UTF-8)\b|\bM(?:\+\d+)?(?![\w])|\bx(?=\s?[=²/])"
)
LATIN = re.compile(r"[A-Za-z]+")
CYRILLIC = re.compile(r"[А-Яа-яЁё]+")


def plain(text: str) -> str:
    """A page's or a command's text without its markup and `code`."""
    return html.unescape(_TAGS.sub(" ", text))


def _stripped(text: str) -> str:
    text = _URL.sub(" ", plain(text))
    text = _NAMES.sub(" ", _PROGRAM.sub(" ", text))
    text = _QUOTED.sub(" ", text)
    return _KEYS.sub(" ", _PATHS.sub(" ", text))


GLYPHS = set("fshoFRBGKU")  # the text map's characters: forest, swamp, hills, a city, units


def latin_words(text: str) -> list[str]:
    """The Latin words of a Russian text, what legitimately holds them left out."""
    return [w for w in LATIN.findall(_stripped(text)) if w not in GLYPHS]


# Nouns a number governs, by their forms: nominative singular, genitive singular, genitive
# plural (1 ход, 2 хода, 5 ходов; после «из», «с», «больше»: из 1 хода, из 2 ходов).
NOUNS = [
    ("ход", "хода", "ходов"),
    ("дивизия", "дивизии", "дивизий"),
    ("полк", "полка", "полков"),
    ("клетка", "клетки", "клеток"),
    ("вопрос", "вопроса", "вопросов"),
    ("сторона", "стороны", "сторон"),
    ("очко", "очка", "очков"),
    ("корпус", "корпуса", "корпусов"),
    ("раунд", "раунда", "раундов"),
    ("запись", "записи", "записей"),
    ("день", "дня", "дней"),
]
_FORMS = {form: forms for forms in NOUNS for form in forms}
_GENITIVE = ("из", "с", "со", "от", "до", "больше", "меньше", "более", "менее", "около", "без",
             "для", "свыше", "кроме", "после", "дольше")  # fmt: skip
_COUNTED = re.compile(
    r"(?:(?P<prep>[А-Яа-яЁё]+) )?(?<![\d,.:/+-])(?P<n>\d+(?:,\d+)?)(?![\d,.]*\d)"
    r"(?:\u00a0| )(?P<noun>[а-яё]+)\b"
)


def disagreements(text: str) -> list[str]:
    """Each «number noun» whose noun does not agree with the number (the case after a
    preposition that takes the genitive accounted for)."""
    out = []
    for m in _COUNTED.finditer(plain(text)):
        forms = _FORMS.get(m["noun"])
        if forms is None:
            continue
        n = float(m["n"].replace(",", "."))
        one, few, many = forms
        if m["prep"] and m["prep"].lower() in _GENITIVE:
            want = plural_ru_gen(n, few, many)
        else:
            want = plural_ru(n, one, few, many)
        if m["noun"] != want and not (m["noun"] == one and m["noun"] in ("корпус",)):
            out.append(m[0])
    return out


DIRECTIONS = ("север", "юг", "восток", "запад", "северо-восток", "юго-восток", "юго-запад",
              "северо-запад")  # fmt: skip
_UNDECLINED = re.compile(
    r"\b(?:с|со|от|до|к|на (?:севере|юге|востоке|западе) и) (?:" + "|".join(DIRECTIONS) + r")\b"
    r"(?![а-я-])"
)


def undeclined(text: str) -> list[str]:
    """A direction left in the nominative where its case is another: «с запад», «к восток»."""
    return [m[0] for m in _UNDECLINED.finditer(plain(text))]


_DOT = re.compile(r"\d+\.\d+")
_CORNERS = re.compile(r"\d+\.5,\d+\.5|\d+(?:\.5)?,\d+\.5|\d+\.5,\d+")  # a river's corners
# What follows or precedes a number as a number, not as a rule id: its unit, an operator.
_UNIT_WORDS = {form for forms in NOUNS for form in forms} | {"км", "мин", "см", "%", "из", "раза"}
_OPERATOR = "=×+−*/<>"


def dot_decimals(text: str, rule_ids: Iterable[str] = ()) -> list[str]:
    """Numbers written with a decimal point in a Russian text. A rule id («9.8», «4.12а»: one of
    `rule_ids`, the rules the game cites) is none, unless it stands as a number stands: after
    an operator (= × +) or before a unit («0.5 хода», «9.5 из 15»)."""
    known = {r.rstrip("abcdefghабвгдежз") for r in rule_ids}
    out = []
    for line in _stripped(text).splitlines():
        line = _CORNERS.sub(" ", line)
        for m in _DOT.finditer(line):
            token = m[0]
            before = line[: m.start()].rstrip()
            after = line[m.end() :]
            word = re.match(r"\s*([%\w]+|[" + _OPERATOR + "])", after)
            numeric = (before != "" and before[-1] in _OPERATOR) or (
                word is not None and (word[1] in _UNIT_WORDS or word[1] in _OPERATOR)
            )
            if token in known and not numeric:
                continue
            out.append(f"{token} in «{line.strip()[:160]}»")
    return out


def cyrillic_words(text: str, allowed: Iterable[str] = ()) -> list[str]:
    """The Cyrillic words of an English text outside what it writes in Russian by design (see
    the module): «quotes», the scenario's names (`allowed`), `code`."""
    text = _QUOTED.sub(" ", plain(text))
    for name in sorted(allowed, key=len, reverse=True):
        text = text.replace(name, " ")
    return CYRILLIC.findall(text)
