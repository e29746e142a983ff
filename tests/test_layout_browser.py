"""The screens' layout measured in Chromium at 1280x800 and 1920x1080 (issue 24): the console
(Voilà on notebooks/console.ipynb, as `make console-app`) and a team's screen (`strategia
serve`), on a continental war in its fourth turn with a battle fought.

At each size, on one page a screen: the map fills its box (the box takes its container's width,
the ground covers the box), counters are large enough to read their numbers (`LEGIBLE_PX`),
«Вся карта» shows the whole theatre inside the box; no page-wide horizontal overflow (the team's
battle report scrolls in its panel); the Rules tab's level buttons on one row; the journal wraps
between words, never inside one; the page shows the game and no notebook text. The console's
head is one line, the legend opened too, its language switch's two buttons side by side; its
tabs are on one row, each whole in the panel; the war's banner is a line of its own, its box
clear of the map's. A team's map opens on its front: a unit of the side nearest a known enemy
unit, and that enemy, inside the map's box. Screenshots of each screen at each size go to
test-output/ (the README's pictures are chosen from them).

Skipped, saying why, where there is no Chromium (CI installs Debian's; see .ci/run).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import COUNTERS, wait_for

from strategia.cli import serve_cmd
from strategia.game import report_render as rr
from strategia.game import trial
from strategia.game.channel import channel
from strategia.game.game import Game
from strategia.game.last_known import last_known
from strategia.ui.widgets.mapview import LEGIBLE_PX

ROOT = Path(__file__).parents[1]
OUT = ROOT / "test-output"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]  # fmt: skip
VIEWPORTS = [(1280, 800), (1920, 1080)]
pytestmark = pytest.mark.browser

# the map's box against its container, the ground against the box, and the counters' sides (the
# median of those wholly in view; Leaflet clips the others at the box's edge)
MEASURE = """() => {
  const map = document.querySelector('.leaflet-container');
  const box = map.getBoundingClientRect(), outer = map.parentElement.getBoundingClientRect();
  const img = document.querySelector('img.leaflet-image-layer').getBoundingClientRect();
  const cover = (a0, a1, b0, b1) => Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));
  const sides = document.querySelector('canvas.sg-units').sgCounters()
    .filter(r => r.width > 0 && r.left >= box.left && r.left + r.width <= box.right
                 && r.top >= box.top && r.top + r.height <= box.bottom)
    .map(r => Math.min(r.width, r.height)).sort((a, b) => a - b);
  return {
    box: [box.left, box.top, box.width, box.height, box.bottom], container: outer.width,
    page_share: box.width / window.innerWidth,
    ground_w: cover(img.left, img.right, box.left, box.right) / box.width,
    ground_h: cover(img.top, img.bottom, box.top, box.bottom) / box.height,
    whole: img.left >= box.left - 1 && img.right <= box.right + 1
           && img.top >= box.top - 1 && img.bottom <= box.bottom + 1,
    counters: sides.length, counter_px: sides[Math.floor(sides.length / 2)] || 0,
    overflow: document.documentElement.scrollWidth - window.innerWidth,
  };
}"""
# every word of the journal on one line of the screen: a word cut by a wrap has two rows of
# rectangles; and how many of the journal's lines were wrapped (so that the test tests)
WORDS = """() => {
  const pre = document.querySelector('.sg-journal');
  const style = getComputedStyle(pre);
  const walk = document.createTreeWalker(pre, NodeFilter.SHOW_TEXT);
  const cut = []; let wrapped = 0;
  while (walk.nextNode()) {
    const node = walk.currentNode; let offset = 0;
    for (const line of node.data.split('\\n')) {
      const tops = new Set(); const re = /\\S+/g; let m;
      while ((m = re.exec(line))) {
        const r = document.createRange();
        r.setStart(node, offset + m.index); r.setEnd(node, offset + m.index + m[0].length);
        const rows = new Set(Array.from(r.getClientRects()).filter(x => x.width > 0)
          .map(x => Math.round(x.top)));
        if (rows.size > 1) cut.push(m[0]);
        rows.forEach(t => tops.add(t));
      }
      if (tops.size > 1) wrapped += 1;
      offset += line.length + 1;
    }
  }
  return {cut, wrapped, whiteSpace: style.whiteSpace, wordBreak: style.wordBreak,
          overflowWrap: style.overflowWrap};
}"""


# the head's box, the boxes of the language switch's buttons, the tabs' boxes and their bar's,
# the war banner's box and the map's
BOXES = """() => {
  const box = (e) => { const r = e.getBoundingClientRect();
    return {left: r.left, top: r.top, right: r.right, bottom: r.bottom, height: r.height}; };
  const head = document.querySelector('.sg-head');
  const bar = document.querySelector('.sg-tabs .lm-TabBar-content');
  const war = document.querySelector('.sg-war');
  return {
    head: head && box(head),
    lang: Array.from(document.querySelectorAll('.sg-lang button')).map(box),
    tabs: Array.from(document.querySelectorAll('.sg-tabs .lm-TabBar-tab')).map(box),
    bar: bar && box(bar.parentElement),
    war: war && box(war),
    map: box(document.querySelector('.leaflet-container')),
  };
}"""
ONE_LINE = 40  # px: a line of the head (its tallest control, the language switch, is 28-32 px)


def _apart(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["right"] <= b["left"] or b["right"] <= a["left"]
        or a["bottom"] <= b["top"] or b["bottom"] <= a["top"]
    )  # fmt: skip


def _banner_beside_the_map(page: Any) -> None:
    """The war's banner (the war has begun in this game) is clear of the map's box."""
    b = page.evaluate(BOXES)
    assert b["war"] is not None and b["war"]["height"] > 0, b
    assert _apart(b["war"], b["map"]), b


def _head_on_one_line(page: Any) -> None:
    """The console's head is one line, its language switch's buttons side by side; the legend
    opened leaves both as they were (it lies over the page)."""
    for opened in (False, True):
        if opened:
            page.locator(".sg-legend summary").click()
            page.wait_for_timeout(300)
        b = page.evaluate(BOXES)
        assert b["head"]["height"] <= ONE_LINE, (opened, b["head"])
        assert len(b["lang"]) == 2 and len({round(x["top"]) for x in b["lang"]}) == 1, b["lang"]
    page.locator(".sg-legend summary").click()  # folded again


def _tabs_on_one_row(page: Any) -> None:
    """Every tab on one row, each whole within the tab bar."""
    b = page.evaluate(BOXES)
    tops = {round(t["top"]) for t in b["tabs"]}
    assert len(b["tabs"]) >= 7 and len(tops) == 1, b["tabs"]
    assert all(t["right"] <= b["bar"]["right"] + 1 for t in b["tabs"]), (b["tabs"], b["bar"])


def _front(game: Path, side: str) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """The side's units nearest an enemy unit it sees or last knew of, and those enemy units."""
    g = Game.open(game)
    ch = channel(g, side)
    view = ch.view()
    own = [(u.cell.lon, u.cell.lat) for u in view.units]
    known = [s.cells[0] for s in view.seen if s.cells and s.side != "green"]
    known += [m.cells[0] for m in last_known(ch) if m.cells and m.side != "green"]
    enemy = [(c.lon, c.lat) for c in known]
    g.journal.close()
    assert own and enemy, "the side knows of no enemy unit"
    apart = lambda a, b: max(abs(a[0] - b[0]), abs(a[1] - b[1]))  # noqa: E731
    near = min(apart(a, e) for a in own for e in enemy)
    mine = [a for a in own if min(apart(a, e) for e in enemy) == near]
    return mine, [e for e in enemy if min(apart(e, a) for a in mine) == near]


