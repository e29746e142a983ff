"""A game: a scenario played turn by turn, every command committed to its store before it shows.

The store is the game (`strategia.game.store`): each command first catches up with what other
writers (the console, a command line, a team's screen) appended, then computes and writes its
entries in one transaction, so no command is ever computed against a stale state. Randomness
(the false answers of reconnaissance, 8.3) is drawn from a secret seed drawn when the game is
created, never from the scenario's seed, which the players may hold.
"""

from __future__ import annotations

import datetime as dt
import os
import secrets
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from strategia.core.collector import collector_paused
from strategia.core.errors import Problem, RuleDataError
from strategia.core.geometry import Cell
from strategia.core.i18n import Lang
from strategia.engine import flow
from strategia.engine.apply import apply
from strategia.engine.result import OrderError, Result
from strategia.engine.state import GameState
from strategia.explain.trace import Explained
from strategia.game import textform
from strategia.game.history import GameError, History, game_rules
from strategia.game.questions import parse_question
from strategia.game.review import review
from strategia.game.salvage import salvage
from strategia.game.scoring import score
from strategia.game.sqlite_file import remove_file
from strategia.game.store import FORMAT, Entry, GameStore, StoreError
from strategia.game.views import side_context
from strategia.notation.orders import Order, parse_order
from strategia.notation.refs import IllegalNotationError
from strategia.rules.kinds import Side, side_name
from strategia.rules.load import apply_house_text
from strategia.theatre import terrain
from strategia.theatre.scenario import Scenario
from strategia.theatre.scenario_io import format_scenario, load_scenario

PHASES = ("deployment", "combat", "peace")  # 1.5: planning is done in the scenario
T = TypeVar("T")

__all__ = ["PHASES", "Game", "GameError"]


