"""The scripted game of the golden journals lives in the package: `strategia.trial`."""

from strategia.game.trial import play, script_turn

__all__ = ["play", "script_turn"]
