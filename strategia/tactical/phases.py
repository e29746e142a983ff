"""The turn's eight phases (003 turn sequence) as a phase machine.

1 planning: an order card face down beside every unit (its actions before and after fire, and
  whom it attacks, if anyone); 2 attacks declared: the attackers' cards are turned up, the
  attackers carry out their plans and the attacked the part of theirs that takes the same part of
  the turn; 3 movements: everyone else's plans (but what is planned for after fire); 4 fire,
  artillery first, then musketry; 5 moves after fire; 6 tests of attackers and attacked, and
  their remaining or forced actions; 7 melee; 8 tests of wavering units.

The seed gives no numbers for fire, melee or tests: in phases 4, 6, 7 and 8 the mediator enters
the results (casualties in figures, the outcome, a unit's new condition) and they are recorded
as the mediator's, with no table behind them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from strategia.core.i18n import Text
from strategia.core.vocab import Kind
from strategia.explain.trace import Explained, Trace, explain
from strategia.rules import RuleSet
from strategia.tactical.actions import Action, format_actions
from strategia.tactical.data import SEQUENCE, turns
from strategia.tactical.execute import carry_out
from strategia.tactical.formations import carry_on
from strategia.tactical.moving import is_moving
from strategia.tactical.skirmish import Skirmish, Table, new_table
from strategia.tactical.units import Arm, Condition, Formation, TacticalError


class Phase(Kind):
    """The phases of a turn, in order; `key` is the rule data's row in `turn_sequence`."""

    PLANNING = ("planning", "планирование", "planning", "1", "cards")
    ATTACKS = ("attacks", "объявление атак", "attacks declared", "2")
    MOVEMENT = ("movement", "передвижения", "movements", "3", "moves")
    FIRE = ("fire", "стрельба", "fire", "4")
    AFTER_FIRE = ("after_fire", "передвижения после стрельбы", "moves after fire", "5")
    TESTS = ("tests", "тестирование", "tests", "6")
    MELEE = ("melee", "рукопашные бои", "melee", "7")
    WAVERING = ("wavering", "колеблющиеся", "wavering tests", "8")

    @property
    def number(self) -> int:
        return list(Phase).index(self) + 1

    def next(self) -> Phase:
        members = list(Phase)
        return members[(members.index(self) + 1) % len(members)]


# phases in which the mediator may move units and change formations directly
ACTING = (Phase.ATTACKS, Phase.MOVEMENT, Phase.AFTER_FIRE, Phase.TESTS)


class ReportKind(Kind):
    """What the mediator enters, and the phase it belongs to."""

    ARTILLERY = ("artillery", "артиллерийская стрельба", "artillery fire")
    MUSKETRY = ("musketry", "ружейная стрельба", "musketry")
    TEST = ("test", "тест", "test")
    MELEE = ("melee", "рукопашный бой", "melee")
    WAVERING = ("wavering", "тест колеблющихся", "wavering test")

    @property
    def phase(self) -> Phase:
        return {
            "artillery": Phase.FIRE,
            "musketry": Phase.FIRE,
            "test": Phase.TESTS,
            "melee": Phase.MELEE,
            "wavering": Phase.WAVERING,
        }[self.key]


@dataclass(frozen=True, slots=True)
class Card:
    """An order card (the seed's Appendix 1 with the kinds of cards is missing)."""

    before: tuple[Action, ...] = ()
    after: tuple[Action, ...] = ()
    attack: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "before": format_actions(self.before),
            "after": format_actions(self.after),
            "attack": self.attack,
        }


@dataclass(frozen=True, slots=True)
class Report:
    """A result the mediator entered: what befell `unit` (fired on `by` another, if given)."""

    turn: int
    unit: str
    kind: ReportKind
    casualties: int = 0
    outcome: str = ""
    condition: Condition | None = None
    by: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "unit": self.unit,
            "by": self.by,
            "kind": self.kind.key,
            "casualties": self.casualties,
            "outcome": self.outcome,
            "condition": self.condition.key if self.condition else None,
        }


@dataclass(frozen=True)
class Battle:
    """A skirmish in play: the table, the turn and phase, the cards, the mediator's reports."""

    table: Table
    turn: int = 1
    phase: Phase = Phase.PLANNING
    cards: Mapping[str, Card] = field(default_factory=dict)
    left: Mapping[str, tuple[Action, ...]] = field(default_factory=dict)
    reports: tuple[Report, ...] = ()

    def to_json(self, rules: RuleSet) -> dict[str, Any]:
        """The battle as data; each unit says whether it counts as moving (003 speeds, note 3)."""
        return {
            "skirmish": self.table.skirmish.name,
            "turn": self.turn,
            "phase": {
                "number": self.phase.number,
                "key": self.phase.key,
                **self.phase.text.to_json(),
            },
            "units": [{**u.to_json(), "moving": is_moving(u, rules)} for u in self.table.units],
            "cards": {n: c.to_json() for n, c in self.cards.items()},
            "reports": [r.to_json() for r in self.reports],
        }


