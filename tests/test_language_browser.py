"""One language at a time, read in Chromium: in each language (ru, en) the console (every tab),
a team's screen (every tab), the lessons' index, every lesson it lists and the scenario builder,
each page's whole text (`innerText`) with its tooltips and placeholders, and Voilà's own words
while it opens («Running ...», «Loading widget...»). A Russian page fails on a word in Latin
script, an English page on a word in Cyrillic (tests/language_checks.py finds them).

What the other script may hold, by design and by name (`ALLOWED`, `_names`):
- quoted text (language_checks: «…», '…', "…"): an order or a question quoted in the game's
  notation, the seeds' words quoted in the case book;
- proper names that are the same in both languages: the scenario's (states, places, its own
  name), the tactical skirmish's units (Russian and French), the software's (Dask, xarray);
- code, which has no language: a code block (`pre code`, a lesson's command lines, a file's text
  as saved), and on a Russian page also inline `code` (a command, a path, a data key); the
  tactical rules' layout letters n (figures) and s (squadrons);
- the language switch of the console (`.sg-lang`: «рус» «eng», each in its own language).

The console is `strategia serve`'s (its mediator's screen, as the teams' through the screens'
template), on a war in its fourth turn where a computer has moved and the side to move has
given an order: the order is taken back with Undo and an order of a side not to move is refused,
so that their messages are read too. One server per page kind and language; one browser.

Skipped, saying why, where there is no Chromium (CI installs Debian's; see .ci/run).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import ARGS, CHROMIUM, need_chromium, served, wait_for
from language_checks import cyrillic_words, latin_words

from strategia.game.game import Game
from strategia.game.order_words import order_in
from strategia.theatre import terrain
from strategia.ui.console import Console
from strategia.ui.console.computer import last_move
from strategia.ui.widgets.order_form import FREE_HINT

ROOT = Path(__file__).parents[1]
sys.path.insert(0, str(ROOT / "tools"))
from lessons import voila_lessons  # noqa: E402
from test_layout_browser import _free_port, _war  # noqa: E402

pytestmark = pytest.mark.browser
LANGS = ["ru", "en"]
SKIRMISH = ROOT / "strategia" / "tactical" / "skirmishes" / "grove.toml"
# Latin on a Russian page by design: the software's names, the tactical layout's letters
ALLOWED = {"Dask", "xarray", "n", "s"}

# Voilà's own words while a page opens: its progress (#loading) and the placeholders of widgets
# not drawn yet (an output with no element in it), gathered every 200 ms from the start
OPENING = """
window.sgOpening = new Set();
window.sgOpeningTimer = setInterval(() => {
  for (const e of document.querySelectorAll('#loading, .jp-OutputArea-output')) {
    if (e.id === 'loading' || e.children.length === 0) {
      const t = (e.innerText || '').trim();
      if (t) window.sgOpening.add(t);
    }
  }
}, 200);
"""
# the page's text, what is code (and the language switch) left out, with its tooltips and
# placeholders; what Voilà said while it opened
READ = """(ru) => {
  const code = ru ? 'code, pre code, .jp-RenderedMarkdown pre, .sg-lang'
                  : 'pre code, .jp-RenderedMarkdown pre, .sg-lang';
  let style = document.getElementById('sg-read');
  if (!style) {
    style = document.createElement('style'); style.id = 'sg-read';
    style.textContent = '.sg-read-hide{visibility:hidden!important}';
    document.head.appendChild(style);
  }
  const hide = Array.from(document.querySelectorAll(code));
  hide.forEach(e => e.classList.add('sg-read-hide'));
  const text = document.body.innerText;
  hide.forEach(e => e.classList.remove('sg-read-hide'));
  const tips = Array.from(document.querySelectorAll('[title], [placeholder], [aria-label]'))
    .filter(e => e.getClientRects().length && !e.closest(code))
    .flatMap(e => ['title', 'placeholder', 'aria-label'].map(a => e.getAttribute(a)))
    .filter(t => t && t.trim());
  return [text, ...tips].join('\\n');
}"""
OPENED = "(() => { clearInterval(window.sgOpeningTimer); return Array.from(window.sgOpening); })()"
# every map drawn: its counters' layer in place (which also titles its controls)
MAPS_DRAWN = (
    "document.querySelectorAll('.leaflet-container').length"
    " === document.querySelectorAll('canvas.sg-units').length"
)
PLACEHOLDERS = (
    "!Array.from(document.querySelectorAll('.jp-OutputArea-output'))"
    ".some(e => e.children.length === 0 && /Loading widget|Загрузка/.test(e.innerText))"
)


def _names(game: Path) -> set[str]:
    """The proper names the pages show as they are in either language: the scenario's, the
    tactical skirmish's units'."""
    g = Game.open(game)
    out = {g.scenario.name, *(s.name for s in g.scenario.states)}
    out |= {word for s in g.scenario.states for word in s.name.split()}
    out |= {name for name, _ in terrain.places(g.state.theatre)}
    g.journal.close()
    units = tomllib.loads(SKIRMISH.read_text(encoding="utf-8"))["unit"]
    return out | {u["name"] for u in units}


def _wrong(text: str, lang: str, names: set[str]) -> list[str]:
    """The words of the other language in `text`, line by line (what is allowed left out)."""
    found = []
    for line in text.splitlines():
        if lang == "ru":
            latin = set(latin_words(line)) - ALLOWED
            latin -= {w for n in names for w in latin_words(n)}
            found += [f"{w!r} in: {line.strip()[:160]}" for w in sorted(latin)]
        else:
            found += [f"{w!r} in: {line.strip()[:160]}" for w in cyrillic_words(line, names)]
    return list(dict.fromkeys(found))


def _read(page: Any, lang: str) -> str:
    return str(page.evaluate(READ, lang == "ru"))


def _settled(page: Any, timeout: int = 180_000) -> None:
    """Until every widget is drawn and every map with its counters."""
    page.wait_for_function(PLACEHOLDERS, timeout=timeout)
    page.wait_for_function(MAPS_DRAWN, timeout=timeout)


def _opened(page: Any, lang: str, names: set[str], what: str) -> dict[str, list[str]]:
    """What Voilà said while the page opened (once it is settled), in the other language."""
    bad = _wrong("\n".join(page.evaluate(OPENED)), lang, names)
    return {f"{what}, while it opened": bad} if bad else {}


def _tabs(page: Any, root: str, lang: str, names: set[str], what: str) -> dict[str, list[str]]:
    """Each tab of the page's tab bar under `root` clicked, the whole page read with it open."""
    tabs = page.locator(f"{root} .lm-TabBar-tab")
    found: dict[str, list[str]] = {}
    for k in range(tabs.count()):
        tab = tabs.nth(k)
        title = tab.inner_text()
        tab.click()
        page.wait_for_function(
            "([root, k]) => document.querySelectorAll(root + ' .lm-TabBar-tab')[k]"
            ".classList.contains('lm-mod-current')",
            arg=[root, k],
            timeout=20_000,
        )
        _settled(page, 60_000)
        bad = _wrong(_read(page, lang), lang, names)
        if bad:
            found[f"{what}, tab «{title}»"] = bad
    return found


