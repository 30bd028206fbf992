"""What every reader of notation refuses, and how: text longer than any valid one is refused before it is
parsed, naming its length; notation is printable ASCII; messages quote a short start of the input."""

from __future__ import annotations

import json

import pytest

import solver.neutreeko.model.position
from solver.core.answers.notation import QUOTED, checked, quote
from solver.core.errors import InputError, NotationError
from solver.neutreeko.model.board import Board
from solver.neutreeko.model.position import MAX_MOVE_LENGTH, MAX_POSITION_LENGTH, Position
from solver.neutreeko.model.rules import Rule
from solver.neutreeko.playing.record import MAX_MOVE_TEXT_LENGTH, read_moves
from tests.helpers import START, assert_one_line_error, invoke

#: Inputs that took seconds to minutes to refuse, and inputs far longer than any valid one.
HUGE_POSITIONS = {
    "60,000 ranks of 5": "/".join(["5"] * 60_000) + " b",
    "20,000 ranks of 1b": "1b/" * 20_000 + " b",
    "a 4 MB line": "1w1w1/2b2/5/2w2/1b1b1 b" * 180_000,
}
HUGE_NUMBER = "9" * 5_000


def _no_parsing(monkeypatch):
    """Fail the test if a rank is parsed or a move played: the text must be refused before."""
    monkeypatch.setattr(solver.neutreeko.model.position, "_parse_rank", lambda *args: pytest.fail("parsed"))
    monkeypatch.setattr(Position, "play", lambda *args: pytest.fail("played"))


@pytest.mark.parametrize("text", HUGE_POSITIONS.values(), ids=list(HUGE_POSITIONS))
def test_a_position_longer_than_any_is_refused_unparsed(text, monkeypatch):
    _no_parsing(monkeypatch)
    with pytest.raises(NotationError) as raised:
        Position.parse(text)
    message = str(raised.value)
    assert f"{len(text.strip()):,} characters long" in message and f"at most {MAX_POSITION_LENGTH}" in message
    assert len(message) < 200


def test_the_bound_is_above_every_valid_position():
    """The longest notation on the largest board, even widely spaced, is read."""
    placement = "/".join(["1b1b1b1", "1w1w1w1", *["7"] * 5])
    assert Position.parse(f"  {placement}{' ' * 40}b  ").game.board == Board(7, 7)
    assert Position.parse(("1w1w1/2b2/5/2w2/1b1b1" + " " * (MAX_POSITION_LENGTH - 22) + "b")).fen() == START


def test_move_and_move_text_bounds(monkeypatch):
    start = Position.parse("start")
    _no_parsing(monkeypatch)
    with pytest.raises(NotationError, match=f"characters long, longer than any move \\(at most {MAX_MOVE_LENGTH}\\)"):
        start.parse_move("C" + HUGE_NUMBER + "-C3")
    monkeypatch.setattr(Position, "parse_move", lambda *args: pytest.fail("read"))
    with pytest.raises(NotationError, match=f"longer than any move text \\(at most {MAX_MOVE_TEXT_LENGTH}\\)"):
        read_moves(start, "1. C4-C3 D5-D2 " * 1_000)


@pytest.mark.parametrize("text, words", [
    ("\uff12b\uff12/5/5/5/5 b", ["'\\uff12b\\uff12/5/5/5/5 b'", "U+FF12", "column 1", "printable ASCII"]),
    ("1w1w1/2b2/5/2w2/1b1b1\u3000b", ["U+3000", "column 22"]),
    ("1w1w1/2b2/5/2w2/1b1b1\u0085b", ["U+0085"]),
    ("1w1w1/2b2/5/2w2/1b1b1\tb", ["U+0009"]),
    ("1w1w1/2b2/05/2w2/1b1b1 b", ["'05'", "no leading zero"]),
    ("1w1w1/2b2/0/5/2w2/1b1b1 b", ["'0'", "no leading zero"]),
    ("1w1w1/2b2/5/2w2/1b1b1 B", ["side to move 'B'", "lower case"]),
    ("\ufeff1w1w1/2b2/5/2w2/1b1b1 b", ["U+FEFF"]),
])
def test_only_ascii_notation_is_read(text, words):
    with pytest.raises(NotationError) as raised:
        Position.parse(text)
    for word in words:
        assert word in str(raised.value), (word, str(raised.value))


@pytest.mark.parametrize("move, word", [("C\uff14-C\uff13", "U+FF14"), ("C04-C03", "'C04'"), ("C4-C3\t", "U+0009"),
                                        ("C4\u2013C3", "U+2013")])
def test_only_ascii_moves_are_read(move, word):
    with pytest.raises(NotationError, match=word.replace("+", r"\+")):
        Position.parse("start").parse_move(move)


