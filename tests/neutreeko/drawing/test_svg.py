"""Pictures: the scene of a diagram, its SVG (well-formed, pieces and arrows counted) and its PNG."""

from __future__ import annotations

import re
import struct
import xml.etree.ElementTree as ElementTree
from html.parser import HTMLParser

import pytest

from solver.core.drawing import pictures as formats
from solver.core.drawing import png, svg
from solver.core.drawing.scene import Circle, Group, Line, Polygon, Rect, Scene, Text, flatten
from solver.neutreeko.drawing import diagram, pictures
from solver.neutreeko.model.game import Game
from solver.neutreeko.model.position import Position
from tests.helpers import LONGEST, START

SVG = "{http://www.w3.org/2000/svg}"


def parse(text: str) -> ElementTree.Element:
    root = ElementTree.fromstring(text.encode() if isinstance(text, str) else text)
    assert root.tag == f"{SVG}svg"
    return root


def groups(root: ElementTree.Element, role: str) -> list[ElementTree.Element]:
    """The <g> elements whose class starts with ``role`` (e.g. "piece", "move win")."""
    return [element for element in root.iter(f"{SVG}g") if element.get("class", "").startswith(role)]


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def diagram_of(tablebase, text: str, moves: str = ""):
    position = Position.parse(text)
    last = None
    for move in moves.split():
        last = position.parse_move(move)
        position = position.play(last)
    return diagram.board_diagram(position, tablebase.probe(position), tablebase.moves(position), last)


def test_start_diagram_pieces_and_arrows(tablebase):
    """Three pieces a side, one arrow and one label per legal move, coloured and labelled by value."""
    ranked = tablebase.moves(START)
    root = parse(svg.render(diagram_of(tablebase, START)))
    assert len(groups(root, "piece black")) == 3 and len(groups(root, "piece white")) == 3
    arrows = groups(root, "move ")
    assert len(arrows) == len(ranked) == 14
    best = {m.name for m in ranked if m.value == "draw"}  # the two drawing moves, as good as each other
    assert sorted(a.get("class") for a in arrows) == \
        sorted(f"move {m.value}{' best' if m.name in best else ''}" for m in ranked)
    assert {a.find(f"{SVG}title").text for a in arrows} == \
        {f"{m.name}: {'draw (best)' if m.value == 'draw' else 'loses in %d' % m.plies}" for m in ranked}
    for arrow in arrows:
        colour = diagram.VALUE_COLOURS[arrow.get("class").split()[1]]
        assert {shape.get("stroke") or shape.get("fill") for shape in arrow} - {None} == {colour}
    labels = groups(root, "distance ")
    assert sorted(label.find(f"{SVG}text").text for label in labels) == \
        sorted(m.evaluation.label() for m in ranked)
    texts = [element.text for element in root.iter(f"{SVG}text")]
    assert "Black to move: draw" in texts and START in texts
    faint = [element.text for element in root.iter(f"{SVG}text") if element.get("fill") == diagram.FAINT_INK]
    assert faint == list("ABCDE12345") + [START]  # file and rank labels, the position in notation


def test_last_move_highlighted(tablebase):
    scene = diagram_of(tablebase, START, "C4-C3")
    highlighted = [s for s in flatten(scene.shapes) if isinstance(s, Rect) and s.fill == diagram.LAST_MOVE]
    assert len(highlighted) == 2 + 1  # origin and target squares, and the legend's swatch
    root = parse(svg.render(scene))
    assert "White to move wins in 3 plies" in [element.text for element in root.iter(f"{SVG}text")]
    assert len(groups(root, "move win")) == 2  # B5-B2 and D5-D2
    without = parse(svg.render(diagram_of(tablebase, START)))
    assert not [r for r in without.iter(f"{SVG}rect") if r.get("fill") == diagram.LAST_MOVE]


def test_finished_game_has_no_arrows_and_rings_the_winner(tablebase):
    scene = diagram_of(tablebase, "5/5/b1w2/bw3/bw3 w")
    root = parse(svg.render(scene))
    assert groups(root, "move") == [] and groups(root, "legend") == []
    rings = [s for s in flatten(scene.shapes) if isinstance(s, Circle) and s.stroke == diagram.WINNING_RING]
    assert len(rings) == 3
    assert "Black has won (three in a row on A1 A2 A3)" in " ".join(e.text for e in root.iter(f"{SVG}text"))


