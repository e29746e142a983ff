"""The tactical lesson (seed 003): the seed's three worked examples on the tactical table, each
step drawn, a turn phase by phase, and the live table for the class.

The drawings are the tactical table's own layers (`tactical_table.ground_geojson`,
`units_geojson`) drawn with matplotlib, every unit named; every move is the engine's
(`carry_out`, `TacticalGame`).
"""

from __future__ import annotations

from dataclasses import dataclass

from matplotlib.axes import Axes
from matplotlib.patches import Polygon
from matplotlib.ticker import MultipleLocator

from strategia.core.i18n import Lang, Text
from strategia.core.numbers import unit_word
from strategia.explain.render import explanation_html, fmt
from strategia.explain.trace import Step
from strategia.rules import RuleSet
from strategia.tactical import EXAMPLES, TacticalGame, parse_skirmish, tactical_rules
from strategia.tactical.actions import format_actions, parse_actions
from strategia.tactical.execute import carry_out
from strategia.tactical.phases import Battle, phase_label
from strategia.tactical.skirmish import Table, new_table
from strategia.ui.lessons.maps import draw_collection
from strategia.ui.lessons.show import (
    Html,
    Live,
    Picture,
    entry_table,
    lesson_lang,
    new_figure,
    picture,
)
from strategia.ui.tactical import table as tt

Box = tuple[float, float, float, float]  # x0, x1, y0, y1 in cm

EXAMPLES_TABLE = """
[skirmish]
name = "примеры правил / the rules' examples"
table = [100, 60]

[[obstacle]]
kind = "hill"
polygon = [[40, 24], [70, 24], [70, 50], [40, 50]]

[[obstacle]]
kind = "scrub"
polygon = [[75, 0], [100, 0], [100, 12], [75, 12]]

[[unit]]
name = "{b0}"
side = "red"
arm = "infantry"
figures = 16
formation = "column"
at = [15, 10]

[[unit]]
name = "{b1}"
side = "red"
arm = "infantry"
figures = 16
formation = "line"
at = [55, 20]

[[unit]]
name = "{b2}"
side = "red"
arm = "infantry"
figures = 16
formation = "column"
condition = "disordered"
at = [88, 10]
"""
WORDS = {
    "start": Text("at the start of the turn", "в начале хода"),
    "after": Text("after «{action}»", "после «{action}»"),
    "moved": Text("{name}: {formation}, {condition}, moved {cm} cm, {spent} spent",
                  "{name}: {formation}, {condition}, пройдено {cm} см, затрачено {spent}"),
    "x": Text("cm along the table", "см вдоль стола"),
    "y": Text("cm across the table", "см поперек стола"),
    "phase": Text("Turn {turn}, {phase}", "Ход {turn}, {phase}"),
}  # fmt: skip


@dataclass(frozen=True)
class Example:
    """One of the seed's worked examples: the unit, its plan, the part of the table to show."""

    battalion: int  # its battalion (`BATTALIONS`)
    plans: tuple[str, ...]  # one plan, or several to compare (each from the start)
    box: Box

    def unit(self, lang: Lang) -> str:
        return BATTALIONS[self.battalion](lang)


# the examples' battalions, named in the reader's language
BATTALIONS = (Text("1st battalion", "1-й батальон"), Text("2nd battalion", "2-й батальон"),
              Text("3rd battalion", "3-й батальон"))  # fmt: skip
EXAMPLE_SQUARE = Example(0, ("move; form square",), (5, 25, 4, 24))
EXAMPLE_HILL = Example(1, ("move",), (45, 65, 15, 35))
EXAMPLE_SCRUB = Example(2, ("move", "move; restore"), (78, 98, 0, 22))


def examples_table(lang: Lang | None = None) -> Table:
    """The table of the seed's three examples, its battalions named in `lang`."""
    names = {f"b{k}": name(lang or lesson_lang()) for k, name in enumerate(BATTALIONS)}
    return new_table(parse_skirmish(EXAMPLES_TABLE.format(**names), "examples"))


