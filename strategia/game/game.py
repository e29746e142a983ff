"""A game: a scenario played turn by turn, every command committed to its store before it shows.

The store is the game (`strategia.game.store`): each command first catches up with what other
writers (the console, a command line, a team's screen) appended, then computes and writes its
entries in one transaction, so no command is ever computed against a stale state. Randomness
(the false answers of reconnaissance, 8.3) is drawn from a secret seed drawn when the game is
created, never from the scenario's seed, which the players may hold.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TypeVar

from strategia.core.collector import collector_paused
from strategia.core.errors import InactiveRuleError, Problem, RuleDataError, unreadable
from strategia.core.i18n import Lang, Text
from strategia.engine import flow, refusals
from strategia.engine.apply import acting_unit, apply
from strategia.engine.result import Result
from strategia.engine.state import GameState
from strategia.explain.render import rule_label
from strategia.explain.trace import Explained, heads_only
from strategia.game import losses, textform, war_news
from strategia.game.clock import check_clock_level
from strategia.game.history import GameError, game_rules
from strategia.game.knowledge import side_question
from strategia.game.mediation import Mediation
from strategia.game.order_words import order_in, question_in
from strategia.game.past import move_start
from strategia.game.review import review
from strategia.game.salvage import put_back, salvage
from strategia.game.scoring import score
from strategia.game.side_context import side_context
from strategia.game.sqlite_file import remove_file
from strategia.game.store import FORMAT, GameStore, StoreError
from strategia.notation.orders import parse_order
from strategia.rules import RuleSet
from strategia.rules.kinds import side_name
from strategia.rules.load import apply_house_text
from strategia.theatre.scenario import Scenario
from strategia.theatre.scenario_io import format_scenario, load_scenario

PHASES = ("deployment", "combat", "peace")  # 1.5: planning is done in the scenario
# the mediator's mark on an order 9.3 cut to nothing at all (the player is not told: 9.3)
NOTHING = Text("cut to nothing (9.3)", "сокращен до нуля (9.3)")
T = TypeVar("T")

__all__ = ["NOTHING", "PHASES", "Game", "GameError"]


class Game(Mediation):
    """A game in progress: its store (`journal`), rules, current state and what it recorded."""

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
        clock: bool | None = None,
        clock_minutes: float | None = None,
        computer: dict[str, dict[str, Any]] | None = None,
        durable: bool = True,
    ) -> Game:
        """A new game file of `scenario` at `path`. The scenario and the house rules are
        checked before anything is written; `seed` overrides the secret seed (for tests).
        `clock` plays with clocks (1.9; default: the scenario's setting), each move having the
        level's time from the rules, or `clock_minutes` if given. `computer`: the sides a
        computer player plays, each with its settings (`strategia.players`: style, posture),
        kept in the header. `durable=False`: its commands are not synced to the disk (a game
        played in a sweep, `strategia.game.store`)."""
        with collector_paused():
            return cls._new(
                scenario, path, level, seed, house, limit_interventions, (clock, clock_minutes),
                computer, durable,
            )  # fmt: skip

    @classmethod
    def _new(
        cls,
        scenario: str | Path | Scenario,
        path: str | Path,
        level: int | None,
        seed: int | None,
        house: list[str] | None,
        limit_interventions: bool,
        clocks: tuple[bool | None, float | None] = (None, None),
        computer: dict[str, dict[str, Any]] | None = None,
        durable: bool = True,
    ) -> Game:
        from strategia import __version__

        sc = scenario if isinstance(scenario, Scenario) else load_scenario(scenario)
        level = level or sc.settings.level
        if level not in (1, 2, 3):
            raise GameError(
                f"level {level!r}: expected 1, 2 or 3 (rule 0.2)",
                ru=f"уровень {level!r}: нужен 1, 2 или 3 (правило 0.2)",
            )
        houses = [_read_house(Path(h)) for h in house or []]
        rules = game_rules(sc, level, [], str(path))
        for name, text in houses:
            rules = apply_house_text(rules, text, name)
        if level == 3 and not sc.settings.mediator:
            raise GameError(
                f"{sc.name}: level 3 without a mediator is impossible (1.4: «Игра на 3-м уровне "
                "игры без посредника невозможна», as some information must be hidden from the "
                "players); play it at level 1 or 2, or with a mediator",
                ru=f"{sc.name}: игра на 3-м уровне без посредника невозможна (1.4: «в силу "
                "необходимости сокрытия ряда информации от играющих»); играйте на 1-2 уровне "
                "или с посредником",
            )
        minutes = clocks[1] if clocks[1] is not None else sc.settings.clock_minutes
        clock = clocks[0] if clocks[0] is not None else (minutes > 0 or clocks[1] is not None)
        _check_clock(rules, clock, minutes)
        header = {
            "format": FORMAT,
            "game": "strategic",
            "scenario": format_scenario(sc),
            "scenario_name": sc.name,
            "level": level,
            "seed": secrets.randbits(63) if seed is None else seed,
            "house": [text for _, text in houses],
            "house_files": [name for name, _ in houses],
            "clock": clock,
            "clock_minutes": minutes,
            "mediator": sc.settings.mediator,
            "limit_interventions": limit_interventions,
            "engine": __version__,
            "rules": {"ruleset": rules.name, "digest": rules.digest()},
        }
        if computer:
            header["computer"] = _computer_sides(sc, computer)
        store = GameStore.create(path, header, durable=durable)
        try:
            g = cls._begin(store)
            with store.transaction():
                store.put_snapshot(1, g._verified_snapshot())
            return g
        except BaseException:
            store.close()
            remove_file(Path(path))
            raise

    @classmethod
    def open(
        cls,
        path: str | Path,
        recover: bool = False,
        upto: int | None = None,
        verify: bool = False,
    ) -> Game:
        """A saved game, from its newest snapshot (up to entry `upto` if given): only the entries
        from that snapshot on are read, the earlier moves' records when asked for (`results`,
        `answers`, `interventions`). `verify` reads and re-derives every entry from the scenario
        and lists each difference in `replay_problems`; `recover` first checks every entry and
        rebuilds a damaged file from its good part (the damage found, and where the damaged
        file is kept, are in `replay_problems`)."""
        if recover:
            try:
                with GameStore.open(path) as store:
                    store.read_all()  # the earlier entries too
                    damaged = bool(store.problems)
            except StoreError:
                damaged = True
            if damaged:
                return cls._recover(Path(path))
        with collector_paused():
            store = GameStore.open(path)
            try:
                return cls._load(store, upto, verify)
            except BaseException:
                store.close()
                raise

    @classmethod
    def import_text(cls, source: str | Path, path: str | Path, recover: bool = False) -> Game:
        """A game file made from a text journal (`export`'s, or a first version's game file):
        the entries as they are, the snapshots re-derived, every difference in
        `replay_problems`. A damaged journal is refused, or with `recover` cut before the damage."""
        store, problems = textform.import_journal(source, path, recover)
        try:
            return cls._rebuild(store, [str(p) for p in problems])
        except BaseException:
            store.close()
            remove_file(Path(path))
            raise

    def export_text(self, path: str | Path) -> int:
        """Write the game's journal as text (JSON lines, every entry with its checksum)."""
        self.refresh()
        textform.write(path, self.journal.entries)
        return len(self.journal.entries)

    @classmethod
    def _rebuild(cls, store: GameStore, notes: list[str]) -> Game:
        """Re-derive a game from its entries, comparing, and keep a snapshot after every End
        turn (the game of an import or a recovery)."""
        with store.transaction():
            g = cls._load(store, keep=True)
        g.replay_problems = notes + g.replay_problems
        return g

    @classmethod
    def _recover(cls, path: Path) -> Game:
        header, entries, problems, aside = salvage(path)
        if header is None:
            raise StoreError(path, problems)
        store = GameStore.create(path, header.data, time=header.time)
        try:
            with store.transaction():
                for e in entries:
                    store.append(e.kind, e.data, time=e.time)
            notes = [str(p) for p in problems] + [f"the damaged file is kept as {aside}"]
            return cls._rebuild(store, notes)
        except BaseException:  # put the damaged file back as it was
            store.close()
            remove_file(path)
            put_back(aside, path)
            raise

    def refresh(self) -> Game:
        """Catch up with the entries other writers appended since this game last looked."""
        self._take(self.journal.refresh())
        return self

    # --- commands: each catches up, computes, writes its entries, then takes effect ------------

    def order(
        self,
        text: str,
        side: str | None = None,
        at: int | None = None,
        seen_as: str | None = None,
        turn: int | None = None,
    ) -> Result | None:
        """Give an order in journal notation; at level 3 it waits for `end_turn` (returns None),
        sealed for the turn in progress. `at`: the position it was decided on, by the mediator
        or the side `seen_as` (`Commands._command`); `turn`: the turn whose move it is for
        (refused once that move is over)."""

        def body() -> Result | None:
            self._playing()
            known = self.known_side(side) if side is not None else None
            if turn is not None:
                self._move_is(known, turn)
            # a side's order is read against its own units only (1.6: no free probing)
            order = parse_order(text, side_context(self.state, known) if known else self.state)
            owner = self._side_of_order(order)
            who = known or owner
            self._on_time(who, text)
            if self.simultaneous:
                refusals.at_once(self.state, order, acting_unit(order), self.rules)  # never
                if who != owner:  # the same words whether the unit is the enemy's or nobody's
                    raise GameError(
                        f"{text}: {side_name(who, 'en')} has no unit {order.unit} on the map",
                        ru=f"{text}: у {side_name(who, 'ru', 'gen')} нет {order.unit} на карте",
                    )
                entry = self.journal.append(
                    "order",
                    {"side": who, "order": order.format("ru"), "queued": True,
                     "turn": self.state.turn},
                )  # fmt: skip
                self.queued.append((entry.seq, who, order))
                return None
            if who != self.side:
                raise GameError(
                    f"{text}: it is {side_name(self.side, 'en')}'s move, "
                    f"not {side_name(who, 'en')}'s (1.7)",
                    ru=f"{text}: сейчас ходят {side_name(self.side)}, а не {side_name(who)} (1.7)",
                )
            with heads_only(self._heads()):
                new, result = apply(self.state, order, self.rules, who)
            entry = self.journal.append(
                "order", {"side": who, "order": order.format("ru"), "result": result.to_record()}
            )
            return self._commit(new, [(entry.seq, who, result)], self._heads())[0]

        return self._command(body, at, seen_as)

    def end_turn(
        self, at: int | None = None, side: str | None = None, turn: int | None = None
    ) -> list[Result]:
        """End the side's move (levels 1-2) or carry out every side's orders (level 3); the
        game after it is kept as a snapshot. `side` and `turn`: the move it is meant to end,
        refused (`StaleError`) if that move is over (a second End turn ends nothing)."""

        def body() -> list[Result]:
            self._playing()
            self._move_is(side, turn)
            with heads_only(self._heads()):
                new, nxt, results = self._end_turn(self.state, self.side)
            entry = self.journal.append(
                "end-turn",
                {
                    "side": self.side,
                    "turn_after": new.turn,
                    "next": nxt,
                    "results": [r.to_record() for r in results],
                },
            )
            self.queued = []
            self.side = nxt
            results = self._commit(new, [(entry.seq, "", r) for r in results], self._heads())
            self.journal.put_snapshot(entry.seq, self._verified_snapshot())
            self._moved_on(entry.seq)
            return results

        return self._command(body, at)

    def ask(
        self,
        side: str,
        text: str,
        lie: bool | None = None,
        at: int | None = None,
        seen_as: str | None = None,
        turn: int | None = None,
    ) -> dict[str, Any]:
        """A reconnaissance question (8.3) of `side` (asked by it, or by the mediator for it),
        recorded with its truth (for the mediator only) and the mediator's choice of a false
        answer, if made. It is read against what the side knows (`strategia.game.knowledge`).
        `turn`: the turn whose move it is asked in (refused once that move is over)."""
        from strategia.game import recon

        def body() -> dict[str, Any]:
            who = self.known_side(side)
            if turn is not None:
                self._move_is(who, turn)
            # read against what the side knows, never the whole state (1.6): any designation
            # is asked about and paid for, a nonexistent one answered «не обнаружена»
            q = side_question(text, self.state, who, self.rules, self.result_values())
            history = [a for a in self.answers if a["side"] == who]
            answered = recon.ask(
                self.state, who, q, self.rules, history=history, seed=self.seed, lie=lie
            )
            data = {"side": who, "turn": self.state.turn, **answered.value.to_json(for_side=False)}
            if lie is not None:
                data["lie"] = lie
            entry = self.journal.append("ask", data)
            self._answers.append((entry.seq, data))
            return data

        return self._command(body, at, seen_as)

    def decide(
        self,
        side: str,
        reason: dict[str, Any],
        text: str | None = None,
        at: int | None = None,
        move: int | None = None,
    ) -> Result | None:
        """A computer player's decision (`strategia.players`): its order if it gives one, and
        its goal and reason kept beside it (a "decision" entry) in the same command. Replay
        carries the order out and passes the decision by; the mediator's journal shows it.
        `move`: the turn whose move the player decided for (refused once that move is over)."""

        def body() -> Result | None:
            who = self.known_side(side)
            if move is not None:
                self._move_is(who, move)
            turn = self.state.turn
            r = self.order(text, who) if text is not None else None
            data: dict[str, Any] = {"side": who, "turn": turn, **reason}
            if text is not None:
                data["order"] = text
                data["of"] = self.journal.last_seq
            self.journal.append("decision", data)
            return r

        return self._command(body, at, side)

    def orders(self, texts: Sequence[str], side: str | None = None) -> list[Result | None]:
        """Several orders as one command (a side's orders for the turn): every one is written
        and synced once, or, if one is refused, none is (its error says which)."""
        return self._command(lambda: [self.order(text, side) for text in texts])

    # --- reading --------------------------------------------------------------------------------

    def state_at(self, turn: int) -> GameState:
        """The state at the start of `turn` (its first side's move), from its snapshot."""
        if not 1 <= turn <= self.state.turn:
            raise GameError(
                f"turn {turn}: this game has turns 1 to {self.state.turn}",
                ru=f"ход {turn}: в этой игре ходы с 1 по {self.state.turn}",
            )
        if turn == 1:
            return self.start
        first = flow.sides_in_order(self.state, self.rules)[0]
        seq = move_start(self.journal, turn, first, self._turns)
        return self.state if seq is None else Game._load(self.journal, seq).state

    def score(self, side: str, penalties: float = 0.0) -> Explained[float]:
        """The side's score now (1.1, reconstructed): its losses and its enemies' from the
        journal's records (`strategia.game.losses`), the ground it holds, `penalties` (9.3)."""
        lost = losses.total(self.result_values(), self.rules)
        return score(self.state, side, self.rules, lost, penalties)

    def review(self) -> dict[str, Explained[float]]:
        """Without a mediator (6.3, 9.3): the orders checked after the game, per side."""
        return review(self.results, self.rules)

    # --- export ---------------------------------------------------------------------------------

    def journal_text(self, lang: Lang = "ru") -> str:
        """The journal as the seeds keep it on paper: turn by turn, order and outcome."""
        words = {
            "ru": ("Ход", "итог", "вопрос", "ответ", "посредник", "решение"),
            "en": ("Turn", "result", "question", "answer", "mediator", "decision"),
        }[lang]
        lines = [f"«{self.scenario.name}» — {'уровень' if lang == 'ru' else 'level'} {self.level}"]
        turn = 0
        news: dict[int, list[str]] = {}
        for n in war_news.news(self):
            news.setdefault(n.seq, []).append(f"  [{words[4]}, {n.turn}] {n.text(lang)}")
        results = self.results
        decided = self.decisions()
        for k, (seq, t, side, r) in enumerate(results):
            while decided and decided[0][0] < seq:  # a computer's reasons, after its order
                d = decided.pop(0)[1]
                if int(d.get("turn", turn)) != turn:
                    turn = int(d["turn"])
                    lines.append(f"\n{words[0]} {turn}")
                lines += _decision_lines(d, words[5], lang)
            if t != turn:
                turn = t
                lines.append(f"\n{words[0]} {t}")
            who = f"{side_name(side, lang, capital=True)}: " if side else ""
            nothing = ""
            if r.cut_to_nothing:  # the mediator's: why, and by which rule
                why = r.cuts[0]
                nothing = f"  [{NOTHING(lang)}: {why.reason(lang)} ({rule_label(why.rule, lang)})]"
            lines.append(f"  {who}{order_in(r.order, lang)}  →  {r.outcome(lang)}{nothing}")
            if k + 1 == len(results) or results[k + 1][0] != seq:
                lines += news.pop(seq, [])
        lines += [x for more in news.values() for x in more]
        for _, d in decided:
            lines += _decision_lines(d, words[5], lang)
        for a in self.answers:
            lines.append(
                f"  [{words[2]}, {side_name(a['side'], lang)}, {a['turn']}] "
                f"{question_in(a['question'], lang)}"
                f"  →  {_answer(a, lang)}"
            )
        for t, text in self.interventions:
            lines.append(f"  [{words[4]}, {t}] {text}")
        return "\n".join(lines)

    def journal_json(self) -> list[dict[str, Any]]:
        """The entries (the secret seed left out: `export_text` keeps it)."""
        out = [e.body() for e in self.journal.entries]
        out[0] = {**out[0], "data": {**out[0]["data"], "seed": "secret"}}
        return out


