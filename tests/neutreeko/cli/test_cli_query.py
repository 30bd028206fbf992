"""``neutreeko query``: text, JSON, standard input, bad input, a missing table, and a fast start."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import pytest

from solver.neutreeko.querying.bulk import read_lines
from tests.helpers import LONGEST, START, assert_one_line_error, invoke, random_positions

VALUES = {"win", "loss", "draw"}


def query(*arguments, input=None):
    return invoke("query", *arguments, input=input)


def check_value(value, plies):
    assert value in VALUES
    assert (plies is None) == (value == "draw")
    assert plies is None or (isinstance(plies, int) and plies % 2 == (value == "win"))


def test_text_output(tables_env):
    result = query("start")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[:10] == [
        "5 . w . w .", "4 . . b . .", "3 . . . . .", "2 . . w . .", "1 . b . b .", "  A B C D E",
        START, "Black to move: draw",
        "moves, best first (value for Black, plies from this position):", "  B1-C1  draw"]
    assert "  B1-B4  loses in 22" in result.stdout.splitlines()
    assert query(LONGEST).stdout.splitlines()[7] == "Black to move wins in 51 plies"
    assert query(START, "--moves", "C4-C3 D5-D2").stdout.splitlines()[7] == "Black to move loses in 2 plies"


def test_json_schema(tables_env):
    """One object: the position's value for the side to move and every move for the player making it."""
    result = query("start", "--moves", "c4-c3", "--json")  # moves in any case
    assert result.exit_code == 0, result.stderr
    answer = json.loads(result.stdout)
    assert list(answer) == ["position", "board", "to_move", "value", "plies", "moves"]
    assert (answer["position"], answer["board"], answer["to_move"]) == ("1w1w1/5/2b2/2w2/1b1b1 w", "5x5", "white")
    assert (answer["value"], answer["plies"]) == ("win", 3)
    assert [(m["move"], m["value"], m["plies"]) for m in answer["moves"][:3]] == \
        [("B5-B2", "win", 3), ("D5-D2", "win", 3), ("C2-C1", "draw", None)]
    for move in answer["moves"]:
        assert list(move) == ["move", "value", "plies", "position"]
        check_value(move["value"], move["plies"])
        assert move["position"].endswith(" b")
    check_value(answer["value"], answer["plies"])