def new_battle(skirmish: Skirmish) -> Battle:
    return Battle(new_table(skirmish))


def phase_label(phase: Phase, rules: RuleSet) -> Text:
    """The phase's name from the rule data (003 turn sequence)."""
    p = rules.param("turn_sequence", phase.key)
    return p.label or phase.text


def set_card(battle: Battle, name: str, card: Card, rules: RuleSet) -> Explained[Battle]:
    """Lay a unit's order card (phase 1)."""
    u = battle.table.unit(name)
    if battle.phase is not Phase.PLANNING:
        raise TacticalError(
            f"cards are laid in phase 1 (planning); this is phase {battle.phase.number}"
        )
    if card.attack is not None:
        target = battle.table.unit(card.attack)
        if target.side == u.side:
            raise TacticalError(f"{u.name} cannot attack {target.name}: the same side")
        card = replace(card, attack=target.name)
    head = Text(
        f"{u.name}: order card laid face down", f"{u.name}: карточка-приказ положена надписью вниз"
    )
    with explain(head, rule=SEQUENCE) as ex:
        for en, ru, plan in (("before fire", "до стрельбы", card.before),
                             ("after fire", "после стрельбы", card.after)):  # fmt: skip
            ex.step(Text(f"{en}: {format_actions(plan) or '—'}",
                         f"{ru}: {format_actions(plan, 'ru') or '—'}"))  # fmt: skip
        if card.attack:
            ex.step(Text("attacks", "атакует"), card.attack)
        cards = {**battle.cards, u.name: card}
        return ex.explained(replace(battle, cards=cards))


def act(
    battle: Battle, name: str, actions: tuple[Action, ...], rules: RuleSet
) -> Explained[Battle]:
    """The mediator moves a unit now (phases 2, 3, 5 and 6)."""
    if battle.phase not in ACTING:
        raise TacticalError(
            f"units move in phases 2, 3, 5 and 6; this is phase {battle.phase.number} "
            f"({battle.phase.en})"
        )
    u = battle.table.unit(name)
    head = Text(
        f"{u.name}: {format_actions(actions)}", f"{u.name}: {format_actions(actions, 'ru')}"
    )
    with explain(head, rule=SEQUENCE) as ex:
        done = carry_out(battle.table, u.name, actions, rules)
        _not_done(ex, done.rest)
        return ex.explained(replace(battle, table=done.table))


def _not_done(ex: Trace, rest: tuple[Action, ...]) -> None:
    if rest:
        ex.step(
            Text(
                f"not carried out this turn: {format_actions(rest)}",
                f"не выполнено в этот ход: {format_actions(rest, 'ru')}",
            ),
            kind="cut",
            rule=SEQUENCE,
        )


def advance(battle: Battle, rules: RuleSet) -> Explained[Battle]:
    """Go on to the next phase and carry out what it does by itself."""
    nxt = battle.phase.next()
    label = phase_label(nxt, rules)
    turn = battle.turn + (1 if nxt is Phase.PLANNING else 0)
    head = Text(f"Turn {turn}, {label.en}", f"Ход {turn}, {label.ru}")
    with explain(head, rule=SEQUENCE) as ex:
        rules.value("turn_sequence", nxt.key)
        b = replace(battle, phase=nxt)
        if nxt is Phase.ATTACKS:
            b = _attacks(b, rules, ex)
        elif nxt is Phase.MOVEMENT:
            b = _plans(b, rules, ex, after=False)
        elif nxt is Phase.AFTER_FIRE:
            b = _plans(b, rules, ex, after=True)
        elif nxt is Phase.PLANNING:
            b = _new_turn(b, rules, ex)
        else:
            ex.step(
                Text(
                    "the seed gives no table for this phase: the mediator enters the results",
                    "в правилах нет таблиц для этого этапа: результаты вносит посредник",
                ),
                kind="note",
                rule=SEQUENCE,
            )
        return ex.explained(b)


