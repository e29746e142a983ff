"""The kernels of the console's and the screens' Voilà servers: a kernel a page is attaching to
is never shut as idle.

Voilà shuts a kernel with no page connected once it has been idle for `cull_idle_timeout`
seconds (the repository's `voila.json`, `strategia.ui.team.server`'s defaults), so that
closed pages do not keep kernels. A kernel Voilà keeps ready (pre-heated) has been idle since
it ran its notebook; the moment a page takes it, it leaves Voilà's pool with no connection
yet, and the next culling round shut it before the page's websocket arrived: the page polled a
kernel that was gone and showed "Loading widget..." for ever. Here a kernel that has never had
a page connected is kept for `attach_grace` seconds after culling first finds it idle; once a
page has connected, culling is Voilà's own.

Chosen with Voilà's option `VoilaConfiguration.multi_kernel_manager_class` set to `NAME`
(Voilà builds its pre-heating manager on top of it).
"""

from __future__ import annotations

import time
from typing import Any

from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from traitlets import Float

NAME = "strategia.ui.team.kernels.PageKernelManager"


class PageKernelManager(AsyncMappingKernelManager):
    """Voilà's kernels, each kept until a page has had the time to connect: see the module."""

    attach_grace = Float(
        30.0,
        config=True,
        help="Seconds a kernel no page has connected to yet is kept although idle (the kernel of "
        "a page left before it connected is culled after this).",
    )

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)  # type: ignore[no-untyped-call]
        self._connected: set[str] = set()  # kernels a page has connected to, ever
        self._waiting: dict[str, float] = {}  # kernel: when culling first found it unconnected

    def notify_connect(self, kernel_id: str) -> None:
        self._connected.add(kernel_id)
        self._waiting.pop(kernel_id, None)
        super().notify_connect(kernel_id)  # type: ignore[no-untyped-call]

    def waiting(self, kernel_id: str, now: float | None = None) -> bool:
        """Whether `kernel_id` is still within its time to be connected to by its page."""
        if kernel_id in self._connected:
            return False
        now = time.monotonic() if now is None else now
        first = self._waiting.setdefault(kernel_id, now)
        return now - first < self.attach_grace

    async def cull_kernel_if_idle(self, kernel_id: str) -> None:
        kernel = self._kernels.get(kernel_id)
        dead = getattr(kernel, "execution_state", None) == "dead"
        if not dead and self.waiting(kernel_id):
            return
        await super().cull_kernel_if_idle(kernel_id)  # type: ignore[no-untyped-call]

    async def _remove_kernel_when_ready(self, kernel_id: str, kernel_awaitable: Any) -> None:
        await super()._remove_kernel_when_ready(kernel_id, kernel_awaitable)  # type: ignore[no-untyped-call]
        self._connected.discard(kernel_id)
        self._waiting.pop(kernel_id, None)
