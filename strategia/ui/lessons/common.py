"""The lessons' helpers (notebooks/01-06): each lesson's figures, tables and workbenches ask the
engine and render its answers; nothing here computes a rule.

    teaching_show      figures (PNG, no pyplot), live widgets with a still, tables in terms
    teaching_maps      the console's map layers drawn as static maps
    teaching_ratings   01: regiments' and divisions' ratings (9.6, tables 1, 7-10)
    teaching_movement  02: speed, reach on the theatre, turning, the march, 9.3
    teaching_battle    03: the regular battle (9.8), ground, echelons, support, the loss rule
    teaching_artillery 04: strikes by ground and range (9.7, table 11), the example of 9.7d
    teaching_recon     05: what each side sees (6.2, 8.1, 8.2) and reconnaissance (8.3)
    teaching_tactical  06: seed 003's worked examples and a turn on the tactical table
    computer           08: the class plays Red against the computer's Blue, reads its decisions
    teaching_builder   the scenario builder's trial

This module holds what several lessons share: the small training map and the choosers.
"""

from __future__ import annotations

import ipywidgets as w

from strategia.core.i18n import Lang, Text
from strategia.rules.english import en
from strategia.rules.kinds import DivisionKind, Terrain
from strategia.theatre.builder import ScenarioBuilder
from strategia.ui.lessons.show import LABELLED, state_name

RELIEFS = ("plain", "forest", "hills", "swamp", "mountains")
DIVISION = Text("division", "дивизия")
GROUND = Text("ground", "местность")


def small_map(relief: str = "plain", river: bool = False, road: bool = False) -> ScenarioBuilder:
    """A 16 x 9 map of one relief (on longitudes 4-12), Red on the left, Blue on the right."""
    b = (
        ScenarioBuilder.blank(16, 9, name="учебная карта")
        .state("R", state_name("red"), "red", lon=(1, 12))
        .state("B", state_name("blue"), "blue", lon=(13, 16))
    )
    if relief != "plain":
        b = b.paint(relief, lon=(4, 12))
    if river:
        b = b.river("6.5,0.5 6.5,9.5")
    if road:
        b = b.road("1,5 12,5")
    return b


def division_choice(lang: Lang, label: Text = DIVISION) -> w.Dropdown:
    """A dropdown of the division types (table 1), a т.д. first."""
    return w.Dropdown(
        options=[
            (en(k.ru) if lang == "en" else k.ru, k)
            for k in DivisionKind
            if k is not DivisionKind.FORTRESS
        ],
        value=DivisionKind.TANK,
        description=label(lang),
        style=LABELLED,
    )


def relief_choice(lang: Lang, label: Text = GROUND) -> w.Dropdown:
    """A dropdown of the reliefs by the rules' names (равнина, лес...), keyed by relief."""
    return w.Dropdown(
        options=[(Terrain.from_key(r).label(lang), r) for r in RELIEFS],
        description=label(lang),
        style=LABELLED,
    )
