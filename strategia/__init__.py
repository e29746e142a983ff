"""Strategia: a mediator's console for the operational wargame «Стратегия» (module 1).

The package is the rules engine: rules as data (`strategia.rules`), units and ratings
(`strategia.units`, `strategia.ratings`), explanations as values (`strategia.explain`).
"""

__version__ = "0.1.0"
