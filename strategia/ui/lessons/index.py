"""The lessons' own index (notebooks/index.ipynb, the page `make lessons` opens): a title and the
lessons in order, in the reader's language, each linked to its page.

The lessons are the numbered notebooks (01_..., 02_...) and the scenario builder; the console,
the team screen and the tactical table are tools with pages of their own, not lessons. A lesson's
title is its notebook's first heading in the reader's language (a lesson's texts are cells in one
language each, tagged "ru" or "en").
The links lead to Voilà's pages of the lessons, `/voila/render/NN_x.ipynb`: on the server
`make lessons` starts, and in JupyterLab too (Voilà's server extension). They are absolute paths:
JupyterLab's renderer, which Voilà's page uses too, takes a relative link for a file to open in
JupyterLab's own document manager, and on Voilà's page such a click does nothing.
"""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from strategia.core.i18n import Lang, Text, check_lang
from strategia.ui.lessons.show import Html, lesson_lang, repository

NUMBERED = re.compile(r"\d\d_\w+\.ipynb")
AFTER = ("scenario_builder.ipynb", "balance.ipynb")
PAGES = "/voila/render/"  # lessons without a number, listed after the numbered ones
TITLE = Text("Strategia: the lessons", "«Стратегия»: уроки")
LEAD = Text(
    "The rules one at a time, each with the engine's own figures and workbenches.",
    "Правила по одному, с рисунками и стендами самой программы.",
)


@dataclass(frozen=True)
class Lesson:
    """A lesson's notebook and its title in both languages (from its first heading)."""

    file: str
    ru: str
    en: str

    def title(self, lang: Lang) -> str:
        return self.ru if lang == "ru" else self.en


def _first_heading(cells: list[dict[str, Any]], lang: str | None) -> str | None:
    """The first heading of the markdown cells in `lang` (tagged so; None: any cell)."""
    for cell in cells:
        tags = cell.get("metadata", {}).get("tags", [])
        if cell["cell_type"] != "markdown" or (lang is not None and lang not in tags):
            continue
        for line in "".join(cell["source"]).splitlines():
            if line.startswith("#"):
                return line.lstrip("#").strip()
    return None


def heading(path: Path) -> tuple[str, str]:
    """A notebook's first heading as (Russian, English): the first heading of its cells
    tagged "ru" and of those tagged "en" (a lesson's texts, one language a cell); in a notebook
    of bilingual cells, "# 1. Части / Units" gives ("1. Части", "1. Units"); a heading in one
    language only is the same in both."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    ru, en = _first_heading(cells, "ru"), _first_heading(cells, "en")
    if ru is not None and en is not None:
        return ru, en
    text = _first_heading(cells, None)
    if text is None:
        return path.stem, path.stem
    ru, _, en = text.partition(" / ")
    number = re.match(r"\d+\.\s+", ru)
    if en and number and not re.match(r"\d", en):
        en = number[0] + en
    return ru.strip(), (en or ru).strip()


def lessons(folder: Path | None = None) -> list[Lesson]:
    """The lessons in `folder` (notebooks/ by default) in the order they are taught."""
    folder = folder or repository() / "notebooks"
    numbered = sorted(p for p in folder.glob("*.ipynb") if NUMBERED.fullmatch(p.name))
    after = [folder / name for name in AFTER if (folder / name).exists()]
    return [Lesson(p.name, *heading(p)) for p in [*numbered, *after]]


def index_html(found: list[Lesson], lang: Lang, pages: str = PAGES) -> str:
    """The index page: a title, a line on what the lessons are, the list linked to `pages`."""
    rows = "".join(
        f"<li><a href='{html.escape(pages + x.file)}'>{html.escape(x.title(lang))}</a></li>"
        for x in found
    )
    return (
        "<div class='sg-lessons' style='font:15px/1.6 sans-serif;max-width:720px'>"
        f"<h1 style='font-size:26px'>{TITLE(lang)}</h1><p>{LEAD(lang)}</p>"
        f"<ol style='list-style:none;padding-left:0'>{rows}</ol></div>"
    )


def lesson_index(folder: Path | None = None, lang: str | None = None) -> Html:
    """The index as the notebook shows it, in the reader's language (`STRATEGIA_LANG`)."""
    chosen = check_lang(lang) if lang else lesson_lang()
    found = lessons(folder)
    alt = "\n".join([TITLE(chosen), *(f"{x.file}: {x.title(chosen)}" for x in found)])
    return Html(index_html(found, chosen), alt)


__all__ = ["Lesson", "heading", "index_html", "lesson_index", "lessons"]
