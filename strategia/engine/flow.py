"""The flow of turns (1.7, 1.8), mobilisation (6.4) and the mediator's inputs (9.4).

Levels 1 and 2: the sides move in turn, Red first, giving any number of orders. Level 3: every
side gives its orders, then the mediator carries them out together in the order the rule data
gives (`level3_order`, reconstructed: the seeds say only "simultaneously"): by default artillery
strikes first, then movement and other orders taking the sides in turn one order at a time (Red
first), then the attacks.
"""

from __future__ import annotations

from collections import deque

from strategia.core.collector import pausing_collector
from strategia.core.geometry import Cell
from strategia.core.i18n import Text
from strategia.engine.apply import advance, apply
from strategia.engine.forces import out_of_play
from strategia.engine.result import OrderError, Result, cut
from strategia.engine.state import Closure, GameState, UnitState
from strategia.explain.trace import explain
from strategia.notation.orders import Attack, Order, Strike
from strategia.notation.refs import Placement
from strategia.rules import RuleSet
from strategia.rules.english import en
from strategia.rules.kinds import DivisionKind, Side
from strategia.rules.units import new_division
from strategia.theatre import terrain
from strategia.theatre.scenario import MOBILISATION_DAYS
from strategia.theatre.terrain import Relief


def sides_in_order(state: GameState, rules: RuleSet) -> list[str]:
    """The sides that play, in rule 1.2's order, the first mover (1.8) first."""
    present = {s.side for s in state.scenario.states}
    order = [s.key for s in Side if s.key in present]
    first = str(rules.value("first_move", "side"))
    if first in order:
        order.remove(first)
        order.insert(0, first)
    return order


def day_of(turn: int) -> str | None:
    """The mobilisation day (M, M+5, ...) a turn is, if any: turn 1 is M."""
    label = "M" if turn == 1 else f"M+{turn - 1}"
    return label if label in MOBILISATION_DAYS else None


def by_schedule(rules: RuleSet) -> bool:
    """Whether reserves arrive by table 5's schedule (6.4, level 2) rather than all at M (6.1):
    the reading is in the rule data (`mobilisation_schedule.by_table`)."""
    return rules.active("mobilisation") and bool(rules.value("mobilisation_schedule", "by_table"))


def start(state: GameState, rules: RuleSet) -> tuple[GameState, list[Result]]:
    """Mobilisation day (6.1, 6.4): the reserves due at M, or all of them where the schedule
    does not act."""
    return mobilise(state, rules, everything=not by_schedule(rules))


def mobilise(
    state: GameState, rules: RuleSet, everything: bool = False
) -> tuple[GameState, list[Result]]:
    """Reserve divisions arriving today in their cities (6.4); with `everything`, all of them
    (level 1: the whole of table 5 is deployed at M, as the rule data notes)."""
    day = day_of(state.turn)
    results: list[Result] = []
    added: list[UnitState] = []
    for f in state.scenario.forces:
        for a in f.mobilisation:
            if not everything and a.day != day:
                continue
            for ref in a.divisions:
                if ref in state.units or not isinstance(ref.kind, DivisionKind):
                    continue
                if out_of_play(ref, f.state, state.scenario, rules) is not None:
                    continue
                cell = _free_cell(state, a.cell, f.state, [u.cell for u in added])
                facing = state.scenario.default_facing(f.state, cell)
                u = UnitState(
                    ref, f.state, new_division(ref.number, ref.kind, rules), (cell,), facing
                )
                added.append(u)
                with explain(
                    Text(en(f"{ref} mobilised in {a.cell}"), f"{ref} отмобилизована в {a.cell}"),
                    rule="6.4",
                ) as ex:
                    ex.set(a.day)
                p = Placement(ref, (cell,), facing)
                results.append(
                    Result(
                        f"{a.day}: {ref}",
                        Text(p.format("en"), p.format("ru")),
                        ex.freeze(),
                        by=state.scenario.state(f.state).side,
                    )
                )
    return state.with_units(added), results


