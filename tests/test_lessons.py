"""The lessons as a reader meets them without running them: kept outputs with their figures,
code out of the way, each text in one language with its twin in the other, the rules' terms and
not the code's, every control labelled.

(`make test` also runs every lesson under nbval against these kept outputs, and the root
conftest fails a cell tagged `figure` that shows none.)
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import ipywidgets as w
import pytest

from strategia.core.vocab import Kind
from strategia.rules import load_ruleset

ROOT = Path(__file__).parents[1]
LESSONS = sorted(
    p
    for p in (ROOT / "notebooks").glob("*.ipynb")
    if p.name not in ("console.ipynb", "team.ipynb", "index.ipynb")
)
FIGURES = ("image/png", "image/svg+xml")
CYRILLIC = re.compile("[а-яё]", re.I)
LATIN_WORD = re.compile(r"\b[a-z]{4,}\b", re.I)


def cells(path: Path, kind: str) -> list[dict[str, Any]]:
    return [
        c for c in json.loads(path.read_text(encoding="utf-8"))["cells"] if c["cell_type"] == kind
    ]


def text_of(out: dict[str, Any]) -> str:
    """An output's words: its text, its HTML without tags, a figure's summary; without what the
    rule data says only in English (a reconstructed value's reason, a note: see README) and the
    rules sheet's entry keys (house rules name them)."""
    data = out.get("data", {})
    parts = [out.get("text", "")] + [data.get(k, "") for k in ("text/plain", "text/html")]
    joined = "".join("".join(p) if isinstance(p, list) else p for p in parts)
    joined = re.sub(r"<style>.*?</style>", " ", joined, flags=re.S)
    joined = html.unescape(re.sub(r"<[^>]+>", " ", joined))
    joined = re.sub(r"восстановлено: [^\n]*|^ *(\[r\]|-) [^\n]*", "", joined, flags=re.M)
    return re.sub(r"; ключ \w+\)", ")", joined)


def test_there_are_the_lessons() -> None:
    names = {p.stem for p in LESSONS}
    assert {"01_units_and_ratings", "02_movement", "05_reconnaissance", "06_tactical",
            "08_against_the_computer"} <= names  # fmt: skip


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.stem)
def test_a_lesson_is_kept_with_its_outputs_and_figures(path: Path) -> None:
    code = cells(path, "code")
    assert all(c["execution_count"] for c in code), "run it: make lessons-outputs"
    tagged = [c for c in code if "figure" in c["metadata"].get("tags", [])]
    assert tagged, "a lesson shows at least one figure"
    for c in tagged:
        assert any(k in FIGURES for out in c["outputs"] for k in out.get("data", {})), c["source"]
    assert sum(bool(c["outputs"]) for c in code) >= len(code) - 1  # all but the import


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.stem)
def test_code_is_out_of_the_way(path: Path) -> None:
    for c in cells(path, "code"):
        assert c["metadata"].get("jupyter", {}).get("source_hidden"), c["source"]
        assert len("".join(c["source"]).splitlines()) <= 10, c["source"]


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.stem)
def test_texts_are_in_russian_each_with_its_english_after_it(path: Path) -> None:
    """Each text is a cell in one language, tagged "ru" or "en" (a lesson's page shows the
    reader's: tools/jupyter/voila/templates/strategia), each Russian cell followed by its
    English; in each, no word of the other language (language_checks: code, commands and paths
    aside; the scenario's names and the tactical units' in English)."""
    from language_checks import cyrillic_words, latin_words

    texts = cells(path, "markdown")
    langs = [c["metadata"].get("tags", []) for c in texts]
    assert langs and all(t in (["ru"], ["en"]) for t in langs), langs
    assert langs == [["ru"], ["en"]] * (len(texts) // 2), langs
    names = {"Континентальная война", "Бродки", "1/Тульский", "Сумские гусары"}
    for c, (lang,) in zip(texts, langs, strict=True):
        text = re.sub(r"```.*?```", " ", "".join(c["source"]), flags=re.S)
        if lang == "ru":
            assert CYRILLIC.search(text), text[:80]
            found = set(latin_words(text)) - {"Dask", "xarray"}  # names, in Russian too
        else:
            assert LATIN_WORD.search(text), text[:80]
            found = set(cyrillic_words(text, names))
        assert not found, (lang, sorted(found), text[:80])
    if path.stem[0].isdigit():  # a numbered lesson: its rules first, and prompts to try
        first_ru, first_en = ("".join(c["source"]) for c in texts[:2])
        assert "**Правила:**" in first_ru and "**Rules:**" in first_en
        assert any("**Попробуйте:**" in "".join(c["source"]) for c in texts)
        assert any("**Try this:**" in "".join(c["source"]) for c in texts)


def identifiers() -> set[str]:
    """The code's names for the rules' terms: rule data keys and vocabulary keys with an '_'."""
    keys: set[str] = set()
    for rules in (load_ruleset(level=3), load_ruleset("tactical", level=3)):
        for e in rules.entries.values():
            keys |= {e.key, *e.columns, *e.rows}
    for kind in _kinds(Kind):
        keys |= {m.key for m in kind}  # type: ignore[attr-defined]
    return {k for k in keys if "_" in k}


def _kinds(cls: type) -> Iterator[type]:
    for sub in cls.__subclasses__():
        yield sub
        yield from _kinds(sub)


def test_outputs_use_the_rules_terms_not_the_codes() -> None:
    import strategia.tactical  # noqa: F401  (its vocabularies)

    names = identifiers()
    assert "flank90_front_line" in names
    for path in LESSONS:
        for c in cells(path, "code"):
            words = " ".join(text_of(out) for out in c["outputs"])
            found = sorted(n for n in names if re.search(rf"\b{re.escape(n)}\b", words))
            assert not found, f"{path.name}: {found}"
            assert not re.search(r"\b\w+_ratings\.\w+", words), path.name


def test_russian_outputs_say_units_yes_no_and_tables_in_russian() -> None:
    english = re.compile(r"\d (turns?|km|cells?|cm)\b|= (yes|no)\b|\[table \d")
    for path in LESSONS:
        for c in cells(path, "code"):
            for out in c["outputs"]:
                words = text_of(out)
                assert not english.search(words), f"{path.name}: {english.search(words)}"


# --- every control labelled -----------------------------------------------------------------------

VALUE_WIDGETS = (
    w.Dropdown, w.ToggleButtons, w.Text, w.Textarea, w.Checkbox, w.IntSlider, w.BoundedIntText,
)  # fmt: skip


def controls(widget: Any) -> Iterator[Any]:
    if isinstance(widget, VALUE_WIDGETS):
        yield widget
    for child in getattr(widget, "children", ()):
        yield from controls(child)


def labelled(c: Any) -> bool:
    """Has a label, and room for it: short, or a style that gives it what it needs."""
    width = str(c.style.description_width or "")
    room = width == "initial" or (
        width.endswith("px") and int(width[:-2]) >= 7 * len(c.description)
    )
    return bool(c.description.strip()) and (len(c.description) <= 10 or room)


def workbenches(lang: str) -> Iterator[tuple[str, Any]]:
    from strategia.tactical import EXAMPLES, TacticalGame
    from strategia.ui.builder.panel import BuilderPanel
    from strategia.ui.lessons import artillery as teaching_artillery
    from strategia.ui.lessons import battle as teaching_battle
    from strategia.ui.lessons import computer as teaching_computer
    from strategia.ui.lessons import movement as teaching_movement
    from strategia.ui.lessons import ratings as teaching_ratings
    from strategia.ui.lessons import recon as teaching_recon
    from strategia.ui.tactical.table import TacticalTable

    yield "ratings", teaching_ratings.ratings_workbench(lang).widget  # type: ignore[arg-type]
    yield "movement", teaching_movement.movement_workbench(lang).widget  # type: ignore[arg-type]
    yield "battle", teaching_battle.battle_workbench(lang).widget  # type: ignore[arg-type]
    yield "artillery", teaching_artillery.artillery_workbench(lang).widget  # type: ignore[arg-type]
    game = teaching_recon.new_game()
    yield "recon", teaching_recon.recon_workbench(game, lang).widget  # type: ignore[arg-type]
    match = teaching_computer.new_match()
    yield "computer", teaching_computer.workbench(match, lang).widget  # type: ignore[arg-type]
    yield "builder", BuilderPanel.blank(10, 6, lang).widget
    yield "tactical", TacticalTable(TacticalGame.new(EXAMPLES / "grove.toml"), lang).widget


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_every_control_is_labelled(lang: str) -> None:
    for name, widget in workbenches(lang):
        found = list(controls(widget))
        assert found, name
        bad = [(type(c).__name__, c.description) for c in found if not labelled(c)]
        assert not bad, f"{name}: {bad}"
        if lang == "en":
            assert not any(CYRILLIC.search(c.description) for c in found), name


def test_the_figure_hook_fails_a_figure_cell_that_shows_none() -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("root_conftest", ROOT / "conftest.py")
    assert spec is not None and spec.loader is not None
    conftest = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conftest)

    def drive(tags: list[str], outputs: list[dict[str, Any]]) -> None:
        item = SimpleNamespace(name="cell", cell={"metadata": {"tags": tags}}, test_outputs=outputs)
        hook = conftest.pytest_runtest_call(item)  # type: ignore[arg-type]
        next(hook)
        with pytest.raises(StopIteration):
            hook.send(None)

    drive(["figure"], [{"data": {"image/png": "...", "text/plain": "a chart"}}])
    drive([], [])
    with pytest.raises(AssertionError, match="showed no figure"):
        drive(["figure"], [{"data": {"text/plain": "<Figure size 600x350 with 1 Axes>"}}])


def test_lesson_3_shows_the_battle_report_not_the_tree() -> None:
    """Issue 24: lesson 3's battles are shown as the console's battle report (summary, the table
    per unit, the steps with their numbers), in the kept outputs and live; the explanation tree
    (a fold of some fifty steps, «0,969» and the loss rule's floor in each) is not."""
    from strategia.ui.lessons import battle as lesson

    nb = json.loads((ROOT / "notebooks" / "03_battle_workbench.ipynb").read_text("utf-8"))
    shown = [
        "".join(o["data"]["text/html"])
        for c in nb["cells"]
        for o in c.get("outputs", [])
        if "text/html" in o.get("data", {}) and "sr-battle" in "".join(o["data"]["text/html"])
    ]
    assert len(shown) >= 4
    for page in shown:
        assert "Как это посчитано:" in page and "<th>соединение</th>" in page
        assert "st-step" not in page and "0,969" not in page  # no explanation tree
    live = lesson.regular_battle("en").html
    assert "Battle for 9,5." in live and "How it was reckoned:" in live and "st-step" not in live
