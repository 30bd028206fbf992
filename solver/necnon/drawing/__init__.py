"""Pictures: diagrams of positions and lines, and the value-history chart.

* :mod:`~solver.necnon.drawing.diagram`: pictures of positions and lines;
* :mod:`~solver.necnon.drawing.chart`: the value-history chart of an annotated game.
"""

__all__ = ["diagram", "chart"]
