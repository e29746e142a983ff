"""What a unit can be ordered to do in a turn, and a short notation for it (cards, CLI, console).

    move 5            forward 5 cm (normal pace); "move" alone: as far as the turn allows
    move 5 road       along a road or street (forest and village in march order, 003 obstacles)
    double 8          accelerated;  withdraw 3: back facing the enemy;  retreat 6: about-face
    flee 20 towards 180    flight (routed units), in any direction
    move 6 towards 90      march order (and squares, square to a face) need no change of front
    wheel 45          change of front, + to the right, about the front corner figure
    face 90           change of front to a bearing
    form square       formation change (line, square, column, march, loose; limbered, ...)
    form line facing 90   from loose order, or unlimbering: facing any way at no time
    limber / unlimber [facing B] / prolonge
    restore           restore order (disordered: 1/5 turn; scattered: as from loose order)

Actions are separated by ";". Russian words work too: вперед, ускоренно, отход, отступление,
бегство, захождение, фронт, строй, восстановить, на передки, с передков, по дороге.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from strategia.core.errors import UnknownNameError
from strategia.core.i18n import Lang
from strategia.core.vocab import Kind
from strategia.explain.trace import Step
from strategia.tactical.skirmish import Table
from strategia.tactical.units import Formation, TacticalError


class Mode(Kind):
    """How a unit moves (the speed table's columns; note 1)."""

    FORWARD = ("forward", "вперед", "forward", "move", "advance")
    WITHDRAWAL = ("withdrawal", "отход", "withdrawal", "withdraw")
    RETREAT = ("retreat", "отступление", "retreat")
    ACCELERATED = ("accelerated", "ускоренно", "accelerated", "double", "бегом")
    FLIGHT = ("flight", "бегство", "flight", "flee")

    @property
    def column(self) -> str:
        return {"retreat": "forward"}.get(self.key, self.key)


@dataclass(frozen=True, slots=True)
class Move:
    mode: Mode = Mode.FORWARD
    distance: Fraction | None = None  # None: as far as the turn allows
    heading: float | None = None  # a bearing other than the facing (march order, squares, flight)
    road: bool = False


@dataclass(frozen=True, slots=True)
class Face:
    """A change of front: to a bearing, or by an angle (+ to the right)."""

    bearing: float | None = None
    angle: float | None = None


@dataclass(frozen=True, slots=True)
class Form:
    formation: Formation
    facing: float | None = None


@dataclass(frozen=True, slots=True)
class Restore:
    pass


Action = Move | Face | Form | Restore


@dataclass(frozen=True)
class Done:
    """What one action did: the table after it, its explanation, and what is left of it."""

    table: Table
    explanation: Step
    rest: Action | None = None
    cut: bool = False


_MOVES = {n: m for m in Mode for n in m.names()}
_MOVES.update({"вперёд": Mode.FORWARD, "flight": Mode.FLIGHT})
_ARTILLERY = {
    "limber": Formation.LIMBERED, "на передки": Formation.LIMBERED,
    "unlimber": Formation.UNLIMBERED, "с передков": Formation.UNLIMBERED,
    "prolonge": Formation.PROLONGE, "на отвозы": Formation.PROLONGE,
}  # fmt: skip


def _number(text: str) -> Fraction:
    try:
        return Fraction(text.replace(",", "."))
    except ValueError:
        raise TacticalError(f"expected a number, got {text!r}") from None


def _take(words: list[str], *keys: str) -> float | None:
    """Remove `key N` from words and return N (a bearing)."""
    for i, w in enumerate(words):
        if w in keys and i + 1 < len(words):
            value = float(_number(words[i + 1]))
            del words[i : i + 2]
            return value
    return None


def parse_action(text: str) -> Action:
    """One action from its notation (see the module's docstring)."""
    raw = " ".join(text.strip().lower().split())
    for phrase, formation in _ARTILLERY.items():
        if raw.startswith(phrase):
            words = raw[len(phrase) :].split()
            facing = _take(words, "facing", "фронтом", "фронт")
            if words:
                raise TacticalError(f"{text!r}: did not understand {' '.join(words)!r}")
            return Form(formation, facing)
    words = raw.replace("по дороге", "road").split()
    if not words:
        raise TacticalError("an empty action")
    verb, rest = words[0], words[1:]
    if verb in _MOVES:
        heading = _take(rest, "towards", "bearing", "на", "к")
        road = "road" in rest
        rest = [w for w in rest if w != "road"]
        distance = _number(rest.pop(0)) if rest else None
        if rest:
            raise TacticalError(f"{text!r}: did not understand {' '.join(rest)!r}")
        if distance is not None and distance < 0:
            raise TacticalError(f"{text!r}: a distance is not negative")
        return Move(_MOVES[verb], distance, heading, road)
    if verb in ("wheel", "захождение", "face", "фронт", "turn", "поворот"):
        if len(rest) != 1:
            raise TacticalError(f"{text!r}: expected {verb} and one number of degrees")
        value = float(_number(rest[0]))
        if verb in ("wheel", "захождение"):
            return Face(angle=value)
        return Face(bearing=value % 360)
    if verb in ("form", "строй", "перестроение", "построение"):
        facing = _take(rest, "facing", "фронтом", "фронт")
        try:
            return Form(Formation.parse(" ".join(rest)), facing)
        except UnknownNameError as e:
            raise TacticalError(f"{text!r}: {e}") from None
    if verb in ("restore", "rally", "восстановить", "восстановление"):
        if rest:
            raise TacticalError(f"{text!r}: restore takes nothing more")
        return Restore()
    raise TacticalError(
        f"{text!r}: unknown action {verb!r} (move, double, withdraw, retreat, flee, wheel, face, "
        "form, limber, unlimber, prolonge, restore)"
    )


def parse_actions(text: str) -> tuple[Action, ...]:
    """Actions separated by ";" (or new lines), in the order they are carried out."""
    parts = [p for chunk in text.replace("\n", ";").split(";") if (p := chunk.strip())]
    return tuple(parse_action(p) for p in parts)


def _n(x: Fraction | float) -> str:
    f = Fraction(x) if not isinstance(x, Fraction) else x
    if f.denominator == 1:
        return str(f.numerator)
    return f"{float(f):.6g}"


_VERBS = {  # the canonical verb of each mode, in each language (parse_action reads both)
    "forward": ("move", "вперед"), "withdrawal": ("withdraw", "отход"),
    "retreat": ("retreat", "отступление"), "accelerated": ("double", "ускоренно"),
    "flight": ("flee", "бегство"),
}  # fmt: skip
_ARTILLERY_RU = {Formation.LIMBERED: "на передки", Formation.UNLIMBERED: "с передков",
                 Formation.PROLONGE: "на отвозы"}  # fmt: skip


def format_action(a: Action, lang: Lang = "en") -> str:
    """The canonical notation of an action, in English or Russian (parse_action reads both)."""
    ru = lang == "ru"
    if isinstance(a, Move):
        parts = [_VERBS[a.mode.key][ru]]
        if a.distance is not None:
            parts.append(_n(a.distance))
        if a.heading is not None:
            parts += ["на" if ru else "towards", _n(a.heading)]
        if a.road:
            parts.append("по дороге" if ru else "road")
        return " ".join(parts)
    if isinstance(a, Face):
        if a.angle is not None:
            return f"{'захождение' if ru else 'wheel'} {_n(a.angle)}"
        return f"{'фронт' if ru else 'face'} {_n(a.bearing or 0)}"
    if isinstance(a, Form):
        facing = "" if a.facing is None else f" {'фронтом' if ru else 'facing'} {_n(a.facing)}"
        if ru:
            head = _ARTILLERY_RU.get(a.formation) or f"строй {a.formation.ru}"
            return head + facing
        return f"form {a.formation.key}" + facing
    return "восстановить" if ru else "restore"


def format_actions(actions: tuple[Action, ...], lang: Lang = "en") -> str:
    return "; ".join(format_action(a, lang) for a in actions)
