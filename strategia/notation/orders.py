"""Orders as values, declared once with their notation in Russian and English (`FORMS`).

    17 с.д. на 45,25 [через 44,24] [построение опорное]         forward (4.2), formation (9.6)
    17 RD to 45,25 [via 44,24] [formation supporting]
    17 с.д. по дороге на 45,25           17 RD by road to 45,25             along roads (4.1)
    17 с.д. отход на 45,25               17 RD withdraw to 45,25            withdrawal (4.4)
    17 с.д. поворот на юг                17 RD turn S                       a turn (4.3)
    17 с.д. марш на 45,25 [по дорогам через ...] [привалы ...]         a march (4.8)
    17 RD march to 45,25 [by roads via ...] [halts ...]
    17 с.д. переброска в 57,28           17 RD transfer to 57,28            by rail (4.5)
    17 с.д. растянуть на 45,26           17 RD extend to 45,26              frontage (4.6)
    17 с.д. сжать на 45,25               17 RD contract to 45,25
    удар по 45,23: 17 с.д.; 18 с.д. при поддержке 51 а.д. [преследование до 47,23]
        // оборона: 1 с.п. 101 с.д.; 102 с.д.   a blow (9.8), pursuit (9.8a), echelons (9.8c)
    51 а.д. огонь по 22,10 [(подтверждено)]     51 AD fire on 22,10 [(confirmed)]    (9.7)
    51 а.д. огонь по дороге | по мосту 22,10    fire on road | on bridge; interdict (9.7c-d)
    свести 17 с.д., 18 с.д. в 5 с.к.     form 5 RC from 17 RD, 18 RD        a corps (4.10)
    слить 17 с.д., 18 с.д. в 17 с.д.     merge 17 RD, 18 RD into 17 RD      (4.10)
    17 с.д. построение опорное           17 RD formation supporting         formation (9.6)
    17 с.д. полки к линии фронта         17 RD regiments towards the front line          (9.6)
    17 с.д. разделить на полки           17 RD split into regiments         regiments (4.9)
    свести 1 с.п. 17 с.д., 2 с.п. 17 с.д. в 17 с.д.    form 17 RD from ...        (4.10)
    17 с.д. передать 2 с.п. в 18 с.д.    17 RD pass 2 RR to 18 RD           a regiment (4.11)
    1 с.к. передать 17 с.д. в 2 с.к.     1 RC pass 17 RD to 2 RC            a division (4.11)
    устав движения 5 с.к.: построение опорное эшелоны 1 с.п. 17 с.д.; остальные через 5 км
    movement statute 5 RC: formation supporting echelons 1 RR 17 RD; the rest at 5 km intervals
                                         a movement statute (5.9); отменить устав движения 5 с.к.

`parse_order(text, context)` reads any of them against a position (units and cells checked);
`str(order)` is its canonical Russian and `repr(order)` the call that parses it. Adding an order
is one class and one `Form` here, one handler in `strategia.engine.apply`, and its tests.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from strategia.core.errors import IllegalNotationError, InvalidNotationError, NotationError
from strategia.core.geometry import Cell, Direction
from strategia.core.i18n import Lang, Text
from strategia.notation.grammar import Form, Grammar
from strategia.notation.refs import NotationContext, UnitRef
from strategia.rules.kinds import Formation, RegimentKind, RegimentsFacing

Echelons = tuple[tuple[UnitRef, ...], ...]


class Order:
    """An order in the journal: a value, written and read through the grammar (`FORMS`)."""

    __slots__ = ()

    if TYPE_CHECKING:  # each order's own field (a blow's: its first attacker)

        @property
        def unit(self) -> UnitRef:
            """The unit the order is given to."""

    def __str__(self) -> str:
        return self.format("ru")

    def __repr__(self) -> str:
        return f"parse_order({self.format('ru')!r})"

    def format(self, lang: Lang = "ru") -> str:
        return _formatted(self, lang)


@lru_cache(maxsize=8192)
def _formatted(order: Order, lang: Lang) -> str:
    """An order as written (an order is written the same every time: kept for the journal and
    its result, which both write it)."""
    return GRAMMAR.format(order, lang)


@dataclass(frozen=True, slots=True, repr=False)
class Move(Order):
    """Move to a cell: forward (4.2), along roads (4.1) or withdrawing (4.4), in a formation if
    given (9.6), else in the one the unit's movement statute gives (5.9)."""

    unit: UnitRef
    to: Cell
    via: tuple[Cell, ...] = ()
    mode: str = "forward"  # "forward", "road" or "withdraw"
    formation: Formation | None = None  # taken up to move in (9.6); None: the statute's (5.9)


