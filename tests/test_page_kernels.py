"""The servers' kernel manager (`strategia.ui.team.kernels`): a kernel no page has connected to yet
is kept for its grace although idle; once a page has connected, culling is Voilà's own. The
browser test (tests/test_preheat_browser.py) serves the console with it."""

from __future__ import annotations

from strategia.ui.team.kernels import PageKernelManager


def test_a_kernel_waits_for_its_page_then_is_culled_as_usual() -> None:
    km = PageKernelManager(attach_grace=10.0)
    assert km.waiting("k", now=100.0)  # first found unconnected at t=100
    assert km.waiting("k", now=109.9)
    assert not km.waiting("k", now=110.0)  # its grace is over: culled if idle
    assert km.waiting("j", now=110.0)  # another kernel has its own grace


def test_a_connected_kernel_is_not_kept() -> None:
    km = PageKernelManager(attach_grace=10.0)
    km._kernel_connections["k"] = 0
    assert km.waiting("k", now=0.0)
    km.notify_connect("k")
    assert km._kernel_connections["k"] == 1
    assert not km.waiting("k", now=1.0)  # Voilà's culling decides (a connected kernel is kept)
