"""Explanations as values: a tree of steps recorded while the engine computes.

A `Step` is a frozen node (label, value, unit, rule id, note, children). The engine records
steps through `explain(...)`, which opens a group in the current trace (or starts one); rule
lookups through `RuleSet` land in the current group automatically. The numbers in the tree are
the numbers the engine used: renderers (`strategia.explain.render`) only format them.
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from strategia.core.i18n import Text

Value = float | int | str | bool | Text | None  # a Text: a value told in words (a pattern, a key)
T = TypeVar("T")

_CURRENT: contextvars.ContextVar[_Node | _Heads | None] = contextvars.ContextVar(
    "strategia_trace", default=None
)


class _Heads:
    """The current group while only explanations' first steps are kept (`heads_only`)."""

    __slots__ = ()


_HEADS = _Heads()


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a computation: what was computed, its value, and the rule it comes from.

    `kind` is "step" (a computed quantity), "lookup" (a rule parameter read from the rule
    data), "note" (a remark without a value) or "cut" (a part of an order not carried out, 9.3).
    """

    label: Text
    value: Value = None
    unit: str = ""
    rule: str = ""
    note: Text | None = None
    kind: str = "step"
    children: tuple[Step, ...] = ()

    def walk(self) -> Iterator[Step]:
        """This step and every step below it, depth first."""
        yield self
        for c in self.children:
            yield from c.walk()

    def find(self, rule: str) -> list[Step]:
        """Every step citing `rule`."""
        return [s for s in self.walk() if s.rule == rule]

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"label": self.label.to_json(), "kind": self.kind}
        if isinstance(self.value, Text):
            d["value"] = self.value.to_json()
        elif self.value is not None:
            d["value"] = self.value
        if self.unit:
            d["unit"] = self.unit
        if self.rule:
            d["rule"] = self.rule
        if self.note is not None:
            d["note"] = self.note.to_json()
        if self.children:
            d["children"] = [c.to_json() for c in self.children]
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Step:
        return Step(
            label=Text.of(d["label"]),
            value=Text.of(d["value"]) if isinstance(d.get("value"), dict) else d.get("value"),
            unit=d.get("unit", ""),
            rule=d.get("rule", ""),
            note=Text.of(d["note"]) if "note" in d else None,
            kind=d.get("kind", "step"),
            children=tuple(cls.from_json(c) for c in d.get("children", ())),
        )

    def head(self) -> Step:
        """This step without the steps below it."""
        return Step(self.label, self.value, self.unit, self.rule, self.note, self.kind)


class Folded(Step):
    """A step whose own fields are known and whose steps below are worked out when first read
    (`unfold` gives the whole step): a journal keeps an explanation's first step, and the game
    works the rest out again only when it is shown. It equals the whole step."""

    __slots__ = ("_unfold", "_whole")
    _unfold: Callable[[], Step]
    _whole: Step | None

    def __init__(self, head: Step, unfold: Callable[[], Step]) -> None:
        for name in ("label", "value", "unit", "rule", "note", "kind"):
            object.__setattr__(self, name, getattr(head, name))
        object.__setattr__(self, "_unfold", unfold)
        object.__setattr__(self, "_whole", None)

    def whole(self) -> Step:
        """The step with every step below it (worked out once; a note if it cannot be)."""
        whole = self._whole
        if whole is None:
            whole = self._work_out()
            object.__setattr__(self, "_whole", whole)
        return whole

    def _work_out(self) -> Step:
        try:
            return self._unfold()
        except Exception as e:  # the game may not be read again now (damage): say so, in place
            why = str(e).split("\n")[0]
            note = Text(f"the steps could not be worked out again: {why}",
                        "шаги не удалось вычислить заново")  # fmt: skip
            return Step(self.label, self.value, self.unit, self.rule, self.note, self.kind,
                        (Step(note, kind="note"),))  # fmt: skip

    @property
    def children(self) -> tuple[Step, ...]:
        return self.whole().children

    def __eq__(self, other: object) -> bool:
        return self.whole() == (other.whole() if isinstance(other, Folded) else other)

    def __hash__(self) -> int:
        return hash(self.whole())

    def __repr__(self) -> str:
        return f"Folded({self.head()!r})"


@dataclass(frozen=True, slots=True)
class Explained(Generic[T]):
    """A result together with the explanation of how it was obtained."""

    value: T
    explanation: Step


@dataclass(slots=True)
class _Node:
    label: Text
    rule: str = ""
    unit: str = ""
    kind: str = "step"
    value: Value = None
    note: Text | None = None
    children: list[_Node | Step] = field(default_factory=list)

    def freeze(self) -> Step:
        return Step(
            label=self.label,
            value=self.value,
            unit=self.unit,
            rule=self.rule,
            note=self.note,
            kind=self.kind,
            children=tuple(c if isinstance(c, Step) else c.freeze() for c in self.children),
        )


class Trace:
    """The open group a computation is recording into."""

    def __init__(self, node: _Node) -> None:
        self._node = node

    def set(self, value: Value, note: Text | str | None = None) -> None:
        """Set this group's own value (and a note, e.g. a rounding or a cut)."""
        self._node.value = value
        if note is not None:
            self._node.note = Text.of(note)

    def step(
        self,
        label: Text | str,
        value: Value = None,
        *,
        unit: str = "",
        rule: str = "",
        note: Text | str | None = None,
        kind: str = "step",
    ) -> None:
        """Record a leaf step in this group."""
        note_ = Text.of(note) if note is not None else None
        self._node.children.append(Step(Text.of(label), value, unit, rule, note_, kind))

    def attach(self, step: Step) -> None:
        """Attach an already built explanation (e.g. a sub-computation's) as a child."""
        self._node.children.append(step)

    def freeze(self) -> Step:
        return self._node.freeze()

    def explained(self, value: T) -> Explained[T]:
        return Explained(value, self.freeze())


