"""Everything a side may receive from a game, and the only way it receives anything (1.6: «the
players know only what the mediator tells them»).

A side (a team at its screen, the command line with `--side`) talks to a game through
`channel(game, side)`: what it sees of the map (`strategia.game.views`), what it is told of each
result (`strategia.game.accounts`), its questions and answers without their truth, its battle
reports, the mediator's announcements, its orders of the turn, its score once the war is over.
It gives orders and asks questions through the same channel: its orders read against its own
units only (`side_context`), its questions against what it knows by name
(`strategia.game.knowledge`: any designation may be asked about, and is paid for), so a refusal
never tells an enemy unit from one that does not exist, and an error carries no more than the
side may know.

The mediator's interventions (9.4: weather closing a road) are announced to every side
(reconstructed: the seeds do not say who hears them; a closed road is seen by anyone on it).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from strategia.core.errors import StrategiaError
from strategia.core.i18n import Lang, Text
from strategia.core.numbers import num
from strategia.engine.battle_record import BattleRecord
from strategia.engine.result import Result
from strategia.explain.trace import Explained, Folded, Step
from strategia.game import war_news
from strategia.game.accounts import Told, told
from strategia.game.game import Game, GameError
from strategia.game.order_words import order_in, question_in
from strategia.game.report_render import fight_cell
from strategia.game.report_strike import side_facts
from strategia.game.side_context import side_context
from strategia.game.views import SideView, view_for
from strategia.notation.orders import parse_order
from strategia.rules import RuleSet
from strategia.rules.kinds import side_name
from strategia.theatre.scenario import Scenario

ANSWER_KEYS = ("turn", "question", "answer")  # what a side is told of its own answers


@dataclass(frozen=True)
class SideChannel:
    """One side's window on a game (see the module)."""

    game: Game
    side: str  # the side's key: red, blue, green, black
    move: int | None = None  # a computer's move: the turn its commands are for (else refused)

    # --- what the side receives ------------------------------------------------------------

    def view(self, turn: int | None = None) -> SideView:
        """The map as the side sees it now (or at the start of an earlier turn)."""
        state = self.game.state_at(turn) if turn is not None else self.game.state
        return view_for(state, self.side, self.game.rules, self.answers())

    def answers(self) -> list[dict[str, Any]]:
        """The side's questions and the answers it was given, never whether they were true."""
        return [
            {k: a[k] for k in ANSWER_KEYS if k in a}
            for a in self.game.answers
            if a.get("side") == self.side
        ]

    def questions_left(self) -> float:
        """What is left of the side's reconnaissance budget (8.3)."""
        from strategia.game import recon

        b = recon.budget(self.game.state, self.side, self.game.rules, self.game.answers)
        return b.left

    def told(self) -> list[dict[str, Any]]:
        """The side's journal: what it was told of each result (its own orders with their
        outcome, the battles it fought as it saw them), its answers, the announcements, and its
        orders sealed for the turn (level 3), the start of the war as it may hear of it (9.1,
        `war_news`), in the order they happened."""
        return [d for _, d in self.told_entries()]

    def told_entries(self) -> list[tuple[int, dict[str, Any]]]:
        """`told`, each item with the journal entry it came from."""
        out: list[tuple[int, dict[str, Any]]] = []
        for seq, turn, _, r in self.game.results:
            t = told(r, self.side)
            if t is not None:
                out.append((seq, {"kind": "result", "turn": turn, **t.to_json()}))
        for seq, a in self.game.asked:
            if a.get("side") == self.side:
                out.append((seq, {"kind": "answer", **{k: a[k] for k in ANSWER_KEYS if k in a}}))
        for seq, turn, d in self.game.notes:
            out.append((seq, {"kind": "announcement", "turn": turn, "text": d["text"]}))
        for n in war_news.news(self.game, self.side):
            out.append((n.seq, {"kind": "war", "turn": n.turn, "text": n.text.to_json()}))
        out += self._decisions()
        if self.game.phase == "peace":  # a computer player's reasons: its own, after the war
            out += [(seq, {"kind": "decision", **d}) for seq, d in self.game.decisions(self.side)]
        for seq, who, order in self.game.queued:
            if who == self.side:
                out.append((seq, {"kind": "sealed", "turn": self.game.state.turn,
                                  "order": order.format("ru")}))  # fmt: skip
        return sorted(out, key=lambda x: x[0])

    def journal_text(self, lang: Lang = "ru") -> str:
        """The side's journal as text."""
        who = side_name(self.side, lang, capital=True)
        lines = [f"«{self.game.scenario.name}» — {who}"]
        turn = 0
        for d in self.told():
            if d.get("turn") != turn:
                turn = d.get("turn", turn)
                lines.append(f"\n{TOLD_WORDS[lang][0]} {turn}")
            lines.append(f"  {told_line(d, lang)}")
        return "\n".join(lines)

    def fights(self, turn: int | None = None, at: str | None = None) -> list[tuple[int, Result]]:
        """The side's battles and strikes, each as the side saw it (its account, no breakdown),
        as (turn, result) for the battle reports (`strategia.game.report_render`)."""
        out = []
        for _, t, _, r in self.game.results:
            account = told(r, self.side)
            if account is None:
                continue
            own = r.by == self.side and r.explanation.rule == "9.7"  # its own battery's fire
            rec = account.battle
            if rec is None and own and (cell := fight_cell(r)) is not None:
                rec = BattleRecord(f"{cell[0]},{cell[1]}", self.side, "", "strike", side=self.side)
            if rec is None:
                continue
            if (turn is not None and t != turn) or (at is not None and rec.target != at):
                continue
            facts = Folded(r.explanation.head(), partial(side_facts, r.explanation))
            out.append((t, _as_result(replace(account, battle=rec), facts if own else None)))
        return out

    def war(self) -> Text | None:
        """The start of the war as the side was told it (9.1; None: not at war yet)."""
        return war_news.banner(self.game.state, self.side)

    def score(self) -> Explained[float]:
        """The side's score, told when the war is over (1.1, 1.5); refused before."""
        if self.game.phase != "peace":
            raise GameError(
                "the score is told when the war is over (1.1)",
                ru="счет сообщается по окончании войны (1.1)",
            )
        return self.game.score(self.side)

    def scenario(self) -> Scenario:
        """The map and what the side's own commanders hold (5.5): the theatre, the states and
        the settings, and the order of battle and mobilisation plan of the side's own states
        only, never another state's forces."""
        sc = self.game.scenario
        own = {s.code for s in sc.states if s.side == self.side}
        return replace(sc, forces=tuple(f for f in sc.forces if f.state in own))

    def rules(self) -> RuleSet:
        """The rules in play, house rules included (0.3: written down and handed to all)."""
        return self.game.rules

    def status(self) -> dict[str, Any]:
        """The game's public state: turn, whose move, level, phase, war, the planning clock."""
        g = self.game
        return {
            "side": self.side,
            "turn": g.state.turn,
            "to_move": g.side,
            "simultaneous": g.simultaneous,
            "level": g.level,
            "phase": g.phase,
            "at_war": g.state.at_war,
            "clock_seconds_left": g.clock(),
        }

    # --- what the side gives -----------------------------------------------------------------

    def position(self) -> int:
        """The journal position the side's screen shows (after catching up): what its next
        command is decided on, passed back as `at`."""
        return self.game.refresh().position

    def order(
        self, text: str, reason: dict[str, Any] | None = None, at: int | None = None
    ) -> Told | None:
        """Give an order as the side; what the side is told of it (None: sealed until the
        mediator ends the turn, level 3). `reason`, a computer player's decision (its goal and
        reason as JSON), is kept beside the order in the same command (`Game.decide`). `at`:
        the position the side decided on (`position`): refused if the side has been told of
        anything since (`strategia.game.positions`), never for what it was not told."""
        order = parse_order(text, side_context(self.game.state, self.side))
        if reason is not None:
            r = self.game.decide(self.side, reason, order.format("ru"), at=at, move=self.move)
        else:
            r = self.game.order(
                order.format("ru"), self.side, at=at, seen_as=self.side, turn=self.move
            )
        if r is None:
            return None
        return told(r, self.side) or Told(order.format("ru"), r.outcome)

    def note(self, reason: dict[str, Any]) -> None:
        """Keep a computer player's decision that gives no order (its plan for the move, a
        sector held): journalled for the mediator, told to the side after the war only."""
        self.game.decide(self.side, reason, move=self.move)

    def ask(self, text: str, at: int | None = None) -> dict[str, Any]:
        """Ask a reconnaissance question (8.3); the answer as the side hears it. Any
        well-formed question is paid for; a unit the side cannot find is «не обнаружена».
        `at`: as for `order`."""
        a = self.game.ask(self.side, text, at=at, seen_as=self.side, turn=self.move)
        return {k: a[k] for k in ANSWER_KEYS if k in a}

    # --- helpers -----------------------------------------------------------------------------

    def _decisions(self) -> list[tuple[int, dict[str, Any]]]:
        """The mediator's decisions on the side's sealed orders (rejected, amended), with the
        note the side is told, and the moves' time extended (every side hears of it, 1.9)."""
        g, out = self.game, []
        store = g.journal
        now: dict[int, str] = {}  # each sealed order as the mediator's amendments left it
        for seq in sorted(store.seqs("extend") + store.seqs("reject") + store.seqs("amend")):
            e = store.entry(seq)
            if e.kind == "extend":
                d = {"kind": "extend", "turn": g.turn_of(seq), "minutes": e.data["minutes"]}
                out.append((e.seq, d | ({"text": e.data["note"]} if e.data.get("note") else {})))
                continue
            order = store.entry(of) if 1 < (of := int(e.data["of"])) < seq else None
            if order is None or order.kind != "order" or order.data.get("side") != self.side:
                continue
            d = {"kind": e.kind, "turn": g.turn_of(seq), "text": str(e.data.get("note", "")),
                 "was": now.get(of, str(order.data.get("order", "")))}  # fmt: skip
            if "order" in e.data:
                d["order"] = now[of] = e.data["order"]
            out.append((e.seq, d))
        return out