@dataclass(frozen=True, slots=True, repr=False)
class Turn(Order):
    """Turn to face a new direction (4.3)."""

    unit: UnitRef
    facing: Direction


@dataclass(frozen=True, slots=True, repr=False)
class March(Order):
    """A march along roads, planned whole (4.8, level 2): the roads it follows, named by cells on
    them (`via`), and its halts, where it stands at the end of each turn."""

    unit: UnitRef
    to: Cell
    halts: tuple[Cell, ...] = ()
    via: tuple[Cell, ...] = ()


@dataclass(frozen=True, slots=True, repr=False)
class Transfer(Order):
    """A transfer between cities by rail (4.5; by road at level 1)."""

    unit: UnitRef
    to: Cell


@dataclass(frozen=True, slots=True, repr=False)
class Frontage(Order):
    """Extend a division's front to a second cell, or contract it to one (4.6, level 2)."""

    unit: UnitRef
    cell: Cell
    extend: bool = True


@dataclass(frozen=True, slots=True)
class Defence:
    """The defender's answer to a blow: its echelons and support, or a retreat (9.8a, 9.8c)."""

    echelons: Echelons = ()
    support: tuple[UnitRef, ...] = ()
    retreat: bool = False

    def format(self, lang: Lang = "ru") -> str:
        return GRAMMAR.format(self, lang)


@dataclass(frozen=True, slots=True, repr=False)
class Attack(Order):
    """A blow on the troops in a cell (9.8): the attacker's echelons and support, and the
    defender's answer if given (else the units there accept battle in one echelon)."""

    target: Cell
    echelons: Echelons
    support: tuple[UnitRef, ...] = ()
    defence: Defence | None = None
    pursue: Cell | None = None  # how far to pursue a retreating defender (9.8a)

    @property
    def unit(self) -> UnitRef:
        return self.echelons[0][0]

    @property
    def attackers(self) -> tuple[UnitRef, ...]:
        return tuple(r for e in self.echelons for r in e)


STRIKE_KINDS = ("units", "road", "bridge", "interdict")


@dataclass(frozen=True, slots=True, repr=False)
class Strike(Order):
    """An artillery strike (9.7): on the units in a cell, a road, a bridge, or interdiction fire."""

    unit: UnitRef
    target: Cell
    kind: str = "units"
    confirmed: bool = False


@dataclass(frozen=True, slots=True, repr=False)
class FormCorps(Order):
    """Bring `unit` and `others` together into `corps` (4.10, level 2)."""

    unit: UnitRef
    others: tuple[UnitRef, ...]
    corps: UnitRef


@dataclass(frozen=True, slots=True, repr=False)
class Merge(Order):
    """Merge weakened divisions, `unit` and `others`, into one of them, `into` (4.10, level 2)."""

    unit: UnitRef
    others: tuple[UnitRef, ...]
    into: UnitRef


@dataclass(frozen=True, slots=True, repr=False)
class TransferRegiment(Order):
    """Pass the `regiment`-th (from 1) regiment of `kind` (of any kind if None) to division `to`
    (4.11, level 3)."""

    unit: UnitRef
    regiment: int
    kind: RegimentKind | None
    to: UnitRef

    def which(self, lang: Lang = "ru") -> str:
        if self.kind is None:
            return f"{'полк' if lang == 'ru' else 'regiment'} {self.regiment}"
        return f"{self.regiment} {self.kind.ru if lang == 'ru' else self.kind.en}"


@dataclass(frozen=True, slots=True, repr=False)
class TransferDivision(Order):
    """Corps `unit` passes `division` to corps `to` (4.11, level 3)."""

    unit: UnitRef
    division: UnitRef
    to: UnitRef


@dataclass(frozen=True, slots=True, repr=False)
class Reform(Order):
    """A division takes up a formation (9.6): linear (three regiments abreast) or supporting (two
    ahead, one behind); a corps' order goes to each of its divisions."""

    unit: UnitRef
    formation: Formation


@dataclass(frozen=True, slots=True, repr=False)
class FaceRegiments(Order):
    """A division turns its line regiments towards the enemy or towards the front line (9.6,
    tables 9-2 and 10*)."""

    unit: UnitRef
    regiments: RegimentsFacing


@dataclass(frozen=True, slots=True, repr=False)
class SplitDivision(Order):
    """A division parts into its regiments, each a counter of its own (4.9, level 3)."""

    unit: UnitRef


@dataclass(frozen=True, slots=True, repr=False)
class FormDivision(Order):
    """Regiments on one 1x2 card, `unit` and `others`, brought into `division` (4.10, level 2)."""

    unit: UnitRef
    others: tuple[UnitRef, ...]
    division: UnitRef


