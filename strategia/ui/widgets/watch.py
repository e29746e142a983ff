"""Catching up with the other writers of a game (the mediator's console, the teams' screens, a
command line): every half second a screen asks the game for entries appended since it looked,
in the kernel's event loop, and redraws if any came. The game store makes the look cheap (one
query for entries after the last seen) and safe beside writers in other processes."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from contextlib import suppress

from strategia.core.errors import StrategiaError
from strategia.game.game import Game

EVERY_SECONDS = 0.5


def caught_up(game: Game, redraw: Callable[[], None]) -> bool:
    """Take in what other writers appended to `game`; `redraw` if anything came (True)."""
    before = game.journal.last_seq
    game.refresh()
    if game.journal.last_seq == before:
        return False
    redraw()
    return True


def watch(catch_up: Callable[[], object]) -> asyncio.Task[None] | None:
    """Call `catch_up` every EVERY_SECONDS in the running event loop (None outside one)."""

    async def loop() -> None:
        while True:
            await asyncio.sleep(EVERY_SECONDS)
            with suppress(StrategiaError, OSError):
                catch_up()

    try:
        return asyncio.get_event_loop().create_task(loop())
    except RuntimeError:
        return None


__all__ = ["EVERY_SECONDS", "caught_up", "watch"]
