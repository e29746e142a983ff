"""What every game command shares: one write transaction after catching up with the other
writers, the checks that the game is still played, and whose a side or an order is."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from strategia.core.collector import collector_paused
from strategia.engine import flow
from strategia.engine.result import OrderError
from strategia.game.history import GameError, History
from strategia.notation.orders import Order
from strategia.rules.kinds import Side, side_name

T = TypeVar("T")


class Commands(History):
    """A game's history with the means to add to it: `_command` runs a command's body."""

    def _command(self, body: Callable[[], T]) -> T:
        """Run a command in one write transaction: what others appended is taken in first;
        if anything fails, nothing is written and this game is as it was. (A command within
        another is part of it.)"""
        if self.journal.in_transaction:
            return body()
        saved: dict[str, Any] | None = None
        try:
            with collector_paused(), self.journal.transaction() as new:
                self._take(new)
                saved = {k: list(v) if isinstance(v, list) else v for k, v in self.__dict__.items()}
                out = body()
                self.seen = self.journal.last_seq
            return out
        except BaseException:
            if saved is not None:
                self.__dict__.update(saved)
            raise

    def _playing(self) -> None:
        if self.phase == "peace":
            raise GameError(
                "the game is over: peace talks (1.5)", ru="игра окончена: мирные переговоры (1.5)"
            )

    def known_side(self, side: str) -> str:
        """`side` as the game keeps it ("Blue", "синие" and "blue" are one side); a GameError
        naming it for anything else: an empty name, "mediator", a side not in the game."""
        sides = flow.sides_in_order(self.state, self.rules)
        key = found.key if (found := Side.find(side)) is not None else side
        if key not in sides:
            empty = " (empty)" if not str(side).strip() else ""
            empty_ru = " (пусто)" if empty else ""
            raise GameError(
                f"side {side!r}{empty}: this game's sides are {', '.join(sides)}",
                ru=f"сторона «{side}»{empty_ru}: в этой игре "
                f"{', '.join(side_name(s) for s in sides)}",
            )
        return key

    def _side_of_order(self, order: Order) -> str:
        if order.unit in self.state.units:
            return self.state.side_of(order.unit)
        if order.unit.regiment is not None and order.unit.division in self.state.units:
            return self.state.side_of(order.unit.division)  # a regiment of a division (9.8c)
        members = [u for u in self.state.units.values() if u.corps == order.unit]
        if members:
            return self.state.side_of(members[0].ref)
        raise OrderError(
            f"{order}: {order.unit} is not on the map", ru=f"{order}: {order.unit} нет на карте"
        )


__all__ = ["Commands"]
