"""The orders tab: the selected unit, a form for every declared order (its fields shown as the
order needs them), the order's text as it will be given, and a line for notation typed freely.
Errors appear under the input that caused them; Enter gives the order.
"""

from __future__ import annotations

import html
import warnings
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any, Protocol

import ipywidgets as w

from strategia.core.geometry import Cell, Direction
from strategia.core.i18n import Lang, Text
from strategia.core.numbers import num, pct, turns
from strategia.engine.result import Result
from strategia.engine.state import GameState
from strategia.explain.render import rule_label
from strategia.game.game import Game
from strategia.notation import FORMS, Order
from strategia.notation.grammar import Form
from strategia.notation.refs import UnitRef
from strategia.rules.kinds import Formation, RegimentsFacing, side_name
from strategia.ui.widgets.notes import report_box


class Host(Protocol):
    """What the orders tab uses of the console."""

    game: Game
    lang: Lang
    selected: UnitRef | None
    viewer: str

    def breakdown_html(self, r: Result) -> str: ...
    def submit(self, text: str, errors: w.HTML | None = None) -> Result | None: ...
    def working(self, errors: w.HTML | None = None) -> AbstractContextManager[None]: ...


def order_menu(lang: Lang) -> list[tuple[str, Form]]:
    """Every declared order, titled with its rule: the form fills any of them."""
    return [
        (f"{f.title(lang)} ({rule_label(f.rule, lang)})", f)
        for f in FORMS
        if issubclass(f.cls, Order)
    ]


# The form's fields by slot (its fields joined, its type): (label en, ru, placeholder en, ru).
FIELDS: dict[str, tuple[str, str, str, str]] = {
    "unit": ("unit", "часть", "21 TD", "21 т.д."),
    "cell": ("cell", "клетка", "45,22", "45,22"),
    "via": ("via", "через", "44,24 45,24", "44,24 45,24"),
    "halts": ("halts", "привалы", "40,25 42,25", "40,25 42,25"),
    "facing": ("facing", "фронтом", "", ""),
    "echelons": ("echelons", "эшелоны", "17 RD, 18 RD; 19 RD", "17 с.д., 18 с.д.; 19 с.д."),
    "support": ("support", "поддержка", "51 AD", "51 а.д."),
    "pursue": ("pursue to", "преследовать до", "47,23", "47,23"),
    "defence": ("defence", "оборона", "defend: 101 RD / retreat", "оборона: 101 с.д. / отход"),
    "confirmed": ("confirmed", "подтверждено", "", ""),
    "unit+others": ("units", "части", "17 RD, 18 RD", "17 с.д., 18 с.д."),
    "corps": ("corps", "корпус", "5 RC", "5 с.к."),
    "into": ("into", "в дивизию", "17 RD", "17 с.д."),
    "division": ("division", "дивизия", "17 RD", "17 с.д."),
    "to": ("to", "кому", "18 RD", "18 с.д."),
    "formation": ("formation", "построение", "", ""),
    "regiments": ("regiments", "полки", "", ""),
    "regiment+kind": ("regiment", "полк", "2 RR", "2 с.п."),
    "echelons+rest": ("echelons", "эшелоны", "1 RR 17 RD; the rest; 2 RR 17 RD",
                      "1 с.п. 17 с.д.; остальные; 2 с.п. 17 с.д."),
    "gap": ("km between echelons", "через, км", "5", "5"),
}  # fmt: skip
FREE_HINT = Text("17 RD to 45,25", "17 с.д. на 45,25")  # an order in the notation, typed
CELL_SLOTS = ("to", "cell", "target")  # the required cell of a form, filled by a click


def _key(field: str, kind: str) -> str:
    """The form field a slot is written from."""
    if kind == "cell" and field in CELL_SLOTS:
        return "cell"
    if field == "unit" and kind in ("unit", "division", "corps"):
        return "unit"
    return field


def _e(text: object) -> str:
    return html.escape(str(text))


def error_html(text: str) -> str:
    style = "color:#b00;font-size:12px;line-height:1.35"
    return f"<div style='{style}'>⚠ {_e(text)}</div>" if text else ""


