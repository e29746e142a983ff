"""The words of a battle's report, and the small phrases its summary, table and steps share:
units and sides as a sentence names them, ratings written with a decimal, the outcomes."""

from __future__ import annotations

from collections.abc import Sequence

from strategia.core.i18n import Lang
from strategia.core.numbers import num
from strategia.engine.battle_record import BattleRecord, Fighting, Pursuit
from strategia.notation.refs import UnitRef
from strategia.rules.english import en

W = {  # the report's words: (English, Russian)
    "battle": ("Battle for {target}", "Бой за {target}"),
    "turn": ("turn {turn}", "ход {turn}"),
    "forces": ("Forces:", "Силы:"),
    "outcome": ("Outcome:", "Итог:"),
    "against": ("against", "против"),
    "ratio": ("ratio", "соотношение"),
    "unknown": ("unknown", "неизвестно"),
    "support": ("support", "поддержка"),
    "left": ("{x} left", "остается {x}"),
    "loses": ("{unit} loses {p}", "{unit} теряет {p}"),
    "no_loss": ("{unit}: no losses", "{unit}: без потерь"),
    "steps": ("How it was reckoned:", "Как это посчитано:"),
    "rec": ("Reconstructed in this battle", "Восстановлено в этом бою"),
    "rec_tail": (
        "all on the rules sheet, changeable by house rules",
        "все это — в листе правил, меняется правилами игры",
    ),
    "tree": ("The full reckoning", "Полный расчет"),
    "attack": ("attack", "наступление"),
    "defence": ("defence", "оборона"),
    "echelon": ("echelon {n}", "{n}-й эшелон"),
}
HEADER = (
    ("unit", "соединение"),
    ("side", "сторона"),
    ("rating", "рейтинг"),
    ("multipliers", "множители"),
    ("in battle", "в бою"),
    ("regiments before", "полки до боя"),
    ("losses", "потери"),
    ("regiments after", "полки после боя"),
)
OUTCOME = {
    "held": ("{target} holds", "{target} удержан"),
    "taken": ("{target} taken", "{target} взят"),
    "beaten_off": ("the attack on {target} is beaten off", "атака на {target} отбита"),
    "retreat": (
        "the defender retreats from {target} without battle (9.8a)",
        "противник отходит из {target}, не принимая боя (9.8а)",
    ),
    "no_battle": ("no battle", "боя нет"),
}
WITH = {"front": "фронтом", "flank45": "флангом под 45°", "flank90": "флангом под 90°",
        "flank135": "флангом под 135°", "rear": "тылом"}  # fmt: skip


def w(key: str, lang: Lang, **values: object) -> str:
    en, ru = W[key]
    return (ru if lang == "ru" else en).format(**values)


def unit_name(name: str, lang: Lang) -> str:
    """A unit (or a type: с.п.) as the reader's notation writes it (17 с.д. / 17 RD)."""
    return name if lang == "ru" else en(name)


def feminine(name: str) -> bool:
    """Whether the unit is a дивизия or a крепость (else a полк or a корпус)."""
    try:
        return UnitRef.parse(name).echelon == "division"
    except ValueError:
        return True


def names(units: Sequence[str], lang: Lang) -> str:
    names = [unit_name(u, lang) for u in dict.fromkeys(units)]
    if len(names) < 2:
        return "".join(names)
    joiner = " и " if lang == "ru" else " and "
    return ", ".join(names[:-1]) + joiner + names[-1]


def n(x: float, lang: Lang) -> str:
    """A rating as the report writes it: one decimal at least (2,0; 0,65; 1,67)."""
    return num(x, lang, keep=1)


def hidden(rec: BattleRecord, u: Fighting) -> bool:
    """In a side's account (`rec.side`), a unit of the other side: named, nothing more known."""
    side = u.side or (rec.attacker if u.role == "attacker" else rec.defender)
    return bool(rec.side) and side != rec.side


def first(rec: BattleRecord, role: str) -> list[Fighting]:
    return [u for u in rec.units if u.role == role and u.echelon == 1]


def pursuit_line(p: Pursuit, lang: Lang) -> str:
    who = unit_name(p.unit, lang)
    if lang == "ru":
        return (
            f"{who} преследует: может продвинуться на {num(p.limit_km, lang)} км, "
            f"продвигается на {num(p.taken_km, lang)} км в {p.to} (9.8а)."
        )
    return (
        f"{who} pursues: it may advance {num(p.limit_km, lang)} km, "
        f"advances {num(p.taken_km, lang)} km to {p.to} (9.8a)."
    )
