"""Reading rule data files and house-rules files (TOML), reporting every problem at once."""

from __future__ import annotations

import re
import tomllib
from dataclasses import replace
from pathlib import Path
from typing import Any

from strategia.core.errors import Problem, RuleDataError, os_error_ru, toml_error_ru, unreadable
from strategia.core.i18n import Text
from strategia.core.vocab import norm
from strategia.rules.english import en
from strategia.rules.kinds import RegimentKind
from strategia.rules.model import VALUE, VOCABS, Entry, Override, Param, RuleSet
from strategia.rules.problems_ru import in_russian
from strategia.rules.schema import TYPES, check_value

_ENTRY_KEYS = {
    "rule", "level", "title", "shape", "type", "unit", "note", "note_ru", "source", "source_ru",
    "columns", "rows",
    "params", "rows_vocab", "columns_vocab", "row_labels", "column_labels", "row_levels",
    "row_types", "row_units", "min", "max",
}  # fmt: skip
_CELL_KEYS = {
    "value", "reconstructed", "reconstructed_ru", "note", "note_ru", "level", "unit", "label",
    "rule", "min", "max",
}  # fmt: skip


def _words(value: object) -> Text:
    """A label of the data in both languages, its English naming units as English does (the
    data writes «с.д.» in both)."""
    t = Text.of(value)
    return Text(en(t.en), t.ru)


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as f:
            return tomllib.load(f)
    except tomllib.TOMLDecodeError as e:
        raise RuleDataError(str(path), in_russian([_toml_problem(e)])) from None
    except OSError as e:
        why = Problem("file", e.strerror or str(e), ru=os_error_ru(e), where_ru="файл")
        raise RuleDataError(str(path), [why]) from None


def _labels(raw: Any) -> dict[str, Text]:
    return {k: _words(v) for k, v in (raw or {}).items()}


def load_ruleset_file(path: Path) -> RuleSet:
    """The ruleset a rule data file describes; a RuleDataError lists all its problems."""
    data = _read_toml(path)
    problems: list[Problem] = []
    meta = data.pop("ruleset", {})
    entries: dict[str, Entry] = {}
    for key, raw in data.items():
        entry = _entry(key, raw, problems)
        if entry is not None:
            entries[key] = entry
    if problems:
        raise RuleDataError(str(path), in_russian(problems))
    return RuleSet(
        name=str(meta.get("name", path.stem)),
        title=Text.of(meta.get("title", path.stem)),
        entries=entries,
        sources=(str(path),),
    )


