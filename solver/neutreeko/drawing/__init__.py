"""Pictures: diagrams of positions and lines, the value-history chart, and their files.

* :mod:`~solver.neutreeko.drawing.diagram`: what a picture of a position or a line shows;
* :mod:`~solver.neutreeko.drawing.pictures`: pictures as SVG, PNG or HTML bytes;
* :mod:`~solver.neutreeko.drawing.chart`: the value-history chart of an annotated game.
"""

__all__ = ["diagram", "pictures", "chart"]
