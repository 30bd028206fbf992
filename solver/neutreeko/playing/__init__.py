"""Games people play: records, annotation, play against the tables, puzzles and training.

* :mod:`~solver.neutreeko.playing.record`: game records and their moves;
* :mod:`~solver.neutreeko.playing.annotate`: every ply of a game judged against the tables;
* :mod:`~solver.neutreeko.playing.play`: the game loop of play and its engines;
* :mod:`~solver.neutreeko.playing.puzzles`: positions of real play with one value-keeping move;
* :mod:`~solver.neutreeko.playing.train`: puzzles one after another, each answer judged.
"""

__all__ = ["ENGINE_NAMES", "KINDS", "ORIGINS", "SIDE_NAMES", "record", "annotate", "play", "puzzles", "train"]

# Here rather than in play and puzzles, so that the help of the commands that show them imports no numpy.
#: ``play --as``: the sides a person may play (:data:`~solver.neutreeko.playing.play.SIDES`: their colours).
SIDE_NAMES = ("black", "white", "both", "none")
#: ``play --opponent``: the engines (:data:`~solver.neutreeko.playing.play.ENGINES`), best first.
ENGINE_NAMES = ("perfect", "strong", "fair", "random")
#: ``puzzles --kind``: the puzzles that keep a win, those that keep a draw, or both.
KINDS = ("win", "save", "all")
#: ``puzzles --from``: where the sampled games begin: the standard start, or the fair starts.
ORIGINS = ("standard", "fair")
