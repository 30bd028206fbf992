"""The ``necnon`` command: solve, stats, query, line, show and play on small boards, and bad input (one
line on standard error, exit 2, nothing written)."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys

import h5py
import pytest

from solver.cli import group
from solver.core.storage.container import stamp
from solver.necnon.model.position import Position
from solver.necnon.model.rules import Game
from solver.necnon.playing.record import read_record
from solver.necnon.querying.probe import Tablebase
from solver.necnon.tables.table import open_table
from tests.helpers import assert_one_line_error, help_examples, invoke, read_terminal, write_first_format

cli = group("necnon")


def necnon(*args: str, input: str | None = None):
    return invoke(*args, input=input, program=cli)


@pytest.mark.kernel
def test_solve_writes_a_table_and_refuses_to_overwrite_it(fresh_tables):
    result = necnon("solve", "--board", "3x3", "--protocol", "non-nec")
    assert result.exit_code == 0, result.stderr
    assert "3,327 positions (469 classes), empty board +0 in 5 turns" in result.stdout
    assert (fresh_tables / "necnon-3x3-non-nec.h5").is_file()
    again = necnon("solve", "--board", "3x3", "--protocol", "non-nec")
    assert_one_line_error(again, "already exists", "--force", code=1, program="necnon")
    assert necnon("solve", "--board", "3x3", "--protocol", "non-nec", "--force").exit_code == 0


def test_stats_json(necnon_env):
    result = necnon("stats", "--board", "3x3", "--json")
    figures = json.loads(result.stdout)
    assert figures["board"] == "3x3" and figures["protocol"] == "nec"
    assert figures["positions"] == 3368 and figures["classes"] == 491
    assert figures["value"] == -1 and isinstance(figures["value"], int) and figures["turns"] == 5
    assert figures["best_first"] == ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"]
    assert sum(figures["margins"].values()) == figures["positions"]
    assert figures["black_wins"] + figures["draws"] + figures["green_wins"] == figures["positions"]
    text = necnon("stats", "--board", "hex2").stdout
    assert "hexhex base 2" in text and "422 positions" in text


def test_query_ranks_every_turn_and_agrees_with_the_table(necnon_env):
    result = necnon("query", "1b1/3/3", "g", "--json")
    answer = json.loads(result.stdout)
    position = Position.parse("1b1/3/3 g", Game.of("3x3", "nec"))
    assert answer["position"] == "1b1/3/3 g" and answer["to_move"] == "green" and answer["board"] == "3x3"
    assert len(answer["ranking"]) == len(position.turns()) == 28  # every pair of the 8 empty cells
    with Tablebase(necnon_env) as tablebase:
        assert answer["value"] == tablebase.probe(position).margin
        values = [entry["value"] for entry in answer["ranking"]]
    assert values == sorted(values)  # Green first wants the smallest margin
    assert answer["ranking"][0]["value"] == answer["value"]
    assert all(entry["turns"] >= 1 for entry in answer["ranking"])


def test_query_text_with_moves_and_the_empty_board(necnon_env):
    text = necnon("query", "--board", "hex2", "--moves", "c2 a1,b3").stdout
    assert "b1/2g/g1 b" in text and "Black to move: Black by 1 in 2 turns" in text
    empty = necnon("query", "empty", "--board", "3x3").stdout
    assert "Black to move: Green by 1 in 5 turns" in empty and "\n  a1 " in empty


def test_line_ends_with_the_score(necnon_env):
    answer = json.loads(necnon("line", "--board", "3x3", "--json").stdout)
    assert answer["value"] == -1 and len(answer["line"]) == answer["turns"] == 5
    assert answer["result"] == "Green wins by 1"
    assert answer["points"]["black"] - answer["points"]["green"] == -1
    assert [step["by"] for step in answer["line"]] == ["black", "green", "black", "green", "black"]
    text = necnon("line", "--board", "3x3").stdout
    assert text.rstrip().endswith("after 5 turns") and "result: Green wins by 1" in text


def test_line_and_show_pictures(necnon_env, tmp_path):
    assert necnon("line", "--board", "hex2", "--svg", str(tmp_path / "line.svg")).exit_code == 0
    sheet = (tmp_path / "line.svg").read_text()
    assert sheet.count('class="frame"') == 5 and "<polygon" in sheet  # hexagonal cells
    result = necnon("show", "--board", "hex2", "--moves", "c2 a1,b3")
    assert result.stdout.startswith("<?xml") and result.stdout.count('class="cell"') == 7
    assert 'class="stone black"' in result.stdout and 'class="option keeps"' in result.stdout
    square = necnon("show", "2b/1g1/g2", "b", "--board", "3x3", "--png", str(tmp_path / "board.png"))
    assert square.exit_code == 0 and (tmp_path / "board.png").read_bytes().startswith(b"\x89PNG")
    large = necnon("show", "--board", "hex6", "--no-values", "--moves", "f6")
    assert large.stdout.count('class="cell"') == 91


def test_show_on_a_terminal_prints_text(necnon_env, monkeypatch):
    """On a terminal show prints the board and its turns as query does, with a hint; --svg - the SVG."""
    monkeypatch.setattr("solver.cli.common.stdout_is_terminal", lambda: True)
    result = necnon("show", "--board", "3x3", "--moves", "b2")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == necnon("query", "--board", "3x3", "--moves", "b2").stdout
    assert result.stderr.splitlines() == ["(the diagram as SVG: --svg FILE, or --svg - for standard output)"]
    bare = necnon("show", "--board", "hex6", "--no-values")
    assert bare.exit_code == 0 and "<svg" not in bare.stdout and bare.stdout.strip().endswith("b")
    asked = necnon("show", "--board", "3x3", "--moves", "b2", "--svg", "-")
    assert asked.stdout.startswith("<?xml") and asked.stderr == ""


def test_play_against_the_table(necnon_env):
    result = necnon("play", "--board", "3x3", "--seed", "1", input="b2\nhint\nundo\nb2\nquit\n")
    assert result.exit_code == 0, result.stderr
    text = result.stdout
    assert "You play Black, the table plays Green" in text and "Green plays" in text
    assert "turns, best first for Black" in text and "took back" in text and "game stopped (quit)" in text


def test_play_a_whole_game_against_the_table_as_green(necnon_env):
    turns = ["a1,b1", "a2,b2", "a3,b3", "c1,c2", "c3", "pass", "pass"]
    result = necnon("play", "--board", "3x3", "--as", "green", "--seed", "2", input="\n".join(turns * 3) + "\n")
    assert result.exit_code == 0, result.stderr
    assert "Black plays" in result.stdout


def test_play_against_the_search_engine_on_a_large_board(necnon_env):
    result = necnon("play", "--board", "hex4", "--seed", "3", "--iterations", "200",
                    input="c4\nhint\nquit\n")
    assert result.exit_code == 0, result.stderr
    assert "the search engine plays Green" in result.stdout and "the engine's view (200 playouts" in result.stdout


@pytest.mark.parametrize("board, iterations", [("3x3", "1"), ("3x3", "5"), ("hex6", "1"), ("hex6", "5")])
def test_the_engine_answers_after_a_few_playouts(necnon_env, board, iterations):
    """Fewer playouts than first stones still make a turn: each playout goes through a whole turn."""
    result = necnon("play", "--board", board, "--as", "black", "--opponent", "mcts", "--iterations", iterations,
                    "--seed", "1", input="b2\n")
    assert result.exit_code == 0, result.stderr
    assert "Green plays" in result.stdout and "game stopped (end of input)" in result.stdout


def test_play_reads_its_input_as_utf8_whatever_the_bytes(necnon_env):
    """As neutreeko play: a byte order mark is skipped, an undecodable byte becomes U+FFFD and its line an
    error, and play goes on; a line of any length is refused quoting a little of it."""
    result = necnon("play", "--board", "3x3", "--as", "black", "--opponent", "random", "--seed", "1",
                    input=b"\xef\xbb\xbfb\xff2\n" + b"a" * 120_000 + b"\nb2\n")
    assert result.exit_code == 0, result.stderr
    assert "'b\\ufffd2' has '\\ufffd' (U+FFFD) at column 2" in result.stdout
    assert "120,000 characters long" in result.stdout
    assert max(len(line) for line in result.stdout.splitlines() if not line.startswith("Black> ")) < 200
    assert "Black> b2\nGreen plays" in result.stdout


def test_the_engine_plays_itself_reproducibly(necnon_env):
    args = ("play", "--board", "hex3", "--as", "none", "--opponent", "mcts", "--seed", "5", "--iterations", "60")
    first, second = necnon(*args), necnon(*args)
    assert first.exit_code == 0 and first.stdout == second.stdout
    assert "==" in first.stdout and ("wins by" in first.stdout or "draw" in first.stdout)


# -- bad input: one line, exit 2, nothing written ------------------------------------------------------------

@pytest.mark.parametrize("args, words", [
    (("stats", "--board", "8x3"), ["8x3", "from 2 to 7"]),
    (("stats", "--board", "hexagon"), ["hexagon"]),
    (("stats", "--board", "hex4"), ["hex4", "at most 30"]),
    (("stats", "--protocol", "nec-none"), ["nec-none", "known"]),
    (("query", "4/4/4", "b", "--board", "4x4"), ["4x3", "not 4x4"]),
    (("query", "3/3/3", "x"), ["side to move"]),
    (("query", "g2/3/3", "b"), ["cannot occur"]),
    (("query", "1b1/3/3", "g", "--moves", "b2,b2"), ["two stones on one cell"]),
    (("query", "1b1/3/3", "g", "--moves", "b3,a1"), ["b3 is occupied"]),
    (("query", "--board", "3x3", "--moves", "a1,b1"), ["first turn lays one stone"]),
    (("query", "1b1/3/3", "g", "--moves", "a1"), ["lays two stones"]),
    (("query", "1b1/3/3", "g", "--moves", "pass"), ["cannot pass"]),
    (("query", "1b1/3/3", "g", "--moves", "a9,b1"), ["no cell a9"]),
    (("query", "bgg/1gb/b1g", "b", "--moves", "b1"), ["forbidden to Black"]),
    (("line", "--board", "3x3", "--moves", "b2 a2,c3", "--protocol", "non"), ["a2 is forbidden to Green"]),
    (("query", "2b/1g1/3", "b"), ["cannot be reached from the empty board under nec"]),
])
def test_bad_input(necnon_env, args, words):
    result = necnon(*args)
    assert_one_line_error(result, *words, code=2, program="necnon")


LONG = "a" * 120_000


@pytest.mark.parametrize("args, words", [
    (("query", LONG), ["position 'aaaaaaaaaaaaaaaaa...'", "120,000 characters long", "at most 212"]),
    (("query", "--board", LONG), ["board 'aaa", "120,000 characters long", "at most 16"]),
    (("query", "--protocol", LONG), ["protocol 'aaa", "120,000 characters long", "at most 16"]),
    (("query", "--board", "3x3", "--moves", LONG), ["line of turns 'aaa", "120,000 characters long"]),
    (("query", "--board", "3x3", "--moves", "b2 " + "a" * 5000), ["turn 'aaa", "5,000 characters long"]),
    (("show", "--board", "3x3", "--moves", LONG), ["turn 'aaa", "120,000 characters long"]),
    (("play", "--from", LONG), ["position 'aaa", "120,000 characters long"]),
    (("query", "a" * 200 + "/3/3", "b"), ["unexpected 'aaa", "...' in row 1"]),
    (("query", "--board", "4\u00d74"), ["U+00D7", "column 2"]),                 # a multiplication sign
    (("query", "--board", "3x3", "--moves", "b\u0662"), ["U+0662", "column 2"]),  # an Arabic-Indic digit
    (("query", "--board", "3x3", "--moves", "b2\tc3"), ["U+0009"]),
    (("query", "--protocol", "nec\u2011non"), ["U+2011"]),                      # a non-breaking hyphen
])
def test_long_or_foreign_input_is_refused_quoting_a_little_of_it(necnon_env, args, words):
    """As neutreeko's: notation is printable ASCII, lengths are bounded, at most 60 characters are quoted."""
    line = assert_one_line_error(necnon(*args), *words, code=2, program="necnon")
    assert len(line) < 200, line


