"""Studies over whole tables: analyses for the notebooks, the survey of boards, fair starts, the draw graph.

* :mod:`~solver.neutreeko.studies.analysis`: what the tables say about boards, squares and openings;
* :mod:`~solver.neutreeko.studies.survey`: every board under every rule;
* :mod:`~solver.neutreeko.studies.starts`: fair starts;
* :mod:`~solver.neutreeko.studies.drawgraph`: the draw-keeping graph of a game.
"""

__all__ = ["DEPTH", "TOP", "analysis", "survey", "starts", "drawgraph"]

# Here rather than in starts, so that the help of the starts command, which shows them, imports no numpy.
#: Plies of draw-keeping play the widths of fair starts are counted to (the standard start is forced for 15).
DEPTH = 16
#: How many starts ``neutreeko starts`` lists, and ``play --start fair`` draws from.
TOP = 10
