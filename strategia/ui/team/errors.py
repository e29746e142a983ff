"""What a served page is told of an error in its kernel (`strategia serve`): that there was one,
never where. ipywidgets answers a widget message it cannot use (content that is not what the
widget expects, a value of the wrong type, a callback that raised) with IPython's traceback, sent
to the page as an `error` message: every frame's file, the server's folders and the Python
installation's among them. In a screen's kernel (`hide_paths`, run first by the notebooks
`strategia serve` writes) the page gets the exception's class and one sentence instead, and the
whole traceback goes to the kernel's own stderr (the server's, never the page; `strategia serve`
keeps none); a warning is written there too, not on the page's stderr stream, which would carry
its file and line.
"""

from __future__ import annotations

import os
import sys
import traceback
import warnings
from collections.abc import Callable
from types import MethodType
from typing import Any, TextIO

from strategia.core.i18n import Text

MESSAGE = Text(
    "the screen could not use what the page sent",
    "экран не смог обработать то, что прислала страница",
)


def hide_paths(shell: Any = None, lang: str = "ru", log: TextIO | None = None) -> bool:
    """Make `shell` (the running IPython kernel's, by default) tell a page an error's class and
    `MESSAGE` only, the traceback written to `log` (the process's real stderr); warnings go to
    `log` too. False where there is no IPython kernel (nothing to do)."""
    if shell is None:
        from IPython import get_ipython

        shell = get_ipython()
    if shell is None or not hasattr(shell, "_showtraceback"):
        return False
    write = _writer(log)
    said = MESSAGE("en" if lang == "en" else "ru")
    send = shell._showtraceback  # the kernel's: one `error` message to the page

    def showtraceback(
        self: Any, exc_tuple: tuple[type[BaseException], BaseException, Any] | None = None,
        *_: Any, **__: Any,
    ) -> None:  # fmt: skip
        etype, value, tb = exc_tuple if exc_tuple is not None else sys.exc_info()
        if etype is None or value is None:
            return
        write("".join(traceback.format_exception(etype, value, tb)))
        send(etype, said, [f"{etype.__name__}: {said}"])

    def _showtraceback(self: Any, etype: type[BaseException], evalue: Any, stb: Any) -> None:
        write("\n".join(str(line) for line in stb or []) + "\n")
        send(etype, said, [f"{etype.__name__}: {said}"])

    def showwarning(
        message: Warning | str, category: type[Warning], filename: str, lineno: int,
        file: TextIO | None = None, line: str | None = None,
    ) -> None:  # fmt: skip
        write(warnings.formatwarning(message, category, filename, lineno, line))

    shell.showtraceback = MethodType(showtraceback, shell)
    shell._showtraceback = MethodType(_showtraceback, shell)
    warnings.showwarning = showwarning
    return True


def _writer(log: TextIO | None) -> Callable[[str], None]:
    """Where the details go: `log`, else the kernel process's real stderr. In a kernel,
    `sys.stderr` and even file descriptor 2 are forwarded to the page (ipykernel's captured
    output); the descriptor it keeps of the real stderr is not (ipykernel's own log writes
    there too)."""
    fd = getattr(sys.stderr, "_original_stdstream_copy", None)

    def write(text: str) -> None:
        try:
            if log is not None:
                log.write(text)
                log.flush()
            elif isinstance(fd, int):
                os.write(fd, text.encode("utf-8", "replace"))
            elif sys.__stderr__ is not None:
                sys.__stderr__.write(text)
                sys.__stderr__.flush()
        except (OSError, ValueError):  # nowhere to write: the page is still told nothing
            pass

    return write


__all__ = ["MESSAGE", "hide_paths"]
