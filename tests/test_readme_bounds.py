"""The documentation's "Bad input" and "JSON API" pages state the notation's and the explorer's bounds:
each number there is the code's constant."""

from __future__ import annotations

import re
from pathlib import Path

from solver.core.answers import console
from solver.core.answers import record as records
from solver.necnon.model import grid as necnon_grid
from solver.necnon.model import position as necnon_position
from solver.necnon.model import rules as necnon_rules
from solver.neutreeko.model import board, position, rules
from solver.neutreeko.playing import record
from solver.web import game_api

REFERENCE = Path(__file__).resolve().parent.parent / "docs" / "reference"
PAGE = (REFERENCE / "bad-input.md").read_text()
API_PAGE = (REFERENCE / "json-api.md").read_text()


def _number(pattern: str, page: str = PAGE) -> int:
    """The number ``page`` gives where ``pattern`` (a regular expression with one group) matches, the
    same wherever it matches."""
    text = " ".join(page.split())  # the page wraps its lines anywhere
    found = {int(match.replace(",", "")) for match in re.findall(pattern, text)}
    assert len(found) == 1, (pattern, found)
    return found.pop()


def test_neutreeko_bounds():
    assert _number(r"a position longer than ([\d,]+) characters \(twice") == position.MAX_POSITION_LENGTH
    assert _number(r"twice the longest position on an? (\d+) x \d+ board") == board.MAX_SIDE
    assert _number(r"an error object's `\"input\"` is the line cut after ([\d,]+) characters") \
        == position.MAX_POSITION_LENGTH
    assert _number(r"A number of empty squares is 1 up to the widest board \((\d+)\)") == board.MAX_SIDE
    assert _number(r"characters \(twice the longest position on an? \d+ x \d+ board, (\d+)\)") \
        == position.MAX_POSITION_LENGTH // 2
    assert _number(r"a move longer than (\d+), move text") == position.MAX_MOVE_LENGTH
    assert _number(r"move text longer than ([\d,]+) \(a thousand") == record.MAX_MOVE_TEXT_LENGTH
    assert _number(r"a board longer than (\d+) and a rule") == board._LONGEST_BOARD
    assert _number(r"a rule longer than (\d+) characters") == rules.MAX_RULE_LENGTH
    assert _number(r"standard input\) of more than ([\d,]+) bytes") == records.MAX_RECORD_BYTES


def test_necnon_bounds():
    assert _number(r"a position longer than ([\d,]+) characters, a turn") == necnon_position.MAX_POSITION_LENGTH
    assert _number(r"a turn longer than (\d+), `--moves`") == necnon_position.MAX_TURN_LENGTH
    assert _number(r"`--moves` longer than ([\d,]+), a board") == necnon_position.MAX_LINE_LENGTH
    assert _number(r"a board or protocol longer than (\d+) are refused") == necnon_grid.MAX_BOARD_LENGTH
    assert necnon_grid.MAX_BOARD_LENGTH == necnon_rules.MAX_PROTOCOL_LENGTH


def test_game_tree_bounds():
    assert _number(r"of more than ([\d,]+) moves with its variations", API_PAGE) == game_api.MAX_TREE_PLIES
    assert _number(r"with variations nested more than (\d+) deep", API_PAGE) == game_api.MAX_NESTING


def test_input_line_bound():
    assert _number(r"`necnon play`\) is kept up to ([\d,]+) bytes and one more") == console.MAX_LINE_BYTES
