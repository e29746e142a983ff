"""The console in a real browser: Voilà serves the console notebook, headless Chromium drives it.

Skipped, saying why, where there is no Chromium (CI installs Debian's; see .ci/run).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from strategia.ui.mapview import MapView

ROOT = Path(__file__).parents[1]
OUT = ROOT / "test-output"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
pytestmark = pytest.mark.browser


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def voila(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    if not Path(CHROMIUM).exists():
        pytest.skip("no Chromium here (install Debian's chromium: apt-get install -y chromium)")
    pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    port = _free_port()
    games = tmp_path_factory.mktemp("games")
    env = {**os.environ, "STRATEGIA_GAMES": str(games), "STRATEGIA_LANG": "en"}
    voila_bin = Path(sys.executable).with_name("voila")
    proc = subprocess.Popen(
        [str(voila_bin), "notebooks/console.ipynb", f"--port={port}", "--no-browser", "--Voila.ip=127.0.0.1"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}/"
    deadline = time.time() + 90
    while time.time() < deadline:
        try:
            urllib.request.urlopen(url, timeout=2)
            break
        except OSError:
            time.sleep(0.5)
    yield url
    proc.terminate()
    proc.wait(timeout=20)


def _cell_px(box: dict[str, float], x: int, y: int) -> tuple[float, float]:
    """The pixel of a cell's centre on the map as the console first shows it (fit zoom, centred)."""
    scale = 2 ** MapView.fit_zoom(64, 44)
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    return cx + (x - 32.5) * scale, cy - (y - 22.5) * scale


def _fills(x: float, y: float) -> str:
    """JS: the fill colours of every map path under a point."""
    return f"document.elementsFromPoint({x}, {y}).map(e => e.getAttribute && e.getAttribute('fill')).filter(Boolean)"


def test_the_console_in_a_browser(voila: str) -> None:
    from playwright.sync_api import sync_playwright

    OUT.mkdir(exist_ok=True)
    args = [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
    ]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=args)
        page = browser.new_page(viewport={"width": 1600, "height": 1000})
        page.goto(voila, timeout=120_000)
        page.wait_for_selector("img.leaflet-image-layer", timeout=120_000)  # the terrain
        page.wait_for_function(
            "document.querySelectorAll('path.leaflet-interactive').length > 300", timeout=60_000
        )
        page.wait_for_timeout(1000)
        box = page.locator(".leaflet-container").bounding_box()
        assert box is not None
        # the units: a red counter where 21 т.д. stands (37,35)
        x, y = _cell_px(box, 37, 35)
        assert "#c62828" in page.evaluate(_fills(x, y))
        # click it: selected, its details shown
        page.mouse.click(x, y)
        page.wait_for_function(
            "document.body.innerText.includes('21 т.д. — 37,35')", timeout=30_000
        )
        # click a cell: the destination is filled; give the order
        tx, ty = _cell_px(box, 35, 35)
        page.mouse.click(tx, ty)
        page.wait_for_function(
            "document.body.innerText.includes('21 т.д. на 35,35')", timeout=30_000
        )
        page.get_by_role("button", name="Give the order").click()
        page.wait_for_function("document.body.innerText.includes('21 TD - 35,35')", timeout=30_000)
        # end the turn and see the counter on its new cell
        t0 = time.perf_counter()
        page.get_by_role("button", name="End turn").click()
        page.wait_for_function("document.body.innerText.includes('blue to move')", timeout=30_000)
        page.wait_for_function(f"{_fills(tx, ty)}.includes('#c62828')", timeout=30_000)
        elapsed = time.perf_counter() - t0
        assert "#c62828" not in page.evaluate(_fills(x, y))  # 37,35 is empty now
        page.screenshot(path=str(OUT / "console.png"))
        (OUT / "browser-timing.json").write_text(
            json.dumps({"end_turn_to_map_updated_s": round(elapsed, 3)})
        )
        browser.close()
