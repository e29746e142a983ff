"""The scenario builder's notebook: a theatre drawn on the builder's map step by step (the same
clicks a mediator makes), checked and saved; a random theatre; a quick trial's balance of forces
turn by turn; the result opened in the console.

Every action is the builder panel's (each a `ScenarioBuilder` step); the trial is the game's
(`strategia.game.trial.balance`), every side played by the computer player (`strategia.players`,
in the balanced style; a neutral waits to be attacked), as the console plays a computer's side.
"""

from __future__ import annotations

import html
from pathlib import Path

from strategia.core.i18n import Lang, Text
from strategia.engine.state import initial_state
from strategia.explain.render import fmt
from strategia.game.game import Game
from strategia.game.trial import balance
from strategia.game.views import mediator_view, to_geojson
from strategia.players import settings
from strategia.rules.kinds import Side
from strategia.theatre import terrain
from strategia.theatre.builder import ScenarioBuilder
from strategia.theatre.generate import random_scenario
from strategia.theatre.scenario import Scenario
from strategia.ui.builder.panel import BuilderPanel
from strategia.ui.console.computer import Seats
from strategia.ui.lessons import maps as tm
from strategia.ui.lessons.show import (
    Html,
    Live,
    Picture,
    lesson_lang,
    new_figure,
    picture,
    scratch_dir,
)

WORDS = {
    "turn": Text("turn", "ход"),
    "forces": Text("forces (Σ ratings × strength)", "силы (Σ рейтингов × численность)"),
    "problems": Text("problems", "ошибки"),
    "none": Text("no problems", "ошибок нет"),
    "saved": Text("saved: {files}; the scenario file begins:",
                  "сохранено: {files}; начало файла сценария:"),
    "units": Text("{n} units", "частей: {n}"),
}  # fmt: skip


def theatre_still(scenario: Scenario, lang: Lang) -> Picture:
    """The scenario's theatre and forces as a static map (what the builder's map shows)."""
    ds = scenario.theatre
    w, h = terrain.size(ds)
    fig = new_figure(min(12.0, 0.3 * w + 1.5), min(9.0, 0.3 * h + 1.0))
    ax = fig.subplots()
    tm.draw_theatre(ax, ds, 3, lang, (1, w, 1, h))
    units = to_geojson(mediator_view(initial_state(scenario, scenario.settings.level)))
    tm.draw_counters(ax, units, names=w <= 32)
    alt = f"{scenario.name}: {w} x {h}, " + WORDS["units"].format(n=len(units["features"]))(lang)
    return picture(fig, alt)


def example_panel(lang: Lang | None = None) -> BuilderPanel:
    """A 30 x 20 theatre drawn with the builder's tools, click by click: two states, a forest, a
    road, a river, two capitals, a corps and three divisions."""
    panel = BuilderPanel.blank(30, 20, lang or lesson_lang())
    panel.tool.value = "state"
    panel.brush.value = 6
    for code, name, side, xs in (("R", "Красные", "red", range(3, 16, 5)),
                                 ("B", "Синие", "blue", range(18, 31, 5))):  # fmt: skip
        panel.state_code.value, panel.state_name.value, panel.state_side.value = code, name, side
        for x in xs:
            for y in range(3, 21, 5):
                panel.click(x, y)
    panel.tool.value = "forest"
    panel.brush.value = 4
    panel.click(8, 12)
    panel.tool.value = "road"
    panel.click(3, 10)
    panel.click(28, 10)
    panel.end_line()
    panel.tool.value = "river"
    panel.click(16.5, 0.5)
    panel.click(16.5, 20.5)
    panel.end_line()
    panel.tool.value = "capital"
    panel.place_name.value = "Красноград"
    panel.click(4, 10)
    panel.place_name.value = "Синеград"
    panel.click(27, 10)
    panel.forces(
        "R", "1 с.к.: 1 с.д., 2 с.д.", "1 с.к. расположен между 14-9 и 14-10 фронтом на восток\n"
        "5 т.д. - 12,12"
    )  # fmt: skip
    panel.forces("B", "", "101 с.д. - 19,10 фронтом на запад\n102 с.д. - 19,12 фронтом на запад")
    return panel