def test_stdin_equals_single_queries(tables_env):
    """``query -``: one object a line, in order, equal to ``query LINE --json`` without "moves"."""
    lines = [position.fen() for position in random_positions(40, seed=8)] + ["start"]
    result = query("-", input="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.stderr
    answers = [json.loads(text) for text in result.stdout.splitlines()]
    assert len(answers) == len(lines)
    for line, answer in zip(lines, answers):
        single = json.loads(query(line, "--json").stdout)
        del single["moves"]
        assert answer == single


@pytest.mark.parametrize("batch", ["1", "3", "1000"])
def test_stdin_in_batches_of_any_size_answers_alike(tables_env, batch):
    """``--batch-lines`` changes how many lines are answered together, never the answers."""
    lines = [position.fen() for position in random_positions(25, seed=12)] + ["start", "", "x4/5/5/5/5 b"]
    text = "\n".join(lines) + "\n"
    assert query("-", "--batch-lines", batch, input=text).stdout == query("-", input=text).stdout


def test_lines_come_in_batches_of_at_most_the_size_asked():
    batches = list(read_lines(io.StringIO("".join(f"line {number}\n" for number in range(10))), 3))
    assert [len(batch) for batch in batches] == [3, 3, 3, 1] and batches[3] == ["line 9"]


def test_stdin_with_moves_equals_single_queries(tables_env):
    lines = [position.fen() for position in random_positions(20, seed=9)]
    result = query("-", "--with-moves", input="\n".join(lines))
    assert result.exit_code == 0, result.stderr
    assert [json.loads(text) for text in result.stdout.splitlines()] == \
        [json.loads(query(line, "--json").stdout) for line in lines]


def test_stdin_bad_lines(tables_env):
    """A bad line gets an error object naming the problem, the others still run, and the exit is 2."""
    result = query("-", input=f"{START}\n\nx4/5/5/5/5 b\n{LONGEST}\n")
    assert result.exit_code == 2
    answers = [json.loads(text) for text in result.stdout.splitlines()]
    assert [answer.get("value") for answer in answers] == ["draw", None, None, "win"]
    assert answers[1] == {"line": 2, "input": "", "error": "empty line"}
    assert answers[2]["line"] == 3 and "'x'" in answers[2]["error"]
    assert result.stderr == "neutreeko: error: 2 of 4 lines could not be answered (see their error objects)\n"


BAD_INPUT = [
    # (arguments, a token the message must name)
    (["1w1w1/2b2/5/2x2/1b1b1 b"], "'x'"),                                   # bad character
    (["1w1w1/2b2/2w2/1b1b1 b"], "4 ranks"),                                 # wrong rank count
    (["1w1w1/2b2/6/2w2/1b1b1 b"], "rank 3 '6'"),                            # wrong width
    (["1w1w1/2b2/5/2w2/1b3 b"], "black has 2 pieces"),                      # wrong number of pieces
    (["1w1w1/2b2/5/2w2/1b1b1"], "side to move"),                            # no side to move
    (["1w1w1/2b2/5/2w2/1b1b1 x"], "'x'"),                                   # bad side to move
    (["1w1w1/2b2/5/2w2/1b1b1 b extra"], "'1w1w1/2b2/5/2w2/1b1b1 b extra'"),
    (["99999999999999999999/5/5/5/5 b"], "'99999999999999999999'"),         # no huge allocation
    (["bbb2/5/5/5/www2 b"], "black to move already has a winning triple"),  # already three in a row
    (["start", "--moves", "C4-C3 B1-B2"], "B1-B2"),                         # illegal move
    (["start", "--moves", "C4C3"], "'C4C3'"),                               # unparseable move
    (["start", "--moves", "C4-Z9"], "Z9"),
    (["start", "--board", "4x4", "--table", "TABLE"], "not 4x4"),            # table of another board
    (["ww1/w1b/bb1 b"], "a 3x3 board, not 5x5"),                               # board not the table's
    (["start", "--board", "12x12"], "12x12"),
    (["-", "--moves", "C4-C3"], "--moves"),
    (["start", "--with-moves"], "--with-moves"),
    (["start", "--batch-lines", "10"], "--batch-lines"),
    (["-", "--batch-lines", "0"], "--batch-lines"),
    ([], "POSITION"),
]


@pytest.mark.parametrize("arguments, token", BAD_INPUT)
def test_bad_input(tables_env, arguments, token):
    """One line on standard error naming the offending token, exit code 2, no traceback."""
    arguments = [str(tables_env / "neutreeko-5x5.h5") if argument == "TABLE" else argument
                 for argument in arguments]
    assert_one_line_error(query(*arguments), token, code=2)


@pytest.mark.kernel
def test_missing_table_is_built_with_a_message(tmp_path, monkeypatch):
    monkeypatch.setenv("NEUTREEKO_TABLES", str(tmp_path))
    result = query("start", "--board", "4x4", "--json")
    assert result.exit_code == 0, result.stderr
    assert f"building the 4x4 connected table at {tmp_path / 'neutreeko-4x4.h5'}" in result.stderr
    assert json.loads(result.stdout)["board"] == "4x4"
    assert (tmp_path / "neutreeko-4x4.h5").is_file()


def _run(code: str, tables, **options) -> subprocess.CompletedProcess:
    env = {**os.environ, "NEUTREEKO_TABLES": str(tables)}
    return subprocess.run([sys.executable, *options.pop("flags", []), "-c", code], env=env,
                          capture_output=True, text=True, timeout=60, **options)


QUERY_START = "from solver.cli import cli\ntry:\n    cli(['query', 'start'])\nexcept SystemExit:\n    pass\n"


def test_query_does_not_import_numba(tables_5x5):
    """When the table exists, a query imports no numba (checked in sys.modules and by -X importtime)."""
    done = _run(QUERY_START + "import sys\nprint('numba' in sys.modules)", tables_5x5)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "False"
    timed = _run(QUERY_START, tables_5x5, flags=["-X", "importtime"])
    imported = [line.split("|")[-1].strip() for line in timed.stderr.splitlines() if line.startswith("import time:")]
    assert "solver.cli" in imported and not any(name.split(".")[0] in ("numba", "llvmlite") for name in imported)


def test_stdin_answers_each_line_as_it_comes(tables_5x5):
    """A client may write a line and wait for its answer before writing the next (real pipes)."""
    env = {**os.environ, "NEUTREEKO_TABLES": str(tables_5x5)}
    with subprocess.Popen([sys.executable, "-m", "solver", "query", "-"], env=env, text=True,
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as process:
        for line, value in ((START, "draw"), (LONGEST, "win"), ("start", "draw")):
            process.stdin.write(line + "\n")
            process.stdin.flush()
            assert json.loads(process.stdout.readline())["value"] == value
        process.stdin.close()
        assert process.wait(timeout=30) == 0
