"""The game's vocabularies: sides, terrain, formations, the sides of a division a blow lands on,
and the types of regiments, divisions and corps (table 1), each with its Russian and English names.

Unit abbreviations stay Russian in both languages, as the seeds write them (`с.д.`, `т.д.`).
"""

from __future__ import annotations

from strategia.core.i18n import Lang, Text
from strategia.core.vocab import Kind


class Side(Kind):
    """The teams' colours (rule 1.2), in their preferred order."""

    RED = ("red", "красные", "Red", "к", "r")
    BLUE = ("blue", "синие", "Blue", "с", "b")
    GREEN = ("green", "зеленые", "Green", "з", "g")
    BLACK = ("black", "черные", "Black", "ч", "k")


# A side's name in the cases a sentence needs: (nominative, genitive, dative), and in English.
_SIDE_FORMS = {
    "red": (("красные", "красных", "красным"), "Red"),
    "blue": (("синие", "синих", "синим"), "Blue"),
    "green": (("зеленые", "зеленых", "зеленым"), "Green"),
    "black": (("черные", "черных", "черным"), "Black"),
}
_CASES = {"nom": 0, "gen": 1, "dat": 2}


def side_name(side: str, lang: Lang = "ru", case: str = "nom", capital: bool = False) -> str:
    """A side as a sentence names it: «ходят красные», «очки синих», «Red»; the mediator too.
    An unknown side is written as given."""
    if side == "mediator":
        ru = ("посредник", "посредника", "посреднику")[_CASES[case]]
        return (ru.capitalize() if capital else ru) if lang == "ru" else "the mediator"
    if side not in _SIDE_FORMS:
        return side
    forms, en = _SIDE_FORMS[side]
    if lang != "ru":
        return en
    word = forms[_CASES[case]]
    return word.capitalize() if capital else word


def side_text(side: str, case: str = "nom", capital: bool = False) -> Text:
    """`side_name` in both languages."""
    return Text(side_name(side, "en", case, capital), side_name(side, "ru", case, capital))


class Terrain(Kind):
    """The relief and route kinds the movement and combat tables are indexed by (2.x, table 4)."""

    PLAIN = ("plain", "равнина", "plain", "open", "открытая местность")
    FOREST = ("forest", "лес", "forest")
    MOUNTAINS = ("mountains", "горы", "mountains")
    SWAMP = ("swamp", "болота", "swamp", "болото")
    HILLS = ("hills", "холмы", "hills", "холмистая местность")
    RIVER = ("river", "реки", "river", "река")
    ROAD = ("road", "дороги", "road", "дорога")
    TRAIL_MOUNTAINS = ("trail_mountains", "тропы в горах", "mountain trail")
    TRAIL_SWAMP = ("trail_swamp", "тропы в болотах", "swamp trail")
    TRAIL_FOREST = ("trail_forest", "тропы в лесу", "forest trail")
    TOWN = ("town", "город", "town", "населенный пункт")
    FORTRESS = ("fortress", "крепость", "fortress")


class Formation(Kind):
    """A division's formation (9.6): linear (abreast) or supporting (two ahead, one behind)."""

    LINEAR = ("linear", "линейное", "linear", "line", "линейное (атакующее)", "атакующее")
    SUPPORTING = ("supporting", "опорное", "supporting", "support", "опорное (оборонительное)")


class Facing(Kind):
    """The side of a division a blow lands on (tables 9-1, 9-2, 10)."""

    FRONT = ("front", "фронт", "front")
    FLANK45 = ("flank45", "фланг 45°", "flank 45°", "фланг 45", "flank 45", "f45")
    FLANK90 = ("flank90", "фланг 90°", "flank 90°", "фланг 90", "flank 90", "f90")
    FLANK135 = ("flank135", "фланг 135°", "flank 135°", "фланг 135", "flank 135", "f135")
    REAR = ("rear", "тыл", "rear")


_BLOW_ON = {
    "front": ("in the front", "во фронт"),
    "flank45": ("in the flank at 45°", "во фланг под 45°"),
    "flank90": ("in the flank at 90°", "во фланг под 90°"),
    "flank135": ("in the flank at 135°", "во фланг под 135°"),
    "rear": ("in the rear", "в тыл"),
}


