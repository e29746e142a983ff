"""What the browser tests share: Chromium and its flags, a skip where there is none, reading the
map's counters, waiting for a server and for a text on a page, the screens `strategia serve`
starts for a game."""

from __future__ import annotations

import json
import shutil
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]  # fmt: skip


# the map's units layer (strategia/ui/widgets/counters.js): the counters it holds and draws, and
# the counter at a point of the screen, as JavaScript expressions
UNITS = "document.querySelector('canvas.sg-units')"
COUNTERS = f"+({UNITS}?.dataset.count || 0)"
DRAWN = f"+({UNITS}?.dataset.drawn || 0)"


def counter_at(x: float, y: float) -> str:
    """The counter drawn at (x, y) on the screen ({key, side, cells, strength, selected}), or
    {} where there is none."""
    return f"({UNITS}?.sgCounterAt({x}, {y}) || {{}})"


def need_chromium() -> None:
    """Skip, saying why, where there is no Chromium or no Playwright."""
    if not Path(CHROMIUM).exists():
        pytest.skip("no Chromium here (install Debian's chromium: apt-get install -y chromium)")
    pytest.importorskip("playwright.sync_api", reason="playwright is not installed")


def wait_for(url: str, seconds: float = 120) -> None:
    """Until the server at `url` answers (a refusal is an answer)."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            urllib.request.urlopen(url, timeout=2)
            return
        except urllib.error.HTTPError:
            return
        except OSError:
            time.sleep(0.5)
    raise AssertionError(f"{url}: no server")


def has(page: Any, text: str, timeout: int = 60_000) -> None:
    """Until the page shows `text`."""
    page.wait_for_function(f"document.body.innerText.includes({json.dumps(text)})", timeout=timeout)


@contextmanager
def served(game: Path, sides: list[str], port: int, lang: str = "ru") -> Iterator[dict[str, Any]]:
    """The mediator's console and the `sides`' screens of `game` (`strategia serve`), by who,
    stopped with everything they started on the way out."""
    from strategia.cli import serve_cmd

    screens = serve_cmd.plan(game, sides, "127.0.0.1", port)
    procs = serve_cmd.start(game, screens, lang)
    try:
        for s in screens:
            wait_for(s.url)
        yield {s.who: s for s in screens}
    finally:
        serve_cmd.stop(procs)


def frames_of(page: Any) -> list[str]:
    """Every websocket frame the page receives from now on, as text (kept as they come)."""
    frames: list[str] = []
    page.on(
        "websocket",
        lambda ws: ws.on(
            "framereceived",
            lambda data: frames.append(
                data if isinstance(data, str) else data.decode("utf-8", "replace")
            ),
        ),
    )
    return frames
