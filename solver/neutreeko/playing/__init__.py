"""Games people play: records, annotation, play against the tables, puzzles and training.

* :mod:`~solver.neutreeko.playing.record`: game records and their moves;
* :mod:`~solver.neutreeko.playing.annotate`: every ply of a game judged against the tables;
* :mod:`~solver.neutreeko.playing.play`: the game loop of play and its engines;
* :mod:`~solver.neutreeko.playing.puzzles`: positions of real play with one value-keeping move;
* :mod:`~solver.neutreeko.playing.train`: puzzles one after another, each answer judged.
"""

__all__ = ["record", "annotate", "play", "puzzles", "train"]
