"""The console served as `make console-app` serves it (`strategia.ui.team.server`, a kernel
kept ready by Voilà's pre-heating) opens every time, and the kernel kept ready holds nothing of
the game; a page whose kernel dies says so in its language and opens again on the game.

Culling is shortened (idle 3 s, checked every second) so that five rounds of open, close, idle
past the cull time take about a minute; the kernel that replaces the one taken starts 1 s later.
The failure this guards against: Voilà culled the kernel it had just handed a page (idle since it
ran its notebook, no connection yet) and the page showed "Loading widget..." for ever.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from browser_helpers import ARGS, CHROMIUM, COUNTERS, need_chromium

from strategia.game.game import Game

ROOT = Path(__file__).parents[1]
DEFAULT = ROOT / "maps" / "continental.toml"
pytestmark = pytest.mark.browser
CULL = ("--MappingKernelManager.cull_idle_timeout=3", "--MappingKernelManager.cull_interval=1")
PREHEAT = ("--preheat_kernel=True", "--pool_size=1", "--VoilaKernelManager.fill_delay=1")


def _port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _kernels(parent: int) -> list[int]:
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            ppid = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            cmd = (stat.parent / "cmdline").read_bytes()
        except (OSError, ValueError):
            continue
        if ppid == parent and b"ipykernel" in cmd:
            out.append(int(stat.parent.name))
    return out


def _holders(path: Path) -> list[int]:
    """The processes with the game's file open."""
    out = []
    for fd in Path("/proc").glob("[0-9]*/fd/*"):
        try:
            if os.readlink(fd) == str(path):
                out.append(int(fd.parts[2]))
        except OSError:
            continue
    return sorted(set(out))


def _cpu(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _kept_ready(server: int, limit: float = 120) -> int:
    """The kernel kept ready, once it has run its notebook (its CPU time no longer grows)."""
    deadline, last, still = time.time() + limit, -1.0, 0.0
    while time.time() < deadline:
        kernels = _kernels(server)
        cpu = sum(_cpu(k) for k in kernels)
        if len(kernels) == 1 and cpu > 1.0 and cpu == last:
            still += 0.5
            if still >= 1.5:
                return kernels[0]
        else:
            still = 0.0
        last = cpu
        time.sleep(0.5)
    raise AssertionError("no kernel was kept ready")


def test_preheated_console_opens_every_time(tmp_path: Path) -> None:
    need_chromium()
    from playwright.sync_api import sync_playwright

    war = tmp_path / "war.game"
    Game.new(DEFAULT, war, level=2).journal.close()
    port = _port()
    env = {**os.environ, "STRATEGIA_SCENARIO": str(war), "STRATEGIA_LANG": "ru",
           "STRATEGIA_GAMES": str(tmp_path / "games")}  # fmt: skip
    log = (tmp_path / "voila.log").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "strategia.ui.team.server", "notebooks/console.ipynb",
         f"--port={port}", "--no-browser", "--Voila.ip=127.0.0.1", *PREHEAT, *CULL],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            for k in range(5):
                spare = _kept_ready(proc.pid)
                time.sleep(5)  # idle past the cull time, as a kernel kept ready long ago
                assert spare in _kernels(proc.pid), f"round {k}: the kernel kept ready was culled"
                assert spare not in _holders(war), f"round {k}: the spare kernel holds the game"
                page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
                page.goto(f"http://127.0.0.1:{port}/", timeout=120_000)
                page.wait_for_function(f"{COUNTERS} > 0", timeout=120_000, polling=100)
                assert "Ход 1" in page.inner_text("body"), f"round {k}"
                assert spare in _holders(war), f"round {k}: the page's kernel holds the game"
                page.context.close()
            # a page whose kernel dies: it says so, in Russian, and opens again on the game
            deadline = time.time() + 60
            while _holders(war) and time.time() < deadline:  # the closed pages' kernels culled
                time.sleep(0.5)
            assert not _holders(war), "the kernel of a closed page was not culled"
            page = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
            page.goto(f"http://127.0.0.1:{port}/", timeout=120_000)
            page.wait_for_function(f"{COUNTERS} > 0", timeout=120_000, polling=100)
            dead = _holders(war)
            assert len(dead) == 1
            os.kill(dead[0], signal.SIGKILL)
            page.wait_for_function(
                "document.body.innerText.includes('Сеанс этой страницы на сервере закрыт')",
                timeout=60_000,
            )
            page.wait_for_function(  # the page opened again: no message, the map drawn
                f"!document.getElementById('sg-kernel-gone') && {COUNTERS} > 0",
                timeout=120_000, polling=100,
            )  # fmt: skip
            assert "Ход 1" in page.inner_text("body")
            assert _holders(war) and dead[0] not in _holders(war)
            browser.close()
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        log.close()
    culled = (tmp_path / "voila.log").read_text(errors="replace")
    assert "Culling" in culled  # the closed pages' kernels were culled: culling is on


def test_a_page_whose_kernel_died_says_so_in_english(tmp_path: Path) -> None:
    """The same server in English, without pre-heating: the kernel killed, the page says so in
    English and opens again on the game."""
    need_chromium()
    from playwright.sync_api import sync_playwright

    war = tmp_path / "war.game"
    Game.new(DEFAULT, war, level=2).journal.close()
    port = _port()
    env = {**os.environ, "STRATEGIA_SCENARIO": str(war), "STRATEGIA_LANG": "en",
           "STRATEGIA_GAMES": str(tmp_path / "games")}  # fmt: skip
    proc = subprocess.Popen(
        [sys.executable, "-m", "strategia.ui.team.server", "notebooks/console.ipynb",
         f"--port={port}", "--no-browser", "--Voila.ip=127.0.0.1", *CULL],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            deadline = time.time() + 90
            while time.time() < deadline:
                try:
                    page.goto(f"http://127.0.0.1:{port}/", timeout=120_000)
                    break
                except Exception:  # not listening yet
                    time.sleep(0.5)
            page.wait_for_function(f"{COUNTERS} > 0", timeout=120_000, polling=100)
            (dead,) = _holders(war)
            os.kill(dead, signal.SIGKILL)
            gone = json.dumps("This page's session on the server was closed")
            page.wait_for_function(f"document.body.innerText.includes({gone})", timeout=60_000)
            page.wait_for_function(
                f"!document.getElementById('sg-kernel-gone') && {COUNTERS} > 0",
                timeout=120_000, polling=100,
            )  # fmt: skip
            assert "Turn 1" in page.inner_text("body")
            browser.close()
    finally:
        proc.terminate()
        proc.wait(timeout=30)
