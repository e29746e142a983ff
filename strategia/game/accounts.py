"""What a side is told of what happened (1.6: «the players know only what the mediator tells
them»; 9.3: never that an order was cut, nor why).

`told(result, side)` is the side's account of one result, or None if the side is told nothing of
it: of its own orders and its own units' work, the outcome (where its unit stands, what it did);
of a battle or a strike it took part in, its account of it (`side_battle`): its own units in full,
the enemy's by name and type only — never their strength, rating or losses — and the outcome
anyone on the field sees. The mediator's account is the result itself.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from strategia.core.i18n import Text
from strategia.core.numbers import and_list
from strategia.engine.battle_record import BattleRecord, Fighting
from strategia.engine.result import Result
from strategia.rules.english import en

MEDIATOR = "mediator"


@dataclass(frozen=True, slots=True)
class Told:
    """One thing a side was told: its order (if it gave one), the outcome, a battle's account."""

    order: str | None
    text: Text
    battle: BattleRecord | None = None

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"text": self.text.to_json()}
        if self.order is not None:
            d["order"] = self.order
        if self.battle is not None:
            d["battle"] = self.battle.to_json()
        return d


def roles(record: BattleRecord) -> dict[str, str]:
    """The sides of a battle or strike by role: {"attacker": ..., "defender": ...}."""
    return {"attacker": record.attacker, "defender": record.defender}


def side_battle(record: BattleRecord, side: str) -> BattleRecord | None:
    """`side`'s account of a battle or strike (None if it took no part): its own units in full;
    the enemy's named, with their type and place in the battle, nothing of their strength; the
    enemy's totals and the ratio unknown (0); its own support only."""
    mine = {role for role, s in roles(record).items() if s == side}
    if side == MEDIATOR:
        return record
    if record.outcome == "strike":  # the battery does not see whom it hit; each side, its own
        units = tuple(u for u in record.units if (u.side or roles(record)[u.role]) == side)
        if not mine and not units:
            return None
    elif not mine:
        return None
    else:
        units = tuple(u if u.role in mine else _named_only(u) for u in record.units)
    attack_own = "attacker" in mine
    return replace(
        record,
        units=units,
        attack=record.attack if attack_own else 0.0,
        defence=record.defence if not attack_own else 0.0,
        attack_support=record.attack_support if attack_own else 0.0,
        defence_support=record.defence_support if not attack_own else 0.0,
        supporters=(),
        notes=(),
        side=side,
    )


def _named_only(u: Fighting) -> Fighting:
    return Fighting(
        unit=u.unit,
        role=u.role,
        echelon=u.echelon,
        kind=u.kind,
        rating=0.0,
        factors=(),
        effective=0.0,
        before=(),
        part=u.part,
        destroyed=u.destroyed,
    )


_OUTCOME = {
    "held": ("{t}: the enemy held", "{t}: противник удержал позицию"),
    "taken": ("{t} taken", "{t} взят"),
    "beaten_off": ("the attack on {t} beaten off", "атака на {t} отбита"),
    "retreat": ("{t}: the defender retreated", "{t}: обороняющийся отошел"),
    "no_battle": ("no battle at {t}", "боя в {t} нет"),
    "strike": ("artillery fire on {t}", "артиллерийский огонь по {t}"),
}
_DEFENDED = {
    "held": ("{t} held", "{t} удержан"),
    "taken": ("{t} lost", "{t} оставлен"),
    "beaten_off": ("the attack on {t} beaten off", "атака на {t} отбита"),
    "retreat": ("{t}: we retreated", "{t}: отход"),
    "strike": ("our troops at {t} under artillery fire", "наши войска в {t} под огнем артиллерии"),
}


def told(result: Result, side: str) -> Told | None:
    """What `side` is told of `result` (None: nothing); the mediator is told everything."""
    if side == MEDIATOR:
        return Told(result.order, result.outcome, result.battle)
    rec = result.battle
    if rec is not None and rec.outcome != "no_battle":
        account = side_battle(rec, side)
        if account is None:
            return None
        table = _OUTCOME if side == rec.attacker else _DEFENDED
        said_en, said_ru = table.get(rec.outcome, _OUTCOME[rec.outcome])
        text = Text(said_en.format(t=rec.target), said_ru.format(t=rec.target))
        lost = [u.unit for u in account.units if u.destroyed and u.strength_before > 0]
        if lost:  # its own units destroyed (the enemy's it saw destroyed are in the report)
            names = ", ".join(dict.fromkeys(lost))
            text = Text(
                en(f"{text.en}; {and_list(dict.fromkeys(lost))} destroyed"),
                f"{text.ru}; уничтожены: {names}",
            )
        return Told(result.order if result.by == side else None, text, account)
    if result.by != side:
        return None
    asked = [c.reason for c in result.cuts if c.told]  # what the mediator says to him (9.7b)
    if asked:
        text = Text(
            "; ".join([result.outcome.en, *(a.en for a in asked)]),
            "; ".join([result.outcome.ru, *(a.ru for a in asked)]),
        )
        return Told(result.order, text)
    return Told(result.order, result.outcome)
