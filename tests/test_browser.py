"""The console in a real browser: Voilà serves the console notebook, headless Chromium drives it.

One war, as a mediator plays it: the page resumes the game being played (a war in its fourth
turn) with the map zoomed to the units, «Вся карта» shows the whole theatre; a battle is ordered
with clicks and the form, its report read (summary and table), the turn ended, the map checked
to fit at 1920x1080 and 1280x800 with a layout that neither wraps nor jumps; a second game
opened, the page reloaded (the game resumes, no kernel is left behind); the languages switched,
with no English in the Russian page. The screenshots for the README are taken on the way
(test-output/). The layout itself is measured by tests/test_layout_browser.py.

Skipped, saying why, where there is no Chromium (CI installs Debian's; see .ci/run).
"""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import COUNTERS, DRAWN, UNITS, counter_at

from strategia.game import trial
from strategia.game.game import Game
from strategia.ui.console.sessions import POINTER

ROOT = Path(__file__).parents[1]
OUT = ROOT / "test-output"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DEFAULT = ROOT / "maps" / "continental.toml"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]  # fmt: skip
LATIN = re.compile(r"[A-Za-z]+")
pytestmark = pytest.mark.browser


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _war(games: Path) -> dict[str, str]:
    """A game of the default scenario played by the script into its fourth turn, Blue to move
    with a division beside a Red one; remembered as the game the console plays."""
    g = Game.new(DEFAULT, games / "war.game", level=2)
    for _ in range(200):
        st, side = g.state, g.side
        if st.at_war and side == "blue":
            for u in sorted(st.units.values(), key=lambda u: u.ref.number):
                if st.side_of(u.ref) != side or u.busy or u.division.kind.key in ("artillery", "anti_tank", "fortress"):  # fmt: skip
                    continue
                for e in st.units.values():
                    if (
                        st.side_of(e.ref) == "red"
                        and min(c.chebyshev(x) for c in u.cells for x in e.cells) == 1
                    ):
                        (games / POINTER).mkdir(parents=True, exist_ok=True)
                        (games / POINTER / "continental.txt").write_text(str(g.journal.path))
                        return {"unit": str(u.ref), "at": str(u.cell), "enemy": str(e.ref),
                                "target": str(e.cell), "turn": str(st.turn)}  # fmt: skip
        trial.script_turn(g)
    raise AssertionError("the script reached no battle")


