"""PNG images of a :class:`~solver.core.drawing.scene.Scene`, drawn with matplotlib.

One scene pixel is one image pixel: a scene ``width`` x ``height`` gives a PNG of exactly that many
pixels. matplotlib is imported when a PNG is drawn, not before (queries must start fast). Its own
font, DejaVu Sans, is the first one the SVG backend asks for, so both draw text alike.

matplotlib (with fontTools and Pillow, some 100 MB installed) is the ``png`` extra, not a dependency:
without it :func:`require` and :func:`render` raise :class:`PNGUnavailableError`, whose message names
the install command.
"""

from __future__ import annotations

import io
from typing import Any

from solver.core.drawing.scene import Circle, Line, Polygon, Rect, Scene, Text, flatten

_DPI = 100
_POINTS_PER_PIXEL = 72 / _DPI
_ALIGN = {"start": "left", "middle": "center", "end": "right"}

#: What installs PNG output.
INSTALL = "pip install 'neutreeko-solver[png]'"


class PNGUnavailableError(ImportError):
    """PNG output was asked for, but matplotlib (the ``png`` extra) is not installed."""


def require() -> None:
    """Return if PNGs can be drawn; raise :class:`PNGUnavailableError` if matplotlib cannot be imported."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise PNGUnavailableError(f"PNG output needs matplotlib, which is not installed: {INSTALL}") from None


def render(scene: Scene) -> bytes:
    """The PNG bytes of ``scene``, ``scene.width`` x ``scene.height`` pixels; :class:`PNGUnavailableError`
    without matplotlib."""
    require()
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.patches import Circle as CirclePatch
    from matplotlib.patches import FancyBboxPatch, Rectangle
    from matplotlib.patches import Polygon as PolygonPatch

    figure = Figure(figsize=(scene.width / _DPI, scene.height / _DPI), dpi=_DPI, facecolor=scene.background)
    FigureCanvasAgg(figure)
    axes = figure.add_axes((0, 0, 1, 1))
    axes.set_xlim(0, scene.width)
    axes.set_ylim(scene.height, 0)  # y downwards, as in the scene
    axes.set_axis_off()
    for order, shape in enumerate(flatten(scene.shapes)):
        common: dict[str, Any] = {"zorder": order}
        if isinstance(shape, Rect):
            edge: dict[str, Any] = {"edgecolor": shape.stroke, "linewidth": shape.stroke_width * _POINTS_PER_PIXEL}
            if shape.radius:
                axes.add_patch(FancyBboxPatch((shape.x, shape.y), shape.width, shape.height,
                                              boxstyle=f"round,pad=0,rounding_size={shape.radius}",
                                              facecolor=shape.fill, alpha=shape.opacity, **edge, **common))
            else:
                axes.add_patch(Rectangle((shape.x, shape.y), shape.width, shape.height, facecolor=shape.fill,
                                         alpha=shape.opacity, **edge, **common))
        elif isinstance(shape, Circle):
            axes.add_patch(CirclePatch((shape.cx, shape.cy), shape.r, facecolor=shape.fill,
                                       edgecolor=shape.stroke,
                                       linewidth=shape.stroke_width * _POINTS_PER_PIXEL, **common))
        elif isinstance(shape, Line):
            axes.plot([shape.x1, shape.x2], [shape.y1, shape.y2], color=shape.stroke, alpha=shape.opacity,
                      linewidth=shape.width * _POINTS_PER_PIXEL, solid_capstyle="round", **common)
        elif isinstance(shape, Polygon):
            axes.add_patch(PolygonPatch(shape.points, closed=True, facecolor=shape.fill, edgecolor=shape.stroke,
                                        linewidth=shape.stroke_width * _POINTS_PER_PIXEL, joinstyle="round",
                                        alpha=shape.opacity, **common))
        elif isinstance(shape, Text):
            axes.text(shape.x, shape.y, shape.text, fontsize=shape.size * _POINTS_PER_PIXEL, color=shape.fill,
                      ha=_ALIGN[shape.anchor], va="center", fontweight="bold" if shape.bold else "normal",
                      family="DejaVu Sans", **common)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=_DPI, facecolor=scene.background, metadata={"Software": None})
    return buffer.getvalue()
