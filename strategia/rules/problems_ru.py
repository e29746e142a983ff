"""The problems of a rules or house-rules file in Russian: the checks word them in English
(`schema.check_value`, `load`), and each wording has its Russian here, with what it quotes (a
key, a value, a line) kept as written."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace

from strategia.core.errors import Problem, by_pattern, toml_error_ru
from strategia.explain.render import rule_label

_HINT = r"(?:: did you mean '(?P<hint>[^']*)'\?| \(expected one of: (?P<allowed>.*)\))?"
# (English pattern, Russian with \g<name> or \1 for what it quotes)
_RU: list[tuple[str, str]] = [
    (r"no groups in pattern (.*): expected e\.g\. '(.*)'",
     r"в образце \1 нет групп: нужно, например, «\2»"),
    (r"unknown group (.*) \(groups: (.*)\)", r"нет такой группы: \1 (группы: «\2»)"),
    (r"group (.*) given twice", r"группа \1 задана дважды"),
    (r"(.*) before any group: expected e\.g\. '(.*)'",
     r"\1 до первой группы: нужно, например, «\2»"),
    (r"group (.*) has no roles", r"у группы \1 нет ролей"),
    (r"bad role (.*) in group (.*): expected D, S or -, with \*",
     r"неверная роль \1 в группе \2: нужно «D», «S» или «-», со «*» или без"),
    (r"group (.*): at most one role may carry \*",
     r"группа \1: звездочка — не больше чем у одной роли"),
    (r"expected a whole number, got (.*)", r"нужно целое число, а дано «\1»"),
    (r"expected a number, got (.*)", r"нужно число, а дано «\1»"),
    (r"(.*) is not a number the rules can use \(at most (.*) either way\)",
     r"«\1» — не число, пригодное для правил"),
    (r"(.*) is below the smallest allowed value (.*)", r"«\1» меньше наименьшего допустимого \2"),
    (r"(.*) is above the largest allowed value (.*)", r"«\1» больше наибольшего допустимого \2"),
    (r"(.*) is not a number", r"«\1» — не число"),
    (r"expected text, got (.*)", r"нужен текст, а дано «\1»"),
    (r"expected true or false, got (.*)", r"нужно «true» или «false», а дано «\1»"),
    (r"expected a pattern such as '(.*)', got (.*)", r"нужен образец вроде «\1», а дано «\2»"),
    (r"expected a list of regiment types, got (.*)", r"нужен список типов полков, а дано «\1»"),
    (r"unknown regiment type\(s\) (.*)", r"нет таких типов полков: «\1»"),
    (r"unknown value type (.*)", r"нет такого типа значений: \1"),
    (r"(.*): expected one of (.*)", r"«\1»: нужно одно из: \2"),
    (r"expected a table of values", "нужна таблица значений"),
    (r"expected a table: column = value", "нужна таблица: столбец = значение"),
    (r"expected a value or \{value = \.\.\., note = \.\.\.\}",
     "нужно значение или «{value = ..., note = ...}»"),
    (r"expected a table \(\[ruleset\] name = \.\.\.\), got (.*)",
     r"нужна таблица («[ruleset] name = ...»), а дано «\1»"),
    (r"is (.*), these are (.*)", r"указано «\1», а это правила «\2»"),
    (r"not UTF-8 text \((.*)\)", "это не текст в UTF-8"),
    (r"expected a table", "нужна таблица"),
    (r"unknown key", "нет такого ключа"),
    (r"unknown cell key", "нет такого ключа ячейки"),
    (r"missing value", "нет значения"),
    (r"missing cell", "нет ячейки"),
    (r"no such row", "нет такой строки"),
]  # fmt: skip
_NAMED = [  # an unknown name, with the suggestion or the list the check gives
    (r"unknown rule entry" + _HINT, "нет такой таблицы правил"),
    (r"unknown (?:parameter|row) of (?P<of>.*?)" + _HINT, "нет такой строки в {of}"),
    (r"unknown column of (?P<of>.*?)" + _HINT, "нет такого столбца в {of}"),
]


def _words(listed: str) -> str:
    """The words a cell may hold instead of a number («trails», «impassable»), each quoted as
    the file writes it and said in Russian (`model.WORDS`)."""
    from strategia.rules.model import WORDS  # the rule data's words (model imports the checks)

    said = [(x, WORDS.get(x)) for x in listed.split(", ") if x]
    return ", ".join(f"«{x}» ({t.ru})" if t else f"«{x}»" for x, t in said)


def _given(value: str) -> str:
    """A value quoted as the file wrote it: 'fly' is «fly»."""
    return value[1:-1] if len(value) > 1 and value[0] == value[-1] == "'" else value


def russian(message: str) -> str:
    """A file problem's message in Russian ("" where its wording is not known here)."""
    if message.startswith(("Invalid", "Expected", "Cannot", "Unclosed", "Unterminated",
                           "Illegal", "Found", "Duplicate", "Escaped", "Unescaped")):  # fmt: skip
        return f"не читается как TOML: {toml_error_ru(message)}"
    if m := re.fullmatch(r"expected a number or one of (.*), got (.*)", message, re.DOTALL):
        return f"нужно число или одно из: {_words(m[1])}, а дано «{_given(m[2])}»"
    named = by_pattern(_NAMED, message)
    if named is not None and named[0] is not None:
        m = named[1]
        head = named[0].format(of=rule_label(m.groupdict().get("of") or "", "ru"))
        if m["hint"]:
            return f"{head}; может быть, «{m['hint']}»?"
        listed = ", ".join(f"«{x}»" for x in (m["allowed"] or "").split(", ") if x)
        return f"{head} (можно: {listed})" if listed else head
    found = by_pattern(_RU, message)
    if found is not None and found[0] is not None:
        return _comma(found[0]) if "допустимого" in found[0] else found[0]
    return ""


def _comma(text: str) -> str:
    """Numbers with a decimal comma (0.01 -> 0,01), as a Russian sentence writes them."""
    return re.sub(r"(?<![\w.])(-?\d+)\.(\d+)(?![\w.])", r"\1,\2", text)


def in_russian(problems: Iterable[Problem]) -> list[Problem]:
    """The problems with their Russian messages (kept where one is given), a table's key
    written as its header ([march])."""
    out = []
    for p in problems:
        where = {"file": "файл", "TOML": "TOML"}.get(p.where, p.where)
        if "." not in where and where == p.where:
            where = f"[{where}]"
        out.append(replace(p, ru=p.ru or russian(p.message), where_ru=p.where_ru or where))
    return out
