"""Opening a long game reads only its move in progress (issue 25): the store reads the entries
from the newest snapshot on, the past is read when asked for and is then what a whole replay
gives, the commands and the screens' looks read only the move in progress, and the memory of
an open game does not grow with its length."""

from __future__ import annotations

import gc
import json
import shutil
import sqlite3
import tracemalloc
from pathlib import Path

import pytest
from game_script import play

from strategia.core.geometry import Cell
from strategia.game.channel import channel
from strategia.game.game import Game
from strategia.game.report_render import fights
from strategia.game.store import GameStore, StoreError

ROOT = Path(__file__).parents[1]
DEFAULT = ROOT / "maps" / "continental.toml"
SIDES = ("red", "blue", "green")


def _played(path: Path, turns: int, level: int = 2) -> Path:
    """The default scenario played `turns` turns, with questions, notes, weather and an undo."""
    g = Game.new(DEFAULT, path, level=level, seed=5)
    for t in range(1, turns + 1):
        if t % 3 == 1:
            _ask(g)
            g.intervene(f"note {t}", Cell.parse("33,24") if t % 2 else None, 2 if t % 2 else None)
        if t % 4 == 2 and level < 3:
            g.intervene("taken back")
            g.undo()
        play(g, t)
    g.journal.close()
    return path


def _ask(g: Game) -> None:
    """A question of the side to move, once the war has begun (8.3)."""
    if g.state.at_war:
        g.ask("blue", "где 21 т.д.?")


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> dict[int, Path]:
    """The same game after 10 and after 30 turns (closed copies)."""
    folder = tmp_path_factory.mktemp("lazy")
    path = _played(folder / "g.game", 10)
    shutil.copy(path, folder / "g10.game")
    g = Game.open(path)
    for t in range(11, 31):
        if t % 3 == 1:
            _ask(g)
            g.intervene(f"note {t}")
        play(g, t)
    g.journal.close()
    return {10: folder / "g10.game", 30: path}


def _copy(src: Path, dst: Path) -> Path:
    shutil.copy(src, dst)
    return dst


def test_opening_reads_only_the_entries_from_the_newest_snapshot(games: dict[int, Path]) -> None:
    for path in games.values():
        g = Game.open(path)
        store = g.journal
        newest = max(store.snapshot_seqs())
        assert store.rows_read == store.last_seq - newest + 1  # the End turn and what follows
        assert store.kinds_read == 0 and store.last_seq > 100
        assert g.journal_text()  # the past, read when asked for
        assert store.rows_read >= store.last_seq - 1
        g.journal.close()


def test_the_past_read_when_asked_is_what_a_whole_replay_gives(games: dict[int, Path]) -> None:
    for path in games.values():
        lazy, whole = Game.open(path), Game.open(path, verify=True)
        assert [p for p in whole.replay_problems if not p.startswith("note: ")] == []
        assert lazy.answers and lazy.interventions
        assert lazy.interventions == whole.interventions
        assert lazy.answers == whole.answers
        assert lazy.intervention_list() == whole.intervention_list()
        for side in SIDES:
            assert channel(lazy, side).told() == channel(whole, side).told()
            assert channel(lazy, side).journal_text("en") == channel(whole, side).journal_text("en")
            ours, theirs = channel(lazy, side).fights(), channel(whole, side).fights()
            assert [(t, r.outcome("en")) for t, r in ours] == [
                (t, r.outcome("en")) for t, r in theirs
            ]
        assert lazy.journal_text("en") == whole.journal_text("en")
        assert [(s, t, by, r.to_record()) for s, t, by, r in lazy.results] == [
            (s, t, by, r.to_record()) for s, t, by, r in whole.results
        ]
        assert [r.outcome("en") for _, r in fights(lazy.results)] == [
            r.outcome("en") for _, r in fights(whole.results)
        ]
        k = len(lazy.results) // 3  # an early result's explanation, worked out again
        assert lazy.results[k][3].explanation.to_json() == whole.results[k][3].explanation.to_json()
        assert lazy.review().keys() == whole.review().keys()
        assert lazy.state_at(4) == whole.state_at(4)
        lazy.journal.close()
        whole.journal.close()


def test_the_entries_are_a_sequence_read_from_the_file(games: dict[int, Path]) -> None:
    g = Game.open(games[10])
    entries = g.journal.entries
    with sqlite3.connect(games[10]) as conn:
        rows = conn.execute("SELECT seq, kind, data FROM entries ORDER BY seq").fetchall()
    stored = [(s, k, json.loads(d)) for s, k, d in rows]
    listed = list(entries)
    assert len(entries) == len(listed) == len(stored) + 1 == g.journal.last_seq
    assert [(e.seq, e.kind, e.data) for e in listed[1:]] == stored
    assert entries[0].kind == "game" and entries[-1] == listed[-1] and entries[5] == listed[5]
    assert entries[3:40] == listed[3:40] and entries[::7] == listed[::7]
    assert entries[-3:] == listed[-3:] and entries[40:3] == []
    assert list(reversed(entries)) == listed[::-1]
    assert entries == listed and entries != listed[:-1]
    with pytest.raises(IndexError):
        entries[len(listed)]
    g.journal.close()