class Game(History):
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
    ) -> Game:
        """A new game file of `scenario` at `path`. The scenario and the house rules are
        checked before anything is written; `seed` overrides the secret seed (for tests)."""
        with collector_paused():
            return cls._new(scenario, path, level, seed, house, limit_interventions)

    @classmethod
    def _new(
        cls,
        scenario: str | Path | Scenario,
        path: str | Path,
        level: int | None,
        seed: int | None,
        house: list[str] | None,
        limit_interventions: bool,
    ) -> Game:
        from strategia import __version__

        sc = scenario if isinstance(scenario, Scenario) else load_scenario(scenario)
        level = level or sc.settings.level
        if level not in (1, 2, 3):
            raise GameError(f"level {level!r}: expected 1, 2 or 3 (rule 0.2)")
        houses = [_read_house(Path(h)) for h in house or []]
        rules = game_rules(sc, level, [], str(path))
        for name, text in houses:
            rules = apply_house_text(rules, text, name)
        header = {
            "format": FORMAT,
            "game": "strategic",
            "scenario": format_scenario(sc),
            "scenario_name": sc.name,
            "level": level,
            "seed": secrets.randbits(63) if seed is None else seed,
            "house": [text for _, text in houses],
            "house_files": [name for name, _ in houses],
            "clock_minutes": sc.settings.clock_minutes,
            "mediator": sc.settings.mediator,
            "limit_interventions": limit_interventions,
            "engine": __version__,
            "rules": {"ruleset": rules.name, "digest": rules.digest()},
        }
        store = GameStore.create(path, header)
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
        """A saved game, from its newest snapshot (up to entry `upto` if given). `verify`
        re-derives every entry from the scenario and lists each difference in
        `replay_problems`; `recover` first rebuilds a damaged file from its good part (the
        damage found, and where the damaged file is kept, are in `replay_problems`)."""
        if recover:
            try:
                with GameStore.open(path) as store:
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
            os.replace(aside, path)
            if Path(f"{aside}-wal").exists():
                os.replace(Path(f"{aside}-wal"), Path(f"{path}-wal"))
            raise

    def refresh(self) -> Game:
        """Catch up with the entries other writers appended since this game last looked."""
        self._take(self.journal.refresh())
        return self

    # --- commands: each catches up, computes, writes its entries, then takes effect ------------

    def _command(self, body: Callable[[], T]) -> T:
        """Run a command in one write transaction: what others appended is taken in first;
        if anything fails, nothing is written and this game is as it was. (A command within
        another is part of it.)"""
        if self.journal.in_transaction:
            return body()
        saved: dict[str, Any] | None = None
        try:
            with collector_paused(), self.journal.transaction() as new:
                self._take(new)
                saved = {k: list(v) if isinstance(v, list) else v for k, v in self.__dict__.items()}
                out = body()
                self.seen = self.journal.last_seq
            return out
        except BaseException:
            if saved is not None:
                self.__dict__.update(saved)
            raise

    def order(self, text: str, side: str | None = None) -> Result | None:
        """Give an order in journal notation; at level 3 it waits for `end_turn` (returns None)."""

        def body() -> Result | None:
            self._playing()
            known = self.known_side(side) if side else None
            # a side's order is read against its own units only (1.6: no free probing)
            order = parse_order(text, side_context(self.state, known) if known else self.state)
            owner = self._side_of_order(order)
            who = known or owner
            if self.simultaneous:
                if who != owner:  # the same words whether the unit is the enemy's or nobody's
                    raise GameError(
                        f"{text}: {who} has no unit {order.unit} on the map",
                        ru=f"{text}: у {side_name(who, 'ru', 'gen')} нет {order.unit} на карте",
                    )
                entry = self.journal.append(
                    "order", {"side": who, "order": order.format("ru"), "queued": True}
                )
                self.queued.append((entry.seq, who, order))
                return None
            if who != self.side:
                raise GameError(
                    f"{text}: it is {self.side}'s move, not {who}'s (1.7)",
                    ru=f"{text}: сейчас ходят {side_name(self.side)}, а не {side_name(who)} (1.7)",
                )
            new, result = apply(self.state, order, self.rules, who)
            entry = self.journal.append(
                "order", {"side": who, "order": order.format("ru"), "result": result.to_record()}
            )
            self._commit(new, [(entry.seq, who, result)])
            return result

        return self._command(body)

    def end_turn(self) -> list[Result]:
        """End the side's move (levels 1-2) or carry out every side's orders (level 3); the
        game after it is kept as a snapshot."""

        def body() -> list[Result]:
            self._playing()
            new, side, results = self._end_turn(self.state, self.side)
            entry = self.journal.append(
                "end-turn",
                {
                    "side": self.side,
                    "turn_after": new.turn,
                    "next": side,
                    "results": [r.to_record() for r in results],
                },
            )
            self.queued = []
            self.side = side
            self._commit(new, [(entry.seq, "", r) for r in results])
            self.journal.put_snapshot(entry.seq, self._verified_snapshot())
            return results

        return self._command(body)

    def ask(self, side: str, text: str, lie: bool | None = None) -> dict[str, Any]:
        """A reconnaissance question (8.3), recorded with its truth (for the mediator only) and
        the mediator's choice of a false answer, if made."""
        from strategia.game import recon

        def body() -> dict[str, Any]:
            who = self.known_side(side)
            q = parse_question(text, self.state)
            history = [a for a in self.answers if a["side"] == who]
            answered = recon.ask(
                self.state, who, q, self.rules, history=history, seed=self.seed, lie=lie
            )
            data = {"side": who, "turn": self.state.turn, **answered.value.to_json(for_side=False)}
            if lie is not None:
                data["lie"] = lie
            self.journal.append("ask", data)
            self.answers.append(data)
            return data

        return self._command(body)

    def intervene(self, text: str, cell: Cell | None = None, turns: int | None = None) -> str:
        """A mediator's input (9.4): a note, or weather closing the road at `cell` for `turns`."""

        def body() -> str:
            self._playing()
            self._check_intervention(text, cell, turns)
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

        return self._command(body)

    def submitted(self) -> list[dict[str, Any]]:
        """The orders sealed for this turn (level 3), as the mediator sees them: entry, side,
        order (as amended), when it was given, and the mediator's notes on it."""
        notes: dict[int, list[str]] = {}
        for e in self.journal.entries:
            if e.kind in ("reject", "amend"):
                notes.setdefault(int(e.data["of"]), []).append(str(e.data.get("note", "")))
        times = {e.seq: e.time for e in self.journal.entries if e.kind == "order"}
        return [
            {"seq": seq, "side": side, "order": order.format("ru"), "time": times.get(seq, ""),
             "notes": notes.get(seq, [])}
            for seq, side, order in self.queued
        ]  # fmt: skip

    def reject(self, seq: int, note: str) -> None:
        """The mediator rejects a sealed order (level 3), with a note the side is told."""
        self._settle_command(seq, None, note)

    def amend(self, seq: int, text: str, note: str) -> None:
        """The mediator amends a sealed order (level 3) to `text`, with a note the side is told."""
        self._settle_command(seq, text, note)

    def _settle_command(self, seq: int, text: str | None, note: str) -> None:
        def body() -> None:
            self._playing()
            if not note.strip():
                raise GameError(
                    "a note is needed: the side is told why",
                    ru="нужна пометка: сторона узнает почему",
                )
            sealed = {s: (side, o) for s, side, o in self.queued}
            if seq not in sealed:
                raise GameError(
                    f"entry {seq}: no order sealed for this turn",
                    ru=f"запись {seq}: такого приказа на этот ход нет",
                )
            data: dict[str, Any] = {"of": seq, "note": note}
            if text is not None:
                side = sealed[seq][0]
                order = parse_order(text, side_context(self.state, side))
                if self._side_of_order(order) != side:
                    raise GameError(
                        f"{text}: {side} has no unit {order.unit} on the map",
                        ru=f"{text}: у {side_name(side, 'ru', 'gen')} нет {order.unit} на карте",
                    )
                data["order"] = order.format("ru")
            self.journal.append("reject" if text is None else "amend", data)
            self._settle(seq, data.get("order"))

        self._command(body)

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

        def body() -> None:
            self._playing()
            last = self.undoable()
            if last is None:
                raise GameError(
                    "nothing to undo in this move: only the move's orders and interventions "
                    "can be taken back",
                    ru="в этом ходе нечего отменять: отменить можно только приказы и "
                    "вмешательства этого хода",
                )
            self.journal.append("undo", {"of": last.seq})
            fresh = Game._load(self.journal)
            self.__dict__.update(fresh.__dict__)

        self._command(body)

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

        def body() -> None:
            self._playing()
            self.journal.append("phase", {"phase": "peace"})
            self.phase = "peace"

        self._command(body)

    def orders(self, texts: Sequence[str], side: str | None = None) -> list[Result | None]:
        """Several orders as one command (a side's orders for the turn): every one is written
        and synced once, or, if one is refused, none is (its error says which)."""
        return self._command(lambda: [self.order(text, side) for text in texts])

    # --- reading --------------------------------------------------------------------------------

    def state_at(self, turn: int) -> GameState:
        """The state at the start of `turn` (its first side's move), from its snapshot."""
        if not 1 <= turn <= self.state.turn:
            raise GameError(f"turn {turn}: this game has turns 1 to {self.state.turn}")
        if turn == 1:
            return self.start
        first = flow.sides_in_order(self.state, self.rules)[0]
        for e in self.journal.entries:
            if (
                e.kind == "end-turn"
                and e.data.get("turn_after") == turn
                and e.data.get("next") == first
            ):
                return Game._load(self.journal, e.seq).state
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

    # --- checks -----------------------------------------------------------------------------------

    def _playing(self) -> None:
        if self.phase == "peace":
            raise GameError(
                "the game is over: peace talks (1.5)", ru="игра окончена: мирные переговоры (1.5)"
            )

    def known_side(self, side: str) -> str:
        """`side` as the game keeps it ("Blue", "синие" and "blue" are one side)."""
        sides = flow.sides_in_order(self.state, self.rules)
        key = found.key if (found := Side.find(side)) is not None else side
        if key not in sides:
            raise GameError(
                f"side {side!r}: this game's sides are {', '.join(sides)}",
                ru=f"сторона «{side}»: в этой игре {', '.join(side_name(s) for s in sides)}",
            )
        return key

    def _side_of_order(self, order: Order) -> str:
        if order.unit in self.state.units:
            return self.state.side_of(order.unit)
        members = [u for u in self.state.units.values() if u.corps == order.unit]
        if members:
            return self.state.side_of(members[0].ref)
        raise OrderError(
            f"{order}: {order.unit} is not on the map", ru=f"{order}: {order.unit} нет на карте"
        )

    def _check_intervention(self, text: str, cell: Cell | None, turns: int | None) -> None:
        if not text.strip():
            raise GameError("an intervention needs its text (what the mediator decides)")
        if cell is not None and not terrain.on_map(self.state.theatre, cell):
            w, h = terrain.size(self.state.theatre)
            raise IllegalNotationError(
                str(cell), f"cell off the map, which is {w} x {h}", 1, f"longitude 1..{w}"
            )
        if turns is not None and not (isinstance(turns, int) and 1 <= turns <= 1000):
            raise GameError(f"--turns {turns!r}: expected a whole number of turns from 1 to 1000")

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
        """The entries (the secret seed left out: `export_text` keeps it)."""
        out = [e.body() for e in self.journal.entries]
        out[0] = {**out[0], "data": {**out[0]["data"], "seed": "secret"}}
        return out


def _answer(a: dict[str, Any], lang: Lang) -> str:
    answer = a["answer"]
    return str(answer[lang]) if isinstance(answer, dict) else str(answer)


def _read_house(path: Path) -> tuple[str, str]:
    try:
        return str(path), path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        why = e.strerror if isinstance(e, OSError) else str(e)
        raise RuleDataError(str(path), [Problem(str(path), why or str(e))]) from None
