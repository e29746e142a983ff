"""A skirmish: the table (its size in cm), its obstacles and the units at the start, as TOML.

[skirmish]
name = "У рощи"
table = [120, 80]                      # width, depth of the table in cm

[[obstacle]]
kind = "hill"                          # hill, scrub, hedge, ravine, ford, forest, village
polygon = [[40, 30], [70, 30], [70, 45], [40, 45]]
top = [55, 38]                         # a hill's top (default: the middle of its polygon)

[[obstacle]]
kind = "hedge"                         # a hedge is a line; it counts 1 cm deep
line = [[10, 20], [40, 20]]

[[road]]                               # roads and streets (forest and village, 003 obstacles)
line = [[0, 5], [120, 5]]

[[unit]]
name = "1/Тульский"
side = "red"
arm = "infantry"                       # infantry, cavalry, artillery (or пехота, ...)
figures = 16                           # 50 men a figure; a battery's gunner figures
formation = "column"                   # line, square, column, march, loose;
at = [30, 10]                          #   limbered, prolonge, unlimbered (artillery)
facing = 0                             # degrees: 0 up the table (+y), 90 to the right
# weight = "light"   cavalry: light/medium/heavy; artillery: light/heavy
# draught = "horse"  artillery: foot/horse;  guns = 6;  squadrons = 2;  condition = "formed"
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from strategia.core.errors import Problem, StrategiaError, UnknownNameError, unreadable
from strategia.core.vocab import Kind, norm
from strategia.tactical.geometry import Point, centroid, strip
from strategia.tactical.units import TacticalError, Unit, new_unit


class SkirmishError(StrategiaError):
    """A skirmish file with problems; every problem found is listed at once."""

    def __init__(self, source: str, problems: list[Problem]) -> None:
        self.source = source
        self.problems = tuple(problems)
        lines = "\n".join(f"  - {p}" for p in self.problems)
        lines_ru = "\n".join(f"  - {p.say('ru')}" for p in self.problems)
        n = len(self.problems)
        super().__init__(
            f"{source}: {n} problem{'s' if n != 1 else ''}\n{lines}",
            ru=f"{source}: {'одна ошибка' if n == 1 else f'ошибок: {n}'}\n{lines_ru}",
        )


class ObstacleKind(Kind):
    """The obstacle table's rows (003 obstacles); troops and batteries are units on the table."""

    HILL = ("hill", "холм", "hill")
    SCRUB = ("scrub", "кустарник", "scrub", "заросли", "bushes")
    HEDGE = ("hedge", "заросли в линию", "hedge", "line of bushes")
    RAVINE = ("ravine", "овраг", "ravine")
    FORD = ("ford", "брод", "ford", "river", "река")
    FOREST = ("forest", "лес", "forest", "wood")
    VILLAGE = ("village", "деревня", "village")
    TROOPS = ("troops", "строй", "troops", "formation")
    BATTERY = ("battery", "артиллерия на позиции", "battery in position")


FILE_KINDS = tuple(k for k in ObstacleKind if k not in (ObstacleKind.TROOPS, ObstacleKind.BATTERY))


@dataclass(frozen=True, slots=True)
class Obstacle:
    """An area (polygon) or, for a hedge, a line; a hill has a top (where uphill ends)."""

    kind: ObstacleKind
    polygon: tuple[Point, ...] = ()
    line: tuple[Point, ...] = ()
    top: Point | None = None
    name: str = ""

    @property
    def label(self) -> str:
        """The obstacle as English names it: its name's English half ("холм / hill"), its name,
        or its kind."""
        return self._half(1) or self.kind.en

    @property
    def label_ru(self) -> str:
        """The obstacle as Russian names it (`label`'s Russian half)."""
        return self._half(0) or self.kind.ru

    def _half(self, k: int) -> str:
        ru, sep, en = self.name.partition(" / ")
        return (ru, en)[k].strip() if sep else self.name

    def summit(self) -> Point:
        return self.top if self.top is not None else centroid(self.polygon)

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind.key}
        if self.polygon:
            d["polygon"] = [list(p) for p in self.polygon]
        if self.line:
            d["line"] = [list(p) for p in self.line]
        if self.top is not None:
            d["top"] = list(self.top)
        if self.name:
            d["name"] = self.name
        return d


@dataclass(frozen=True, slots=True)
class Road:
    line: tuple[Point, ...]
    name: str = ""


@dataclass(frozen=True)
class Skirmish:
    """What a skirmish file describes."""

    name: str
    width: float
    height: float
    obstacles: tuple[Obstacle, ...]
    roads: tuple[Road, ...]
    units: tuple[Unit, ...]
    source: str = ""
    text: str = ""


