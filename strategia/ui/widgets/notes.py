"""Short notes the screens share, as plain functions of what they show: the start of the war
(9.1) as a banner, the reconnaissance questions a side may ask (8.3), as examples, the journal
as a block of text, and the box a battle's report is shown in."""

from __future__ import annotations

import base64
import html

import ipywidgets as w

from strategia.core.i18n import Lang, Text
from strategia.game.questions import EXAMPLES, FEATURES

ASK_HEAD = Text("Questions (8.3), for example", "Вопросы (8.3), например")
PLACES = Text("troops", "есть ли войска")
# a journal's lines wrap at the box's edge between words, never inside one (the notebook's own
# style for <pre> breaks anywhere: "break-all")
JOURNAL_STYLE = "white-space:pre-wrap;word-break:normal;overflow-wrap:normal;margin:0"
# a report in its box (`report_box`): its sentences wrap at the panel's edge, a table wider than
# the panel scrolls in it (never the page)
REPORT_CSS = (
    "<style>.sg-report-box>.widget-html-content{min-width:0}"
    ".sg-report-box table{display:block;overflow-x:auto;max-width:100%}</style>"
)


def report_box() -> w.HTML:
    """The box a battle's report is shown in, in a panel (the screen shows `REPORT_CSS`)."""
    box = w.HTML(layout=w.Layout(min_width="0", max_width="100%"))
    box.add_class("sg-report-box")
    return box


def journal_html(text: str, font_size: str = "12px") -> str:
    """A journal's text as the paper one reads, its long lines wrapped between words."""
    style = f"{JOURNAL_STYLE};font-size:{font_size}"
    return f"<pre class='sg-journal' style='{style}'>{html.escape(text)}</pre>"


def war_banner_html(told: Text | None, lang: Lang) -> str:
    """The start of the war as the viewer was told it, as a banner on one line above the map
    (cut with an ellipsis where the line is short, whole in its tooltip; empty before the war)."""
    if told is None:
        return ""
    style = (
        "background:#fbe9e7;border-left:4px solid #b71c1c;padding:2px 8px;margin:0;"
        "font:12px/16px sans-serif;white-space:nowrap;overflow:hidden;text-overflow:ellipsis"
    )
    said = html.escape(told(lang))
    return f"<div class='sg-war' style='{style}' title='{said}'>⚔ {said}</div>"


def question_examples(lang: Lang) -> list[str]:
    """The forms a question may take (`strategia.game.questions`), one example of each."""
    return [ru if lang == "ru" else en for ru, en in EXAMPLES]


def question_examples_html(lang: Lang) -> str:
    """The accepted question forms, shown beside the question's input before any error."""
    items = " · ".join(f"<code>{html.escape(q)}</code>" for q in question_examples(lang))
    first, *rest = (ru if lang == "ru" else en for ru, en in FEATURES.values())
    place = html.escape(f"{PLACES(lang)} {first} ({', '.join(rest)}) 30,27?")
    return (
        f"<div class='sg-ask-forms' style='font-size:11px;color:#555'>{ASK_HEAD(lang)}: {items}"
        f" · <code>{place}</code></div>"
    )


def download_link(name: str, data: str, label: str, mime: str = "text/html") -> str:
    """A link that saves `data` as the file `name` (no server needed)."""
    b64 = base64.b64encode(data.encode("utf-8")).decode("ascii")
    return (
        f"<a download='{html.escape(name)}' href='data:{mime};charset=utf-8;base64,{b64}' "
        f"style='margin-right:12px'>{html.escape(label)}</a>"
    )


__all__ = [
    "REPORT_CSS",
    "download_link",
    "journal_html",
    "question_examples",
    "question_examples_html",
    "report_box",
    "war_banner_html",
]
