"""The lessons' own index (notebooks/index.ipynb, the page `make lessons` opens): exactly the
lessons, in order, titled from their notebooks in the reader's language; the tools' notebooks
(console, team, tactical table) are not lessons. The page itself is opened in Chromium by
tests/test_lessons_browser.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from strategia.ui.lessons.index import heading, index_html, lesson_index, lessons

ROOT = Path(__file__).parents[1]
NOTEBOOKS = ROOT / "notebooks"
EXPECTED = [
    "01_units_and_ratings.ipynb", "02_movement.ipynb", "03_battle_workbench.ipynb",
    "04_artillery.ipynb", "05_reconnaissance.ipynb", "06_tactical.ipynb", "07_casebook.ipynb",
    "08_against_the_computer.ipynb", "scenario_builder.ipynb", "balance.ipynb",
]  # fmt: skip


def test_the_index_lists_exactly_the_lessons_in_order() -> None:
    assert [x.file for x in lessons(NOTEBOOKS)] == EXPECTED
    assert [x.file for x in lessons()] == EXPECTED  # notebooks/ found by itself
    for tool in ("console.ipynb", "team.ipynb", "tactical.ipynb", "index.ipynb"):
        assert (NOTEBOOKS / tool).exists() and tool not in EXPECTED


def test_titles_are_the_notebooks_headings_in_each_language() -> None:
    found = {x.file: x for x in lessons(NOTEBOOKS)}
    assert found["01_units_and_ratings.ipynb"].title("ru") == "1. Части и рейтинги"
    assert found["01_units_and_ratings.ipynb"].title("en") == "1. Units and ratings"
    assert found["scenario_builder.ipynb"].title("ru") == "Конструктор сценариев"
    assert found["scenario_builder.ipynb"].title("en") == "Scenario builder"
    assert found["balance.ipynb"].title("ru") == "Баланс сценария"
    assert found["balance.ipynb"].title("en") == "Scenario balance"
    for x in found.values():  # each title is the first heading of its cells in each language
        cells = json.loads((NOTEBOOKS / x.file).read_text(encoding="utf-8"))["cells"]
        first = {c["metadata"]["tags"][0]: "".join(c["source"]).splitlines()[0] for c in cells[:2]}
        assert first == {"ru": f"# {x.ru}", "en": f"# {x.en}"}
        assert x.ru != x.en


def test_a_bilingual_heading_is_halved(tmp_path: Path) -> None:
    nb = {"cells": [{"cell_type": "markdown", "source": ["# 1. Части / Units\n"]}]}
    (tmp_path / "x.ipynb").write_text(json.dumps(nb))
    assert heading(tmp_path / "x.ipynb") == ("1. Части", "1. Units")


def test_a_heading_in_one_language_is_its_title_in_both(tmp_path: Path) -> None:
    nb = {"cells": [{"cell_type": "markdown", "source": ["Intro\n", "## Карта\n"]}]}
    (tmp_path / "x.ipynb").write_text(json.dumps(nb))
    assert heading(tmp_path / "x.ipynb") == ("Карта", "Карта")


@pytest.mark.parametrize(
    ("lang", "title", "other"), [("ru", "уроки", "Units"), ("en", "lessons", "Части")]
)
def test_the_page_is_in_the_readers_language(
    lang: str, title: str, other: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("STRATEGIA_LANG", lang)
    page = lesson_index()
    bundle = page._repr_mimebundle_()
    assert title in bundle["text/html"] and other not in bundle["text/html"]
    assert bundle["text/html"].count("<li>") == len(EXPECTED)
    for name in EXPECTED:
        assert f"href='/voila/render/{name}'" in bundle["text/html"]
    for tool in ("console", "team", "/tactical.ipynb", "index.ipynb"):
        assert tool not in bundle["text/html"]
    assert index_html(lessons(NOTEBOOKS), "en", pages="") == lesson_index(
        NOTEBOOKS, "en"
    ).html.replace("/voila/render/", "")