def submit_on_enter(box: w.Text, go: Callable[[], Any]) -> None:
    """Enter in `box` does what its button does."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        box.on_submit(lambda _: go())


class OrderForm:
    """The orders tab."""

    def __init__(self, host: Host) -> None:
        self.c = host
        lang = host.lang
        self.unit_info = w.HTML()
        self.kind = w.Dropdown(
            options=order_menu(lang),
            description=Text("order", "приказ")(lang),
            layout=w.Layout(width="98%"),
            style={"description_width": "120px"},
        )
        self.fields: dict[str, w.Widget] = {}
        for key, (en, ru, hint_en, hint_ru) in FIELDS.items():
            label, hint = (ru, hint_ru) if lang == "ru" else (en, hint_en)
            widget: w.Widget
            if key == "facing":
                widget = w.Dropdown(options=[(d.label(lang), d) for d in Direction])
            elif key == "formation":  # none: an order where it is optional (a move, 5.9)
                none = [("—", None)]
                widget = w.Dropdown(options=[(f.label(lang), f) for f in Formation] + none)
            elif key == "regiments":
                widget = w.Dropdown(options=[(f.label(lang), f) for f in RegimentsFacing])
            elif key == "confirmed":
                widget = w.Checkbox(value=False, indent=False)
            else:
                widget = w.Text(placeholder=hint)
                submit_on_enter(widget, self.give_order)
            widget.description = label
            widget.layout = w.Layout(width="98%")
            widget.style.description_width = "120px"
            widget.observe(lambda _: self._preview(), names="value")
            self.fields[key] = widget
        self.preview = w.HTML()
        self.give = w.Button(
            description=Text("Give the order", "Отдать приказ")(lang), button_style="primary"
        )
        self.form_error = w.HTML()
        self.free = w.Text(
            description=Text("notation", "запись")(lang),
            placeholder=FREE_HINT(lang),
            layout=w.Layout(width="98%"),
            style={"description_width": "120px"},
        )
        self.free_go = w.Button(description=Text("Give", "Отдать")(lang))
        self.free_error = w.HTML()
        self.result = report_box()
        self.form_box = w.VBox()
        self._unit = ""  # the unit last put into the form by a selection
        self.shown_from: int | None = None  # the first End turn entry `result` tells of
        self.kind.observe(lambda _: self._layout(), names="value")
        self.give.on_click(lambda _: self.give_order())
        self.free_go.on_click(lambda _: self.give_free())
        submit_on_enter(self.free, self.give_free)
        self.widget = w.VBox(
            [
                self.unit_info,
                self.kind,
                self.form_box,
                self.preview,
                self.give,
                self.form_error,
                w.HTML("<hr style='margin:4px 0'>"),
                self.free,
                self.free_go,
                self.free_error,
                self.result,
            ]
        )
        self._layout()

    # --- the form --------------------------------------------------------------------------

    @property
    def form(self) -> Form:
        f: Form = self.kind.value
        return f

    def _layout(self) -> None:
        """Show the fields the chosen order has, required first."""
        keys = []
        for field, kind, _ in self.form.slots():
            key = "confirmed" if kind.startswith("flag=") else _key(field, kind)
            if key in self.fields and key not in keys:
                keys.append(key)
        self.form_box.children = [self.fields[k] for k in keys]
        optional = {_key(f, k) for f, k, opt in self.form.slots() if opt}
        box = self.fields["formation"]
        if "formation" in keys and ("formation" in optional) != (box.value is None):
            box.value = None if "formation" in optional else Formation.LINEAR
        self._prefill()
        self._preview()

    def _prefill(self) -> None:
        """The selected unit where the order names units."""
        unit = self.c.selected.format(self.c.lang) if self.c.selected else ""
        for key in ("unit", "echelons", "unit+others"):
            box = self.fields[key]
            if isinstance(box, w.Text) and box.value in ("", self._unit):
                box.value = unit
        self._unit = unit

    def values(self) -> dict[str, str]:
        """The form's fields as the grammar's slots take them."""
        out: dict[str, str] = {}
        for field, kind, _ in self.form.slots():
            key = "confirmed" if kind.startswith("flag=") else _key(field, kind)
            box = self.fields.get(key)
            if box is None:
                continue
            value = box.value
            if value is None:
                value = ""
            elif isinstance(value, Direction | Formation | RegimentsFacing):
                value = value.ru if self.c.lang == "ru" else value.en
            elif isinstance(value, bool):
                value = "yes" if value else ""
            out[field] = str(value).strip()
        return out

    def order_text(self) -> str:
        """The order as it will be given, in the notation of the reader's language (the
        journal keeps it in Russian)."""
        return self.form.write(self.c.lang, self.values())

    def _preview(self) -> None:
        self.preview.value = f"<code>{_e(self.order_text())}</code>"

    def set_target(self, cell: Cell) -> None:
        box = self.fields["cell"]
        assert isinstance(box, w.Text)
        box.value = str(cell)
        self._preview()

    def give_order(self) -> Result | None:
        self.result.value = ""
        return self.c.submit(self.order_text(), self.form_error)

    def give_free(self) -> Result | None:
        self.result.value = ""
        return self.c.submit(self.free.value, self.free_error)

    # --- what it shows -----------------------------------------------------------------------

    def show_result(self, text: str, result: Result | None) -> None:
        self.shown_from = None
        if result is None:
            noted = Text("noted for the turn", "принят к исполнению")(self.c.lang)
            self.result.value = f"<p>{_e(text)} — {noted}</p>"
        else:
            self.result.value = self.c.breakdown_html(result)

    def show_undone(self, what: str) -> None:
        """The order (or intervention) `what` was taken back: its result, shown, is struck out
        and said undone."""
        done = Text("undone", "отменено")(self.c.lang)
        self.shown_from = None
        self.result.value = f"<p><s>{_e(what)}</s> — <b>{done}</b></p>" if what else ""

    def clear(self) -> None:
        """Every input emptied (the turn passed), with its errors and the result shown."""
        for box in self.fields.values():
            if isinstance(box, w.Text):
                box.value = ""
            elif isinstance(box, w.Checkbox):
                box.value = False
        self._unit = ""
        self.free.value = ""
        self.form_error.value = ""
        self.free_error.value = ""
        self.result.value = ""  # what was said of the move before («запечатан…») is done with
        self.shown_from = None
        self._prefill()
        self._preview()

    def show_turn(self, results: list[Result], since: int | None = None) -> None:
        """The results of the moves just ended (`results`: End turn's, or a computer's moves';
        or every move ended after entry `since`), under a heading a move saying whose move and
        which turn it was."""
        lang = self.c.lang
        nothing = Text("nothing to report", "без событий")(lang)
        moves = moves_ended(self.c.game, results, since)
        self.shown_from = moves[0][0] if moves else None
        self.result.value = "".join(
            f"<p><b>{_e(head(lang))}</b></p>"
            + ("".join(f"<p>{_e(r.outcome(lang))}</p>" for r in done) or f"<p><i>{nothing}</i></p>")
            for _, head, done in moves
        )

    def refresh(self) -> None:
        self.unit_info.value = unit_info(self.c.game.state, self.c.selected, self.c.lang)
        self._prefill()
        self._preview()


def moves_ended(
    g: Game, results: list[Result], since: int | None = None
) -> list[tuple[int, Text, list[Result]]]:
    """The moves ended lately, each as (its End turn entry, a heading saying whose move and
    which turn it was, its results): «Конец хода синих, ход 5» at levels 1-2, «Ход 5 исполнен»
    at level 3. Those after entry `since` if given; else those of the last round of moves from
    the first that gave one of `results` (the last move alone if none did)."""
    ends = g.journal.seqs("end-turn")
    if not ends:
        return []
    sides = len({s.side for s in g.scenario.states})  # a round: each side's move ended once
    low = ends[-sides:][0] if since is None else since + 1
    rows: dict[int, tuple[int, list[Result]]] = {}
    for seq, turn, _, r in reversed(g.results):
        if seq < low:
            break
        rows.setdefault(seq, (turn, []))[1].insert(0, r)
    if since is None:
        wanted = {id(r) for r in results}
        given = [e for e in ends[-sides:] if any(id(r) in wanted for r in rows.get(e, (0, []))[1])]
        listed = ends[ends.index(given[0]) :] if given else ends[-1:]
    else:
        listed = [e for e in ends if e > since]
    out = []
    for seq in listed:
        side = str(g.journal.entry(seq).data.get("side", ""))
        turn, done = rows.get(seq, (g.turn_of(seq), []))
        if g.simultaneous:
            head = Text(f"Turn {turn} carried out", f"Ход {turn} исполнен")
        else:
            head = Text(
                f"End of {side_name(side, 'en')}'s move, turn {turn}",
                f"Конец хода {side_name(side, 'ru', 'gen')}, ход {turn}",
            )
        out.append((seq, head, done))
    return out


def unit_info(state: GameState, ref: UnitRef | None, lang: Lang) -> str:
    """The selected unit: where, facing, formation, regiments, the turn left, its work."""
    u = state.units.get(ref) if ref else None
    if u is None:
        hint = Text(
            "click a unit of the side to move on the map",
            "выберите на карте часть стороны, которая ходит",
        )
        return f"<i>{hint(lang)}</i>"
    regs = ", ".join(f"{r.kind.label(lang)} {pct(r.strength, lang)}" for r in u.division.regiments)
    busy = f"; {u.busy.label(lang)} ({turns(u.busy.left, lang)})" if u.busy else ""
    side = side_name(state.side_of(u.ref), lang, capital=True)
    left = Text("turn left", "остаток хода")(lang)
    return (
        f"<b>{_e(u.ref.format(lang))}</b> ({_e(side)}) — {_e(', '.join(str(c) for c in u.cells))}, "
        f"{_e(Text('facing', 'фронтом на')(lang))} {_e(u.facing.label(lang))}, "
        f"{_e(u.formation.label(lang))}, {_e(Text('regiments', 'полки')(lang))} "
        f"{_e(u.regiments.label(lang))}; {left} {num(max(0.0, u.left), lang)}{_e(busy)}"
        f"<br><small>{_e(regs)}</small>"
    )