@pytest.fixture(scope="module")
def war(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The continental war in its fourth turn (tests/test_layout_browser.py) where a computer
    has made the last move and the side now to move has given an order (to take back)."""
    need_chromium()
    folder = tmp_path_factory.mktemp("war")
    game = _war(folder)
    g = Game.open(game)
    c = Console(g, "ru", games=folder / "games")
    for _ in range(6):  # a belligerent's move, which gives orders
        computer = g.side
        if computer in ("red", "blue"):
            c.set_computer(computer, True)  # it moves at once, and its move ends
            c.set_computer(computer, False)
            if any(d.get("order") for _, d in last_move(g)):
                break
        else:
            c.end_turn()
    assert any(d.get("order") for _, d in last_move(g)), "the computer gave no order"
    for u in sorted(g.state.units.values(), key=lambda u: u.ref.number):
        if g.state.side_of(u.ref) != g.side:
            continue
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            target = f"{u.cell.lon + dx},{u.cell.lat + dy}"
            if c.submit(f"{u.ref} на {target}") is not None:
                break
        if g.undoable() is not None:
            break
    assert g.undoable() is not None, "no order to take back"
    g.journal.close()
    return game


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    need_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


def _page(chromium: Any) -> Any:
    page = chromium.new_page(viewport={"width": 1920, "height": 1080})
    page.add_init_script(OPENING)
    return page


def _refused_order(game: Path, lang: str) -> str:
    """An order of a unit whose side is not to move, in `lang`'s notation."""
    g = Game.open(game)
    other = next(
        u for u in sorted(g.state.units.values(), key=lambda u: u.ref.number)
        if g.state.side_of(u.ref) not in (g.side, "green")
    )  # fmt: skip
    g.journal.close()
    return order_in(f"{other.ref} на {other.cell}", lang)  # type: ignore[arg-type]


@pytest.mark.parametrize("lang", LANGS)
def test_the_console_and_a_team_screen_speak_one_language(
    war: Path, chromium: Any, lang: str, tmp_path: Path
) -> None:
    folder = tmp_path / "war"
    shutil.copytree(war.parent, folder)  # Undo changes the game: each language its own copy
    game = folder / war.name
    names = _names(game)
    refused = _refused_order(game, lang)
    found: dict[str, list[str]] = {}
    t0 = time.perf_counter()
    with served(game, ["red"], _free_port(), lang) as screens:
        page = _page(chromium)
        page.goto(screens["mediator"].url, timeout=180_000)
        page.wait_for_selector(".sg-console img.leaflet-image-layer", timeout=180_000)
        _settled(page)
        found |= _opened(page, lang, names, "the console")
        # the refusal of an order of a side not to move, then Undo's message (a new order
        # clears the last one's message)
        page.locator(".sg-console .lm-TabBar-tab").first.click()
        notation = page.locator(f".sg-console input[placeholder='{FREE_HINT(lang)}']")
        notation.fill(refused)
        notation.press("Enter")
        said = "сейчас ходят" if lang == "ru" else "'s move, not"
        page.wait_for_function(
            f"document.querySelector('.sg-console').innerText.includes({said!r})",
            timeout=30_000,
        )  # refused: it is another side's move (1.7)
        undo = "Отменить" if lang == "ru" else "Undo"
        page.locator(".sg-console button", has_text=undo).click()
        page.wait_for_function(
            "document.querySelector('.sg-console .sg-report-box s') !== null", timeout=30_000
        )  # the order taken back, struck out
        found |= _tabs(page, ".sg-console", lang, names, "the console")
        page.close()
        page = _page(chromium)
        page.goto(screens["red"].url, timeout=180_000)
        page.wait_for_selector(".sg-team img.leaflet-image-layer", timeout=180_000)
        _settled(page)
        found |= _opened(page, lang, names, "Red's screen")
        found |= _tabs(page, ".sg-team", lang, names, "Red's screen")
        page.close()
    print(f"\nconsole and team, {lang}: {time.perf_counter() - t0:.0f} s")
    assert not found, _said(found, lang)


@contextmanager
def _lessons(lang: str) -> Iterator[str]:
    """`make lessons`'s server in `lang`: its root's address."""
    port = _free_port()
    cmd, env = voila_lessons(port, {**os.environ, "STRATEGIA_LANG": lang})
    proc = subprocess.Popen(
        cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT
    )
    try:
        root = f"http://127.0.0.1:{port}/"
        wait_for(root)
        yield root
    finally:
        proc.terminate()
        proc.wait(timeout=30)


@pytest.mark.parametrize("lang", LANGS)
def test_the_lessons_and_the_builder_speak_one_language(
    war: Path, chromium: Any, lang: str
) -> None:
    names = _names(war)
    found: dict[str, list[str]] = {}
    t0 = time.perf_counter()
    with _lessons(lang) as root:
        page = _page(chromium)
        page.goto(root + "voila/render/index.ipynb", timeout=180_000)
        page.wait_for_selector(".sg-lessons li a", timeout=180_000)
        found |= _opened(page, lang, names, "the lessons' index")
        links = page.evaluate(
            "Array.from(document.querySelectorAll('.sg-lessons a')).map(a => a.getAttribute('href'))"
        )
        assert "/voila/render/scenario_builder.ipynb" in links and len(links) >= 10, links
        bad = _wrong(_read(page, lang), lang, names)
        if bad:
            found["the lessons' index"] = bad
        page.close()
        for link in links:
            page = _page(chromium)
            page.goto(root.rstrip("/") + link, timeout=600_000, wait_until="load")
            _settled(page)
            found |= _opened(page, lang, names, link.rsplit("/", 1)[-1])
            bad = _wrong(_read(page, lang), lang, names)
            if bad:
                found[link.rsplit("/", 1)[-1]] = bad
            page.close()
    print(f"\nlessons and builder, {lang}: {time.perf_counter() - t0:.0f} s")
    assert not found, _said(found, lang)


def _said(found: dict[str, list[str]], lang: str) -> str:
    other = "Latin" if lang == "ru" else "Cyrillic"
    return f"{other} words on the {lang} pages:\n" + "\n".join(
        f"  {where}:\n" + "\n".join(f"    {x}" for x in xs[:15]) for where, xs in found.items()
    )
