"""Value types of rule data cells and their validation (shared by rulesets and house rules)."""

from __future__ import annotations

import math
import re
from typing import Any

from strategia.core.i18n import LANGS, Lang, Text
from strategia.core.vocab import Kind
from strategia.rules.kinds import Role

SPECIAL_SPEEDS = ("trails", "impassable")
MAX_NUMBER = 1e9  # no rule value is larger; beyond it arithmetic stops being exact
TYPES = ("number", "int", "speed", "turns", "text", "bool", "pattern", "regiments")
PATTERN_GROUPS = ("line", "first", "second", "arm")
_ROLE_TOKEN = re.compile(r"^([DS-])(\*?)$")


def _is_number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def parse_pattern(text: str) -> dict[str, tuple[tuple[Role, bool], ...]]:
    """A formation pattern ("line=D S* arm=D") as {group: ((role, repeats), ...)}.

    In a group, tokens are roles for the regiments nearest the blow first; the one token marked
    `*` stands for every regiment not covered by the others. Raises ValueError if malformed.
    """
    raw: dict[str, list[str]] = {}
    current: list[str] | None = None
    for word in text.split():
        if "=" in word:
            name, _, first = word.partition("=")
            if name not in PATTERN_GROUPS:
                raise ValueError(f"unknown group {name!r} (groups: {', '.join(PATTERN_GROUPS)})")
            if name in raw:
                raise ValueError(f"group {name!r} given twice")
            current = raw[name] = [first] if first else []
        elif current is None:
            raise ValueError(f"{word!r} before any group: expected e.g. 'line=D* arm=S'")
        else:
            current.append(word)
    groups: dict[str, tuple[tuple[Role, bool], ...]] = {}
    for name, spec in raw.items():
        if not spec:
            raise ValueError(f"group {name!r} has no roles")
        tokens: list[tuple[Role, bool]] = []
        for tok in spec:
            m = _ROLE_TOKEN.match(tok)
            if not m:
                raise ValueError(f"bad role {tok!r} in group {name!r}: expected D, S or -, with *")
            tokens.append((Role.from_key(m.group(1)), bool(m.group(2))))
        if sum(rep for _, rep in tokens) > 1:
            raise ValueError(f"group {name!r}: at most one role may carry *")
        groups[name] = tuple(tokens)
    if not groups:
        raise ValueError(f"no groups in pattern {text!r}: expected e.g. 'line=D* arm=S'")
    return groups


_GROUP_NAMES = {
    "line": Text("line regiments", "линейные полки"),
    "first": Text("front regiments", "передние полки"),
    "second": Text("the regiment behind", "задний полк"),
    "arm": Text("artillery", "артиллерия"),
}
_ROLE_WORDS = {  # a role said of one regiment, and of several
    Role.DIRECT: (Text("direct", "непосредственно"), Text("direct", "непосредственно")),
    Role.SUPPORT: (Text("support", "поддержкой"), Text("support", "поддержкой")),
    Role.NONE: (Text("takes no part", "не участвует"), Text("take no part", "не участвуют")),
}
_NEAREST = (Text("the nearest", "ближний"), Text("the second nearest", "второй от удара"))
_FARTHEST = (Text("the farthest", "дальний"), Text("the second farthest", "второй от конца"))
_OTHERS = Text("the others", "остальные")


def pattern_text(text: str) -> Text:
    """A formation pattern in words: "line=D S* arm=D" is «линейные полки: ближний —
    непосредственно, остальные — поддержкой; артиллерия — непосредственно»."""
    out: dict[Lang, list[str]] = {lang: [] for lang in LANGS}
    for group, tokens in parse_pattern(text).items():
        star = next((i for i, (_, rep) in enumerate(tokens) if rep), len(tokens) - 1)
        before, after = tokens[:star], tokens[star + 1 :]
        several = group in ("line", "first")
        for lang in LANGS:
            name = _GROUP_NAMES[group](lang)
            rest = _ROLE_WORDS[tokens[star][0]][1 if several or before or after else 0](lang)
            if not before and not after:
                out[lang].append(f"{name} — {rest}")
                continue
            parts = [
                f"{_NEAREST[i](lang)} — {_ROLE_WORDS[r][0](lang)}"
                for i, (r, _) in enumerate(before)
            ]
            parts.append(f"{_OTHERS(lang)} — {rest}")
            parts += [
                f"{_FARTHEST[len(after) - 1 - i](lang)} — {_ROLE_WORDS[r][0](lang)}"
                for i, (r, _) in enumerate(after)
            ]
            out[lang].append(f"{name}: {', '.join(parts)}")
    return Text("; ".join(out["en"]), "; ".join(out["ru"]))


def check_value(
    type_: str,
    value: Any,
    lo: float | None = None,
    hi: float | None = None,
    vocab: type[Kind] | None = None,
) -> str | None:
    """What is wrong with `value` as a cell of `type_` (None if nothing)."""
    if type_ in ("number", "int", "speed", "turns"):
        if isinstance(value, str):
            allowed = SPECIAL_SPEEDS if type_ == "speed" else ("impassable",)
            if type_ in ("speed", "turns") and value in allowed:
                return None
            words = f" or one of {', '.join(allowed)}" if type_ in ("speed", "turns") else ""
            return f"expected a number{words}, got {value!r}"
        if type_ == "int" and not (isinstance(value, int) and not isinstance(value, bool)):
            return f"expected a whole number, got {value!r}"
        if not _is_number(value):
            return f"expected a number, got {value!r}"
        if not math.isfinite(value) or abs(value) > MAX_NUMBER:
            return (
                f"{value!r} is not a number the rules can use (at most {MAX_NUMBER:g} either way)"
            )
        if lo is not None and value < lo:
            return f"{value!r} is below the smallest allowed value {lo}"
        if hi is not None and value > hi:
            return f"{value!r} is above the largest allowed value {hi}"
        return None
    if type_ == "text":
        return None if isinstance(value, str) else f"expected text, got {value!r}"
    if type_ == "bool":
        return None if isinstance(value, bool) else f"expected true or false, got {value!r}"
    if type_ == "pattern":
        if not isinstance(value, str):
            return f"expected a pattern such as 'line=D* arm=S', got {value!r}"
        try:
            parse_pattern(value)
        except ValueError as e:
            return str(e)
        return None
    if type_ == "regiments":
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            return f"expected a list of regiment types, got {value!r}"
        if vocab is not None:
            keys = {m.key for m in vocab}
            bad = [v for v in value if v not in keys]
            if bad:
                return f"unknown regiment type(s) {', '.join(map(repr, bad))}"
        return None
    return f"unknown value type {type_!r} (types: {', '.join(TYPES)})"
