"""A page's content built when a page opens it, not before.

Voilà keeps a kernel ready (pre-heated) by running its notebook before any page asks for it. A
console or team screen built there would hold the game with no one looking: its watch would play
the computer's moves and catch up beside the console that is really in use. In such a kernel
(Voilà sets VOILA_PREHEAT=True in its environment) `on_page` shows a small placeholder instead,
whose browser half tells the kernel when a page draws it; the content is built then, once.
Anywhere else (JupyterLab, Voilà without pre-heating, tests) the content is built at once.
"""

from __future__ import annotations

import html
import os
import traceback
from collections.abc import Callable
from typing import Any

import anywidget
import ipywidgets as w
import traitlets

from strategia.core.errors import say
from strategia.core.i18n import Lang, Text
from strategia.ui.widgets import page_words

OPENING = Text("Opening the game…", "Открываю игру…")
FAILED = Text("The game could not be opened: ", "Игру не удалось открыть: ")

_ESM = """
export default {
  render({ model, el }) {
    el.textContent = model.get("label");
    el.style.padding = "1em";
    model.send({ attached: true });
  },
};
"""


class PageGate(anywidget.AnyWidget):
    """The placeholder: it shows `label` and, each time a page draws it, sends `attached`."""

    _esm = _ESM
    label = traitlets.Unicode("").tag(sync=True)


def preheated() -> bool:
    """Whether this kernel is one Voilà keeps ready for a page not yet asked for."""
    return os.environ.get("VOILA_PREHEAT", "False") == "True"


class Deferred:
    """The box a page shows: `gate` until a page draws it, then what `build` made (`built`)."""

    def __init__(self, build: Callable[[], w.Widget], lang: Lang = "ru") -> None:
        self._build = build
        self.lang = lang
        self.gate = PageGate(label=OPENING(lang))
        self.gate.on_msg(self._message)
        self.box = w.VBox([self.gate])
        self.built: w.Widget | None = None

    def _message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if isinstance(content, dict) and content.get("attached"):
            self.attach()

    def attach(self) -> None:
        """Build the content, once; a failure is shown on the page in its language."""
        if self.built is not None:
            return
        try:
            self.built = self._build()
        except Exception as e:  # the page must say why, not stay on "opening"
            traceback.print_exc()
            why = html.escape(say(e, self.lang))
            self.built = w.HTML(f"<b>{FAILED(self.lang)}</b>{why}")
        self.box.children = (self.built,)


def on_page(build: Callable[[], w.Widget], lang: Lang = "ru") -> w.Widget:
    """What `build` makes: at once, or in a pre-heated kernel once a page opens it. The page's
    own words while it opens are said in `lang` (`page_words`)."""
    page_words.show(lang)
    if not preheated():
        return build()
    return Deferred(build, lang).box
