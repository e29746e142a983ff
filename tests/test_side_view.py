"""A side's view in the console holds nothing of the mediator's: with the view set to a side,
the widgets the page shows (every tab) carry no truth view, no computer player's settings or
last move, no sealed order of another side and no intervention being typed; back in the
mediator's view they are all there again. (The browser test in tests/test_browser.py reads the
page's text the same way.)"""

from __future__ import annotations

from pathlib import Path

import ipywidgets as w
import pytest

from strategia.game.game import Game
from strategia.players import settings
from strategia.ui.console import Console

ROOT = Path(__file__).parents[1]
DEFAULT = ROOT / "maps" / "continental.toml"
SECRET_NOTE = "секретная вводная 7"


def shown_text(widget: w.Widget) -> str:
    """The text of every widget `widget` shows, children and tabs included: values of HTML,
    labels and text boxes, descriptions, options, placeholders."""
    out: list[str] = []

    def walk(x: w.Widget) -> None:
        for attr in ("value", "description", "placeholder", "tooltip"):
            v = getattr(x, attr, None)
            if isinstance(v, str):
                out.append(v)
        for label in getattr(x, "_options_labels", ()) or ():
            out.append(str(label))
        for child in getattr(x, "children", ()) or ():
            walk(child)
        titles = getattr(x, "titles", None)
        if titles:
            out.extend(str(t) for t in titles)

    walk(widget)
    return "\n".join(out)


@pytest.fixture
def console(tmp_path: Path) -> Console:
    """Level 3 at war-less turn 1: Blue played by the computer (bold), a Blue order sealed, the
    mediator typing an intervention and comparing Red's picture with the truth."""
    g = Game.new(DEFAULT, tmp_path / "war.game", level=3)
    g.play_by_computer("blue", settings("blue", "bold", "attack@3"))
    g.order("121 т.д. поворот на север", side="blue")
    c = Console(g, lang="ru", games=tmp_path / "games")
    c.panels.mediator.note.value = SECRET_NOTE
    c.show_truth("red")
    return c


def _mediator_only(text: str) -> list[str]:
    marks = [SECRET_NOTE, "121 т.д. поворот на север", "Картина стороны и действительность",
             "Компьютерные игроки", "смелый"]  # fmt: skip
    return [m for m in marks if m in text]


def test_a_sides_view_shows_nothing_of_the_mediators(console: Console) -> None:
    before = shown_text(console.widget)
    assert len(_mediator_only(before)) == 5
    for side in ("red", "blue"):
        console.set_viewer(side)
        text = shown_text(console.widget)
        leaked = _mediator_only(text)
        # Blue's own sealed order is Blue's to see (its orders list, its Undo)
        assert leaked == ([] if side == "red" else ["121 т.д. поворот на север"]), (side, leaked)
        assert "инструменты посредника" in text and "скрыты" in text
        assert console.panels.recon_side.disabled
    console.set_viewer("mediator")
    assert _mediator_only(shown_text(console.widget)) == _mediator_only(before)
    assert console.panels.mediator.note.value == SECRET_NOTE  # kept, not lost, while hidden
