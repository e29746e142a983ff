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
