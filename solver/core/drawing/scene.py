"""A picture as a list of plain shapes, drawn by two backends: :mod:`solver.core.drawing.svg` and :mod:`solver.core.drawing.png`.

What a diagram shows is decided once, in :mod:`solver.neutreeko.drawing.diagram`, as a :class:`Scene`; the backends only
translate shapes, so an SVG and a PNG of the same scene show the same picture. Coordinates are pixels,
``x`` rightwards and ``y`` downwards from the top-left corner (as in SVG)::

    (0, 0) +-----------------------> x
           |   Rect(x, y, width, height)
           |   Circle(cx, cy, r)          Text(x, y, ...): y is the text's vertical middle,
           |   Line(x1, y1, x2, y2)                        x its start, middle or end (anchor)
           v   Polygon(points)
           y

Colours are CSS colour strings (``"#1a9850"``, ``"none"``). A :class:`Group` gathers shapes that make
one thing (an arrow and its label), with a role (written as the SVG ``class``, so tests and style
sheets can find pieces and arrows) and a tooltip (an SVG ``<title>``); the PNG backend draws its shapes.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterable, Literal, Union

Anchor = Literal["start", "middle", "end"]


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    width: float
    height: float
    fill: str
    stroke: str = "none"
    stroke_width: float = 0.0
    radius: float = 0.0
    opacity: float = 1.0

    def moved(self, dx: float, dy: float) -> Rect:
        return replace(self, x=self.x + dx, y=self.y + dy)


@dataclass(frozen=True)
class Circle:
    cx: float
    cy: float
    r: float
    fill: str
    stroke: str = "none"
    stroke_width: float = 0.0

    def moved(self, dx: float, dy: float) -> Circle:
        return replace(self, cx=self.cx + dx, cy=self.cy + dy)


@dataclass(frozen=True)
class Line:
    """A straight stroke with round ends."""

    x1: float
    y1: float
    x2: float
    y2: float
    stroke: str
    width: float
    opacity: float = 1.0

    def moved(self, dx: float, dy: float) -> Line:
        return replace(self, x1=self.x1 + dx, y1=self.y1 + dy, x2=self.x2 + dx, y2=self.y2 + dy)


@dataclass(frozen=True)
class Polygon:
    points: tuple[tuple[float, float], ...]
    fill: str
    opacity: float = 1.0
    stroke: str = "none"
    stroke_width: float = 0.0

    def moved(self, dx: float, dy: float) -> Polygon:
        return replace(self, points=tuple((x + dx, y + dy) for x, y in self.points))


@dataclass(frozen=True)
class Text:
    """One line of text, ``size`` pixels high (the font size), vertically centred on ``y``."""

    x: float
    y: float
    text: str
    size: float
    fill: str = "#222222"
    anchor: Anchor = "middle"
    bold: bool = False

    def moved(self, dx: float, dy: float) -> Text:
        return replace(self, x=self.x + dx, y=self.y + dy)


@dataclass(frozen=True)
class Group:
    """Shapes that make one thing, drawn in order; ``role`` names it (e.g. ``"piece black"``)."""

    role: str
    shapes: tuple[Shape, ...]
    tooltip: str = ""

    def moved(self, dx: float, dy: float) -> Group:
        return replace(self, shapes=tuple(shape.moved(dx, dy) for shape in self.shapes))


Shape = Union[Rect, Circle, Line, Polygon, Text, Group]


@dataclass(frozen=True)
class Scene:
    """A picture ``width`` x ``height`` pixels: shapes drawn in order, later ones on top."""

    width: int
    height: int
    shapes: tuple[Shape, ...]
    title: str = ""
    background: str = "#ffffff"

    def __repr__(self) -> str:
        # Short, not every shape: a notebook stores it beside the picture as the picture's plain text.
        count = len(flatten(self.shapes))
        return f"Scene({self.title!r}, {self.width} x {self.height}, {count} shape{'s' * (count != 1)})"

    def _repr_svg_(self) -> str:
        """The scene as SVG (:func:`solver.core.drawing.svg.render`, no ``<?xml?>`` line): what a notebook shows."""
        from solver.core.drawing import svg  # here, not above: the SVG backend imports this module

        return svg.render(self, declaration=False)

    def placed(self, dx: float, dy: float, role: str = "") -> Group:
        """This scene's shapes as one group moved by (``dx``, ``dy``), to be put into a larger scene."""
        return Group(role, tuple(shape.moved(dx, dy) for shape in self.shapes))


def flatten(shapes: Iterable[Shape]) -> list[Shape]:
    """Every shape but groups, in drawing order (the shapes of a group where the group stands)."""
    flat: list[Shape] = []
    for shape in shapes:
        flat.extend(flatten(shape.shapes) if isinstance(shape, Group) else [shape])
    return flat


def text_width(text: str, size: float) -> float:
    """Roughly how wide ``text`` is at ``size`` (for layout: the usual sans-serif averages 0.6 em)."""
    return 0.6 * size * len(text)