@dataclass(frozen=True, slots=True, repr=False)
class Statute(Order):
    """A movement statute (5.9): how a formation (a corps or a division) moves and strikes
    unless an order says otherwise: its divisions' formation (9.6), its echelons (9.8c) and
    the distance between them (`gap`, km). `rest` is the echelon (from 1) that takes the troops
    the statute does not name (0: none named so; they stand in the first); `cancel` ends it."""

    unit: UnitRef
    formation: Formation | None = None
    echelons: Echelons = ()
    rest: int = 0
    gap: int | None = None
    cancel: bool = False


# --- checks of orders that read well but cannot be meant -----------------------------------------

Problem = tuple[str, type[NotationError], str, str | None] | None


def _merge_check(o: Merge) -> Problem:
    refs = (o.unit, *o.others)
    if not o.others:
        return "unit", InvalidNotationError, "one division: nothing to merge", "two"
    if o.into not in refs:
        names = ", ".join(map(str, refs))
        return "into", IllegalNotationError, f"{o.into} is not one of those merged", names
    return None


def _to_itself(o: Any) -> Problem:
    if o.to == o.unit:
        what = o.unit.echelon
        return "to", IllegalNotationError, f"{o.to} passes to itself", f"another {what}"
    return None


def _statute_check(o: Statute) -> Problem:
    if o.formation is None and not o.echelons:
        expected = "построение / formation, эшелоны / echelons"
        return "unit", InvalidNotationError, "the statute says nothing", expected
    whole = {r for e in o.echelons for r in e if r.regiment is None}
    split = [r.division for e in o.echelons for r in e if r.division in whole and r.regiment]
    if split:
        problem = f"{split[0]} named whole and by its regiments"
        return "echelons", IllegalNotationError, problem, "one or the other"
    return None


# --- the declarations ---------------------------------------------------------------------------

_VIA = (
    "[через {via:cells}] [построение {formation:formation}]",
    ("[via {via:cells}] [formation {formation:formation}]"),
)
_CONFIRMED = "{confirmed:flag=(подтверждено)}", "{confirmed:flag=(confirmed)}"
_SUPPORT = "[при поддержке {support:units}]", "[supported by {support:units}]"

