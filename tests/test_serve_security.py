"""`strategia serve` against another user of the same machine (uid 65534, `nobody`) and against
what it finds beside the game (an audit's four findings):

- another user finds no token: not on a command line, not in a process's environment (closed
  to it), not in a file it may read, not from Voilà's `/voila/query/<kernel id>` (pre-heated
  kernels on, their ids on the process list); and it cannot write into the screens' folder;
- a screens' folder someone else prepared (a symbolic link, another user's, one anybody may
  write to), or a game's folder that lets others replace it, is refused before anything is
  written or started;
- the ports `--plan` prints are the ones `serve` listens on, after a restart too; a planned port
  that is taken is refused, naming what holds it; `kill -9` of serve leaves none of its
  servers or kernels running;
- a malformed widget message is answered without the server's paths.

The tests that switch to `nobody` need root (skipped otherwise, saying why).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_serve import Serving, _alive, _cmdline, _game, _get, _listed, _stop, _token, _up

from strategia.cli import main, serve_cmd, serve_plan
from strategia.core.errors import StrategiaError
from strategia.ui.team.errors import MESSAGE

NOBODY = 65534
PORT = 19500
ROOT_ONLY = pytest.mark.skipif(os.getuid() != 0, reason="switching to uid 65534 needs root")
KERNEL_ID = re.compile(rb"kernel-([0-9a-f-]{36})\.json")


def _as_nobody() -> None:
    os.setgroups([])
    os.setgid(NOBODY)
    os.setuid(NOBODY)


def _python_for_nobody() -> str:
    """A Python another user may run (the probe needs only the standard library): this one
    may sit in a folder closed to others (pyenv under /root)."""
    for python in (sys.executable, "/usr/bin/python3", shutil.which("python3") or ""):
        try:
            subprocess.run([python, "-c", "pass"], preexec_fn=_as_nobody, check=True)
        except (OSError, subprocess.CalledProcessError):
            continue
        return python
    pytest.skip("no Python that uid 65534 may run")


def _shared() -> Path:
    """A folder anybody may write to, with the sticky bit (as /tmp): where the attacks are."""
    d = Path(tempfile.mkdtemp(prefix="strategia-shared-", dir="/tmp"))
    d.chmod(0o1777)
    return d


def _serve(game: Path, *extra: str) -> Serving:
    out = game.with_suffix(f".{len(list(game.parent.glob('*.out')))}.out")
    cmd = [sys.executable, "-m", "strategia.cli", "serve", str(game), "--sides", "red",
           "--lang", "en", *extra]  # fmt: skip
    fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)  # it lists the tokens
    with os.fdopen(fd, "wb") as f:
        proc = subprocess.Popen(cmd, stdout=f, stderr=subprocess.STDOUT)
    served = Serving(proc, proc.pid, _listed(out, proc.pid), out)
    _up(served.urls)
    return served


def _ports(urls: dict[str, str]) -> dict[str, int]:
    return {w: urllib.parse.urlsplit(u).port or 0 for w, u in urls.items()}


def _planned(game: Path, *extra: str) -> dict[str, str]:
    cmd = [sys.executable, "-m", "strategia.cli", "serve", str(game), "--sides", "red",
           "--plan", "--json", *extra]  # fmt: skip
    done = subprocess.run(cmd, capture_output=True, text=True, check=True)
    return {s["who"]: s["url"] for s in json.loads(done.stdout)["screens"]}


def _kernels(pid: int) -> dict[int, str]:
    """serve's kernels: pid to kernel id."""
    out = {}
    for p in serve_cmd._descendants({pid}):
        m = KERNEL_ID.search(_cmdline(p).encode())
        if m:
            out[p] = m.group(1).decode()
    return out


def _kill_tree(tree: dict[int, str]) -> None:
    now = serve_cmd._processes()
    for p, started in tree.items():
        if now.get(p, (0, ""))[1] == started:
            os.kill(p, signal.SIGKILL)


@pytest.fixture(scope="module")
def served() -> Iterator[tuple[Serving, dict[str, str], Path]]:
    """serve --preheat for a game in a shared folder, its kernels kept ready; the addresses
    `--plan` printed before it."""
    shared = _shared()
    tree: dict[int, str] = {}
    s: Serving | None = None
    try:
        game = _game(shared)
        planned = _planned(game, "--port", str(PORT))
        s = _serve(game, "--port", str(PORT), "--preheat")
        deadline = time.time() + 90
        while len(_kernels(s.pid)) < 2:  # one kept ready by each server
            assert time.time() < deadline, "no kernel kept ready"
            time.sleep(0.3)
        tree = serve_cmd._descendants({s.pid})
        yield s, planned, game
    finally:
        if s is not None:
            _stop(s)
            _kill_tree(tree | serve_cmd._descendants({s.pid}))
        shutil.rmtree(shared, ignore_errors=True)


