"""Fog of war that holds (1.6): scripted games at each level, and everything each side receives
(the channel's outputs, every `--side` command of the CLI as text and as JSON, its refusals)
searched for an enemy fact outside what the side legitimately learned.

What a side learns legitimately: the enemy units its views identified (open sectors, in sight of
its troops), the enemy units named in its own battles, and what its questions were answered.
Everything else about the enemy must never reach it: an unidentified unit's designation, the
position of a unit neither identified nor told as covering forces, any enemy strength, the
other side's sealed orders (level 3), whether an answer was true.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from strategia.cli import main
from strategia.core.errors import StrategiaError
from strategia.game.channel import SideChannel, channel
from strategia.game.game import Game
from strategia.game.trial import script_turn
from strategia.notation.refs import UnitRef
from strategia.rules.kinds import DivisionKind

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ROOT / "maps" / "continental.toml"
SIDES = ("red", "blue")
TURNS = {1: 8, 2: 8, 3: 8}


def _mentions(text: str, ref: UnitRef) -> bool:
    """Whether `text` names `ref` («21 т.д.», not inside «121 т.д.»)."""
    return (
        re.search(rf"(?<![\d]){ref.number}\s*{re.escape(str(ref).split(' ', 1)[1])}", text)
        is not None
    )


class Log:
    """What one side received, and what it learned legitimately along the way."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.known: set[UnitRef] = set()

    def add(self, *items: object) -> None:
        for x in items:
            self.texts.append(x if isinstance(x, str) else json.dumps(x, ensure_ascii=False))

    def learn(self, ch: SideChannel) -> None:
        view = ch.view()
        self.known |= {s.unit for s in view.seen if s.unit is not None}
        for d in ch.told():
            battle = d.get("battle", {})
            mine = {role for role in ("attacker", "defender") if battle.get(role) == ch.side}
            for u in battle.get("units", []):
                self.known.add(UnitRef.parse(u["unit"]))
                if u["role"] not in mine:  # the enemy in its battle: named, nothing measured
                    assert (u["rating"], u["effective"], u["before"], u["after"]) == (0, 0, [], [])
                    assert not u["factors"] and not u.get("blows") and not u["strength_before"]
            if battle:
                enemy = "defence" if "attacker" in mine else "attack"
                assert battle.get(enemy, 0) == 0 and battle.get(f"{enemy}_support", 0) == 0
            if d["kind"] == "answer":
                q = d["question"]
                self.known |= {u.ref for u in ch.game.state.units.values() if _mentions(q, u.ref)}


def _probe(ch: SideChannel, log: Log, enemy: UnitRef) -> None:
    """Orders and a question a side might use to probe: each refusal the same for an enemy
    unit as for a unit nobody has."""
    taken = set(ch.game.state.units) | set(ch.game.state.known_units)
    nobody = next(
        UnitRef(enemy.number, k) for k in DivisionKind if UnitRef(enemy.number, k) not in taken
    )  # the same number (a refusal may list the side's own units of that number)
    said = []
    for ref in (enemy, nobody):
        try:
            ch.order(f"{ref} на 1,1")
        except StrategiaError as e:
            said.append(e.say("ru").replace(str(ref), "X").replace(str(ref.kind.ru), "K"))
            log.add(e.say("ru"), str(e))
    assert said[0] == said[1], said


def _play(level: int, tmp_path: Path) -> tuple[Game, dict[str, Log]]:
    g = Game.new(DEFAULT, tmp_path / f"l{level}.game", level=level)
    logs = {s: Log() for s in SIDES}
    while g.state.turn <= TURNS[level]:
        for side in SIDES:
            ch, log = channel(g, side), logs[side]
            enemy = next(
                u.ref
                for u in g.state.units.values()
                if g.state.side_of(u.ref) not in (side, "green")
            )
            _probe(ch, log, enemy)
            if g.state.at_war:
                for q in (f"где {enemy}", "сколько войск в 30,20"):
                    try:
                        log.add(ch.ask(q))
                    except StrategiaError as e:
                        log.add(e.say("ru"))
            log.learn(ch)
            log.add(ch.view().to_json(), ch.told(), ch.journal_text("ru"), ch.status())
        if g.simultaneous:  # sealed: the other side hears nothing of the orders given so far
            script_turn_sealed(g, logs)
        else:
            script_turn(g)
    return g, logs


def script_turn_sealed(g: Game, logs: dict[str, Log]) -> None:
    """Level 3: red's and blue's orders given, then (before the turn ends) each side's outputs
    checked for the other's orders; then the turn carried out."""
    before = len(g.queued)
    for side in SIDES:
        mine = sorted((u for u in g.state.units.values() if g.state.side_of(u.ref) == side),
                      key=lambda u: u.ref.number)  # fmt: skip
        for u in mine[:3]:
            dx, dy = u.facing.delta
            channel(g, side).order(f"{u.ref} на {u.cell.lon + dx},{u.cell.lat + dy}")
    sealed = {s: [o.format("ru") for _, who, o in g.queued[before:] if who == s] for s in SIDES}
    for side in SIDES:
        other = next(s for s in SIDES if s != side)
        told = json.dumps(channel(g, side).told(), ensure_ascii=False)
        text = channel(g, side).journal_text("ru")
        for o in sealed[other]:
            assert o not in told and o not in text, (side, o)
        assert all(o in told for o in sealed[side])
    script_turn(g)


def _cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    main(args)
    out = capsys.readouterr()
    return out.out + out.err


@pytest.mark.parametrize("level", [1, 2, 3])
def test_no_side_receives_a_hidden_enemy_fact(
    level: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    g, logs = _play(level, tmp_path)
    path = str(g.journal.path)
    g = Game.open(path)
    state = g.state
    for side in SIDES:
        log = logs[side]
        ch = channel(g, side)
        log.learn(ch)
        for fmt in ("json", "text"):
            log.add(_cli(["game", "report", path, "--side", side, "--format", fmt], capsys))
        for cmd in (["show"], ["journal"]):
            log.add(_cli(["game", *cmd, path, "--side", side, "--json"], capsys))
            log.add(_cli(["game", *cmd, path, "--side", side], capsys))
        log.add(_cli(["game", "score", path, "--side", side], capsys))
        log.add(_cli(["game", "order", path, "999 т.д. на 1,1", "--side", side], capsys))
        everything = "\n".join(log.texts)

        own = {s.code for s in g.scenario.states if s.side == side}
        enemies = [
            u
            for u in state.units.values()
            if u.owner not in own and g.state.side_of(u.ref) != "green"
        ]
        hidden = [u for u in enemies if u.ref not in log.known]
        assert hidden, "the game should leave some enemy units unknown"
        named = [u.ref for u in hidden if _mentions(everything, u.ref)]
        assert not named, f"{side} was told of {named}"
        view = ch.view()
        covered = {c for s in view.seen for c in s.cells}
        view_text = json.dumps(view.to_json())
        placed = [(u.ref, c) for u in hidden for c in u.cells
                  if c not in covered and f'"{c.lon},{c.lat}"' in view_text]  # fmt: skip
        assert not placed, f"{side} was shown where {placed} stand"
        own_strengths = {
            r.strength for u in state.units.values() if u.owner in own for r in u.division.regiments
        }
        odd = {
            repr(r.strength)
            for u in enemies
            for r in u.division.regiments
            if r.strength not in own_strengths and len(repr(r.strength)) > 5
        }
        leaked = [s for s in odd if s in everything]
        assert not leaked, f"{side} was told enemy strengths {leaked}"
        assert '"truth"' not in everything and "true_answer" not in everything