def _opens_on_its_front(page: Any, game: Path, side: str) -> None:
    """A unit of the side nearest a known enemy unit, and an enemy unit that near it, are in
    the map's box as the page opens (cells placed on the screen by the terrain image, which
    covers the theatre from 0.5 to its size + 0.5)."""
    mine, theirs = _front(game, side)
    img = page.locator("img.leaflet-image-layer").first.bounding_box()
    box = page.evaluate(BOXES)["map"]
    g = Game.open(game)
    w, h = g.state.width, g.state.height
    g.journal.close()
    scale = img["width"] / w

    def inside(c: tuple[int, int]) -> bool:
        x, y = img["x"] + (c[0] - 0.5) * scale, img["y"] + (h + 0.5 - c[1]) * scale
        return box["left"] <= x <= box["right"] and box["top"] <= y <= box["bottom"]

    apart = lambda a, b: max(abs(a[0] - b[0]), abs(a[1] - b[1]))  # noqa: E731
    near = min(apart(a, e) for a in mine for e in theirs)
    shown = [
        (a, e) for a in mine for e in theirs if apart(a, e) == near and inside(a) and inside(e)
    ]  # fmt: skip
    assert shown, (mine, theirs, img, box)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _war(folder: Path) -> Path:
    """The continental scenario played by the script until a battle is fought (turn 4)."""
    g = Game.new(ROOT / "maps" / "continental.toml", folder / "war.game", level=2)
    for _ in range(60):
        trial.script_turn(g)
        if any(r.battle is not None and r.battle.outcome != "strike" for _, r in rr.fights(g.results, None)):  # fmt: skip
            break
    assert any(r.battle is not None for _, r in rr.fights(g.results, None)), "no battle"
    g.journal.close()
    return folder / "war.game"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """The console (Voilà, as `make console-app`) and Red's screen (`strategia serve`) on the
    same war."""
    if not Path(CHROMIUM).exists():
        pytest.skip("no Chromium here (install Debian's chromium: apt-get install -y chromium)")
    pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    folder = tmp_path_factory.mktemp("layout")
    game = _war(folder)
    port = _free_port()
    env = {**os.environ, "STRATEGIA_GAMES": str(folder / "games"), "STRATEGIA_LANG": "ru",
           "STRATEGIA_SCENARIO": str(game)}  # fmt: skip
    voila = Path(sys.executable).with_name("voila")
    console = subprocess.Popen(
        [str(voila), "notebooks/console.ipynb", f"--port={port}", "--no-browser", "--Voila.ip=127.0.0.1"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
    )  # fmt: skip
    screens = {s.who: s for s in serve_cmd.plan(game, None, "127.0.0.1", _free_port())}
    teams = serve_cmd.start(game, [screens["red"]])
    try:
        urls = {"console": f"http://127.0.0.1:{port}/", "team": screens["red"].url,
            "game": str(game)}  # fmt: skip
        for url in (urls["console"], urls["team"]):
            wait_for(url)
        yield urls
    finally:
        serve_cmd.stop(teams)
        console.terminate()
        console.wait(timeout=20)


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


def _open(chromium: Any, url: str, size: tuple[int, int]) -> Any:
    page = chromium.new_page(viewport={"width": size[0], "height": size[1]})
    page.goto(url, timeout=180_000)
    page.wait_for_selector("img.leaflet-image-layer", timeout=180_000)
    page.wait_for_function(f"{COUNTERS} > 25", timeout=90_000)
    page.wait_for_timeout(2500)  # the box reported, the view taken again for it
    return page


def _map_fills_its_box_with_counters_to_read(page: Any, size: tuple[int, int]) -> dict[str, Any]:
    m = page.evaluate(MEASURE)
    assert m["box"][2] >= 0.95 * m["container"], m  # the map takes its container's width
    assert m["page_share"] >= 0.6, m  # and the most of the row beside its panel
    assert m["ground_w"] >= 0.95 and m["ground_h"] >= 0.95, m  # the ground fills the box
    assert m["box"][4] <= size[1] + 1, m  # the whole map on the screen
    assert m["counters"] >= 10 and m["counter_px"] >= LEGIBLE_PX - 0.5, m
    assert m["overflow"] <= 0, m
    return m


def _whole_map(page: Any, button: str) -> None:
    page.get_by_role("button", name=button).click()
    page.wait_for_timeout(1200)
    m = page.evaluate(MEASURE)
    assert m["whole"] and (m["ground_w"] >= 0.75 or m["ground_h"] >= 0.75), m


def _no_notebook_text(page: Any) -> None:
    text = page.evaluate("document.body.innerText")
    for said in ("Run all cells", "STRATEGIA_", "README", "Strategia —"):
        assert said not in text
    assert page.locator(".jp-MarkdownOutput, .jp-RenderedMarkdown").count() == 0


def _journal_wraps_between_words(page: Any) -> None:
    page.get_by_role("tab", name="Журнал").click()
    page.wait_for_selector(".sg-journal", timeout=20_000)
    page.wait_for_timeout(300)
    j = page.evaluate(WORDS)
    assert j["whiteSpace"] == "pre-wrap" and j["wordBreak"] == "normal", j
    assert j["overflowWrap"] == "normal", j
    assert j["wrapped"] >= 1 and j["cut"] == [], j


@pytest.mark.parametrize("size", VIEWPORTS, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_console_fits_its_window(
    served: dict[str, str], chromium: Any, size: tuple[int, int]
) -> None:
    OUT.mkdir(exist_ok=True)
    page = _open(chromium, served["console"], size)
    m = _map_fills_its_box_with_counters_to_read(page, size)
    _no_notebook_text(page)
    _head_on_one_line(page)
    _tabs_on_one_row(page)
    _banner_beside_the_map(page)
    page.screenshot(path=str(OUT / f"console-{size[0]}x{size[1]}.png"))
    (OUT / f"layout-console-{size[0]}x{size[1]}.json").write_text(json.dumps(m))
    # the tools stay on one row, «Вся карта» among them, above the map
    whole = page.get_by_role("button", name="Вся карта").bounding_box()
    assert whole is not None and whole["y"] + whole["height"] <= m["box"][1] + 1
    assert whole["x"] + whole["width"] <= size[0]
    # a battle chosen in the Battles tab: its report beside the map, the map at the same zoom
    page.get_by_role("tab", name="Бои").click()
    page.locator(".sg-console select[size]").first.select_option(index=0)
    page.wait_for_function("document.body.innerText.includes('Бой за')", timeout=30_000)
    page.wait_for_timeout(1500)
    b = page.evaluate(MEASURE)
    assert (
        b["counter_px"] >= LEGIBLE_PX - 0.5 and b["ground_w"] >= 0.95 and b["ground_h"] >= 0.95
    ), b
    page.screenshot(path=str(OUT / f"console-battle-{size[0]}x{size[1]}.png"))
    _whole_map(page, "Вся карта")
    page.get_by_role("tab", name="Правила").click()
    page.wait_for_selector(".sg-levels", timeout=20_000)
    rows = page.evaluate(
        "Array.from(document.querySelectorAll('.sg-levels')).map(e =>"
        " Array.from(e.querySelectorAll('button')).map(b => Math.round(b.getBoundingClientRect().top)))"
    )
    assert len(rows) == 2 and all(len(r) == 3 and len(set(r)) == 1 for r in rows), rows
    assert page.evaluate(MEASURE)["overflow"] <= 0
    _journal_wraps_between_words(page)
    page.close()


@pytest.mark.parametrize("size", VIEWPORTS, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_team_screen_fits_its_window(
    served: dict[str, str], chromium: Any, size: tuple[int, int]
) -> None:
    OUT.mkdir(exist_ok=True)
    page = _open(chromium, served["team"], size)
    _opens_on_its_front(page, Path(served["game"]), "red")
    m = _map_fills_its_box_with_counters_to_read(page, size)
    _no_notebook_text(page)
    _banner_beside_the_map(page)
    (OUT / f"layout-team-{size[0]}x{size[1]}.json").write_text(json.dumps(m))
    # the battle report: its sentences wrap inside the panel, its table fits the panel or
    # scrolls in it; never the page
    page.get_by_role("tab", name="Бои").click()
    page.wait_for_selector(".sr-report table", timeout=30_000)
    page.wait_for_timeout(500)
    assert page.evaluate(MEASURE)["overflow"] <= 0
    report = page.evaluate(
        "(() => { const r = Array.from(document.querySelectorAll('.sr-report'))"
        "   .find(e => e.getBoundingClientRect().width > 0);"
        " const box = r.closest('.sg-report-box').getBoundingClientRect();"
        " const t = r.querySelector('table');"
        " const lines = Array.from(r.querySelectorAll('p'))"
        "   .map(p => p.getBoundingClientRect().right);"
        " return {right: box.right, lines: Math.max(...lines), table: t.getBoundingClientRect().right,"
        "   scrolls: t.scrollWidth > t.clientWidth + 1, overflow: getComputedStyle(t).overflowX}; })()"
    )
    assert report["right"] <= size[0] and report["lines"] <= report["right"] + 1, report
    assert report["table"] <= report["right"] + 1, report  # the table's box: within the panel
    if report["scrolls"]:  # wider than the panel: it scrolls in its own box
        assert report["overflow"] == "auto", report
    page.screenshot(path=str(OUT / f"team-{size[0]}x{size[1]}.png"))
    _whole_map(page, "Вся карта")
    _journal_wraps_between_words(page)
    page.close()
