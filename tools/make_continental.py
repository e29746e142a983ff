"""Build the default scenario «Континентальная война» with the builder API and write it.

    .venv/bin/python tools/make_continental.py      # writes strategia/scenarios/continental.toml

The text file is the scenario (edit it by hand freely); this script is how it was first drawn,
and an example of the builder API. The forces follow 002's table 2 (peacetime) and 000's
table 5 (mobilisation): Red 15 с.д., 8 т.д., 4 м.д., 2 сау.д., 1 пт.д., 2 а.д.; Blue 12, 7, 4,
2, 3, 2; each Green state 4 с.д., 1 м.д., 1 пт.д. (6 с.д. after mobilisation, 3.6).
"""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import numpy as np

from strategia.theatre.builder import ScenarioBuilder
from strategia.theatre.scenario_io import save_scenario
from strategia.theatre.terrain import Relief

W, H = 64, 44


# --- the ground: shapes drawn with the builder (row runs of cells), rivers that wind ---------------

Cells = set[tuple[int, int]]


def _noise(seed: int, n: int = 4) -> list[tuple[float, float, float]]:
    """A few (amplitude, frequency, phase) waves: a shape's edge, the same on every run."""
    rng = np.random.default_rng(seed)
    return [(float(rng.uniform(0.1, 0.3) / (k + 1) ** 0.5), k + 2, float(rng.uniform(0, 6.3)))
            for k in range(n)]  # fmt: skip


def blob(cx: float, cy: float, rx: float, ry: float, seed: int) -> Cells:
    """The cells of an ellipse whose edge wanders (a wood, a swamp, a range of hills)."""
    waves = _noise(seed)
    out: Cells = set()
    for x in range(int(cx - rx * 1.6) - 1, int(cx + rx * 1.6) + 2):
        for y in range(int(cy - ry * 1.6) - 1, int(cy + ry * 1.6) + 2):
            dx, dy = (x - cx) / rx, (y - cy) / ry
            angle = math.atan2(dy, dx)
            edge = 1 + sum(a * math.sin(f * angle + p) for a, f, p in waves)
            if math.hypot(dx, dy) <= edge and 1 <= x <= W and 1 <= y <= H:
                out.add((x, y))
    return out


def ridge(points: list[tuple[float, float]], width: float, seed: int) -> Cells:
    """A band of cells along a line of points, its width wandering (a mountain range)."""
    rng = np.random.default_rng(seed)
    out: Cells = set()
    for (x0, y0), (x1, y1) in itertools.pairwise(points):
        steps = max(1, int(math.hypot(x1 - x0, y1 - y0) * 2))
        for k in range(steps + 1):
            t = k / steps
            x, y = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
            w = width * (0.6 + 0.6 * rng.random())
            for dx in range(-3, 4):
                for dy in range(-3, 4):
                    if math.hypot(dx * 0.8, dy) <= w:
                        cell = (round(x) + dx, round(y) + dy)
                        if 1 <= cell[0] <= W and 1 <= cell[1] <= H:
                            out.add(cell)
    return out


def paint(b: ScenarioBuilder, relief: str, cells: Cells) -> ScenarioBuilder:
    """Paint `cells` with the builder, one call a run of cells along a row."""
    for y in sorted({y for _, y in cells}):
        xs = sorted(x for x, yy in cells if yy == y)
        start = prev = xs[0]
        for x in [*xs[1:], None]:
            if x is not None and x == prev + 1:
                prev = x
                continue
            b = b.paint_cells(relief, f"{start},{y} {prev},{y}")
            if x is not None:
                start = prev = x
    return b