def _decision_lines(d: dict[str, Any], word: str, lang: Lang) -> list[str]:
    """A computer player's decision as the mediator's journal shows it."""
    return [f"  [{word}, {side_name(str(d['side']), lang)}] {d['text'][lang]}"]


def _computer_sides(sc: Scenario, computer: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The computer's sides as the header keeps them: each a side of the scenario."""
    from strategia.rules.kinds import Side

    present = {s.side for s in sc.states}
    out: dict[str, Any] = {}
    for name, settings in computer.items():
        found = Side.find(name)
        if found is None or found.key not in present:
            raise GameError(
                f"--computer {name}: this scenario's sides are {', '.join(sorted(present))}",
                ru=f"--computer {name}: в этом сценарии стороны "
                f"{', '.join(side_name(s) for s in sorted(present))}",
            )
        out[found.key] = dict(settings)
    return out


def _answer(a: dict[str, Any], lang: Lang) -> str:
    answer = a["answer"]
    return str(answer[lang]) if isinstance(answer, dict) else str(answer)


def _read_house(path: Path) -> tuple[str, str]:
    try:
        return str(path), path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:  # a binary file too: said in the reader's words
        en, ru = unreadable(e)
        raise RuleDataError(str(path), [Problem(str(path), en, ru=ru)]) from None


def _check_clock(rules: RuleSet, clock: bool, minutes: float) -> None:
    if not isinstance(minutes, int | float) or not 0 <= minutes <= 120:
        raise GameError(
            f"clock minutes {minutes!r}: expected 0 (the level's time) to 120",
            ru=f"часы: {minutes!r} мин — нужно от 0 (время уровня) до 120",
        )
    if not clock:
        return
    try:
        check_clock_level(rules)
    except InactiveRuleError:
        raise GameError(
            "clocks are played at levels 2 and 3 (1.9)",
            ru="с часами играют на 2 и 3 уровнях (1.9)",
        ) from None