def _free_cell(state: GameState, want: Cell, owner: str, taken: list[Cell]) -> Cell:
    """`want` if free, else the nearest free land cell of the same state (4.12)."""
    ds = state.theatre
    codes = [s.code for s in state.scenario.states]
    for radius in range(0, 8):
        ring = [
            Cell(want.lon + dx, want.lat + dy)
            for dx in range(-radius, radius + 1)
            for dy in range(-radius, radius + 1)
            if max(abs(dx), abs(dy)) == radius
        ]
        for c in sorted(ring, key=lambda c: c.km(want)):
            if not terrain.on_map(ds, c) or c in taken or state.occupants(c):
                continue
            i, j = terrain.index(ds, c)
            if int(ds["relief"].values[i, j]) == Relief.WATER:
                continue
            k = int(ds["state"].values[i, j])
            if k and codes[k - 1] == owner:
                return c
    return want


def begin_move(state: GameState, side: str, rules: RuleSet) -> tuple[GameState, list[Result]]:
    """A side's move begins: its units' time resets and work in hand goes on (1.7)."""
    return advance(state, rules, {side})


def new_day(state: GameState, rules: RuleSet) -> tuple[GameState, list[Result]]:
    """The next turn (a day, 2.1): old interdiction fire lapses, reserves arrive (6.4)."""
    state = state.evolve(
        turn=state.turn + 1,
        engaged=frozenset(),
        committed=frozenset(),
        interdictions=tuple(f for f in state.interdictions if f.turn + 1 >= state.turn + 1),
        closures=tuple(c for c in state.closures if c.until_turn >= state.turn + 1),
    )
    if by_schedule(rules):
        return mobilise(state, rules)
    return state, []


PHASES = {
    "strikes": lambda o: isinstance(o, Strike),
    "attacks": lambda o: isinstance(o, Attack),
    "moves": lambda o: not isinstance(o, Strike | Attack),
}


def resolution_order(
    orders: list[tuple[str, Order]], sides: list[str], rules: RuleSet
) -> list[tuple[str, Order]]:
    """Level 3's order of execution, as the rule data reads 1.7 (`level3_order`): its phases in
    turn, and within a phase the sides taking turns one order each, or each side's orders in
    a block."""
    phases = str(rules.value("level3_order", "phases")).split()
    interleave = bool(rules.value("level3_order", "interleave"))
    out: list[tuple[str, Order]] = []
    for phase in phases:
        wanted = [(s, o) for s, o in orders if PHASES[phase](o)]
        queues = {side: deque((s, o) for s, o in wanted if s == side) for side in sides}
        if not interleave:
            out += [x for side in sides for x in queues[side]]
            continue
        while any(queues.values()):
            for side in sides:
                if queues.get(side):
                    out.append(queues[side].popleft())
    return out


@pausing_collector  # a state, a result and an explanation per order, all kept
def execute_together(
    state: GameState, orders: list[tuple[str, Order]], rules: RuleSet
) -> tuple[GameState, list[Result]]:
    """Carry out every side's orders of a level-3 turn (1.7) in `resolution_order`."""
    results = []
    for side, order in resolution_order(orders, sides_in_order(state, rules), rules):
        try:
            state, r = apply(state, order, rules, side)
        except OrderError as e:  # the situation changed since the order was given
            with explain(
                Text("order void when its turn came", "приказ потерял смысл к исполнению"),
                rule="1.7",
            ) as ex:
                ex.step(Text(str(e), e.say("ru")), kind="cut", rule="1.7")
            r = Result(
                order.format("ru"),
                Text("not carried out", "не выполнен"),
                ex.freeze(),
                (cut("1.7", str(e), e.say("ru")),),
                by=side,
            )
        results.append(r)
    return state, results


def weather(state: GameState, cell: Cell, turns: int | None, rules: RuleSet) -> GameState:
    """The mediator closes a road by weather (9.4) at `cell` for `turns` (rule data default)."""
    n = turns if turns is not None else int(rules.value("interventions", "weather_turns"))
    shut = (
        Closure(cell, "road-movement", state.turn + n - 1),
        Closure(cell, "road-transfer", state.turn + n - 1),
    )
    return state.evolve(closures=(*state.closures, *shut))


__all__ = [
    "advance",
    "begin_move",
    "by_schedule",
    "day_of",
    "execute_together",
    "mobilise",
    "new_day",
    "sides_in_order",
    "weather",
]
