"""The effective rules of a game: entries (tables and parameter lists) of parameters.

Every parameter knows its rule id, level, unit, whether the seeds left it blank (and why it was
reconstructed) and whether a house rule changed it. `RuleSet.value` is the one way the engine
reads a rule: it refuses a rule above the game's level (0.2) and records the lookup in the
explanation being built.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from strategia.core.errors import InactiveRuleError, UnknownNameError
from strategia.core.i18n import Lang, Text
from strategia.core.vocab import Kind
from strategia.explain.render import fmt, rule_label
from strategia.explain.trace import Step, Value, attach, tracing
from strategia.rules.english import en
from strategia.rules.kinds import DivisionKind, Facing, RegimentKind, Side, Terrain
from strategia.rules.schema import pattern_text

VOCABS: dict[str, type[Kind]] = {
    "division": DivisionKind,
    "regiment": RegimentKind,
    "terrain": Terrain,
    "facing": Facing,
}
VALUE = "value"  # the one column of a parameter list


@dataclass(frozen=True, slots=True)
class Override:
    """A house rule's change to a parameter (rule 0.3)."""

    previous: Any
    source: str
    note: str = ""


@dataclass(frozen=True, slots=True)
class Param:
    """One cell of the rule data."""

    entry: str
    row: str
    column: str
    value: Any
    rule: str
    level: int
    type: str
    unit: str = ""
    label: Text | None = None
    reconstructed: str | None = None
    note: str | None = None
    overridden: Override | None = None
    minimum: float | None = None  # this cell's own range, narrower than its entry's
    maximum: float | None = None
    reconstructed_ru: str | None = None  # the reason in Russian
    note_ru: str | None = None

    def remark(self, lang: Lang = "en") -> str:
        """The cell's note in `lang` (English where no Russian is given)."""
        return (self.note_ru or self.note or "") if lang == "ru" else en(self.note or "")

    @property
    def why(self) -> Text | None:
        """Why the value is reconstructed, in both languages (None: the seeds give it)."""
        if not self.reconstructed:
            return None
        return Text(en(self.reconstructed), self.reconstructed_ru or self.reconstructed)

    @property
    def key(self) -> str:
        """The dotted path a house rule uses: entry.row.column (entry.param for lists)."""
        if self.column == VALUE:
            return f"{self.entry}.{self.row}"
        return f"{self.entry}.{self.row}.{self.column}"

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"value": self.value, "level": self.level}
        if self.unit:
            d["unit"] = self.unit
        if self.label is not None:
            d["label"] = self.label.to_json()
        if self.reconstructed:
            d["reconstructed"] = self.reconstructed
        if self.reconstructed_ru:
            d["reconstructed_ru"] = self.reconstructed_ru
        if self.note:
            d["note"] = self.note
        if self.note_ru:
            d["note_ru"] = self.note_ru
        if self.overridden is not None:
            d["overridden"] = {
                "previous": self.overridden.previous,
                "source": self.overridden.source,
                **({"note": self.overridden.note} if self.overridden.note else {}),
            }
        return d


@dataclass(frozen=True, slots=True)
class Entry:
    """A table (rows x columns) or a parameter list (rows x one `value` column) of one rule."""

    key: str
    rule: str
    level: int
    title: Text
    shape: str
    type: str
    columns: tuple[str, ...]
    rows: dict[str, dict[str, Param]]
    unit: str = ""
    note: str = ""
    source: str = ""
    rows_vocab: str = ""
    columns_vocab: str = ""
    row_labels: dict[str, Text] = field(default_factory=dict)
    column_labels: dict[str, Text] = field(default_factory=dict)
    minimum: float | None = None
    maximum: float | None = None
    note_ru: str = ""
    source_ru: str = ""

    def remark(self, lang: Lang = "en") -> str:
        """The entry's note in `lang`."""
        return (self.note_ru or self.note) if lang == "ru" else self.note

    def origin(self, lang: Lang = "en") -> str:
        """Where the entry's numbers come from, in `lang`."""
        return (self.source_ru or self.source) if lang == "ru" else self.source

    def row_label(self, row: str) -> Text:
        if row in self.row_labels:
            return self.row_labels[row]
        if self.shape == "params":
            p = self.rows[row][VALUE]
            if p.label is not None:
                return p.label
        return _vocab_label(self.rows_vocab, row)

    def column_label(self, column: str) -> Text:
        if column in self.column_labels:
            return self.column_labels[column]
        return _vocab_label(self.columns_vocab, column)

    def params(self) -> Iterator[Param]:
        for cells in self.rows.values():
            yield from cells.values()


def _vocab_label(vocab: str, key: str) -> Text:
    if vocab in VOCABS:
        for member in VOCABS[vocab]:
            if member.key == key:
                return member.text
    return Text(key)


