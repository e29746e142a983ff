"""`strategia serve` as a process: the tokens `--plan` prints are the ones served, kept in a file
only its owner may read and on no process's command line; each screen opens with its own token
and no other; /logout answers; SIGTERM (to a background job) and SIGHUP stop every Voilà and its
kernels and free their ports.

No browser: plain HTTP against the real servers (tests/test_serve_browser.py drives Chromium).
"""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import socket
import stat
import subprocess
import sys
import time
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from strategia.cli import main, serve_cmd
from strategia.game.game import Game
from strategia.theatre.builder import ScenarioBuilder

pytest.importorskip("voila", reason="voila is not installed (pip install -e '.[dev]')")
PORT = 19400  # the first port tried; serve takes the next free ones


def _game(folder: Path) -> Path:
    b = ScenarioBuilder.blank(12, 6, name="Граница")
    b = b.state("R", "Красные", "red", lon=(1, 6)).state("B", "Синие", "blue", lon=(7, 12))
    b = b.place("R", "13 с.д. - 5,3 фронтом на восток")
    b = b.place("B", "101 т.д. - 8,3 фронтом на запад")
    g = Game.new(b.build(), folder / "border.game", level=3)
    g.journal.close()
    return folder / "border.game"


def _plan(capsys: pytest.CaptureFixture[str], game: Path, *extra: str) -> dict[str, str]:
    """Who to URL, as `serve --plan --json` prints them."""
    assert main(["serve", str(game), "--plan", "--json", "--port", str(PORT), *extra]) == 0
    return {s["who"]: s["url"] for s in json.loads(capsys.readouterr().out)["screens"]}


def _token(url: str) -> str:
    return urllib.parse.parse_qs(urllib.parse.urlsplit(url).query)["token"][0]


def test_plan_keeps_the_tokens_for_serve_in_a_file_only_its_owner_reads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = _game(tmp_path)
    first = _plan(capsys, game)
    assert set(first) == {"mediator", "red", "blue"}
    path = serve_cmd.token_file(game)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    kept = json.loads(path.read_text())
    assert {w: v["token"] for w, v in kept.items()} == {w: _token(u) for w, u in first.items()}
    assert {w: v["port"] for w, v in kept.items()} == {
        w: urllib.parse.urlsplit(u).port for w, u in first.items()
    }
    assert path.parent != serve_cmd.folder(game)  # not in the folder the servers serve
    assert _plan(capsys, game) == first  # the next plan, and serve, use the same
    assert _plan(capsys, game, "--sides", "red") == {w: first[w] for w in ("mediator", "red")}
    renewed = _plan(capsys, game, "--new-tokens")
    assert all(_token(renewed[w]) != _token(first[w]) for w in first)
    assert _plan(capsys, game) == renewed


def test_a_token_file_others_could_read_is_replaced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = _game(tmp_path)
    first = _plan(capsys, game)
    path = serve_cmd.token_file(game)
    path.chmod(0o644)
    assert main(["serve", str(game), "--plan", "--port", str(PORT), "--lang", "en"]) == 0
    out, err = capsys.readouterr()
    assert "could be read by others" in err and str(path) in err
    assert all(_token(u) not in out for u in first.values())
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_voila_gets_its_token_in_its_environment_not_its_command_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    started: list[tuple[list[str], dict[str, str]]] = []

    class Recorder:
        pid = 0

        def __init__(self, cmd: list[str], env: dict[str, str], **_: Any) -> None:
            started.append((cmd, env))

    monkeypatch.setattr(serve_cmd.subprocess, "Popen", Recorder)
    game = _game(tmp_path)
    screens = serve_cmd.plan(game, None, "127.0.0.1", PORT)
    serve_cmd.start(game, screens)
    assert len(started) == len(screens) == 3
    for s, (cmd, env) in zip(screens, started, strict=True):
        assert env["JUPYTER_TOKEN"] == s.token and env["STRATEGIA_SIDE"] == s.who
        assert "--token" in cmd  # Voilà's flag: ask for the token (without it, no token at all)
        assert not any(t.token in arg for t in screens for arg in cmd)


# ---- the real servers ----


@dataclass
class Serving:
    proc: subprocess.Popen[bytes] | None  # None: a background job of a shell, not our child
    pid: int
    urls: dict[str, str]  # who to URL, as serve printed them
    out: Path


