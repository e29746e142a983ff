"""A game file and the files beside it, as a user mixes them up: every mix-up the outside audit
found is refused, saying what happened and what to do, in the reader's language; none is read.

- a game killed with its log left, removed by hand, a new game made at its name: refused (the
  log would be read into the new game), and made once the log is gone (or with --force);
- another game copied over a name where a log was left: refused, nothing of the log read or
  copied into the file; `--recover` rebuilds the game from the file alone;
- a game moved while another process holds it: opening it at its new name is refused naming
  the holder, the holder's next command is refused (nothing written into a file no longer at its
  name), and once the holder is killed, the log it left at the old name is found;
- recovery is refused while a process holds the game, naming it;
- no command writes its output over a game (the one it reads, or another), over a game's log,
  or over any file without --force; `game new` onto a game only with --force, not while held.

Run as a user would: the `strategia` command in its own processes, holders in theirs
(benchmarks/holder.py), a writer killed with SIGKILL to leave its log.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from strategia.core.errors import StrategiaError
from strategia.game import count
from strategia.game.game import Game
from strategia.game.pairing import MovedError
from strategia.game.sqlite_file import stamps_in

ROOT = Path(__file__).parents[1]
SCENARIO = ROOT / "maps" / "continental.toml"
HOLDER = ROOT / "benchmarks" / "holder.py"
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
KILLED = (
    "import os, signal, sys\n"
    "from strategia.game.game import Game\n"
    "g = Game.open(sys.argv[1])\n"
    "for k in range(int(sys.argv[2])):\n"
    "    g.intervene(f'killed writer {k}')\n"
    "os.kill(os.getpid(), signal.SIGKILL)\n"
)


def cli(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """`strategia ARGS` in a process of its own (this worktree's package)."""
    return subprocess.run(
        [sys.executable, "-m", "strategia.cli", *args],
        capture_output=True, text=True, cwd=cwd, env=ENV, timeout=60, check=False,
    )  # fmt: skip


def both(*args: str, cwd: Path = ROOT) -> dict[str, subprocess.CompletedProcess[str]]:
    """`strategia ARGS --lang en` and `--lang ru`, at once (two processes)."""
    procs = {}
    for lang in ("en", "ru"):
        procs[lang] = subprocess.Popen(
            [sys.executable, "-m", "strategia.cli", *args, "--lang", lang],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=cwd, env=ENV,
        )  # fmt: skip
    out = {}
    for lang, proc in procs.items():
        stdout, stderr = proc.communicate(timeout=60)
        out[lang] = subprocess.CompletedProcess(proc.args, proc.returncode, stdout, stderr)
    return out


def new_game(path: Path, seed: int = 7) -> Path:
    g = Game.new(SCENARIO, path, level=2, seed=seed)
    g.order("21 т.д. на 35,35")
    g.journal.close()
    return path


def killed_writer(path: Path, notes: int = 6) -> None:
    """A process that writes `notes` commands to the game and is killed before closing it:
    its log (and index, and count) stay beside the game."""
    done = subprocess.run([sys.executable, "-c", KILLED, str(path), str(notes)], env=ENV,
                          timeout=60, check=False)  # fmt: skip
    assert done.returncode == -signal.SIGKILL
    assert Path(f"{path}-wal").exists()


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


class Holder:
    """A process holding the game open (benchmarks/holder.py), driven a line at a time."""

    def __init__(self, path: Path, kind: str = "game") -> None:
        self.proc = subprocess.Popen(
            [sys.executable, str(HOLDER), kind, str(path)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT, env=ENV,
        )  # fmt: skip
        self.pid = int(self._read()["ready"])

    def _read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        assert line, "the holder died"
        return dict(json.loads(line))

    def do(self, **cmd: Any) -> dict[str, Any]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(cmd, ensure_ascii=False) + "\n")
        self.proc.stdin.flush()
        return self._read()

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)