PROBE = r"""
import json, os, re, socket, sys
args = json.loads(sys.stdin.read())
tokens = [t.encode() for t in args["tokens"]]
found = {"uid": os.getuid(), "cmdline": [], "environ_read": [], "environ_token": [], "files": [],
         "listed_screens": None, "wrote": [], "query": {}}
ids = set()
for pid in os.listdir("/proc"):
    if not pid.isdigit():
        continue
    try:
        line = open(f"/proc/{pid}/cmdline", "rb").read()
    except OSError:
        continue
    ids.update(m.decode() for m in re.findall(rb"kernel-([0-9a-f-]{36})\.json", line))
    if any(t in line for t in tokens):
        found["cmdline"].append(pid)
    try:
        env = open(f"/proc/{pid}/environ", "rb").read()
    except OSError:
        continue
    if int(pid) in args["served"]:
        found["environ_read"].append(pid)
    if any(t in env for t in tokens):
        found["environ_token"].append(pid)
for top in args["folders"]:
    for here, dirs, files in os.walk(top):
        for name in files:
            path = os.path.join(here, name)
            try:
                if os.path.getsize(path) < 2_000_000:
                    data = open(path, "rb").read()
                    if any(t in data for t in tokens):
                        found["files"].append(path)
            except OSError:
                pass
screens = args["screens"]
try:
    found["listed_screens"] = os.listdir(screens)
except OSError:
    pass
for what, act in [
    ("new file", lambda: open(os.path.join(screens, "x.ipynb"), "x").close()),
    ("team.ipynb", lambda: open(os.path.join(screens, "team.ipynb"), "w").close()),
    ("rename", lambda: os.rename(screens, screens + ".old")),
    ("remove", lambda: os.rmdir(screens)),
    ("chmod", lambda: os.chmod(screens, 0o777)),
]:
    try:
        act()
        found["wrote"].append(what)
    except OSError:
        pass
for kid in sorted(ids):
    for port in args["ports"]:
        s = socket.create_connection(("127.0.0.1", port), timeout=10)
        s.sendall((f"GET /voila/query/{kid} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                   "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                   "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n").encode())
        s.settimeout(3)
        got = b""
        try:
            while len(got) < 100_000:
                chunk = s.recv(65536)
                if not chunk:
                    break
                got += chunk
        except OSError:
            pass
        s.close()
        found["query"][f"{kid}@{port}"] = {
            "status": got.split(b"\r\n", 1)[0].decode("latin-1"),
            "token": any(t in got for t in tokens),
        }
found["kernel_ids"] = sorted(ids)
print(json.dumps(found))
"""


