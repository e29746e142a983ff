"""The mediator's commands (1.4, 9.3, 9.4): interventions, sealed orders rejected or amended
(level 3), undo, the end of the war, the planning clock extended (1.9), and which sides a
computer player plays (`strategia.players`; the settings only: the game never runs a player)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection
from dataclasses import replace
from typing import Any

from strategia.core.geometry import Cell
from strategia.core.i18n import Text
from strategia.core.numbers import num
from strategia.core.numbers import turns as turns_text
from strategia.engine import flow
from strategia.explain.render import rule_label
from strategia.explain.trace import Step
from strategia.game.clock import Clock, clock_of
from strategia.game.commands import Commands
from strategia.game.history import GameError
from strategia.game.order_words import order_in
from strategia.game.positions import StaleError
from strategia.game.side_context import side_context
from strategia.game.store import Entry
from strategia.notation.orders import parse_order
from strategia.notation.refs import IllegalNotationError
from strategia.rules.kinds import side_name
from strategia.theatre import terrain


class Mediation(Commands):
    """The commands a mediator gives, beside the sides' orders."""

    def intervene(
        self, text: str, cell: Cell | None = None, turns: int | None = None, at: int | None = None
    ) -> str:
        """A mediator's input (9.4): a note, or weather closing the road at `cell` for `turns`
        (`at`: the position it was decided on)."""

        def body() -> str:
            self._playing()
            self._check_intervention(text, cell, turns)
            limit = int(self.rules.value("mediator", "intervention_limit_turns"))
            if self.journal.header.get("limit_interventions") and any(
                t > self.state.turn - limit for t, _ in self.interventions
            ):
                raise GameError(
                    f"the players limited interventions to one in {turns_text(limit)} (9.4)",
                    ru=f"игроки ограничили вмешательства: одно за {turns_text(limit, 'ru')} (9.4)",
                )
            entry = self.journal.append(
                "intervention", {"text": text, "cell": str(cell) if cell else None, "turns": turns}
            )
            self._intervene(entry.seq, entry.data)
            return text

        return self._command(body, at)

    def submitted(self) -> list[dict[str, Any]]:
        """The orders sealed for this turn (level 3), as the mediator sees them: entry, side,
        order (as amended), when it was given, and the mediator's notes on it."""
        notes: dict[int, list[str]] = {}
        move = self.journal.move()  # the orders sealed, and the decisions, are this turn's
        for e in move:
            if e.kind in ("reject", "amend"):
                notes.setdefault(int(e.data["of"]), []).append(str(e.data.get("note", "")))
        times = {e.seq: e.time for e in move if e.kind == "order"}
        return [
            {"seq": seq, "side": side, "order": order.format("ru"), "time": times.get(seq, ""),
             "notes": notes.get(seq, [])}
            for seq, side, order in self.queued
        ]  # fmt: skip

    def reject(self, seq: int, note: str, at: int | None = None) -> None:
        """The mediator rejects a sealed order (level 3), with a note the side is told."""
        self._settle_command(seq, None, note, at)

    def amend(self, seq: int, text: str, note: str, at: int | None = None) -> None:
        """The mediator amends a sealed order (level 3) to `text`, with a note the side is told."""
        self._settle_command(seq, text, note, at)

    def _settle_command(self, seq: int, text: str | None, note: str, at: int | None) -> None:
        def body() -> None:
            self._playing()
            if not note.strip():
                raise GameError(
                    "a note is needed: the side is told why",
                    ru="нужна пометка: сторона узнает почему",
                )
            sealed = {s: (side, o) for s, side, o in self.queued}
            if seq not in sealed:
                raise GameError(
                    f"entry {seq}: no order sealed for this turn",
                    ru=f"запись {seq}: такого приказа на этот ход нет",
                )
            data: dict[str, Any] = {"of": seq, "note": note}
            if text is not None:
                side = sealed[seq][0]
                order = parse_order(text, side_context(self.state, side))
                if self._side_of_order(order) != side:
                    raise GameError(
                        f"{text}: {side_name(side, 'en')} has no unit {order.unit} on the map",
                        ru=f"{text}: у {side_name(side, 'ru', 'gen')} нет {order.unit} на карте",
                    )
                data["order"] = order.format("ru")
            self.journal.append("reject" if text is None else "amend", data)
            self._settle(seq, data.get("order"))

        self._command(body, at)

    def undoable(self) -> Entry | None:
        """The entry `undo` would take back: the last order or intervention of the current move
        not taken back yet (None if there is none)."""
        move = self.journal.move()
        undone = {int(e.data["of"]) for e in move if e.kind == "undo"}
        for e in reversed(move):
            if e.kind in ("end-turn", "game"):
                return None
            if e.kind in ("order", "intervention") and e.seq not in undone:
                return e
        return None

    def undo(self, of: int | None = None, at: int | None = None) -> Entry:
        """Take back the last order or intervention of the current move (levels 1-2), one after
        another; the entry taken back. `of`: the entry the mediator sees it would take back,
        refused if that is no longer the one (another order came since); refused too once a
        side has acted on it (a question asked since: its answer was drawn on the position
        with it) or another side has given an order since."""

        def body() -> Entry:
            self._playing()
            last = self.undoable()
            if last is None:
                raise GameError(
                    "nothing to undo in this move: only the move's orders and interventions "
                    "can be taken back",
                    ru="в этом ходе нечего отменять: отменить можно только приказы и "
                    "вмешательства этого хода",
                )
            if of is not None and of != last.seq:
                raise StaleError(
                    f"entry {of} is no longer the last order or intervention of this move "
                    f"(entry {last.seq} is: {_what(last, 'en')}): nothing was taken back",
                    ru=f"запись {of} уже не последний приказ или вмешательство этого хода "
                    f"(последняя — запись {last.seq}: {_what(last, 'ru')}): ничего не отменено",
                )
            self._not_acted_on(last)
            self.journal.append("undo", {"of": last.seq})
            self._reload()
            return last

        return self._command(body, at)

    def _not_acted_on(self, last: Entry) -> None:
        """Refuse to take back `last` once a question was asked after it (its answer was drawn
        on the position with it) or another side gave an order after it."""
        mine = last.data.get("side")
        since = self.journal.between(last.seq, self.journal.last_seq)
        undone = {int(e.data["of"]) for e in since if e.kind == "undo"}
        for e in since:
            if e.seq in undone:
                continue
            asked = e.kind == "ask"
            ordered = e.kind == "order" and e.data.get("side") != mine
            if asked or ordered:
                who = str(e.data.get("side", ""))
                raise GameError(
                    f"{_what(last, 'en')}: {side_name(who, 'en')} has "
                    f"{'asked a question' if asked else 'given an order'} since (entry {e.seq}): "
                    "what others acted on cannot be taken back",
                    ru=f"{_what(last, 'ru')}: после этого {side_name(who, 'ru')} "
                    f"{'задали вопрос' if asked else 'отдали приказ'} (запись {e.seq}): то, на "
                    "что уже ответили другие, отменить нельзя",
                )

    def intervention_list(self) -> list[dict[str, Any]]:
        """The interventions in force in the journal: seq, turn, text, cell and turns of each."""
        return [{"seq": seq, "turn": turn, **d} for seq, turn, d in self.notes]

    def end_game(self) -> None:
        """The war ends: peace talks (1.5); no more orders."""

        def body() -> None:
            self._playing()
            self.journal.append("phase", {"phase": "peace"})
            self.phase = "peace"

        self._command(body)

    def _check_intervention(self, text: str, cell: Cell | None, turns: int | None) -> None:
        if not any(ch.isalnum() for ch in text):  # empty, or a dash: nothing said (9.4)
            typed = f" «{text.strip()}»" if text.strip() else ""
            raise GameError(
                f"intervention{typed}: there is nothing in it; an intervention needs its text, "
                "what the mediator decides (9.4): nothing was announced",
                ru=f"вмешательство{typed}: в нем ничего нет; у вмешательства должен быть текст — "
                "что решает посредник (9.4): ничего не объявлено",
            )
        if cell is not None and not terrain.on_map(self.state.theatre, cell):
            w, h = terrain.size(self.state.theatre)
            raise IllegalNotationError(
                str(cell), f"cell off the map, which is {w} x {h}", 1, f"longitude 1..{w}"
            )
        if turns is not None and not (isinstance(turns, int) and 1 <= turns <= 1000):
            raise GameError(
                f"--turns {turns!r}: expected a whole number of turns from 1 to 1000",
                ru=f"--turns {turns!r}: нужно целое число ходов от 1 до 1000",
            )

    # --- the planning clock (1.9, 5.2) ------------------------------------------------------------

    @property
    def clocked(self) -> bool:
        """Whether the game is played with clocks (1.9)."""
        h = self.journal.header
        return bool(h.get("clock", float(h.get("clock_minutes", 0) or 0) > 0))

    def move_clock(self) -> Clock | None:
        """The clock of the move in progress (None without a clock)."""
        if not self.clocked:
            return None
        override = float(self.journal.header.get("clock_minutes", 0) or 0)
        first = self.state.turn == 1  # every side's first move is in turn 1 (1.7, 1.8)
        return clock_of(self.journal.move(), self.rules, self.level, first, override)

    def clock(self, now: dt.datetime | None = None) -> float | None:
        """Seconds left of the move on the clock (1.9, 5.2), or None without a clock."""
        c = self.move_clock()
        return None if c is None else c.left(now)

    def extend(self, minutes: float, note: str = "") -> float:
        """The mediator gives the move in progress `minutes` more (journalled; the sides are
        told); returns the seconds now left."""

        def body() -> float:
            self._playing()
            if not self.clocked:
                raise GameError(
                    "this game is played without clocks (1.9): there is no time to extend",
                    ru="игра идет без часов (1.9): продлевать нечего",
                )
            if not (isinstance(minutes, int | float) and 0 < minutes <= 120):
                raise GameError(
                    f"extend by {minutes!r} minutes: expected more than 0 and at most 120",
                    ru=f"продлить на {minutes!r} мин: нужно больше 0 и не больше 120",
                )
            self.journal.append(
                "extend", {"minutes": float(minutes), "turn": self.state.turn, "note": note}
            )
            return self.clock() or 0.0

        return self._command(body)

    # --- the sides a computer plays (issue 26) -----------------------------------------------

    def computer_sides(self) -> dict[str, dict[str, Any]]:
        """The sides a computer player plays now, each with its settings (style, posture,
        seed; a styles file's text): the header's (`game new --computer`), as the mediator
        changed them since ("computer" entries)."""
        out = {k: dict(v) for k, v in (self.journal.header.get("computer") or {}).items()}
        for seq in self.journal.seqs("computer"):  # the store's index of kinds: no scan
            data = self.journal.entry(seq).data
            side, settings = str(data["side"]), data.get("settings")
            if settings is None:
                out.pop(side, None)
            else:
                out[side] = dict(settings)
        return out

    def play_by_computer(self, side: str, settings: dict[str, Any] | None) -> None:
        """The mediator gives `side` to a computer player with `settings` (style, posture,
        seed), or back to its team (None); journalled, so that the game goes on so."""

        def body() -> None:
            self._playing()
            who = self.known_side(side)
            now = self.computer_sides().get(who)
            if now == settings or (now is None and settings is None):
                return
            data: dict[str, Any] = {"side": who, "turn": self.state.turn, "settings": settings}
            self.journal.append("computer", data)

        self._command(body)

    def decisions(
        self, side: str | None = None, turn: int | None = None
    ) -> list[tuple[int, dict[str, Any]]]:
        """The computer players' decisions (of `side` only, of `turn` only, if given), as
        (entry, decision): its turn, goal, order and reason, and `text` the reason in words in
        both languages. A decision whose order was taken back (undo) is left out."""
        from strategia.explain.render import explanation_text

        store = self.journal
        undone = {int(store.entry(s).data["of"]) for s in store.seqs("undo")}
        out = []
        for e in map(store.entry, store.seqs("decision")):
            d = e.data
            if side is not None and d.get("side") != side:
                continue
            if turn is not None and d.get("turn") != turn:
                continue
            if d.get("of") is not None and int(d["of"]) in undone:
                continue
            step = Step.from_json(d["reason"]) if isinstance(d.get("reason"), dict) else None
            if step is not None and _said_twice(step):  # a game's older decisions: «удар = удар»
                step = replace(step, value=None)
            words = {
                lang: "\n      ".join(explanation_text(step, lang)) if step else ""
                for lang in ("en", "ru")
            }
            out.append((e.seq, {**d, "text": words}))
        return out

    def computer_due(self, played: Collection[str] | None = None) -> list[str]:
        """The computer's sides (those of `played`, if given) to move now: at levels 1-2 the
        side to move if a computer plays it; at level 3 each that has given no decision this
        turn yet."""
        if self.phase == "peace":
            return []
        sides = self.computer_sides() if played is None else played
        if not self.simultaneous:
            return [self.side] if self.side in sides else []
        turn = self.state.turn
        moved = set()
        for seq in reversed(self.journal.seqs("decision")):  # the latest first, to this turn's
            data = self.journal.entry(seq).data
            if data.get("turn") != turn:
                break
            moved.add(str(data.get("side")))
        order = flow.sides_in_order(self.state, self.rules)
        return [s for s in order if s in sides and s not in moved]

    def _on_time(self, who: str, text: str, now: dt.datetime | None = None) -> None:
        """Refuse an order given after the move's time ran out (1.9); the mediator may extend."""
        c = self.move_clock()
        if c is None or not c.up(now):
            return
        m, m_ru = num(c.minutes), num(c.minutes, "ru")
        raise GameError(
            f"{text}: {side_name(who, 'en')}'s time for this move is up ({m} min, rule {c.rule}): "
            "the order is not given; the mediator may extend the time",
            ru=f"{text}: время хода {side_name(who, 'ru', 'gen')} истекло ({m_ru} мин, правило "
            f"{rule_label(c.rule, 'ru')}): приказ не отдан; посредник может продлить время",
        )


def _said_twice(step: Step) -> bool:
    """Whether a reason's first line sets its goal against a label that names it already
    («замысел хода = замысел», «121 т.д.: усиление = усиление»), as the computer's decisions
    were written before their first line was a sentence."""
    v = step.value
    return isinstance(v, Text) and any(v(lang) in step.label(lang) for lang in ("en", "ru"))


def _what(e: Entry, lang: str) -> str:
    """An order or intervention entry, named as the journal writes it."""
    if e.kind == "order":
        text = str(e.data.get("order", ""))
        return f"«{order_in(text, lang)}»" if lang == "ru" else f"'{order_in(text, lang)}'"
    text = str(e.data.get("text", ""))
    return f"вмешательство «{text}»" if lang == "ru" else f"intervention '{text}'"


__all__ = ["Mediation"]
