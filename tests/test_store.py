"""The game store: several writers, a write that fails, damage found and placed, recovery, the
text form, and snapshots that give back the very state (issue 17). The long trials (hundreds of
kills, full disks and damaged files) are benchmarks/crash_trials.py; its quick run is here."""

from __future__ import annotations

import gc
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from game_script import play

from strategia.core.errors import StrategiaError
from strategia.core.geometry import Cell
from strategia.game import textform
from strategia.game.game import Game
from strategia.game.store import GameStore, StoreError, StoreWriteError
from strategia.notation.refs import UnitRef

ROOT = Path(__file__).parents[1]
DEFAULT = ROOT / "maps" / "continental.toml"
GOLDEN = Path(__file__).parent / "golden"
RED = UnitRef.parse("21 т.д.")


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A game two turns in, with a note and weather: closed, so one file."""
    path = tmp_path_factory.mktemp("store") / "played.game"
    g = play(Game.new(DEFAULT, path, level=2), 2)
    g.intervene("rain", Cell.parse("33,24"), 2)
    g.journal.close()
    return path


def _copy(src: Path, dst: Path) -> Path:
    dst.write_bytes(src.read_bytes())
    return dst


# --- several writers --------------------------------------------------------------------------


def test_a_writer_catches_up_with_the_others_before_its_command(tmp_path: Path) -> None:
    path = tmp_path / "g.game"
    console = Game.new(DEFAULT, path, level=2)
    cli = Game.open(path)
    cli.order("21 т.д. на 35,35")
    cli.end_turn()  # now blue's move; the console has not looked
    assert console.side == "red" and console.state.unit(RED).cell != Cell(35, 35)
    with pytest.raises(StrategiaError, match="it is Blue's move, not Red's"):
        console.order("22 т.д. на 36,35")
    assert console.side == "blue" and console.state.unit(RED).cell == Cell(35, 35)
    console.end_turn()
    cli.refresh()
    assert cli.side == "green" and cli.state == console.state
    assert Game.open(path, verify=True).replay_problems == []


def test_an_undo_by_another_writer_is_taken_in(tmp_path: Path) -> None:
    path = tmp_path / "g.game"
    a = Game.new(DEFAULT, path, level=2)
    b = Game.open(path)
    a.order("21 т.д. на 35,35")
    b.refresh()
    b.undo()
    assert a.refresh().state.unit(RED) == b.state.unit(RED) == a.start.unit(RED)


def test_a_snapshot_newer_than_the_entries_read_is_not_used(tmp_path: Path) -> None:
    path = tmp_path / "g.game"
    Game.new(DEFAULT, path, level=2)
    store = GameStore.open(path)  # its entries are read now...
    other = Game.open(path)
    other.end_turn()  # ...and another writer ends the turn (its snapshot written) before
    g = Game._load(store)  # the snapshots are looked at
    assert g.side == "red" and g.refresh().side == "blue" and g.state == other.state


def test_a_command_that_cannot_be_written_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    g = Game.new(DEFAULT, tmp_path / "g.game", level=2)
    before = (g.state, list(g.results), len(g.journal.entries))

    def full(*args: object, **kwargs: object) -> None:
        raise StoreWriteError("disk full")

    monkeypatch.setattr(GameStore, "put_snapshot", full)
    with pytest.raises(StoreWriteError):
        g.end_turn()
    assert (g.state, g.results, len(g.journal.entries)) == before
    monkeypatch.undo()
    g.end_turn()
    assert len(Game.open(tmp_path / "g.game").journal.entries) == before[2] + 1


def test_the_crash_trials_quick() -> None:
    run = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "crash_trials.py"), "--quick", "--json"],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    out = json.loads(run.stdout)
    assert all(v == 0 for v in out["failures"].values()), out
    assert out["kill"]["trials"] >= 4 and out["kill"]["acknowledged"] > 0
    assert out["full"]["writes_refused"] > 0 and out["full"]["went_on"] == out["full"]["trials"]
    assert out["damage"]["reported"] > 0 and out["damage"]["recovered"] > 0


# --- damage -------------------------------------------------------------------------------------


def _offset(path: Path, needle: bytes, nth: int = 0) -> int:
    raw, at = path.read_bytes(), -1
    for _ in range(nth + 1):
        at = raw.index(needle, at + 1)
    return at


def _flip(path: Path, at: int) -> None:
    raw = bytearray(path.read_bytes())
    raw[at] ^= 0x01
    path.write_bytes(bytes(raw))


def test_a_damaged_entry_is_placed_and_the_good_part_recovered(
    played: Path, tmp_path: Path
) -> None:
    path = _copy(played, tmp_path / "g.game")
    whole = Game.open(path)
    n = len(whole.journal.entries)
    whole.journal.close()
    _flip(path, _offset(path, b'"order":"', 20) + 10)  # in the text of an order
    g = Game.open(path)  # an earlier move's entry: read, and checked, when asked for
    with pytest.raises(StoreError, match=r"g.game: entry \d+: checksum mismatch"):
        g.journal_text()
    g.journal.close()
    with pytest.raises(StoreError, match=r"g.game: entry \d+: checksum mismatch") as info:
        Game.open(path, verify=True)  # what `game replay` does: every entry read
    bad = info.value.good
    assert bad is not None and 1 < bad < n
    g = Game.open(path, recover=True)
    assert len(g.journal.entries) == bad and path.with_name("g.game.damaged").exists()
    assert any("damaged file is kept" in p for p in g.replay_problems)
    assert Game.open(path, verify=True).replay_problems == []


def test_one_damaged_copy_of_the_header_is_a_warning_and_replay_lists_it(
    played: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from strategia.cli import main

    path = _copy(played, tmp_path / "g.game")
    _flip(path, _offset(path, b"[scenario]", 0) + 3)
    g = Game.open(path)
    assert [str(p).split(": ", 1)[1] for p in g.journal.problems] == [
        "the header (first): checksum mismatch: damaged"
    ]
    assert g.state == Game.open(played).state
    assert main(["game", "show", str(path), "--lang", "en"]) == 0
    assert "warning" in capsys.readouterr().err
    assert main(["game", "show", str(path), "--lang", "ru"]) == 0
    assert (
        "заголовок (первый): контрольная сумма не сходится: повреждено" in capsys.readouterr().err
    )
    assert main(["game", "replay", str(path), "--lang", "en"]) == 1  # findings
    assert "the header (first): checksum mismatch" in capsys.readouterr().out
    g.journal.close()  # recovery is refused while any process (this one too) holds the game
    gc.collect()  # and the games the commands above opened in this process with it
    assert main(["game", "replay", str(path), "--recover"]) == 1  # reports what it repaired
    assert main(["game", "replay", str(path)]) == 0


@pytest.mark.parametrize("cut", [0.3, 0.6, 0.9])
def test_a_file_cut_short_is_placed(played: Path, tmp_path: Path, cut: float) -> None:
    path = _copy(played, tmp_path / "g.game")
    raw = path.read_bytes()
    path.write_bytes(raw[: int(len(raw) * cut)])
    with pytest.raises(StoreError, match=r"cut short|page|entry \d+|missing"):
        Game.open(path)


def test_a_flipped_byte_in_the_sqlite_header_is_placed_and_repaired(
    played: Path, tmp_path: Path
) -> None:
    path = _copy(played, tmp_path / "g.game")
    _flip(path, 16)  # the page size
    with pytest.raises(StoreError, match=r"bytes 16-16 \(the file's header\)"):
        Game.open(path)
    g = Game.open(path, recover=True)
    assert g.state == Game.open(played).state


def test_what_is_not_a_game_file_is_refused_clearly(tmp_path: Path) -> None:
    other = tmp_path / "other.game"
    import sqlite3

    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.commit()
    with pytest.raises(StoreError, match="not a Strategia game"):
        Game.open(other)
    (tmp_path / "short.game").write_bytes(b"SQLite")
    with pytest.raises(StoreError, match="too short"):
        Game.open(tmp_path / "short.game")
    with pytest.raises(StrategiaError, match="no such game file"):
        Game.open(tmp_path / "none.game")


LATIN = re.compile(r"[A-Za-z]{2,}")


def _english_in(text: str, path: Path) -> list[str]:
    """Latin words in a Russian message, leaving out the path, SQLite's own words (quoted «»)
    and commands (in backquotes)."""
    text = re.sub(r"«[^»]*»|`[^`]*`", " ", text.replace(str(path), " "))
    return sorted(set(LATIN.findall(text)) - {"SQLite"})


def test_the_store_says_its_problems_in_russian(played: Path, tmp_path: Path) -> None:
    """Every damage the tests above make, told in Russian: the places (bytes, pages, entries,
    the header) and the findings in Russian words, SQLite's own quoted as it said them."""
    said: list[tuple[str, Path]] = []
    flipped = _copy(played, tmp_path / "entry.game")
    _flip(flipped, _offset(flipped, b'"order":"', 20) + 10)
    with pytest.raises(StoreError) as info:
        Game.open(flipped, verify=True)
    said.append((info.value.say("ru"), flipped))
    assert re.search(r"запись \d+: контрольная сумма не сходится: запись повреждена",
                     said[-1][0]), said[-1][0]  # fmt: skip
    for n, cut in enumerate((0.3, 0.6, 0.9)):
        short = _copy(played, tmp_path / f"cut{n}.game")
        short.write_bytes(short.read_bytes()[: int(short.stat().st_size * cut)])
        with pytest.raises(StoreError) as info:
            Game.open(short)
        said.append((info.value.say("ru"), short))
    header = _copy(played, tmp_path / "header.game")
    _flip(header, 16)
    with pytest.raises(StoreError) as info:
        Game.open(header)
    said.append((info.value.say("ru"), header))
    assert "байты 16-16 (заголовок файла)" in said[-1][0]
    (tmp_path / "short.game").write_bytes(b"SQLite")
    with pytest.raises(StoreError) as info:
        Game.open(tmp_path / "short.game")
    said.append((info.value.say("ru"), tmp_path / "short.game"))
    assert "слишком короткий для файла игры" in said[-1][0]
    for text, path in said:
        assert "файл игры поврежден" in text
        assert not _english_in(text, path), text


