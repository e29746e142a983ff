"""The computer player's lasting plan and its search: a main effort kept from move to move and
changed only by a stated margin, saying why; the plans weighed named with their values; a
`think` budget; the one-move player kept as the style `greedy`; and fog honesty: an enemy unit
the side does not see, moved, changes none of its decisions.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

from strategia.core.i18n import Text
from strategia.explain.trace import Step
from strategia.game.channel import channel
from strategia.game.game import Game
from strategia.notation.refs import UnitRef
from strategia.players import Player, load_styles
from strategia.players.plan import Sector, keep_or_move

ROOT = Path(__file__).parents[1]
DEFAULT = ROOT / "maps" / "continental.toml"


def _sector(n: int, lo: int, hi: int, own: float, enemy: float) -> Sector:
    return Sector(n, lo, hi, (), own, enemy, enemy, 0.0, 0.0, 0.0, 0.0)


def test_the_main_effort_is_kept_until_another_sector_beats_it_by_the_margin() -> None:
    style = load_styles()["balanced"]
    assert style.keep_margin == 0.25
    kept, better = _sector(1, 1, 10, 10.0, 10.0), _sector(2, 11, 20, 12.4, 10.0)
    main, why = keep_or_move([kept, better], 5, style)  # 1.24 does not beat 1.0 by more than 25 %
    assert main is kept
    assert "kept from the last move" in why.en and "сохранен с прошлого хода" in why.ru
    much = _sector(2, 11, 20, 13.0, 10.0)
    main, why = keep_or_move([kept, much], 5, style)  # 1.3 does
    assert main is much
    assert why.en.startswith("moved from sector 1 (1-10): 1.3 beats 1 by more than 25 %"), why
    assert why.ru.startswith("перенесен из полосы 1 (1-10): 1,3 лучше 1 более чем на 25 %"), why
    main, why = keep_or_move([kept, much], None, style)  # nothing kept: the best
    assert main is much and "begins there" in why.en


def test_greedy_is_the_one_move_player_and_the_others_search() -> None:
    styles = load_styles()
    greedy = styles["greedy"]
    assert greedy.search_plans == 0 and greedy.keep_margin == 0 and not greedy.concentrate
    for key in ("cautious", "balanced", "bold"):
        assert styles[key].search_plans >= 2 and styles[key].concentrate, key


def _war(tmp_path: Path, name: str, style: str, think: float | None = None) -> list[Step]:
    """Red's plans of its first three moves on the default scenario, attacking from turn 1,
    the other sides giving no orders."""
    g = Game.new(DEFAULT, tmp_path / f"{name}.game", level=2, seed=1)
    red = Player("red", style, "attack@1", seed=1, think=think)
    plans = []
    while g.state.turn <= 3:
        if g.side == "red":
            done = red.move(channel(g, "red"))
            plans.append(done[0].reason)
        g.end_turn()
    return plans


def _weighed(plan: Step) -> Step | None:
    return next((c for c in plan.children if "plans played out" in c.label.en), None)


def test_each_plan_names_the_plans_weighed_and_their_values(tmp_path: Path) -> None:
    """«3 замысла разыграно: А 0,1; Б 0; В 0 — выбран А»: every plan weighed, a letter each,
    its value, the one chosen; under it each plan's main effort, and the margin a kept plan
    is changed by; in both languages, with no «label = value» line."""
    plans = _war(tmp_path, "search", "balanced")
    for plan in plans:
        w = _weighed(plan)
        assert w is not None, plan
        assert w.value is None and " = " not in w.label.ru
        m = re.fullmatch(r"(\d) замысл\w* разыгран\w*: (.+) — выбран ([А-В])", w.label.ru)
        assert m, w.label.ru
        values = m[2].split("; ")
        assert len(values) == int(m[1]) >= 2
        assert all(re.fullmatch(r"[А-В] -?[\d,]+", v) for v in values), values
        assert re.fullmatch(r"\d plans? played out by the engine: .+ — [A-C] chosen", w.label.en)
        lines = [c.label.ru for c in w.children]
        assert all(line.startswith("замысел ") for line in lines[:-1]), lines
        assert "главный удар в полосе" in lines[0]
        assert "сохраненный замысел меняется только на лучший на 0,4" in lines[-1]
        main = next(c for c in plan.children if c.label.en == "main effort")
        assert isinstance(main.note, Text) and main.note.en  # why it is where it is
    notes = [next(c for c in p.children if c.label.en == "main effort").note for p in plans]
    assert any(n is not None and "kept from the last move" in n.en for n in notes[1:]), notes


def test_the_one_move_player_weighs_no_plans(tmp_path: Path) -> None:
    assert all(_weighed(p) is None for p in _war(tmp_path, "greedy", "greedy"))


def test_a_think_budget_stops_the_search(tmp_path: Path) -> None:
    """With no time to think, the first plan (the kept one) is played out and the others are
    named as not played out."""
    plans = _war(tmp_path, "think", "balanced", think=0.0)
    w = _weighed(plans[-1])
    assert w is not None
    assert "не разыгран" in w.label.ru and "not played out" in w.label.en, w.label.ru
    assert not w.label.ru.split(": ", 1)[1].startswith("А не разыгран")


def _hidden_blue(g: Game) -> UnitRef:
    """A Blue division deep in Blue's ground, that Red's view shows in no way."""
    seen = {c for s in channel(g, "red").view().seen for c in s.cells}
    deep = [
        u
        for u in g.state.units.values()
        if g.state.side_of(u.ref) == "blue"
        and u.division.kind.key == "rifle"
        and u.cell.lon <= 12
        and all(c.chebyshev(u.cell) > 3 for c in seen)
    ]
    return sorted(deep, key=lambda u: u.ref.number)[0].ref


def test_a_hidden_enemy_unit_moved_changes_none_of_the_decisions(tmp_path: Path) -> None:
    """Two games the same but for one Blue division Red cannot see, moved in one of them:
    Red's computer (searching, sampling the enemy it does not see) decides the same."""
    runs = []
    for moved in (False, True):
        g = Game.new(DEFAULT, tmp_path / f"fog{moved}.game", level=2, seed=1)
        red = Player("red", "balanced", "attack@1", seed=1)
        decisions = []
        while g.state.turn <= 3:
            if g.side == "red":
                decisions += [json.dumps(d.to_json(), sort_keys=True) + (d.order or "")
                              for d in red.move(channel(g, "red"))]  # fmt: skip
            elif g.side == "blue" and g.state.turn == 2 and moved:
                ref = _hidden_blue(g)
                cell = g.state.unit(ref).cell
                g.order(f"{ref} на {cell.lon + 1},{cell.lat}", "blue")
                assert g.state.unit(ref).cell != cell  # moved
                after = {c for s in channel(g, "red").view().seen for c in s.cells}
                assert not any(c.chebyshev(cell) <= 2 for c in after)  # and still unseen
            g.end_turn()
        runs.append(decisions)
    assert len(runs[0]) > 20 and runs[0] == runs[1]


def test_balances_without_an_enemy_are_ordered() -> None:
    style = load_styles()["bold"]
    empty = _sector(1, 1, 5, 4.0, 0.0)
    assert math.isinf(empty.balance)
    main, _ = keep_or_move([_sector(2, 6, 10, 4.0, 2.0), empty], 8, style)
    assert main is empty  # an empty sector beats any kept one


def test_a_think_budget_is_kept_with_the_computer_s_sides(tmp_path: Path) -> None:
    from strategia.cli import main

    path = tmp_path / "think.game"
    assert main(["game", "new", str(DEFAULT), str(path), "--computer", "blue",
                 "--think", "0.5"]) in (0, None)  # fmt: skip
    g = Game.open(path)
    settings = g.computer_sides()["blue"]
    g.journal.close()
    assert settings["think"] == 0.5
    assert Player.of_settings("blue", settings).think == 0.5
