"""One game, many processes (issue 22): a game held open by a console, a team screen or a
script keeps SQLite's lock on its file whatever runs beside it; every command acknowledged to
a holder survives the commands beside it and the holder's death; a log damaged or cut is
reported, never opened as an earlier game; `game replay` knows how many entries there were.

The long run (hundreds of holders and commands killed at random) is the *shared* part of
benchmarks/crash_trials.py; its quick run is in test_store.py.
"""

from __future__ import annotations

import json
import random
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from strategia.cli import main
from strategia.game import count
from strategia.game.file_access import copy_file
from strategia.game.game import Game
from strategia.game.sqlite_file import check_file, header_damage
from strategia.game.store import StoreError, dumps, row_crc

ROOT = Path(__file__).parents[1]
DEFAULT = ROOT / "maps" / "continental.toml"
HOLDER = ROOT / "benchmarks" / "holder.py"
sys.path.insert(0, str(ROOT / "benchmarks"))
from holder import locks_on  # noqa: E402

CLI = [sys.executable, "-m", "strategia.cli"]


def _new(path: Path, level: int = 2) -> Path:
    g = Game.new(DEFAULT, path, level=level, seed=7)
    g.order("21 т.д. на 35,35")
    g.journal.close()
    return path


# --- in this process ------------------------------------------------------------------------


def test_a_game_held_here_keeps_its_lock_whatever_this_process_reads(tmp_path: Path) -> None:
    """SQLite's shared lock on the game file is there after Game.open and stays through every
    way this process reads the file: commands, a second holder opened and closed, a replay,
    the header's bytes checked, a damage report, a console and a team screen on the file."""
    from strategia.ui.console import Console
    from strategia.ui.team import TeamScreen

    path = _new(tmp_path / "g.game")
    g = Game.open(path)
    assert locks_on(path) >= 1
    g.order("22 т.д. на 35,36")
    g.intervene("rain")
    g.end_turn()
    assert locks_on(path) >= 1
    other = Game.open(path)
    other.refresh()
    other.journal.close()
    assert locks_on(path) >= 1
    Game.open(path, verify=True).journal.close()
    assert header_damage(path) == [] and locks_on(path) >= 1
    check_file(path)
    g.journal._damage("a check")  # the damage report reads the file's bytes
    copy_file(path, tmp_path / "copy.game")
    assert locks_on(path) >= 1
    console = Console.open(path, games=tmp_path / "games")
    team = TeamScreen(Game.open(path), "blue")
    console.end_turn()
    team.catch_up()
    assert locks_on(path) >= 1
    for held in (g, console.game, team.game):
        held.journal.close()
    assert locks_on(path) == 0


def test_only_file_access_reads_a_game_files_bytes() -> None:
    """The class of bug made impossible: outside `strategia.game.file_access`, nothing in the
    package reads a file's bytes by itself unless it says why that file is not a game file a
    connection may hold."""
    raw = ("read_bytes(", '"rb"', '"r+b"', "copyfile(", "shutil.copy")
    found = []
    for path in sorted((ROOT / "strategia").rglob("*.py")):
        if path.name == "file_access.py":
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if any(r in line for r in raw) and "not the game file" not in line:
                found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    found = [f for f in found if not f.startswith("strategia/rules/")]  # rule files, not games
    assert found == []


def test_the_shared_trials_quick() -> None:
    """Holders of every kind and the command line beside them, killed at random (6 trials):
    nothing acknowledged lost, every game opens and replays, no lock ever lost."""
    run = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "shared_trials.py"), "--quick", "--json"],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        cwd=ROOT / "benchmarks",
    )
    assert run.returncode == 0, run.stderr[-3000:]
    out = json.loads(run.stdout)
    assert all(v == 0 for v in out["failures"].values()), out
    shared = out["shared"]
    assert shared["trials"] == 6 and shared["acknowledged"] > 0 and shared["cli_acknowledged"] > 0


# --- holders in other processes, commands beside them ---------------------------------------


class Held:
    """A holder process (benchmarks/holder.py) and what it was acknowledged."""

    def __init__(self, kind: str, path: Path, side: str = "") -> None:
        self.proc = subprocess.Popen(
            [sys.executable, str(HOLDER), kind, str(path), side],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        self.acks: list[dict[str, Any]] = []
        ready = self._read()
        assert ready["locks"] >= 1, f"the {kind} holds no lock on the game after opening it"

    def _read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        assert line, "the holder died"
        return dict(json.loads(line))

    def do(self, **cmd: Any) -> dict[str, Any]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(cmd, ensure_ascii=False) + "\n")
        self.proc.stdin.flush()
        answer = self._read()
        if "seq" in answer:
            self.acks.append(answer)
        return answer

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, cwd=ROOT, timeout=120)