def test_bad_input_writes_nothing(necnon_env, tmp_path):
    picture = tmp_path / "board.svg"
    result = necnon("show", "--board", "3x3", "--moves", "a1,b1", "--svg", str(picture))
    assert_one_line_error(result, "first turn", code=2, program="necnon")
    assert not picture.exists()
    wrong = necnon("show", "--board", "3x3", "--svg", str(tmp_path / "board.png"))
    assert_one_line_error(wrong, "SVG files end in .svg", code=2, program="necnon")
    before = sorted(path.name for path in necnon_env.iterdir())
    assert_one_line_error(necnon("solve", "--board", "hex5"), "at most 30", code=2, program="necnon")
    assert sorted(path.name for path in necnon_env.iterdir()) == before


def test_a_large_board_is_built_only_when_asked(fresh_tables):
    result = necnon("stats", "--board", "5x4", "--protocol", "non")
    assert_one_line_error(result, "more than 16 cells is built only when asked", "--build",
                          "necnon solve --board 5x4 --protocol non", code=1, program="necnon")
    survey = necnon("survey", "--max-cells", "18", "--out", str(fresh_tables.parent / "survey.md"))
    assert_one_line_error(survey, "6x3 nec", "--build", code=1, program="necnon")
    assert not fresh_tables.exists() or not any(fresh_tables.iterdir())


