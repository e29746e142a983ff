"""`Layered`: an immutable mapping whose updates cost the change, read exactly as a dict would
be after the same updates (values and iteration order), checked against a dict by hypothesis."""

from __future__ import annotations

import pickle

from hypothesis import given, settings
from hypothesis import strategies as st

from strategia.core.layered import Layered

keys = st.integers(0, 60)
updates = st.lists(
    st.tuples(st.lists(st.tuples(keys, st.integers()), max_size=6), st.lists(keys, max_size=4)),
    max_size=60,
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(keys, st.integers()), max_size=50), updates)
def test_reads_like_a_dict_after_the_same_updates(start: list[tuple[int, int]], steps) -> None:  # type: ignore[no-untyped-def]
    d = dict(start)
    m = Layered(start)
    history = [(m, dict(d))]
    for changed, removed in steps:
        for k in removed:
            d.pop(k, None)
        for k, v in changed:
            d[k] = v
        m = m.updated(changed, removed)
        history.append((m, dict(d)))
    for layered, expected in history:  # every earlier version is unchanged
        assert list(layered) == list(expected)
        assert list(layered.items()) == list(expected.items())
        assert list(layered.values()) == list(expected.values())
        assert len(layered) == len(expected) and layered == expected
        for k in range(61):
            assert (k in layered) == (k in expected)
            assert layered.get(k, "none") == expected.get(k, "none")


def test_a_long_run_of_updates_is_folded_into_its_base() -> None:
    """After many single updates the top layer stays under max(64, 2√n) entries (2√n = 200 for
    10,000 keys)."""
    m = Layered((k, 0) for k in range(10_000))
    for i in range(1_000):
        m = m.updated([(i, 1)])
    assert len(m._over) + len(m._new) <= 201
    assert sum(m.values()) == 1_000


def test_pickles() -> None:
    m = Layered([(1, "a")]).updated([(2, "b")], [1])
    assert pickle.loads(pickle.dumps(m)) == {2: "b"}