def meander(corners: list[tuple[float, float]], seed: int, swing: int = 1) -> str:
    """A river through the grid corners `corners`, winding a cell either side on the way: the
    corners of a line along the grid that the builder draws."""
    rng = np.random.default_rng(seed)
    path = [corners[0]]
    for (x0, y0), (x1, y1) in itertools.pairwise(corners):
        along_x = y0 == y1
        length = abs(x1 - x0) if along_x else abs(y1 - y0)
        sign = 1 if (x1 - x0 if along_x else y1 - y0) > 0 else -1
        done, side = 0.0, 0
        while done < length:
            run = min(length - done, float(rng.integers(2, 5)))
            done += run
            turn = 0 if done >= length else int(rng.integers(-swing, swing + 1))
            if along_x:
                x = x0 + sign * done
                path.append((x, y0 + side))
                if turn and abs(side + turn) <= swing:
                    side += turn
                    path.append((x, y0 + side))
            else:
                y = y0 + sign * done
                path.append((x0 + side, y))
                if turn and abs(side + turn) <= swing:
                    side += turn
                    path.append((x0 + side, y))
        if side:
            path.append((x1, y1))
    clean = [path[0]]
    for p in path[1:]:
        if p != clean[-1]:
            clean.append(p)
    return " ".join(f"{x:g},{y:g}" for x, y in clean)


def coast(b: ScenarioBuilder) -> ScenarioBuilder:
    """The sea in the south-west with a bay and a ragged shore; a lake in the north-east."""
    sea: Cells = set()
    for x in range(1, 27):
        shore = (
            4.2
            + 1.6 * math.sin(x / 2.7)
            + 0.9 * math.sin(x / 1.3 + 1.0)
            - 0.16 * max(0, x - 18) ** 1.4
        )
        if x <= 9:
            shore += 3.2 - 0.2 * x  # the bay under Приморск's coast
        sea |= {(x, y) for y in range(1, round(shore) + 1)}
    sea |= blob(15.5, 6.0, 2.2, 1.3, 11)
    b = paint(b, "water", sea)
    return paint(b, "water", blob(58.5, 41.0, 2.6, 1.8, 12))


def ground(b: ScenarioBuilder) -> ScenarioBuilder:
    """Mountains, hills, forests and swamps, each shape drawn once."""
    b = paint(b, "hills", blob(37.0, 25.5, 4.6, 4.2, 21) | blob(13.0, 11.0, 3.6, 2.4, 22))
    b = paint(b, "hills", blob(45.5, 38.0, 3.5, 2.3, 23) | blob(53.0, 17.0, 3.0, 1.8, 24))
    b = paint(b, "hills", blob(6.0, 34.0, 3.0, 2.2, 25) | blob(40.0, 16.5, 6.0, 1.6, 26))
    b = paint(b, "hills", blob(56.0, 16.0, 5.0, 1.4, 27) | blob(27.0, 12.5, 4.0, 1.5, 28))
    b = paint(b, "forest", blob(15.0, 24.5, 4.4, 4.8, 31) | blob(54.0, 33.0, 4.2, 4.2, 32))
    b = paint(b, "forest", blob(24.5, 39.5, 3.0, 3.6, 33) | blob(46.5, 18.5, 3.0, 1.8, 34))
    b = paint(b, "forest", blob(8.0, 40.5, 2.6, 2.0, 35) | blob(41.0, 31.0, 2.2, 1.6, 36))
    b = paint(b, "forest", blob(60.0, 24.0, 2.4, 2.0, 37) | blob(20.0, 12.0, 2.0, 1.6, 38))
    b = paint(b, "swamp", blob(30.0, 33.0, 4.4, 2.3, 41) | blob(5.0, 17.0, 2.4, 2.4, 42))
    b = paint(b, "swamp", blob(26.0, 20.0, 1.6, 1.2, 43))
    rng = np.random.default_rng(71)  # copses and knolls scattered over the open ground
    woods: Cells = set()
    knolls: Cells = set()
    for k in range(26):
        x, y = float(rng.uniform(3, W - 2)), float(rng.uniform(8, H - 1))
        size = float(rng.uniform(0.9, 2.0))
        (woods if k % 3 else knolls).update(blob(x, y, size * 1.2, size, 100 + k))
    b = paint(b, "forest", woods)
    b = paint(b, "hills", knolls)
    b = paint(
        b, "mountains", ridge([(33, 13), (41, 14), (50, 12.5), (56, 13.5), (62, 13)], 1.6, 51)
    )
    b = paint(b, "mountains", ridge([(24, 10), (29, 10.5)], 1.2, 52))
    return paint(b, "mountains", ridge([(3, 36), (5, 39), (4, 41)], 1.3, 53))