def _attacks(b: Battle, rules: RuleSet, ex: Trace) -> Battle:
    table = b.table
    left = dict(b.left)
    attackers = {n: c for n, c in b.cards.items() if c.attack}
    if not attackers:
        ex.step(Text("no attacks declared", "атак не объявлено"), kind="note")
    for name, card in attackers.items():
        ex.step(Text(f"{name} attacks {card.attack}", f"{name} атакует {card.attack}"), card.attack)
        start = table.unit(name).spent
        done = carry_out(table, name, card.before, rules, later=card.after)
        table = done.table
        _not_done(ex, done.rest)
        left[name] = ()
        used = table.unit(name).spent - start
        target = card.attack or ""
        if target in attackers or target in left:
            continue
        tcard = b.cards.get(target, Card())
        ex.step(
            Text(
                f"{target} carries out its plan for the same part of the turn",
                f"{target} выполняет свои действия на ту же часть хода",
            ),
            turns(used),
            unit="turn",
        )
        done = carry_out(table, target, tcard.before, rules, until=used, later=tcard.after)
        table = done.table
        left[target] = done.rest
    return replace(b, table=table, left=left)


def _plans(b: Battle, rules: RuleSet, ex: Trace, *, after: bool) -> Battle:
    table = b.table
    for name, card in b.cards.items():
        plan = card.after if after else b.left.get(name, card.before)
        if not plan or table.unit(name).out_of_action:
            continue
        done = carry_out(table, name, plan, rules, later=() if after else card.after)
        table = done.table
        _not_done(ex, done.rest)
    if table is b.table:
        ex.step(
            Text("nothing planned for this phase", "на этот этап ничего не намечено"), kind="note"
        )
    return replace(b, table=table, left={})


def _new_turn(b: Battle, rules: RuleSet, ex: Trace) -> Battle:
    table = b.table
    for u in table.units:
        table = table.with_unit(
            replace(u, spent=Fraction(0), moved=Fraction(0), changed=False, ceasefire=Fraction(0))
        )
    for u in table.units:
        if u.pending is not None:
            table = carry_on(table, u.name, rules).table
    return Battle(table, b.turn + 1, Phase.PLANNING, {}, {}, b.reports)


def report(
    battle: Battle,
    name: str,
    kind: ReportKind,
    rules: RuleSet,
    *,
    casualties: int = 0,
    outcome: str = "",
    condition: Condition | None = None,
    by: str | None = None,
) -> Explained[Battle]:
    """Enter a result the seed has no table for: fire (artillery, then musketry), a test, a
    melee, a wavering test. `name` is the unit the result befalls (casualties in figures, 50
    men each; its new condition); `by` the unit that fired on it or fought it, if any."""
    u = battle.table.unit(name)
    source = battle.table.unit(by) if by else None
    if kind.phase is not battle.phase:
        raise TacticalError(
            f"{kind.en} is entered in phase {kind.phase.number} ({kind.phase.en}); "
            f"this is phase {battle.phase.number}"
        )
    if kind is ReportKind.ARTILLERY and any(
        r.turn == battle.turn and r.kind is ReportKind.MUSKETRY for r in battle.reports
    ):
        raise TacticalError("artillery fire comes first, then musketry (003 turn sequence)")
    if casualties < 0:
        raise TacticalError("casualties are a number of figures, 0 or more")
    head = Text(
        f"{u.name}: {kind.en} (entered by the mediator)", f"{u.name}: {kind.ru} (вносит посредник)"
    )
    with explain(head, rule=SEQUENCE) as ex:
        ex.step(
            Text(
                "the seed has no table for this: the mediator's result",
                "в правилах нет таблицы: результат посредника",
            ),
            kind="note",
        )
        if source is not None:
            ex.step(Text("by", "кем"), source.name)
        if source is not None and source.ceasefire and kind is ReportKind.ARTILLERY:
            ex.step(
                Text(
                    "troops passed through this battery: it ceases fire",
                    "через батарею прошли: она прекращает огонь",
                ),
                turns(source.ceasefire),
                unit="turn",
                kind="note",
            )
        figures = max(0, u.figures - casualties)
        changed = replace(u, figures=figures, lost=u.lost + (u.figures - figures))
        if casualties:
            ex.step(Text("casualties", "потери"), casualties, unit="figures")
            ex.step(Text("figures left", "осталось фигурок"), figures, unit="figures")
        if condition is not None:
            changed = replace(changed, condition=condition)
            if condition is Condition.ROUTED and u.arm is not Arm.ARTILLERY:
                changed = replace(changed, formation=Formation.LOOSE, pending=None)
            ex.step(Text("condition", "состояние"), condition.key)
        if outcome:
            ex.step(Text("outcome", "итог"), outcome)
        entry = Report(
            battle.turn,
            u.name,
            kind,
            casualties,
            outcome,
            condition,
            source.name if source else None,
        )
        b = replace(battle, table=battle.table.with_unit(changed), reports=(*battle.reports, entry))
        return ex.explained(b)
