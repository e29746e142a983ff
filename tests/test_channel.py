"""A side's channel to a game (issue 15): sealed orders at level 3 and the mediator's decisions
on them, orders out of turn, a side named in any spelling, the score after the war."""

from __future__ import annotations

from pathlib import Path

import pytest

from strategia.core.errors import StrategiaError
from strategia.game.channel import channel
from strategia.game.game import Game, GameError

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ROOT / "maps" / "continental.toml"


def test_sealed_orders_the_mediator_rejects_or_amends(tmp_path: Path) -> None:
    g = Game.new(DEFAULT, tmp_path / "g.game", level=3)
    red, blue = channel(g, "red"), channel(g, "blue")
    assert red.order("21 т.д. на 35,35") is None and red.order("1 с.д. на 31,34") is None
    assert blue.order("101 с.д. на 28,33") is None
    seen = g.submitted()
    assert [(s["side"], s["order"]) for s in seen] == [
        ("red", "21 т.д. на 35,35"),
        ("red", "1 с.д. на 31,34"),
        ("blue", "101 с.д. на 28,33"),
    ]
    assert all(s["time"] for s in seen)
    first, second = seen[0]["seq"], seen[1]["seq"]
    with pytest.raises(GameError, match="a note is needed"):
        g.reject(first, " ")
    g.reject(first, "21 т.д. в резерве фронта")
    g.amend(second, "1 с.д. на 31,33", "сосед занял 31,34")
    with pytest.raises(StrategiaError, match="no such unit 21 т.д."):
        g.amend(seen[2]["seq"], "21 т.д. на 1,1", "a red unit in a blue order")
    assert [s["order"] for s in g.submitted()] == ["1 с.д. на 31,33", "101 с.д. на 28,33"]
    told = red.told()
    assert {"kind": "reject", "turn": 1, "text": "21 т.д. в резерве фронта",
            "was": "21 т.д. на 35,35"} in told  # fmt: skip
    assert any(d["kind"] == "amend" and d["order"] == "1 с.д. на 31,33" for d in told)
    assert not any(d["kind"] in ("reject", "amend") for d in blue.told())
    assert "31,33" not in blue.journal_text("ru") and "35,35" not in str(blue.told())
    done = [r.order for r in g.end_turn()]
    assert "1 с.д. на 31,33" in done and not any("21 т.д." in o for o in done)
    again = Game.open(g.journal.path, verify=True)
    assert not [p for p in again.replay_problems if not p.startswith("note: ")]


def test_a_decision_on_a_sealed_order_names_the_order_to_its_side(tmp_path: Path) -> None:
    """What Red's journal says of the mediator's decisions: the order rejected or amended, by
    its words, with the note; an order amended twice is named as the first amendment left it."""
    g = Game.new(DEFAULT, tmp_path / "g.game", level=3)
    red = channel(g, "red")
    red.order("21 т.д. на 35,35")
    red.order("1 с.д. на 31,34")
    first, second = (s["seq"] for s in g.submitted())
    g.reject(first, "дорога занята")
    g.amend(second, "1 с.д. на 31,33", "сосед занял 31,34")
    g.amend(second, "1 с.д. на 32,33", "и 31,33 занята")
    ru, en = red.journal_text("ru"), red.journal_text("en")
    assert "[посредник] отклонен приказ «21 т.д. на 35,35»: дорога занята" in ru
    assert "[посредник] приказ «1 с.д. на 31,34» исправлен на «1 с.д. на 31,33»: сосед " in ru
    assert "приказ «1 с.д. на 31,33» исправлен на «1 с.д. на 32,33»: и 31,33 занята" in ru
    assert "[mediator] order «21 TD to 35,35» rejected: дорога занята" in en
    assert "[mediator] order «1 RD to 31,34» amended to «1 RD to 31,33»: сосед " in en
    assert "order «1 RD to 31,33» amended to «1 RD to 32,33»" in en


def test_a_side_orders_only_on_its_move(tmp_path: Path) -> None:
    g = Game.new(DEFAULT, tmp_path / "g.game", level=2)
    assert g.side == "red"
    with pytest.raises(GameError, match="it is Red's move, not Blue's"):
        channel(g, "blue").order("101 с.д. на 28,33")
    told = channel(g, "Красные").order("21 т.д. на 35,35")
    assert told is not None and told.order == "21 т.д. на 35,35"


def test_the_budget_is_one_whatever_the_spelling(tmp_path: Path) -> None:
    """`--side Blue` and `--side blue` are one side (the first version answered the one after
    refusing the other)."""
    assert {
        channel(Game.new(DEFAULT, tmp_path / f"{n}.game"), n).side for n in ("Blue", "синие", "b")
    } == {"blue"}


def test_the_score_is_told_after_the_war(tmp_path: Path) -> None:
    g = Game.new(DEFAULT, tmp_path / "g.game", level=2)
    with pytest.raises(GameError, match="when the war is over"):
        channel(g, "red").score()
    g.end_game()
    assert channel(g, "red").score().value == g.score("red").value
