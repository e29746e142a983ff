"""The game store's problems in Russian (a text journal's have theirs in `textform`): the
places its checks name (bytes, pages, entries, tables, the header's copies, snapshots) and what
they found, by pattern, for a problem made without its Russian (`with_russian`). What SQLite
itself says (an integrity check's finding, an error's message) is quoted as SQLite said it,
«SQLite: ...»; a path stays as it is."""

from __future__ import annotations

import re
from dataclasses import replace

from strategia.core.errors import Problem, by_pattern

_PLACES: tuple[tuple[str, str], ...] = (
    (r"bytes (\d+)-(\d+) \(the file's header\)", r"байты \1-\2 (заголовок файла)"),
    (r"bytes (\d+)-(\d+)", r"байты \1-\2"),
    (r"the file's header", "заголовок файла"),
    (r"pages (\d+)-(\d+)", r"страницы \1-\2"),
    (r"page 1 \(the file's schema\)", "страница 1 (схема файла)"),
    (r"table (\w+) \(pages from (\d+)\)", r"таблица \1 (страницы с \2)"),
    (r"snapshot after entry (\d+)", r"снимок после записи \1"),
    (r"the header \(copy\)", "заголовок (копия)"),
    (r"the header \(first\)", "заголовок (первый)"),
    (r"the header", "заголовок"),
    (r"the tail \(the last entry's number\)", "хвост (номер последней записи)"),
    (r"\bentry (\d+)", r"запись \1"),
    (r"\bpage (\d+)", r"страница \1"),
    (r"\btree (\d+)", r"дерево \1"),
    (r"\bschema\b", "схема"),
)

_FOUND: tuple[tuple[str, str], ...] = (
    (r"too short for a game( file)?", "слишком короткий для файла игры"),
    (r"not an SQLite database", "не база данных SQLite"),
    (r"(\d+) byte\(s\) of fields every game file has alike are changed",
     r"изменены поля, одинаковые во всех файлах игр (байтов: \1)"),
    (r"fields every game file has alike are changed: (.*)",
     r"изменены поля, одинаковые во всех файлах игр: \1"),
    (r"cut short within a page", "обрывается посреди страницы"),
    (r"missing: cut short", "отсутствуют: файл обрезан"),
    (r"SQLite cannot read it", "SQLite не может его прочитать"),
    (r"checksum mismatch: the entry was damaged",
     "контрольная сумма не сходится: запись повреждена"),
    (r"checksum mismatch: damaged", "контрольная сумма не сходится: повреждено"),
    (r"missing \(the next entry in the file is (\d+)\)",
     r"отсутствует (следующая запись в файле — \1)"),
    (r"missing \(a snapshot is kept after it\)", "отсутствует (после нее хранится снимок)"),
    (r"missing or damaged", "отсутствует или повреждена"),
    (r"missing tables (.*)", r"нет таблиц \1"),
    (r"missing", "отсутствует"),
    (r"not a snapshot", "не снимок игры"),
    (r"not a Strategia game \(another SQLite database\?\)",
     "не игра «Стратегии» (другая база данных SQLite?)"),
    (r"store version (\S+), this program reads (\S+)",
     r"версия хранилища \1, эта программа читает \2"),
    (r"(\d+) rows, expected 1", r"строк: \1, ожидалась одна"),
    (r"its two copies differ", "две его копии различаются"),
    (r"entry (\d+) where (\d+) was expected", r"запись \1 там, где ожидалась \2"),
    (r"no copy of the header could be read: nothing saved",
     "ни одна копия заголовка не читается: ничего не сохранено"),
    (r"(\d+) later entries are not kept \(they follow the damage\)",
     r"следующие записи не сохранены, они идут после повреждения (записей: \1)"),
)  # fmt: skip

# what the store was doing when SQLite failed, and how it failed
_DOING: tuple[tuple[str, str], ...] = (
    (r"reading entries (\d+) to (\d+)", r"чтение записей \1-\2"),
    (r"reading the entries after entry (\d+)", r"чтение записей после записи \1"),
    (r"reading the kinds of the entries", "чтение видов записей"),
    (r"reading the entries", "чтение записей"),
    (r"reading the snapshots", "чтение снимков"),
    (r"reading the file's header", "чтение заголовка файла"),
    (r"checking the file", "проверка файла"),
    (r"beginning a command", "начало команды"),
    (r"committing the command", "завершение команды"),
    (r"writing entry (\d+)", r"запись записи \1"),
    (r"writing the snapshot after entry (\d+)", r"запись снимка после записи \1"),
    (r"SQLite's check", "проверка SQLite"),
    (r"cannot be opened", "не открывается"),
    (r"cannot be read", "не читается"),
    (r"cannot be written", "не записывается"),
    (r"unreadable", "не читается"),
)

_COMPILED_PLACES = [(re.compile(a), b) for a, b in _PLACES]


def place_ru(where: str, path: str = "") -> str:
    """A problem's place in Russian (the path before it kept as it is)."""
    head, rest = ("", where)
    if path and where.startswith(path):
        head, rest = path, where[len(path) :]
    for pattern, words in _COMPILED_PLACES:
        rest = pattern.sub(words, rest)
    return head + rest


def found_ru(message: str) -> str:
    """What a check found, in Russian; «SQLite: ...» for SQLite's own words."""
    found = by_pattern(_FOUND, message)
    if found is not None and found[0] is not None:
        return found[0]
    doing, sep, said = message.partition(": ")
    told = by_pattern(_DOING, doing)
    if told is not None and told[0] is not None:
        return f"{told[0]}: {found_ru(said)}" if sep else told[0]
    return f"SQLite: «{message}»"


def with_russian(p: Problem, path: str = "") -> Problem:
    """`p` with its Russian filled in where it has none."""
    if p.ru and p.where_ru:
        return p
    where = p.where_ru or place_ru(p.where, path)
    return replace(p, ru=p.ru or found_ru(p.message), where_ru=where)