@dataclass(frozen=True)
class Table:
    """The table now: the skirmish's ground and its units where they stand."""

    skirmish: Skirmish
    units: tuple[Unit, ...]

    def unit(self, name: str) -> Unit:
        """The unit called `name` (exact, or case-insensitively, or by a unique beginning)."""
        for u in self.units:
            if u.name == name:
                return u
        wanted = norm(name)
        same = [u for u in self.units if norm(u.name) == wanted]
        if not same:
            same = [u for u in self.units if norm(u.name).startswith(wanted)]
        if len(same) == 1:
            return same[0]
        raise UnknownNameError("unit", name, [u.name for u in self.units])

    def with_unit(self, unit: Unit) -> Table:
        return replace(self, units=tuple(unit if u.name == unit.name else u for u in self.units))

    def sides(self) -> list[str]:
        return sorted({u.side for u in self.units})


def _point(v: Any, where: str, problems: list[Problem]) -> Point | None:
    if (
        isinstance(v, list)
        and len(v) == 2
        and all(isinstance(c, int | float) and not isinstance(c, bool) for c in v)
    ):
        return float(v[0]), float(v[1])
    problems.append(Problem(where, f"expected [x, y] in cm, got {v!r}"))
    return None


def _points(v: Any, where: str, least: int, problems: list[Problem]) -> tuple[Point, ...]:
    if not isinstance(v, list) or len(v) < least:
        problems.append(Problem(where, f"expected a list of at least {least} points [x, y]"))
        return ()
    pts = [_point(p, f"{where}[{i}]", problems) for i, p in enumerate(v)]
    return tuple(p for p in pts if p is not None)


def parse_skirmish(text: str, source: str = "<skirmish>") -> Skirmish:
    """A skirmish from its TOML text; a SkirmishError lists every problem."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise SkirmishError(source, [Problem("TOML", str(e))]) from None
    problems: list[Problem] = []
    head = data.get("skirmish", {})
    size = head.get("table", [120, 80])
    wh = _point(size, "skirmish.table", problems) or (120.0, 80.0)
    obstacles: list[Obstacle] = []
    for i, raw in enumerate(data.get("obstacle", [])):
        where = f"obstacle[{i}]"
        try:
            kind = ObstacleKind.parse(str(raw.get("kind", "")))
        except UnknownNameError as e:
            problems.append(Problem(f"{where}.kind", str(e)))
            continue
        if kind not in FILE_KINDS:
            problems.append(Problem(f"{where}.kind", f"{kind.key}: these are units on the table"))
            continue
        name = str(raw.get("name", ""))
        if kind is ObstacleKind.HEDGE:
            line = _points(raw.get("line"), f"{where}.line", 2, problems)
            obstacles.append(Obstacle(kind, line=line, name=name))
            continue
        if "line" in raw:  # a ravine or a river drawn as a line with a width
            line = _points(raw["line"], f"{where}.line", 2, problems)
            width = float(raw.get("width", 2))
            for k, piece in enumerate(strip(line, width)):
                obstacles.append(
                    Obstacle(kind, polygon=tuple(piece), name=name or f"{kind.en} {k + 1}")
                )
            continue
        poly = _points(raw.get("polygon"), f"{where}.polygon", 3, problems)
        top = _point(raw["top"], f"{where}.top", problems) if "top" in raw else None
        obstacles.append(Obstacle(kind, polygon=poly, top=top, name=name))
    roads = tuple(
        Road(_points(r.get("line"), f"road[{i}].line", 2, problems), str(r.get("name", "")))
        for i, r in enumerate(data.get("road", []))
    )
    units: list[Unit] = []
    for i, raw in enumerate(data.get("unit", [])):
        where = f"unit[{i}]"
        missing = [k for k in ("name", "side", "arm", "figures", "at") if k not in raw]
        if missing:
            problems.append(Problem(where, f"missing {', '.join(missing)}"))
            continue
        at = _point(raw["at"], f"{where}.at", problems)
        if at is None:
            continue
        try:
            units.append(
                new_unit(
                    str(raw["name"]),
                    str(raw["side"]),
                    str(raw["arm"]),
                    int(raw["figures"]),
                    at,
                    float(raw.get("facing", 0)),
                    raw.get("formation"),
                    condition=str(raw.get("condition", "formed")),
                    weight=raw.get("weight"),
                    draught=str(raw.get("draught", "foot")),
                    squadrons=int(raw.get("squadrons", 1)),
                    guns=int(raw.get("guns", 0)),
                )
            )
        except (TacticalError, UnknownNameError, ValueError, TypeError) as e:
            problems.append(Problem(where, str(e)))
    names = [u.name for u in units]
    for n in sorted({n for n in names if names.count(n) > 1}):
        problems.append(Problem("unit", f"two units are called {n!r}"))
    if problems:
        raise SkirmishError(source, problems)
    return Skirmish(
        name=str(head.get("name", Path(source).stem)),
        width=wh[0],
        height=wh[1],
        obstacles=tuple(obstacles),
        roads=roads,
        units=tuple(units),
        source=source,
        text=text,
    )


def load_skirmish(path: str | Path) -> Skirmish:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:  # a binary file too: said in the reader's words
        en, ru = unreadable(e)
        raise SkirmishError(str(path), [Problem("file", en, ru=ru, where_ru="файл")]) from None
    return parse_skirmish(text, str(path))


def new_table(skirmish: Skirmish) -> Table:
    return Table(skirmish, skirmish.units)


EXAMPLES = Path(__file__).parent / "skirmishes"
