"""What a game's journal says happened: the state its entries lead to.

A game is loaded from its newest snapshot (kept at every End turn) and the entries after it:
the results, answers and interventions of earlier entries are read as the journal recorded
them, not recomputed. `verify` re-derives everything from the scenario instead: every result,
every answer (with the game's secret seed and the mediator's recorded choices) and every
snapshot is computed again and compared with what the file holds; each difference is a line of
`replay_problems`.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Self

from strategia.core.collector import collector_paused
from strategia.core.errors import Problem, StrategiaError
from strategia.core.geometry import Cell
from strategia.engine import flow
from strategia.engine.apply import apply
from strategia.engine.result import Result
from strategia.engine.snapshot import SnapshotError, state_from_json, state_to_json
from strategia.engine.state import GameState, initial_state
from strategia.explain.trace import Step
from strategia.game.questions import parse_question
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
    results: list[tuple[int, int, str, Result]] = field(default_factory=list)  # seq, turn, side
    answers: list[dict[str, Any]] = field(default_factory=list)
    interventions: list[tuple[int, str]] = field(default_factory=list)
    replay_problems: list[str] = field(default_factory=list)
    seen: int = 1  # the last entry taken into account
    # the last move whose explanations were worked out again: its results by entry
    _unfolded: dict[int, list[Result]] = field(default_factory=dict, repr=False, compare=False)

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
        upto = store.last_seq if upto is None else min(upto, store.last_seq)
        entries = [e for e in store.entries[1:] if e.seq <= upto]
        undone = {int(e.data["of"]) for e in entries if e.kind == "undo"}
        base = 1
        if keep:
            store.put_snapshot(1, g._verified_snapshot())
        elif not verify:
            base = g._from_snapshot(entries, upto)
        snaps = set(store.snapshot_seqs()) if verify and not keep else set()
        for e in entries:
            if e.seq <= base or e.seq in undone:
                continue
            g._apply_entry(e)
            if keep and e.kind == "end-turn":
                store.put_snapshot(e.seq, g._verified_snapshot())
            elif e.seq in snaps:
                g._check_snapshot(e.seq)
            elif verify and not keep and e.kind == "end-turn":
                g.replay_problems.append(f"entry {e.seq}: no snapshot after this End turn")
        if verify or keep:
            g._check_versions()
            g.replay_problems += [str(p) for p in store.problems]
        if verify and not keep:
            g.replay_problems += [str(p) for p in store.file_problems()]
            if store.acknowledged is None:
                g.replay_problems.append(
                    f"note: no count of acknowledged entries is kept beside {store.path.name} "
                    "(a copy made without it?): entries lost from its end could not be told"
                )
        g.seen = entries[-1].seq if entries else 1
        return g

    def _from_snapshot(self, entries: list[Entry], upto: int) -> int:
        """Take the newest snapshot at or before `upto` and the records of the entries before
        it; returns the entry it was taken after (1: none usable, start from the scenario).
        (A snapshot after the last entry read is another writer's, of entries not yet read.)"""
        seqs = [s for s in self.journal.snapshot_seqs() if s <= upto]
        for seq in reversed([s for s in seqs if s > 1]):
            try:
                self._restore(self.journal.snapshot(seq))
            except (StoreError, SnapshotError) as err:
                self.journal.problems.append(_problem(self.journal, seq, err))
                continue
            turn = 1
            before = [e for e in entries if e.seq <= seq]
            undone = {int(e.data["of"]) for e in before if e.kind == "undo"}
            for e in before:
                if e.seq not in undone:
                    turn = self._record(e, turn)
            return seq
        return 1

    def _record(self, e: Entry, turn: int) -> int:
        """Take in an entry before the snapshot as the journal recorded it; the turn after it.
        (An explanation the journal keeps only the first step of is worked out when read.)"""
        d = e.data
        if e.kind == "order" and not d.get("queued"):
            r = Result.from_json(d["result"], self._unfolding(e.seq, 0))
            self.results.append((e.seq, turn, d["side"], r))
        elif e.kind == "end-turn":
            self.results += [
                (e.seq, turn, "", Result.from_json(r, self._unfolding(e.seq, k)))
                for k, r in enumerate(d["results"])
            ]
            return int(d["turn_after"])
        elif e.kind == "ask":
            self.answers.append(d)
        elif e.kind == "intervention":
            self.interventions.append((turn, d["text"]))
        return turn

    def _take(self, new: list[Entry]) -> None:
        """Catch up with entries other writers appended (an undo among them: load again)."""
        if not new:
            return
        if any(e.kind == "undo" for e in new):
            fresh = type(self)._load(self.journal)
            self.__dict__.update(fresh.__dict__)
            return
        for e in new:
            self._apply_entry(e)
        self.seen = new[-1].seq

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
                new, result = apply(self.state, order, self.rules, d["side"])
                if _journaled(result, d["result"]) != d["result"]:
                    self.replay_problems.append(
                        f"{where}: {d['order']}: the result differs on replay"
                    )
                self._commit(new, [(e.seq, d["side"], result)])
            elif e.kind == "end-turn":
                new, side, results = self._end_turn(self.state, d["side"])
                self._compare_end_turn(e, new, side, results)
                self.queued = []
                self.side = side
                self._commit(new, [(e.seq, "", r) for r in results])
            elif e.kind == "ask":
                try:
                    self._compare_answer(e)
                finally:
                    self.answers.append(d)
            elif e.kind == "intervention":
                cell = Cell.parse(d["cell"]) if d.get("cell") else None
                self._intervene(d["text"], cell, d.get("turns"))
            elif e.kind == "phase":
                self.phase = d["phase"]
            elif e.kind in ("reject", "amend"):
                self._settle(int(d["of"]), d.get("order"))
            elif e.kind not in ("undo", "reject", "amend", "extend", "decision", "computer"):
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
        raise GameError(f"entry {of}: no order sealed for this turn")

    def _compare_end_turn(self, e: Entry, new: GameState, side: str, results: list[Result]) -> None:
        d, where = e.data, f"entry {e.seq}"
        if (new.turn, side) != (d.get("turn_after"), d.get("next")):
            self.replay_problems.append(
                f"{where}: End turn leads to turn {new.turn}, {side} to move on replay; "
                f"the journal says turn {d.get('turn_after')}, {d.get('next')}"
            )
        kept = d.get("results", [])
        got = [_journaled(r, k) for r, k in zip(results, kept, strict=False)]
        got += [r.to_record() for r in results[len(kept) :]]
        for k, (a, b) in enumerate(zip(got, kept, strict=False)):
            if a != b:
                self.replay_problems.append(
                    f"{where}: End turn, result {k + 1} ({b.get('order', '?')}) differs on replay"
                )
        if len(got) != len(kept):
            self.replay_problems.append(
                f"{where}: End turn gives {len(got)} results on replay, the journal {len(kept)}"
            )

    def _compare_answer(self, e: Entry) -> None:
        """Ask the question again (the secret seed, the mediator's choice) and compare."""
        from strategia.game import recon

        d = e.data
        q = parse_question(d["question"], self.state)
        history = [a for a in self.answers if a["side"] == d["side"]]
        again = recon.ask(
            self.state, d["side"], q, self.rules, history=history, seed=self.seed, lie=d.get("lie")
        )
        got = {"side": d["side"], "turn": self.state.turn, **again.value.to_json(for_side=False)}
        if "lie" in d:
            got["lie"] = d["lie"]
        if got != d:
            self.replay_problems.append(
                f"entry {e.seq}: {d['question']}: the answer differs on replay"
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
        entries = [e for e in self.journal.entries[1:] if e.seq <= stop]
        undone = {int(e.data["of"]) for e in entries if e.kind == "undo"}
        first = len(g.results)
        for e in entries:
            if e.seq > g.seen and e.seq not in undone:
                g._apply_entry(e)
        out: dict[int, list[Result]] = {}
        for s, _, _, r in g.results[first:]:
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

    def _check_snapshot(self, seq: int) -> None:
        """Compare the snapshot kept after entry `seq` with the game as replayed."""
        try:
            kept = self.journal.snapshot(seq)
        except StoreError as e:
            self.replay_problems += [str(p) for p in e.problems]
            return
        mine = self._snapshot()
        if kept == mine:
            return
        diff = [k for k in ("side", "phase", "queued") if kept.get(k) != mine[k]]
        ks, ms = kept.get("state", {}), mine["state"]
        diff += [k for k in ms if k != "units" and ks.get(k) != ms[k]]
        units = {str(u["ref"]): u for u in ks.get("units", [])}
        diff += [f"unit {u['ref']}" for u in ms["units"] if units.pop(str(u["ref"]), None) != u][:5]
        diff += [f"unit {r} (only in the file)" for r in units][:5]
        self.replay_problems.append(
            f"snapshot after entry {seq} differs from the replayed game: {', '.join(diff)}"
        )

    def _check_versions(self) -> None:
        from strategia import __version__

        h = self.journal.header
        played = h.get("engine")
        if played is not None and played != __version__:
            self.replay_problems.append(
                f"note: played with engine {played}, replayed with {__version__}"
            )
        rules = h.get("rules")
        if isinstance(rules, dict) and rules.get("digest") != self.rules.digest():
            self.replay_problems.append(
                f"note: the rules differ from those the game was played with "
                f"({rules.get('digest')}, now {self.rules.digest()})"
            )

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


# The games begun lately in this process, by their header's scenario text (its hash), level and
# house rules: what a game starts from is worked out once, and a game opened again (an undo, an
# explanation worked out again, the console reopening it) shares the scenario and its caches.
_BEGUN: OrderedDict[tuple[str, int, tuple[str, ...], str], Begun] = OrderedDict()
_BEGUN_KEPT = 3


def _start(store: GameStore) -> Begun:
    """The scenario, rules, first state and first side to move of the game `store` holds."""
    h = store.header
    if h.get("game", "strategic") != "strategic" or "scenario" not in h:
        raise GameError(f"{store.path}: not a game of «Стратегия» (a tactical game?)")
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


def _journaled(result: Result, kept: dict[str, Any]) -> dict[str, Any]:
    """`result` as the journal entry `kept` was written: with its whole explanation (a first
    version's journal), or its first step (`to_record`)."""
    return result.to_json() if "explanation" in kept else result.to_record()


def _problem(store: GameStore, seq: int, e: Exception) -> Problem:
    return Problem(f"{store.path}: snapshot after entry {seq}", str(e).split("\n")[-1].strip())
