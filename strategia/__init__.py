"""Strategia: a mediator's console for the operational wargame «Стратегия» (module 1).

The packages follow the path of an order, lowest first:

- `core`: errors, bilingual text, vocabularies, cells and directions;
- `explain`: explanations as values (the trace tree) and their renderers;
- `rules`: the rules as data, the game's vocabularies, units and their ratings;
- `notation`: the journal's language, every order declared once (Russian and English);
- `theatre`: the terrain grid, scenarios, the builder, random theatres;
- `engine`: pure functions of (state, order, rules) to (new state, result);
- `game`: the game, its store, the views of each side, reconnaissance, scoring;
- `ui` (the console's widgets) and `cli` (the `strategia` command) on top;
- `tactical`: seed 003's rule set, on the same rules, explanations and store;
- `scenarios`: the scenarios shipped with it (data, by name: `continental`).

A lower package never imports a higher one (`tests/test_layout.py`).
"""

from importlib.metadata import PackageNotFoundError, version

from strategia._moved import install as _install

try:
    __version__ = version("strategia")
except PackageNotFoundError:  # a checkout not installed
    __version__ = "0+unknown"

_install()