def test_a_neutreeko_table_is_not_a_necnon_table(necnon_env, tmp_path, table_5x5):
    result = necnon("stats", "--board", "3x3", "--table", str(table_5x5))
    assert_one_line_error(result, "table of neutreeko, not of necnon", code=2, program="necnon")


def test_a_necnon_table_is_not_a_neutreeko_table(necnon_env):
    result = invoke("stats", "--table", str(necnon_env / "necnon-3x3-nec.h5"))
    assert_one_line_error(result, "table of necnon, not of neutreeko", code=2)


def test_a_damaged_table_is_refused(necnon_env, tmp_path):
    copy = tmp_path / "necnon-3x3-nec.h5"
    shutil.copy(necnon_env / "necnon-3x3-nec.h5", copy)
    with h5py.File(copy, "r+") as file:
        data = file["classes"][()]
        data["margin"][10] += 1
        file["classes"][...] = data
    result = necnon("stats", "--board", "3x3", "--table", str(copy))
    assert_one_line_error(result, "damaged", code=1, program="necnon")
    other = necnon("stats", "--board", "hex2", "--table", str(necnon_env / "necnon-3x3-nec.h5"))
    assert_one_line_error(other, "table for 3x3 nec, not hex2 nec", code=2, program="necnon")


# -- help: an example in every command's, which runs as written --------------------------------------------

