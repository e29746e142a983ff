"""One grammar for the journal's orders: each form is declared once and read and written from it.

A form names its value class, its rule id and a template per language:

    Form(Move, "4.1", ru="{unit} по дороге на {to:cell} [через {via:cells}]",
         en="{unit} by road to {to:cell} [via {via:cells}]", fixed={"mode": "road"})

A template is words, slots and optional groups. Words match in any case; `в|во` accepts either
(the first is written). `{field:type}` reads a value of a slot type (`SLOTS`) into the field;
`{a+b:type}` puts the first of a list into `a` and the rest into `b`; a type naming another
declared class (`{defence:Defence}`) reads that class's forms. `[...]` is optional and is written
only when its fields hold something. Slots that are free text (units, directions) end where the
next word of the form begins.

Reading tries every form and keeps what matches the whole line: one match is the value; none,
and the error is the one of the form that read furthest once its own words were found (a form
whose words are nowhere is not reported); two are ambiguous. Errors are the notation's three
(`InvalidNotationError`, `IllegalNotationError`, `AmbiguousNotationError`), naming the input,
the column and what was expected.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from strategia.core.cursor import Cursor
from strategia.core.errors import (
    AmbiguousNotationError,
    IllegalNotationError,
    InvalidNotationError,
    NotationError,
)
from strategia.core.i18n import LANGS, Lang, Text
from strategia.notation.refs import NotationContext
from strategia.notation.slots import SLOTS, Fail, FlagSlot, SlotType, moved, rest_of
from strategia.notation.template import Group, Item, Phrase, Slot, compile_template, phrase

Check = Callable[[Any], "tuple[str, type[NotationError], str, str | None] | None"]


@dataclass(frozen=True)
class Form:
    """One way of writing a value of `cls`: its rule, its templates, the fields it implies.

    `check` looks at the value read and returns (field, error class, problem, expected) for an
    order that reads well but cannot be meant (a merge of one division), or None.
    """

    cls: type
    rule: str
    ru: str
    en: str
    also: tuple[str, ...] = ()  # more spellings read, never written
    fixed: Mapping[str, Any] = field(default_factory=dict)
    check: Check | None = None
    title: Text = field(default_factory=lambda: Text(""))  # for menus: "по дороге"

    def templates(self) -> Iterator[tuple[Lang | None, tuple[Item, ...]]]:
        yield "ru", compile_template(self.ru)
        yield "en", compile_template(self.en)
        for t in self.also:
            yield None, compile_template(t)

    def slot_types(self) -> tuple[str, ...]:
        """The types of the slots a written order of this form always has."""
        items = compile_template(self.ru)
        return tuple(
            i.type for i in items if isinstance(i, Slot) and not i.type.startswith("flag=")
        )

    def sketch(self, lang: Lang, by_type: Mapping[str, str]) -> str:
        """The form's required parts in `lang`, each slot written as `by_type` gives for its type
        (`?` where it gives nothing): the text a menu of orders starts from."""
        out = ""
        for item in compile_template(self.ru if lang == "ru" else self.en):
            if isinstance(item, Phrase):
                word = item.write()
                out += word if word[0] in ":;," else f" {word}"
            elif isinstance(item, Slot) and not item.type.startswith("flag="):
                out += f" {by_type.get(item.type, '?')}"
        return out.strip()

    def slots(self) -> tuple[tuple[str, str, bool], ...]:
        """Every slot of the form: (its fields joined by '+', its type, whether optional)."""

        def walk(items: Iterable[Item], optional: bool) -> Iterator[tuple[str, str, bool]]:
            for i in items:
                if isinstance(i, Slot):
                    yield "+".join(i.fields), i.type, optional
                elif isinstance(i, Group):
                    yield from walk(i.items, True)

        return tuple(walk(compile_template(self.ru), False))

    def write(self, lang: Lang, by_field: Mapping[str, str]) -> str:
        """The form in `lang` with each slot written as `by_field` gives for its fields (`?` for a
        required one it leaves out; an optional group only where a field of it is given; a flag
        where its value is non-empty): the text an order form builds."""

        def given(items: Iterable[Item]) -> bool:
            return any(
                (isinstance(i, Slot) and by_field.get("+".join(i.fields), "").strip())
                or (isinstance(i, Group) and given(i.items))
                for i in items
            )

        def walk(items: Iterable[Item]) -> str:
            out = ""
            for item in items:
                if isinstance(item, Phrase):
                    word = item.write()
                    out += word if word[0] in ":;," else f" {word}"
                elif isinstance(item, Slot):
                    value = by_field.get("+".join(item.fields), "").strip()
                    if item.type.startswith("flag="):
                        out += f" {phrase(item.type[5:]).write()}" if value else ""
                    else:
                        out += f" {value or '?'}"
                elif given(item.items):
                    out += walk(item.items)
            return out

        return walk(compile_template(self.ru if lang == "ru" else self.en)).strip()

    def verbs(self, lang: Lang) -> str:
        """The form's own words as written, for the list of what an order may be."""
        items = compile_template(self.ru if lang == "ru" else self.en)
        return next((str(i) for i in items if isinstance(i, Phrase)), "")