def theatre(b: ScenarioBuilder) -> ScenarioBuilder:
    b = ground(coast(b))
    # States: Blue in the west, Red in the east, Green «Южная» in the south, Green «Северная»
    # in the north between them; the sea belongs to no one.
    b = b.state("B", "Синяя Конфедерация", "blue", lon=(1, 30), lat=(7, 44))
    b = b.state("R", "Красная Федерация", "red", lon=(31, 64), lat=(16, 44))
    b = b.state("G", "Южная республика", "green", lon=(23, 64), lat=(1, 15))
    b = b.state("H", "Северное княжество", "green", lon=(21, 40), lat=(40, 44))
    b = b.state("B", "Синяя Конфедерация", "blue", lon=(23, 30), lat=(7, 15))
    b = b.state("B", "Синяя Конфедерация", "blue", lon=(1, 22), lat=(1, 6))
    # Rivers along grid lines, winding: the border river, a western, an eastern, a southern one.
    b = b.river(meander([(30.5, 15.5), (30.5, 29.5), (28.5, 29.5), (28.5, 37.5), (30.5, 37.5),
                         (30.5, 44.5)], 61))  # fmt: skip
    b = b.river(meander([(0.5, 25.5), (9.5, 25.5), (9.5, 21.5), (20.5, 21.5), (20.5, 15.5)], 62))
    b = b.river(meander([(52.5, 15.5), (52.5, 23.5), (48.5, 23.5), (48.5, 33.5), (44.5, 33.5),
                         (44.5, 44.5)], 63))  # fmt: skip
    return b.river(meander([(30.5, 0.5), (30.5, 7.5), (41.5, 7.5), (41.5, 11.5)], 64))


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


def clear(b: ScenarioBuilder) -> ScenarioBuilder:
    """Dry, passable ground where troops stand, towns are and roads run: no unit deployed in
    water, mountains or swamp, no road under water."""
    ds = b.scenario.theatre
    keep: Cells = set()
    for forces in b.scenario.forces:
        for p in forces.deployment:
            a, z = p.cells[0], p.cells[-1]
            for x in range(min(a.lon, z.lon), max(a.lon, z.lon) + 1):
                for y in range(min(a.lat, z.lat), max(a.lat, z.lat) + 1):
                    keep.add((x, y))
        keep |= {(a.cell.lon, a.cell.lat) for a in forces.mobilisation}
    relief = ds["relief"].values
    settlement = ds["settlement"].values
    routes = ds["road"].values | ds["rail"].values
    wet = {(x, y) for x in range(1, W + 1) for y in range(1, H + 1)
           if relief[x - 1, y - 1] == Relief.WATER
           and (settlement[x - 1, y - 1] or routes[x - 1, y - 1])}  # fmt: skip
    hard = {c for c in keep
            if relief[c[0] - 1, c[1] - 1] in (Relief.MOUNTAINS, Relief.SWAMP, Relief.WATER)}  # fmt: skip
    return paint(b, "plain", wet | hard) if wet | hard else b


def build() -> ScenarioBuilder:
    b = ScenarioBuilder.blank(W, H, name="Континентальная война", level=2)
    b = b.settings(seed=20261129)
    return clear(greens(blue(red(infrastructure(theatre(b))))))


if __name__ == "__main__":
    out = Path(__file__).resolve().parents[1] / "strategia" / "scenarios" / "continental.toml"
    save_scenario(build().build(), out)
    print(f"wrote {out}")
