"""Python's cyclic garbage collector, paused for work that makes many objects which all live on.

Reading a game (thousands of journal entries and results) or carrying out a turn (a result and
an explanation per order) allocates objects by the hundred thousand, nearly all kept. Each of
the collector's full passes walks every live object, and such a burst sets off several of them
for nothing: paused, the work costs its own allocations only. What is garbage is collected as
usual once the collector runs again.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")


@contextmanager
def collector_paused() -> Iterator[None]:
    """The collector paused inside (pauses nest; it runs again as it did before)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def pausing_collector(fn: Callable[P, T]) -> Callable[P, T]:
    """`fn` run with the collector paused."""

    @wraps(fn)
    def run(*args: P.args, **kwargs: P.kwargs) -> T:
        with collector_paused():
            return fn(*args, **kwargs)

    return run