TOLD_WORDS = {"ru": ("Ход", "вопрос", "посредник", "к исполнению", "решение"),
              "en": ("Turn", "question", "mediator", "sealed", "decision")}  # fmt: skip


def told_line(d: dict[str, Any], lang: Lang) -> str:
    """One thing a side was told (an item of `SideChannel.told`), as its journal writes it."""
    words = TOLD_WORDS[lang]
    if d["kind"] == "result":
        order = f"{order_in(d['order'], lang)}  →  " if "order" in d else ""
        return f"{order}{Text.of(d['text'])(lang)}"
    if d["kind"] == "answer":
        answer = d["answer"][lang] if isinstance(d["answer"], dict) else d["answer"]
        return f"[{words[1]}] {question_in(d['question'], lang)}  →  {answer}"
    if d["kind"] == "extend":
        note = f": {d['text']}" if d.get("text") else ""
        return f"[{words[2]}] {_extended(d['minutes'], lang)}{note}"
    if d["kind"] == "war":
        return f"[{words[2]}] {Text.of(d['text'])(lang)}"
    if d["kind"] == "decision":  # the side's own computer player's reason (issue 26)
        return f"[{words[4]}] {Text.of(d['text'])(lang)}"
    if d["kind"] in ("reject", "amend") and d.get("was"):
        return f"[{words[2]}] {settled(d, lang)}"
    if d["kind"] in ("announcement", "reject", "amend"):
        amended = f" → {order_in(d['order'], lang)}" if "order" in d else ""
        return f"[{words[2]}] {d['text']}{amended}"
    return f"[{words[3]}] {order_in(d['order'], lang)}"


