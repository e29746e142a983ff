"""The console parts of issue 28 in Chromium, on `strategia serve`'s screens of one war (the
default scenario scripted into turn 6 at level 2, Red to move, at war since turn 3):

- Red's team screen opens on its debrief (the first thing in its Orders tab, above the order
  input, on the screen), and its map holds its last-known marks, dashed, each titled «видели на
  ходу N» in what the page receives;
- the mediator's «Ход войны» tab shows the charts as a picture, drawn again when the turn has
  been ended by every side; the Mediator tab's truth view of Red shows its summary, its legend and Red's marks
  dashed over the true counters; the same in English after «eng»;
- the Journal's slider taken back and «Продолжить отсюда новой игрой» makes a new game file in
  the console's games folder, the game it came from untouched.

Skipped, saying why, where there is no Chromium (CI installs Debian's; see .ci/run).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import ARGS, CHROMIUM, frames_of, has, need_chromium, served

from strategia.cli import serve_cmd
from strategia.game.channel import channel
from strategia.game.game import Game
from strategia.game.last_known import last_known
from strategia.game.trial import script_turn
from strategia.game.truth import truth_view
from strategia.ui.console import truth as truth_words

ROOT = Path(__file__).parents[1]
DEFAULT = ROOT / "maps" / "continental.toml"
OUT = ROOT / "test-output"
MOVES = 15  # scripted moves: turn 6, Red to move, with marks of Blue units seen on turns 4-5
DASHED = "path[stroke-dasharray='4 3']"  # a last-known mark (`marks.LAST_KNOWN_STYLE`)
TRUTH_SIDE = "select:has(option:text-is('—'))"  # with the label «сторона»: the truth view's
pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def war(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, Any]]]:
    need_chromium()
    path = tmp_path_factory.mktemp("course") / "war.game"
    g = Game.new(DEFAULT, path, level=2, seed=5)
    for _ in range(MOVES):
        script_turn(g)
    assert (g.state.turn, g.side, g.state.at_war) == (6, "red", True)
    g.journal.close()
    with served(path, ["red"], 18_966) as screens:
        yield path, screens


def _open(p: Any, url: str, viewport: tuple[int, int] = (1280, 800)) -> tuple[Any, Any]:
    browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
    page = browser.new_page(viewport={"width": viewport[0], "height": viewport[1]})
    return browser, page


def test_the_team_screen_opens_on_its_debrief_with_last_known_marks(
    war: tuple[Path, dict[str, Any]],
) -> None:
    """Red's marks are recomputed from the game (its channel): the page must have received
    each one's title, and drawn a dashed square for each of their cells."""
    from playwright.sync_api import sync_playwright

    path, screens = war
    g = Game.open(path)
    marks = last_known(channel(g, "red"))
    g.journal.close()
    assert marks, "Red saw Blue units on turns 4-5 that it does not see now"
    with sync_playwright() as p:
        browser, page = _open(p, screens["red"].url)
        frames = frames_of(page)
        page.goto(screens["red"].url, timeout=120_000)
        has(page, "Сводка для красных, ход 6")
        page.wait_for_selector(DASHED, state="attached", timeout=60_000)
        debrief = page.locator(".sg-debrief").bounding_box()
        order = page.locator("input[placeholder='17 с.д. на 45,25']").bounding_box()
        assert debrief is not None and order is not None
        assert debrief["y"] < order["y"] and debrief["y"] < 800  # first, and on the screen
        first = page.evaluate(
            "(() => { const d = document.querySelector('.sg-debrief');"
            " const panel = d.closest('.widget-tab-contents, .lm-TabPanel-stackedPanel');"
            " if (!panel || panel === d) return 'no tab';"
            " const shown = Array.from(panel.querySelectorAll('*')).filter("
            "   e => e.children.length === 0 && e.innerText && e.innerText.trim());"
            " return shown.length > 1 && d.contains(shown[0]) && !d.contains(shown.at(-1)); })()"
        )  # the first text in the Orders tab is the debrief's, the tab holds more after it
        assert first is True, f"the debrief is not first in the Orders tab: {first}"
        received = "\n".join(frames)
        for m in marks:
            assert m.label("ru").split(": ", 1)[1] in received and m.unit in received
        assert "видели на ходу" in received
        assert page.locator(DASHED).count() >= sum(len(m.cells) for m in marks)
        browser.close()


