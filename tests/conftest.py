from __future__ import annotations

import pytest

from strategia.rules import RuleSet, load_ruleset


@pytest.fixture(scope="session")
def rules() -> RuleSet:
    """The continental rules at level 3 (every rule acts)."""
    return load_ruleset("continental", level=3)


@pytest.fixture(scope="session")
def rules2() -> RuleSet:
    return load_ruleset("continental", level=2)


@pytest.fixture(scope="session")
def rules1() -> RuleSet:
    return load_ruleset("continental", level=1)
