"""What a game's journal says happened: the state its entries lead to.

A game is loaded from its newest snapshot (kept at every End turn) and the entries after it;
the results, answers and interventions of earlier entries are read as the journal recorded
them, not recomputed, and only when asked for (`strategia.game.past`): opening a long game
costs what its last move does, in time and memory. `verify` re-derives everything from the
scenario instead: every result, every answer (with the game's secret seed and the mediator's
recorded choices) and every snapshot is computed again and compared with what the file holds;
each difference is a line of `replay_problems`.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Self

from strategia.core.collector import collector_paused
from strategia.core.errors import Problem, StrategiaError
from strategia.core.geometry import Cell
from strategia.engine import flow
from strategia.engine.apply import apply
from strategia.engine.result import Result
from strategia.engine.snapshot import SnapshotError, state_from_json, state_to_json
from strategia.engine.state import GameState, initial_state
from strategia.explain.trace import Folded, Step, heads_only
from strategia.game import past, replay_check
from strategia.game.past import Asked, Note, ResultRow
from strategia.game.store import Entry, GameStore, StoreError
from strategia.notation.orders import Order, parse_order
from strategia.rules import RuleSet, load_ruleset
from strategia.rules.load import apply_house_text
from strategia.theatre.scenario import Scenario
from strategia.theatre.scenario_io import parse_scenario

SNAPSHOT_FORMAT = 1
Begun = tuple[Scenario, RuleSet, GameState, str]


class GameError(StrategiaError):
    """A game command that cannot be carried out now (wrong side, the game is over...)."""


@dataclass
class History:
    """A game's state and what its journal recorded, up to entry `seen`."""

    journal: GameStore
    scenario: Scenario
    rules: RuleSet
    state: GameState
    start: GameState
    side: str = ""
    phase: str = "deployment"
    queued: list[tuple[int, str, Order]] = field(default_factory=list)
    replay_problems: list[str] = field(default_factory=list)
    seen: int = 1  # the last entry taken into account
    # the records of the entries up to `_base` are left in the file, each list's until read
    _base: int = 1
    _results: list[ResultRow] = field(default_factory=list)
    _answers: list[Asked] = field(default_factory=list)
    _notes: list[Note] = field(default_factory=list)
    _read_results: bool = False  # `results` was asked for: from then on every one is kept
    _read_answers: bool = False
    _read_notes: bool = False
    # the End turns read: the turn and side to move each led to
    _turns: dict[int, tuple[int, str]] = field(default_factory=dict, repr=False, compare=False)
    # the last move whose explanations were worked out again: its results by entry
    _unfolded: dict[int, list[Result]] = field(default_factory=dict, repr=False, compare=False)
    # the engine keeps each result's whole explanation (a move carried out again to explain
    # it), not only its first step as the journal does (`heads_only`; the rest when read)
    _whole: bool = field(default=False, repr=False, compare=False)

    # --- what the journal recorded -------------------------------------------------------------

    @property
    def results(self) -> list[ResultRow]:
        """Every result so far, as (entry, turn, side, result), the side "" for an End turn's.
        Those of the moves before the game was opened (or before its last End turn) are read
        from the file the first time this is asked for, then kept: only a process that asks
        for the whole journal holds it in memory (see `strategia.game.past`)."""
        if not self._read_results:
            self._read_past()
        return self._results

    def result_values(self) -> Iterable[Result]:
        """The results, read only when iterated (for what may not need them at all)."""
        return _Results(self)

    @property
    def asked(self) -> list[Asked]:
        """Every answer recorded, as (entry, answer), the earlier moves' read when first asked
        for (through the store's index: the answers only)."""
        if not self._read_answers:
            if self._base > 1:
                self._answers[:0] = past.answers(self.journal, self._base)
            self._read_answers = True
        return self._answers

    @property
    def answers(self) -> list[dict[str, Any]]:
        """Every answer recorded (side, turn, question, answer, its truth, the mediator's
        choice): a new list each time."""
        return [d for _, d in self.asked]

    @property
    def notes(self) -> list[Note]:
        """The mediator's interventions in force, as (entry, turn, intervention)."""
        if not self._read_notes:
            if self._base > 1:
                self._notes[:0] = past.notes(self.journal, self._base, self._turns)
            self._read_notes = True
        return self._notes

    @property
    def interventions(self) -> list[tuple[int, str]]:
        """The interventions in force, as (turn, text): a new list each time."""
        return [(turn, str(d["text"])) for _, turn, d in self.notes]

    def turn_of(self, seq: int) -> int:
        """The turn entry `seq` was given in."""
        return past.turn_of(self.journal, seq, self._turns)

    def _read_past(self) -> None:
        """Read every record of the entries up to `_base` (those not read yet)."""
        results, answers, notes = (
            past.records(self.journal, self._base, self._unfolding)
            if self._base > 1
            else ([], [], [])
        )
        self._results[:0] = results
        if not self._read_answers:
            self._answers[:0] = answers
        if not self._read_notes:
            self._notes[:0] = notes
        self._read_results = self._read_answers = self._read_notes = True

    def _moved_on(self, seq: int) -> None:
        """After End turn `seq`: the records before it that nobody has read are left in the
        file, to be read again if asked for, so that a game held open does not grow."""
        self._base = seq
        if not self._read_results:
            self._results = [r for r in self._results if r[0] > seq]
        if not self._read_answers:
            self._answers = [a for a in self._answers if a[0] > seq]
        if not self._read_notes:
            self._notes = [n for n in self._notes if n[0] > seq]

    # --- loading -------------------------------------------------------------------------------

    @classmethod
    def _begin(cls, store: GameStore) -> Self:
        """The game at its start (entry 1): the scenario and rules of the header, mobilised."""
        sc, rules, state, side = _start(store)
        return cls(store, sc, rules, state, state, side)

    @classmethod
    def _load(
        cls, store: GameStore, upto: int | None = None, verify: bool = False, keep: bool = False
    ) -> Self:
        """The game after entry `upto` (the last if None): from the newest usable snapshot, or
        (`verify`) re-derived from the start and compared with everything the file holds; with
        `keep`, re-derived and a snapshot kept after every End turn (inside a transaction)."""
        g = cls._begin(store)
        upto = max(store.last_seq if upto is None else min(upto, store.last_seq), 1)
        entries: Iterable[Entry]
        if keep or verify:  # every entry read, in chunks
            undone = {int(store.entry(s).data["of"]) for s in store.seqs("undo") if s <= upto}
            entries = store.stream(1, upto)
            if keep:
                store.put_snapshot(1, g._verified_snapshot())
        else:
            g._base = g._from_snapshot(upto)
            entries = store.between(g._base, upto)
            undone = {int(e.data["of"]) for e in entries if e.kind == "undo"}
        snaps = set(store.snapshot_seqs()) if verify and not keep else set()
        for e in entries:
            if e.seq in undone:
                continue
            g._apply_entry(e)
            if keep and e.kind == "end-turn":
                store.put_snapshot(e.seq, g._verified_snapshot())
            elif e.seq in snaps:
                g.replay_problems += replay_check.snapshot(store, e.seq, g._snapshot())
            elif verify and not keep and e.kind == "end-turn":
                g.replay_problems.append(f"entry {e.seq}: no snapshot after this End turn")
        if verify or keep:
            g._read_results = g._read_answers = g._read_notes = True  # all replayed
            g.replay_problems += replay_check.versions(store.header, g.rules)
            g.replay_problems += [str(p) for p in store.problems]
        if verify and not keep:
            g.replay_problems += [str(p) for p in store.file_problems()]
            if store.acknowledged is None:
                g.replay_problems.append(
                    f"note: no count of acknowledged entries is kept beside {store.path.name} "
                    "(a copy made without it?): entries lost from its end could not be told"
                )
        g.seen = upto
        return g

    def state_after(self, seq: int) -> GameState:
        """The state after journal entry `seq`, from the newest snapshot before it."""
        if seq >= self.journal.last_seq:
            return self.state
        return type(self)._load(self.journal, seq).state

    def _from_snapshot(self, upto: int) -> int:
        """Take the newest snapshot at or before `upto`; returns the entry it was taken after
        (1: none usable, start from the scenario). (A snapshot after the last entry read is
        another writer's, of entries not yet read.)"""
        seqs = [s for s in self.journal.snapshot_seqs() if s <= upto]
        for seq in reversed([s for s in seqs if s > 1]):
            try:
                self._restore(self.journal.snapshot(seq))
            except (StoreError, SnapshotError) as err:
                self.journal.problems.append(_problem(self.journal, seq, err))
                continue
            return seq
        return 1

    def _take(self, new: list[Entry]) -> None:
        """Catch up with entries other writers appended (an undo among them: load again)."""
        if not new:
            return
        if any(e.kind == "undo" for e in new):
            self._reload()
            return
        for e in new:
            self._apply_entry(e)
        self.seen = new[-1].seq
        ends = [e.seq for e in new if e.kind == "end-turn"]
        if ends:
            self._moved_on(ends[-1])

    def _reload(self) -> None:
        """Load the game again from its newest snapshot (after an undo), keeping the records
        of its past already read (an undo takes back nothing before the move in progress)."""
        fresh = type(self)._load(self.journal)
        base = fresh._base
        for name in ("results", "answers", "notes"):
            if getattr(fresh, f"_read_{name}"):
                continue  # loading read its past already: adding ours would count it twice
            if getattr(self, f"_read_{name}"):
                kept = [x for x in getattr(self, f"_{name}") if x[0] <= base]
                getattr(fresh, f"_{name}")[:0] = kept
                setattr(fresh, f"_read_{name}", True)
        fresh._turns = self._turns
        self.__dict__.update(fresh.__dict__)

    # --- the effect of each entry ----------------------------------------------------------------

    def _apply_entry(self, e: Entry) -> None:
        """Carry an entry out again on the state, comparing what it computes with the record."""
        d, where = e.data, f"entry {e.seq}"
        try:
            if e.kind == "order":
                order = parse_order(d["order"], self.state)
                if d.get("queued"):
                    self.queued.append((e.seq, d["side"], order))
                    return
                heads = self._heads([d["result"]])
                with heads_only(heads):
                    new, result = apply(self.state, order, self.rules, d["side"])
                if replay_check.journaled(result, d["result"]) != d["result"]:
                    self.replay_problems.append(
                        f"{where}: {d['order']}: the result differs on replay"
                    )
                self._commit(new, [(e.seq, d["side"], result)], heads)
            elif e.kind == "end-turn":
                heads = self._heads(d.get("results", []))
                with heads_only(heads):
                    new, side, results = self._end_turn(self.state, d["side"])
                self.replay_problems += replay_check.end_turn(e, new, side, results)
                self.queued = []
                self.side = side
                self._commit(new, [(e.seq, "", r) for r in results], heads)
            elif e.kind == "ask":
                try:
                    self.replay_problems += replay_check.answer(
                        e, self.state, self.rules, self.seed, self.answers
                    )
                finally:
                    self._answers.append((e.seq, d))
            elif e.kind == "intervention":
                self._intervene(e.seq, d)
            elif e.kind == "phase":
                self.phase = d["phase"]
            elif e.kind in ("reject", "amend"):
                self._settle(int(d["of"]), d.get("order"))
            elif e.kind not in ("undo", "extend", "decision", "computer", "claim"):
                self.replay_problems.append(f"{where}: unknown kind of entry {e.kind!r}")
        except (StrategiaError, KeyError, TypeError) as err:
            self.replay_problems.append(f"{where} ({e.kind}): cannot be carried out: {err}")

    def _settle(self, of: int, text: str | None) -> None:
        """The mediator's decision on a sealed order (level 3): rejected (`text` None) or
        amended to `text`."""
        for k, (seq, side, _) in enumerate(self.queued):
            if seq == of:
                if text is None:
                    del self.queued[k]
                else:
                    self.queued[k] = (seq, side, parse_order(text, self.state))
                return
        raise GameError(
            f"entry {of}: no order sealed for this turn",
            ru=f"запись {of}: такого запечатанного приказа в этом ходу нет",
        )

    # --- explanations worked out again ----------------------------------------------------------

    def _unfolding(self, seq: int, k: int) -> Callable[[], Step]:
        """What gives the whole explanation of result `k` of entry `seq`."""
        return lambda: self._unfold(seq, k)

    def _unfold(self, seq: int, k: int) -> Step:
        """The whole explanation of result `k` of entry `seq`, its move carried out again from
        the snapshot before it (the move's other results kept for when they are asked for)."""
        if seq not in self._unfolded:
            self._unfolded = self._rederive(seq)
        return self._unfolded[seq][k].explanation

    def _rederive(self, seq: int) -> dict[int, list[Result]]:
        """The results of the move entry `seq` belongs to, each entry's in order: the game
        taken from the snapshot before it and the move's entries carried out again."""
        with collector_paused():
            return self._move_again(seq)

    def _move_again(self, seq: int) -> dict[int, list[Result]]:
        kept = self.journal.snapshot_seqs()
        start = max((s for s in kept if s < seq), default=1)
        stop = min((s for s in kept if s >= seq), default=self.journal.last_seq)
        g = type(self)._load(self.journal, upto=start)
        g._whole = True
        entries = self.journal.between(g.seen, stop)
        undone = {int(e.data["of"]) for e in entries if e.kind == "undo"}
        first = len(g._results)
        for e in entries:
            if e.seq not in undone:
                g._apply_entry(e)
        out: dict[int, list[Result]] = {}
        for s, _, _, r in g._results[first:]:
            out.setdefault(s, []).append(r)
        return out

    # --- snapshots -------------------------------------------------------------------------------

    def _snapshot(self) -> dict[str, Any]:
        """The game now: the state, whose move, the phase, the orders waiting (level 3)."""
        return {
            "format": SNAPSHOT_FORMAT,
            "state": state_to_json(self.state),
            "side": self.side,
            "phase": self.phase,
            "queued": [[seq, side, o.format("ru")] for seq, side, o in self.queued],
        }

    def _restore(self, d: dict[str, Any]) -> None:
        if d.get("format") != SNAPSHOT_FORMAT:
            raise SnapshotError(f"snapshot format {d.get('format')!r}, expected {SNAPSHOT_FORMAT}")
        state = state_from_json(d["state"], self.scenario)
        queued = [(int(s), str(side), parse_order(o, state)) for s, side, o in d["queued"]]
        self.state, self.side, self.phase, self.queued = state, d["side"], d["phase"], queued

    def _verified_snapshot(self) -> dict[str, Any]:
        """The snapshot to keep, checked to give back exactly this game."""
        snap = self._snapshot()
        if state_from_json(snap["state"], self.scenario) != self.state:
            raise SnapshotError("the snapshot does not give back the state; not kept")
        return snap

    # --- the game's own steps ------------------------------------------------------------------

    @property
    def level(self) -> int:
        return self.state.level

    @property
    def seed(self) -> int:
        """The game's secret seed (false answers of reconnaissance, 8.3)."""
        return int(self.journal.header["seed"])

    @property
    def simultaneous(self) -> bool:
        return self.rules.active("turn_order", "simultaneous")

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

    def _heads(self, kept: Sequence[dict[str, Any]] = ()) -> bool:
        """Whether the engine keeps only each explanation's first step for the records `kept`
        (not when a move is carried out again to be explained, nor for a first version's
        journal, which kept whole explanations)."""
        return not self._whole and not any("explanation" in k for k in kept)

    def _commit(
        self, new: GameState, results: list[tuple[int, str, Result]], heads: bool = False
    ) -> list[Result]:
        """The move's results kept (`heads`: computed with their first steps only, the rest
        worked out again when read) and the state it led to taken; the results as kept."""
        kept = []
        for k, (seq, side, r) in enumerate(results):
            if heads:
                r = replace(r, explanation=Folded(r.explanation, self._unfolding(seq, k)))
            self._results.append((seq, self.state.turn, side, r))
            kept.append(r)
        self.state = new
        if new.at_war and self.phase == "deployment":
            self.phase = "combat"
        return kept

    def _intervene(self, seq: int, d: dict[str, Any]) -> None:
        """Intervention `seq` (9.4) takes effect: a note, or weather closing a road."""
        self._notes.append((seq, self.state.turn, d))
        if d.get("cell"):
            self.state = flow.weather(self.state, Cell.parse(d["cell"]), d.get("turns"), self.rules)


