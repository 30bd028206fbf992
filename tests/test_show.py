"""``neutreeko show`` and the picture options of ``neutreeko line``: files written, bad input refused."""

from __future__ import annotations

import os
import struct
import xml.etree.ElementTree as ElementTree

import pytest

from solver.neutreeko import diagram
from solver.neutreeko.position import Position
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


def test_show_files(tables_env, tmp_path, tablebase):
    """--svg and --png together; the last of --moves highlighted; the PNG as large as the scene."""
    result = run("show", START, "--moves", "c4-c3 d5-d2", "--svg", str(tmp_path / "a.svg"),
                 "--png", str(tmp_path / "a.png"))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == ""
    shown = Position.parse(START).play("C4-C3").play("D5-D2")
    found = classes((tmp_path / "a.svg").read_bytes())
    assert sum(c.startswith("move ") for c in found) == len(tablebase.moves(shown))
    assert sum(c == "move loss" for c in found) == len(tablebase.moves(shown))  # Black loses in 2 whatever it does
    root = ElementTree.parse(tmp_path / "a.svg").getroot()
    assert len([r for r in root.iter(f"{SVG}rect") if r.get("fill") == diagram.LAST_MOVE]) == 3
    scene = diagram.board_diagram(shown, tablebase.probe(shown), tablebase.moves(shown),
                                  Position.parse(START).play("C4-C3").parse_move("D5-D2"))
    assert png_size((tmp_path / "a.png").read_bytes()) == (scene.width, scene.height)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["a.png", "a.svg"]


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
    assert result.stdout.splitlines()[-1] == "result: black wins"
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
