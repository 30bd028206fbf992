"""SVG text of a :class:`~solver.core.drawing.scene.Scene`, with the standard library only.

The output is a standalone SVG 1.1 document: one element per shape, a group's role as its ``class``
and its tooltip as a ``<title>``, so that pieces and arrows can be found (``g.piece``, ``g.move``):

>>> from solver.core.drawing.scene import Circle, Group, Scene
>>> text = render(Scene(20, 20, (Group("piece black", (Circle(10, 10, 8, "#000"),), "black C3"),)))
>>> print(text[text.index("<g"):], end="")
<g class="piece black"><title>black C3</title>
<circle cx="10" cy="10" r="8" fill="#000"/>
</g>
</svg>
"""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from solver.core.drawing.scene import Circle, Group, Line, Polygon, Rect, Scene, Shape, Text

#: The fonts asked for, the first being the one matplotlib draws PNGs with.
FONT_FAMILY = "DejaVu Sans, Verdana, Arial, sans-serif"


def _number(value: float) -> str:
    """A coordinate with at most two decimals and no trailing zeros."""
    return f"{round(value, 2):g}"


def _attributes(**attributes: str | float | None) -> str:
    """``name="value"`` pairs, underscores as hyphens; None and defaults left out by the caller."""
    return " ".join(f"{name.replace('_', '-')}={quoteattr(value if isinstance(value, str) else _number(value))}"
                    for name, value in attributes.items() if value is not None)


def _paint(stroke: str, width: float, opacity: float) -> dict[str, str | float]:
    paint: dict[str, str | float] = {}
    if stroke != "none" and width > 0:
        paint.update(stroke=stroke, stroke_width=width)
    if opacity != 1.0:
        paint["opacity"] = opacity
    return paint


def _element(shape: Shape) -> str:
    if isinstance(shape, Group):
        title = f"<title>{escape(shape.tooltip)}</title>" if shape.tooltip else ""
        inner = "\n".join(_element(child) for child in shape.shapes)
        return f"<g{' class=' + quoteattr(shape.role) if shape.role else ''}>{title}\n{inner}\n</g>"
    if isinstance(shape, Rect):
        corner = {"rx": shape.radius} if shape.radius else {}
        return (f"<rect {_attributes(x=shape.x, y=shape.y, width=shape.width, height=shape.height, **corner)} "
                f"{_attributes(fill=shape.fill, **_paint(shape.stroke, shape.stroke_width, shape.opacity))}/>")
    if isinstance(shape, Circle):
        return (f"<circle {_attributes(cx=shape.cx, cy=shape.cy, r=shape.r, fill=shape.fill)}"
                f"{' ' + _attributes(**_paint(shape.stroke, shape.stroke_width, 1.0)) if shape.stroke_width else ''}/>")
    if isinstance(shape, Line):
        return (f"<line {_attributes(x1=shape.x1, y1=shape.y1, x2=shape.x2, y2=shape.y2)} "
                f"{_attributes(stroke=shape.stroke, stroke_width=shape.width, stroke_linecap='round')}"
                f"{' ' + _attributes(opacity=shape.opacity) if shape.opacity != 1.0 else ''}/>")
    if isinstance(shape, Polygon):
        points = " ".join(f"{_number(x)},{_number(y)}" for x, y in shape.points)
        paint = _paint(shape.stroke, shape.stroke_width, shape.opacity)
        if "stroke" in paint:
            paint["stroke_linejoin"] = "round"
        return (f"<polygon {_attributes(points=points, fill=shape.fill)}"
                f"{' ' + _attributes(**paint) if paint else ''}/>")
    if isinstance(shape, Text):
        weight = {"font_weight": "bold"} if shape.bold else {}
        return (f"<text {_attributes(x=shape.x, y=shape.y, font_size=shape.size, fill=shape.fill)} "
                f"{_attributes(text_anchor=shape.anchor, dominant_baseline='central', **weight)}>"
                f"{escape(shape.text)}</text>")
    raise TypeError(f"not a shape: {shape!r}")


def render(scene: Scene, declaration: bool = True) -> str:
    """The SVG document of ``scene`` (without the ``<?xml?>`` line if not ``declaration``, for
    inlining into HTML)."""
    head = f"<svg {_attributes(xmlns='http://www.w3.org/2000/svg', width=scene.width, height=scene.height)} " \
           f"viewBox=\"0 0 {scene.width} {scene.height}\" font-family={quoteattr(FONT_FAMILY)}>"
    lines = ['<?xml version="1.0" encoding="UTF-8"?>'] if declaration else []
    lines.append(head)
    if scene.title:
        lines.append(f"<title>{escape(scene.title)}</title>")
    lines.append(f"<rect {_attributes(width=scene.width, height=scene.height, fill=scene.background)}/>")
    lines.extend(_element(shape) for shape in scene.shapes)
    lines.append("</svg>")
    return "\n".join(lines) + "\n"
