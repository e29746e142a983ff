"""The scenario text format's shape: every table and key of the right type, the settings in range.

`check_shape` runs before the theatre and forces are read: a key of the wrong type (`seed =
[1]`, `[forces]` written for `[forces.R]`), an unknown table or key, a number the game cannot
use (`seed = 1e309`, an empty `clock_minutes`) is a problem with the file, line and key, and the
part is left out so the rest of the file is still checked. The file's size and the map's are
bounded, so every file is read in bounded time.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from strategia.core.errors import Problem, ProblemsError
from strategia.rules import ruleset_names
from strategia.theatre.scenario import Settings

MAX_TEXT = 64 * 1024 * 1024  # characters of a scenario file
MAX_SIDE = 2000  # cells of the map, either way
MAX_SEED = 2**63
# The tables of a scenario file and their keys: the type each key's value must have.
TABLES: dict[str, dict[str, tuple[type, ...]]] = {
    "scenario": {"name": (str,), "description": (str,), "level": (int,)},
    "settings": {
        "level": (int,),
        "ruleset": (str,),
        "seed": (int,),
        "clock_minutes": (int, float),
        "recon_questions": (int, float),
        "mediator": (bool,),
    },
    "map": {"relief": (str,), "states": (str,), "legend": (dict,), "netcdf": (str,)},
    "routes": {"roads": (list,), "railways": (list,), "trails": (list,), "rivers": (list,)},
    "places": {"cities": (list,), "capitals": (list,), "fortresses": (list,)},
}
FORCES_KEYS = ("order_of_battle", "deployment", "mobilisation")
STATE_KEYS = ("code", "name", "side")
_TYPE_NAMES = {str: ("text", "текст"), int: ("a whole number", "целое число"),
               float: ("a number", "число"), bool: ("true or false", "«true» или «false»"),
               dict: ("a table", "таблица"), list: ("a list", "список")}  # fmt: skip


class ScenarioError(ProblemsError):
    """A scenario file with problems: each with file, line and column; nothing was loaded."""

    def __init__(self, source: str, problems: list[Problem]) -> None:
        super().__init__(source, problems)
        self.problems: list[Problem] = list(problems)  # type: ignore[assignment]


@dataclass
class Reader:
    """A scenario file's lines, and the problems found in it so far."""

    path: str
    raw: list[str]
    problems: list[Problem] = field(default_factory=list)

    def where(self, line: int | None, column: int | None = None) -> str:
        if line is None:
            return self.path
        return f"{self.path}:{line}" + (f":{column}" if column else "")

    def add(self, line: int | None, column: int | None, message: str, ru: str = "") -> None:
        """A problem at `line` (and `column`), in English and (`ru`) in Russian."""
        self.problems.append(Problem(self.where(line, column), message, ru=ru))

    def locate(self, table: str, key: str) -> int | None:
        """The line where `key = ...` is set inside `[table]` (1-based), if it can be found."""
        in_table = table == ""
        header = re.compile(r"^\s*\[\[?\s*" + re.escape(table) + r"\s*\]\]?\s*$") if table else None
        setting = re.compile(r"^\s*" + re.escape(key) + r"\s*=")
        for n, line in enumerate(self.raw, 1):
            if line.lstrip().startswith("["):
                in_table = bool(header and header.match(line[:400]))
                continue
            if in_table and setting.match(line[:400]):
                return n
        return None

    def table_line(self, table: str) -> int | None:
        """The line of the header `[table]` (or `[[table]]`)."""
        header = re.compile(r"^\s*\[\[?\s*" + re.escape(table) + r"\s*[\].]")
        return next((n for n, line in enumerate(self.raw, 1) if header.match(line[:400])), None)

    def block(self, table: str, key: str, text: str) -> list[tuple[int | None, str]]:
        """The lines of a multi-line string value with their file line numbers."""
        start = self.locate(table, key)
        lines = text.split("\n")
        first = start
        if start is not None and self.raw[start - 1].split("=", 1)[1].strip() == '"""':
            first = start + 1
        return [(None if first is None else first + k, line) for k, line in enumerate(lines)]

    def find_line(self, needle: str) -> int | None:
        for n, line in enumerate(self.raw, 1):
            if needle in line:
                return n
        return None


def quoted(names: str) -> str:
    """A list of the file's names, each in quotes, for a Russian sentence: «map», «routes»."""
    return ", ".join(f"«{n}»" for n in names.split(", "))


def _kind(value: Any, types: tuple[type, ...]) -> bool:
    if isinstance(value, bool) and bool not in types:
        return False
    return isinstance(value, types)


def check_shape(r: Reader, data: dict[str, Any]) -> dict[str, Any]:
    """`data` with every part of the wrong type left out, each reported with its line."""
    out: dict[str, Any] = {}
    for table, body in data.items():
        line = r.table_line(table)
        if table == "state":
            out[table] = _states(r, body)
        elif table == "forces":
            out[table] = _forces_shape(r, body)
        elif table not in TABLES:
            known = ", ".join([*TABLES, "state", "forces"])
            r.add(line, None, f"[{table}]: unknown table (the tables: {known})",
                  f"«[{table}]»: нет такой таблицы (таблицы: {quoted(known)})")  # fmt: skip
        elif not isinstance(body, dict):
            r.add(r.locate("", table), None, f"{table}: expected a table [{table}]",
                  f"{table}: ожидалась таблица [{table}]")  # fmt: skip
        else:
            out[table] = {}
            for key, value in body.items():
                types = TABLES[table].get(key)
                at = r.locate(table, key)
                if types is None:
                    known = ", ".join(TABLES[table])
                    r.add(at, None, f"{table}.{key}: unknown key ({known})",
                          f"«{table}.{key}»: нет такого ключа ({quoted(known)})")  # fmt: skip
                elif not _kind(value, types):
                    en, ru = _expected(types, value)
                    r.add(at, None, f"{table}.{key}: {en}", f"{table}.{key}: {ru}")
                elif isinstance(value, list) and not all(isinstance(x, str) for x in value):
                    r.add(at, None, f"{table}.{key}: expected a list of texts",
                          f"{table}.{key}: ожидался список текстов")  # fmt: skip
                else:
                    out[table][key] = value
    return out