@pytest.fixture(scope="module")
def voila(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    if not Path(CHROMIUM).exists():
        pytest.skip("no Chromium here (install Debian's chromium: apt-get install -y chromium)")
    pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    port = _free_port()
    games = tmp_path_factory.mktemp("games")
    war = _war(games)
    env = {**os.environ, "STRATEGIA_GAMES": str(games), "STRATEGIA_LANG": "ru"}
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
    yield url, war, games, proc.pid
    proc.terminate()
    proc.wait(timeout=20)


def _kernels(parent: int) -> int:
    """How many kernels the Voilà server runs now (its ipykernel children)."""
    n = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            cmd = (stat.parent / "cmdline").read_bytes()
        except OSError:
            continue
        if int(fields[1]) == parent and b"ipykernel" in cmd:
            n += 1
    return n


def _box(page: Any, selector: str) -> dict[str, float]:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return dict(box)


def _cell(page: Any, cell: str, size: tuple[int, int] = (64, 44)) -> tuple[float, float]:
    """A cell's centre on the screen, from where the terrain image is drawn."""
    x, y = (int(v) for v in cell.split(","))
    img = _box(page, "img.leaflet-image-layer")
    scale = img["width"] / size[0]
    return img["x"] + (x - 0.5) * scale, img["y"] + (size[1] + 0.5 - y) * scale


def _fits(page: Any) -> None:
    """The whole theatre is inside the map's box, and fills most of it one way."""
    img, box = _box(page, "img.leaflet-image-layer"), _box(page, ".leaflet-container")
    assert img["x"] >= box["x"] - 1 and img["y"] >= box["y"] - 1, (img, box)
    assert img["x"] + img["width"] <= box["x"] + box["width"] + 1, (img, box)
    assert img["y"] + img["height"] <= box["y"] + box["height"] + 1, (img, box)
    assert img["width"] >= 0.7 * box["width"] or img["height"] >= 0.7 * box["height"]
    viewport = page.viewport_size
    assert box["y"] + box["height"] <= viewport["height"] + 1  # the map is on the screen


def _whole_map(page: Any) -> None:
    """The map starts zoomed to the units, the ground filling its box; «Вся карта» shows the
    whole theatre in it."""
    img, box = _box(page, "img.leaflet-image-layer"), _box(page, ".leaflet-container")
    assert img["x"] <= box["x"] + 1 and img["x"] + img["width"] >= box["x"] + box["width"] - 1
    page.get_by_role("button", name="Вся карта").click()
    page.wait_for_timeout(1200)
    _fits(page)


def _has(page: Any, text: str, timeout: int = 30_000) -> None:
    page.wait_for_function(f"document.body.innerText.includes({json.dumps(text)})", timeout=timeout)


def _console_text(page: Any) -> str:
    """What the console shows (the language switch and `code`, such as command names, left
    out)."""
    return str(
        page.evaluate(
            "(() => { const c = document.querySelector('.sg-console');"
            " const hide = Array.from(c.querySelectorAll('.sg-lang, code'));"
            " hide.forEach(e => e.style.display = 'none'); const t = c.innerText;"
            " hide.forEach(e => e.style.display = ''); return t; })()"
        )
    )


def _english(text: str) -> list[str]:
    text = re.sub(r"`[^`]*`|\S+\.(toml|game|html|md)\b", " ", text)
    return sorted(set(LATIN.findall(text)))


def test_the_console_in_a_browser(voila: tuple[str, dict[str, str], Path, int]) -> None:
    from playwright.sync_api import sync_playwright

    url, war, games, server = voila
    OUT.mkdir(exist_ok=True)
    timing: dict[str, float] = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1920, "height": 1080})
        t0 = time.perf_counter()
        page.goto(url, timeout=120_000)
        page.wait_for_selector("img.leaflet-image-layer", timeout=120_000)
        page.wait_for_function(f"{COUNTERS} > 60", timeout=60_000)
        timing["page_to_map_s"] = round(time.perf_counter() - t0, 2)
        # the page resumes the war being played
        _has(page, f"Ход {war['turn']}, ходят синие")
        _has(page, "Началась война (9.1)")  # the start of the war, a line above the map
        page.wait_for_timeout(1500)
        _whole_map(page)
        # the units layer goes off and on with its box in the layers control
        page.locator(".leaflet-control-layers").hover()
        # (its box itself, forced: a click on the label could land while the control folds)
        units = page.locator(".leaflet-control-layers label", has_text="войска").locator("input")
        units.uncheck(force=True)
        page.wait_for_function(f"!{UNITS}", timeout=20_000)
        units.check(force=True)
        page.wait_for_function(f"{COUNTERS} > 60 && {DRAWN} > 60", timeout=20_000)
        page.mouse.move(5, 5)
        # a battle with clicks and the form: select, target, the order «удар», give it
        x, y = _cell(page, war["at"])
        page.mouse.click(x, y)
        _has(page, f"{war['unit']} (Синие)")
        tx, ty = _cell(page, war["target"])
        page.mouse.click(tx, ty)
        _has(page, f"{war['unit']} на {war['target']}")
        page.locator(".sg-console select").first.select_option(label="удар (9.8)")
        _has(page, f"удар по {war['target']}: {war['unit']}")
        t0 = time.perf_counter()
        page.get_by_role("button", name="Отдать приказ").click()
        _has(page, f"Бой за {war['target']}, ход {war['turn']}.")
        timing["order_to_report_s"] = round(time.perf_counter() - t0, 3)
        text = _console_text(page)
        (OUT / "report.txt").write_text(text)
        summary = re.search(r"Бой за .*?бь(ет|ют) .*", text)
        assert summary is not None and "(Синие)" in summary[0] and "(Красные)" in summary[0]
        assert re.search(r"Силы: \d+,\d+.* против \d+,\d+.* — соотношение \d+(,\d)? : \d", text)
        assert "Итог:" in text and "теряет" in text
        header = page.locator(".sr-report table tr").first.inner_text()
        assert "соединение" in header and "полки после боя" in header and "потери" in header
        rows = page.locator(".sr-report table tr").all_inner_texts()
        assert any(war["unit"] in r and "Синие" in r for r in rows)
        assert any(war["enemy"] in r and "Красные" in r for r in rows)
        # the battle is marked on the map
        assert page.locator("path[stroke='#d50000']").count() >= 1
        page.wait_for_timeout(300)
        page.screenshot(path=str(OUT / "console.png"))
        # the Battles tab: the report, ready to print
        page.get_by_role("tab", name="Бои").click()
        page.locator(".sg-console select[size]").first.select_option(index=0)
        _has(page, "Полный расчет")
        link = page.locator("a[download$='.html']").first.get_attribute("href")
        assert link is not None and link.startswith("data:text/html")
        printable = base64.b64decode(link.split(",", 1)[1]).decode("utf-8")
        sheet = browser.new_page(viewport={"width": 1000, "height": 700})
        sheet.set_content(printable)
        sheet.screenshot(path=str(OUT / "battle-report.png"), full_page=True)
        sheet.close()
        english = _english(_console_text(page))
        assert not english, f"English in the Russian page: {english}"
        # end the turn: Blue's move, then the others', to the next turn
        t0 = time.perf_counter()
        page.get_by_role("button", name="Конец хода").click()
        page.wait_for_function("!document.body.innerText.includes('ходят синие')", timeout=30_000)
        timing["end_turn_s"] = round(time.perf_counter() - t0, 3)
        while f"Ход {int(war['turn']) + 1}" not in _console_text(page):
            page.get_by_role("button", name="Конец хода").click()
            page.wait_for_timeout(800)
        # 1280x800: the map fits again, the layout neither wraps nor jumps, tabs whole
        page.set_viewport_size({"width": 1280, "height": 800})
        page.wait_for_timeout(2500)
        _fits(page)
        tabs = page.evaluate(
            "Array.from(document.querySelectorAll('.sg-tabs .lm-TabBar-tab')).map(e => [e.scrollWidth, e.clientWidth])"
        )
        assert tabs and all(s <= c + 1 for s, c in tabs)
        before = _box(page, ".leaflet-container")
        page.get_by_role("tab", name="Приказы").click()
        page.locator("input[placeholder='17 с.д. на 45,25']").fill("21 т.д. поворот на луну")
        page.locator("input[placeholder='17 с.д. на 45,25']").press("Enter")
        _has(page, "нет такого направления: «луну»")
        after = _box(page, ".leaflet-container")
        assert abs(after["y"] - before["y"]) < 1 and abs(after["height"] - before["height"]) < 1
        tools = page.locator(".sg-console .widget-hbox").nth(1).bounding_box()
        assert tools is not None and tools["height"] < 48
        page.screenshot(path=str(OUT / "console-1280.png"))
        # languages: English, and back
        page.locator(".sg-lang button", has_text="eng").click()
        _has(page, "End turn")
        assert "Blue" in _console_text(page) or "Red" in _console_text(page)
        page.locator(".sg-lang button", has_text="рус").click()
        _has(page, "Конец хода")
        # a second game: opened from the mediator's tab, where the console's settings say
        page.get_by_role("tab", name="Посредник").click()
        page.locator("input[placeholder='maps/continental.toml, war.game']").fill(str(DEFAULT))
        page.get_by_role("button", name="Открыть").click()
        _has(page, "Ход 1, ходят красные")
        page.wait_for_timeout(1500)
        _whole_map(page)
        x, y = _cell(page, "37,35")
        page.mouse.click(x, y)
        _has(page, "21 т.д. (Красные)")
        tx, ty = _cell(page, "35,35")
        page.mouse.click(tx, ty)
        _has(page, "21 т.д. на 35,35")
        page.get_by_role("button", name="Отдать приказ").click()
        _has(page, "21 т.д. - 35,35")
        page.wait_for_function(f"{counter_at(tx, ty)}.side === 'red'", timeout=30_000)
        new_games = [g for g in games.glob("continental-*.game")]
        assert len(new_games) == 1
        # reload: the second game resumes, its order kept; no kernel is left behind
        page.reload(timeout=120_000)
        page.wait_for_selector("img.leaflet-image-layer", timeout=120_000)
        _has(page, "Ход 1, ходят красные")
        page.wait_for_timeout(1500)
        _whole_map(page)
        tx, ty = _cell(page, "35,35")
        page.wait_for_function(f"{counter_at(tx, ty)}.side === 'red'", timeout=30_000)
        deadline = time.time() + 60  # culled once idle 20 s, looked for every 5 s (voila.json)
        while _kernels(server) > 1 and time.time() < deadline:
            time.sleep(1)
        assert _kernels(server) == 1
        browser.close()
    (OUT / "browser-timing.json").write_text(json.dumps(timing))
