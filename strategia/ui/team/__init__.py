"""A side's own screen (`strategia serve`), and the screens' /logout page."""

from strategia.ui.team.screen import TeamScreen

__all__ = ["TeamScreen"]
