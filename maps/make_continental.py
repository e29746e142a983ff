"""Build the default scenario «Континентальная война» with the builder API and write it.

    .venv/bin/python maps/make_continental.py      # writes maps/continental.toml

The text file is the scenario (edit it by hand freely); this script is how it was first drawn,
and an example of the builder API. The forces follow 002's table 2 (peacetime) and 000's
table 5 (mobilisation): Red 15 с.д., 8 т.д., 4 м.д., 2 сау.д., 1 пт.д., 2 а.д.; Blue 12, 7, 4,
2, 3, 2; each Green state 4 с.д., 1 м.д., 1 пт.д. (6 с.д. after mobilisation, 3.6).
"""

from __future__ import annotations

from pathlib import Path

from strategia.theatre.builder import ScenarioBuilder
from strategia.theatre.scenario_io import save_scenario

W, H = 64, 44


def theatre(b: ScenarioBuilder) -> ScenarioBuilder:
    # States: Blue in the west, Red in the east, Green «Южная» in the south, Green «Северная»
    # in the north between them.
    b = b.state("B", "Синяя Конфедерация", "blue", lon=(1, 30), lat=(7, 44))
    b = b.state("R", "Красная Федерация", "red", lon=(31, 64), lat=(16, 44))
    b = b.state("G", "Южная республика", "green", lon=(23, 64), lat=(1, 15))
    b = b.state("H", "Северное княжество", "green", lon=(21, 40), lat=(40, 44))
    b = b.state("B", "Синяя Конфедерация", "blue", lon=(23, 30), lat=(7, 15))
    # Sea in the south-west, a bay, a lake.
    b = b.paint("water", lon=(1, 22), lat=(1, 5)).paint("water", lon=(1, 9), lat=(6, 8))
    b = b.paint("water", lon=(14, 18), lat=(6, 6)).paint("water", lon=(57, 60), lat=(40, 42))
    # Mountains: the southern range between Red and the Southern republic, a western massif.
    b = b.paint("mountains", lon=(33, 62), lat=(12, 15)).paint(
        "mountains", lon=(24, 29), lat=(9, 11)
    )
    b = b.paint("mountains", lon=(2, 6), lat=(36, 41))
    # Hills along the Red side of the border, forests on both sides, the central swamps.
    b = b.paint("hills", lon=(33, 41), lat=(22, 29)).paint("hills", lon=(10, 16), lat=(9, 13))
    b = b.paint("forest", lon=(11, 19), lat=(20, 29)).paint("forest", lon=(50, 58), lat=(29, 37))
    b = b.paint("forest", lon=(22, 27), lat=(36, 43)).paint("forest", lon=(44, 49), lat=(17, 20))
    b = b.paint("swamp", lon=(26, 34), lat=(31, 35)).paint("swamp", lon=(3, 7), lat=(15, 19))
    b = b.paint("hills", lon=(42, 48), lat=(36, 40))
    # Rivers along grid lines: the border river, a western river, an eastern one.
    b = b.river("30.5,44.5 30.5,37.5 28.5,37.5 28.5,29.5 30.5,29.5 30.5,15.5")
    b = b.river("0.5,25.5 9.5,25.5 9.5,21.5 20.5,21.5 20.5,15.5")
    b = b.river("44.5,44.5 44.5,33.5 48.5,33.5 48.5,23.5 52.5,23.5 52.5,15.5")
    b = b.river("41.5,11.5 41.5,7.5 30.5,7.5 30.5,0.5")
    return b


def infrastructure(b: ScenarioBuilder) -> ScenarioBuilder:
    # Capitals, cities and fortresses (Red's southern fortress at 45,22, rule 2.1's example).
    b = b.city("Краснодол", "57,28", capital=True).city("Синевск", "8,31", capital=True)
    b = b.city("Зеленоград", "47,6", capital=True).city("Северск", "31,42", capital=True)
    for name, cell in [
        ("Заречье", "46,38"), ("Ставок", "40,19"), ("Верхний Брод", "36,33"), ("Угорье", "60,18"),
        ("Восточный", "62,36"), ("Лесной", "15,17"), ("Приморск", "12,9"), ("Озерск", "20,38"),
        ("Бродки", "24,24"), ("Западный", "3,29"), ("Горный", "34,6"), ("Долина", "58,8"),
    ]:  # fmt: skip
        b = b.city(name, cell)
    b = b.fortress("45,22", "Южная крепость").fortress("35,30", "Пограничная крепость")
    b = b.fortress("25,28", "Бродская крепость").fortress("50,11", "Перевальная крепость")
    b = b.fortress("33,40", "Северная крепость")
    # Roads: cities joined; they cross rivers on bridges and the range by passes.
    for road in [
        "8,31 14,31 20,30 24,24 29,24 33,24 40,24 48,26 57,28",  # the east-west highway
        "8,31 5,29 3,29", "8,31 13,35 20,38 26,41 31,42",  # west and north of Синевск
        "8,31 10,22 15,17 12,9",  # Синевск to the coast
        "15,17 20,16 24,19 24,24", "24,24 25,28 27,31 36,33",  # Бродки and the fortress
        "31,42 36,40 46,38 52,34 57,28",  # north road to Краснодол
        "57,28 62,33 62,36", "57,28 60,18", "46,38 44,33 36,33",  # around Краснодол
        "57,28 52,22 45,22 40,19", "45,22 44,17 47,12 47,6",  # south over the pass
        "40,19 36,17 34,13 34,6", "47,6 58,8", "34,6 47,6",  # the Southern republic
        "36,33 35,30 33,24", "60,18 58,12 58,8",
    ]:  # fmt: skip
        b = b.road(road)
    for railway in [
        "8,31 16,30 24,24 33,24 44,25 57,28",  # trunk line
        "8,31 15,17 12,9", "57,28 46,38 36,40 31,42", "57,28 62,36",
        "57,28 52,22 45,22 40,19", "24,24 20,38", "45,22 47,6",
        "8,31 20,38", "57,28 60,18",
    ]:  # fmt: skip
        b = b.railway(railway)
    for trail in [
        "13,22 17,27", "52,30 56,36", "27,32 33,34", "4,16 6,19", "23,37 26,42",
        "38,15 38,12", "55,15 55,12", "3,37 5,40",
    ]:  # fmt: skip
        b = b.trail(trail)
    return b


