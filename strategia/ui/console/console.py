"""The mediator's console: a game, its map and its panels, in one ipywidgets box.

The console holds the game and the viewer's choices (whose view, which unit is selected, which
journal entry is shown); each action is a method that calls the game (and so the engine) and
redraws from what it returns, so the tests drive the same methods the buttons do. Opening
another game rebuilds the console in place; a page reloaded resumes the game it was playing.
"""

from __future__ import annotations

import html
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import ipywidgets as w

from strategia.core.errors import StrategiaError
from strategia.core.geometry import Cell
from strategia.core.i18n import Lang, Text, check_lang
from strategia.engine.result import Result
from strategia.engine.state import GameState
from strategia.engine.unit_reach import prepare, reach
from strategia.game import report_render as rr
from strategia.game.channel import channel
from strategia.game.game import Game, GameError
from strategia.game.last_known import last_known
from strategia.game.order_words import order_in
from strategia.game.positions import StaleError
from strategia.game.views import mediator_view, to_geojson, view_for
from strategia.game.war_news import banner
from strategia.notation.refs import UnitRef
from strategia.notation.say import say
from strategia.rules.kinds import side_name
from strategia.ui.console import head
from strategia.ui.console.battles import fight_marks
from strategia.ui.console.computer import WORDS as COMPUTER
from strategia.ui.console.computer import ComputerSides, Seats
from strategia.ui.console.panels import Panels
from strategia.ui.console.sessions import fork_into, open_game, pointer, remember
from strategia.ui.console.status import T, breakdown_html, status_html, undo_label
from strategia.ui.widgets import hover, layers, marks
from strategia.ui.widgets.clock import ClockLabel
from strategia.ui.widgets.mapview import MapView, beside
from strategia.ui.widgets.notes import war_banner_html
from strategia.ui.widgets.order_form import error_html, submit_on_enter
from strategia.ui.widgets.sizes import label_width
from strategia.ui.widgets.watch import caught_up, watch


def _e(text: object) -> str:
    return html.escape(str(text))


