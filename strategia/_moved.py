"""Old module names of the first version, kept importable for notebooks written against it.

`import strategia.orders` still works and warns (DeprecationWarning) with the new name; new code
uses the packages (`strategia.notation`, `strategia.theatre`, `strategia.game`...).
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import warnings
from collections.abc import Sequence
from types import ModuleType

MOVED = {
    "strategia.errors": "strategia.core.errors",
    "strategia.i18n": "strategia.core.i18n",
    "strategia.geometry": "strategia.core.geometry",
    "strategia.kinds": "strategia.rules.kinds",
    "strategia.render": "strategia.explain.render",
    "strategia.units": "strategia.rules.units",
    "strategia.ratings": "strategia.rules.ratings",
    "strategia.orders": "strategia.notation.orders",
    "strategia.combat_orders": "strategia.notation.orders",
    "strategia.terrain": "strategia.theatre.terrain",
    "strategia.drawing": "strategia.theatre.drawing",
    "strategia.scenario": "strategia.theatre.scenario",
    "strategia.scenario_io": "strategia.theatre.scenario_io",
    "strategia.builder": "strategia.theatre.builder",
    "strategia.generate": "strategia.theatre.generate",
    "strategia.ascii_map": "strategia.theatre.ascii_map",
    "strategia.state": "strategia.engine.state",
    "strategia.journal": "strategia.game.store",
    "strategia.views": "strategia.game.views",
    "strategia.recon": "strategia.game.recon",
    "strategia.scoring": "strategia.game.scoring",
    "strategia.review": "strategia.game.review",
    "strategia.trial": "strategia.game.trial",
    # the ui package by screen (issue 24): widgets/, console/, team/, lessons/, builder/, tactical/
    "strategia.ui.mapview": "strategia.ui.widgets.mapview",
    "strategia.ui.layers": "strategia.ui.widgets.layers",
    "strategia.ui.marks": "strategia.ui.widgets.marks",
    "strategia.ui.relief": "strategia.ui.widgets.relief",
    "strategia.ui.hover": "strategia.ui.widgets.hover",
    "strategia.ui.order_form": "strategia.ui.widgets.order_form",
    "strategia.ui.watch": "strategia.ui.widgets.watch",
    "strategia.ui.clock_panel": "strategia.ui.widgets.clock",
    "strategia.ui.sessions": "strategia.ui.console.sessions",
    "strategia.ui.panels": "strategia.ui.console.panels",
    "strategia.ui.battles_panel": "strategia.ui.console.battles",
    "strategia.ui.mediator_panel": "strategia.ui.console.mediator",
    "strategia.ui.sealed_panel": "strategia.ui.console.sealed",
    "strategia.ui.rules_panel": "strategia.ui.console.rules",
    "strategia.ui.logout": "strategia.ui.team.logout",
    "strategia.ui.teaching": "strategia.ui.lessons.common",
    "strategia.ui.teaching_show": "strategia.ui.lessons.show",
    "strategia.ui.teaching_maps": "strategia.ui.lessons.maps",
    "strategia.ui.teaching_ratings": "strategia.ui.lessons.ratings",
    "strategia.ui.teaching_movement": "strategia.ui.lessons.movement",
    "strategia.ui.teaching_battle": "strategia.ui.lessons.battle",
    "strategia.ui.teaching_artillery": "strategia.ui.lessons.artillery",
    "strategia.ui.teaching_recon": "strategia.ui.lessons.recon",
    "strategia.ui.teaching_tactical": "strategia.ui.lessons.tactical",
    "strategia.ui.builder_panel": "strategia.ui.builder.panel",
    "strategia.ui.teaching_builder": "strategia.ui.builder.trial",
    "strategia.ui.tactical_table": "strategia.ui.tactical.table",
}


class _Loader(importlib.abc.Loader):
    def __init__(self, new: str) -> None:
        self.new = new

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        warnings.warn(f"{spec.name} is now {self.new}", DeprecationWarning, stacklevel=2)
        return importlib.import_module(self.new)

    def exec_module(self, module: ModuleType) -> None:
        """The new module is already executed."""


class MovedFinder(importlib.abc.MetaPathFinder):
    """Finds an old module name and gives the module it moved to."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        new = MOVED.get(fullname)
        if new is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, _Loader(new))


def install() -> None:
    if not any(isinstance(f, MovedFinder) for f in sys.meta_path):
        sys.meta_path.append(MovedFinder())
