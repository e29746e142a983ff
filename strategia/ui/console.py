"""The mediator's console: a game, its map and its panels, in one ipywidgets box.

The console holds the game and the viewer's choices (whose view, which unit is selected); each
action is a method that calls the game (and so the engine) and redraws from what it returns, so
the tests drive the same methods the buttons do.
"""

from __future__ import annotations

import datetime as dt
import html
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import ipywidgets as w

from strategia.core.errors import StrategiaError
from strategia.core.geometry import Cell
from strategia.core.i18n import Lang, Text, check_lang
from strategia.engine.movement import reach
from strategia.engine.result import Result
from strategia.explain.render import explanation_html
from strategia.game.game import Game
from strategia.game.views import mediator_view, to_geojson, view_for
from strategia.notation.refs import UnitRef
from strategia.ui import layers
from strategia.ui.mapview import MapView
from strategia.ui.panels import Panels

T = {
    "turn": Text("Turn", "Ход"),
    "to_move": Text("to move", "ходят"),
    "phase": Text("phase", "этап"),
    "end_turn": Text("End turn", "Конец хода"),
    "execute": Text("Execute the turn", "Исполнить ход"),
    "undo": Text("Undo", "Отменить"),
    "view": Text("View", "Вид"),
    "mediator": Text("mediator", "посредник"),
    "working": Text("working…", "идет расчет…"),
    "clock": Text("clock", "часы"),
    "no_clock": Text("no clock", "без часов"),
    "cut": Text(
        "cut by the rules (9.3), for the mediator", "сокращено по правилам (9.3), для посредника"
    ),
}


def _e(text: object) -> str:
    return html.escape(str(text))