def test_a_store_problem_without_its_russian_gets_it_by_pattern() -> None:
    from strategia.core.errors import Problem
    from strategia.game.store_words import found_ru, place_ru, with_russian

    assert place_ru("g.game: table entries (pages from 4)", "g.game") == (
        "g.game: таблица entries (страницы с 4)"
    )
    assert place_ru("g.game: the header (copy)", "g.game") == "g.game: заголовок (копия)"
    assert found_ru("missing (the next entry in the file is 12)") == (
        "отсутствует (следующая запись в файле — 12)"
    )
    assert found_ru("reading entries 3 to 9: database disk image is malformed") == (
        "чтение записей 3-9: SQLite: «database disk image is malformed»"
    )
    p = with_russian(Problem("g.game: entry 7", "checksum mismatch: damaged"), "g.game")
    assert p.say("ru") == "g.game: запись 7: контрольная сумма не сходится: повреждено"
    assert p.say("en") == "g.game: entry 7: checksum mismatch: damaged"


# --- the text form ------------------------------------------------------------------------------


def test_a_first_version_game_file_is_imported(tmp_path: Path) -> None:
    old = tmp_path / "old.game"
    entries, _ = textform.read(GOLDEN / "continental_level1.json")
    textform.write(old, entries[:40])
    with pytest.raises(StrategiaError, match="strategia game import"):
        Game.open(old)
    g = Game.import_text(old, tmp_path / "new.game")
    assert g.replay_problems == [] and len(g.journal.entries) == 40
    assert g.seed == 20261129  # the first version's games drew from the scenario's seed


