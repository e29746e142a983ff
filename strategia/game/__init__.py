"""The game: a scenario played turn by turn (`game`), kept in its store (`store`), seen by each
side through one function (`views`), with reconnaissance (`recon`), scoring, the review of a game
without a mediator, and quick trials.

    from strategia.game import Game
    g = Game.new("maps/continental.toml", "war.game", level=2)
    g.order("21 т.д. на 33,35")
    g.end_turn()
"""

from strategia.game.game import Game, GameError

__all__ = ["Game", "GameError"]
