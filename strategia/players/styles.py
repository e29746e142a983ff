"""The computer player's styles as data (`styles.toml`): `cautious`, `balanced`, `bold`.

Each style is the thresholds the player decides by: the engine's what-if ratio a blow needs in
the main effort and where the front is held, the ratio at which a division withdraws, the
estimated balance that makes a sector the main effort, the reserve share, the risk a blow may
run, how densely unknown ground is taken to be held, how much of the reconnaissance budget one
move may spend, how long an enemy seen is remembered, whether it orders pursuits, and how it
keeps its plan and searches (`keep_margin`, `concentrate`, `search_plans`, `samples`,
`replan_value`: `greedy` is the one-move player, with neither).

A styles file is merged over the defaults as house rules are (0.3): a table per style changing
any of its values, or a new style with `base = "balanced"` and its changes. Every problem (an
unknown key, a wrong type, a value out of range) is reported at once with the file and the key.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, fields
from functools import cache
from pathlib import Path
from typing import Any

from strategia.core.errors import Problem, RuleDataError, unreadable
from strategia.core.i18n import Text

DEFAULTS = Path(__file__).with_name("styles.toml")
STYLES = ("cautious", "balanced", "bold", "greedy")

# key: (type, least, most)
LIMITS: dict[str, tuple[type, float, float]] = {
    "attack_ratio": (float, 0.5, 10.0),
    "hold_attack_ratio": (float, 0.5, 10.0),
    "withdraw_ratio": (float, 0.5, 10.0),
    "main_effort_balance": (float, 0.1, 10.0),
    "reserve_share": (float, 0.0, 0.9),
    "risk": (float, 0.0, 1.0),
    "unknown_density": (float, 0.0, 5.0),
    "questions_share": (float, 0.0, 1.0),
    "memory_turns": (int, 0, 30),
    "pursue": (bool, 0, 1),
    "keep_margin": (float, 0.0, 5.0),
    "concentrate": (bool, 0, 1),
    "search_plans": (int, 0, 8),
    "samples": (int, 1, 8),
    "replan_value": (float, 0.0, 100.0),
}


@dataclass(frozen=True)
class Style:
    """One style's thresholds (see the module and `styles.toml`)."""

    key: str
    name: Text
    attack_ratio: float
    hold_attack_ratio: float
    withdraw_ratio: float
    main_effort_balance: float
    reserve_share: float
    risk: float
    unknown_density: float
    questions_share: float
    memory_turns: int
    pursue: bool
    keep_margin: float  # the share another sector must beat the kept main effort by (0: none kept)
    concentrate: bool  # a side that fights always names a main effort and gathers on it
    search_plans: int  # candidate plans played out by the engine (0: none, the one-move player)
    samples: int  # enemy dispositions each candidate is played against
    replan_value: float  # divisions of rating another plan must beat the kept one by


_FIELDS = tuple(f.name for f in fields(Style) if f.name not in ("key", "name"))


def load_styles(text: str | None = None, source: str = "styles") -> dict[str, Style]:
    """The default styles, with the styles file `text` merged over them if given; a
    RuleDataError listing every problem of `text`."""
    base = _defaults()
    if text is None:
        return {k: _style(k, v) for k, v in base.items()}
    problems: list[Problem] = []
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise RuleDataError(source, [Problem(source, f"not TOML: {e}")]) from None
    merged = {k: dict(v) for k, v in base.items()}
    for key, table in data.items():
        where = f"{source}: [{key}]"
        if not isinstance(table, dict):
            problems.append(Problem(where, "expected a table of a style's values"))
            continue
        table = dict(table)
        parent = table.pop("base", None)
        if key not in merged:
            if not isinstance(parent, str) or parent not in merged:
                known = ", ".join(merged)
                problems.append(
                    Problem(where, f"a new style needs base = one of {known}", _line(text, key))
                )
                continue
            merged[key] = dict(merged[parent])
        elif parent is not None:
            problems.append(Problem(f"{where} base", "only a new style takes a base"))
        for name, value in table.items():
            problem = _check(name, value)
            if problem:
                problems.append(Problem(f"{where} {name}", problem, _line(text, name)))
            else:
                merged[key][name] = value
    if problems:
        raise RuleDataError(source, problems)
    return {k: _style(k, v) for k, v in merged.items()}


def read_styles(path: str | Path | None) -> dict[str, Style]:
    """The styles with the file at `path` merged over the defaults (None: the defaults)."""
    if path is None:
        return load_styles()
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:  # a binary file too: said in the reader's words
        en, ru = unreadable(e)
        raise RuleDataError(str(p), [Problem(str(p), en, ru=ru)]) from None
    return load_styles(text, str(p))


def style(key: str, styles: dict[str, Style] | None = None) -> Style:
    """The style named `key` (a RuleDataError naming the styles there are otherwise)."""
    styles = styles if styles is not None else load_styles()
    if key not in styles:
        known = ", ".join(styles)
        raise RuleDataError("styles", [Problem(f"style {key!r}", f"expected one of {known}")])
    return styles[key]


@cache
def _defaults() -> dict[str, dict[str, Any]]:
    return tomllib.loads(DEFAULTS.read_text(encoding="utf-8"))


def _check(name: str, value: Any) -> str | None:
    """What is wrong with `value` for the style key `name` (None: nothing)."""
    if name == "name":
        ok = isinstance(value, dict) and all(isinstance(value.get(k), str) for k in ("ru", "en"))
        return None if ok else 'expected { ru = "...", en = "..." }'
    if name not in LIMITS:
        return f"unknown key; a style has {', '.join(('name', *_FIELDS))}"
    kind, lo, hi = LIMITS[name]
    if kind is bool:
        return None if isinstance(value, bool) else "expected true or false"
    if isinstance(value, bool) or not isinstance(value, int | float):
        return f"expected a number from {lo:g} to {hi:g}"
    if kind is int and not isinstance(value, int):
        return f"expected a whole number from {lo:g} to {hi:g}"
    if not lo <= value <= hi:
        return f"{value!r} out of range: expected {lo:g} to {hi:g}"
    return None


def _line(text: str, key: str) -> int | None:
    """The first line of `text` that sets or opens `key`."""
    for n, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if s.startswith((f"{key} ", f"{key}=", f"[{key}]")):
            return n
    return None


def _style(key: str, d: dict[str, Any]) -> Style:
    name = d.get("name", {"en": key, "ru": key})
    values: dict[str, Any] = {f: (float(d[f]) if LIMITS[f][0] is float else d[f]) for f in _FIELDS}
    return Style(key, Text(str(name["en"]), str(name["ru"])), **values)


__all__ = ["STYLES", "Style", "load_styles", "read_styles", "style"]
