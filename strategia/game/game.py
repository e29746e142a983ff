"""A game: a scenario played turn by turn, every step written to its journal first.

The journal is the game: `Game.open` rebuilds the state by replaying it from the scenario in its
header, so a crash loses nothing and any earlier turn can be shown. Randomness (false answers of
reconnaissance) is drawn from the seed in the header.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from strategia.core.errors import StrategiaError
from strategia.core.geometry import Cell
from strategia.core.i18n import Lang
from strategia.engine import flow
from strategia.engine.apply import apply
from strategia.engine.result import OrderError, Result
from strategia.engine.state import GameState, initial_state
from strategia.explain.trace import Explained
from strategia.game.questions import parse_question
from strategia.game.review import review
from strategia.game.scoring import score
from strategia.game.store import Entry, Journal
from strategia.notation.orders import Order, parse_order
from strategia.rules import RuleSet, load_ruleset
from strategia.rules.kinds import side_name
from strategia.rules.load import apply_house_text
from strategia.theatre.scenario import Scenario
from strategia.theatre.scenario_io import format_scenario, load_scenario, parse_scenario

PHASES = ("deployment", "combat", "peace")  # 1.5: planning is done in the scenario


class GameError(StrategiaError):
    """A game command that cannot be carried out now (wrong side, the game is over...)."""


@dataclass
class Game:
    """A game in progress: its journal, rules, current state and what the journal recorded."""

    journal: Journal
    scenario: Scenario
    rules: RuleSet
    state: GameState
    start: GameState
    side: str = ""
    phase: str = "deployment"
    queued: list[tuple[int, str, Order]] = field(default_factory=list)
    results: list[tuple[int, int, str, Result]] = field(default_factory=list)  # seq, turn, side
    answers: list[dict[str, Any]] = field(default_factory=list)
    interventions: list[tuple[int, str]] = field(default_factory=list)
    replay_problems: list[str] = field(default_factory=list)

    # --- creating and opening ----------------------------------------------------------------

    @classmethod
    def new(
        cls,
        scenario: str | Path | Scenario,
        path: str | Path,
        *,
        level: int | None = None,
        seed: int | None = None,
        house: list[str] | None = None,
        limit_interventions: bool = False,
    ) -> Game:
        sc = scenario if isinstance(scenario, Scenario) else load_scenario(scenario)
        header = {
            "scenario": format_scenario(sc),
            "scenario_name": sc.name,
            "level": level or sc.settings.level,
            "seed": sc.settings.seed if seed is None else seed,
            "house": [Path(h).read_text(encoding="utf-8") for h in house or []],
            "clock_minutes": sc.settings.clock_minutes,
            "mediator": sc.settings.mediator,
            "limit_interventions": limit_interventions,
        }
        journal = Journal.create(path, header)
        return cls._from_journal(journal)

    @classmethod
    def open(cls, path: str | Path, recover: bool = False, upto: int | None = None) -> Game:
        """A saved game, rebuilt from its journal (up to entry `upto` if given)."""
        journal = Journal.open(path, recover=recover)
        return cls._from_journal(journal, upto)

    @classmethod
    def _from_journal(cls, journal: Journal, upto: int | None = None) -> Game:
        h = journal.header
        sc = parse_scenario(h["scenario"], f"{journal.path} (scenario)")
        rules = _rules(sc, int(h["level"]), h.get("house", []), journal.path)
        state = initial_state(sc, int(h["level"]), rules)
        state, _ = flow.start(state, rules)
        g = cls(journal, sc, rules, state, state)
        g.side = flow.sides_in_order(state, rules)[0]
        g.state, _ = flow.begin_move(g.state, g.side, rules)
        g.start = g.state
        undone = {int(e.data["of"]) for e in journal.entries if e.kind == "undo"}
        for e in journal.entries[1:]:
            if upto is not None and e.seq > upto:
                break
            if e.seq not in undone:
                g._replay(e)
        return g

    @property
    def level(self) -> int:
        return self.state.level

    @property
    def seed(self) -> int:
        return int(self.journal.header["seed"])

    @property
    def simultaneous(self) -> bool:
        return self.rules.active("turn_order", "simultaneous")

    # --- commands: each computes, writes its entry, then takes effect --------------------------

    def order(self, text: str, side: str | None = None) -> Result | None:
        """Give an order in journal notation; at level 3 it waits for `end_turn` (returns None)."""
        self._playing()
        order = parse_order(text, self.state)
        side = side or self._side_of_order(order)
        if not self.simultaneous and side != self.side:
            raise GameError(
                f"{text}: it is {self.side}'s move, not {side}'s (1.7)",
                ru=f"{text}: сейчас ходят {side_name(self.side)}, а не {side_name(side)} (1.7)",
            )
        if self.simultaneous:
            self.journal.append(
                "order", {"side": side, "order": order.format("ru"), "queued": True}
            )
            self.queued.append((len(self.journal.entries), side, order))
            return None
        new, result = apply(self.state, order, self.rules, side)
        entry = self.journal.append(
            "order", {"side": side, "order": order.format("ru"), "result": result.to_json()}
        )
        self._commit(new, [(entry.seq, side, result)])
        return result

    def end_turn(self) -> list[Result]:
        """End the side's move (levels 1-2) or carry out every side's orders (level 3)."""
        self._playing()
        new, side, results = self._end_turn(self.state, self.side)
        entry = self.journal.append(
            "end-turn",
            {
                "side": self.side,
                "turn_after": new.turn,
                "next": side,
                "results": [r.to_json() for r in results],
            },
        )
        self.queued = []
        self.side = side
        self._commit(new, [(entry.seq, "", r) for r in results])
        return results

    def ask(self, side: str, text: str, lie: bool | None = None) -> dict[str, Any]:
        """A reconnaissance question (8.3), recorded with its truth (for the mediator only)."""
        from strategia.game import recon

        q = parse_question(text, self.state)
        history = [a for a in self.answers if a["side"] == side]
        answered = recon.ask(
            self.state, side, q, self.rules, history=history, seed=self.seed, lie=lie
        )
        data = {"side": side, "turn": self.state.turn, **answered.value.to_json(for_side=False)}
        self.journal.append("ask", data)
        self.answers.append(data)
        return data

    def intervene(self, text: str, cell: Cell | None = None, turns: int | None = None) -> str:
        """A mediator's input (9.4): a note, or weather closing the road at `cell`."""
        self._playing()
        if cell is not None and not (
            1 <= cell.lon <= self.state.width and 1 <= cell.lat <= self.state.height
        ):
            w, h = self.state.width, self.state.height
            raise GameError(
                f"{cell}: off the map, which is {w} x {h}", ru=f"{cell}: вне карты ({w} × {h})"
            )
        limit = int(self.rules.value("mediator", "intervention_limit_turns"))
        if self.journal.header.get("limit_interventions") and any(
            t > self.state.turn - limit for t, _ in self.interventions
        ):
            raise GameError(
                f"the players limited interventions to one in {limit} turns (9.4)",
                ru=f"игроки ограничили вмешательства: одно за {limit} ходов (9.4)",
            )
        self.journal.append(
            "intervention", {"text": text, "cell": str(cell) if cell else None, "turns": turns}
        )
        self._intervene(text, cell, turns)
        return text

    def undoable(self) -> Entry | None:
        """The entry `undo` would take back: the last order or intervention of the current move
        not taken back yet (None if there is none)."""
        undone = {int(e.data["of"]) for e in self.journal.entries if e.kind == "undo"}
        for e in reversed(self.journal.entries):
            if e.kind in ("end-turn", "game"):
                return None
            if e.kind in ("order", "intervention") and e.seq not in undone:
                return e
        return None

    def undo(self) -> None:
        """Take back the last order or intervention of the current move (levels 1-2), one after
        another."""
        self._playing()
        last = self.undoable()
        if last is None:
            raise GameError(
                "nothing to undo in this move: only the move's orders and interventions "
                "can be taken back",
                ru="в этом ходе нечего отменять: отменить можно только приказы и вмешательства "
                "этого хода",
            )
        self.journal.append("undo", {"of": last.seq})
        fresh = Game._from_journal(self.journal)
        self.__dict__.update(fresh.__dict__)

    def intervention_list(self) -> list[dict[str, Any]]:
        """The interventions in force in the journal: seq, turn, text, cell and turns of each."""
        undone = {int(e.data["of"]) for e in self.journal.entries if e.kind == "undo"}
        turn, out = 1, []
        for e in self.journal.entries:
            if e.kind == "end-turn":
                turn = int(e.data.get("turn_after", turn))
            elif e.kind == "intervention" and e.seq not in undone:
                out.append({"seq": e.seq, "turn": turn, **e.data})
        return out

    def end_game(self) -> None:
        """The war ends: peace talks (1.5); no more orders."""
        self.journal.append("phase", {"phase": "peace"})
        self.phase = "peace"

    # --- reading --------------------------------------------------------------------------------

    def state_at(self, turn: int) -> GameState:
        """The state at the start of `turn` (its first side's move), replayed from the journal."""
        if turn <= 1:
            return Game._from_journal(self.journal, 1).state
        first = flow.sides_in_order(self.state, self.rules)[0]
        for e in self.journal.entries:
            if (
                e.kind == "end-turn"
                and e.data.get("turn_after") == turn
                and e.data.get("next") == first
            ):
                return Game._from_journal(self.journal, e.seq).state
        return self.state

    def score(self, side: str, penalties: float = 0.0) -> Explained[float]:
        return score(self.start, self.state, side, self.rules, penalties)

    def review(self) -> dict[str, Explained[float]]:
        """Without a mediator (6.3, 9.3): the orders checked after the game, per side."""
        return review(self.results, self.rules)

    def clock(self, now: dt.datetime | None = None) -> float | None:
        """Seconds left of the side's move on the clock (1.9), or None without a clock."""
        minutes = float(self.journal.header.get("clock_minutes", 0))
        if minutes <= 0:
            return None
        began = next(
            (e.time for e in reversed(self.journal.entries) if e.kind in ("end-turn", "game")), ""
        )
        start = dt.datetime.fromisoformat(began)
        now = now or dt.datetime.now(dt.UTC)
        return max(0.0, minutes * 60 - (now - start).total_seconds())

    # --- internals ------------------------------------------------------------------------------

    def _playing(self) -> None:
        if self.phase == "peace":
            raise GameError(
                "the game is over: peace talks (1.5)", ru="игра окончена: мирные переговоры (1.5)"
            )

    def _side_of_order(self, order: Order) -> str:
        refs = [order.unit]
        for r in refs:
            if r in self.state.units:
                return self.state.side_of(r)
        members = [u for u in self.state.units.values() if u.corps == order.unit]
        if members:
            return self.state.side_of(members[0].ref)
        raise OrderError(
            f"{order}: {order.unit} is not on the map", ru=f"{order}: {order.unit} нет на карте"
        )

    def _end_turn(self, state: GameState, side: str) -> tuple[GameState, str, list[Result]]:
        rules = self.rules
        results: list[Result] = []
        sides = flow.sides_in_order(state, rules)
        if self.simultaneous:
            state, done = flow.execute_together(state, [(s, o) for _, s, o in self.queued], rules)
            results += done
            state, more = flow.new_day(state, rules)
            results += more
            state, more = flow.advance(state, rules)
            return state, sides[0], results + more
        nxt = sides.index(side) + 1
        if nxt >= len(sides):
            state, more = flow.new_day(state, rules)
            results += more
            nxt = 0
        state, more = flow.begin_move(state, sides[nxt], rules)
        return state, sides[nxt], results + more

    def _commit(self, new: GameState, results: list[tuple[int, str, Result]]) -> None:
        for seq, side, r in results:
            self.results.append((seq, self.state.turn, side, r))
        self.state = new
        if new.at_war and self.phase == "deployment":
            self.phase = "combat"

    def _intervene(self, text: str, cell: Cell | None, turns: int | None) -> None:
        self.interventions.append((self.state.turn, text))
        if cell is not None:
            self.state = flow.weather(self.state, cell, turns, self.rules)

    def _replay(self, e: Entry) -> None:
        d = e.data
        if e.kind == "order":
            order = parse_order(d["order"], self.state)
            if d.get("queued"):
                self.queued.append((e.seq, d["side"], order))
                return
            new, result = apply(self.state, order, self.rules, d["side"])
            if result.to_json() != d["result"]:
                self.replay_problems.append(
                    f"entry {e.seq}: {d['order']}: the result differs on replay"
                )
            self._commit(new, [(e.seq, d["side"], result)])
        elif e.kind == "end-turn":
            new, side, results = self._end_turn(self.state, d["side"])
            self.queued = []
            self.side = side
            self._commit(new, [(e.seq, "", r) for r in results])
        elif e.kind == "ask":
            self.answers.append(d)
        elif e.kind == "intervention":
            self._intervene(
                d["text"], Cell.parse(d["cell"]) if d.get("cell") else None, d.get("turns")
            )
        elif e.kind == "phase":
            self.phase = d["phase"]

    # --- export ---------------------------------------------------------------------------------

    def journal_text(self, lang: Lang = "ru") -> str:
        """The journal as the seeds keep it on paper: turn by turn, order and outcome."""
        words = {
            "ru": ("Ход", "итог", "вопрос", "ответ", "посредник"),
            "en": ("Turn", "result", "question", "answer", "mediator"),
        }[lang]
        lines = [f"«{self.scenario.name}» — {'уровень' if lang == 'ru' else 'level'} {self.level}"]
        turn = 0
        for _, t, side, r in self.results:
            if t != turn:
                turn = t
                lines.append(f"\n{words[0]} {t}")
            who = f"{side_name(side, lang, capital=True)}: " if side else ""
            lines.append(f"  {who}{r.order}  →  {r.outcome(lang)}")
        for a in self.answers:
            lines.append(
                f"  [{words[2]}, {side_name(a['side'], lang)}, {a['turn']}] {a['question']}"
                f"  →  {_answer(a, lang)}"
            )
        for t, text in self.interventions:
            lines.append(f"  [{words[4]}, {t}] {text}")
        return "\n".join(lines)

    def journal_json(self) -> list[dict[str, Any]]:
        return [e.body() for e in self.journal.entries]


def _answer(a: dict[str, Any], lang: Lang) -> str:
    answer = a["answer"]
    return str(answer[lang]) if isinstance(answer, dict) else str(answer)


def _rules(sc: Scenario, level: int, houses: list[str], path: Path) -> RuleSet:
    """The game's rules: the scenario's ruleset at the game's level, with the house rules the
    header keeps (their text, so a game file is whole on its own)."""
    rules = load_ruleset(sc.settings.ruleset, level=level)
    for n, text in enumerate(houses):
        rules = apply_house_text(rules, text, f"{path.name} (house rules {n + 1})")
    return rules