def test_a_command_and_the_screens_looks_read_only_the_move_in_progress(
    games: dict[int, Path], tmp_path: Path
) -> None:
    path = _copy(games[30], tmp_path / "g.game")
    g, other = Game.open(path), Game.open(path)
    store = g.journal
    store.rows_read = 0
    g.refresh()
    g.undoable()
    g.move_clock()
    g.submitted()
    assert store.rows_read == 0 and store.kinds_read == 0
    unit = next(u for u in g.state.units.values() if g.state.side_of(u.ref) == g.side)
    other.order(f"{unit.ref} на {unit.cell}")  # another writer
    g.refresh()
    assert store.rows_read == 1
    g.intervene("a note")
    assert g.undoable() is not None and g.undoable().kind == "intervention"  # type: ignore[union-attr]
    g.undo()
    assert store.rows_read <= 3 and store.kinds_read == 0
    g.intervention_list()  # the index of the entries that are not orders, then those only
    assert store.kinds_read == 1
    g.state_at(5)  # a search by halves among the End turns
    assert store.rows_read < 40
    g.journal.close()
    other.journal.close()


def test_a_held_game_drops_the_past_nobody_read_and_reads_it_back(
    games: dict[int, Path], tmp_path: Path
) -> None:
    path = _copy(games[10], tmp_path / "g.game")
    g = Game.open(path)
    play(g, 14)
    newest = max(g.journal.snapshot_seqs())
    assert all(s > newest for s, _, _, _ in g._results)  # none kept: nobody read them
    again = Game.open(path)
    assert [(s, t, r.to_record()) for s, t, _, r in g.results] == [
        (s, t, r.to_record()) for s, t, _, r in again.results
    ]
    assert g.answers == again.answers and g.interventions == again.interventions
    g.journal.close()
    again.journal.close()


def test_an_undo_keeps_the_past_already_read(games: dict[int, Path], tmp_path: Path) -> None:
    path = _copy(games[10], tmp_path / "g.game")
    g = Game.open(path)
    before = list(g.results)
    g.intervene("a note")
    g.undo()
    assert g._read_results and g.results == before
    assert g.journal_text() == Game.open(path).journal_text()
    g.journal.close()


def test_damage_before_the_snapshot_is_found_when_read_with_its_place(
    games: dict[int, Path], tmp_path: Path
) -> None:
    path = _copy(games[10], tmp_path / "g.game")
    raw = bytearray(path.read_bytes())
    at = raw.index(b'"order":"', 2000) + 10
    raw[at] ^= 0x01
    path.write_bytes(bytes(raw))
    g = Game.open(path)
    with pytest.raises(StoreError, match=r"entry \d+: checksum mismatch"):
        g.journal_text()
    g.journal.close()
    with pytest.raises(StoreError, match=r"entry \d+: checksum mismatch"):
        GameStore.open(path).read_all()


def _held(path: Path) -> int:
    """The bytes `Game.open` of `path` holds (after a first opening of its scenario)."""
    Game.open(path).journal.close()
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        g = Game.open(path)
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    g.journal.close()
    return held


def test_the_memory_of_an_open_game_does_not_grow_with_its_length(
    games: dict[int, Path],
) -> None:
    short, long = _held(games[10]), _held(games[30])
    assert long < short * 1.25 + 200_000, (short, long)


def test_a_move_just_made_is_explained_whole_when_read(tmp_path: Path) -> None:
    """The engine keeps of a game's new results only each explanation's first step (what the
    journal keeps); reading the steps below works the move out again, and they are the steps
    the engine builds whole. The first steps and every number are the same either way."""
    from strategia.engine.apply import apply
    from strategia.explain.trace import Folded, heads_only
    from strategia.notation.orders import parse_order
    from strategia.rules.kinds import DivisionKind

    g = Game.new(DEFAULT, tmp_path / "h.game", level=2, seed=5)
    before = g.state
    u = next(
        u
        for u in before.units.values()
        if before.side_of(u.ref) == g.side and u.division.kind is DivisionKind.TANK
    )
    dx, dy = u.facing.delta
    text = f"{u.ref} на {Cell(u.cell.lon + dx, u.cell.lat + dy)}"
    r = g.order(text)
    assert r is not None and isinstance(r.explanation, Folded)
    order = parse_order(text, before)
    _, whole = apply(before, order, g.rules, r.by)
    with heads_only():
        new, head = apply(before, order, g.rules, r.by)
    assert new.units == g.state.units  # the same move, whichever is kept
    assert head.explanation.children == () and head.explanation == whole.explanation.head()
    assert r.explanation.head() == whole.explanation.head()
    assert whole.explanation.children  # a move's steps: what was left, each step, ...
    assert r.explanation.children == whole.explanation.children  # worked out again, the same
    g.journal.close()
