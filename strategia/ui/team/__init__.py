"""A side's own screen (`strategia serve`), and what serves the screens and the console: their
Voilà (`server`, run as a module) and its kernels (`kernels`), its /logout page (`logout`), the
page told no server paths (`errors`)."""

from strategia.ui.team.screen import TeamScreen

__all__ = ["TeamScreen"]
