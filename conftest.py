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


BROWSER_LINE = "test-output/browser-tests.txt"  # `make test` prints it last


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """One line on the browser tests: how many ran, or that they were skipped and why."""
    counts: dict[str, int] = {}
    why = ""
    for outcome in ("passed", "failed", "skipped", "error"):
        for report in terminalreporter.stats.get(outcome, []):
            if "browser" not in getattr(report, "keywords", {}):
                continue
            if getattr(report, "when", "call") != "call" and outcome == "passed":
                continue
            counts[outcome] = counts.get(outcome, 0) + 1
            if outcome == "skipped" and not why and isinstance(report.longrepr, tuple):
                why = str(report.longrepr[2]).removeprefix("Skipped: ")
    if not counts:
        return
    ran = counts.get("passed", 0) + counts.get("failed", 0) + counts.get("error", 0)
    line = f"browser tests: {ran} ran ({counts.get('passed', 0)} passed)"
    if counts.get("skipped"):
        line += f", {counts['skipped']} skipped: {why}"
    terminalreporter.write_line(line)
    from pathlib import Path

    out = Path(__file__).parent / BROWSER_LINE
    out.parent.mkdir(exist_ok=True)
    out.write_text(line + "\n", encoding="utf-8")