_Compiled = tuple[Form, Lang | None, tuple[Item, ...], tuple[int, ...]]  # a form's template
_Candidates = tuple[list[_Compiled], list[_Compiled]]  # a class's forms, those a line may be
_NUMBERS = re.compile(r"\d+")


class Grammar:
    """The declared forms of a family of values (the orders), read and written."""

    def __init__(self, forms: Sequence[Form], what: str = "order") -> None:
        self.forms = tuple(forms)
        self.what = what
        compiled = [(f, lang, t) for f in self.forms for lang, t in f.templates()]
        self._patterns = list(
            dict.fromkeys(i.pattern for *_, t in compiled for i in t if isinstance(i, Phrase))
        )
        at = {p: k for k, p in enumerate(self._patterns)}
        # each form with the words it cannot match without (its phrases outside brackets)
        self._compiled = [
            (f, lang, t, tuple(at[i.pattern] for i in t if isinstance(i, Phrase)))
            for f, lang, t in compiled
        ]
        for f in self.forms:
            f.verbs("ru")  # every template compiles
        if any(ch.isdigit() for p in self._patterns for ch in p.pattern):
            raise ValueError("a form's words hold a digit: `_candidates` reads lines without")
        # the forms to try for a line, by the line with its numbers written 0 (`_candidates`)
        self._by_outline: dict[tuple[str, type | None], _Candidates] = {}

    # -- reading --

    def parse(
        self, text: str, context: NotationContext | None = None, cls: type | None = None
    ) -> Any:
        """The one value `text` writes (of a subclass of `cls` if given); the notation's errors
        else."""
        cur = Cursor(text)  # refuses an over-long line before any form is tried
        forms, likely = self._candidates(text, cls)
        # the forms whose own words are all in the line first: only they can match; every
        # form is tried (for the error that says most) only if none of them does
        found, fails = self._try(likely, text, context)
        if not found:
            found, fails = self._try(forms, text, context)
        if len(found) > 1:
            listed = " | ".join(self.format(v) for v in found)
            raise AmbiguousNotationError(text, f"could be {listed}", 1, "one of them, written out")
        if found:
            return found[0]
        if cur.at_end():
            raise InvalidNotationError(text, f"no {self.what}", 1, self.expected(cls))
        raise _best(fails, text, self.expected(cls))

    def _candidates(self, text: str, cls: type | None) -> _Candidates:
        """The forms of `cls`, and those of them whose own words are all in `text`. Which
        words a line holds does not depend on its numbers (no form's words have a digit, and
        a digit is a word character either way), so the answer is kept for the line's
        outline, its numbers written 0: the orders of a turn share a handful."""
        key = (_NUMBERS.sub("0", text), cls)
        hit = self._by_outline.get(key)
        if hit is None:
            if len(self._by_outline) >= 4096:
                self._by_outline.clear()
            present = [p.search(text) is not None for p in self._patterns]
            forms = [c for c in self._compiled if cls is None or issubclass(c[0].cls, cls)]
            likely = [c for c in forms if all(present[k] for k in c[3])]
            hit = self._by_outline[key] = (forms, likely)
        return hit

    def _try(
        self, forms: list[_Compiled],
        text: str, context: NotationContext | None,
    ) -> tuple[list[Any], list[Fail]]:  # fmt: skip
        """The values `forms` read in `text` (each once), and their failures."""
        found: list[Any] = []
        fails: list[Fail] = []
        for form, _, items, _ in forms:
            try:
                value = _Match(self, form, items, text, context).run()
            except Fail as f:
                fails.append(f)
                continue
            if value not in found:
                found.append(value)
        return found, fails

    def expected(self, cls: type | None = None) -> str:
        forms = [f for f in self.forms if cls is None or issubclass(f.cls, cls)]
        ru = dict.fromkeys(f.verbs("ru") for f in forms if f.verbs("ru"))
        en = dict.fromkeys(f.verbs("en") for f in forms if f.verbs("en"))
        return ", ".join(f"{r}/{e}" for r, e in zip(ru, en, strict=False))

    # -- writing --

    def form_of(self, value: Any) -> Form:
        """The form that writes `value`: of its class, the one whose fixed fields it has (the
        most specific if several)."""
        fits = [
            f
            for f in self.forms
            if type(value) is f.cls and all(getattr(value, k) == v for k, v in f.fixed.items())
        ]
        if not fits:
            raise ValueError(f"no form declared for {type(value).__name__}")
        return max(fits, key=lambda f: len(f.fixed))

    def format(self, value: Any, lang: Lang = "ru") -> str:
        """`value` in the journal's notation: the first template of its form in `lang`."""
        form = self.form_of(value)
        items = compile_template(form.ru if lang == "ru" else form.en)
        return _write(self, items, value, lang).strip()

    def forms_table(self, lang: Lang = "ru") -> list[tuple[str, str, str]]:
        """(rule, the form in `lang`, the form in the other language): the grammar's reference."""
        other: Lang = "en" if lang == "ru" else "ru"
        return [(f.rule, getattr(f, lang), getattr(f, other)) for f in self.forms if lang in LANGS]


