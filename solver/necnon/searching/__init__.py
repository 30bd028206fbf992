"""The search engine for boards too large to solve: Monte Carlo tree search, then an exact endgame.

* :mod:`~solver.necnon.searching.engine`: the engine: a search within a budget of time;
* :mod:`~solver.necnon.searching.tree`: the search tree's arrays and their reuse;
* :mod:`~solver.necnon.searching.endgame`: the exact endgame by alpha-beta within a budget of nodes.
"""

__all__ = ["engine", "tree", "endgame"]
