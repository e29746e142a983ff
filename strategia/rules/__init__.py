"""Rules as data: the registry of rulesets, loading, house rules and traced lookups.

>>> from strategia.rules import load_ruleset
>>> rules = load_ruleset("continental", level=2)
>>> rules.value("movement", "hills", "tank")
20
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path

from strategia.core.errors import UnknownNameError
from strategia.rules.load import apply_house_rules, load_ruleset_file
from strategia.rules.model import VALUE, Entry, Override, Param, RuleSet

__all__ = [
    "VALUE",
    "Entry",
    "Override",
    "Param",
    "RuleSet",
    "load_ruleset",
    "register",
    "ruleset_names",
]

_HERE = Path(__file__).parent
_REGISTRY: dict[str, Path] = {"continental": _HERE / "continental.toml"}
_REGISTRY["tactical"] = _HERE / "tactical.toml"  # seed 003 (strategia.tactical)


def register(name: str, path: Path) -> None:
    """Make the rule data file `path` available as ruleset `name`."""
    _REGISTRY[name] = Path(path)
    _base.cache_clear()


def ruleset_names() -> list[str]:
    return sorted(_REGISTRY)


@cache
def _base(name: str) -> RuleSet:
    return load_ruleset_file(_REGISTRY[name])


def load_ruleset(
    name: str = "continental",
    *,
    level: int = 3,
    house: str | Path | Sequence[str | Path] | None = None,
) -> RuleSet:
    """The ruleset `name` at `level`, with the house-rules file(s) `house` applied in order."""
    if name not in _REGISTRY:
        raise UnknownNameError("ruleset", name, _REGISTRY)
    rules = _base(name).at_level(level)
    houses: Sequence[str | Path] = (
        () if house is None else (house,) if isinstance(house, str | Path) else house
    )
    for h in houses:
        rules = apply_house_rules(rules, Path(h))
    return rules