def test_square_letters_and_start_in_any_case():
    assert Position.parse("START") == Position.parse("start")
    assert Position.parse("start").parse_move("c4-c3") == Position.parse("start").parse_move("C4-C3")


@pytest.mark.parametrize("read, text", [(Board.parse, "5\uff58" + "5"), (Board.parse, HUGE_NUMBER + "x5"),
                                        (Rule.of, "connected\u3000"), (Rule.of, "c" * 10_000)])
def test_boards_and_rules_follow_the_same_rule(read, text):
    with pytest.raises(InputError) as raised:
        read(text)
    assert len(str(raised.value)) < 200


def test_quote_is_short_and_ascii():
    assert quote("C4-C3") == "'C4-C3'"
    for text in ("x" * 1000, "it's \u3000" * 100, "\u3000" * 10_000):
        quoted = quote(text)
        assert quoted.isascii() and len(quoted) <= QUOTED + 2 and quoted.endswith(("...'", '..."'))
    assert checked("  C4-C3  ", "move", 5) == "C4-C3"


# -- the same through the command line ---------------------------------------------------------------


@pytest.mark.parametrize("arguments", [
    ["/".join(["5"] * 60_000) + " b"],
    ["start", "--moves", f"C{HUGE_NUMBER}-C3"],
    ["start", "--moves", "B1-B4 C2-E4 B4-B1 E4-C2 " * 600],  # legal, and longer than any list read
    ["start", "--board", f"{HUGE_NUMBER}x5"],
    ["start", "--rule", "x" * 100_000],
    ["\uff12b\uff12/5/5/5/5 b"],
    ["start", "--moves", "C\uff14-C\uff13"],
    ["start", "--moves", "C04-C03"],
], ids=["long position", "huge number in a move", "long move list", "huge board", "long rule", "full-width digits",
        "full-width move", "leading zeros"])
def test_query_refuses_with_a_short_line(tables_env, arguments):
    line = assert_one_line_error(invoke("query", *arguments), code=2)
    assert len(line) < 250


def test_survey_and_play_refuse_huge_numbers(fresh_tables):
    assert_one_line_error(invoke("survey", "--max-board", f"{HUGE_NUMBER}x3"), "characters long", code=2)
    assert_one_line_error(invoke("play", "--seed", HUGE_NUMBER), "--seed", code=2)


def test_play_answers_a_huge_move_in_one_short_line(tables_env):
    result = invoke("play", "--opponent", "perfect", input=f"C{HUGE_NUMBER}-C3\n\uff43\uff14-c3\nC04-C03\nfen\n")
    assert result.exit_code == 0 and result.stderr == "", result.stderr
    answers = [line for line in result.stdout.splitlines() if line.startswith("move or command")
               or line.startswith("move ")]
    assert len(answers) == 3 and all(len(line) < 200 for line in answers), answers
    assert "5,004 characters long" in answers[0] and "U+FF43" in answers[1] and "'C04'" in answers[2]
    assert START in result.stdout


def test_batch_lines_longer_than_any_position(tables_env, monkeypatch):
    """A 4 MB line is one short error object; the lines after it are still answered."""
    huge = HUGE_POSITIONS["a 4 MB line"]
    result = invoke("query", "-", input=f"{huge}\nstart\n")
    assert result.exit_code == 2
    error, answer = [json.loads(line) for line in result.stdout.splitlines()]
    assert error["line"] == 1 and f"{len(huge):,} characters long" in error["error"]
    assert error["input"] == huge[:MAX_POSITION_LENGTH] + "..."
    assert len(result.stdout) < 1_000 and answer["value"] == "draw"


def test_batch_file_starting_with_a_byte_order_mark(tables_env):
    """An editor's UTF-8 byte order mark does not make line 1 an error; one elsewhere does."""
    result = invoke("query", "-", input=f"\ufeff{START}\n\ufeff{START}\n")
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    assert answers[0]["value"] == "draw" and "U+FEFF" in answers[1]["error"]
    assert result.exit_code == 2


def test_game_records_follow_the_rule(tables_env, tmp_path):
    """A record is read in bounded time and memory, as UTF-8 (a byte order mark skipped), its moves as
    notation."""
    assert_one_line_error(invoke("annotate", "/dev/zero"), "/dev/zero is longer than any record", code=2)
    odd_space = tmp_path / "game.txt"
    odd_space.write_text("1. C4-C3\u3000D5-D2\n")
    assert_one_line_error(invoke("annotate", str(odd_space)), "line 1", "U+3000", code=2)
    assert_one_line_error(invoke("annotate", "-", input=b"\xff1. C4-C3\n"), "not UTF-8", code=2)
    assert invoke("annotate", "-", input="\ufeff1. C4-C3 D5-D2\n").exit_code == 0
