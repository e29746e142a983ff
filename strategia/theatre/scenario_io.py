"""The scenario text format (TOML) a mediator types in minutes: see maps/README.md.

Reading reports every problem at once with its file, line and column, and loads nothing if
there is one. Writing (`scenario_write`) produces the same format.
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from typing import Any

import numpy as np

from strategia.core.errors import (
    Problem,
    StrategiaError,
    os_error_ru,
    say,
    toml_error_ru,
    unreadable,
)
from strategia.core.geometry import Cell
from strategia.core.numbers import quantity
from strategia.notation.refs import NotationError, Placement, UnitRef, parse_cell
from strategia.rules.kinds import Side
from strategia.theatre import drawing, terrain
from strategia.theatre.scenario import (
    MOBILISATION_DAYS,
    SIDES_RU,
    ArmySetup,
    Arrival,
    CorpsSetup,
    Forces,
    FrontSetup,
    Scenario,
    check_scenario,
)
from strategia.theatre.scenario_text import (
    MAX_SIDE,
    Reader,
    ScenarioError,
    check_shape,
    check_size,
)
from strategia.theatre.scenario_text import settings as scenario_settings
from strategia.theatre.scenario_write import (
    DEFAULT_LEGEND,
    RELIEF_NAMES,
    format_scenario,
    save_scenario,
)


def load_scenario(path: str | Path) -> Scenario:
    """Read a scenario file; a ScenarioError lists every problem (file:line:column)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:  # a binary file too: said in the reader's words
        en, ru = unreadable(e)
        raise ScenarioError(str(path), [Problem(str(path), en, ru=ru)]) from None
    return parse_scenario(text, str(path), base=path.parent)


def parse_scenario(
    text: str,
    source: str = "<scenario>",
    base: Path | None = None,
    *,
    others: frozenset[str] = frozenset(),
    defaults: dict[str, Any] | None = None,
) -> Scenario:
    """A scenario from the text of a scenario file. `others` are tables of a file that holds
    more than a scenario (a case of the case book: its `[case]`, steps and expectations), left
    to their reader; `defaults` supplies the tables the file leaves out."""
    r = Reader(source, text.split("\n"))
    if not check_size(r, text):
        raise ScenarioError(source, r.problems)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        m = re.search(r"line (\d+), column (\d+)", str(e))
        line, column = (int(m.group(1)), int(m.group(2))) if m else (None, None)
        r.add(line, column, f"TOML: {e}", f"не читается как TOML: {toml_error_ru(str(e))}")
        raise ScenarioError(source, r.problems) from None
    data = {**(defaults or {}), **{k: v for k, v in data.items() if k not in others}}
    data = check_shape(r, data)
    meta = data.get("scenario", {})
    settings = scenario_settings(r, meta, data.get("settings", {}))
    ds = _theatre(r, data, base)
    if ds is None:
        raise ScenarioError(source, r.problems)
    seen: dict[int, UnitRef] = {}
    forces = tuple(
        _forces(r, code, body, ds, seen) for code, body in data.get("forces", {}).items()
    )
    if r.problems:
        raise ScenarioError(source, r.problems)
    sc = Scenario(
        name=str(meta.get("name", Path(source).stem)),
        theatre=ds,
        forces=forces,
        settings=settings,
        description=str(meta.get("description", "")),
    )
    for p in check_scenario(sc):
        r.add(None, None, str(p), p.say("ru"))
    if r.problems:
        raise ScenarioError(source, r.problems)
    return sc


def _grid(
    r: Reader, key: str, text: str, legend: dict[str, Any]
) -> tuple[list[list[Any]], int] | None:
    rows = [(n, line.rstrip()) for n, line in r.block("map", key, text) if line.strip()]
    if not rows:
        r.add(r.locate("map", key), None, f"map.{key}: no rows", f"map.{key}: нет строк")
        return None
    width = len(rows[0][1])
    if width > MAX_SIDE or len(rows) > MAX_SIDE:
        most_ru = f"а по каждой стороне не больше {MAX_SIDE}"
        r.add(rows[0][0], None, f"map.{key}: {width} x {len(rows)}, at most {MAX_SIDE} a side",
              f"map.{key}: {width} × {len(rows)}, {most_ru}")  # fmt: skip
        return None
    lines = [line for _, line in rows]
    if all(len(line) == width for line in lines) and set("".join(lines)) <= legend.keys():
        return [[legend[ch] for ch in line] for line in lines], width
    grid: list[list[Any]] = []
    ok = True
    for n, line in rows:
        if len(line) != width:
            r.add(
                n,
                min(len(line), width) + 1,
                f"map.{key}: row of {len(line)} cells, the first row has {width}",
                f"map.{key}: в строке {quantity(len(line), 'cell', 'ru')}, в первой {width}",
            )
            ok = False
            continue
        row: list[Any] = []
        for col, ch in enumerate(line, 1):
            if ch not in legend:
                r.add(
                    n,
                    col,
                    f"map.{key}: unknown legend character {ch!r} "
                    f"(legend: {' '.join(sorted(legend))})",
                    f"map.{key}: знака «{ch}» нет в легенде (легенда: "
                    + ", ".join(f"«{c}»" for c in sorted(legend))
                    + ")",
                )
                ok = False
                row.append(None)
            else:
                row.append(legend[ch])
        grid.append(row)
    return (grid, width) if ok else None


