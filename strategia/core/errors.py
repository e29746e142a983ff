"""The errors Strategia raises for bad input: each names the input and what was expected, in
English (`str(e)`) and in Russian (`e.say("ru")`)."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from strategia.core.i18n import Lang


class StrategiaError(ValueError):
    """Base of every error about input (a name, a rules file, an order). `ru` is the message in
    Russian where the raiser gives it."""

    def __init__(self, *args: object, ru: str | None = None) -> None:
        super().__init__(*args)
        self.ru = ru

    def say(self, lang: Lang = "en") -> str:
        """The message in `lang` (English where no Russian is known)."""
        if lang == "ru" and self.ru:
            return self.ru
        return str(self)


class StaleError(StrategiaError):
    """A command decided on a position the game has moved on from (`strategia.game.positions`):
    nothing was written."""


def say(error: BaseException, lang: Lang = "en") -> str:
    """Any error's message in `lang`, as far as it is known (a file's error in Russian too)."""
    if isinstance(error, StrategiaError):
        return error.say(lang)
    if lang == "ru" and isinstance(error, OSError):
        return f"{error.filename}: {os_error_ru(error)}" if error.filename else os_error_ru(error)
    return str(error)


def unreadable(error: OSError | UnicodeDecodeError) -> tuple[str, str]:
    """Why a file cannot be read as text, in English and in Russian: the system's reason, or
    for bytes that are not UTF-8 (a binary file) where they are, never Python's own words."""
    if isinstance(error, UnicodeDecodeError):
        at, byte = error.start, error.object[error.start : error.start + 1]
        code = byte[0] if isinstance(byte, bytes) and byte else "?"
        shown = f"0x{code:02x}" if isinstance(code, int) else code
        return (
            f"not a text file: byte {at} ({shown}) is not UTF-8 (a binary file, or text saved "
            "in another encoding? save it as UTF-8)",
            f"это не текстовый файл: байт {at} (код {code}) — не UTF-8 (двоичный файл или текст "
            "в другой кодировке? сохраните его в UTF-8)",
        )
    return (error.strerror or str(error), os_error_ru(error))


