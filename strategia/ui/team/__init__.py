"""A side's own screen (`strategia serve`), and what serves the screens: their Voilà (`server`,
run as a module), its /logout page (`logout`), the page told no server paths (`errors`)."""

from strategia.ui.team.screen import TeamScreen

__all__ = ["TeamScreen"]