def _theatre(r: Reader, data: dict[str, Any], base: Path | None) -> Any:
    m = data.get("map", {})
    if "netcdf" in m:
        p = Path(m["netcdf"])
        p = (base / p) if base and not p.is_absolute() else p
        try:
            ds = terrain.load(p)
        except (StrategiaError, OSError) as e:
            ru = say(e, "ru") if isinstance(e, StrategiaError) else os_error_ru(e)
            r.add(r.locate("map", "netcdf"), None, f"map.netcdf: {e}", f"map.netcdf: {ru}")
            return None
        return _infrastructure(r, data, ds)
    legend_raw = {**DEFAULT_LEGEND, **m.get("legend", {})}
    legend = {}
    for ch, name in legend_raw.items():
        if len(ch) != 1 or name not in RELIEF_NAMES:
            r.add(
                r.locate("map", "legend"),
                None,
                f"map.legend: {ch!r} = {name!r}: "
                f"expected one character = one of {', '.join(RELIEF_NAMES)}",
                f"map.legend: {ch!r} = {name!r}: нужен один знак = одно из: "
                + ", ".join(f"«{n}»" for n in RELIEF_NAMES),
            )
        else:
            legend[ch] = RELIEF_NAMES[name]
    if "relief" not in m:
        r.add(None, None, "[map] needs relief rows (or netcdf = FILE)",
              "в [map] нужны строки «relief» (или «netcdf = ФАЙЛ»)")  # fmt: skip
        return None
    got = _grid(r, "relief", m["relief"], legend)
    states = data.get("state", [])
    codes = {}
    for k, s in enumerate(states, 1):
        code = str(s.get("code", ""))
        if len(code) != 1:
            r.add(
                r.find_line(f'code = "{code}"'),
                None,
                f"state {code!r}: a state's code is one character",
                f"государство {code!r}: код государства — один знак",
            )
        if s.get("side") not in [x.key for x in Side]:
            r.add(
                r.find_line(f'code = "{code}"'),
                None,
                f"state {code!r}: side {s.get('side')!r}, expected red, blue, green or black",
                f"государство {code!r}: "
                + (f"сторона {s['side']!r}" if s.get("side") is not None else "сторона не указана")
                + f", а нужна одна из: {SIDES_RU}",
            )
        codes[code] = k
    state_grid = None
    if "states" in m:
        state_grid = _grid(r, "states", m["states"], {".": 0, " ": 0, "~": 0, **codes})
    if got is None or ("states" in m and state_grid is None):
        return None
    grid, width = got
    height = len(grid)
    ds = terrain.blank(width, height, str(data.get("scenario", {}).get("name", "theatre")))
    ds["relief"].values[:] = np.array(grid, dtype=np.int8)[::-1].T
    if state_grid is not None:
        sg, sw = state_grid
        if (sw, len(sg)) != (width, height):
            r.add(
                r.locate("map", "states"),
                None,
                f"map.states: {sw} x {len(sg)}, the relief is {width} x {height}",
                f"map.states: {sw} × {len(sg)}, а рельеф — {width} × {height}",
            )
            return None
        ds["state"].values[:] = np.array(sg, dtype=np.int8)[::-1].T
    ds.attrs["states"] = json.dumps(
        [
            {
                "code": str(s.get("code")),
                "name": str(s.get("name", s.get("code"))),
                "side": str(s.get("side")),
            }
            for s in states
        ],
        ensure_ascii=False,
    )
    return _infrastructure(r, data, ds)


