"""What a replay compares (`Game.open(verify=True)`, `strategia game replay`): each result,
End turn, answer and snapshot computed again against what the journal recorded, and the
versions the game was played with; each difference is a line of `replay_problems`."""

from __future__ import annotations

from typing import Any

from strategia.engine.result import Result
from strategia.engine.state import GameState
from strategia.game.questions import parse_question
from strategia.game.store import Entry, GameStore, StoreError
from strategia.rules import RuleSet


def journaled(result: Result, kept: dict[str, Any]) -> dict[str, Any]:
    """`result` as the journal entry `kept` was written: with its whole explanation (a first
    version's journal), or its first step (`to_record`); without the losses of interdiction
    fire where the record has none (written before results kept them: the state, compared in
    the snapshots, holds them)."""
    got = result.to_json() if "explanation" in kept else result.to_record()
    if "losses" in got and "losses" not in kept:
        del got["losses"]
    return got


def end_turn(e: Entry, new: GameState, side: str, results: list[Result]) -> list[str]:
    """End turn `e` carried out again (to `new`, `side` to move, `results`) against its record."""
    d, where, out = e.data, f"entry {e.seq}", []
    if (new.turn, side) != (d.get("turn_after"), d.get("next")):
        out.append(
            f"{where}: End turn leads to turn {new.turn}, {side} to move on replay; "
            f"the journal says turn {d.get('turn_after')}, {d.get('next')}"
        )
    kept = d.get("results", [])
    got = [journaled(r, k) for r, k in zip(results, kept, strict=False)]
    got += [r.to_record() for r in results[len(kept) :]]
    for k, (a, b) in enumerate(zip(got, kept, strict=False)):
        if a != b:
            out.append(
                f"{where}: End turn, result {k + 1} ({b.get('order', '?')}) differs on replay"
            )
    if len(got) != len(kept):
        out.append(f"{where}: End turn gives {len(got)} results on replay, the journal {len(kept)}")
    return out


def answer(
    e: Entry, state: GameState, rules: RuleSet, seed: int, answers: list[dict[str, Any]]
) -> list[str]:
    """Ask the question of entry `e` again in `state` (the game's secret seed, the answers
    before it, the mediator's choice) and compare."""
    from strategia.game import recon

    d = e.data
    q = parse_question(d["question"], state)
    history = [a for a in answers if a["side"] == d["side"]]
    again = recon.ask(state, d["side"], q, rules, history=history, seed=seed, lie=d.get("lie"))
    got = {"side": d["side"], "turn": state.turn, **again.value.to_json(for_side=False)}
    if "lie" in d:
        got["lie"] = d["lie"]
    return [] if got == d else [f"entry {e.seq}: {d['question']}: the answer differs on replay"]


def snapshot(store: GameStore, seq: int, mine: dict[str, Any]) -> list[str]:
    """The snapshot kept after entry `seq` against the game as replayed (`mine`)."""
    try:
        kept = store.snapshot(seq)
    except StoreError as e:
        return [str(p) for p in e.problems]
    if kept == mine:
        return []
    diff = [k for k in ("side", "phase", "queued") if kept.get(k) != mine[k]]
    ks, ms = kept.get("state", {}), mine["state"]
    diff += [k for k in ms if k != "units" and ks.get(k) != ms[k]]
    units = {str(u["ref"]): u for u in ks.get("units", [])}
    diff += [f"unit {u['ref']}" for u in ms["units"] if units.pop(str(u["ref"]), None) != u][:5]
    diff += [f"unit {r} (only in the file)" for r in units][:5]
    return [f"snapshot after entry {seq} differs from the replayed game: {', '.join(diff)}"]


def versions(head: dict[str, Any], now: RuleSet) -> list[str]:
    """Notes of the engine and rules the game was played with (its header), where they
    differ from this program's and the rules `now`."""
    from strategia import __version__

    out = []
    played = head.get("engine")
    if played is not None and played != __version__:
        out.append(f"note: played with engine {played}, replayed with {__version__}")
    rules = head.get("rules")
    if isinstance(rules, dict) and rules.get("digest") != now.digest():
        out.append(
            f"note: the rules differ from those the game was played with "
            f"({rules.get('digest')}, now {now.digest()})"
        )
    return out


__all__ = ["answer", "end_turn", "journaled", "snapshot", "versions"]