class Console:
    """A game at the mediator's table."""

    def __init__(self, game: Game, lang: str = "ru") -> None:
        self.game = game
        self.lang: Lang = check_lang(lang)
        self.viewer = "mediator"
        self.selected: UnitRef | None = None
        self.last: Result | None = None
        self.status = w.HTML()
        self.busy = w.HTML()
        self.message = w.HTML()
        self.view_choice = w.ToggleButtons(
            options=self._viewers(), value="mediator", description=T["view"](self.lang)
        )
        self.end_button = w.Button(description=self._end_label(), button_style="warning")
        self.undo_button = w.Button(description=T["undo"](self.lang))
        self.view_choice.observe(lambda ch: self.set_viewer(str(ch["new"])), names="value")
        self.end_button.on_click(lambda _: self.end_turn())
        self.undo_button.on_click(lambda _: self.undo())
        self.mapview = MapView(game.state.theatre, game.level, self.click)
        self.panels = Panels(self)
        head = w.HBox([self.status, self.view_choice, self.end_button, self.undo_button, self.busy])
        legend = w.HTML(layers.legend_html(self.lang))
        self.widget = w.VBox(
            [
                head,
                self.message,
                legend,
                w.HBox(
                    [
                        w.Box([self.mapview.map], layout=w.Layout(width="60%")),
                        w.Box([self.panels.widget], layout=w.Layout(width="40%")),
                    ]
                ),
            ]
        )
        self.refresh()

    @classmethod
    def open(
        cls,
        path: str | Path,
        lang: str = "ru",
        level: int | None = None,
        games: str | Path = "games",
    ) -> Console:
        """A console on a game file, or on a new game of a scenario file (a .toml)."""
        path = Path(path)
        if path.suffix == ".toml":
            stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
            game = Game.new(path, Path(games) / f"{path.stem}-{stamp}.game", level=level)
        else:
            game = Game.open(path)
        return cls(game, lang)

    def reopen(self, path: Path, level: int | None = None) -> None:
        """Replace this console's game by another game or a new game of a scenario."""
        other = Console.open(path, self.lang, level)
        self.__dict__.update({k: v for k, v in other.__dict__.items() if k != "widget"})
        self.widget.children = other.widget.children

    # --- what the viewer sees ---------------------------------------------------------------

    def _viewers(self) -> list[tuple[str, str]]:
        sides = sorted(
            {s.side for s in self.game.scenario.states}, key=["red", "blue", "green", "black"].index
        )
        return [(T["mediator"](self.lang), "mediator"), *((s, s) for s in sides)]

    def _end_label(self) -> str:
        return T["execute"](self.lang) if self.game.simultaneous else T["end_turn"](self.lang)

    def view(self) -> Any:
        if self.viewer == "mediator":
            return mediator_view(self.game.state, self.game.answers)
        intel = [a for a in self.game.answers if a["side"] == self.viewer]
        return view_for(self.game.state, self.viewer, self.game.rules, intel)

    def units_geojson(self) -> dict[str, Any]:
        """Exactly what the map's unit layer is sent (from the viewer's view)."""
        return layers.counters_geojson(
            to_geojson(self.view()), str(self.selected) if self.selected else None
        )

    def refresh(self) -> None:
        g = self.game
        left = g.clock()
        clock = (
            T["no_clock"](self.lang)
            if left is None
            else f"{T['clock'](self.lang)} {int(left) // 60}:{int(left) % 60:02d}"
        )
        self.status.value = (
            f"<b>{_e(g.scenario.name)}</b> — {T['turn'](self.lang)} {g.state.turn}, "
            f"<b>{_e(g.side)}</b> {T['to_move'](self.lang)}, "
            f"{T['phase'](self.lang)}: {_e(g.phase)}, {clock}"
        )
        self.mapview.show_units(self.units_geojson())
        self.panels.refresh()

    @contextmanager
    def working(self) -> Iterator[None]:
        """A progress indicator while an action runs; errors are shown, not raised."""
        self.busy.value = f"<i>⏳ {T['working'](self.lang)}</i>"
        try:
            yield
            self.message.value = ""
        except StrategiaError as e:
            self.message.value = f"<span style='color:#b00'>{_e(e)}</span>"
        finally:
            self.busy.value = ""

    # --- actions ------------------------------------------------------------------------------

    def set_viewer(self, viewer: str) -> None:
        self.viewer = viewer
        if self.selected is not None and viewer not in ("mediator", self._side_of(self.selected)):
            self.selected = None
            self.mapview.show_reach([])
        self.refresh()

    def _side_of(self, ref: UnitRef) -> str:
        return self.game.state.side_of(ref) if ref in self.game.state.units else ""

    def click(self, x: float, y: float, properties: dict[str, Any] | None = None) -> None:
        """A click on the map: a unit the viewer commands is selected; else the cell is a target."""
        cell = Cell(round(x), round(y))
        unit = properties.get("unit") if properties else None
        mine = [
            u
            for u in self.game.state.occupants(cell)
            if self.viewer in ("mediator", self.game.state.side_of(u.ref))
        ]
        if (
            unit is None
            and mine
            and (self.selected is None or self.selected not in [u.ref for u in mine])
        ):
            unit = str(mine[0].ref)
        if (
            unit is not None
            and UnitRef.parse(str(unit)) in self.game.state.units
            and (self.viewer in ("mediator", self._side_of(UnitRef.parse(str(unit)))))
        ):
            self.select(UnitRef.parse(str(unit)))
        else:
            self.panels.set_target(cell)

    def select(self, ref: UnitRef) -> None:
        with self.working():
            self.selected = ref
            r = reach(self.game.state, ref, self.game.rules)
            self.mapview.show_reach([(c.lon, c.lat) for c in r.cells()])
            self.refresh()

    def submit(self, text: str) -> Result | None:
        """Give an order in notation (for its unit's side)."""
        result = None
        with self.working():
            result = self.game.order(text)
            self.last = result
            if self.selected is not None and self.selected in self.game.state.units:
                r = reach(self.game.state, self.selected, self.game.rules)
                self.mapview.show_reach([(c.lon, c.lat) for c in r.cells()])
            self.refresh()
            self.panels.show_result(text, result)
        return result

    def end_turn(self) -> list[Result]:
        results: list[Result] = []
        with self.working():
            results = self.game.end_turn()
            self.selected = None
            self.mapview.show_reach([])
            self.refresh()
            self.panels.show_turn(results)
        return results

    def undo(self) -> None:
        with self.working():
            self.game.undo()
            self.refresh()

    def breakdown_html(self, result: Result) -> str:
        """An order's outcome, and for the mediator what was cut and the full breakdown."""
        out = f"<p><b>{_e(result.outcome(self.lang))}</b></p>"
        if self.viewer == "mediator":
            if result.cuts:
                cuts = "".join(
                    f"<li>[{_e(c.rule)}] {_e(c.reason(self.lang))}</li>" for c in result.cuts
                )
                out += f"<p style='color:#b00'>{T['cut'](self.lang)}:</p><ul>{cuts}</ul>"
            out += explanation_html(result.explanation, self.lang)
        return out