def test_a_torn_text_journal_is_refused_or_its_good_part_imported(tmp_path: Path) -> None:
    old = tmp_path / "old.jsonl"
    entries, _ = textform.read(GOLDEN / "continental_level2.json")
    textform.write(old, entries[:30])
    old.write_bytes(old.read_bytes()[:-40])
    with pytest.raises(textform.TextFormError, match=r"old.jsonl:30: truncated"):
        Game.import_text(old, tmp_path / "a.game")
    assert not (tmp_path / "a.game").exists()
    g = Game.import_text(old, tmp_path / "a.game", recover=True)
    assert len(g.journal.entries) == 29


def test_house_rules_and_answers_survive_export_and_import(tmp_path: Path) -> None:
    house = tmp_path / "house.toml"
    house.write_text("[march]\nbonus_km = 15\n", encoding="utf-8")
    g = Game.new(DEFAULT, tmp_path / "g.game", level=2, house=[str(house)], seed=5)
    g.order("21 т.д. на 35,35")
    g.export_text(tmp_path / "g.jsonl")
    h = Game.import_text(tmp_path / "g.jsonl", tmp_path / "h.game")
    assert h.replay_problems == [] and h.rules.value("march", "bonus_km") == 15
    assert h.journal.header["house_files"] == [str(house)]