def _listed(out: Path, pid: int) -> dict[str, str]:
    """The addresses serve printed, once it says it is running."""
    deadline = time.time() + 60
    while time.time() < deadline:
        text = out.read_text(encoding="utf-8") if out.exists() else ""
        if "SIGHUP stops every screen" in text:
            urls = re.findall(r"^  (.+?)\s+(http://\S+)$", text, re.M)
            return {("mediator" if w == "the mediator" else w.lower()): u for w, u in urls}
        assert _alive(pid), f"serve ended before it listed its screens:\n{text}"
        time.sleep(0.1)
    raise AssertionError(f"serve printed no listing:\n{out.read_text(encoding='utf-8')}")


def _get(url: str, cookie: str = "") -> tuple[int, dict[str, str], str]:
    """One GET, its redirect not followed: the status, the headers, the body."""
    parts = urllib.parse.urlsplit(url)
    c = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    path = parts.path + (f"?{parts.query}" if parts.query else "")
    c.request("GET", path, headers={"Cookie": cookie} if cookie else {})
    r = c.getresponse()
    headers = {k.lower(): v for k, v in r.getheaders() if k.lower() != "set-cookie"}
    headers["set-cookie"] = "\n".join(v for k, v in r.getheaders() if k.lower() == "set-cookie")
    body = r.read().decode("utf-8", "replace")
    c.close()
    return r.status, headers, body


def _up(urls: dict[str, str]) -> None:
    """Wait until every screen's server answers (its login page)."""
    deadline = time.time() + 90
    for url in urls.values():
        login = urllib.parse.urljoin(url, "/login")
        while True:
            try:
                if _get(login)[0] == 200:
                    break
            except OSError:
                pass
            assert time.time() < deadline, f"{login}: no server"
            time.sleep(0.3)


def _serve(game: Path, port: int, background: bool = False) -> Serving:
    """`strategia serve GAME --sides red` running, its screens up: our child, or with
    `background` a background job of a non-interactive shell (SIGINT ignored), as
    `strategia serve GAME &` in a script starts it."""
    out = game.with_suffix(f".{port}.out")
    cmd = [sys.executable, "-m", "strategia.cli", "serve", str(game), "--sides", "red",
           "--port", str(port), "--lang", "en"]  # fmt: skip
    if background:
        line = " ".join(cmd) + f" >{out} 2>&1 & echo $!"
        pid = int(subprocess.run(["bash", "-c", line], capture_output=True, text=True).stdout)
        proc = None
    else:
        with out.open("wb") as f:
            proc = subprocess.Popen(
                cmd, stdout=f, stderr=subprocess.STDOUT, preexec_fn=_hangup_ends
            )  # a hangup ends serve as it would a terminal's: even under `nohup pytest`
        pid = proc.pid
    served = Serving(proc, pid, _listed(out, pid), out)
    _up(served.urls)
    return served


def _hangup_ends() -> None:
    signal.signal(signal.SIGHUP, signal.SIG_DFL)


def _alive(pid: int) -> bool:
    try:
        line = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return line[line.rindex(")") + 2] != "Z"  # a zombie has ended (only its parent may reap it)


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def _stop(s: Serving) -> None:
    if _alive(s.pid):
        os.kill(s.pid, signal.SIGTERM)
    deadline = time.time() + 30
    while _alive(s.pid) and time.time() < deadline:
        time.sleep(0.1)
    if s.proc is not None:
        s.proc.wait(timeout=5)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Serving, dict[str, str]]]:
    """serve running for a two-side game, and the addresses `--plan` printed before it."""
    game = _game(tmp_path_factory.mktemp("serve"))
    cmd = [sys.executable, "-m", "strategia.cli", "serve", str(game), "--sides", "red",
           "--plan", "--json", "--port", str(PORT)]  # fmt: skip
    planned = json.loads(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout)
    s = _serve(game, PORT)
    try:
        yield s, {x["who"]: x["url"] for x in planned["screens"]}
    finally:
        _stop(s)


def test_no_token_on_any_command_line(served: tuple[Serving, dict[str, str]]) -> None:
    s, _ = served
    voilas = [c for c in map(_cmdline, serve_cmd._descendants({s.pid})) if serve_cmd.SERVER in c]
    assert len(voilas) == 2 and all("--token " in c for c in voilas)
    tokens = [_token(u).encode() for u in s.urls.values()]
    for p in Path("/proc").glob("[0-9]*"):
        try:
            line = (p / "cmdline").read_bytes()
        except OSError:
            continue
        assert not any(t in line for t in tokens), f"a token on {p.name}'s command line"


