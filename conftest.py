"""A check nbval cannot make: a lesson cell tagged `figure` must show a figure when it runs.

nbval compares a fresh run's outputs with the kept ones but skips images (PNG bytes vary from
machine to machine), so a figure that silently vanished (a chart drawn into a non-interactive
backend) would pass. This hook fails such a cell.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

import pytest

FIGURES = ("image/png", "image/svg+xml")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, Any, Any]:
    result = yield
    cell = getattr(item, "cell", None)
    outputs = getattr(item, "test_outputs", None)
    if cell is not None and "figure" in cell.get("metadata", {}).get("tags", []):
        shown = [k for out in outputs or [] for k in out.get("data", {}) if k in FIGURES]
        if not shown:
            raise AssertionError(f"{item.name}: a cell tagged 'figure' showed no figure")
    return result
