"""What a notebook shows: positions of both games display as their board diagrams (SVG), lines as their
sheets under their summaries and ranked moves or turns as tables (HTML), as IPython's display formatter
finds them; and the drawing layer is loaded only when something is drawn."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ElementTree

import pytest
from IPython.core.formatters import DisplayFormatter

from solver.core.drawing.scene import Circle, Group, Scene
from solver.necnon.model.position import Position as NecnonPosition
from solver.necnon.model.rules import Game as NecnonGame
from solver.necnon.querying.probe import Tablebase as NecnonTablebase
from solver.neutreeko.model.position import Position
from tests.helpers import LONGEST, START

SVG = "{http://www.w3.org/2000/svg}"


def shown(thing: object) -> dict[str, str]:
    """What a notebook cell ending with ``thing`` displays, by MIME type."""
    data, _ = DisplayFormatter().format(thing)
    return data


def svg_of(text: str) -> ElementTree.Element:
    root = ElementTree.fromstring(text)
    assert root.tag == f"{SVG}svg"
    return root


def tooltips(root: ElementTree.Element, role: str) -> list[str]:
    """The tooltips of the groups whose class starts with ``role`` (``"piece"``, ``"stone"``)."""
    return sorted(element.findtext(f"{SVG}title", "") for element in root.iter(f"{SVG}g")
                  if element.get("class", "").startswith(role))


def html_of(text: str) -> ElementTree.Element:
    """The HTML fragment, parsed (it is well-formed XML, inline SVG included)."""
    return ElementTree.fromstring(text)


def table_rows(text: str) -> list[list[str]]:
    table = html_of(text)
    assert table.tag == "table"
    return [[cell.text or "" for cell in row] for row in table.iter("tr")]


# -- Neutreeko --------------------------------------------------------------------------------------

def test_a_position_displays_as_its_board():
    data = shown(Position.parse(START).play("C4-C3"))
    assert data["text/plain"] == "Position('1w1w1/5/2b2/2w2/1b1b1 w')"
    root = svg_of(data["image/svg+xml"])
    assert tooltips(root, "piece ") == ["black B1", "black C3", "black D1", "white B5", "white C2", "white D5"]
    assert tooltips(root, "move") == []  # a position alone has no values: no arrows


def test_ranked_moves_display_as_a_table_and_stay_a_list(tablebase):
    moves = tablebase.moves(START)
    assert isinstance(moves, list) and moves == list(moves) and moves[:1] == [moves[0]]
    rows = table_rows(shown(moves)["text/html"])
    assert rows[0] == ["move", "value", "plies"]
    assert rows[1:4] == [["B1-C1", "draw", ""], ["D1-C1", "draw", ""], ["B1-B4", "loss", "22"]]
    assert len(rows) == 1 + len(Position.parse(START).moves())


def test_a_line_displays_as_its_summary_and_its_sheet(tablebase):
    line = tablebase.line(LONGEST, max_plies=4)
    page = html_of(shown(line)["text/html"])
    assert [paragraph.text for paragraph in page.iter("p")][0] \
        == "Black to move wins in 51 plies; the line: 4 plies, stopped"
    root = page.find(f"{SVG}svg")
    assert root is not None and root.findtext(f"{SVG}title") == f"Perfect play from {LONGEST}"
    frames = [element for element in root.iter(f"{SVG}g") if element.get("class") == "frame"]
    assert [frame.findtext(f"{SVG}title").split(":")[0] for frame in frames] == \
        ["start", *(f"{label} {step.name}{' !' * step.forced}"
                    for label, step in zip(["1.", "1...", "2.", "2..."], line.steps))]


def test_a_scene_displays_as_svg_beside_a_short_text():
    scene = Scene(20, 20, (Group("piece black", (Circle(10, 10, 8, "#000"), Circle(10, 10, 4, "#fff")), "black C3"),),
                  title="a piece")
    data = shown(scene)
    assert tooltips(svg_of(data["image/svg+xml"]), "piece") == ["black C3"]
    assert data["text/plain"] == "Scene('a piece', 20 x 20, 2 shapes)"  # stored in the notebook: not every shape


# -- NECNON -----------------------------------------------------------------------------------------

def test_a_necnon_position_displays_as_its_board():
    game = NecnonGame.of("4x4")
    data = shown(NecnonPosition.parse("2b1/g3/4/3g b", game))
    root = svg_of(data["image/svg+xml"])
    assert tooltips(root, "stone ") == ["black c4", "black to move", "green a3", "green d1"]  # the header's too
    assert len([element for element in root.iter(f"{SVG}g") if element.get("class") == "cell"]) == 16


def test_ranked_turns_display_as_a_table_and_stay_a_list(necnon_tables):
    empty = NecnonPosition.empty(NecnonGame.of("3x3", "nec"))
    with NecnonTablebase(necnon_tables) as tablebase:
        turns = tablebase.turns(empty)
    assert isinstance(turns, list) and turns == list(turns)
    rows = table_rows(shown(turns)["text/html"])
    assert rows[0] == ["turn", "value (Black minus Green)", "turns"]
    assert rows[1:3] == [["a1", "-1", "5"], ["b1", "-1", "5"]]
    assert len(rows) == 1 + 9


def test_a_necnon_line_displays_as_its_summary_and_its_sheet(necnon_tables):
    with NecnonTablebase(necnon_tables) as tablebase:
        line = tablebase.line(NecnonPosition.empty(NecnonGame.of("hex2", "nec")))
    page = html_of(shown(line)["text/html"])
    summary = page.findtext("p")
    assert summary.startswith("Black to move: ") and f"result: {line.result}" in summary
    root = page.find(f"{SVG}svg")
    assert root is not None
    frames = [element for element in root.iter(f"{SVG}g") if element.get("class") == "frame"]
    assert len(frames) == 1 + len(line.steps)


# -- start-up ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("game, position", [
    ("neutreeko", "Position.parse('start')"),
    ("necnon", "Position.empty(Game.of('3x3'))"),
])
def test_the_drawing_layer_loads_only_to_draw(game, position):
    """Positions and probes import no drawing module (a query starts fast); displaying a position does."""
    rules = "from solver.necnon.model.rules import Game\n" if game == "necnon" else ""
    code = (f"import sys\nfrom solver.{game}.model.position import Position\nimport solver.{game}.querying.probe\n{rules}"
            f"drawing = {{'solver.{game}.drawing.diagram', 'solver.core.drawing.svg', 'solver.core.drawing.notebook'}}\n"
            f"print(sorted(drawing & set(sys.modules)))\n"
            f"text = {position}._repr_svg_()\n"
            f"print(text.startswith('<svg'), 'matplotlib' in sys.modules, 'numba' in sys.modules)\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["[]", "True False False"]
