"""Foundations every layer uses: errors, bilingual text, vocabularies, cells and directions.

Nothing here knows a rule of the game.
"""

from strategia.core.errors import Problem, StrategiaError, UnknownNameError
from strategia.core.geometry import Cell, Direction
from strategia.core.i18n import LANGS, Lang, Text, check_lang
from strategia.core.vocab import Kind

__all__ = [
    "LANGS",
    "Cell",
    "Direction",
    "Kind",
    "Lang",
    "Problem",
    "StrategiaError",
    "Text",
    "UnknownNameError",
    "check_lang",
]