def live(panel: BuilderPanel) -> Live:
    """The builder for the class, with a still of its theatre as it stands."""
    still = theatre_still(panel.scenario, panel.lang)
    return Live(panel.widget, still, still.alt)


def check(panel: BuilderPanel) -> Html:
    """Every problem of the scenario (the panel marks their cells on its map)."""
    problems = panel.validate()
    lang = panel.lang
    if not problems:
        return Html(f"<p><b>{WORDS['none'](lang)}</b></p>", WORDS["none"](lang))
    items = "".join(f"<li>{html.escape(p)}</li>" for p in problems)
    return Html(f"<p><b>{WORDS['problems'](lang)}</b></p><ul>{items}</ul>", "\n".join(problems))


def save(panel: BuilderPanel, name: str = "opyt.toml", lines: int = 30) -> tuple[Path, Html]:
    """Save the scenario (text, and the theatre in NetCDF) in a scratch folder; the files'
    names and the beginning of the text file."""
    path = panel.save(scratch_dir() / name, netcdf=True)
    if path is None:
        return Path(name), check(panel)
    files = ", ".join(sorted(p.name for p in path.parent.iterdir()))
    head = "\n".join(path.read_text(encoding="utf-8").splitlines()[:lines])
    said = WORDS["saved"].format(files=files)(panel.lang)
    text = f"<p>{html.escape(said)}</p><pre><code>{html.escape(head)}</code></pre>"  # the file
    return path, Html(text, f"{said}\n{head}")


def random_panel(
    width: int = 40, height: int = 28, seed: int = 7, divisions: int = 12, lang: Lang | None = None
) -> BuilderPanel:
    """A random theatre (coherent relief, connected roads and railways, rivers with bridges) in
    the builder, to edit."""
    sc = random_scenario(width, height, seed=seed, divisions_per_side=divisions)
    return BuilderPanel(ScenarioBuilder.edit(sc), lang or lesson_lang())


def trial_game(scenario: Scenario, path: Path, level: int = 2) -> Game:
    """A trial's game: every side played by the computer (the seed fixed, so that the same
    scenario gives the same trial)."""
    sides = {s.side for s in scenario.states}
    return Game.new(scenario, path, level=level, seed=1, computer={s: settings(s) for s in sides})


def computer_trial(scenario: Scenario, turns: int, path: Path) -> dict[str, list[float]]:
    """`turns` turns played by the computer on every side: each side's forces at the start
    and after each turn (`strategia.game.trial.balance`)."""
    g = trial_game(scenario, path)
    seats = Seats()
    try:
        return balance(g, turns, seats.turn)
    finally:
        g.journal.close()


def trial_chart(scenario: Scenario, turns: int = 4, lang: Lang | None = None) -> Picture:
    """A quick trial: `turns` turns, the computer playing every side, each side's forces at
    the start and after each."""
    lang = lang or lesson_lang()
    forces = computer_trial(scenario, turns, scratch_dir() / "trial.game")
    fig = new_figure(6.5, 3.2)
    ax = fig.subplots()
    colours = {"red": "#c62828", "blue": "#1565c0", "green": "#2e7d32", "black": "#212121"}
    for side, values in forces.items():
        ax.plot(range(len(values)), values, "o-", color=colours.get(side),
                label=Side.from_key(side).label(lang))  # fmt: skip
    ax.set_xlabel(WORDS["turn"](lang), fontsize=8)
    ax.set_ylabel(WORDS["forces"](lang), fontsize=8)
    ax.set_xticks(range(turns + 1))
    ax.legend(fontsize=8)
    ax.grid(True, lw=0.3)
    alt = "\n".join(
        f"{Side.from_key(s).label(lang)}: " + ", ".join(fmt(round(v, 3)) for v in values)
        for s, values in forces.items()
    )
    return picture(fig, alt)


def console(path: Path, lang: Lang | None = None) -> Live:
    """The saved scenario opened in the console (a new game, in a scratch folder)."""
    from strategia.theatre.scenario_io import load_scenario
    from strategia.ui.console import Console

    lang = lang or lesson_lang()
    c = Console.open(path, lang=lang, games=scratch_dir())
    still = theatre_still(load_scenario(path), lang)
    return Live(c.widget, still, still.alt)
