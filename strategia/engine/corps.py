"""A corps' order (4.7): given to the corps, carried out by each of its divisions.

A move shifts every division by the offset the leading division (the one nearest the goal) is
ordered, the nearest first (reconstructed: the seeds order corps but say nothing more of how).
At level 2, where the leading division's way passes a narrow (4.7: a bridge, a trail, a single
road through forest, swamp or mountains), the corps files into a column: «the corps stretches to
1x2, 1x3 or 1x4 by the number of its divisions» (1x(n+1)) along the way, the speeds applying to
the leading square; the leading division is its 1x2 head, each other division the next cell
behind, and where the column stops it holds those cells. Other orders go to every division.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from strategia.core.geometry import Cell
from strategia.core.i18n import Text
from strategia.core.numbers import cells_list, divisions
from strategia.engine.movement import _full_path, _passable
from strategia.engine.result import Cut, Result, cut
from strategia.engine.state import GameState, UnitState, where
from strategia.explain.trace import explain, record
from strategia.notation.orders import Move, Order
from strategia.rules import RuleSet
from strategia.rules.english import en
from strategia.theatre import terrain

Apply = Callable[[GameState, Order, RuleSet, str | None], tuple[GameState, Result]]


def corps_order(
    state: GameState,
    order: Order,
    rules: RuleSet,
    side: str | None,
    members: list[UnitState],
    apply: Apply,
) -> tuple[GameState, Result]:
    """Carry out a corps' order by its divisions (`apply` carries out each division's)."""
    goal: Cell | None = getattr(order, "to", None)
    ordered = sorted(members, key=lambda m: m.cell.km(goal or m.cell))
    lead = ordered[0]
    title = Text(
        en(f"Order to {order.unit}: {len(members)} divisions"),
        f"Приказ {order.unit}: дивизий {len(members)}",
    )
    outcomes: list[Text] = []
    cuts: list[Cut] = []
    with explain(title, rule="4.7") as ex:
        way = _column_way(state, lead, order, rules)
        if isinstance(order, Move) and way is not None:
            state, r = apply(state, replace(order, unit=lead.ref), rules, side)
            outcomes.append(r.outcome)
            cuts += r.cuts
            state, more = _file(state, lead, ordered[1:], way, rules, cuts)
            outcomes += more
        else:
            for u in ordered:
                if isinstance(order, Move):
                    d_lon, d_lat = lead.cell.offset(order.to)
                    to = Cell(u.cell.lon + d_lon, u.cell.lat + d_lat)
                    sub: Order = replace(order, unit=u.ref, to=to, via=())
                else:
                    sub = replace(order, unit=u.ref)  # type: ignore[type-var]
                state, r = apply(state, sub, rules, side)  # its explanation nests under ours
                outcomes.append(r.outcome)
                cuts += r.cuts
        ex.set(len(members))
    outcome = Text("; ".join(t.en for t in outcomes), "; ".join(t.ru for t in outcomes))
    return state, Result(order.format("ru"), outcome, ex.freeze(), tuple(cuts))


def _column_way(
    state: GameState, lead: UnitState, order: Order, rules: RuleSet
) -> list[Cell] | None:
    """The leading division's way if it passes a narrow at level 2 (the corps then goes in
    column, 4.7); None otherwise."""
    if not isinstance(order, Move) or state.level < 2 or not rules.active("narrows"):
        return None
    path, _ = _full_path(state, lead, rules, order.mode, order.to)
    narrow = state.grid.narrows
    if any(narrow[terrain.index(state.theatre, c)] for c in path[1:]):
        return path
    return None


def _file(
    state: GameState,
    lead: UnitState,
    followers: list[UnitState],
    way: list[Cell],
    rules: RuleSet,
    cuts: list[Cut],
) -> tuple[GameState, list[Text]]:
    """The divisions behind the leading one, each a cell further back along its way."""
    head = state.unit(lead.ref)
    n = len(followers) + 1
    length = int(rules.value("narrows", f"corps_length_{min(n, 3)}"))
    i = way.index(head.cell) if head.cell in way else 0
    behind = way[: i + 1][::-1] + sorted(
        (c for f in followers for c in f.cells), key=lambda c: c.km(way[0])
    )
    trail = list(dict.fromkeys(behind))
    cells = trail[: max(length, n + 1)]
    head = replace(head, cells=tuple(cells[:2]) if len(cells) > 1 else head.cells)
    record(
        Text(
            en(
                f"a corps of {divisions(n)} files through the narrow: 1x{length}, "
                + cells_list(cells)
            ),
            f"корпус из {divisions(n, 'ru', 'gen')} проходит узость колонной 1*{length}: "
            + cells_list(cells, "ru"),
        ),
        None,
        kind="note",
        rule="4.7",
    )
    changed = [head]
    outcomes: list[Text] = []
    for k, f in enumerate(followers):
        spot = cells[k + 2] if k + 2 < len(cells) else f.cell
        taken = [o for o in state.occupants(spot) if o.ref not in {f.ref, lead.ref}]
        taken = [o for o in taken if o.corps != lead.corps]
        if taken or not _passable(state, f, spot, rules):
            cuts.append(
                cut(
                    "4.7",
                    en(f"{f.ref} cannot follow the column into {spot}: it stays at {f.cell}"),
                    f"{f.ref} не может пройти за колонной в {spot}: остается в {f.cell}",
                )
            )
            outcomes.append(where(f))
            continue
        moved = replace(f, cells=(spot,), facing=head.facing, spent=head.spent)
        changed.append(moved)
        outcomes.append(where(moved))
    return state.with_units(changed), outcomes