class Console(ComputerSides):
    """A game at the mediator's table."""

    def __init__(self, game: Game, lang: str = "ru", games: str | Path = "games") -> None:
        self.lang: Lang = check_lang(lang)
        self.games = Path(games)
        self.origin: Path | None = None  # what `resume` started on: the game played is remembered
        self.widget = w.VBox(layout=w.Layout(width="100%"))
        self.widget.add_class("sg-console")
        self._build(game)

    # --- opening games ----------------------------------------------------------------------

    @classmethod
    def open(
        cls,
        path: str | Path,
        lang: str = "ru",
        level: int | None = None,
        games: str | Path = "games",
    ) -> Console:
        """A console on a game file, or on a new game of a scenario file (a .toml)."""
        return cls(open_game(Path(path), level, Path(games)), lang, games)

    @classmethod
    def resume(
        cls,
        path: str | Path,
        lang: str = "ru",
        level: int | None = None,
        games: str | Path = "games",
    ) -> Console:
        """Like `open`, but resuming the game the console last played when started on `path`
        (a scenario's game, a game opened since, a fork): a page reloaded goes on with it,
        unless it is over."""
        path, folder = Path(path), Path(games)
        last = pointer(folder, path)
        g: Game | None = None
        if last is not None:
            try:
                g = Game.open(last)
            except (StrategiaError, OSError):
                g = None
            if g is not None and (g.phase == "peace" or level not in (None, g.level)):
                g.journal.close()
                g = None
        c = cls(g, lang, games) if g is not None else cls.open(path, lang, level, games)
        c.origin = path
        remember(folder, path, c.game.journal.path)
        return c

    def catch_up(self) -> bool:
        """Take in what the teams and other writers appended; redraw if anything came (and if
        a team's move ended, a computer's side whose turn came moves)."""
        came = caught_up(self.game, self.refresh)
        if came and self.history is None and self.game.computer_due():
            self.computer_moves()
        self.clock.tick()
        return came

    def watch(self) -> None:
        """Catch up by itself (`widgets.watch`): the teams' orders show within a second."""
        self._watch = watch(self.catch_up)

    def set_lang(self, lang: str) -> None:
        """Speak another language: the console is rebuilt on the same game."""
        self.lang = check_lang(lang)
        self._build(self.game)

    def reopen(self, path: Path, level: int | None = None) -> None:
        """Replace this console's game by another game or a new game of a scenario: the whole
        console is rebuilt in place, every control bound to the new game."""
        self._build(open_game(Path(path), level, self.games))

    # --- building ---------------------------------------------------------------------------

    def _build(self, game: Game) -> None:
        if getattr(self, "game", None) is not game:
            self.seats = Seats()  # the computer's players, kept between their moves
            if self.origin is not None:  # a reloaded page resumes this game
                remember(self.games, self.origin, game.journal.path)
        self.game = game
        self.viewer = "mediator"
        self.truth_side: str | None = None  # the side whose picture the mediator compares
        self.selected: UnitRef | None = None
        self.last: Result | None = None
        self.history: int | None = None  # the journal entry shown, None: the game now
        self.past: GameState | None = None  # the state after that entry
        self.past_move: tuple[str, str] = (game.side, game.phase)  # whose move, the phase then
        self.inspected: UnitRef | None = None  # a unit clicked while looking back
        self._move = (game.state.turn, game.side)  # the move the inputs were filled for
        self.shown_at = game.position  # the journal position the screen shows: commands' `at`
        self.undo_of: int | None = None  # the entry Undo's label names
        self.destroyed: dict[str, tuple[int, int, int]] = {}  # unit -> where, and on which turn
        self._where: dict[str, tuple[int, int]] = {}
        self.reach_costs: dict[tuple[int, int], float] = {}
        self.status = w.HTML()
        self.clock = ClockLabel(game, self.lang)
        self.clock.widget.layout = w.Layout(width="110px")
        self.busy = w.HTML(layout=w.Layout(width="110px"))
        self.message = w.HTML(layout=w.Layout(min_height="18px"))
        self.view_choice = w.ToggleButtons(
            options=self._viewers(), value="mediator", tooltips=[T["view"](self.lang)] * 5
        )
        self.view_choice.style.button_width = "84px"
        self.end_button = w.Button(description=self._end_label(), button_style="warning")
        self.undo_button = w.Button(
            description=T["undo"](self.lang), layout=w.Layout(width="230px")
        )
        self.find_box = w.Text(
            placeholder=Text("unit: 21 TD", "часть: 21 т.д.")(self.lang),
            layout=w.Layout(width="140px"),
        )
        self.find_button = w.Button(
            description=T["find"](self.lang),
            layout=w.Layout(width=label_width(T["find"](self.lang))),
        )
        self.view_choice.observe(lambda ch: self.set_viewer(str(ch["new"])), names="value")
        self.end_button.on_click(lambda _: self.end_turn())
        self.undo_button.on_click(lambda _: self.undo())
        self.find_button.on_click(lambda _: self.find(self.find_box.value))
        submit_on_enter(self.find_box, lambda: self.find(self.find_box.value))
        self.mapview = MapView(game.state.theatre, game.level, self.click, self.lang)
        self.mapview.on_hover = self.hover
        self.war_line = self.mapview.banner  # the start of the war (9.1), a line above the map
        self.panels = Panels(self, self.go_to)
        self.whole = w.Button(
            description=T["whole"](self.lang),
            layout=w.Layout(width=label_width(T["whole"](self.lang), icon=True)),
            icon="expand",
        )
        self.whole.on_click(lambda _: self.mapview.fit())
        self.back_button = w.Button(
            description=T["back"](self.lang), button_style="info", icon="step-forward",
            layout=w.Layout(width="150px", display="none"),
        )  # fmt: skip
        self.back_button.on_click(lambda _: self.show_history(None))
        tools = w.HBox(
            [self.view_choice, self.back_button, self.end_button, self.undo_button,
             self.find_box, self.find_button, self.whole],
            layout=w.Layout(flex_flow="row nowrap", align_items="center", overflow="hidden"),
        )  # fmt: skip
        self.message.layout = w.Layout(flex="0 1 auto", max_width="45%", overflow="hidden")
        self.lang_choice = w.ToggleButtons(options=[("рус", "ru"), ("eng", "en")], value=self.lang)
        self.lang_choice.style.button_width = "44px"
        self.lang_choice.add_class("sg-lang")
        self.lang_choice.observe(lambda ch: self.set_lang(str(ch["new"])), names="value")
        legend = head.legend(self.lang)
        row = [self.clock.widget, self.message, self.busy, legend, self.lang_choice]
        self.widget.children = [
            head.head_row(self.status, *row),
            tools,
            beside(
                self.mapview.map,
                self.panels.widget,
                above=self.war_line,
                overflow="auto",
                max_height="calc(100vh - 90px)",
            ),
        ]
        self.refresh()
        self.mapview.start_at([(u.cell.lon, u.cell.lat) for u in game.state.units.values()])
        prepare(game.state, game.rules)  # the first End turn as fast as the next

    # --- what the viewer sees ---------------------------------------------------------------

    @property
    def shown(self) -> GameState:
        """The state the map shows: the game now, or as it was at the journal entry chosen."""
        return self.past if self.history is not None and self.past is not None else self.game.state

    def _viewers(self) -> list[tuple[str, str]]:
        sides = sorted(
            {s.side for s in self.game.scenario.states}, key=["red", "blue", "green", "black"].index
        )
        return [(T["mediator"](self.lang), "mediator")] + [
            (side_name(s, self.lang, capital=True), s) for s in sides
        ]

    def _end_label(self) -> str:
        g = self.game
        if g.simultaneous:
            return T["execute"](self.lang)
        return (COMPUTER["moves"] if g.computer_due() else T["end_turn"])(self.lang)

    def view(self) -> Any:
        if self.viewer == "mediator":
            return mediator_view(self.shown, self.game.answers)
        intel = [a for a in self.game.answers if a["side"] == self.viewer]
        return view_for(self.shown, self.viewer, self.game.rules, intel)

    def units_geojson(self) -> dict[str, Any]:
        """What the map's units layer is given: the counters of the viewer's view."""
        self._features = to_geojson(self.view())
        return layers.counters_geojson(
            self._features, str(self.selected) if self.selected else None, marks=False
        )

    def last_known_geojson(self) -> dict[str, Any]:
        """Where the side viewed last knew enemy units to be (for the mediator: those of the
        side whose truth view is shown; none while looking back)."""
        side = self.truth_side if self.viewer == "mediator" else self.viewer
        if side is None or self.history is not None:
            return marks.collection([])
        return marks.last_known_geojson(last_known(channel(self.game, side)), self.lang)

    def show_truth(self, side: str | None) -> None:
        """The mediator's truth view of `side` (None: none): the side's last-known marks over
        the true counters on the map, its picture against the truth in the Mediator tab."""
        self.truth_side = side
        self.refresh()

    def refresh(self) -> None:
        g = self.game
        self.shown_at = g.position
        lang = self.lang
        looking_back = self.history is not None
        side, phase = self.past_move if looking_back else (g.side, g.phase)
        self.status.value = status_html(g, self.shown.turn, side, phase, looking_back, lang)
        told = banner(self.shown, self.viewer)
        self.mapview.show_banner(war_banner_html(told, lang))
        if (g.state.turn, g.side) != self._move:  # the turn passed: its inputs are done with
            self._move = (g.state.turn, g.side)
            self.panels.clear_inputs()
        self._track_destroyed()
        self.mapview.show_units(self.units_geojson())
        self.mapview.show_last_known(self.last_known_geojson())
        self.mapview.show_fights(self.fight_marks())
        self._undo_label()
        self.end_button.description = self._end_label()
        self.end_button.disabled = looking_back or g.phase == "peace"
        self.back_button.layout.display = "flex" if looking_back else "none"
        self.panels.refresh(self.history)
        self.panels.set_playing(not looking_back)
        self.clock.tick()

    def _undo_label(self) -> None:
        last = self.game.undoable() if self.history is None else None
        self.undo_of, label = undo_label(last, self.viewer, self.lang)
        self.undo_button.description = label
        self.undo_button.tooltip = label if last is not None else ""
        self.undo_button.disabled = self.undo_of is None

    def fight_marks(self) -> list[tuple[str, int, int, str]]:
        """The battles and strikes of the turn shown, and the units destroyed in it."""
        return fight_marks(self.game, self.shown.turn, self.destroyed, self.lang)

    def _track_destroyed(self) -> None:
        """Units gone since the last look, destroyed in a fight of this turn, leave a mark."""
        now = {str(u.ref): (u.cell.lon, u.cell.lat) for u in self.game.state.units.values()}
        if self.history is None:
            gone = set(self._where) - set(now)
            lost = rr.destroyed(self.game.results, self.game.state.turn)
            for u in gone & lost:
                x, y = self._where[u]
                self.destroyed[u] = (x, y, self.game.state.turn)
            self._where = now

    # --- progress and errors ----------------------------------------------------------------

    @contextmanager
    def working(self, errors: w.HTML | None = None) -> Iterator[None]:
        """A progress mark while an action runs; an error is shown under the input that caused
        it (`errors`, else the console's message line), specific and in the viewer's language;
        success clears it."""
        target = errors if errors is not None else self.message
        self.busy.value = f"<i>⏳ {T['working'](self.lang)}</i>"
        try:
            yield
            target.value = ""
            if errors is not None:
                self.message.value = ""
        except StrategiaError as e:
            target.value = error_html(say(e, self.lang))
            if isinstance(e, StaleError):  # shown the game as it now is, to decide again
                self.refresh()
        finally:
            self.busy.value = ""

    # --- actions ------------------------------------------------------------------------------

    def set_viewer(self, viewer: str) -> None:
        """Show the map and the tabs as `viewer` may see them: what was shown for another
        viewer (the mediator's breakdown of the last order, its cuts, an error) is cleared."""
        if viewer != self.viewer:
            self.message.value = ""
            self.panels.viewer_changed(viewer)
        self.viewer = viewer
        if self.selected is not None and viewer not in ("mediator", self._side_of(self.selected)):
            self.selected = None
            self.mapview.show_reach([])
        self.refresh()

    def _side_of(self, ref: UnitRef) -> str:
        return self.game.state.side_of(ref) if ref in self.game.state.units else ""

    def commands(self, ref: UnitRef) -> bool:
        """Whether the viewer may give `ref` orders now: its side is to move (every side at
        level 3), and the viewer is the mediator or that side."""
        side = self._side_of(ref)
        moving = self.game.simultaneous or side == self.game.side
        return bool(side) and moving and self.viewer in ("mediator", side)

    def click(self, x: float, y: float, properties: dict[str, Any] | None = None) -> None:
        """A click on the map: a unit of the side to move is selected; with a unit selected, a
        click elsewhere (an enemy counter too) targets that cell; the selected unit's own cell
        is never a target."""
        cell = Cell(round(x), round(y))
        name = properties.get("unit") if properties else None
        ref = UnitRef.parse(str(name)) if name else None
        if self.history is not None:  # looking back: a unit is shown as it was, nothing given
            there = [u.ref for u in self.shown.occupants(cell)]
            self.inspected = ref if ref in self.shown.units else there[0] if there else None
            self.panels.refresh(self.history)
            return
        if ref is None:
            mine = [u.ref for u in self.game.state.occupants(cell) if self.commands(u.ref)]
            ref = mine[0] if mine else None
        own = self.selected is not None and self.selected in self.game.state.units
        if own and self.selected is not None and cell in self.game.state.unit(self.selected).cells:
            return
        if ref is not None and ref in self.game.state.units and self.commands(ref):
            self.select(ref)
        else:
            self.panels.set_target(cell)

    def select(self, ref: UnitRef) -> None:
        with self.working():
            self.selected = ref
            self._show_reach()
            self.refresh()

    def _show_reach(self) -> None:
        if self.selected is None or self.selected not in self.game.state.units:
            self.reach_costs = {}
            self.mapview.show_reach([])
            return
        r = reach(self.game.state, self.selected, self.game.rules)
        self.reach_costs = {(c.lon, c.lat): float(r.cost_to(c)) for c in r.cells()}
        self.mapview.show_reach_costs([(x, y, v) for (x, y), v in self.reach_costs.items()])

    def hover(self, x: float, y: float, properties: dict[str, Any] | None = None) -> None:
        """The readout: the cell under the cursor, its ground and place; a unit's details; a
        reachable cell's cost; a fight's outcome."""
        self.mapview.show_readout(hover.readout(self, x, y, properties))

    def find(self, name: str) -> None:
        """A unit by its name: selected (if the viewer commands it) and zoomed to."""
        with self.working():
            ref = UnitRef.parse(name.strip(), self.game.state)
            if ref not in self.game.state.units:
                members = [u for u in self.game.state.units.values() if u.corps == ref]
                if not members:
                    raise GameError(f"{ref} is not on the map", ru=f"{ref} нет на карте")
                u = members[0]
            else:
                u = self.game.state.unit(ref)
            self.go_to(u.cell.lon, u.cell.lat, zoom=max(float(self.mapview.map.zoom), 4.0))
            if self.commands(u.ref):
                self.select(u.ref)

    def go_to(self, x: int, y: int, zoom: float | None = None) -> None:
        self.mapview.go_to(x, y, zoom)

    def playing(self) -> None:
        """Refuse a command of the game while the map shows it as it was (the Journal's slider)."""
        self._playing()

    def _playing(self) -> None:
        if self.history is not None:
            raise GameError(
                "the map shows the game as it was: back to now first (Journal tab)",
                ru="на карте игра, какой она была: сначала вернитесь к текущему (вкладка «Журнал»)",
            )

    def submit(self, text: str, errors: w.HTML | None = None) -> Result | None:
        """Give an order in notation (for its unit's side)."""
        result = None
        with self.working(errors):
            self._playing()
            result = self.game.order(text, at=self.shown_at)
            self.last = result
            self._show_reach()
            self.refresh()
            self.panels.show_result(text, result)
        return result

    def end_turn(self) -> list[Result]:
        """End the move (level 3: carry the turn out). A computer's side to move moves instead
        (its move ends itself); at level 3 the computer's sides seal their orders first. Then
        the computer's sides whose turn came move."""
        results: list[Result] = []
        if self.history is None and self.game.computer_due():
            _, results = self._computer_moves()
            if not self.game.simultaneous:
                return results
        with self.working():
            self._playing()
            turn, side = self._move
            results = self.game.end_turn(at=self.shown_at, side=side or None, turn=turn)
            self.deselect()
            self.refresh()
            self.panels.show_turn(results)
        if self.history is None and self.game.computer_due():
            results += self._computer_moves()[1]
        return results

    def deselect(self) -> None:
        """No unit selected (the move passed to another side)."""
        self.selected = None
        self.mapview.show_reach([])

    def undo(self) -> None:
        """Take back the last order or intervention; its result, if shown, is struck out."""
        with self.working():
            self._playing()
            last = self.game.undo(of=self.undo_of, at=self.shown_at)
            what = order_in(str(last.data.get("order") or ""), self.lang)
            self.panels.orders.show_undone(what or str(last.data.get("text") or ""))
            self.last = None
            self._show_reach()
            self.refresh()

    def show_history(self, seq: int | None) -> None:
        """The map as the game was after journal entry `seq` (None: as it is now)."""
        with self.working():
            self.inspected = None
            if seq is None or seq >= len(self.game.journal.entries):
                self.history, self.past = None, None
            else:
                then = Game.open(self.game.journal.path, upto=seq)
                self.past, self.past_move = then.state, (then.side, then.phase)
                then.journal.close()
                self.history = seq
                self.selected = None
                self.mapview.show_reach([])
            self.refresh()

    def continue_here(self) -> None:
        """A new game from the entry looked back at (`game.fork`, in the games folder): the
        console goes on with it; the game it came from is untouched."""
        if self.history is None:
            return
        seq, forked = self.history, []
        with self.working():
            forked.append(fork_into(self.game, seq, self.games))
        if forked:
            was = self.game.journal.path.name
            self._build(forked[0])
            told = T["forked"](self.lang).format(
                game=forked[0].journal.path.name, entry=seq, was=was
            )
            self.message.value = _e(told)

    def breakdown_html(self, result: Result) -> str:
        """An order's outcome; for the mediator, what was cut and the breakdown (a report)."""
        return breakdown_html(result, self.viewer, self.lang, self.game.state.turn)


__all__ = ["Console", "open_game"]