def draw_table(ax: Axes, battle: Battle, rules: RuleSet, lang: Lang, box: Box) -> None:
    """The table's ground and units as the tactical table draws them, each unit named."""
    draw_collection(ax, tt.ground_geojson(battle.table.skirmish), z=1)
    draw_collection(ax, tt.units_geojson(battle, rules, lang=lang), z=3)
    labels = tt.unit_labels(battle, rules)
    for u in battle.table.units:
        x, y = labels[u.name]
        if box[0] <= x <= box[1] and box[2] <= y <= box[3]:
            wide = box[1] - box[0] > 50  # the whole table: names beside the units, not on them
            ax.annotate(
                u.name,
                (x, y),
                xytext=(0, -8 if wide else 0),
                textcoords="offset points",
                ha="center",
                va="top" if wide else "center",
                fontsize=7,
                color=tt.SIDE_COLOURS.get(u.side, "#333333"),
                fontweight="bold",
                zorder=6,
                bbox={"boxstyle": "round,pad=0.15", "fc": "#ffffffd0", "ec": "none"},
            )
    ax.set_xlim(box[0], box[1])
    ax.set_ylim(box[2], box[3])
    ax.set_aspect("equal")
    step = 5 if box[1] - box[0] <= 40 else 10
    ax.xaxis.set_major_locator(MultipleLocator(step))
    ax.yaxis.set_major_locator(MultipleLocator(step))
    ax.tick_params(labelsize=7)
    ax.set_xlabel(WORDS["x"](lang), fontsize=7)
    ax.set_ylabel(WORDS["y"](lang), fontsize=7)


def _state(table: Table, name: str, rules: RuleSet, lang: Lang) -> str:
    u = table.unit(name)
    return WORDS["moved"].format(
        name=u.name,
        formation=u.formation.label(lang),
        condition=u.condition.label(lang),
        cm=fmt(round(float(u.moved), 2), lang),
        spent=f"{fmt(str(u.spent), lang)} {unit_word('turn', float(u.spent), lang)}",
    )(lang)


def walk(example: Example, lang: Lang | None = None) -> tuple[Picture, Html]:
    """A worked example step by step: the table at the start and after each action (each plan
    from the start, where the example compares plans), and each action's breakdown."""
    lang = lang or lesson_lang()
    rules = tactical_rules()
    start = examples_table(lang)
    unit = example.unit(lang)
    frames: list[tuple[str, Table]] = [(WORDS["start"](lang), start)]
    steps: list[tuple[str, Step]] = []
    for plan in example.plans:
        actions = parse_actions(plan)
        table = start
        for i, action in enumerate(actions):
            done = carry_out(table, unit, (action,), rules, later=actions[i + 1 :])
            table = done.table
            label = WORDS["after"].format(action=format_actions((action,), lang))(lang)
            if len(example.plans) > 1:
                label = f"«{format_actions(actions, lang)}»:\n" + label
            frames.append((label, table))
            steps.extend((label, s) for s in done.steps)
    fig = new_figure(3.3 * len(frames), 3.6)
    axes = fig.subplots(1, len(frames), squeeze=False)[0]
    alts = []
    ghost = tt.unit_rectangle(start.unit(unit), rules)
    for k, (ax, (label, table)) in enumerate(zip(axes, frames, strict=True)):
        draw_table(ax, Battle(table), rules, lang, example.box)
        ax.set_title(label, fontsize=8.5)
        moved = table.unit(unit).moved
        if k and moved:  # where it started, and how far it went
            ax.add_patch(Polygon(ghost, closed=True, fill=False, ls=":", lw=1, ec="#555555"))
            ax.text(
                example.box[1] - 0.5,
                example.box[2] + 0.5,
                f"{fmt(round(float(moved), 2), lang)} {unit_word('cm', 5, lang)}",
                ha="right",
                va="bottom",
                fontsize=9,
                fontweight="bold",
                zorder=7,
            )
        alts.append(f"{label}: {_state(table, unit, rules, lang)}")
    text = "".join(f"<p><b>{label}</b></p>{explanation_html(step, lang)}" for label, step in steps)
    return picture(fig, "\n".join(alts), lang), Html(text, "\n".join(alts))


# --- a turn, phase by phase ---------------------------------------------------------------------

