"""The theatre check's problems in English and Russian: each by its key, with the layer as a
Russian sentence names it (the data name is the key in the file)."""

from __future__ import annotations

from collections.abc import Sequence

from strategia.core.errors import Problem
from strategia.core.numbers import cells_list

LAYER_RU = {
    "relief": "рельеф",
    "state": "государства",
    "settlement": "города",
    "fortress": "крепости",
    "road": "дороги",
    "rail": "железные дороги",
    "trail": "тропы",
    "river_e": "реки (восточные стороны клеток)",
    "river_n": "реки (северные стороны клеток)",
}
# What is wrong, by key: (English, Russian), `{cells}` written as a list in each language.
MESSAGES = {
    "format": ("expected {want!r}, got {got!r}", "нужен формат {want!r}, а дан {got!r}"),
    "no_coordinate": ("missing coordinate", "нет координаты"),
    "gaps": (
        "must number the cells 1, 2, 3, ... without gaps",
        "клетки нумеруются 1, 2, 3, ... без пропусков",
    ),
    "no_layer": ("missing layer", "нет слоя"),
    "dims": ("dims {dims}, expected ('lon', 'lat')", "измерения {dims}, а нужны ('lon', 'lat')"),
    "dtype": ("dtype {dtype}, expected {want}", "тип {dtype}, а нужен {want}"),
    "no_level": ("no 'level' attribute", "нет атрибута «level»"),
    "relief_codes": ("unknown codes {codes} at {cells}", "неизвестные коды {codes} в {cells}"),
    "states": ("not a list of states: {error}", "это не список государств"),
    "state_index": (
        "indices beyond the {n} states at {cells}",
        "номера сверх числа государств ({n}) в {cells}",
    ),
    "settlement": ("codes other than 0, 1, 2 at {cells}", "коды, кроме 0, 1, 2, в {cells}"),
    "one_way": (
        "leaves toward {d} with no way back (or off the map) at {cells}",
        "уходит на {d_ru} без обратного пути (или за карту) в {cells}",
    ),
    "on_water": ("on water at {cells}", "по воде в {cells}"),
    "trail_ends": (
        "ends at {cells} inside swamp or mountains: troops that go there only along trails "
        "(т.д., м.д., сау.д., table 4) cannot enter it from outside",
        "концы в {cells} внутри болота или гор: войска, которые ходят там только по тропам "
        "(т.д., м.д., сау.д., табл. 4), не войдут на нее снаружи",
    ),
}


def problem(
    key: str, where: str, cells: Sequence[str] = (), more: int = 0, **values: object
) -> Problem:
    """The problem `key` at `where` in both languages; `cells` the first cells it names and
    `more` how many besides."""
    en, ru = MESSAGES[key]
    tail_en = f" and {more} more" if more else ""
    tail_ru = f" и еще {more}" if more else ""
    listed_en = "; ".join(cells) + tail_en if more else cells_list(cells)
    listed_ru = "; ".join(cells) + tail_ru if more else cells_list(cells, "ru")
    return Problem(
        where,
        en.format(cells=listed_en, **values),
        ru=ru.format(cells=listed_ru, **values),
        where_ru=LAYER_RU.get(where, ""),
    )
