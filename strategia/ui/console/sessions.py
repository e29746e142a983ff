"""Where the console's games live: a new game of a scenario goes to the games folder and is
remembered as the one the console plays of that scenario, so a reloaded page resumes it."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from strategia.game.fork import fork
from strategia.game.game import Game

POINTER = ".current"  # in the games folder: the game the console plays, per scenario


def open_game(path: Path, level: int | None, games: Path) -> Game:
    """A saved game, or a new game of a scenario in the games folder (remembered as the one the
    console plays of that scenario)."""
    if path.suffix == ".toml":
        stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S-%f")
        g = Game.new(path, games / f"{path.stem}-{stamp}.game", level=level)
        _remember(games, path, g.journal.path)
        return g
    return Game.open(path)


def fork_into(game: Game, seq: int, games: Path) -> Game:
    """A new game in the games folder from `game` as it was after entry `seq` (`game.fork`)."""
    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    games.mkdir(parents=True, exist_ok=True)
    return fork(game, games / f"{game.journal.path.stem}-from-{seq}-{stamp}.game", entry=seq)


def pointer(games: Path, scenario: Path) -> Path | None:
    p = games / POINTER / f"{scenario.stem}.txt"
    if not p.is_file():
        return None
    last = Path(p.read_text(encoding="utf-8").strip())
    return last if last.is_file() else None


def _remember(games: Path, scenario: Path, game: Path) -> None:
    folder = games / POINTER
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{scenario.stem}.txt").write_text(str(game.resolve()), encoding="utf-8")