def red(b: ScenarioBuilder) -> ScenarioBuilder:
    s = "R"
    b = b.corps(s, "1 с.к.", "1 с.д.", "2 с.д.", "3 с.д.").corps(
        s, "2 с.к.", "4 с.д.", "5 с.д.", "6 с.д."
    )
    b = b.corps(s, "3 с.к.", "7 с.д.", "8 с.д.", "9 с.д.").corps(
        s, "4 с.к.", "10 с.д.", "11 с.д.", "12 с.д."
    )
    b = b.corps(s, "5 т.к.", "21 т.д.", "22 т.д.").corps(s, "6 т.к.", "23 т.д.", "24 т.д.")
    b = b.corps(s, "7 т.к.", "25 т.д.", "26 т.д.").corps(s, "8 т.к.", "27 т.д.", "28 т.д.")
    b = b.corps(s, "9 м.к.", "31 м.д.", "32 м.д.")
    b = b.army(s, "1 А", "1 с.к.", "5 т.к.", "13 с.д.", "41 сау.д.")
    b = b.army(s, "2 А", "2 с.к.", "6 т.к.", "14 с.д.", "51 а.д.")
    b = b.army(s, "3 А", "3 с.к.", "7 т.к.", "15 с.д.", "61 пт.д.")
    b = b.army(s, "4 А", "4 с.к.", "8 т.к.", "9 м.к.")  # 5.6: 4 to 10 divisions an army
    b = b.army(s, "5 А", "33 м.д.", "34 м.д.", "42 сау.д.", "52 а.д.")
    b = b.front(s, "1 Ф", "1 А", "2 А", "3 А")  # 5.7: the first-echelon armies in one front
    b = b.place(
        s,
        # covering forces on the border river and first echelons within 60 km (6.2)
        "13 с.д. - 31,38 фронтом на запад", "14 с.д. - 31,27 фронтом на запад", "15 с.д. - 32,18 фронтом на запад",
        "1 с.к. расположен между 33-34 и 33-36 фронтом на запад",
        "2 с.к. расположен между 33-25 и 33-27 фронтом на запад",
        "3 с.к. расположен между 33-19 и 33-21 фронтом на запад",
        "5 т.к. расположен между 37-35 и 37-36", "6 т.к. расположен между 38-25 и 38-26",
        "7 т.к. расположен между 37-20 и 37-21", "41 сау.д. - 36,37", "51 а.д. - 35,26",
        "61 пт.д. - 35,20", "91 крепость - 45,22", "92 крепость - 35,30",
        # second echelon and reserve
        "4 с.к. расположен между 46-26 и 46-28", "8 т.к. расположен между 50-25 и 50-26",
        "9 м.к. расположен между 53-27 и 53-28", "33 м.д. - 54,31", "34 м.д. - 55,24",
        "42 сау.д. - 51,29", "52 а.д. - 49,28",
    )  # fmt: skip
    for day, city, divisions in [
        ("M", "57,28", ["71 с.д.", "72 с.д."]), ("M", "46,38", ["73 с.д.", "74 с.д."]),
        ("M", "60,18", ["75 с.д.", "29 т.д."]), ("M", "62,36", ["30 т.д.", "35 м.д."]),
        ("M+5", "57,28", ["76 с.д.", "77 с.д."]), ("M+5", "40,19", ["36 м.д."]),
        ("M+10", "57,28", ["78 с.д.", "79 с.д."]), ("M+10", "46,38", ["80 с.д.", "81 с.д."]),
        ("M+10", "36,33", ["82 с.д.", "83 с.д."]), ("M+10", "62,36", ["37 м.д.", "62 пт.д."]),
        ("M+15", "57,28", ["84 с.д.", "85 с.д."]), ("M+15", "60,18", ["38 м.д."]),
    ]:  # fmt: skip
        b = b.reserves(s, day, city, *divisions)
    return b