def _commands(path: Path, out: Path, note: str) -> list[list[str]]:
    """Every command the README suggests beside a console: the readers, then the writers."""
    g = str(path)
    return [
        ["game", "show", g],
        ["game", "show", g, "--side", "blue", "--json"],
        ["game", "journal", g],
        ["game", "journal", g, "--side", "red", "--json"],
        ["game", "report", g, "--turn", "1"],
        ["game", "score", g],
        ["game", "debrief", g, "--side", "blue", "--json"],
        ["game", "chart", g, "--side", "red", "--csv", str(out.with_suffix(".csv"))],
        ["game", "report", g, "--whole", "-o", str(out.with_suffix(".html"))],
        ["game", "fork", g, str(out.with_suffix(".fork.game")), "--turn", "1"],
        ["game", "replay", g],
        ["game", "export", g, str(out)],
        ["game", "intervene", g, note],
        ["game", "ask", g, "--side", "blue", "есть ли войска в 40,21?"],
        ["game", "order", g, "23 т.д. поворот на север"],
        ["game", "undo", g],
        ["game", "end-turn", g],
    ]


@pytest.mark.parametrize("kind", ["game", "console", "team"])
def test_every_command_beside_a_holder_then_the_holder_killed(tmp_path: Path, kind: str) -> None:
    """A holder (a script's Game, the console's kernel, Red's team screen) gives commands
    between each of the CLI's commands beside it, three more after them, and is killed
    without closing: every command it was acknowledged is in the game, as are the CLI's
    writes, the game replays, and the holder held its lock throughout."""
    path = _new(tmp_path / "g.game")
    held = Held(kind, path, "red")
    notes = []
    for k, args in enumerate(_commands(path, tmp_path / "g.jsonl", "a note from the CLI")):
        done = _cli(*args)
        assert done.returncode in (0, 2) or "error" in done.stderr.lower(), done.stderr
        answer = held.do(do="note", text=f"{kind} note {k}")
        assert answer["ok"], answer
        assert held.do(do="locks")["locks"] >= 1, f"lock lost after {args[:2]}"
        notes.append(f"{kind} note {k}")
    for k in range(3):
        assert held.do(do="note", text=f"{kind} last {k}")["ok"]
    held.kill()
    g = Game.open(path)
    entries = {e.seq: e for e in g.journal.entries}
    for a in held.acks:
        e = entries.get(a["seq"])
        assert e is not None and e.kind == a["kind"] and row_crc(dumps(e.data)) == a["crc"], a
    texts = [e.data["text"] for e in g.journal.entries if e.kind == "intervention"]
    assert "a note from the CLI" in texts and all(n in texts for n in notes)  # undone or not
    assert [
        p for p in Game.open(path, verify=True).replay_problems if not p.startswith("note")
    ] == []


def test_two_holders_and_a_reader_beside_them(tmp_path: Path) -> None:
    """The console and a team screen both hold the game; a reader opens and closes beside
    them; one holder closes cleanly, the other is killed: nothing acknowledged is lost."""
    path = _new(tmp_path / "g.game")
    console, team = Held("console", path), Held("team", path, "red")
    for k in range(3):
        assert console.do(do="note", text=f"console {k}")["ok"]
        assert _cli("game", "show", str(path)).returncode == 0
        assert team.do(do="order", text="23 т.д. поворот на запад")["ok"]
    assert team.do(do="close")["ok"]
    team.kill()
    assert _cli("game", "journal", str(path)).returncode == 0
    for k in range(3):
        assert console.do(do="note", text=f"console after {k}")["ok"]
    console.kill()
    g = Game.open(path)
    for a in console.acks + team.acks:
        assert g.journal.entries[a["seq"] - 1].kind == a["kind"], a


# --- a damaged or cut log, and the count kept apart -----------------------------------------


