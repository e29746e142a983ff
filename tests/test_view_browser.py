"""A side's view in the console, in a real browser: with the view set to a side, the page's
whole text, every tab opened in turn, holds nothing only the mediator may see (an intervention
being typed, the computer players' settings, another side's sealed order, the truth view); back
in the mediator's view they are there again. Level 3, Blue played by the computer, a Blue order
sealed, at 1280x800 and at 1920x1080.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import ARGS, CHROMIUM, COUNTERS, need_chromium

from strategia.game.game import Game
from strategia.players import settings

ROOT = Path(__file__).parents[1]
DEFAULT = ROOT / "maps" / "continental.toml"
pytestmark = pytest.mark.browser
NOTE = "секретная вводная 7"
SEALED = "121 т.д. поворот на север"
TABS = ["Приказы", "Бои", "Журнал", "Разведка", "Очки", "Посредник", "Правила", "Ход войны"]


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _whole_text(page: Any) -> str:
    """The page's text with every tab opened in turn."""
    out = []
    for name in TABS:
        tab = page.get_by_role("tab", name=name)
        if tab.count():
            tab.first.click()
            page.wait_for_timeout(400)
            out.append(page.inner_text("body"))
    return "\n".join(out)


def test_a_sides_view_in_the_browser(tmp_path: Path) -> None:
    need_chromium()
    from playwright.sync_api import sync_playwright

    war = tmp_path / "war.game"
    g = Game.new(DEFAULT, war, level=3)
    g.play_by_computer("blue", settings("blue", "bold", "attack@3"))
    g.order(SEALED, side="blue")
    g.journal.close()
    port = _port()
    env = {**os.environ, "STRATEGIA_SCENARIO": str(war), "STRATEGIA_LANG": "ru",
           "STRATEGIA_GAMES": str(tmp_path / "games")}  # fmt: skip
    proc = subprocess.Popen(
        [str(Path(sys.executable).with_name("voila")), "notebooks/console.ipynb",
         f"--port={port}", "--no-browser", "--Voila.ip=127.0.0.1"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        deadline = time.time() + 90
        while time.time() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.3)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.goto(f"http://127.0.0.1:{port}/", timeout=120_000)
            page.wait_for_function(f"{COUNTERS} > 0", timeout=120_000, polling=100)
            page.get_by_role("tab", name="Посредник").click()
            page.get_by_placeholder("погода, вводная...").fill(NOTE)
            truth = page.locator(".sg-console select:visible").filter(has_text="Красные").last
            truth.select_option(label="Красные")  # the truth view of Red's picture
            page.wait_for_timeout(800)
            mediator = _whole_text(page)
            assert "Картина стороны и действительность" in mediator
            assert SEALED in mediator and "смелый" in mediator
            for width, height in ((1280, 800), (1920, 1080)):
                page.set_viewport_size({"width": width, "height": height})
                page.get_by_role("button", name="Красные", exact=True).click()
                page.get_by_role("tab", name="Посредник").click()
                page.wait_for_function(
                    "document.body.innerText.includes('инструменты посредника')", timeout=30_000
                )
                red = _whole_text(page)
                for secret in (NOTE, SEALED, "смелый", "Картина стороны и действительность",
                               "Компьютерные игроки"):  # fmt: skip
                    assert secret not in red, (width, secret)
                page.get_by_role("button", name="посредник", exact=True).click()
                page.wait_for_function(
                    f"document.body.innerText.includes({SEALED!r})", timeout=30_000
                )
            page.get_by_role("tab", name="Посредник").click()
            assert page.get_by_placeholder("погода, вводная...").input_value() == NOTE
            browser.close()
    finally:
        proc.terminate()
        proc.wait(timeout=30)