@pytest.fixture
def holders() -> Any:
    started: list[Holder] = []

    def start(path: Path, kind: str = "game") -> Holder:
        started.append(Holder(path, kind))
        return started[-1]

    yield start
    for h in started:
        if h.proc.poll() is None:
            h.kill()


# --- 1. a new game made where a killed game's log lies ------------------------------------


def test_a_new_game_where_a_killed_games_log_lies_is_refused(tmp_path: Path) -> None:
    war = new_game(tmp_path / "war.game")
    killed_writer(war)
    war.unlink()  # `rm war.game`: its log, index and count stay
    said = both("game", "new", str(SCENARIO), "war.game", cwd=tmp_path)
    for lang, words in (("en", "no game file is there, but war.game-wal"),
                        ("ru", "файла игры нет, но есть war.game-wal")):  # fmt: skip
        done = said[lang]
        assert done.returncode == 2 and words in done.stderr, done.stderr
        assert "rm war.game-wal war.game-shm war.game-count" in done.stderr
        assert "Traceback" not in done.stderr
    assert not war.exists()
    done = cli("game", "new", str(SCENARIO), "war.game", "--force", "--lang", "en", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    g = Game.open(war, verify=True)
    assert g.journal.last_seq == 1 and g.replay_problems == []  # its own entry, no other's
    assert not any(e.kind == "intervention" for e in g.journal.entries)


def test_a_leftover_log_is_named_and_once_removed_the_new_game_is_new(tmp_path: Path) -> None:
    war = new_game(tmp_path / "war.game")
    killed_writer(war)
    war.unlink()
    with pytest.raises(StrategiaError, match="war.game-wal"):
        Game.new(SCENARIO, war, seed=1)
    for ext in ("-wal", "-shm", "-count"):
        Path(f"{war}{ext}").unlink()
    g = Game.new(SCENARIO, war, seed=1)
    assert g.journal.last_seq == 1 and g.state.turn == 1


# --- 2. a game copied over a name where another's log lies --------------------------------


def test_a_game_copied_over_a_leftover_log_is_refused_never_mixed(tmp_path: Path) -> None:
    war = new_game(tmp_path / "war.game")
    killed_writer(war, 6)
    war.unlink()
    other = new_game(tmp_path / "other.game", seed=11)
    shutil.copyfile(other, war)  # `cp other.game war.game`
    before = digest(war)
    said = both("game", "show", str(war))
    for lang, words in (("en", "war.game-wal beside it is not this file's log"),
                        ("ru", "war.game-wal рядом с ним — не лог этого файла")):  # fmt: skip
        done = said[lang]
        assert done.returncode == 2 and words in done.stderr, done.stderr
        assert "--recover" in done.stderr and "mv " in done.stderr
    assert digest(war) == before and Path(f"{war}-wal").exists()  # nothing copied in
    done = cli("game", "replay", str(war), "--recover", "--lang", "en")
    assert "another file's log, not read" in done.stdout, done.stdout + done.stderr
    assert Path(f"{war}.damaged-wal").exists()  # the log kept aside, with the file
    g = Game.open(war, verify=True)
    assert [e.data for e in g.journal.entries][1:] == [
        e.data for e in Game.open(other).journal.entries
    ][1:]
    assert g.replay_problems == []


def test_every_commit_leaves_the_files_stamp_in_its_log(tmp_path: Path) -> None:
    """Orders, notes, undo, ends of turns (with their snapshot): each commit rewrites the
    stamp, so the log always holds the identity of the file that wrote it."""
    path = new_game(tmp_path / "g.game")
    g = Game.open(path)
    seen = stamps_in(b"")
    for step in (
        lambda: g.order("22 т.д. на 35,36"),
        lambda: g.intervene("rain"),
        lambda: g.undo(),
        lambda: g.end_turn(),
    ):
        size = Path(f"{path}-wal").stat().st_size
        step()
        wal = Path(f"{path}-wal").read_bytes()[size:]  # this commit's frames
        seen = stamps_in(wal)
        assert seen == {(g.journal.game_id, g.journal.file_id)}
    g.journal.close()


# --- 3. a game moved from under its holder ----------------------------------------------------


def test_a_game_moved_from_under_its_holder(tmp_path: Path, holders: Any) -> None:
    war = new_game(tmp_path / "war.game")
    held = holders(war, "console")
    acks = [held.do(do="note", text=f"console {k}") for k in range(6)]
    assert all(a["ok"] for a in acks)
    moved = tmp_path / "x.game"
    os.rename(war, moved)  # `mv war.game x.game` while the console holds it
    said = both("game", "show", str(moved))
    for lang, words in (("en", f"this game file is open in process {held.pid}"),
                        ("ru", f"этот файл игры открыт в процессе {held.pid}")):  # fmt: skip
        done = said[lang]
        assert done.returncode == 2 and words in done.stderr, done.stderr
    answer = held.do(do="note", text="after the move")
    assert not answer["ok"] and f"moved to {moved}" in answer["error"], answer
    held.kill()  # its log stays at the old name
    said = both("game", "journal", str(moved))
    for lang, words in (("en", "this game's newest commands are in"),
                        ("ru", "последние команды этой игры лежат в")):  # fmt: skip
        done = said[lang]
        assert done.returncode == 2 and words in done.stderr, done.stderr
        assert f"{war}-wal" in done.stderr
        assert f"mv {moved} {war}" in done.stderr
    os.rename(moved, war)  # as the message says
    g = Game.open(war, verify=True)
    texts = [e.data["text"] for e in g.journal.entries if e.kind == "intervention"]
    assert texts == [f"console {k}" for k in range(6)] and g.replay_problems == []


def test_a_holder_writes_nothing_into_a_file_removed_or_replaced(tmp_path: Path) -> None:
    path = new_game(tmp_path / "g.game")
    g = Game.open(path)
    n = g.journal.last_seq
    path.unlink()  # removed while held
    with pytest.raises(MovedError, match="removed"):
        g.intervene("into a removed file")
    assert g.journal.last_seq == n
    g.journal.close()
    other = new_game(tmp_path / "o.game", seed=3)
    h = Game.open(other)
    shutil.copyfile(new_game(tmp_path / "p.game", seed=4), tmp_path / "q.game")
    os.replace(tmp_path / "q.game", other)  # replaced by another file while held
    with pytest.raises(MovedError) as e:
        h.intervene("into a replaced file")
    assert "another file is there now" in str(e.value)
    assert "другой файл" in e.value.say("ru")
    h.journal.close()


# --- 4. recovery while held -------------------------------------------------------------------


def test_recovery_is_refused_while_a_process_holds_the_game(tmp_path: Path, holders: Any) -> None:
    path = new_game(tmp_path / "g.game")
    held = holders(path)
    assert held.do(do="note", text="held")["ok"]
    g = Game.open(path)
    count.record(path, g.journal.game_id, g.journal.last_seq + 3)  # three entries "lost"
    g.journal.close()
    said = both("game", "replay", str(path), "--recover")
    for lang, words in (("en", f"recovery is refused while the game is open in process "
                               f"{held.pid}"),
                        ("ru", f"восстановление невозможно, пока игра открыта в процессе "
                               f"{held.pid}")):  # fmt: skip
        done = said[lang]
        assert done.returncode == 2 and words in done.stderr, done.stderr
    assert not Path(f"{path}.damaged").exists()
    assert held.do(do="note", text="still writing into the game itself")["ok"]
    held.kill()
    done = cli("game", "replay", str(path), "--recover", "--lang", "en")
    assert Path(f"{path}.damaged").exists(), done.stderr


# --- 5. no output over a game -----------------------------------------------------------------

OVER_THE_GAME = [
    ("export", ["game", "export", "{g}", "{g}"], "{g}"),
    ("chart -o", ["game", "chart", "{g}", "-o", "{g}"], "-o {g}"),
    ("chart --csv", ["game", "chart", "{g}", "--csv", "{g}"], "--csv {g}"),
    ("report -o", ["game", "report", "{g}", "-o", "{g}"], "-o {g}"),
    ("report --whole", ["game", "report", "{g}", "--whole", "-o", "{g}"], "-o {g}"),
    ("debrief", ["game", "debrief", "{g}", "--side", "red", "-o", "{g}"], "-o {g}"),
]


@pytest.mark.parametrize(
    ("name", "argv", "named"), OVER_THE_GAME, ids=[c[0] for c in OVER_THE_GAME]
)
def test_no_command_writes_over_the_game_it_reads(
    tmp_path: Path, name: str, argv: list[str], named: str
) -> None:
    path = new_game(tmp_path / "war.game")
    before = digest(path)
    g = str(path)
    said = both(*[a.format(g=g) for a in argv], "--force")
    for lang, words in (("en", "that is the file this command reads"),
                        ("ru", "это файл, который команда читает")):  # fmt: skip
        done = said[lang]
        assert done.returncode == 2, (name, done.stdout, done.stderr)
        assert f"{named.format(g=g)}: {words}" in done.stderr, done.stderr
        assert digest(path) == before
    assert Game.open(path, verify=True).replay_problems == []


def test_no_output_over_another_game_its_log_or_a_file_without_force(tmp_path: Path) -> None:
    from strategia.cli import main

    path = new_game(tmp_path / "war.game")
    other = new_game(tmp_path / "other.game", seed=2)
    before = digest(other)
    g = str(path)
    said = both("game", "report", g, "-o", str(other), "--force")
    assert said["en"].returncode == said["ru"].returncode == 2
    assert f"-o {other}: a game file is there; it is never written over" in said["en"].stderr
    assert f"-o {other}: там файл игры" in said["ru"].stderr
    assert digest(other) == before
    held = Game.open(path)  # its log is there while it is open
    wal = Path(f"{path}-wal")
    assert main(["game", "export", str(other), str(wal), "--force", "--lang", "en"]) == 2
    assert Game.open(path, verify=True).replay_problems == []
    held.journal.close()
    plain = tmp_path / "out.html"
    plain.write_text("mine", encoding="utf-8")
    assert main(["game", "report", g, "--whole", "-o", str(plain), "--lang", "en"]) == 2
    assert plain.read_text(encoding="utf-8") == "mine"
    assert main(["game", "report", g, "--whole", "-o", str(plain), "--force"]) == 0
    assert plain.read_text(encoding="utf-8") != "mine"
    assert main(["game", "debrief", g, "--side", "red", "-o", str(tmp_path)]) == 2  # a folder


def test_new_onto_a_game_only_with_force_and_not_while_held(
    tmp_path: Path, holders: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    from strategia.cli import main

    path = new_game(tmp_path / "war.game")
    before = digest(path)
    said = both("game", "new", str(SCENARIO), str(path))
    for lang, words in (("en", "a game is already there; give --force"),
                        ("ru", "там уже есть игра; добавьте --force")):  # fmt: skip
        done = said[lang]
        assert done.returncode == 2 and words in done.stderr, done.stderr
    assert main(["game", "new", str(SCENARIO), str(SCENARIO), "--force", "--lang", "en"]) == 2
    assert "the file this command reads" in capsys.readouterr().err
    held = holders(path)
    done = cli("game", "new", str(SCENARIO), str(path), "--force", "--lang", "en")
    assert done.returncode == 2 and f"open in process {held.pid}" in done.stderr, done.stderr
    assert digest(path) == before and held.do(do="note", text="mine")["ok"]
    held.kill()
    done = cli("game", "new", str(SCENARIO), str(path), "--force", "--lang", "en")
    assert done.returncode == 0, done.stderr
    assert Game.open(path).journal.last_seq == 1  # the new game's own entry only
    assert not list(tmp_path.glob(".*replaced*"))  # the old one removed