def blue(b: ScenarioBuilder) -> ScenarioBuilder:
    s = "B"
    b = b.corps(s, "11 с.к.", "101 с.д.", "102 с.д.", "103 с.д.").corps(
        s, "12 с.к.", "104 с.д.", "105 с.д.", "106 с.д."
    )
    b = b.corps(s, "13 с.к.", "107 с.д.", "108 с.д.", "109 с.д.")
    b = b.corps(s, "14 т.к.", "121 т.д.", "122 т.д.").corps(s, "15 т.к.", "123 т.д.", "124 т.д.")
    b = b.corps(s, "16 т.к.", "125 т.д.", "126 т.д.").corps(s, "17 м.к.", "131 м.д.", "132 м.д.")
    b = b.army(s, "11 А", "11 с.к.", "14 т.к.", "110 с.д.", "161 пт.д.")
    b = b.army(s, "12 А", "12 с.к.", "15 т.к.", "111 с.д.", "162 пт.д.", "151 а.д.")
    b = b.army(s, "13 А", "13 с.к.", "16 т.к.", "17 м.к.", "112 с.д.")  # 5.6: 4 to 10 divisions
    b = b.army(
        s,
        "14 А",
        "127 т.д.",
        "133 м.д.",
        "134 м.д.",
        "141 сау.д.",
        "142 сау.д.",
        "163 пт.д.",
        "152 а.д.",
    )
    b = b.front(s, "11 Ф", "11 А", "12 А")  # 5.7
    b = b.place(
        s,
        "110 с.д. - 29,39 фронтом на восток", "111 с.д. - 27,29 фронтом на восток", "112 с.д. - 29,19 фронтом на восток",
        "11 с.к. расположен между 26-33 и 26-35 фронтом на восток",
        "12 с.к. расположен между 26-23 и 26-25 фронтом на восток",
        "13 с.к. расположен между 27-16 и 27-18 фронтом на восток",
        "14 т.к. расположен между 22-33 и 22-34", "15 т.к. расположен между 22-25 и 22-26",
        "161 пт.д. - 25,36", "162 пт.д. - 24,26", "151 а.д. - 23,28", "191 крепость - 25,28",
        "16 т.к. расположен между 16-29 и 16-30", "17 м.к. расположен между 12-32 и 12-33",
        "127 т.д. - 18,24", "133 м.д. - 14,24", "134 м.д. - 10,28", "141 сау.д. - 19,33",
        "142 сау.д. - 13,27", "163 пт.д. - 22,18", "152 а.д. - 20,31",
    )  # fmt: skip
    for day, city, divisions in [
        ("M", "8,31", ["171 с.д.", "172 с.д."]), ("M", "15,17", ["173 с.д.", "174 с.д."]),
        ("M", "20,38", ["175 с.д.", "176 с.д."]), ("M", "24,24", ["128 т.д.", "135 м.д."]),
        ("M", "12,9", ["136 м.д."]), ("M+5", "8,31", ["177 с.д.", "137 м.д."]), ("M+5", "3,29", ["138 м.д."]),
        ("M+10", "8,31", ["178 с.д.", "179 с.д."]), ("M+10", "15,17", ["180 с.д.", "181 с.д."]),
        ("M+10", "20,38", ["182 с.д.", "183 с.д."]),
        ("M+15", "8,31", ["184 с.д.", "185 с.д."]), ("M+15", "24,24", ["186 с.д.", "187 с.д."]),
        ("M+15", "12,9", ["188 с.д.", "189 с.д."]),
    ]:  # fmt: skip
        b = b.reserves(s, day, city, *divisions)
    return b


def greens(b: ScenarioBuilder) -> ScenarioBuilder:
    b = b.corps("G", "21 с.к.", "201 с.д.", "202 с.д.")
    b = b.place(
        "G", "21 с.к. расположен между 40-9 и 41-9 фронтом на север", "203 с.д. - 50,9 фронтом на север",
        "204 с.д. - 30,8 фронтом на запад", "211 м.д. - 47,7", "221 пт.д. - 57,10", "291 крепость - 50,11",
    )  # fmt: skip
    b = b.reserves("G", "M", "47,6", "205 с.д.").reserves("G", "M+5", "47,6", "206 с.д.")
    b = b.place(
        "H", "301 с.д. - 28,41 фронтом на запад", "302 с.д. - 35,41 фронтом на восток",
        "303 с.д. - 31,40 фронтом на юг", "304 с.д. - 38,42 фронтом на восток", "311 м.д. - 31,43",
        "321 пт.д. - 33,42", "391 крепость - 33,40",
    )  # fmt: skip
    return b.reserves("H", "M", "31,42", "305 с.д.").reserves("H", "M+5", "31,42", "306 с.д.")


def build() -> ScenarioBuilder:
    b = ScenarioBuilder.blank(W, H, name="Континентальная война", level=2)
    b = b.settings(seed=20261129)
    return greens(blue(red(infrastructure(theatre(b)))))


if __name__ == "__main__":
    out = Path(__file__).with_name("continental.toml")
    save_scenario(build().build(), out)
    print(f"wrote {out}")