def read_text_file(path: str | Path) -> str:
    """The text of the file at `path` (UTF-8); an UnreadableFileError naming the file and why,
    in both languages, if it cannot be read as text."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise UnreadableFileError(path, e) from None


class UnreadableFileError(StrategiaError):
    """A file that cannot be read as text (`unreadable`: why), naming it."""

    def __init__(self, path: str | Path, error: OSError | UnicodeDecodeError) -> None:
        self.path = str(path)
        en, ru = unreadable(error)
        super().__init__(f"{path}: {en}", ru=f"{path}: {ru}")


# What a file error is, in Russian, by its errno name.
_OS_RU = {
    "ENOENT": "нет такого файла или каталога",
    "EACCES": "нет доступа",
    "EPERM": "нет разрешения",
    "EISDIR": "это каталог, а не файл",
    "ENOTDIR": "это не каталог",
    "EEXIST": "файл уже есть",
    "ENOSPC": "на диске нет места",
    "EROFS": "диск только для чтения",
    "ENAMETOOLONG": "слишком длинное имя",
    "EBUSY": "файл занят",
}


def os_error_ru(error: BaseException) -> str:
    """A file error's reason in Russian (the system's words name no file)."""
    import errno

    code = getattr(error, "errno", None)
    name = errno.errorcode.get(code, "") if isinstance(code, int) else ""
    return _OS_RU.get(name, "файл не читается" if name else "ошибка файла")


_CYRILLIC = re.compile("[\u0400-\u04ff]")


class UnknownNameError(StrategiaError):
    """A name (unit type, formation, facing, ruleset...) that is not one of the allowed ones."""

    def __init__(self, what: str, given: str, allowed: Iterable[str]) -> None:
        self.what = what
        self.given = given
        self.allowed = tuple(dict.fromkeys(allowed))
        super().__init__(what, given)

    def _close(self) -> str | None:
        """The allowed name nearest the one given, among those in its script (a Russian name
        for a Russian misspelling)."""
        script = [
            a
            for a in self.allowed
            if bool(_CYRILLIC.search(a)) == bool(_CYRILLIC.search(self.given))
        ]
        close = difflib.get_close_matches(self.given, script or self.allowed, n=1, cutoff=0.5)
        return close[0] if close else None

    def __str__(self) -> str:
        """The message, with a suggestion worked out only when it is shown."""
        close = self._close()
        if close:
            return f"unknown {self.what} {self.given!r}: did you mean {close!r}?"
        return f"unknown {self.what} {self.given!r} (allowed: {', '.join(self._names('en'))})"

    def _names(self, lang: Lang) -> tuple[str, ...]:
        """The allowed names a reader of `lang` writes (all, where none is in its script)."""
        mine = tuple(a for a in self.allowed if (_CYRILLIC.search(a) is not None) == (lang == "ru"))
        return mine or self.allowed

    def say(self, lang: Lang = "en") -> str:
        if lang != "ru":
            return str(self)
        close = self._close()
        none = WHAT_RU.get(self.what, f"нет такого: {self.what}")
        hint_ru = f"; может быть, «{close}»?" if close else ""
        listed = "" if close else f" (можно: {', '.join(self._names('ru'))})"
        return f"{none}: «{self.given}»{hint_ru}{listed}"


@dataclass(frozen=True, slots=True)
class Problem:
    """One problem found in a file: where it is (a key, or file:line), what is wrong, and the
    file's line if `where` is a key; `ru` is the message in Russian and `where_ru` the place
    where it is a word («дорога»), not a key or a path."""

    where: str
    message: str
    line: int | None = field(default=None, compare=False)
    ru: str = field(default="", compare=False)
    where_ru: str = field(default="", compare=False)

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"

    def say(self, lang: Lang = "en") -> str:
        """The problem in `lang` (English where no Russian is given)."""
        if lang != "ru":
            return str(self)
        return f"{self.where_ru or self.where}: {self.ru or self.message}"


def problems_text(head: str, problems: Iterable[Problem], lang: Lang, bullet: str = "  ") -> str:
    """A file's problems as a message: «FILE: 2 problems» (ru «FILE: ошибок: 2») and a line
    for each (with its file line where the problem knows it)."""
    ps = tuple(problems)
    n = len(ps)
    if lang == "ru":
        lead = f"{head}: ошибок: {n}" if n != 1 else f"{head}: одна ошибка"
    else:
        lead = f"{head}: {n} problem{'s' if n != 1 else ''}"
    lines = [f"{bullet}{head}:{p.line}: {p.say(lang)}" if p.line else f"{bullet}{p.say(lang)}"
             for p in ps]  # fmt: skip
    return "\n".join([lead, *lines])


class ProblemsError(StrategiaError):
    """A file (or a built scenario) with problems, every one listed, in both languages."""

    def __init__(self, source: str, problems: Iterable[Problem], bullet: str = "  ") -> None:
        self.source = source
        self.problems = tuple(problems)
        super().__init__(
            problems_text(source, self.problems, "en", bullet),
            ru=problems_text(source, self.problems, "ru", bullet),
        )


class RuleDataError(ProblemsError):
    """A rules or house-rules file with problems; every problem found is listed at once."""

    def __init__(self, source: str, problems: Iterable[Problem]) -> None:
        super().__init__(source, problems, "  - ")


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

    def say(self, lang: Lang = "en") -> str:
        """The message in `lang`: its parts worded in Russian when asked (not when raised: a
        line is tried against every form, and most errors made are never shown)."""
        if lang != "ru":
            return str(self)
        notes = [f"позиция {self.column}"] if self.column is not None else []
        notes += [f"ожидалось: {russian(self.expected)}"] if self.expected else []
        detail = f" ({'; '.join(notes)})" if notes else ""
        return f"«{self.text}»: {russian(self.problem)}{detail}"

    def within(self, text: str, offset: int) -> NotationError:
        """This error moved into the larger `text`, where what it was about starts at `offset`."""
        return type(self)(text, self.problem, offset + (self.column or 1), self.expected)


class InvalidNotationError(NotationError):
    """Malformed notation."""


class IllegalNotationError(NotationError):
    """Well-formed notation that is impossible here: a cell off the map, a unit that is not."""


class AmbiguousNotationError(NotationError):
    """Notation that matches more than one thing."""


# What an unknown name is of, in Russian: "нет такого направления: «луну»".
WHAT_RU = {
    "direction": "нет такого направления",
    "unit type": "нет такого типа части",
    "regiment type": "нет такого типа полка",
    "corps type": "нет такого типа корпуса",
    "command type": "нет такого объединения",
    "formation": "нет такого построения",
    "facing": "нет такой стороны удара",
    "regimentsfacing": "нет такого положения полков",
    "side": "нет такой стороны",
    "terrain": "нет такой местности",
    "role": "нет такой роли полка",
    "ruleset": "нет такого набора правил",
    "rule entry": "нет такой таблицы правил",
    "question kind": "нет такого вопроса",
}

# The notation's problems and expectations, in Russian: (English pattern, Russian); None where
# `russian` words it itself.
_RU: list[tuple[str, str | None]] = [
    (r"unknown ([\w ]+?) '([^']*)': did you mean '([^']*)'\?", None),
    (r"unknown ([\w ]+?) '([^']*)'", None),
    (r"no order word", "нет слова приказа"),
    (r"not a reconnaissance question", "это не вопрос разведки"),
    (r"no place '([^']*)' on the map", r"на карте нет места «\1»"),
    (r"no place", "нет места"),
    (r"no cells", "нет клеток"),
    (r"(\d+) cells", r"клеток: \1"),
    (r"one cell", "одна клетка"),
    (r"cells like (.*)", r"клетки, например \1"),
    (r"a cell with an? (\w+)", r"клетка, где есть: \1"),
    (r"'в <cells or place>' / 'in <cells or place>'", "«в <клетки или место>»"),
    (r"no order", "нет приказа"),
    (r"incomplete order '([^']*)'", r"приказ «\1» не закончен"),
    (r"unexpected text after the unit", "лишний текст после части"),
    (r"unexpected text after the cell", "лишний текст после клетки"),
    (r"unexpected text", "лишний текст"),
    (r"'([^']*)' could be (.*)", r"«\1» — это может быть \2"),
    (r"could be (.*)", r"можно понять как \1"),
    (r"one of them, written out", "одно из них, полностью"),
    (r"no units", "нет частей"),
    (r"no direction", "нет направления"),
    (r"no formation", "нет построения"),
    (r"no facing of the regiments", "не сказано, куда обращены полки"),
    (r"no regiment ?(\d*)", r"нет полка \1"),
    (r"no second cell", "нет второй клетки"),
    (r"no position after the unit", "после части нет ее положения"),
    (r"no 'между' after (.*)", r"нет «между» после \1"),
    (r"no such unit (.*)", r"нет такой части: \1"),
    (r"no unit numbered (\d+)", r"нет части с номером \1"),
    (r"no unit number", "нет номера части"),
    (r"each unit in one echelon", "каждая часть в одном эшелоне"),
    (r"once, in one echelon", "один раз, в одном эшелоне"),
    (r"one or the other", "одно из двух"),
    (r"the rest", "остальные"),
    (r"no echelons", "нет эшелонов"),
    (r"the statute says nothing", "в уставе ничего не сказано"),
    (r"(.+) named whole and by its regiments", r"\1 названа и целиком, и по полкам"),
    (r"'и <cell>' / 'and <cell>'", "«и <клетка>»"),
    (r"facing of the regiments", "положение полков"),
    (r"formation", "построение"),
    (r"regiments", "полки"),
    (r"interdict", "огонь на отсечение"),
    (r"unit number (\S*) out of range", r"номер части \1 вне пределов"),
    (r"(\S+) km out of range", r"\1 км вне пределов"),
    (r"(longitude|latitude) (\S*) out of range", None),
    (r"a whole number from 1 to (\d+)", r"целое число от 1 до \1"),
    (r"1 to 100 km", "от 1 до 100 км"),
    (r"' - <cell>' or 'между <cell> и <cell>'", "« - <клетка>» или «между <клетка> и <клетка>»"),
    (r"no (longitude|latitude)", None),
    (r"no separator after the longitude", "нет разделителя после долготы"),
    (r"unit type missing", "не указан тип части"),
    (r"cell off the map, which is (\d+) x (\d+)", r"клетка вне карты (карта \1 × \2)"),
    (r"(.+) is not one of those merged", r"\1 — не из сливаемых"),
    (r"(.+) passes to itself", r"\1 передается самому себе"),
    (r"one division: nothing to merge", "одна дивизия: сливать нечего"),
    (r"(.+) is not an? (.+)", None),
    (r"(.+) named twice", r"\1 названа дважды"),
    (r"(\d+) cells given", r"дано клеток: \1"),
    (r"both cells are (.+)", r"обе клетки — \1"),
    (r"(.+) and (.+) are not in one grid line", r"\1 и \2 не на одной линии сетки"),
    (r"(\d+) characters", r"\1 знаков"),
    (r"at most (\d+)", r"не больше \1"),
    (r"the end", "конец записи"),
    (r"';' or the end", "«;» или конец записи"),
    (r"',' or '-'", "«,» или «-»"),
    (r"different units", "разные части"),
    (r"two different cells", "две разные клетки"),
    (r"one cell or two", "одна или две клетки"),
    (r"two", "две или больше"),
    (r"the same longitude or latitude", "одна долгота или широта"),
    (r"units, echelons split by ';'", "части, эшелоны через «;»"),
    (r"(longitude|latitude) 1\.\.(\d+)", None),
    (r"a whole number from 1", "целое число от 1"),
    (r"another (division|corps)", None),
    (r"an? (division|corps|regiment)( or .*)?", None),
    (r"('[^']*' / '[^']*'(; )?)+", None),
    (r"one of (.*) / (.*)", r"одно из: \1"),
    (r"one of (.*)", r"одно из: \1"),
    (r".*/.*", None),
]
_ECHELONS = {"division": "дивизия", "corps": "корпус", "regiment": "полк"}


def by_pattern(
    table: Iterable[tuple[str, str | None]], text: str
) -> tuple[str | None, re.Match[str]] | None:
    """The first of `table`'s (pattern, words) whose pattern matches the whole of `text`: its
    words with the groups put in (None where its words are None), and the match."""
    for pattern, ru in table:
        m = re.fullmatch(pattern, text, re.DOTALL)
        if m is not None:
            return (m.expand(ru) if ru is not None else None), m
    return None


def russian(text: str) -> str:
    """A notation error's problem or expectation in Russian, as far as it is known."""
    found = by_pattern(_RU, text)
    if found is None:
        return text
    words, m = found
    return words if words is not None else _worded(m.re.pattern, m, text)


