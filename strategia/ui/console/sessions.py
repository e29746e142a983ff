"""Where the console's games live: a new game of a scenario goes to the games folder; the game
the console plays is remembered for what it was started on (a scenario, or a game file), so a
reloaded page resumes it, whether it is that game, a game opened since or a fork."""

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
        remember(games, path, g.journal.path)
        return g
    return Game.open(path)


def fork_into(game: Game, seq: int, games: Path) -> Game:
    """A new game in the games folder from `game` as it was after entry `seq` (`game.fork`)."""
    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    games.mkdir(parents=True, exist_ok=True)
    return fork(game, games / f"{game.journal.path.stem}-from-{seq}-{stamp}.game", entry=seq)


def _key(target: Path) -> str:
    """The pointer's name for a console started on `target`: a scenario by its name, a game
    by its file's name (so that war.toml and war.game do not share one)."""
    return f"{target.stem}.txt" if target.suffix == ".toml" else f"{target.name}.txt"


def pointer(games: Path, target: Path) -> Path | None:
    """The game the console started on `target` played last, if it is still there."""
    p = games / POINTER / _key(target)
    if not p.is_file():
        return None
    last = Path(p.read_text(encoding="utf-8").strip())
    return last if last.is_file() else None


def remember(games: Path, target: Path, game: Path) -> None:
    """Remember `game` as the one the console started on `target` plays."""
    folder = games / POINTER
    folder.mkdir(parents=True, exist_ok=True)
    (folder / _key(target)).write_text(str(game.resolve()), encoding="utf-8")