def _infrastructure(r: Reader, data: dict[str, Any], ds: Any) -> Any:
    routes = data.get("routes", {})
    for key, layer in (("roads", "road"), ("railways", "rail"), ("trails", "trail")):
        for line in routes.get(key, []):
            try:
                drawing.draw_route(ds[layer].values, drawing.parse_route(line, terrain.size(ds)))
            except StrategiaError as e:
                r.add(
                    r.find_line(line), None, f"routes.{key}: {e}", f"routes.{key}: {say(e, 'ru')}"
                )
    for line in routes.get("rivers", []):
        try:
            drawing.draw_river(
                ds["river_e"].values, ds["river_n"].values, drawing.parse_river(line)
            )
        except StrategiaError as e:
            r.add(r.find_line(line), None, f"routes.rivers: {e}", f"routes.rivers: {say(e, 'ru')}")
    places = data.get("places", {})
    named = json.loads(ds.attrs.get("places", "[]"))
    for key, code in (("cities", 1), ("capitals", 2), ("fortresses", 0)):
        for line in places.get(key, []):
            name, _, cell_text = str(line).rpartition(" ")
            try:
                cell = parse_cell(cell_text)
            except NotationError as e:
                r.add(r.find_line(line), None, f"places.{key}: {line!r}: {e}",
                      f"places.{key}: {line!r}: {say(e, 'ru')}")  # fmt: skip
                continue
            if not terrain.on_map(ds, cell):
                w, h = terrain.size(ds)
                r.add(
                    r.find_line(line),
                    None,
                    f"places.{key}: {line!r}: cell off the map, which is {w} x {h}",
                    f"places.{key}: {line!r}: клетка вне карты (карта {w} × {h})",
                )
                continue
            i, j = terrain.index(ds, cell)
            if code:
                ds["settlement"].values[i, j] = max(code, int(ds["settlement"].values[i, j]))
            else:
                ds["fortress"].values[i, j] = True
            if name.strip():
                named.append({"name": name.strip(), "lon": cell.lon, "lat": cell.lat, "kind": key})
    ds.attrs["places"] = json.dumps(named, ensure_ascii=False)
    for p in terrain.check(ds):
        r.add(None, None, f"map: {p}", f"карта: {p.say('ru')}")
    return ds


def _divisions_named(ref: UnitRef, corps: dict[UnitRef, CorpsSetup]) -> list[UnitRef]:
    if ref in corps:
        return list(corps[ref].divisions)
    return [ref] if ref.echelon == "division" else []


def _claim(r: Reader, n: int | None, ref: UnitRef, seen: dict[int, UnitRef], where: str) -> None:
    """Each division number is one division, placed once (a second use is an error)."""
    if ref.number in seen:
        other = seen[ref.number]
        what = "placed twice" if other == ref else f"the number of {other} too"
        what_ru = "расставлена дважды" if other == ref else f"тот же номер, что у {other}"
        r.add(n, None, f"{where}: {ref}: {what}; every division needs its own number",
              f"{where}: {ref}: {what_ru}; у каждой дивизии свой номер")  # fmt: skip
    else:
        seen[ref.number] = ref