def test_the_planned_tokens_open_their_screens_and_no_other(
    served: tuple[Serving, dict[str, str]],
) -> None:
    s, planned = served
    assert s.urls == planned  # the addresses --plan printed are the ones served
    for who, url in s.urls.items():
        status, _, body = _get(url)
        assert status == 200 and "jupyter-widgets" in body, who
        other = s.urls["red" if who == "mediator" else "mediator"]
        bare = url.split("?")[0]
        for refused in (bare, f"{bare}?token=wrong", f"{bare}?token={_token(other)}"):
            status, headers, body = _get(refused)
            assert status == 302 and "/login" in headers["location"], refused
            assert "jupyter-widgets" not in body


def test_logout_answers_and_ends_the_login(served: tuple[Serving, dict[str, str]]) -> None:
    s, _ = served
    url = s.urls["red"]
    logout = urllib.parse.urljoin(url, "/logout")
    status, _, body = _get(logout)
    assert status == 200 and "Successfully logged out" in body
    status, _, body = _get(f"{logout}?token={_token(url)}")
    assert status == 200 and "Successfully logged out" in body
    status, headers, _ = _get(urllib.parse.urljoin(url, f"/login?token={_token(url)}"))
    login = next(c.split(";")[0] for c in headers["set-cookie"].split("\n") if "username" in c)
    assert status == 302 and _get(url.split("?")[0], login)[0] == 200  # the cookie is the key
    status, headers, _ = _get(logout, login)
    assert status == 200
    cleared = next(c for c in headers["set-cookie"].split("\n") if c.startswith("username"))
    assert cleared.split(";")[0].endswith('=""') and "expires=" in cleared.lower()


def _free(port: int) -> bool:
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


@pytest.mark.parametrize(
    ("sig", "background"),
    [(signal.SIGTERM, True), (signal.SIGHUP, False)],
    ids=["SIGTERM-to-a-background-job", "SIGHUP"],
)
def test_a_signal_stops_every_screen_and_its_kernels(
    tmp_path: Path, sig: signal.Signals, background: bool
) -> None:
    game = _game(tmp_path)
    s = _serve(game, PORT + 10 if background else PORT + 20, background)
    tree: dict[int, str] = {}  # pid to start time: what serve started, its kernels too
    try:
        assert _get(s.urls["red"])[0] == 200  # a page open: its kernel runs
        deadline = time.time() + 30
        while not any("ipykernel" in _cmdline(p) for p in serve_cmd._descendants({s.pid})):
            assert time.time() < deadline, "no kernel started"
            time.sleep(0.2)
        tree = serve_cmd._descendants({s.pid})
        ports = [urllib.parse.urlsplit(u).port or 0 for u in s.urls.values()]
        assert not any(_free(p) for p in ports)
        t0 = time.time()
        os.kill(s.pid, sig)
        while _alive(s.pid) and time.time() - t0 < 15:
            time.sleep(0.05)
        took = time.time() - t0
        assert not _alive(s.pid), "serve is still running"
        left = [_cmdline(p) for p in tree if _alive(p)]
        assert not left, f"still running after {took:.1f} s: {left}"
        assert all(_free(p) for p in ports)
        assert took < 10
        assert s.out.read_text(encoding="utf-8").rstrip().endswith("the screens are stopped")
    finally:
        _stop(s)
        now = serve_cmd._processes()
        for p, started in tree.items():
            if now.get(p, (0, ""))[1] == started:
                os.kill(p, signal.SIGKILL)


def test_a_server_that_stops_by_itself_stops_the_others(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    started: list[subprocess.Popen[bytes]] = []

    def start(game: Path, screens: list[serve_cmd.Screen], lang: str) -> list[Any]:
        for code in ("import time; time.sleep(60)", "raise SystemExit(3)"):
            started.append(subprocess.Popen([sys.executable, "-c", code], start_new_session=True))
        return started

    monkeypatch.setattr(serve_cmd, "start", start)
    game = _game(tmp_path)
    assert main(["serve", str(game), "--sides", "red", "--port", str(PORT), "--lang", "en"]) == 2
    out = capsys.readouterr().out
    assert "the screen of Red stopped by itself (status 3); the others are stopped" in out
    assert started[0].poll() == -signal.SIGTERM