CARDS = (  # unit, before fire, after fire, attacks
    ("1/Тульский", "move; form square", "", None),
    ("2/Тульский", "move", "", "II/61e ligne"),
    ("II/61e ligne", "withdraw 3", "", None),
    ("Легкая рота №3", "move 4; unlimber facing 0", "", None),
    ("Сумские гусары", "move 8", "wheel 20", None),
)
GROVE_BOX: Box = (0, 120, 0, 80)  # the example skirmish's table (grove.toml)


CANISTER = Text("canister", "картечь")  # the mediator's word for phase 4's fire, as typed


def grove_game() -> TacticalGame:
    return TacticalGame.new(EXAMPLES / "grove.toml")


def a_turn(lang: Lang | None = None) -> tuple[Picture, Html]:
    """The example skirmish through one turn: the cards (phase 1), then the table after each
    phase that moves units (2, 3, 5), with the mediator's fire results in phase 4."""
    lang = lang or lesson_lang()
    game = grove_game()
    for unit, before, after, attack in CARDS:
        game.card(unit, before, after, attack)
    frames = [(phase_title(game.battle, game.rules, lang), game.battle)]
    texts = [f"<p><b>{frames[0][0]}</b></p>" + tt.phases_html(game.battle, game.rules, lang)]
    for _ in range(7):  # phases 2 to 8
        step = game.advance()
        if game.phase.number == 4:
            step = game.report(
                "2/Тульский",
                "artillery",
                casualties=1,
                outcome=CANISTER(lang),
                by="Batterie à pied",
            )
        title = phase_title(game.battle, game.rules, lang)
        texts.append(f"<p><b>{title}</b></p>{explanation_html(step, lang)}")
        if game.phase.number in (2, 3, 5):
            frames.append((title, game.battle))
    fig = new_figure(13, 7.6)
    axes = fig.subplots(2, 2).flatten()
    for ax, (title, battle) in zip(axes, frames, strict=True):
        draw_table(ax, battle, game.rules, lang, GROVE_BOX)
        ax.set_title(title, fontsize=9)
    alt = "\n".join(
        f"{title}: " + "; ".join(f"{u.name} {_at(u.x, u.y, lang)}" for u in b.table.units)
        for title, b in frames
    )
    return picture(fig, alt, lang), Html("".join(texts), alt)


def phase_title(battle: Battle, rules: RuleSet, lang: Lang) -> str:
    return WORDS["phase"].format(turn=battle.turn, phase=phase_label(battle.phase, rules)(lang))(
        lang
    )


def live_table(game: TacticalGame | None = None, lang: Lang | None = None) -> Live:
    """The tactical table (by default on the example skirmish, at turn 1, phase 1) for the class
    to play, with a drawing of the table as it stands for readers without a kernel."""
    lang = lang or lesson_lang()
    game = game or grove_game()
    table = tt.TacticalTable(game, lang=lang)
    fig = new_figure(8, 5.6)
    box = (0.0, game.skirmish.width, 0.0, game.skirmish.height)
    draw_table(fig.subplots(), game.battle, game.rules, lang, box)
    still = picture(fig, phase_title(game.battle, game.rules, lang), lang)
    return Live(table.widget, still, still.alt)


RULE_TABLES = ("speeds", "slowdown", "formation_change")


def rule_tables(rules: RuleSet | None = None, lang: Lang | None = None) -> Html:
    """The tactical rules' tables of speed, slowdown and formation changes in their own terms
    (`strategia rules --ruleset tactical` prints them all, with the reasons for each value the
    seed lost)."""
    rules = rules or tactical_rules()
    lang = lang or lesson_lang()
    tables = [entry_table(rules, key, lang) for key in RULE_TABLES]
    return Html("".join(t.html for t in tables), "\n\n".join(t.alt for t in tables))


def _at(x: float, y: float, lang: Lang) -> str:
    """A point of the table as the reader writes it: 3.5,4.2 (ru «3,5; 4,2»: a decimal comma)."""
    if lang == "ru":
        return f"{fmt(round(x, 1), lang)}; {fmt(round(y, 1), lang)}"
    return f"{fmt(round(x, 1))},{fmt(round(y, 1))}"