@dataclass(frozen=True)
class RuleSet:
    """The rules in effect for a game: the entries, the level (0.2) and the house rules applied."""

    name: str
    title: Text
    entries: dict[str, Entry]
    level: int = 3
    sources: tuple[str, ...] = ()

    def at_level(self, level: int) -> RuleSet:
        """These rules for a game of `level` (1, 2 or 3)."""
        if level not in (1, 2, 3):
            raise ValueError(f"level {level!r}: expected 1, 2 or 3 (rule 0.2)")
        return replace(self, level=level)

    def entry(self, key: str) -> Entry:
        try:
            return self.entries[key]
        except KeyError:
            raise UnknownNameError("rule entry", key, self.entries) from None

    def param(self, entry: str, row: str, column: str = VALUE) -> Param:
        """The parameter at entry/row/column, whatever its level."""
        e = self.entry(entry)
        if row not in e.rows:
            raise UnknownNameError(f"row of {e.rule} ({entry})", row, e.rows)
        cells = e.rows[row]
        if column not in cells:
            raise UnknownNameError(f"column of {e.rule} ({entry})", column, cells)
        return cells[column]

    def active(self, entry: str, row: str | None = None, column: str | None = None) -> bool:
        """Whether the rule (or one row, or one cell) acts at this game's level."""
        if row is None:
            return self.entry(entry).level <= self.level
        if column is None:
            return min(p.level for p in self.entry(entry).rows[row].values()) <= self.level
        return self.param(entry, row, column).level <= self.level

    def value(self, entry: str, row: str, column: str = VALUE) -> Any:
        """The value of a rule parameter in effect; the lookup is recorded in the explanation."""
        p = self.param(entry, row, column)
        if p.level > self.level:
            raise InactiveRuleError(p.key, p.level, self.level)
        if tracing():
            steps = self.__dict__.setdefault("_lookup_steps", {})
            key = (entry, row, column)
            step = steps.get(key)
            if step is None:  # a lookup's step is built once: a ruleset does not change
                e = self.entries[entry]
                label = e.row_label(row)
                if column != VALUE:
                    col = e.column_label(column)
                    label = Text(en(f"{label.en}, {col.en}"), f"{label('ru')}, {col('ru')}")
                shown = told(p, self)
                step = Step(label, shown, p.unit, p.rule, annotation(p), "lookup")
                steps[key] = step
            attach(step)
        return p.value

    def get(self, entry: str, row: str, column: str = VALUE, default: Any = None) -> Any:
        """Like `value`, but `default` where the entry has no such row or column."""
        e = self.entry(entry)
        if row not in e.rows or column not in e.rows[row]:
            return default
        return self.value(entry, row, column)

    def params(self) -> Iterator[Param]:
        for e in self.entries.values():
            yield from e.params()

    def reconstructed(self) -> list[Param]:
        return [p for p in self.params() if p.reconstructed]

    def digest(self) -> str:
        """A fingerprint of the rules in effect: the name, the level and every value with its
        level (house rules included); equal rules, equal digests. A game's file keeps it."""
        cells = sorted((p.key, p.level, p.value) for p in self.params())
        text = json.dumps([self.name, self.level, cells], ensure_ascii=False, default=str)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]

    def overridden(self) -> list[Param]:
        return [p for p in self.params() if p.overridden is not None]


def annotation(p: Param) -> Text | None:
    """The remark a lookup carries: reconstructed and/or overridden by a house rule."""
    parts_en: list[str] = []
    parts_ru: list[str] = []
    if p.why is not None:
        parts_en.append(f"reconstructed: {p.why.en}")
        parts_ru.append(f"восстановлено: {p.why.ru}")
    if p.overridden is not None:
        was = p.overridden.previous
        parts_en.append(f"house rule {p.overridden.source}, was {fmt(was)}")
        parts_ru.append(f"изменено правилами игры ({p.overridden.source}), было {fmt(was, 'ru')}")
    if not parts_en:
        return None
    return Text("; ".join(parts_en), "; ".join(parts_ru))


# Words of the rule data that are values, as a reader is told them.
WORDS: dict[str, Text] = {
    "trails": Text("along trails only", "только по тропам"),
    "impassable": Text("impassable", "непроходимо"),
    "weighted": Text("weighted by each blow's strength", "по доле силы каждого удара"),
    "weakest": Text("the weakest side's rating", "рейтинг самой слабой стороны"),
    "strikes": Text("strikes", "удары артиллерии"),
    "moves": Text("moves", "движение"),
    "attacks": Text("attacks", "атаки"),
    "impossible": Text("impossible", "невозможно"),  # seed 003's «---» (formation changes)
    "formed": Text("formed", "построенные"),  # seed 003's states after an obstacle
    "disordered": Text("disordered", "расстроенные"),
    "scattered": Text("scattered", "рассыпанные"),
}


_CYRILLIC = re.compile("[А-Яа-яЁё]")


def told(p: Param, rules: RuleSet | None = None) -> Value:
    """A parameter's value as an explanation shows it: numbers and flags as they are; patterns,
    regiment lists, references to other tables and words of the data in words (a Text)."""
    v = p.value
    if isinstance(v, bool | int | float):
        return v
    if p.type == "pattern" and isinstance(v, str):
        return pattern_text(v)
    if isinstance(v, list):
        names = [_regiment(x) for x in v]
        return Text(", ".join(n.en for n in names), ", ".join(n.ru for n in names))
    if isinstance(v, str):
        said = _word(v, rules)
        if said.en == v and _CYRILLIC.search(v) and p.note:  # the seeds' own words (003
            return Text(p.note, v)  # turn sequence): in English, the note that says them
        return said
    return str(v)


def _regiment(key: object) -> Text:
    for k in RegimentKind:
        if k.key == key:
            return Text(k.en, k.ru)
    return Text(str(key))


def _word(v: str, rules: RuleSet | None) -> Text:
    if v in WORDS:
        return WORDS[v]
    for side in Side:
        if side.key == v:
            return side.text
    entry, _, column = v.partition(".")
    if rules is not None and column and entry in rules.entries:
        e = rules.entries[entry]
        col = e.column_label(column)
        return Text(
            en(f"{rule_label(e.rule)} ({e.title.en}), {col.en}"),
            f"{rule_label(e.rule, 'ru')} ({e.title.ru}), {col.ru}",
        )
    words = [WORDS.get(w) for w in v.split()]
    if len(words) > 1 and all(words):
        return Text(", ".join(w.en for w in words if w), ", ".join(w.ru for w in words if w))
    return Text(v)
