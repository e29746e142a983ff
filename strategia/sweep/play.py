"""One game of a sweep, as a worker plays it: the same `Game` as any other, every side's computer
player moving through its side's channel, its store not durable (`strategia.game.store`: the
game is played again if the worker is lost), in a scratch folder removed after it.

`play_task` is the task a sweep sends to Dask (`strategia.sweep.run`): a plain function of its
`GameTask`, so the same task gives the same course wherever and however often it runs.
"""

from __future__ import annotations

import hashlib
import tempfile
from contextlib import suppress
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import xarray as xr

from strategia.engine import flow
from strategia.game.channel import channel
from strategia.game.course import course
from strategia.game.file_access import file_bytes
from strategia.game.game import Game
from strategia.game.positions import StaleError, holder
from strategia.players import Player
from strategia.sweep.spec import GameTask, winner_of
from strategia.theatre.scenario import Scenario
from strategia.theatre.scenario_io import parse_scenario


@dataclass(frozen=True)
class Played:
    """A game played: which it was, its course of the war (`strategia.game.course`), its
    outcome (`strategia.sweep.spec.winner_of`), and the game file's bytes when it is to be
    kept (asked for, and its outcome one of the task's `keep_only` if it names any)."""

    variant: int
    game: int
    course: xr.Dataset
    winner: str
    file: bytes | None = None


@lru_cache(maxsize=4)
def _scenario(text: str) -> Scenario:
    """The scenario of a text, parsed once a worker."""
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]
    return parse_scenario(text, f"sweep scenario {digest}")


def play_game(g: Game, players: dict[str, Player], until: int | None = None) -> int:
    """The computer's sides played until turn `until` is over, a side no computer plays, or
    the end of the war (`strategia game auto` plays the same way); the entry the run began
    after (its decisions follow it)."""
    start = g.journal.last_seq
    me = holder()
    while g.phase != "peace" and (until is None or g.state.turn <= until):
        g.refresh()
        due, turn = g.computer_due(players), g.state.turn
        for side in due:
            if not g.claim(side, turn, by=me):
                return start  # another process plays this move (`Game.claim`): left to it
            with suppress(StaleError):  # the move was ended meanwhile: the rest not given
                players[side].move(channel(g, side, move=turn))
        if g.simultaneous:
            if not all(s in players for s in flow.sides_in_order(g.state, g.rules)):
                break
        elif not due:
            break
        try:
            g.end_turn(side=None if g.simultaneous else due[0], turn=turn)
        except StaleError:
            return start  # the move was ended meanwhile (by the mediator): nothing ended twice
    return start


def play_task(task: GameTask) -> Played:
    """Play the game `task` describes and read its course (see the module)."""
    with tempfile.TemporaryDirectory(prefix="strategia-sweep-") as scratch:
        folder = Path(scratch)
        house = []
        for k, (name, text) in enumerate(task.house):
            path = folder / f"house-{k}" / Path(name).name
            path.parent.mkdir()
            path.write_text(text, encoding="utf-8")
            house.append(str(path))
        path = folder / f"game-{task.variant}-{task.game}.game"
        settings = task.settings()
        g = Game.new(
            _scenario(task.scenario_text), path, level=task.level, seed=task.seed,
            house=house, computer=settings, durable=False,
        )  # fmt: skip
        try:
            players = {side: Player.of_settings(side, s) for side, s in settings.items()}
            play_game(g, players, task.turns)
            ds = course(g)
        finally:
            g.journal.close()
        contenders = list(task.contenders)
        last = ds["score"].isel(turn=-1).sel(side=contenders).values
        winner = winner_of([float(x) for x in last], contenders)
        wanted = task.keep and (not task.keep_only or winner in task.keep_only)
        kept = file_bytes(path) if wanted else None
    return Played(task.variant, task.game, ds, winner, kept)


__all__ = ["Played", "play_game", "play_task"]