def test_every_command_has_an_example_that_runs(fresh_tables, necnon_tables, tmp_path, monkeypatch):
    """Each command's help ends with an example on a small board; each runs as shown, in a directory
    of its own with a tables directory of its own (check-file's after the command its help names has
    built the table; convert's on a table of the first format, as its help says)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("NEUTREEKO_TABLES", str(tmp_path / "tables"))
    for name in sorted(cli.commands):
        shown = necnon(name, "--help").stdout
        description = shown.split("\nOptions:", 1)[0]
        examples = help_examples(description, "necnon")
        last_line = description.rstrip().splitlines()[-1]
        assert examples and help_examples(f"Example:\n{last_line}", "necnon") == examples[-1:], name  # it ends so
        if name == "check-file":
            builds = re.search(r"Example \(once (necnon [^)]*) has built the table\)", description)
            assert builds, description
            assert necnon(*shlex.split(builds.group(1))[1:]).exit_code == 0
        if name == "convert":
            (tmp_path / "old").mkdir()
            table = open_table(Game.of("3x3", "nec"), necnon_tables / "necnon-3x3-nec.h5")
            write_first_format(tmp_path / "old" / "necnon-3x3-nec.h5", "classes", table.records, table.attributes)
        for args, feed in examples:
            assert args[0] == name
            if name == "fetch":  # its mirror is on the network: tests/core/test_release.py fetches from one of its own
                assert args[1] == "4x4" and "--mirror" in args and args[-1].startswith("https://")
                continue
            result = necnon(*args, input=feed or "")
            assert result.exit_code == 0, (args, result.stderr)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["board.svg", "game.txt", "line.svg", "old",
                                                                "release", "survey.csv", "survey.md", "tables"]
    assert read_record(tmp_path / "game.txt").names()[0] == "b2"


@pytest.mark.parametrize("value, words", [("abc", "its attribute solve_seconds is 'abc', not a time in seconds"),
                                          (["a"], "its attribute solve_seconds is ['a'], not a time in seconds"),
                                          (float("inf"), "its attribute solve_seconds is inf, not a text, finite"),
                                          (None, "its attribute solve_seconds is missing")])
def test_stats_refuses_a_table_whose_attribute_is_not_of_its_kind(necnon_env, tmp_path, value, words):
    """Re-stamped (every digest right): the attributes are checked where the table is opened."""
    copy = tmp_path / "necnon-3x3-nec.h5"
    shutil.copy(necnon_env / "necnon-3x3-nec.h5", copy)
    with h5py.File(copy, "r+") as file:
        if value is None:
            del file.attrs["solve_seconds"]
        else:
            file.attrs["solve_seconds"] = value
    stamp(copy)
    result = necnon("stats", "--board", "3x3", "--json", "--table", str(copy))
    assert_one_line_error(result, words, code=1, program="necnon")


@pytest.mark.integration
def test_a_first_build_shows_its_progress_on_a_terminal(fresh_tables):
    """A table built unasked on a terminal: a line as the search starts, then the count now and then, and
    the whole count at the end (3 x 3 fits one slice of the search, so the first and the last lines)."""
    pty = pytest.importorskip("pty")
    master, slave = pty.openpty()
    process = subprocess.Popen([sys.executable, "-c", "from solver.__main__ import run; run('necnon')", "query",
                                "--board", "3x3"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=slave)
    os.close(slave)
    try:
        terminal = read_terminal(master, None, 120).decode()
        process.communicate(timeout=120)
    finally:
        os.close(master)
    assert process.returncode == 0
    counts = re.findall(r"^ +([\d,]+) classes +([\d,]+) positions +[\d.]+ s\r?$", terminal, re.MULTILINE)
    assert terminal.startswith("building the necnon 3x3 nec table at ")
    assert counts[0] == ("0", "0") and counts[-1] == ("491", "3,368"), terminal
