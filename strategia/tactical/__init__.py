"""The tactical rule set of seed 003: battalions, squadrons and batteries on a table in cm.

    from strategia.tactical import EXAMPLES, TacticalGame
    game = TacticalGame.new(EXAMPLES / "grove.toml")          # or .open("game.tgame")
    game.card("1/Тульский", before="move; form square")     # phase 1: the order cards
    print(game.advance())                                    # phase 2, explained

Modules: `units` (arms, formations, conditions, the unit), `skirmish` (the table, obstacles, the
skirmish file), `actions` (what a unit can do, and its notation), `movement` (moves through
obstacles), `front` (change of front), `formations` (formation changes, restoring order,
limbering), `execute` (plans within the turn's budget), `moving` (whether a unit counts as
moving, note 3), `phases` (the eight-phase turn), `game`
(the journaled game), `data` (reading the rule data exactly).
Every number comes from the `tactical` rule data (`strategia rules --ruleset tactical`).
"""

from strategia.tactical.data import tactical_rules
from strategia.tactical.game import TacticalGame
from strategia.tactical.skirmish import EXAMPLES, load_skirmish, parse_skirmish

__all__ = ["EXAMPLES", "TacticalGame", "load_skirmish", "parse_skirmish", "tactical_rules"]
