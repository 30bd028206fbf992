"""``neutreeko show`` and the picture options of ``neutreeko line``: files written, bad input refused."""

from __future__ import annotations

import os
import re
import struct
import xml.etree.ElementTree as ElementTree

import pytest

from solver.neutreeko.drawing import diagram
from solver.neutreeko.model.position import Position
from tests.helpers import LONGEST, START, assert_one_line_error, invoke

SVG = "{http://www.w3.org/2000/svg}"


def run(*arguments):
    return invoke(*arguments)


def classes(svg_bytes) -> list[str]:
    root = ElementTree.fromstring(svg_bytes)
    return [element.get("class", "") for element in root.iter(f"{SVG}g")]


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def one_line_error(result, code: int, *fragments: str) -> None:
    assert_one_line_error(result, *fragments, code=code)


def test_show_svg_on_standard_output(tables_env):
    result = run("show", "start")
    assert result.exit_code == 0, result.stderr
    found = classes(result.stdout.encode())
    assert sum(c.startswith("piece ") for c in found) == 6
    assert sum(c.startswith("move ") for c in found) == 14


SMALL = "w2w/1b2/2w1/b2b w"


@pytest.fixture
def terminal(monkeypatch):
    """Standard output taken for a terminal (under CliRunner it never is one)."""
    monkeypatch.setattr("solver.cli.common.stdout_is_terminal", lambda: True)


def test_show_on_a_terminal_prints_text(tables_4x4, monkeypatch, terminal):
    """No SVG on a terminal: the board and its moves as query prints them, and a hint on standard error."""
    monkeypatch.setenv("NEUTREEKO_TABLES", str(tables_4x4))
    result = run("show", "--board", "4x4", SMALL)
    assert result.exit_code == 0, result.stderr
    assert "<svg" not in result.stdout
    assert result.stdout == run("query", "--board", "4x4", SMALL).stdout
    assert result.stderr.splitlines() == ["(the diagram as SVG: --svg FILE, or --svg - for standard output)"]


def test_show_svg_dash_on_a_terminal(tables_4x4, monkeypatch, terminal, tmp_path):
    """--svg - asks for the SVG on standard output, terminal or not; beside a --png file too."""
    monkeypatch.setenv("NEUTREEKO_TABLES", str(tables_4x4))
    result = run("show", "--board", "4x4", SMALL, "--svg", "-", "--png", str(tmp_path / "a.png"))
    assert result.exit_code == 0, result.stderr
    assert sum(c.startswith("piece ") for c in classes(result.stdout.encode())) == 6
    assert sorted(path.name for path in tmp_path.iterdir()) == ["a.png"]
    assert run("show", "--board", "4x4", SMALL, "--svg", str(tmp_path / "a.svg")).exit_code == 0
    assert result.stdout == (tmp_path / "a.svg").read_text()


def test_show_files(tables_env, tmp_path, tablebase):
    """--svg and --png together; the last of --moves highlighted; the PNG as large as the scene."""
    result = run("show", START, "--moves", "c4-c3 d5-d2", "--svg", str(tmp_path / "a.svg"),
                 "--png", str(tmp_path / "a.png"))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == run("query", START, "--moves", "c4-c3 d5-d2").stdout  # the text, besides the files
    shown = Position.parse(START).play("C4-C3").play("D5-D2")
    found = classes((tmp_path / "a.svg").read_bytes())
    assert sum(c.startswith("move ") for c in found) == len(tablebase.moves(shown))
    assert sum(c.startswith("move loss") for c in found) == len(tablebase.moves(shown))  # Black loses in 2 whatever it does
    root = ElementTree.parse(tmp_path / "a.svg").getroot()
    assert len([r for r in root.iter(f"{SVG}rect") if r.get("fill") == diagram.LAST_MOVE]) == 3
    scene = diagram.board_diagram(shown, tablebase.probe(shown), tablebase.moves(shown),
                                  Position.parse(START).play("C4-C3").parse_move("D5-D2"))
    assert png_size((tmp_path / "a.png").read_bytes()) == (scene.width, scene.height)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["a.png", "a.svg"]


@pytest.mark.kernel
def test_show_other_board(tmp_path, monkeypatch):
    """A 4 x 4 position: its table is built on first use, as for query."""
    monkeypatch.setenv("NEUTREEKO_TABLES", str(tmp_path / "tables"))
    result = run("show", "--board", "4x4", "w2w/1b2/2w1/b2b w", "--svg", str(tmp_path / "small.svg"))
    assert result.exit_code == 0, result.stderr
    assert "building the 4x4 connected table" in result.stderr
    found = classes((tmp_path / "small.svg").read_bytes())
    assert sum(c.startswith("piece ") for c in found) == 6


