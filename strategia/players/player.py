"""A computer player: plays one side of a game of module 1 through that side's channel only.

    player = Player("blue", style="balanced", posture="attack@3", seed=7, think=2.0)
    decisions = player.move(channel(game, "blue"))   # its orders given, each with its reason

It reads exactly what a team receives (`SideChannel`: the view, its journal as told, its
answers, its questions left, the status, the map and its own order of battle, the rules) and
gives orders in journal notation (`order`) and questions (`ask`) through it; each decision's
goal and reason are kept beside its order (`order(text, reason=...)`, `note`). A move:

1. the picture of the war (`picture`): its own units, the enemy it knows of and remembers;
2. questions where it knows too little (`asking`, 8.3), and the picture again with the answers;
3. the plan (`plan`): the balance in each sector, the main effort (kept from its last move
   until another sector beats it by the style's margin), whether it may fight; then the search
   (`search`): each candidate plan played out by the engine on the picture against the enemy's
   likely reply, over enemy dispositions sampled from what the side knows, within `think`;
4. blows where the engine's what-if ratio reaches the style's threshold (`fight`), artillery
   fire on the enemy in reach (9.7), withdrawals of the outmatched (4.4), then the movements
   (`moves`): deployment, reserves to the front, the main effort closed up on the blows it
   gathers for, rivers crossed, facing the enemy; and (`advance`) the guns brought within reach
   and the main effort's free divisions carried towards its objective.

Every order is first tried by the engine on the side's picture (`whatif`) and given only if
the engine carries it out whole there. The same seed, turn and side give the same orders
(ties broken by `random.Random` seeded from them).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any, Protocol

from strategia.core.errors import StaleError, StrategiaError
from strategia.core.geometry import Cell
from strategia.core.i18n import Text
from strategia.core.numbers import num
from strategia.engine.state import GameState
from strategia.game.views import SideView
from strategia.notation.refs import UnitRef
from strategia.players.advance import concentrate
from strategia.players.asking import questions
from strategia.players.decision import Decision, Goal, step
from strategia.players.fight import Blow, blow_decision, choose_blows, weigh_blows
from strategia.players.fire import fire
from strategia.players.ground import Ground, read_ground
from strategia.players.moves import movements
from strategia.players.picture import Known, Picture, read_picture
from strategia.players.plan import Plan, Posture, make_plan
from strategia.players.search import search, weighed_step
from strategia.players.styles import Style, load_styles
from strategia.players.whatif import attempt, picture_state
from strategia.players.withdraw import withdrawals
from strategia.rules import RuleSet
from strategia.theatre.scenario import Scenario

SEEDS = {"red": 1, "blue": 2, "green": 3, "black": 4}  # a side's player's seed, by default
DEFAULT_POSTURE = {"green": "wait"}  # a neutral waits to be attacked; the others attack@3


def settings(side: str, style: str = "balanced", posture: str | None = None) -> dict[str, Any]:
    """A side's computer player as a game keeps it (`Game.computer_sides`): its style, its
    posture (by default a neutral waits, the others attack from turn 3) and its seed."""
    key = side.strip().lower()
    chosen = posture or DEFAULT_POSTURE.get(key, "attack@3")
    return {"style": style, "posture": chosen, "seed": SEEDS.get(key, 0)}


class Channel(Protocol):
    """What the player uses of a side's channel (`strategia.game.channel.SideChannel`)."""

    def view(self, turn: int | None = None) -> SideView: ...
    def told(self) -> list[dict[str, Any]]: ...
    def answers(self) -> list[dict[str, Any]]: ...
    def questions_left(self) -> float: ...
    def status(self) -> dict[str, Any]: ...
    def scenario(self) -> Scenario: ...
    def rules(self) -> RuleSet: ...
    def order(self, text: str, reason: dict[str, Any] | None = None) -> Any: ...
    def ask(self, text: str) -> dict[str, Any]: ...
    def note(self, reason: dict[str, Any]) -> None: ...