def test_a_tactical_game_moves_to_text_and_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from strategia.cli import main
    from strategia.tactical.game import TacticalGame

    grove = ROOT / "strategia" / "tactical" / "skirmishes" / "grove.toml"
    game = TacticalGame.new(grove, tmp_path / "t.tgame")
    game.card("1/Тульский", before="move; form square")
    assert main(["game", "export", str(tmp_path / "t.tgame"), str(tmp_path / "t.jsonl")]) == 0
    assert (
        main(
            ["game", "import", str(tmp_path / "t.jsonl"), str(tmp_path / "u.tgame"), "--lang", "en"]
        )
        == 0
    )
    assert "tactical game" in capsys.readouterr().out
    again = TacticalGame.open(tmp_path / "u.tgame")
    assert again.to_json()["units"] == game.to_json()["units"]


def test_answers_draw_from_the_secret_seed_and_replay_compares_them(tmp_path: Path) -> None:
    import re

    from strategia.game.trial import script_turn
    from strategia.theatre.scenario_io import parse_scenario

    text = (ROOT / "maps" / "README.md").read_text(encoding="utf-8")
    sc = parse_scenario(re.findall(r"```toml\n(.*?)```", text, re.S)[0], "README.md")
    seeds = {Game.new(sc, tmp_path / f"s{k}.game").seed for k in range(3)}
    assert len(seeds) == 3 and sc.settings.seed not in seeds  # drawn, not the scenario's
    g = Game.new(sc, tmp_path / "g.game", level=2, seed=11)
    while not g.state.at_war:
        script_turn(g)
    g.ask("blue", "где 5 т.д.?")
    for cell in ("8,4", "8,5", "10,3"):
        g.ask("blue", f"есть ли войска в {cell}?", lie=False)
    g.ask("blue", "есть ли войска в 7,3?", lie=True)
    g.ask("red", "сколько дивизий в 5,3?")
    assert [a.get("lie") for a in g.answers] == [None, False, False, False, True, None]
    assert g.answers[4]["true"] is False
    assert Game.open(tmp_path / "g.game", verify=True).replay_problems == []
    g.export_text(tmp_path / "g.jsonl")
    entries, _ = textform.read(tmp_path / "g.jsonl")
    k = next(i for i, e in enumerate(entries) if e.kind == "ask")
    e = entries[k]
    entries[k] = type(e)(e.seq, e.kind, {**e.data, "true": not e.data["true"]}, e.time)
    textform.write(tmp_path / "g.jsonl", entries)
    h = Game.import_text(tmp_path / "g.jsonl", tmp_path / "h.game")
    assert h.replay_problems[0] == f"entry {e.seq}: где 5 т.д.?: the answer differs on replay"
