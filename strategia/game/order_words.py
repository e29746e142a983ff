"""An order as the reader's language writes it: the journal keeps every order in the seeds'
Russian notation (`17 с.д. на 45,25`); an English reader sees it in the English notation
(`17 RD to 45,25`), and a line the engine writes for what goes on by itself (`4 с.д.
(переправа)`) in words of the reader's language."""

from __future__ import annotations

import re
from functools import lru_cache

from strategia.core.errors import StrategiaError
from strategia.core.i18n import Lang
from strategia.engine.state import BUSY
from strategia.game.questions import parse_question
from strategia.notation.orders import parse_order
from strategia.notation.refs import UnitRef

# The engine's own lines that are no order: (Russian, English).
NOTES = {"карточки корпусов, 4.9": "corps cards, 4.9"}
_LABELS = {t.ru: t.en for t in BUSY.values()}
_GOES_ON = re.compile(r"^(?P<unit>.+?) \((?P<what>[^()]+)\)$")


@lru_cache(maxsize=4096)
def order_in(text: str, lang: Lang) -> str:
    """`text`, an order (or a line of the engine's) as the journal keeps it, in `lang`'s
    notation; as kept where it cannot be read."""
    if lang == "ru" or not text:
        return text
    try:
        return parse_order(text).format(lang)
    except StrategiaError:
        pass
    inner = text.strip("()")
    if text.startswith("(") and inner in NOTES:
        return f"({NOTES[inner]})"
    m = _GOES_ON.match(text)
    if m and m["what"] in _LABELS:
        try:
            unit = UnitRef.parse(m["unit"]).format(lang)
        except StrategiaError:
            unit = m["unit"]
        return f"{unit} ({_LABELS[m['what']]})"
    return text


@lru_cache(maxsize=4096)
def question_in(text: str, lang: Lang) -> str:
    """A reconnaissance question as the journal keeps it, in `lang`'s words (as kept where it
    cannot be read without the map)."""
    if lang == "ru":
        return text
    try:
        return parse_question(text).format(lang)
    except StrategiaError:
        return text
