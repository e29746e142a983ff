"""The lessons as a class sees them: Voilà serves notebooks/ (as `make lessons` does), headless
Chromium opens two lessons: their texts and figures show, their code does not, a workbench
answers a click.

Skipped, saying why, where there is no Chromium (CI installs Debian's; see .ci/run).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
OUT = ROOT / "test-output"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def lessons() -> Iterator[str]:
    if not Path(CHROMIUM).exists():
        pytest.skip("no Chromium here (install Debian's chromium: apt-get install -y chromium)")
    pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    env = {**os.environ, "STRATEGIA_LANG": "ru"}
    voila = Path(sys.executable).with_name("voila")
    proc = subprocess.Popen(
        [str(voila), "notebooks", f"--port={port}", "--no-browser", "--Voila.ip=127.0.0.1"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
    )  # fmt: skip
    deadline = time.time() + 90
    while time.time() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2)
            break
        except OSError:
            time.sleep(0.5)
    yield f"http://127.0.0.1:{port}/voila/render/"
    proc.terminate()
    proc.wait(timeout=20)


def test_two_lessons_as_pages(lessons: str) -> None:
    from playwright.sync_api import sync_playwright

    OUT.mkdir(exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        # the movement lesson: its texts, its figures (the live workbench's included), no code
        page.goto(lessons + "02_movement.ipynb", timeout=180_000)
        page.wait_for_function(
            "document.querySelectorAll('.jp-OutputArea-output img').length >= 4", timeout=180_000
        )
        text = page.evaluate("document.body.innerText")
        assert "Досягаемость на театре" in text and "Try this" in text
        assert "teaching_movement" not in text and "import" not in text  # no code shown
        assert page.locator(".widget-dropdown").count() >= 3  # the workbench is live
        page.screenshot(path=str(OUT / "lesson-movement.png"))
        # the reconnaissance lesson: the three maps, and a question asked from the page
        page.goto(lessons + "05_reconnaissance.ipynb", timeout=180_000)
        page.get_by_role("button", name="Спросить").wait_for(timeout=180_000)
        asked = page.locator("td", has_text="где 5 т.д.?").count()
        page.get_by_role("button", name="Спросить").click()
        page.wait_for_function(
            f"[...document.querySelectorAll('td')].filter(t => t.innerText === 'где 5 т.д.?')"
            f".length > {asked}",
            timeout=30_000,
        )
        text = page.evaluate("document.body.innerText")
        assert "посредник — фишек на карте" not in text  # a figure's summary is not its text
        assert "осталось 9,5 из 15 вопросов" in text  # 10.5 left, and this one cost 1
        assert "import" not in text
        page.screenshot(path=str(OUT / "lesson-reconnaissance.png"))
        browser.close()
