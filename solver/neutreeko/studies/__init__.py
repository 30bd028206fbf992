"""Studies over whole tables: analyses for the notebooks, the survey of boards, fair starts, the draw graph.

* :mod:`~solver.neutreeko.studies.analysis`: what the tables say about boards, squares and openings;
* :mod:`~solver.neutreeko.studies.survey`: every board under every rule;
* :mod:`~solver.neutreeko.studies.starts`: fair starts;
* :mod:`~solver.neutreeko.studies.drawgraph`: the draw-keeping graph of a game.
"""

__all__ = ["analysis", "survey", "starts", "drawgraph"]