def test_the_course_the_truth_view_and_a_fork_in_the_console(
    war: tuple[Path, dict[str, Any]],
) -> None:
    """The truth view's summary is `truth.summary` of the game's `truth_view` for Red, in
    each language; the charts' picture is another once the turn is ended (a new position, turn
    6's, to chart: a side's move alone leaves the positions after each turn as they were)."""
    from playwright.sync_api import sync_playwright

    path, screens = war
    g = Game.open(path)
    seen = truth_view(g, "red")
    entries = g.journal.last_seq
    g.journal.close()
    assert seen.wrong, "Red believes some Blue unit is where it is not"
    folder = serve_cmd.folder(path.resolve()) / "games"
    t0 = time.perf_counter()
    with sync_playwright() as p:
        browser, page = _open(p, screens["mediator"].url)
        page.goto(screens["mediator"].url, timeout=120_000)
        has(page, "Ход 6, ходят красные", timeout=120_000)
        # the course of the war: its picture, drawn again when the turn is ended
        page.get_by_role("tab", name="Ход войны").click()
        chart = page.locator("img[alt='Ход войны на графиках']")
        chart.wait_for(timeout=60_000)
        page.wait_for_function(
            "document.querySelector(\"img[alt='Ход войны на графиках']\").naturalWidth > 400"
        )
        box = chart.bounding_box()
        assert box is not None and box["width"] > 300 and box["height"] > 300
        before = chart.get_attribute("src")
        for who in ("синие", "зеленые", "красные"):  # a turn whole: a new position charted
            page.get_by_role("button", name="Конец хода").click()
            has(page, f"ходят {who}")
        has(page, "Ход 7, ходят красные")
        page.wait_for_function(
            "(old) => { const i = document.querySelector(\"img[alt='Ход войны на графиках']\");"
            " return i && i.src !== old && i.naturalWidth > 400; }",
            arg=before,
            timeout=60_000,
        )
        # the truth view of Red: summary, legend, its marks dashed over the true counters
        page.get_by_role("tab", name="Посредник").click()
        page.get_by_label("сторона").and_(page.locator(TRUTH_SIDE)).select_option(label="Красные")
        g = Game.open(path)
        seen = truth_view(g, "red")  # after the turn ended
        g.journal.close()
        has(page, truth_words.summary(seen, "ru"))
        has(page, "пунктирные квадраты — где их считает сторона")
        has(page, f"Считает там, где их нет ({len(seen.wrong)})")
        page.wait_for_selector(DASHED, state="attached", timeout=30_000)
        assert page.locator(DASHED).count() >= sum(len(b.mark.cells) for b in seen.beliefs)
        page.get_by_text("Картина стороны и действительность").scroll_into_view_if_needed()
        page.wait_for_timeout(500)
        OUT.mkdir(exist_ok=True)
        page.screenshot(path=str(OUT / "truth.png"))  # the README's docs/truth.png
        # in English: the tab's picture and the truth view's words
        page.locator(".sg-lang button", has_text="eng").click()
        has(page, "End turn")
        page.get_by_role("tab", name="Mediator").click()
        page.get_by_label("side").and_(page.locator(TRUTH_SIDE)).select_option(label="Red")
        has(page, truth_words.summary(seen, "en"))
        has(page, "the dashed squares, where the side believes them to be")
        page.get_by_role("tab", name="Course of the war").click()
        page.locator("img[alt='The course of the war, charted']").wait_for(timeout=60_000)
        page.locator(".sg-lang button", has_text="рус").click()
        has(page, "Конец хода")
        # back in the journal to an earlier entry, and a new game from there
        page.get_by_role("tab", name="Журнал").click()
        readout = page.locator(".widget-slider .widget-readout").first
        readout.click()
        readout.press("Control+A")
        readout.type(str(entries - 4))
        readout.press("Enter")
        has(page, f"история: запись {entries - 4} из")
        page.get_by_role("button", name="Продолжить отсюда новой игрой").click()
        deadline = time.time() + 60
        while not list(folder.glob(f"war-from-{entries - 4}-*.game")) and time.time() < deadline:
            time.sleep(0.5)
        forked = list(folder.glob(f"war-from-{entries - 4}-*.game"))
        assert len(forked) == 1, sorted(folder.glob("*"))
        browser.close()
    new = Game.open(forked[0])
    assert new.journal.last_seq == entries - 4 and new.replay_problems == []
    new.journal.close()
    was = Game.open(path)
    assert was.journal.last_seq > entries  # its End turn kept, nothing taken away
    was.journal.close()
    assert time.perf_counter() - t0 < 90