def _entry(key: str, raw: Any, problems: list[Problem]) -> Entry | None:
    if not isinstance(raw, dict):
        problems.append(Problem(key, "expected a table"))
        return None
    for k in raw.keys() - _ENTRY_KEYS:
        problems.append(Problem(f"{key}.{k}", "unknown key"))
    for k in ("rule", "level", "title", "shape"):
        if k not in raw:
            problems.append(Problem(key, f"missing {k!r}"))
    shape = raw.get("shape")
    type_ = raw.get("type", "number")
    if shape not in ("table", "params"):
        problems.append(Problem(f"{key}.shape", f"expected 'table' or 'params', got {shape!r}"))
        return None
    if type_ not in TYPES:
        problems.append(Problem(f"{key}.type", f"unknown type {type_!r}"))
        return None
    level = raw.get("level", 1)
    if level not in (1, 2, 3):
        problems.append(Problem(f"{key}.level", f"expected 1, 2 or 3, got {level!r}"))
        level = 3
    for v in ("rows_vocab", "columns_vocab"):
        if v in raw and raw[v] not in VOCABS:
            problems.append(Problem(f"{key}.{v}", f"unknown vocabulary {raw[v]!r}"))
    lo, hi = raw.get("min"), raw.get("max")
    rows: dict[str, dict[str, Param]] = {}
    if shape == "params":
        columns: tuple[str, ...] = (VALUE,)
        raw_rows = {name: {VALUE: cell} for name, cell in raw.get("params", {}).items()}
    else:
        columns = tuple(raw.get("columns", ()))
        raw_rows = raw.get("rows", {})
        if not columns:
            problems.append(Problem(key, "a table needs 'columns'"))
    row_levels = raw.get("row_levels", {})
    row_types = raw.get("row_types", {})
    for name in row_levels.keys() - raw_rows.keys():
        problems.append(Problem(f"{key}.row_levels.{name}", "no such row"))
    for row, cells in raw_rows.items():
        if not isinstance(cells, dict):
            problems.append(Problem(f"{key}.{row}", "expected a table of cells"))
            continue
        for col in cells.keys() - set(columns):
            problems.append(Problem(f"{key}.{row}.{col}", f"not one of the columns {columns}"))
        rows[row] = {}
        for col in columns:
            if col not in cells:
                if shape == "table":
                    problems.append(Problem(f"{key}.{row}.{col}", "missing cell"))
                continue
            cell = cells[col]
            meta = cell if isinstance(cell, dict) else {"value": cell}
            where = f"{key}.{row}" + ("" if col == VALUE else f".{col}")
            for k in meta.keys() - _CELL_KEYS:
                problems.append(Problem(f"{where}.{k}", "unknown cell key"))
            if "value" not in meta:
                problems.append(Problem(where, "missing value"))
                continue
            ctype = row_types.get(row, type_)
            vocab = RegimentKind if ctype == "regiments" else None
            c_lo, c_hi = meta.get("min", lo), meta.get("max", hi)
            bad = check_value(ctype, meta["value"], c_lo, c_hi, vocab)
            if bad:
                problems.append(Problem(where, bad))
            rows[row][col] = Param(
                entry=key,
                row=row,
                column=col,
                value=meta["value"],
                rule=str(meta.get("rule", raw.get("rule", ""))),
                level=max(level, row_levels.get(row, 1), meta.get("level", 1)),
                type=ctype,
                unit=str(meta.get("unit", raw.get("row_units", {}).get(row, raw.get("unit", "")))),
                label=_words(meta["label"]) if "label" in meta else None,
                reconstructed=meta.get("reconstructed"),
                reconstructed_ru=meta.get("reconstructed_ru"),
                note=en(meta["note"]) if meta.get("note") else meta.get("note"),
                note_ru=meta.get("note_ru"),
                minimum=c_lo,
                maximum=c_hi,
            )
    return Entry(
        key=key,
        rule=str(raw.get("rule", "")),
        level=level,
        title=_words(raw.get("title", key)),
        shape=shape,
        type=type_,
        columns=columns,
        rows=rows,
        unit=str(raw.get("unit", "")),
        note=en(str(raw.get("note", ""))),
        note_ru=str(raw.get("note_ru", "")),
        source=str(raw.get("source", "")),
        source_ru=str(raw.get("source_ru", "")),
        rows_vocab=str(raw.get("rows_vocab", "")),
        columns_vocab=str(raw.get("columns_vocab", "")),
        row_labels=_labels(raw.get("row_labels")),
        column_labels=_labels(raw.get("column_labels")),
        minimum=lo,
        maximum=hi,
    )


def _suggest(given: str, allowed: list[str]) -> str:
    import difflib

    close = difflib.get_close_matches(given, allowed, n=1, cutoff=0.5)
    by_norm = [a for a in allowed if norm(a) == norm(given)]
    hints = by_norm or close
    return f": did you mean {hints[0]!r}?" if hints else f" (expected one of: {', '.join(allowed)})"


_TABLE = re.compile(r"^\[\[?\s*([^\]]{1,200}?)\s*\]\]?")
_KEY = re.compile(r"^([A-Za-z0-9_\-.\"' ]{1,200}?)\s*=")
_INLINE = re.compile(r"[{,]\s*([A-Za-z0-9_\-]{1,100})\s*=")


def _dotted(key: str) -> str:
    return ".".join(part.strip().strip("\"'") for part in key.split("."))


def key_lines(text: str) -> dict[str, int]:
    """The line (1-based) where each dotted key of a TOML text is set or its table begins."""
    out: dict[str, int] = {}
    table = ""
    for n, raw in enumerate(text.split("\n"), 1):
        line = raw.strip()[:400]
        if line.startswith("["):
            if m := _TABLE.match(line):
                table = _dotted(m.group(1))
                parts = table.split(".")
                for i in range(1, len(parts) + 1):
                    out.setdefault(".".join(parts[:i]), n)
            continue
        if m := _KEY.match(line):
            key = _dotted(m.group(1))
            full = f"{table}.{key}" if table else key
            out.setdefault(full, n)
            for sub in _INLINE.findall(line[m.end() :]):
                out.setdefault(f"{full}.{sub}", n)
    return out


def with_lines(problems: list[Problem], text: str) -> list[Problem]:
    """The problems, each with the line of the longest part of its key the text sets."""
    lines = key_lines(text)
    out = []
    for p in problems:
        parts = p.where.split(".")
        found = next(
            (
                lines[k]
                for k in (".".join(parts[:i]) for i in range(len(parts), 0, -1))
                if k in lines
            ),
            None,
        )
        out.append(Problem(p.where, p.message, p.line or found, ru=p.ru))
    return out


def _toml_problem(e: tomllib.TOMLDecodeError) -> Problem:
    m = re.search(r"line (\d+)", str(e))
    return Problem("TOML", str(e), int(m.group(1)) if m else None, ru=toml_error_ru(str(e)))