def blow_on(facing: str, lang: Lang = "ru") -> str:
    """Where a blow lands, as a sentence says it: «во фронт», «во фланг под 90°», «в тыл»."""
    en, ru = _BLOW_ON.get(facing, (facing, facing))
    return ru if lang == "ru" else en


class RegimentsFacing(Kind):
    """Whether the defending regiments have turned to meet the blow (tables 9-1 / 9-2, 10*)."""

    ENEMY = ("enemy", "к противнику", "towards the enemy", "turned")
    FRONT_LINE = ("front_line", "к линии фронта", "towards the front line", "not-turned")


class Role(Kind):
    """How a regiment takes part in a fight (9.6): with its direct or its support rating."""

    DIRECT = ("D", "непосредственно", "direct")
    SUPPORT = ("S", "поддержкой", "support")
    NONE = ("-", "не участвует", "takes no part")


class UnitKind(Kind):
    """A unit vocabulary: the seeds' abbreviations in Russian (с.д., т.п.), the notation's in
    English (RD, TR), as a unit is written in each (17 с.д. / 17 RD)."""


class RegimentKind(UnitKind):
    """Regiment-sized components (tables 1 and 7)."""

    RIFLE = ("rifle", "с.п.", "RR", "сп", "стрелковый полк", "rifle regiment")
    TANK = ("tank", "т.п.", "TR", "тп", "танковый полк", "tank regiment")
    MOTORISED = ("motorised", "мот.п.", "MR", "мп", "мсп", "мотострелковый полк", "motorized")
    SP_GUN = ("sp_gun", "сау.п.", "SPR", "полк сау", "полк самоходных орудий")
    SAPPER = ("sapper", "сап.п.", "SR", "саперный полк", "sapper regiment")
    ARTILLERY = ("artillery", "ап", "AR", "а.п.", "артиллерийский полк")
    ARTILLERY_MOT = ("artillery_mot", "ап(мот.)", "AR(mot)", "ап мот", "моторизованный арт. полк")
    HEAVY_ARTILLERY = ("heavy_artillery", "адн к.к.", "HAB", "адн", "адн крупного калибра")
    ANTI_TANK = ("anti_tank", "прт.п.", "ATR", "прт", "противотанковый полк")
    CAVALRY = ("cavalry", "к.п.", "CR", "кп", "кавалерийский полк")
    HORSE_GUNS = ("horse_guns", "конн.батарея", "HG", "конная артиллерия", "horse artillery")

    @classmethod
    def what(cls) -> str:
        return "regiment type"


class DivisionKind(UnitKind):
    """Division types (table 1, 9.6) and the fortress garrison, which fights as one (3.6)."""

    RIFLE = ("rifle", "с.д.", "RD", "сд", "ст.д.", "стрелковая дивизия", "rifle division")
    CAVALRY = ("cavalry", "кав.д.", "CD", "кд", "кавд", "кавалерийская дивизия")
    TANK = ("tank", "т.д.", "TD", "тд", "танковая дивизия", "tank division")
    MOTORISED = ("motorised", "м.д.", "MD", "мд", "моторизованная дивизия", "motorized")
    SP_GUN = ("sp_gun", "сау.д.", "SPD", "сауд", "дивизия сау", "sp division")
    ANTI_TANK = ("anti_tank", "пт.д.", "ATD", "птд", "противотанковая дивизия")
    ARTILLERY = ("artillery", "а.д.", "AD", "ад", "артиллерийская дивизия")
    FORTRESS = ("fortress", "крепость", "fortress", "кр.", "гарнизон крепости", "FG")

    @classmethod
    def what(cls) -> str:
        return "unit type"


class CorpsKind(UnitKind):
    """Corps by the kind of their divisions (`2 т.к.`, 6.3)."""

    RIFLE = ("rifle", "с.к.", "RC", "ск", "стрелковый корпус")
    TANK = ("tank", "т.к.", "TC", "тк", "танковый корпус")
    MOTORISED = ("motorised", "м.к.", "MC", "мк", "моторизованный корпус")
    CAVALRY = ("cavalry", "кав.к.", "CC", "кк", "кавалерийский корпус")

    @classmethod
    def what(cls) -> str:
        return "corps type"


class CommandKind(UnitKind):
    """Commands above the corps: the front, a group of armies (5.7). An army is written `1 А`."""

    FRONT = ("front", "Ф", "Front", "фронт", "ф.", "группа армий", "army group", "F")

    @classmethod
    def what(cls) -> str:
        return "command type"