def _best(fails: list[Fail], text: str, expected: str) -> NotationError:
    committed = [f for f in fails if f.committed]
    if not committed:
        return InvalidNotationError(text, "no order word", None, expected)
    far = max(f.error.column or 0 for f in committed)
    best = sorted((f for f in committed if (f.error.column or 0) == far), key=lambda f: f.at)
    wanted = sorted({f.wanted for f in best if f.wanted})
    if len(best) > 1 and len(wanted) == len(best) and len(wanted) > 1:
        e = best[0].error
        ref = e.problem.split(" is not a ")[0]
        what = " or ".join(sorted({w for ws in wanted for w in ws.split(" or ")}))
        return IllegalNotationError(text, f"{ref} is not a {what}", e.column, f"a {what}")
    return best[0].error


def _slot_type(grammar: Grammar, name: str) -> SlotType:
    if name in SLOTS:
        return SLOTS[name]
    if name.startswith("flag="):
        return FlagSlot(phrase(name[5:]))
    for form in grammar.forms:
        if form.cls.__name__ == name:
            return _SubSlot(grammar, form.cls)
    raise ValueError(f"unknown slot type {name!r}")


class _SubSlot(SlotType):
    """A value of another declared class, read with its own forms."""

    def __init__(self, grammar: Grammar, cls: type) -> None:
        self.grammar = grammar
        self.cls = cls

    def read(self, cur: Cursor, end: int, ctx: NotationContext | None) -> Any:
        text, at = rest_of(cur, end)
        try:
            return self.grammar.parse(text, ctx, self.cls)
        except NotationError as e:
            raise moved(e, cur.text, at) from None

    def write(self, value: Any, lang: Lang) -> str:
        return self.grammar.format(value, lang)


def _empty(grammar: Grammar, items: Iterable[Item], value: Any) -> bool:
    for item in items:
        if isinstance(item, Slot):
            v = getattr(value, item.fields[0])
            if v not in (None, (), False, ""):
                return False
        elif isinstance(item, Group) and not _empty(grammar, item.items, value):
            return False
    return True


def _write(grammar: Grammar, items: Iterable[Item], value: Any, lang: Lang) -> str:
    out = ""
    for item in items:
        if isinstance(item, Phrase):
            word = item.write()
            out += word if word[0] in ":;," else f" {word}"
        elif isinstance(item, Slot):
            slot = _slot_type(grammar, item.type)
            text = slot.write(slot.gather(item.fields, value), lang)
            out += f" {text}" if text else ""
        elif not _empty(grammar, item.items, value):
            out += _write(grammar, item.items, value, lang)
    return out


