"""Drawing: a picture as plain shapes, drawn as SVG or PNG, encoded as files, shown in notebooks.

* :mod:`~solver.core.drawing.scene`: a picture as a list of plain shapes;
* :mod:`~solver.core.drawing.svg`: SVG text of a scene;
* :mod:`~solver.core.drawing.png`: PNG images of a scene, with matplotlib;
* :mod:`~solver.core.drawing.pictures`: pictures as file contents in a format;
* :mod:`~solver.core.drawing.notebook`: what a notebook shows of the games' objects.
"""

__all__ = ["scene", "svg", "png", "pictures", "notebook"]
