"""A printed report holds what a reader needs (issue 24): the report page (the console's
download, `strategia game report --format html`) printed to PDF in Chromium, and the PDF's text
read back: the summary, the table per unit, the steps and the reconstructed values are on
paper, not in a fold a printer leaves closed. Before, the reconstructed values were in a
<details> that printed closed: none of their text reached the paper.

Skipped, saying why, where there is no Chromium (CI installs Debian's; see .ci/run).
"""

from __future__ import annotations

import base64
import re
import shutil
from pathlib import Path

import pytest
from test_report import example

from strategia.cli import main
from strategia.game import report_render as rr
from strategia.ui.console import Console

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
pytestmark = pytest.mark.browser


def _pdf_text(html: str, out: Path) -> str:
    """`html` printed to PDF by Chromium (print media, A4), and the PDF's text."""
    if not Path(CHROMIUM).exists():
        pytest.skip("no Chromium here (install Debian's chromium: apt-get install -y chromium)")
    sync = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    pypdf = pytest.importorskip("pypdf", reason="pypdf is not installed (make setup)")
    with sync.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            page = browser.new_page()
            page.set_content(html, wait_until="load")
            page.pdf(path=str(out), format="A4", print_background=True)
        finally:
            browser.close()
    text = "\n".join(pg.extract_text() or "" for pg in pypdf.PdfReader(str(out)).pages)
    return re.sub(r"\s+", " ", text.replace("\u00a0", " "))


def _squash(s: str) -> str:
    return re.sub(r"\s+", " ", s.replace("\u00a0", " "))


def test_the_printed_battle_report_shows_its_table_and_reconstructed_values(
    tmp_path: Path,
) -> None:
    """REPORT-EXAMPLE's battle, from `game report --format html` and from the console's
    download link: on paper, the per-unit table (its head and both divisions' rows) and every
    reconstructed value the battle used (the exchange rate 0,5 among them)."""
    g, r = example(tmp_path)
    out = tmp_path / "turn1.html"
    g.journal.close()
    assert main(["game", "report", str(g.journal.path), "--turn", "1", "--format", "html",
                 "-o", str(out), "--lang", "ru"]) == 0  # fmt: skip
    console = Console.open(g.journal.path, lang="ru", games=tmp_path)
    b = console.panels.battles
    b.show(0)
    link = re.search(r"href='data:text/html;charset=utf-8;base64,([^']+)'", b.files.value)
    assert link is not None
    pages = {"cli": out.read_text(encoding="utf-8"),
             "console": base64.b64decode(link.group(1)).decode("utf-8")}  # fmt: skip
    rep = rr.report_of(console.game.results[-1][3], "ru", 1)
    assert rep is not None and rep.reconstructed
    for name, html in pages.items():
        text = _pdf_text(html, tmp_path / f"{name}.pdf")
        assert "Бой за 5,3, ход 1." in text, name
        for head in ("соединение", "рейтинг", "множители", "потери", "полки после боя"):
            assert head in text, (name, head)
        assert "101 т.д." in text and "13 с.д." in text and "× 1,2 в холмах" in text, name
        assert "Восстановлено в этом бою" in text, name
        for value in rep.reconstructed:  # each reconstructed value's text, as printed
            words = _squash(value).split(" — ")[0]
            assert words[:60] in text, (name, words)
        assert "Полный расчет" not in text  # the full reckoning folds away on paper


def test_the_printed_strike_report_shows_its_range_and_units(tmp_path: Path) -> None:
    from test_strike_report import _game

    g = _game(tmp_path, 2, "51 а.д. огонь по 7,3")
    html = rr.page("Удары", rr.fights(g.results), "ru")
    text = _pdf_text(html, tmp_path / "strike.pdf")
    assert "51 а.д. (Красные) из 4,3 бьет по 7,3" in text
    assert "эффективность 50 %" in text and "101 с.д." in text and "1 → 0,8" in text
    assert "Восстановлено в этом бою" in text