@pytest.fixture(scope="module")
def held_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A game whose last commands are still in its write-ahead log: copied (file, log and
    count, not SQLite's index) while it was held open."""
    folder = tmp_path_factory.mktemp("wal")
    path = _new(folder / "g.game")
    g = Game.open(path)
    for k in range(6):
        g.intervene(f"note {k}")
    g.end_turn()
    copy = folder / "copy" / "g.game"
    copy.parent.mkdir()
    for ext in ("", "-wal", "-count"):
        copy_file(Path(f"{path}{ext}"), Path(f"{copy}{ext}"))
    g.journal.close()
    return copy


def _place(copy: Path, dest: Path) -> Path:
    dest.mkdir(parents=True, exist_ok=True)
    for ext in ("", "-wal", "-count"):
        shutil.copyfile(Path(f"{copy}{ext}"), dest / f"g.game{ext}")
    return dest / "g.game"


def test_the_held_copy_opens_whole(held_copy: Path, tmp_path: Path) -> None:
    path = _place(held_copy, tmp_path / "whole")
    assert Path(f"{path}-wal").stat().st_size > 32  # the log holds committed frames
    g = Game.open(path)
    assert g.journal.acknowledged == g.journal.last_seq == len(g.journal.entries)


def test_damaged_logs_are_all_reported(held_copy: Path, tmp_path: Path) -> None:
    """40 copies, each with a bit flipped in the log's committed part (its header or a
    frame) or the log cut short: every one is refused as damaged, naming the entries lost,
    none opens as the earlier game; `--recover` then keeps the good part."""
    rng = random.Random(22)
    wal = Path(f"{held_copy}-wal").read_bytes()
    whole = Game.open(_place(held_copy, tmp_path / "whole"))
    n = whole.journal.last_seq
    reported = 0
    for k in range(40):
        path = _place(held_copy, tmp_path / f"d{k}")
        data = bytearray(wal)
        if k % 4 == 3:
            del data[rng.randrange(32, len(data)) :]
        else:
            at = rng.randrange(len(data))
            data[at] ^= 1 << rng.randrange(8)
        Path(f"{path}-wal").write_bytes(bytes(data))
        try:
            g = Game.open(path)
        except StoreError as e:
            assert f"to {n} were acknowledged but are missing" in str(e) or "entry" in str(e)
            assert "strategia game replay --recover" in str(e)
            reported += 1
            continue
        assert g.journal.entries == whole.journal.entries, f"copy {k} opened as another game"
        pytest.fail(f"copy {k}: a damaged log opened with no report")
    assert reported == 40
    recovered = Game.open(_place(held_copy, tmp_path / "r"), recover=True)
    assert recovered.journal.last_seq == n  # an undamaged copy needs no recovery


def test_replay_of_a_game_that_lost_its_end_is_not_reproduced(
    held_copy: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _place(held_copy, tmp_path / "cut")
    wal = Path(f"{path}-wal")
    wal.write_bytes(wal.read_bytes()[: 32 + 4120 * 2])  # only the first frames kept
    assert main(["game", "replay", str(path)]) != 0
    err = capsys.readouterr().err
    assert "were acknowledged but are missing" in err and "--recover" in err
    assert main(["game", "replay", str(path), "--recover"]) == 1  # findings
    capsys.readouterr()
    assert main(["game", "replay", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["acknowledged"] == data["entries"]


def test_a_copy_without_its_count_opens_and_replay_says_what_it_cannot_tell(
    held_copy: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _place(held_copy, tmp_path / "nocount")
    count.count_path(path).unlink()
    assert main(["game", "replay", str(path)]) == 0
    assert "no count of acknowledged entries" in capsys.readouterr().out
    Game.open(path).intervene("on")  # the next command starts a count again
    assert count.acknowledged(count.read(path), Game.open(path).journal.game_id) is not None


def test_a_count_left_beside_a_game_removed_by_hand_is_not_the_new_games(tmp_path: Path) -> None:
    """A game removed by hand leaves its count; the same game made again there (imported from
    a shorter export: the same header, so the same identity) is not taken for damaged."""
    from strategia.game import textform

    path = _new(tmp_path / "g.game")
    g = Game.open(path)
    g.intervene("one")
    g.intervene("two")
    textform.write(tmp_path / "short.jsonl", g.journal.entries[:2])
    g.journal.close()
    for ext in ("", "-wal", "-shm"):
        Path(f"{path}{ext}").unlink(missing_ok=True)
    assert count.acknowledged(count.read(path), g.journal.game_id) == 4
    again = Game.import_text(tmp_path / "short.jsonl", path)
    assert Game.open(path).journal.acknowledged == again.journal.last_seq == 2


def test_a_header_byte_sqlite_does_not_read_opens_and_replay_reports_it(
    held_copy: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Opening reads the file's header through SQLite only; the bytes SQLite ignores (80: in
    the 20 reserved for expansion) are checked by `game replay`, which reports the flip."""
    path = _place(held_copy, tmp_path / "flip")
    raw = bytearray(path.read_bytes())
    raw[80] ^= 0x01
    path.write_bytes(bytes(raw))
    assert Game.open(path).journal.problems == []
    assert main(["game", "replay", str(path)]) == 1  # findings
    assert "bytes 80-80 (the file's header)" in capsys.readouterr().out
