"""The five winning conditions, where they are offered, and the start positions (issue 4)."""

from __future__ import annotations

import pytest

from solver.core.errors import NotationError
from solver.neutreeko.model.board import Board
from solver.neutreeko.model.game import Game
from solver.neutreeko.model.position import Position
from solver.neutreeko.model.rules import RULES, Rule, RuleError
from tests.helpers import assert_one_line_error, invoke, offered

ALL_BOARDS = [Board(width, height) for width in range(3, 8) for height in range(3, 8)]


def _wins(board: str, rule: str, *squares: str) -> bool:
    game = Game.of(board, rule)
    return tuple(sorted(game.board.parse_square(name) for name in squares)) in game.winning_triples


# -- where each rule is offered -------------------------------------------------------------------

@pytest.mark.parametrize("board", ALL_BOARDS, ids=str)
def test_limits_follow_the_issue(board):
    low, high = min(board.width, board.height), max(board.width, board.height)
    assert offered("connected", board)
    assert offered("orthogonal", board)
    assert offered("diagonal", board) == (low >= 4)
    assert offered("equidistant", board) == (high >= 5)
    assert offered("centre", board) == (board.width % 2 == 1 and board.height % 2 == 1 and low >= 5)


def test_the_survey_covers_91_variants():
    assert sum(offered(rule, board) for rule in RULES for board in ALL_BOARDS) == 91


@pytest.mark.parametrize("board, rule", [("3x3", "diagonal"), ("3x7", "diagonal"), ("7x3", "diagonal"),
                                         ("4x4", "equidistant"), ("3x4", "equidistant"),
                                         ("6x6", "centre"), ("5x6", "centre"), ("3x5", "centre"),
                                         ("3x3", "centre")])
def test_rules_outside_their_limits_are_refused(board, rule):
    with pytest.raises(RuleError, match=rule):
        Game.of(board, rule)


def test_an_unknown_rule_names_the_known_ones():
    with pytest.raises(RuleError, match="connected, orthogonal, diagonal, equidistant, centre"):
        Rule.of("knight")
    assert Rule.of(" Centre ").name == "centre"


@pytest.mark.parametrize("args", [["solve", "--board", "3x3", "--rule", "diagonal"],
                                  ["solve", "--board", "6x6", "--rule", "centre"],
                                  ["solve", "--board", "4x4", "--rule", "equidistant"],
                                  ["solve", "--rule", "knight"],
                                  ["stats", "--board", "4x4", "--rule", "centre"]])
def test_invalid_combinations_fail_on_the_command_line_writing_nothing(args, tmp_path, monkeypatch):
    monkeypatch.setenv("NEUTREEKO_TABLES", str(tmp_path / "tables"))
    assert_one_line_error(invoke(*args), code=2)
    assert not (tmp_path / "tables").exists()


# -- the winning triples ----------------------------------------------------------------------------

@pytest.mark.parametrize("squares, winners", [
    (("A1", "B1", "C1"), {"connected", "orthogonal", "equidistant"}),    # adjacent along a rank
    (("B2", "B3", "B4"), {"connected", "orthogonal", "equidistant"}),    # adjacent along a file
    (("A2", "B3", "C4"), {"connected", "diagonal", "equidistant"}),      # adjacent diagonal
    (("E1", "D2", "C3"), {"connected", "diagonal", "equidistant", "centre"}),  # anti-diagonal via C3
    (("A1", "B1", "B2"), set()),                                         # bent: never a win
    (("A1", "B2", "C2"), set()),                                         # bent
    (("A1", "C1", "E1"), {"equidistant"}),                               # spaced along a rank
    (("A1", "C3", "E5"), {"equidistant", "centre"}),                     # spaced diagonal via C3
    (("A1", "B3", "C5"), {"equidistant"}),                               # knight's slope
    (("A1", "B1", "D1"), set()),                                         # on a line, unequally spaced
    (("A1", "C2", "E4"), set()),                                         # not on one line
    (("C3", "A1", "E2"), {"centre"}),                                    # any triple through the centre
])
def test_win_tests_on_hand_made_5x5_triples(squares, winners):
    assert {rule for rule in RULES if _wins("5x5", rule, *squares)} == winners


def test_centre_is_the_middle_square_of_odd_boards():
    assert _wins("7x7", "centre", "D4", "A1", "G7")
    assert not _wins("7x7", "centre", "C3", "D3", "E3")
    assert _wins("5x7", "centre", "C4", "A1", "A2")
    assert not _wins("5x7", "centre", "C3", "A1", "A2")


def test_positions_use_the_rule():
    """The other side's spaced triple has won under equidistant only; the mover's makes it illegal."""
    fen = "w1w1w/5/2b2/5/b3b b"  # White A5 C5 E5, Black A1 C3 E1
    assert Position.parse(fen, rule="equidistant").winner() == "white"
    assert Position.parse(fen, rule="connected").winner() is None
    with pytest.raises(NotationError):
        Position.parse(fen.replace(" b", " w"), rule="equidistant")


# -- start positions --------------------------------------------------------------------------------

@pytest.mark.parametrize("board, rule, black, white", [
    ("5x5", "connected", "B1 D1 C4", "B5 D5 C2"),
    ("7x7", "connected", "C1 E1 D5", "D3 C7 E7"),
    ("5x5", "centre", "C1 A4 E4", "A2 E2 C5"),
    ("7x7", "centre", "D2 B5 F5", "B3 F3 D6"),
    ("4x4", "connected", "A1 C1 C4", "B1 B4 D4"),      # the issue's example of the numbering rule
    ("5x5", "orthogonal", "A1 C1 D5", "B1 C5 E5"),     # special starts belong to their rule only
    ("7x7", "equidistant", "A1 C1 F7", "B1 E7 G7"),
    ("6x4", "diagonal", "A1 C1 E4", "B1 D4 F4"),
    ("3x5", "equidistant", "A1 C1 B5", "B1 A5 C5"),
])
def test_start_positions(board, rule, black, white):
    game = Game.of(board, rule)
    start = Position.start(game)
    names = (lambda squares: sorted(game.board.name(square) for square in squares))
    assert names(start.black) == sorted(black.split())
    assert names(start.white) == sorted(white.split())
    assert start.black_to_move


@pytest.mark.parametrize("board", ALL_BOARDS, ids=str)
def test_every_start_is_a_legal_position_nobody_has_won(board):
    for rule in RULES:
        if offered(rule, board):
            start = Position.start(Game.of(board, rule))  # the constructor checks legality
            assert start.winner() is None
            assert start.moves()