@pytest.mark.parametrize("board", ["3x3", "4x7", "7x7"])
def test_any_board_without_values(board):
    """Any board size draws; without a tablebase, the header only says who is to move."""
    position = Position.start(Game.of(board))
    width, height = (int(side) for side in board.split("x"))
    scene = diagram.board_diagram(position)
    root = parse(svg.render(scene))
    assert len(groups(root, "piece")) == 6
    squares = [r for r in root.iter(f"{SVG}rect") if r.get("fill") in (diagram.LIGHT_SQUARE, diagram.DARK_SQUARE)]
    assert len(squares) == width * height
    assert "Black to move" in [element.text for element in root.iter(f"{SVG}text")]
    assert scene.width >= width * diagram.CELL and scene.height >= height * diagram.CELL


def test_text_is_escaped():
    scene = Scene(50, 20, (Text(5, 10, "<&> \"'", 10), Group("a <b>", (Rect(0, 0, 1, 1, "#000"),), "x & y")),
                  title="t<")
    root = parse(svg.render(scene))
    assert root.find(f"{SVG}text").text == "<&> \"'"
    assert root.find(f"{SVG}g").get("class") == "a <b>"


def test_line_sheet(tablebase):
    """One small board per ply plus the start, each with its heading and value."""
    line = tablebase.line(LONGEST)
    root = parse(pictures.line_picture(line, "svg"))
    frames = groups(root, "frame")
    assert len(frames) == len(line.steps) + 1 == 52
    assert len(groups(root, "piece")) == 6 * 52
    texts = [element.text for element in root.iter(f"{SVG}text")]
    assert "1. A1-A4 !" in texts and "1... A5-E5" in texts and "26. D5-E4" in texts
    assert "White to move: loses in 50" in texts and "Black has won" in texts
    assert "Black to move: wins in 51" in texts
    highlighted = [r for r in root.iter(f"{SVG}rect") if r.get("fill") == diagram.LAST_MOVE]
    assert len(highlighted) == 2 * 51


def test_line_page(tablebase):
    """The HTML page: one figure per frame, each holding a well-formed inline SVG board."""
    line = tablebase.line(START)
    page = pictures.line_picture(line, "html").decode()
    starts = []

    class Figures(HTMLParser):
        def handle_starttag(self, tag, attributes):
            starts.append(tag)

    Figures().feed(page)
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert starts.count("figure") == starts.count("svg") == len(line.steps) + 1
    boards = re.findall(r"<svg .*?</svg>", page, flags=re.DOTALL)
    assert len(boards) == len(line.steps) + 1
    for board in boards:
        assert len(groups(parse(board), "piece")) == 6
    assert "draw by repetition" in page and "<title>Neutreeko: perfect play from 1w1w1/2b2/5/2w2/1b1b1 b</title>" in page


def test_png_has_the_scene_size(tablebase):
    scene = diagram_of(tablebase, START, "C4-C3")
    data = png.render(scene)
    assert png_size(data) == (scene.width, scene.height)
    sheet = diagram.line_sheet(tablebase.line(LONGEST, max_plies=3))
    sheet_png = pictures.line_picture(tablebase.line(LONGEST, max_plies=3), "png")
    assert png_size(sheet_png) == (sheet.width, sheet.height)


def test_png_draws_the_same_scene():
    """Shapes land where the scene puts them: a black disc, a white square, a red line, a blue triangle."""
    from io import BytesIO

    from matplotlib.image import imread

    scene = Scene(100, 60, (Rect(0, 0, 50, 60, "#ffffff"), Circle(25, 30, 15, "#000000"),
                            Line(60, 10, 95, 10, "#ff0000", 6), Polygon(((60, 55), (95, 55), (77, 25)), "#0000ff"),
                            Text(75, 40, "x", 8)), background="#00ff00")
    pixels = imread(BytesIO(png.render(scene)))
    assert pixels.shape[:2] == (60, 100)
    colour = lambda x, y: tuple(round(float(channel)) for channel in pixels[y, x, :3])  # noqa: E731
    assert colour(25, 30) == (0, 0, 0)
    assert colour(3, 3) == (1, 1, 1)
    assert colour(77, 10) == (1, 0, 0)
    assert colour(77, 50) == (0, 0, 1)
    assert colour(98, 58) == (0, 1, 0)


def test_formats():
    formats.check_format("board.svg", "svg")
    formats.check_format("board", "png")
    formats.check_format("LINE.HTM", "html")
    for path, kind, message in (("board.jpg", "png", "not .jpg"), ("board.svg", "png", "--svg"),
                                ("board.svg", "gif", "unknown picture format")):
        with pytest.raises(formats.PictureFormatError, match=message):
            formats.check_format(path, kind)
    with pytest.raises(formats.PictureFormatError):
        formats.encode(Scene(1, 1, ()), "html")