def _forces(
    r: Reader, code: str, body: dict[str, Any], ds: Any, seen: dict[int, UnitRef]
) -> Forces:
    table = f"forces.{code}"
    fronts: list[FrontSetup] = []
    armies: list[ArmySetup] = []
    corps: list[CorpsSetup] = []
    for n, line in r.block(table, "order_of_battle", body.get("order_of_battle", "")):
        if not line.strip() or line.strip().startswith("#"):
            continue
        head, sep, rest = line.partition(":")
        if not sep:
            r.add(
                n,
                1,
                f"{table}.order_of_battle: {line.strip()!r}: expected '<army or corps>: <members>'",
                f"{table}.order_of_battle: {line.strip()!r}: нужно «<армия или корпус>: <состав>»",
            )
            continue
        parent = _ref(r, n, 1, head, table)
        members = [
            _ref(r, n, len(head) + 2, part, table) for part in rest.split(",") if part.strip()
        ]
        if parent is None or any(m is None for m in members):
            continue
        ms = tuple(m for m in members if m is not None)
        if parent.echelon == "front":
            fronts.append(FrontSetup(parent, ms))
        elif parent.kind is None:
            armies.append(ArmySetup(parent, ms))
        elif parent.echelon == "corps":
            if not ms:
                r.add(n, 1, f"{table}: {parent}: a corps with no divisions",
                      f"{table}: {parent}: корпус без дивизий")  # fmt: skip
            corps.append(CorpsSetup(parent, ms))
        else:
            r.add(n, 1, f"{table}: {parent} is a division: fronts, armies and corps have members",
                  f"{table}: {parent} — дивизия: состав у фронта, армии, корпуса")  # fmt: skip
    deployment = []
    corps_of = {c.ref: c for c in reversed(corps)}  # the first of a number, as a search finds
    relief = ds["relief"].values
    w, h = terrain.size(ds)
    for n, line in r.block(table, "deployment", body.get("deployment", "")):
        if not line.strip() or line.strip().startswith("#"):
            continue
        try:
            p = Placement.parse(line.strip())
        except NotationError as e:
            r.add(n, e.column, f"{table}.deployment: {e}", f"{table}.deployment: {e.say('ru')}")
            continue
        bad = [c for c in p.cells if not terrain.on_map(ds, c)]
        if bad:
            r.add(
                n,
                None,
                f"{table}.deployment: {line.strip()!r}: "
                f"cell {bad[0]} off the map, which is {w} x {h}",
                f"{table}.deployment: «{line.strip()}»: клетка {bad[0]} вне карты "
                f"(карта {w} × {h})",
            )
            continue
        wet = [c for c in p.cells if relief[terrain.index(ds, c)] == terrain.Relief.WATER]
        if wet:
            at, at_ru = (
                f"{table}.deployment: {line.strip()!r}",
                f"{table}.deployment: «{line.strip()}»",
            )
            r.add(n, None, f"{at}: cell {wet[0]} is water", f"{at_ru}: клетка {wet[0]} — вода")
        deployment.append(p)
        for ref in _divisions_named(p.unit, corps_of):
            _claim(r, n, ref, seen, f"{table}.deployment")
    arrivals = []
    for n, line in r.block(table, "mobilisation", body.get("mobilisation", "")):
        if not line.strip() or line.strip().startswith("#"):
            continue
        a = _arrival(r, n, line, table, ds)
        if a is not None:
            arrivals.append(a)
            for ref in a.divisions:
                _claim(r, n, ref, seen, f"{table}.mobilisation")
    known_corps = {c.ref for c in corps}
    for p in deployment:
        if p.unit.echelon == "corps" and p.unit not in known_corps:
            r.add(
                r.find_line(str(p.unit)),
                None,
                f"{table}: {p.unit} is deployed but not in the order of battle",
                f"{table}: {p.unit} расставлен, но его нет в составе сил",
            )
    for c in corps:
        if not c.divisions:
            r.add(r.find_line(str(c.ref)), None, f"{table}: {c.ref}: a corps with no divisions",
                  f"{table}: {c.ref}: корпус без дивизий")  # fmt: skip
    return Forces(
        code, tuple(armies), tuple(corps), tuple(deployment), tuple(arrivals), tuple(fronts)
    )


def _ref(r: Reader, line: int | None, col: int, text: str, table: str) -> UnitRef | None:
    try:
        return UnitRef.parse(text.strip())
    except NotationError as e:
        offset = len(text) - len(text.lstrip())
        column = col + offset + (e.column - 1 if e.column else 0)
        r.add(line, column, f"{table}: {e}", f"{table}: {e.say('ru')}")
        return None


def _arrival(r: Reader, n: int | None, line: str, table: str, ds: Any) -> Arrival | None:
    m = re.match(r"^\s*(M(?:\s*\+\s*\d+)?)\s*:\s*(.+?)\s+[-–—]\s+(.+?)\s*$", line)
    if not m:
        r.add(
            n,
            1,
            f"{table}.mobilisation: {line.strip()!r}: "
            "expected 'M+5: 41 с.д., 42 с.д. - <city or cell>'",
            f"{table}.mobilisation: {line.strip()!r}: нужно «M+5: 41 с.д., 42 с.д. - <город или "
            "клетка>»",
        )
        return None
    day = m.group(1).replace(" ", "")
    refs = [_ref(r, n, m.start(2) + 1, part, table) for part in m.group(2).split(",")]
    where = m.group(3)
    cell = None
    for p in json.loads(ds.attrs.get("places", "[]")):
        if p["name"] == where:
            cell = Cell(p["lon"], p["lat"])
    if cell is None:
        try:
            cell = parse_cell(where)
        except NotationError:
            r.add(
                n,
                m.start(3) + 1,
                f"{table}.mobilisation: {where!r} is neither a place's name nor a cell",
                f"{table}.mobilisation: {where!r} — не название места и не клетка",
            )
            return None
    if day not in MOBILISATION_DAYS:
        r.add(
            n,
            1,
            f"{table}.mobilisation: day {day!r}: expected one of {', '.join(MOBILISATION_DAYS)}",
            f"{table}.mobilisation: день {day!r}: нужен один из: {', '.join(MOBILISATION_DAYS)}",
        )
        return None
    if any(x is None for x in refs):
        return None
    return Arrival(day, tuple(x for x in refs if x is not None), cell)


__all__ = ["ScenarioError", "format_scenario", "load_scenario", "parse_scenario", "save_scenario"]
