"""Games people play: records, annotation and play in the terminal.

* :mod:`~solver.necnon.playing.record`: game records and their turns;
* :mod:`~solver.necnon.playing.annotate`: every turn of a game judged;
* :mod:`~solver.necnon.playing.play`: the game loop of play.
"""

__all__ = ["record", "annotate", "play"]