class _Match:
    """One form's template matched against one line of notation."""

    def __init__(
        self,
        grammar: Grammar,
        form: Form,
        items: tuple[Item, ...],
        text: str,
        ctx: NotationContext | None,
    ) -> None:
        self.grammar = grammar
        self.form = form
        self.items = items
        self.cur = Cursor(text)
        self.ctx = ctx
        self.values: dict[str, Any] = {}
        self.where: dict[str, int] = {}
        self.verb = ""  # the form's first words as found: the form is then "committed"
        self.verb_at = 0

    def fail(self, err: NotationError) -> Fail:
        return Fail(err, bool(self.verb), at=self.verb_at)

    def run(self) -> Any:
        try:
            self.items_at(self.items, ())
            if not self.cur.at_end():
                raise self.cur.error(InvalidNotationError, "unexpected text", "the end")
            value = self.form.cls(**{**self.values, **self.form.fixed})
        except Fail as f:
            f.committed = f.committed or bool(self.verb)
            f.at = self.verb_at
            raise
        except NotationError as e:
            raise self.fail(e) from None
        if self.form.check is not None and (problem := self.form.check(value)):
            name, cls, text, expected = problem
            raise Fail(cls(self.cur.text, text, self.where.get(name, 0) + 1, expected), True)
        return value

    def items_at(self, items: Sequence[Item], after: tuple[Item, ...]) -> None:
        for i, item in enumerate(items):
            rest = (*items[i + 1 :], *after)
            if isinstance(item, Phrase):
                self.phrase(item)
            elif isinstance(item, Slot):
                self.slot(item, rest)
            else:
                self.group(item, rest)

    def phrase(self, phrase: Phrase) -> None:
        match = self.cur.take(phrase.pattern)
        if match is None:
            if self.cur.at_end() and self.verb:
                raise self.incomplete()
            raise self.fail(
                self.cur.error(InvalidNotationError, "unexpected text", f"'{phrase.write()}'")
            )
        if not self.verb:
            self.verb, self.verb_at = match[0], match.start()

    def incomplete(self) -> Fail:
        text = self.cur.text
        return Fail(
            InvalidNotationError(
                text, f"incomplete {self.grammar.what} {self.verb!r}", len(text), self.help()
            ),
            True,
        )

    def help(self) -> str:
        """The form in both languages, a `?` for each slot: «'свести ? в ?' / 'form ? from ?'»."""
        return f"'{self.form.write('ru', {})}' / '{self.form.write('en', {})}'"

    def group(self, group: Group, rest: tuple[Item, ...]) -> None:
        start = self.cur.pos
        first = group.items[0]
        if isinstance(first, Phrase):
            self.cur.skip()
            if first.pattern.match(self.cur.text, self.cur.pos) is None:
                self.cur.pos = start
                return
        self.items_at(group.items, rest)

    def slot(self, slot: Slot, rest: tuple[Item, ...]) -> None:
        kind = _slot_type(self.grammar, slot.type)
        self.cur.skip()
        at = self.cur.pos
        end = len(self.cur.text)
        if kind.free:
            end = self.stop(rest)
        value = kind.read(self.cur, end, self.ctx)
        for name in slot.fields:
            self.where[name] = at
        self.values.update(kind.fill(slot.fields, value))

    def stop(self, rest: tuple[Item, ...]) -> int:
        """Where a free slot ends: at the first of the words that may follow it."""
        text, pos = self.cur.text, self.cur.pos
        best = len(text)
        for words, required in _followers(rest):
            m = words.pattern.search(text, pos)
            if m is not None:
                best = min(best, m.start())
                if required and not self.verb:
                    self.verb, self.verb_at = m[0], m.start()
            elif required:
                if not self.verb:
                    err = self.cur.error(InvalidNotationError, "no order word", self.help())
                    raise Fail(err, False)
                raise self.incomplete()
            if required:
                break
        return best


def _followers(items: Sequence[Item]) -> Iterator[tuple[Phrase, bool]]:
    """The phrases that may come next: optional ones, up to and including the first required."""
    for item in items:
        if isinstance(item, Phrase):
            yield item, True
            return
        if isinstance(item, Group):
            first = item.items[0]
            if isinstance(first, Phrase):
                yield first, False
            continue
        if isinstance(item, Slot) and item.type.startswith("flag="):
            yield phrase(item.type[5:]), False
            continue
        return