def _worded(pattern: str, m: re.Match[str], text: str) -> str:
    if pattern.startswith("unknown"):
        none = WHAT_RU.get(m[1], f"нет такого: {m[1]}")
        return f"{none}: «{m[2]}»" + (f"; может быть, «{m[3]}»?" if m.lastindex == 3 else "")
    if pattern.startswith("(longitude|latitude) (\\S*) out"):
        return f"{'долгота' if m[1] == 'longitude' else 'широта'} {m[2]} вне пределов"
    if pattern.startswith("no (lon"):
        return "нет долготы" if m[1] == "longitude" else "нет широты"
    if pattern.startswith("(lon"):
        return f"{'долгота' if m[1] == 'longitude' else 'широта'} от 1 до {m[2]}"
    if pattern.startswith("another"):
        return "другая дивизия" if m[1] == "division" else "другой корпус"
    if pattern.startswith("(.+) is not"):
        return f"{m[1]} — не {_echelons(m[2])}"
    if pattern.startswith("('"):  # pairs of spellings: "'где ...' / 'where ...'; ..."
        return "; ".join("«" + x.split("' / '")[0].strip("'") + "»" for x in text.split("; "))
    if pattern.startswith("an?"):
        return _echelons(text.split(" ", 1)[1])
    # a list of names in both languages: "на/to, по дороге на/by road to", "линейное / linear"
    return ", ".join(dict.fromkeys(x.split("/")[0].strip() for x in text.split(", ")))