def test_line_pictures(tables_env, tmp_path):
    """--svg and --html beside the usual text (or JSON) output."""
    result = run("line", LONGEST, "--svg", str(tmp_path / "line.svg"), "--html", str(tmp_path / "line.htm"))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "result: black wins (three in a row on E3 E4 E5)"
    assert sum(c == "frame" for c in classes((tmp_path / "line.svg").read_bytes())) == 52
    page = (tmp_path / "line.htm").read_text()
    assert page.count("<figure") == 52
    result = run("line", "start", "--json", "--html", str(tmp_path / "draw.html"))
    assert result.exit_code == 0 and result.stdout.startswith("{")
    assert (tmp_path / "draw.html").read_text().count("<figure") == 22


@pytest.mark.parametrize("arguments, code, fragments", [
    (["show", "1w1w1/2b2/5/2w2 b"], 2, ["5x4 board"]),
    (["show", "start", "--moves", "C4-C9"], 2, ["C9"]),
    (["show", "start", "--moves", "C4-C2"], 2, ["not legal"]),
    (["show", "start", "--moves", "C4"], 2, ["FROM-TO"]),
    (["show", "start", "--png", "{dir}/board.jpg"], 2, ["not .jpg"]),
    (["show", "start", "--svg", "{dir}/board.png"], 2, [".png", "--png"]),
    (["show", "start", "--png", "{dir}/keep.svg/board.png"], 1, ["cannot write", "keep.svg is not a directory"]),
    (["show", "start", "--svg", "{dir}"], 1, ["cannot write", "directory"]),
    (["line", "start", "--html", "{dir}/line.svg"], 2, ["HTML files end in .html or .htm"]),
    (["line", "start", "--svg", "{dir}/keep.svg/line.svg"], 1, ["cannot write", "not a directory"]),
    (["line", "start", "--moves", "B1-B2", "--svg", "{dir}/line.svg"], 2, ["not legal"]),
])
def test_bad_input(tables_env, tmp_path, arguments, code, fragments):
    """One line on standard error, a non-zero exit, and no file (partial or temporary) left behind."""
    (tmp_path / "keep.svg").write_text("previous")
    result = run(*[argument.replace("{dir}", str(tmp_path)) for argument in arguments])
    one_line_error(result, code, *fragments)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["keep.svg"]
    assert (tmp_path / "keep.svg").read_text() == "previous"


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
def test_unwritable_directory(tables_env, tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        one_line_error(run("show", "start", "--svg", str(locked / "board.svg")), 1, "Permission denied")
        assert list(locked.iterdir()) == []
    finally:
        locked.chmod(0o700)


def test_failed_write_keeps_the_previous_file(tables_env, tmp_path, monkeypatch):
    """An error while writing (here: the rename) leaves the previous picture whole."""
    target = tmp_path / "board.svg"
    target.write_text("previous")

    def fail(*_):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("solver.core.files.os.replace", fail)
    one_line_error(run("show", "start", "--svg", str(target)), 1, "No space left on device")
    assert target.read_text() == "previous"
    assert [path.name for path in tmp_path.iterdir()] == ["board.svg"]


# -- which moves are drawn, and how: --best, --keeping, labels at the heads, the best in bold ----------

def titles(svg_bytes, role: str = "move ") -> list[str]:
    """The tooltips of the groups whose class starts with ``role``, in drawing order."""
    root = ElementTree.fromstring(svg_bytes)
    return [element.find(f"{SVG}title").text for element in root.iter(f"{SVG}g")
            if element.get("class", "").startswith(role)]


def test_show_best_draws_only_the_best_moves(tables_env, tablebase):
    ranked = tablebase.moves("start")
    result = run("show", "start", "--best", "3")
    assert result.exit_code == 0, result.stderr
    drawn = [title.split(":")[0] for title in titles(result.stdout.encode())]
    assert sorted(drawn) == sorted(move.name for move in ranked[:3]) == ["B1-B4", "B1-C1", "D1-C1"]
    assert len(titles(run("show", "start", "--best", "99").stdout.encode())) == len(ranked)
    one_line_error(run("show", "start", "--best", "0"), 2, "--best")


@pytest.mark.parametrize("position, expected", [
    (LONGEST, ["A1-A4"]),                                        # won: the one winning move
    ("start", ["B1-C1", "D1-C1"]),                               # drawn: the drawing moves
    ("1w3/5/2b2/2ww1/1b1b1 b", None),                            # lost: every move loses, all drawn
])
def test_show_keeping_draws_the_moves_that_keep_the_value(tables_env, tablebase, position, expected):
    result = run("show", position, "--keeping")
    assert result.exit_code == 0, result.stderr
    drawn = sorted(title.split(":")[0] for title in titles(result.stdout.encode()))
    every = sorted(move.name for move in tablebase.moves(position))
    assert drawn == (expected if expected is not None else every)
    assert tablebase.probe(position).value == {"A1-A4": "win", "B1-C1": "draw"}.get((expected or ["-"])[0], "loss")
    both = run("show", "start", "--keeping", "--best", "1")
    assert [title.split(":")[0] for title in titles(both.stdout.encode())] == ["B1-C1"]


def _label_centres_and_tips(scene) -> tuple[dict[str, tuple[float, float]], dict[str, tuple[float, float]]]:
    """By move name: the centre of its label's box and the tip of its arrowhead, in a board diagram."""
    from solver.core.drawing.scene import Polygon, Rect, flatten

    centres, tips = {}, {}
    for group in scene.shapes:
        role, name = getattr(group, "role", ""), getattr(group, "tooltip", "").split(":")[0]
        if role.startswith("distance "):
            box = next(shape for shape in flatten(group.shapes) if isinstance(shape, Rect))
            centres[name] = (box.x + box.width / 2, box.y + box.height / 2, box.width, box.height)
        elif role.startswith("move "):
            tips[name] = next(shape for shape in flatten(group.shapes) if isinstance(shape, Polygon)).points[0]
    return centres, tips


@pytest.mark.parametrize("text", [START, LONGEST, "1w1w1/5/2b2/2w2/1b1b1 w", "2w2/w4/1bb2/3w1/b4 w"])
def test_labels_stand_at_the_arrowheads_apart(tablebase, text):
    """Each label stands just behind its own arrowhead, where the arrow ends (so crossing arrows read
    apart), and no two labels overlap."""
    position = Position.parse(text)
    ranked = tablebase.moves(position)
    centres, tips = _label_centres_and_tips(diagram.board_diagram(position, tablebase.probe(position), ranked))
    assert sorted(centres) == sorted(tips) == sorted(move.name for move in ranked)
    for name, (x, y, _, _) in centres.items():
        assert ((tips[name][0] - x) ** 2 + (tips[name][1] - y) ** 2) ** 0.5 < 0.55 * diagram.CELL, (text, name)
    boxes = list(centres.items())
    for number, (name, (x, y, width, height)) in enumerate(boxes):
        for other, (x2, y2, width2, height2) in boxes[number + 1:]:
            assert abs(x - x2) >= (width + width2) / 2 or abs(y - y2) >= (height + height2) / 2, (text, name, other)


def test_the_best_moves_are_bold(tablebase):
    """The arrows of the best moves (as good as the first) are marked best and drawn wider, their labels
    filled; the others not."""
    from solver.core.drawing.scene import Line as Stroke
    from solver.core.drawing.scene import Rect, flatten
    from solver.neutreeko.querying.probe import best_moves

    for text in (START, LONGEST, "1w1w1/5/2b2/2w2/1b1b1 w"):
        ranked = tablebase.moves(text)
        best = {move.name for move in best_moves(ranked)}
        scene = diagram.board_diagram(Position.parse(text), tablebase.probe(text), ranked)
        arrows = [group for group in scene.shapes if getattr(group, "role", "").startswith("move ")]
        marked = {group.tooltip.split(":")[0] for group in arrows if group.role.endswith(" best")}
        assert marked == best and len(arrows) == len(ranked)
        widths = {group.tooltip.split(":")[0]: next(s for s in flatten(group.shapes) if isinstance(s, Stroke)).width
                  for group in arrows}
        assert min(widths[name] for name in best) > max((widths[name] for name in widths if name not in best),
                                                        default=0)
        labels = [group for group in scene.shapes if getattr(group, "role", "").startswith("distance ")]
        for group in labels:
            box = next(shape for shape in flatten(group.shapes) if isinstance(shape, Rect))
            assert (box.fill != "#ffffff") == (group.tooltip.split(":")[0] in best)


def test_line_png_and_show_html(tables_env, tablebase, tmp_path):
    """Both commands offer the same three formats: line --png, show --html."""
    result = run("line", LONGEST, "--png", str(tmp_path / "line.png"))
    assert result.exit_code == 0, result.stderr
    scene = diagram.line_sheet(tablebase.line(LONGEST))
    assert png_size((tmp_path / "line.png").read_bytes()) == (scene.width, scene.height)
    result = run("show", START, "--moves", "C4-C3", "--html", str(tmp_path / "board.html"))
    assert result.exit_code == 0 and result.stdout == run("query", START, "--moves", "C4-C3").stdout, result.stderr
    page = (tmp_path / "board.html").read_text()
    shown = Position.parse(START).play("C4-C3")
    ranked = tablebase.moves(shown)
    assert page.startswith("<!DOCTYPE html>") and page.count("<svg") == 1
    assert "White to move wins in 3 plies" in page
    rows = re.findall(r'<tr( class="best")?><td>([A-E]\d-[A-E]\d)</td>', page)
    assert [name for _, name in rows] == [move.name for move in ranked]
    assert [name for best, name in rows if best] == ["B5-B2", "D5-D2"]
    for option in ("--svg", "--png", "--html"):
        assert option in run("line", "--help").stdout and option in run("show", "--help").stdout