@dataclass(frozen=True)
class _Results:
    """A game's results as an iterable read when iterated (`History.result_values`)."""

    history: History

    def __iter__(self) -> Iterator[Result]:
        return (r for _, _, _, r in self.history.results)


# The games begun lately in this process, by their header's scenario text (its hash), level and
# house rules: what a game starts from is worked out once, and a game opened again (an undo, an
# explanation worked out again, the console reopening it) shares the scenario and its caches.
_BEGUN: OrderedDict[tuple[str, int, tuple[str, ...], str], Begun] = OrderedDict()
_BEGUN_KEPT = 3


def _start(store: GameStore) -> Begun:
    """The scenario, rules, first state and first side to move of the game `store` holds."""
    h = store.header
    if h.get("game", "strategic") != "strategic" or "scenario" not in h:
        raise GameError(
            f"{store.path}: not a game of «Стратегия» (a tactical game?)",
            ru=f"{store.path}: это не игра «Стратегия» (тактическая игра?)",
        )
    text, level, houses = str(h["scenario"]), int(h["level"]), tuple(h.get("house", []))
    digest = hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()
    key = (digest, level, houses, str(store.path) if houses else "")
    if key in _BEGUN:
        _BEGUN.move_to_end(key)
        return _BEGUN[key]
    sc = parse_scenario(text, f"{store.path} (scenario)")
    rules = game_rules(sc, level, list(houses), str(store.path))
    state = initial_state(sc, level)
    state, _ = flow.mobilise(state, rules, everything=not rules.active("mobilisation"))
    side = flow.sides_in_order(state, rules)[0]
    state, _ = flow.begin_move(state, side, rules)
    _BEGUN[key] = (sc, rules, state, side)
    while len(_BEGUN) > _BEGUN_KEPT:
        _BEGUN.popitem(last=False)
    return _BEGUN[key]


def game_rules(sc: Scenario, level: int, houses: list[str], source: str) -> RuleSet:
    """A game's rules: the scenario's ruleset at the game's level, with the house rules the
    header keeps (their text, so a game file is whole on its own)."""
    rules = load_ruleset(sc.settings.ruleset, level=level)
    for n, text in enumerate(houses):
        rules = apply_house_text(rules, text, f"{source} (house rules {n + 1})")
    return rules


def _problem(store: GameStore, seq: int, e: Exception) -> Problem:
    ru = e.ru if isinstance(e, StrategiaError) and e.ru else ""
    return Problem(f"{store.path}: snapshot after entry {seq}", str(e).split("\n")[-1].strip(),
                   ru=ru.split("\n")[-1].strip())  # fmt: skip