def _echelons(words: str) -> str:
    return " или ".join(_ECHELONS.get(w, w) for w in words.split(" or "))


# The TOML reader's complaints (tomllib), in Russian: (its words, ours); the rest is said generally.
_TOML_RU = (
    ("Cannot declare", "ключ или таблица объявлены дважды"),
    ("Cannot overwrite a value", "значение задано дважды"),
    ("Cannot mutate immutable namespace", "таблица уже задана целиком"),
    ("Cannot redefine namespace", "таблица объявлена дважды"),
    ("Duplicate inline table key", "ключ повторяется во встроенной таблице"),
    ("Expected '=' after a key", "после ключа нужно «=»"),
    ("Expected ']' at the end", "заголовок таблицы не закрыт «]»"),
    ("Expected ']]' at the end", "заголовок массива таблиц не закрыт «]]»"),
    ("Expected newline or end", "после значения лишний текст"),
    ("Unclosed array", "список не закрыт «]»"),
    ("Unclosed inline table", "встроенная таблица не закрыта «}»"),
    ("Unterminated string", "строка не закрыта кавычкой"),
    ("Invalid value", "непонятное значение"),
    ("Invalid date", "непонятная дата"),
    ("Invalid statement", "непонятная строка"),
    ("Invalid initial character", "ключ начинается недопустимым знаком"),
)


def toml_error_ru(text: str) -> str:
    """The TOML reader's complaint in Russian, with where it is: «список не закрыт «]» (строка 3,
    столбец 8)»."""
    what = next((ru for en, ru in _TOML_RU if text.startswith(en)), "ошибка записи")
    m = re.search(r"line (\d+), column (\d+)", text)
    if m:
        return f"{what} (строка {m[1]}, столбец {m[2]})"
    return f"{what} (в конце файла)" if "end of document" in text else what
