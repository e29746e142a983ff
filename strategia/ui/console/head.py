"""The console's head: one line at any window from 1280 px wide, whatever it holds.

The game's status takes the room the others leave, cut with an ellipsis where the line is full
(never wrapped to a second line); the clock and the progress mark keep their width; the legend
(«Условные знаки») opens over the page below its line, never widening or deepening the line; the
language switch keeps its two buttons side by side. `tests/test_layout_browser.py` measures it.
"""

from __future__ import annotations

import ipywidgets as w

from strategia.core.i18n import Lang
from strategia.ui.console.status import T
from strategia.ui.widgets import layers, marks

HEAD_CSS = (
    "<style>"
    ".sg-head{overflow:visible!important}"
    ".sg-status{min-width:0}"
    ".sg-status .widget-html-content{white-space:nowrap;overflow:hidden;text-overflow:ellipsis}"
    ".sg-legend,.sg-legend .widget-html-content{overflow:visible!important}"
    ".sg-legend{flex:0 0 auto!important}"
    ".sg-legend details{position:relative}"
    ".sg-legend summary{font-size:12px;cursor:pointer;white-space:nowrap}"
    ".sg-legend .sg-legend-body{position:absolute;right:0;top:100%;z-index:2000;"
    "width:min(720px,80vw);background:#fff;border:1px solid #bbb;border-radius:3px;"
    "box-shadow:0 2px 8px #0003;padding:6px 8px;white-space:normal}"
    ".sg-lang{flex:0 0 auto!important;width:auto!important}"
    ".sg-lang .widget-toggle-buttons,.sg-lang .btn-group{flex-wrap:nowrap!important}"
    "</style>"
)


def legend(lang: Lang) -> w.HTML:
    """The map's legend, folded to its title; opened, it lies over the page under the head."""
    body = f"{layers.legend_html(lang)}<div style='font-size:11px'>{marks.legend_marks(lang)}</div>"
    box = w.HTML(
        f"{HEAD_CSS}<details><summary>{T['legend'](lang)}</summary>"
        f"<div class='sg-legend-body'>{body}</div></details>"
    )
    box.add_class("sg-legend")
    return box


def head_row(status: w.HTML, *others: w.Widget) -> w.HBox:
    """The head's line: `status` first, taking the room `others` (each at its own width) leave."""
    status.layout = w.Layout(flex="1 1 auto", min_width="0")
    status.add_class("sg-status")
    row = w.HBox(
        [status, *others],
        layout=w.Layout(flex_flow="row nowrap", align_items="center", width="100%"),
    )
    row.add_class("sg-head")
    return row


__all__ = ["HEAD_CSS", "head_row", "legend"]
