"""The lessons as a class sees them: Voilà serves notebooks/ as `make lessons` does, headless
Chromium opens its root page, the lessons' own index (exactly the lessons, titled in the reader's
language, each linked to its page), and two lessons: their texts and figures show, their code does
not, a workbench answers a click. The index in English is served by a second server.

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
from typing import Any

import pytest

ROOT = Path(__file__).parents[1]
sys.path.insert(0, str(ROOT / "tools"))
from lessons import voila_lessons  # noqa: E402

OUT = ROOT / "test-output"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
pytestmark = pytest.mark.browser
LESSONS = {  # the index's entries: the page, and its title in each language
    "01_units_and_ratings.ipynb": ("1. Части и рейтинги", "1. Units and ratings"),
    "02_movement.ipynb": ("2. Передвижение", "2. Movement"),
    "03_battle_workbench.ipynb": ("3. Бой", "3. Battle"),
    "04_artillery.ipynb": ("4. Артиллерия", "4. Artillery"),
    "05_reconnaissance.ipynb": (
        "5. Разведка и туман войны", "5. Reconnaissance and the fog of war"
    ),
    "06_tactical.ipynb": (
        "6. Тактические правила: три примера", "6. The tactical rules: three worked examples"
    ),
    "07_casebook.ipynb": ("7. Книга случаев", "7. The case book"),
    "08_against_the_computer.ipynb": (
        "8. Игра против компьютера", "8. Playing against the computer"
    ),
    "scenario_builder.ipynb": ("Конструктор сценариев", "Scenario builder"),
    "balance.ipynb": ("Баланс сценария", "Scenario balance"),
}  # fmt: skip


def _serve(lang: str) -> tuple[subprocess.Popen[bytes], str]:
    """`make lessons`'s server, in `lang`; its root's address."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    cmd, env = voila_lessons(port, {**os.environ, "STRATEGIA_LANG": lang})
    proc = subprocess.Popen(
        cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT
    )
    deadline = time.time() + 90
    while time.time() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2)
            break
        except OSError:
            time.sleep(0.5)
    return proc, f"http://127.0.0.1:{port}/"


@pytest.fixture(scope="module")
def lessons() -> Iterator[str]:
    if not Path(CHROMIUM).exists():
        pytest.skip("no Chromium here (install Debian's chromium: apt-get install -y chromium)")
    pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    proc, root = _serve("ru")
    yield root
    proc.terminate()
    proc.wait(timeout=20)


def _index(page: Any, root: str) -> list[list[str]]:
    """The index page at the server's root: its entries as (text, link)."""
    page.goto(root, timeout=180_000)
    page.wait_for_selector(".sg-lessons li a", timeout=180_000)
    return list(
        page.evaluate(
            "Array.from(document.querySelectorAll('.sg-lessons a'))"
            ".map(a => [a.textContent, a.getAttribute('href')])"
        )
    )


def test_the_lessons_index_in_the_readers_language(lessons: str) -> None:
    from playwright.sync_api import sync_playwright

    OUT.mkdir(exist_ok=True)
    english, root_en = _serve("en")
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            for root, k, title in (
                (lessons, 0, "«Стратегия»: уроки"),
                (root_en, 1, "Strategia: the lessons"),
            ):
                entries = _index(page, root)
                assert page.url == root + "voila/render/index.ipynb"  # the root leads there
                assert entries == [[t[k], f"/voila/render/{f}"] for f, t in LESSONS.items()]
                text = page.evaluate("document.body.innerText")
                assert text.lstrip().startswith(title)
                for tool in ("console", "team", "tactical.ipynb", "index", "Select items"):
                    assert tool not in text
                if k == 0:
                    page.screenshot(path=str(OUT / "lessons-index.png"))
            # a lesson opens from the index (in a tab of its own; the index stays)
            with page.context.expect_page(timeout=30_000) as opened:
                page.get_by_role("link", name="2. Movement").click()
            lesson = opened.value
            lesson.wait_for_url("**/voila/render/02_movement.ipynb", timeout=30_000)
            lesson.wait_for_selector(".jp-OutputArea-output img", timeout=180_000)
            browser.close()
    finally:
        english.terminate()
        english.wait(timeout=20)


def test_two_lessons_as_pages(lessons: str) -> None:
    from playwright.sync_api import sync_playwright

    OUT.mkdir(exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        # the movement lesson: its texts, its figures (the live workbench's included), no code
        page.goto(lessons + "voila/render/02_movement.ipynb", timeout=180_000)
        page.wait_for_function(
            "document.querySelectorAll('.jp-OutputArea-output img').length >= 4", timeout=180_000
        )
        text = page.evaluate("document.body.innerText")
        assert "Досягаемость на театре" in text and "Попробуйте" in text
        assert "Try this" not in text and "Reach on the theatre" not in text  # one language
        assert "teaching_movement" not in text and "import" not in text  # no code shown
        assert page.locator(".widget-dropdown").count() >= 3  # the workbench is live
        page.screenshot(path=str(OUT / "lesson-movement.png"))
        # the reconnaissance lesson: the three maps, and a question asked from the page
        page.goto(lessons + "voila/render/05_reconnaissance.ipynb", timeout=180_000)
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
