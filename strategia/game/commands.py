"""What every game command shares: one write transaction after catching up with the other
writers, the checks that the game is still played, and whose a side or an order is."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from strategia.core.collector import collector_paused
from strategia.engine import flow
from strategia.engine.result import OrderError
from strategia.game.history import GameError, History
from strategia.game.positions import StaleError, stale, stale_error
from strategia.notation.orders import Order
from strategia.rules.kinds import Side, side_name

T = TypeVar("T")


class Commands(History):
    """A game's history with the means to add to it: `_command` runs a command's body."""

    def _command(
        self, body: Callable[[], T], at: int | None = None, seen_as: str | None = None
    ) -> T:
        """Run a command in one write transaction: what others appended is taken in first;
        if anything fails, nothing is written and this game is as it was. (A command within
        another is part of it.) `at`: the position the command was decided on, by the mediator
        (`seen_as` None) or a side; refused (`StaleError`) if the journal has moved on from it
        in anything the decider would have seen (`strategia.game.positions`)."""
        if self.journal.in_transaction:
            self._still_at(at, seen_as)
            return body()
        saved: dict[str, Any] | None = None
        try:
            with collector_paused(), self.journal.transaction() as new:
                self._take(new)
                self._still_at(at, seen_as)
                saved = {k: list(v) if isinstance(v, list) else v for k, v in self.__dict__.items()}
                out = body()
                self.seen = self.journal.last_seq
            return out
        except BaseException:
            if saved is not None:
                self.__dict__.update(saved)
            raise

    def _still_at(self, at: int | None, seen_as: str | None) -> None:
        """Refuse a command decided at entry `at` if the journal has moved on from it."""
        if at is None:
            return
        last = self.journal.last_seq
        if not 1 <= at <= last:
            raise StaleError(
                f"position {at}: this game's journal has entries 1 to {last}",
                ru=f"позиция {at}: в журнале этой игры записи с 1 по {last}",
            )
        after = self.journal.between(at, last)
        changed = stale(after, seen_as, self.journal.entry)
        if changed:
            raise stale_error(at, last, changed, seen_as)

    @property
    def position(self) -> int:
        """The journal position this game shows: the last entry it has taken in."""
        return self.seen

    def _move_is(self, side: str | None, turn: int | None) -> None:
        """Refuse a command meant for the move of `side` in `turn` once that move is over."""
        wrong_side = (
            side is not None and not self.simultaneous and self.known_side(side) != self.side
        )
        if not wrong_side and (turn is None or turn == self.state.turn):
            return
        meant = side_name(self.known_side(side), "en") if side is not None else "the move"
        meant_ru = side_name(self.known_side(side), "ru", "gen") if side is not None else ""
        turn_en = f" in turn {turn}" if turn is not None else ""
        turn_ru = f" в ходе {turn}" if turn is not None else ""
        now, now_ru = side_name(self.side, "en"), side_name(self.side, "ru")
        raise StaleError(
            f"the move of {meant}{turn_en} is over: it is now {now}'s move in turn "
            f"{self.state.turn}; nothing was done",
            ru=f"ход {meant_ru}{turn_ru} уже окончен: сейчас ход {self.state.turn}, ходят "
            f"{now_ru}; ничего не сделано".replace("ход  ", "ход "),
        )

    def claim(self, side: str, turn: int, by: str = "", at: int | None = None) -> bool:
        """Claim the computer's move of `side` in `turn` for the caller (`by`: who, for the
        record): True if this call claimed it, False if it was claimed already, by this process
        or another. A computer's move is played only by the one that claimed it."""

        def body() -> bool:
            who = self.known_side(side)
            for seq in reversed(self.journal.seqs("claim")):
                d = self.journal.entry(seq).data
                if int(d.get("turn", 0)) < turn:
                    break
                if d.get("side") == who and int(d.get("turn", 0)) == turn:
                    return False
            self.journal.append("claim", {"side": who, "turn": turn, "by": by})
            return True

        return self._command(body, at)

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