class Player:
    """The computer player of one side (see the module). It keeps its memory of the enemy
    between its moves; a new player rebuilds it from the side's views of earlier turns."""

    def __init__(
        self,
        side: str,
        style: Style | str = "balanced",
        posture: Posture | str = "attack@3",
        seed: int = 0,
        styles: dict[str, Style] | None = None,
        think: float | None = None,
    ) -> None:
        self.side = side
        self.style = style if isinstance(style, Style) else (styles or load_styles())[style]
        self.posture = posture if isinstance(posture, Posture) else Posture.parse(posture)
        self.seed = seed
        self.memory: tuple[Known, ...] = ()
        self.memory_turn: int | None = None
        self.moved: int | None = None  # the turn of its last move (level 3: one a turn)
        self.main_at: int | None = None  # the place along the front of its main effort, kept
        self.came_from: dict[UnitRef, Cell] = {}  # where its units came from in its last move
        self.think = think  # seconds the search may spend in a move (None: every plan weighed)
        self.searched = 0  # plans played out (each on one disposition), for the benchmarks
        self.search_seconds = 0.0
        self.refused: list[tuple[str, str]] = []  # orders the game refused (none expected)
        self._map: tuple[Scenario, RuleSet] | None = None
        self._grounds: dict[tuple[str, ...], Ground] = {}

    @classmethod
    def of_settings(cls, side: str, settings: dict[str, Any], source: str = "styles") -> Player:
        """The player a game's settings for a side describe (`Game.computer_sides`: style,
        posture, seed, and a styles file's text merged over the defaults)."""
        text = settings.get("styles")
        styles = load_styles(text, source) if text else load_styles()
        return cls(
            side, settings.get("style", "balanced"), settings.get("posture", "attack@3"),
            int(settings.get("seed", 0)), styles, settings.get("think"),
        )  # fmt: skip

    # --- a move --------------------------------------------------------------------------------

    def move(self, ch: Channel) -> list[Decision]:
        """The side's move: its decisions, each order given through `ch` with its reason."""
        st = ch.status()
        turn = int(st["turn"])
        if st["phase"] == "peace" or (not st["simultaneous"] and st["to_move"] != self.side):
            return []
        if st["simultaneous"] and self.moved == turn:
            return []
        sc, rules = self._read_map(ch)
        level = int(st["level"])
        view = ch.view()
        if self.memory_turn is None and turn > 1:
            self._recall(ch, turn)
        picture, ground = self._picture(ch, view, sc)
        rng = random.Random(f"{self.seed}:{turn}:{self.side}")
        plan = make_plan(
            ground, picture, view.armies, rules, self.style, self.posture, rng, self.main_at
        )
        out: list[Decision] = []
        asked = self._ask(ch, picture, plan, ground)
        if asked:
            out += asked
            picture, ground = self._picture(ch, view, sc)
            plan = make_plan(
                ground, picture, view.armies, rules, self.style, self.posture, rng, self.main_at
            )
        state = picture_state(sc, rules, picture, level, ground.enemy_codes)
        plan = self._search(state, picture, plan, ground, rules, rng)
        head = Decision(Goal.PLAN, None, plan.reason)
        ch.note(head.to_json())
        out.insert(0, head)
        state, first = self._fight(state, picture, plan, ground, rules, level)
        out += self._give(ch, first)
        if not st["simultaneous"] and first:  # levels 1-2: the results are in; look again
            view = ch.view()
            picture, ground = self._picture(ch, view, sc)
            state = picture_state(sc, rules, picture, level, ground.enemy_codes)
        used = _units_of(first)
        state, back = withdrawals(state, picture, plan, ground, rules, self.style, self.side, used)
        used |= _units_of(back)
        state, moved = movements(state, picture, plan, ground, rules, self.style, self.side, used)
        used |= _units_of(moved)
        state, gather = concentrate(
            state, picture, plan, ground, rules, self.style, self.side, used
        )
        out += self._give(ch, back + moved + gather)
        self.came_from = {
            u.ref: u.cell
            for u in picture.own
            if self.style.concentrate and u.ref in state.units and state.unit(u.ref).cell != u.cell
        }  # (the one-move player, `greedy`, keeps no such memory)
        self.memory, self.memory_turn, self.moved = picture.enemies, turn, turn
        if plan.main is not None:
            self.main_at = (plan.main.lo + plan.main.hi) // 2
        return out

    def _search(
        self,
        state: GameState,
        picture: Picture,
        plan: Plan,
        ground: Ground,
        rules: RuleSet,
        rng: random.Random,
    ) -> Plan:
        """The plan the search over candidate plans chooses (`search`), its reason naming
        every plan weighed and its value."""
        chosen, weighed, spent = search(
            state, picture, plan, ground, rules, self.style, self.side, rng, self.think
        )
        self.searched += len([w for w in weighed if w.value is not None]) * self.style.samples
        self.search_seconds += spent
        if not weighed:
            return plan
        lines = [*plan.reason.children, weighed_step(weighed, chosen, self.style)]
        head = plan.reason.label
        if chosen.main is not None and chosen.main is not plan.main:
            head = Text(
                f"Plan of the move: the main effort in {chosen.main.label().en}",
                f"Замысел хода: главный удар в {chosen.main.label('prep').ru}",
            )
            m = num(self.style.replan_value)
            why = Text(
                f"the search: its plan beats the balance's choice by more than {m}",
                f"по розыгрышу: этот замысел лучше выбранного по соотношению более чем на "
                f"{num(self.style.replan_value, 'ru')}",
            )
            lines = [
                replace(c, value=chosen.main.label(), note=why)
                if c.label.en == "main effort"
                else c
                for c in lines
            ]
        reason = replace(plan.reason, label=head, children=tuple(lines))
        return replace(chosen, reason=reason)

    def _fight(
        self,
        state: GameState,
        picture: Picture,
        plan: Plan,
        ground: Ground,
        rules: RuleSet,
        level: int,
    ) -> tuple[GameState, list[Decision]]:
        """Artillery fire, then the blows (weighed before the fire, so that the batteries
        that support a blow do not fire too), each tried again in its turn."""
        style = self.style if level < 3 else _no_pursuit(self.style)
        blows = choose_blows(weigh_blows(state, picture, plan, ground, rules, style, self.side))
        supporting = {r for b in blows for r in b.order.support}
        attacking = {r for b in blows for r in b.used} - supporting
        state, fired = fire(state, picture, ground, rules, self.side, supporting | attacking)
        out = list(fired)
        for b in blows:
            t = attempt(state, b.order, rules, self.side, losses=True)
            if t.clean and (t.ratio or 0.0) >= b.threshold:
                state = t.state
                out.append(blow_decision(b, t))
        return state, out

    def _ask(self, ch: Channel, picture: Picture, plan: Plan, ground: Ground) -> list[Decision]:
        out = []
        for q in questions(picture, plan, ground, ch.questions_left(), self.style):
            try:
                a = ch.ask(q.text)
            except StaleError:
                raise  # the move is over
            except StrategiaError:
                break
            answer = Text.of(a.get("answer", ""))
            reason = step(
                q.reason.label,
                q.reason.value,
                rule=q.reason.rule,
                children=(
                    *q.reason.children,
                    step(Text("the answer", "ответ"), answer, rule="8.3"),
                ),
            )
            d = Decision(Goal.RECONNOITRE, None, reason, question=q.text)
            ch.note(d.to_json())
            out.append(d)
        return out

    def _give(self, ch: Channel, decisions: Sequence[Decision]) -> list[Decision]:
        out = []
        for d in decisions:
            if d.order is None:
                continue
            try:
                ch.order(d.order, reason=d.to_json())
            except StaleError:
                raise  # the move is over: nothing more is given in it
            except StrategiaError as e:
                self.refused.append((d.order, e.say("en")))
                continue
            out.append(d)
        return out

    # --- what it knows -----------------------------------------------------------------------

    def _read_map(self, ch: Channel) -> tuple[Scenario, RuleSet]:
        if self._map is None:
            self._map = (ch.scenario(), ch.rules())
        return self._map

    def _ground(self, sc: Scenario, view: SideView) -> Ground:
        enemies = tuple(sorted({s.side for s in view.seen})) if self.side == "green" else ()
        if enemies not in self._grounds:
            self._grounds[enemies] = read_ground(sc, self.side, enemies)
        return self._grounds[enemies]

    def _picture(self, ch: Channel, view: SideView, sc: Scenario) -> tuple[Picture, Ground]:
        ground = self._ground(sc, view)
        p = read_picture(
            view, ch.told(), ch.answers(), ground, self.memory, self.style.memory_turns
        )
        return replace(p, came_from=self.came_from), ground

    def _recall(self, ch: Channel, turn: int) -> None:
        """A player new to a game going on: its memory rebuilt from the side's views of the
        last `memory_turns` turns."""
        sc, _ = self._read_map(ch)
        for t in range(max(1, turn - self.style.memory_turns), turn):
            view = ch.view(t)
            ground = self._ground(sc, view)
            p = read_picture(view, [], ch.answers(), ground, self.memory, self.style.memory_turns)
            self.memory = p.enemies
        self.memory_turn = turn - 1


def _units_of(decisions: Sequence[Decision]) -> set[UnitRef]:
    """The side's units the decisions' orders gave work to."""
    return {r for d in decisions for r in d.units}


def _no_pursuit(style: Style) -> Style:
    return replace(style, pursue=False)


__all__ = ["Blow", "Channel", "Player", "settings"]