@ROOT_ONLY
def test_another_user_finds_no_token_and_cannot_write_the_screens(
    served: tuple[Serving, dict[str, str], Path],
) -> None:
    s, _, game = served
    # a page asked for with its token takes a kernel kept ready: Voilà would hand that kernel
    # the page's request, ?token= and all, on /voila/query/<kernel id>
    status, _, body = _get(s.urls["red"])
    assert status == 200 and "jupyter-widgets" in body
    tree = serve_cmd._descendants({s.pid})
    ids = set(_kernels(s.pid).values())
    assert ids, "no kernel to ask about"
    args = {
        "tokens": [_token(u) for u in s.urls.values()],
        "served": [s.pid, *tree],
        "folders": [str(game.parent), tempfile.gettempdir(), "/dev/shm"],
        "screens": str(serve_cmd.folder(game)),
        "ports": list(_ports(s.urls).values()),
    }
    done = subprocess.run(
        [_python_for_nobody(), "-c", PROBE],
        input=json.dumps(args),
        capture_output=True,
        text=True,
        preexec_fn=_as_nobody,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["uid"] == NOBODY
    assert found["cmdline"] == [], "a token on a command line"
    assert found["environ_read"] == [], "another user read the servers' environment"
    assert found["environ_token"] == []
    assert found["files"] == [], "a file another user may read holds a token"
    assert found["listed_screens"] is None and found["wrote"] == []
    assert ids <= set(found["kernel_ids"])  # it did see the kernels' ids, and asked each
    assert len(found["query"]) == len(found["kernel_ids"]) * len(args["ports"])
    for where, answer in found["query"].items():
        assert not answer["token"], f"/voila/query/{where} gave a token"
        assert " 101 " not in answer["status"], f"/voila/query/{where}: {answer['status']}"
    folder = serve_cmd.folder(game)
    st = os.lstat(folder)
    assert stat.S_ISDIR(st.st_mode) and stat.S_IMODE(st.st_mode) == 0o700 and st.st_uid == 0
    assert stat.S_IMODE(os.stat(serve_cmd.token_file(game)).st_mode) == 0o600


def test_a_malformed_widget_message_gets_an_error_without_paths(
    served: tuple[Serving, dict[str, str], Path],
) -> None:
    from websockets.sync.client import connect

    s, _, _ = served
    url = s.urls["mediator"]
    status, _, body = _get(url)
    assert status == 200
    config = re.search(r'<script id="jupyter-config-data" type="application/json">(.*?)</script>',
                       body, re.S)  # fmt: skip
    assert config is not None
    kernel = json.loads(config.group(1))["kernelId"]
    model = re.search(r'"model_id": "([0-9a-f]{32})"', body)
    assert model is not None
    parts = urllib.parse.urlsplit(url)
    ws_url = f"ws://{parts.netloc}/api/kernels/{kernel}/channels?token={_token(url)}"
    errors: list[dict[str, Any]] = []
    with connect(ws_url, open_timeout=30) as ws:
        for n, data in enumerate(["x", {"method": "update", "state": {"layout": 7}}]):
            header = {"msg_id": f"bad-{n}", "msg_type": "comm_msg", "session": "probe",
                      "username": "", "date": "2026-01-01T00:00:00Z", "version": "5.3"}  # fmt: skip
            ws.send(json.dumps({"header": header, "parent_header": {}, "metadata": {},
                                "channel": "shell", "buffers": [],
                                "content": {"comm_id": model.group(1), "data": data}}))  # fmt: skip
        deadline = time.time() + 30
        while len(errors) < 2 and time.time() < deadline:
            try:
                raw = ws.recv(timeout=2)
            except TimeoutError:
                continue
            msg = json.loads(raw)
            if msg.get("msg_type") == "error" or msg.get("header", {}).get("msg_type") == "error":
                errors.append(msg["content"])
            elif msg.get("msg_type") == "stream":
                assert not re.search(r"/\w[\w.-]*/", msg["content"]["text"]), msg["content"]
    assert len(errors) == 2, errors
    for e in errors:
        text = json.dumps(e, ensure_ascii=False)
        assert not re.search(r"/\w[\w.-]*/|\.py\b|site-packages", text), text
        assert e["evalue"] == MESSAGE("ru") and e["traceback"] == [f"{e['ename']}: {e['evalue']}"]


def test_serve_listens_on_the_planned_ports(
    served: tuple[Serving, dict[str, str], Path],
) -> None:
    s, planned, game = served
    assert s.urls == planned
    kept = json.loads(serve_cmd.token_file(game).read_text())
    assert {w: kept[w]["port"] for w in planned} == _ports(planned)


def test_kill_9_of_serve_leaves_no_child_and_a_restart_keeps_the_ports(
    served: tuple[Serving, dict[str, str], Path],
) -> None:
    """(Last of the tests on `served`: it ends that serve.)"""
    s, planned, game = served
    tree = serve_cmd._descendants({s.pid})
    assert any("ipykernel" in _cmdline(p) for p in tree)
    assert sum(serve_cmd.SERVER in _cmdline(p) for p in tree) == 2
    t0 = time.time()
    os.kill(s.pid, signal.SIGKILL)
    assert s.proc is not None
    s.proc.wait(timeout=10)
    while any(_alive(p) for p in tree) and time.time() - t0 < 20:
        time.sleep(0.1)
    left = [_cmdline(p) for p in tree if _alive(p)]
    assert not left, f"left running {time.time() - t0:.1f} s after kill -9: {left}"
    again = _serve(game, "--port", str(PORT))  # as a script restarting it would
    try:
        assert again.urls == planned
    finally:
        _stop(again)
        _kill_tree(serve_cmd._descendants({again.pid}))


def test_a_taken_port_is_refused_naming_what_holds_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = _game(tmp_path)
    planned = _ports(_planned(game, "--port", str(PORT + 10)))
    with socket.socket() as held:
        held.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        held.bind(("127.0.0.1", planned["red"]))
        held.listen()
        for lang in ("en", "ru"):
            assert main(["serve", str(game), "--sides", "red", "--lang", lang]) == 2
            err = capsys.readouterr().err
            assert f"{planned['red']}" in err and f"{os.getpid()}" in err, err
            if lang == "en":
                assert f"port {planned['red']} of the screen of Red is taken by process" in err
            else:
                assert f"порт {planned['red']} экрана красных занят: процесс" in err
        assert serve_plan._free("127.0.0.1", planned["mediator"])  # nothing was started
    assert _ports(_planned(game)) == planned  # not moved


def test_a_port_given_again_keeps_the_plan_and_new_ports_make_a_new_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = _game(tmp_path)
    first = _ports(_planned(game, "--port", str(PORT + 20)))
    assert first == {"mediator": PORT + 20, "red": PORT + 21}
    assert main(["serve", str(game), "--sides", "red", "--plan", "--json", "--port",
                 str(PORT + 30), "--lang", "en"]) == 0  # fmt: skip
    out, err = capsys.readouterr()
    assert {s["who"]: s["port"] for s in json.loads(out)["screens"]} == first
    assert "keep their planned ports" in err and "--new-ports" in err
    moved = _ports(_planned(game, "--port", str(PORT + 30), "--new-ports"))
    assert moved == {"mediator": PORT + 30, "red": PORT + 31}
    assert _ports(_planned(game)) == moved
    everyone = _ports(_planned(game, "--sides", "red,blue"))  # a new screen: a port not taken
    assert everyone["blue"] not in moved.values()


def _refused(game: Path, capsys: pytest.CaptureFixture[str], *words: str) -> None:
    assert main(["serve", str(game), "--sides", "red", "--port", str(PORT + 40),
                 "--lang", "en"]) == 2  # fmt: skip
    err = capsys.readouterr().err
    assert all(w in err for w in words), err
    assert serve_plan._free("127.0.0.1", PORT + 40)  # no server started
    with pytest.raises(StrategiaError):  # nor through the API
        serve_cmd.start(game, serve_cmd.plan(game, ["red"], "127.0.0.1", PORT + 40))


@pytest.mark.parametrize("kind", ["symlink", "foreign", "open"])
def test_a_screens_folder_someone_else_prepared_is_refused(
    kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    if kind == "foreign" and os.getuid() != 0:
        pytest.skip("giving a folder to another user needs root")
    shared = _shared()
    secret_dir = Path(tempfile.mkdtemp(prefix="strategia-own-"))  # this user's, 0700
    try:
        game = _game(shared)
        screens = serve_cmd.folder(game)
        secret = secret_dir / "team.ipynb"
        secret.write_text("mine")
        secret.chmod(0o600)
        planted = '{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}'
        if kind == "symlink":
            screens.symlink_to(secret_dir)
            why = "a symbolic link"
        else:
            screens.mkdir()
            (screens / "mediator.ipynb").write_text(planted)
            if kind == "foreign":
                (screens / "team.ipynb").symlink_to(secret)
                os.chown(screens / "mediator.ipynb", NOBODY, NOBODY)
                os.lchown(screens / "team.ipynb", NOBODY, NOBODY)
                os.chown(screens, NOBODY, NOBODY)
                why = f"its owner is user {NOBODY}"
            else:
                screens.chmod(0o777)
                why = "others may write to it (mode 777)"
        _refused(game, capsys, str(screens), why, "is not a private folder of this user")
        assert secret.read_text() == "mine" and stat.S_IMODE(secret.stat().st_mode) == 0o600
        if kind != "symlink":
            assert (screens / "mediator.ipynb").read_text() == planted
            assert sorted(p.name for p in screens.iterdir()) == sorted(
                ["mediator.ipynb", *(["team.ipynb"] if kind == "foreign" else [])]
            )
    finally:
        shutil.rmtree(shared, ignore_errors=True)
        shutil.rmtree(secret_dir, ignore_errors=True)


@pytest.mark.parametrize("kind", ["no-sticky", "foreign"])
def test_a_game_folder_others_may_rename_the_screens_in_is_refused(
    kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    if kind == "foreign" and os.getuid() != 0:
        pytest.skip("giving a folder to another user needs root")
    shared = _shared()
    try:
        game = _game(shared)
        if kind == "no-sticky":
            shared.chmod(0o777)
            why = "anybody may write to the folder (mode 777, no sticky bit)"
        else:
            os.chown(shared, NOBODY, NOBODY)
            why = f"the folder is user {NOBODY}'s"
        _refused(game, capsys, f"{shared}: {why}", "keep the game in a folder of your own")
        assert not serve_cmd.folder(game).exists()
    finally:
        shutil.rmtree(shared, ignore_errors=True)


def test_an_older_screens_folder_of_ours_is_closed_and_its_notebooks_replaced(
    tmp_path: Path,
) -> None:
    game = _game(tmp_path)
    screens = serve_cmd.folder(game)
    screens.mkdir(mode=0o755)
    (screens / "team.ipynb").write_text("old")
    books = serve_cmd.notebooks(serve_cmd.private_folder(game))
    assert stat.S_IMODE(os.lstat(screens).st_mode) == 0o700
    assert "TeamScreen.from_env()" in books["team"].read_text()
    assert sorted(p.name for p in screens.iterdir()) == ["mediator.ipynb", "team.ipynb"]