class _HeadTrace(Trace):
    """A group whose own label, value and note are kept and whose steps below are not
    (`heads_only`): its `freeze` is the explanation's first step."""

    def step(self, label: Text | str, value: Value = None, **_: Any) -> None:
        pass

    def attach(self, step: Step) -> None:
        pass

    def freeze(self) -> Step:
        n = self._node
        return Step(n.label, n.value, n.unit, n.rule, n.note, n.kind)


class _Group:
    """The context of `explain`: a group opened in the current trace, closed on leaving."""

    __slots__ = ("_node", "_token")

    def __init__(self, node: _Node) -> None:
        self._node = node
        self._token: contextvars.Token[_Node | _Heads | None] | None = None

    def __enter__(self) -> Trace:
        node = self._node
        parent = _CURRENT.get()
        if parent is _HEADS:
            return _HeadTrace(node)
        if parent is not None:
            parent.children.append(node)  # type: ignore[union-attr]
        self._token = _CURRENT.set(node)
        return Trace(node)

    def __exit__(self, *_: object) -> None:
        if self._token is not None:
            _CURRENT.reset(self._token)


def explain(label: Text | str, *, rule: str = "", unit: str = "") -> AbstractContextManager[Trace]:
    """Open a group of steps: a child of the current group if one is open, else a new tree
    (under `heads_only`, a group of its own whose steps below are not kept)."""
    return _Group(_Node(Text.of(label), rule=rule, unit=unit))


def record(
    label: Text | str,
    value: Value,
    *,
    unit: str = "",
    rule: str = "",
    note: Text | str | None = None,
    kind: str = "step",
) -> None:
    """Record a leaf step in the current group, if a computation is being explained."""
    parent = _CURRENT.get()
    if isinstance(parent, _Node):
        Trace(parent).step(label, value, unit=unit, rule=rule, note=note, kind=kind)


def attach(step: Step) -> None:
    """Attach a built step (one that does not change, such as a rule lookup) to the current
    group, if a computation is being explained."""
    parent = _CURRENT.get()
    if isinstance(parent, _Node):
        parent.children.append(step)


class _Switch:
    """The context of `quiet` and `heads_only`: the current group set to `to` (None: nothing
    recorded; `_HEADS`: first steps only) while inside, unless `keep` leaves it as it is."""

    __slots__ = ("_keep", "_to", "_token")

    def __init__(self, to: _Heads | None, keep: bool) -> None:
        self._to, self._keep = to, keep
        self._token: contextvars.Token[_Node | _Heads | None] | None = None

    def __enter__(self) -> None:
        if not self._keep:
            self._token = _CURRENT.set(self._to)

    def __exit__(self, *_: object) -> None:
        if self._token is not None:
            _CURRENT.reset(self._token)


def quiet() -> AbstractContextManager[None]:
    """Compute without recording (for lookups that are recorded where their values are used)."""
    return _Switch(None, keep=_CURRENT.get() is _HEADS)  # below a first step nothing is kept


def heads_only(on: bool = True) -> AbstractContextManager[None]:
    """Compute keeping of each explanation only its first step (label, value, unit, rule,
    note): what a journal keeps (`Result.to_record`); the steps below are worked out again
    when they are read (`Folded`). The numbers computed are the same. (`on` False: as usual.)"""
    return _Switch(_HEADS, keep=not on)


def tracing() -> bool:
    """Whether a computation is being explained, step by step, right now."""
    return isinstance(_CURRENT.get(), _Node)