def settled(d: dict[str, Any], lang: Lang) -> str:
    """The mediator's decision on a sealed order (an item of `SideChannel.told`, "reject" or
    "amend"), naming the order: «отклонен приказ «…»: пометка»."""
    was = order_in(str(d.get("was", "")), lang)
    if d["kind"] == "reject":
        said = Text(f"order «{was}» rejected", f"отклонен приказ «{was}»")
    else:
        new = order_in(str(d.get("order", "")), lang)
        said = Text(f"order «{was}» amended to «{new}»", f"приказ «{was}» исправлен на «{new}»")
    return f"{said(lang)}: {d['text']}" if d.get("text") else said(lang)


def _extended(minutes: float, lang: Lang) -> str:
    m = num(minutes, lang)
    if lang == "en":
        return f"time for the move extended by {m} min"
    return f"время хода продлено на {m} мин"


def _as_result(t: Told, facts: Step | None = None) -> Result:
    """A side's account as a result the battle reports read (no breakdown, no cuts; of its own
    battery's fire, the facts of it: `report_strike.side_facts`, worked out when read)."""
    return Result(t.order or "", t.text, facts or Step(t.text), (), battle=t.battle)


def channel(game: Game, side: str, move: int | None = None) -> SideChannel:
    """The channel of `side` ("red", "Blue", "синие"...) to `game`; a GameError for a side
    not in the game. `move`: a computer's move, the turn it was claimed for; its orders,
    questions and notes are refused (`StaleError`) once that move is over."""
    key = game.known_side(side)
    return SideChannel(game, key, move)


def refusal(error: BaseException, lang: Lang = "en") -> str:
    """An error as a side is told it: its message (each one a side can get is written to say
    only what the side may know; anything else becomes a plain refusal)."""
    if isinstance(error, StrategiaError):
        return error.say(lang)
    return "не удалось выполнить" if lang == "ru" else "could not be carried out"


__all__ = ["TOLD_WORDS", "SideChannel", "channel", "refusal", "settled", "told_line"]