def _reference_problem(rules: RuleSet, entry: Entry, p: Param, value: Any) -> str | None:
    """A text cell that names a column of another entry (`linear_ratings.front`) must name one
    of the entries its table names, and one of that entry's columns."""
    targets = {
        str(q.value).partition(".")[0]
        for q in entry.params()
        if isinstance(q.value, str) and str(q.value).partition(".")[0] in rules.entries
    }
    if p.type != "text" or str(p.value).partition(".")[0] not in targets:
        return None
    name, _, column = str(value).partition(".")
    if name not in targets or column not in rules.entries[name].columns:
        shown = ", ".join(f"{t}.<{'|'.join(rules.entries[t].columns)}>" for t in sorted(targets))
        return f"{value!r}: expected one of {shown}"
    return None


def apply_house_rules(rules: RuleSet, path: Path) -> RuleSet:
    """`rules` with the house rules of `path` applied (0.3); every problem is reported at once.

    The file mirrors the rule data: `[entry.row] column = value` for tables and
    `[entry] param = value` for parameter lists; a value may be `{ value = ..., note = "..." }`.
    An optional `[ruleset] name = ...` must name the ruleset being changed.
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        why, ru = unreadable(e)
        problem = Problem("file", why, ru=ru, where_ru="файл")
        raise RuleDataError(str(path), [problem]) from None
    return apply_house_text(rules, text, str(path))


def apply_house_text(rules: RuleSet, text: str, source: str) -> RuleSet:
    """`rules` with the house rules written in `text` (TOML) applied; `source` names it. A
    RuleDataError lists every problem with its line and key; nothing is applied then."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise RuleDataError(source, in_russian([_toml_problem(e)])) from None
    problems: list[Problem] = []
    new = _apply_house(rules, data, source, problems)
    if problems:
        raise RuleDataError(source, in_russian(with_lines(problems, text)))
    return new


def _apply_house(
    rules: RuleSet, data: dict[str, Any], src: str, problems: list[Problem]
) -> RuleSet:
    meta = data.pop("ruleset", {})
    if not isinstance(meta, dict):
        problems.append(
            Problem("ruleset", f"expected a table ([ruleset] name = ...), got {meta!r}")
        )
        meta = {}
    if "name" in meta and meta["name"] != rules.name:
        problems.append(Problem("ruleset.name", f"is {meta['name']!r}, these are {rules.name!r}"))
    changes: list[tuple[Param, Any, str]] = []
    for key, body in data.items():
        if key not in rules.entries:
            problems.append(Problem(key, "unknown rule entry" + _suggest(key, list(rules.entries))))
            continue
        entry = rules.entries[key]
        if not isinstance(body, dict):
            problems.append(Problem(key, "expected a table of values"))
            continue
        for row, cells in body.items():
            if row not in entry.rows:
                what = "parameter" if entry.shape == "params" else "row"
                problems.append(
                    Problem(
                        f"{key}.{row}",
                        f"unknown {what} of {entry.rule}" + _suggest(row, list(entry.rows)),
                    )
                )
                continue
            if entry.shape == "params":
                cells = {VALUE: cells}
            elif not isinstance(cells, dict):
                problems.append(Problem(f"{key}.{row}", "expected a table: column = value"))
                continue
            for col, given in cells.items():
                where = f"{key}.{row}" + ("" if col == VALUE else f".{col}")
                if col not in entry.rows[row]:
                    problems.append(
                        Problem(
                            where,
                            f"unknown column of {entry.rule}"
                            + _suggest(col, list(entry.rows[row])),
                        )
                    )
                    continue
                value, note = given, ""
                if isinstance(given, dict) and entry.rows[row][col].type != "regiments":
                    value, note = given.get("value"), str(given.get("note", ""))
                    extra = given.keys() - {"value", "note"}
                    if extra or "value" not in given:
                        problems.append(
                            Problem(where, "expected a value or {value = ..., note = ...}")
                        )
                        continue
                p = entry.rows[row][col]
                vocab = RegimentKind if p.type == "regiments" else None
                if (
                    isinstance(p.value, float)
                    and isinstance(value, int)
                    and not isinstance(value, bool)
                ):
                    value = float(value)
                bad = check_value(p.type, value, p.minimum, p.maximum, vocab)
                bad = bad or _reference_problem(rules, entry, p, value)
                if bad:
                    problems.append(Problem(where, bad))
                    continue
                changes.append((p, value, note))
    if problems:
        return rules
    entries = dict(rules.entries)
    for p, value, note in changes:
        e = entries[p.entry]
        rows = {r: dict(c) for r, c in e.rows.items()}
        rows[p.row][p.column] = replace(p, value=value, overridden=Override(p.value, src, note))
        entries[p.entry] = replace(e, rows=rows)
    return replace(rules, entries=entries, sources=(*rules.sources, src))
