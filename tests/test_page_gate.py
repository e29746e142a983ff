"""A page's content in a kernel Voilà keeps ready (`strategia.ui.widgets.gate`): built only when
a page draws the placeholder, once; at once anywhere else; a failure said on the page in its
language."""

from __future__ import annotations

import ipywidgets as w
import pytest

from strategia.core.errors import StrategiaError
from strategia.ui.widgets.gate import Deferred, on_page


def test_built_at_once_outside_a_preheated_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("VOILA_PREHEAT", raising=False)
    made = w.Label("console")
    assert on_page(lambda: made) is made


def test_built_when_a_page_draws_it_and_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VOILA_PREHEAT", "True")
    calls: list[int] = []

    def build() -> w.Widget:
        calls.append(1)
        return w.Label("console")

    box = on_page(build, "en")
    assert calls == [] and isinstance(box, w.VBox)  # nothing opened before a page asks
    gate = box.children[0]
    assert gate.label == "Opening the game…"
    gate._handle_custom_msg({"attached": True}, [])
    gate._handle_custom_msg({"attached": True}, [])  # the page reloaded: the same console
    assert calls == [1]
    assert box.children[0].value == "console"


def test_a_failure_is_said_in_the_pages_language() -> None:
    def build() -> w.Widget:
        raise StrategiaError("no such game", ru="нет такой игры")

    d = Deferred(build, "ru")
    d.attach()
    text = d.box.children[0].value
    assert "Игру не удалось открыть" in text and "нет такой игры" in text
