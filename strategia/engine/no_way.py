"""Why no way leads a unit to its goal (9.3: the mediator's record of a cut move): the first
cell on the straight line there that the unit's type cannot enter, with the table 4 entry that
forbids it."""

from __future__ import annotations

import itertools

from strategia.core.geometry import Cell, Direction
from strategia.core.i18n import Text
from strategia.engine.costs import INF, speeds
from strategia.engine.result import Cut, cut
from strategia.engine.state import GameState, UnitState
from strategia.rules import RuleSet
from strategia.rules.english import en
from strategia.theatre import terrain
from strategia.theatre.drawing import cell_line
from strategia.theatre.terrain import RELIEF_TERRAIN_KEY, Relief


def no_way(state: GameState, u: UnitState, target: Cell, rules: RuleSet) -> Cut:
    """Why no way leads to `target`: the first cell on the straight line there that the unit's
    type cannot enter, with the table 4 entry that forbids it (9.3: the mediator's record)."""
    if state.enemy_at(target, state.side_of(u.ref)):  # entered only by a blow (9.8)
        return cut(
            "9.8",
            f"{target} is held by the enemy: moved as near as it can (an attack is an order)",
            f"{target} занята противником: продвинута как можно ближе (атака — отдельный приказ)",
        )
    sp = speeds(u.division.kind, rules)
    ds = state.theatre
    col = u.division.kind.key if u.division.kind.key != "fortress" else "rifle"
    relief = state.grid.relief
    trail = state.grid.trail
    road = state.grid.road
    line = cell_line(u.cell, target)
    for a, b in itertools.pairwise(line):
        if not terrain.on_map(ds, b):
            break
        i, j = terrain.index(ds, b)
        r = Relief(int(relief[i, j]))
        k = Direction.from_delta(*a.offset(b)).index
        fords = state.grid.crossings[(k, *terrain.index(ds, a))]
        bridged = road[terrain.index(ds, a)] and road[i, j]
        if sp.river_turns == INF and fords and not bridged:
            entry = _entry(rules, "river", col)
            return cut(
                "table 4",
                en(
                    f"no way for {u.ref} to {target}: the river between {a} and {b} "
                    f"({entry.en}); moved as near as it can"
                ),
                f"нет пути для {u.ref} в {target}: река между {a} и {b} "
                f"({entry.ru}); продвинута как можно ближе",
            )
        by_road = bool(road[i, j]) and sp.road > 0
        by_trail = bool(trail[i, j]) and sp.trail.get(r, 0.0) > 0
        if r == Relief.WATER or (sp.ground.get(r, 0.0) <= 0 and not (by_road or by_trail)):
            row = "water" if r == Relief.WATER else RELIEF_TERRAIN_KEY[r]
            if trail[i, j] and not road[i, j] and f"trail_{row}" in _rows(rules):
                row = f"trail_{row}"  # a trail this arm may not use (table 4: «тропы в горах»)
            entry = Text("water", "вода") if r == Relief.WATER else _entry(rules, row, col)
            return cut(
                "table 4",
                en(
                    f"no way for {u.ref} to {target}: it cannot enter {b} ({entry.en}); "
                    "moved as near as it can"
                ),
                f"нет пути для {u.ref} в {target}: нельзя войти в {b} ({entry.ru}); "
                "продвинута как можно ближе",
            )
    return cut(
        "9.3",
        en(f"no way for {u.ref} to {target}: moved as near as it can"),
        f"нет пути для {u.ref} в {target}: продвинута как можно ближе",
    )


def _rows(rules: RuleSet) -> set[str]:
    return set(rules.entry("movement").rows)


def _entry(rules: RuleSet, row: str, col: str) -> Text:
    """Table 4's cell for `row` and `col` as the mediator reads it: «а.д., горы: непроходимы»."""
    e = rules.entry("movement")
    value = rules.value("movement", row, col)
    words = {
        "impassable": ("impassable", "непроходимы"),
        "trails": ("only along trails", "по тропам"),
    }
    said_en, said_ru = words.get(str(value), (f"{value}", f"{value}"))
    r, c = e.row_label(row), e.column_label(col)
    return Text(en(f"table 4, {c.en} in {r.en}: {said_en}"), f"табл. 4, {c.ru}, {r.ru}: {said_ru}")
