"""The mediator's console: the map, the tabs (battles, journal, recon, score, mediator, rules),
and the games it opens (sessions)."""

from strategia.ui.console.console import Console

__all__ = ["Console"]
