"""Computer players (issue 26): a player plays any side of a game of module 1 from what that
side may know, through its channel only (`strategia.game.channel.SideChannel`), and explains
each decision (`Decision`: the order, its goal, its reason as steps with their rule ids).

    from strategia.players import Player
    player = Player("blue", style="bold", posture="attack@3")
    player.move(channel(game, "blue"))

`styles` holds its thresholds as data (`cautious`, `balanced`, `bold`, and `greedy`, the
one-move player with no lasting plan and no search); `player` the move; `picture`, `plan`,
`search`, `fight`, `fire`, `withdraw`, `moves`, `advance`, `asking` and `whatif` its stages.
"""

from strategia.players.decision import Decision, Goal
from strategia.players.plan import Posture
from strategia.players.player import Player, settings
from strategia.players.styles import Style, load_styles, read_styles

__all__ = [
    "Decision",
    "Goal",
    "Player",
    "Posture",
    "Style",
    "load_styles",
    "read_styles",
    "settings",
]