def _expected(types: tuple[type, ...], value: Any) -> tuple[str, str]:
    en, ru = _TYPE_NAMES[types[-1]]
    given = value if isinstance(value, str) else repr(value)
    return f"expected {en}, got {value!r}"[:300], f"ожидалось: {ru}, а дано «{given}»"[:300]


def _states(r: Reader, body: Any) -> list[dict[str, Any]]:
    if not isinstance(body, list) or not all(isinstance(s, dict) for s in body):
        r.add(r.table_line("state"), None, "state: expected [[state]] blocks (code, name, side)",
              "state: ожидались блоки [[state]] («code», «name», «side»)")  # fmt: skip
        return []
    good = []
    for s in body:
        bad = [k for k in s if k not in STATE_KEYS or not isinstance(s[k], str)]
        for k in bad:
            en, ru = (
                ("unknown key", "нет такого ключа")
                if k not in STATE_KEYS
                else _expected((str,), s[k])
            )
            r.add(r.locate("state", k), None, f"state.{k}: {en}", f"«state.{k}»: {ru}")
        if not bad:
            good.append(s)
    return good


def _forces_shape(r: Reader, body: Any) -> dict[str, dict[str, str]]:
    if not isinstance(body, dict):
        r.add(r.locate("", "forces"), None, "forces: expected tables [forces.<state code>]",
              "forces: ожидались таблицы [forces.<код государства>]")  # fmt: skip
        return {}
    good: dict[str, dict[str, str]] = {}
    for code, f in body.items():
        table = f"forces.{code}"
        if not isinstance(f, dict):
            line = r.locate("forces", code)
            ru = f"«{table}»: ожидалась таблица [forces.<код государства>], а дано «{f!r}»"
            r.add(line, None, f"{table}: expected a table [forces.<state code>], got {f!r}"[:300],
                  ru[:300])  # fmt: skip
            continue
        good[code] = {}
        for key, value in f.items():
            at = r.locate(table, key)
            if key not in FORCES_KEYS:
                known = ", ".join(FORCES_KEYS)
                r.add(at, None, f"{table}.{key}: unknown key ({known})",
                      f"«{table}.{key}»: нет такого ключа ({quoted(known)})")  # fmt: skip
            elif not isinstance(value, str):
                en, ru = _expected((str,), value)
                r.add(at, None, f"{table}.{key}: {en}", f"{table}.{key}: {ru}")
            else:
                good[code][key] = value
    return good


def settings(r: Reader, meta: dict[str, Any], raw: dict[str, Any]) -> Settings:
    """The settings, each checked: a problem (with its line) for one out of range."""
    d = Settings()

    def bad(key: str, message: str, ru: str) -> None:
        r.add(
            r.locate("settings", key), None, f"settings.{key}: {message}", f"settings.{key}: {ru}"
        )

    level = raw.get("level", meta.get("level", d.level))
    if level not in (1, 2, 3) or isinstance(level, bool):
        bad("level", f"{level!r}, expected 1, 2 or 3", f"«{level!r}», а нужен 1, 2 или 3")
        level = d.level
    ruleset = raw.get("ruleset", d.ruleset)
    if ruleset not in ruleset_names():
        names = ", ".join(ruleset_names())
        bad(
            "ruleset",
            f"{ruleset!r}: expected one of {names}",
            f"«{ruleset!r}»: нужно одно из: {quoted(names)}",
        )
        ruleset = d.ruleset
    seed = raw.get("seed", d.seed)
    if not 0 <= seed < MAX_SEED:
        bad("seed", f"{seed}: expected a whole number from 0 to 2^63 - 1",
            f"«{seed}»: нужно целое число от 0 до 2^63 - 1")  # fmt: skip
        seed = d.seed
    clock = raw.get("clock_minutes", d.clock_minutes)
    if not (math.isfinite(clock) and 0 <= clock <= 24 * 60):
        bad("clock_minutes", f"{clock!r}: expected minutes a move, from 0 (no clock) to 1440",
            f"«{clock!r}»: нужны минуты на ход, от 0 (без часов) до 1440")  # fmt: skip
        clock = d.clock_minutes
    questions = raw.get("recon_questions", d.recon_questions)
    if questions is not None and not (math.isfinite(questions) and 0 <= questions <= 1000):
        bad("recon_questions", f"{questions!r}: expected questions per 10 turns, 0 to 1000",
            f"«{questions!r}»: нужно число вопросов на 10 ходов, от 0 до 1000")  # fmt: skip
        questions = d.recon_questions
    return Settings(
        level=int(level),
        ruleset=str(ruleset),
        seed=int(seed),
        clock_minutes=float(clock),
        recon_questions=questions,
        mediator=bool(raw.get("mediator", d.mediator)),
    )


def check_size(r: Reader, text: str) -> bool:
    """Whether the file is small enough to read (a problem if not)."""
    if len(text) > MAX_TEXT:
        r.add(None, None, f"{len(text)} characters: a scenario file is at most {MAX_TEXT}",
              f"знаков: {len(text)}; в файле сценария их не больше {MAX_TEXT}")  # fmt: skip
        return False
    return True
