"""The picture options of ``line``, ``annotate`` and ``show``, alike in both games: ``--svg FILE`` (or
``--png``, ``--html``) writes the picture and the text still goes to standard output; ``--svg -`` puts the
SVG on standard output instead of the text, and writes no file."""

from __future__ import annotations

import pytest

from solver.cli import group
from tests.helpers import invoke

SMALL = "w2w/1b2/2w1/b2b w"
#: (program, the command's arguments, the text it prints without a picture, standard input)
COMMANDS = [
    ("neutreeko", ["line", "--board", "4x4", SMALL], ["line", "--board", "4x4", SMALL], None),
    ("neutreeko", ["annotate", "-"], ["annotate", "-"], '[Board "4x4"]\n1. C1-C3\n'),
    ("neutreeko", ["show", "--board", "4x4", SMALL], ["query", "--board", "4x4", SMALL], None),
    ("necnon", ["line", "--board", "3x3"], ["line", "--board", "3x3"], None),
    ("necnon", ["annotate", "-"], ["annotate", "-"], '[Board "3x3"]\n1. b2 2. a1,c3\n'),
    ("necnon", ["show", "--board", "3x3", "--moves", "b2"], ["query", "--board", "3x3", "--moves", "b2"], None),
]


@pytest.fixture
def both_games(tables_4x4, necnon_tables, tmp_path, monkeypatch):
    """A tables directory holding the 4 x 4 table of Neutreeko and NECNON's small ones; the test runs in
    ``tmp_path/work`` (empty), so that a file written by mistake shows."""
    tables = tmp_path / "tables"
    tables.mkdir()
    for source in (tables_4x4, necnon_tables):
        for table in source.glob("*.h5"):
            (tables / table.name).symlink_to(table)
    monkeypatch.setenv("NEUTREEKO_TABLES", str(tables))
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    return work


@pytest.mark.parametrize("program, args, text_args, feed", COMMANDS,
                         ids=[f"{program} {args[0]}" for program, args, _, _ in COMMANDS])
def test_svg_file_and_text_or_svg_on_standard_output(both_games, program, args, text_args, feed):
    cli = group(program)
    text = invoke(*text_args, input=feed, program=cli)
    assert text.exit_code == 0 and "<svg" not in text.stdout, text.stderr
    to_file = invoke(*args, "--svg", "picture.svg", input=feed, program=cli)
    assert to_file.exit_code == 0, to_file.stderr
    assert to_file.stdout == text.stdout and to_file.stderr == ""
    picture = (both_games / "picture.svg").read_text()
    assert picture.startswith("<?xml")
    to_output = invoke(*args, "--svg", "-", input=feed, program=cli)
    assert to_output.exit_code == 0, to_output.stderr
    assert to_output.stdout == picture and to_output.stderr == ""
    assert [path.name for path in both_games.iterdir()] == ["picture.svg"]