FORMS: tuple[Form, ...] = (
    Form(
        Move,
        "4.2",
        f"{{unit}} на {{to:cell}} {_VIA[0]}",
        f"{{unit}} to {{to:cell}} {_VIA[1]}",
        title=Text("move forward", "наступление"),
    ),
    Form(
        Move,
        "4.1",
        f"{{unit}} по дороге на {{to:cell}} {_VIA[0]}",
        f"{{unit}} by road to {{to:cell}} {_VIA[1]}",
        fixed={"mode": "road"},
        title=Text("move by road", "движение по дороге"),
    ),
    Form(
        Move,
        "4.4",
        f"{{unit}} отход на {{to:cell}} {_VIA[0]}",
        f"{{unit}} withdraw to {{to:cell}} {_VIA[1]}",
        fixed={"mode": "withdraw"},
        title=Text("withdraw", "отход"),
    ),
    Form(
        Turn,
        "4.3",
        "{unit} поворот на {facing:direction}",
        "{unit} turn {facing:direction}",
        also=("{unit} поворот {facing:direction}", "{unit} turn to {facing:direction}"),
        title=Text("turn", "поворот"),
    ),
    Form(
        March,
        "4.8",
        "{unit} марш на {to:cell} [по дорогам через {via:cells}] [привалы {halts:cells}]",
        "{unit} march to {to:cell} [by roads via {via:cells}] [halts {halts:cells}]",
        title=Text("march", "марш"),
    ),
    Form(
        Transfer,
        "4.5",
        "{unit} переброска в {to:cell}",
        "{unit} transfer to {to:cell}",
        also=("{unit} переброска на {to:cell}",),
        title=Text("rail transfer", "переброска"),
    ),
    Form(
        Frontage,
        "4.6",
        "{unit} растянуть на {cell:cell}",
        "{unit} extend to {cell:cell}",
        title=Text("extend the front", "растянуть фронт"),
    ),
    Form(
        Frontage,
        "4.6",
        "{unit} сжать на {cell:cell}",
        "{unit} contract to {cell:cell}",
        fixed={"extend": False},
        title=Text("contract the front", "сжать фронт"),
    ),
    Form(
        Attack,
        "9.8",
        f"удар по {{target:cell}} : {{echelons:echelons}} {_SUPPORT[0]} "
        "[преследование до {pursue:cell}] [// {defence:Defence}]",
        f"attack {{target:cell}} : {{echelons:echelons}} {_SUPPORT[1]} "
        "[pursue to {pursue:cell}] [// {defence:Defence}]",
        title=Text("attack", "удар"),
    ),
    Form(
        Defence,
        "9.8c",
        f"оборона : {{echelons:echelons}} {_SUPPORT[0]}",
        f"defend : {{echelons:echelons}} {_SUPPORT[1]}",
        title=Text("defend", "оборона"),
    ),
    Form(
        Defence, "9.8a", "отход", "retreat", fixed={"retreat": True}, title=Text("retreat", "отход")
    ),
    Form(
        Strike,
        "9.7",
        f"{{unit}} огонь по {{target:cell}} {_CONFIRMED[0]}",
        f"{{unit}} fire on {{target:cell}} {_CONFIRMED[1]}",
        title=Text("artillery strike", "артиллерийский удар"),
    ),
    Form(
        Strike,
        "9.7c",
        f"{{unit}} огонь по дороге {{target:cell}} {_CONFIRMED[0]}",
        f"{{unit}} fire on road {{target:cell}} {_CONFIRMED[1]}",
        fixed={"kind": "road"},
        title=Text("strike a road", "огонь по дороге"),
    ),
    Form(
        Strike,
        "9.7c",
        f"{{unit}} огонь по мосту {{target:cell}} {_CONFIRMED[0]}",
        f"{{unit}} fire on bridge {{target:cell}} {_CONFIRMED[1]}",
        fixed={"kind": "bridge"},
        title=Text("strike a bridge", "огонь по мосту"),
    ),
    Form(
        Strike,
        "9.7d",
        f"{{unit}} огонь на отсечение {{target:cell}} {_CONFIRMED[0]}",
        f"{{unit}} interdict {{target:cell}} {_CONFIRMED[1]}",
        fixed={"kind": "interdict"},
        title=Text("interdiction fire", "огонь на отсечение"),
    ),
    Form(
        FormCorps,
        "4.10",
        "свести {unit+others:divisions} в|во {corps:new_corps}",
        "form {corps:new_corps} from {unit+others:divisions}",
        title=Text("form a corps", "свести в корпус"),
    ),
    Form(
        Merge,
        "4.10",
        "слить {unit+others:divisions} в|во {into:division}",
        "merge {unit+others:divisions} into {into:division}",
        check=_merge_check,
        title=Text("merge divisions", "слить дивизии"),
    ),
    Form(
        Reform,
        "9.6",
        "{unit} построение {formation:formation}",
        "{unit} formation {formation:formation}",
        also=("{unit} перестроиться в {formation:formation}",),
        title=Text("formation", "построение"),
    ),
    Form(
        FaceRegiments,
        "9.6",
        "{unit} полки {regiments:regiments_facing}",
        "{unit} regiments {regiments:regiments_facing}",
        title=Text("turn the regiments", "развернуть полки"),
    ),
    Form(
        SplitDivision,
        "4.9",
        "{unit:division} разделить на полки",
        "{unit:division} split into regiments",
        title=Text("split into regiments", "разделить на полки"),
    ),
    Form(
        FormDivision,
        "4.10",
        "свести {unit+others:regiments} в|во {division:new_division}",
        "form {division:new_division} from {unit+others:regiments}",
        title=Text("form a division of regiments", "свести полки в дивизию"),
    ),
    Form(
        TransferRegiment,
        "4.11",
        "{unit:division} передать {regiment+kind:regiment} в|во {to:division}",
        "{unit:division} pass {regiment+kind:regiment} to {to:division}",
        check=_to_itself,
        title=Text("pass a regiment", "передать полк"),
    ),
    Form(
        TransferDivision,
        "4.11",
        "{unit:corps} передать {division:division} в|во {to:corps}",
        "{unit:corps} pass {division:division} to {to:corps}",
        check=_to_itself,
        title=Text("pass a division", "передать дивизию"),
    ),
    Form(
        Statute,
        "5.9",
        "устав движения {unit} : [построение {formation:formation}] "
        "[эшелоны {echelons+rest:statute_echelons} [через {gap:km} км]]",
        "movement statute {unit} : [formation {formation:formation}] "
        "[echelons {echelons+rest:statute_echelons} [at {gap:km} km intervals]]",
        check=_statute_check,
        title=Text("movement statute", "устав движения"),
    ),
    Form(
        Statute,
        "5.9",
        "отменить устав движения {unit}",
        "cancel movement statute {unit}",
        fixed={"cancel": True},
        title=Text("cancel a movement statute", "отменить устав движения"),
    ),
)

GRAMMAR = Grammar(FORMS)


def parse_order(text: str, context: NotationContext | None = None) -> Order:
    """An order from the journal's notation, its units and cells checked against `context`."""
    order: Order = GRAMMAR.parse(text, context, Order)
    return order
