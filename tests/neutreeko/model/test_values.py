"""The typed values: an Evaluation's invariants, its byte, its order and its wordings; the Outcome of
a game; and readable reprs of the public objects."""

from __future__ import annotations

import numpy as np
import pytest

import solver
from solver.neutreeko.model.board import Board
from solver.neutreeko.model.game import Game
from solver.neutreeko.model.outcome import Outcome, Termination, ending, game_over
from solver.neutreeko.model.position import Position
from solver.neutreeko.model.rules import Rule
from solver.neutreeko.model.values import DRAW, ILLEGAL, VALUES, Evaluation, value_codes
from tests.helpers import invoke


@pytest.mark.parametrize("value, plies", [("draw", 3), ("win", None), ("loss", None), ("win", 2),
                                          ("loss", 5), ("win", -1), ("tie", None)])
def test_impossible_evaluations_are_refused(value, plies):
    with pytest.raises(ValueError):
        Evaluation(value, plies)


def test_bytes_round_trip():
    for byte in range(ILLEGAL):
        assert Evaluation.of_byte(byte).byte() == byte
    assert Evaluation.of_byte(0) == DRAW and Evaluation.of_byte(52) == Evaluation.win(51)
    assert Evaluation.of_byte(1) == Evaluation.loss(0)
    with pytest.raises(ValueError):
        Evaluation.of_byte(ILLEGAL)


def test_order_is_best_first():
    """Fastest win, slower wins, the draw, longest loss, shorter losses."""
    ordered = [Evaluation.win(1), Evaluation.win(3), Evaluation.win(51), DRAW, Evaluation.loss(50),
               Evaluation.loss(2), Evaluation.loss(0)]
    assert sorted(reversed(ordered), key=Evaluation.order_key) == ordered
    assert [evaluation.value for evaluation in ordered[::3]] == list(VALUES)


def test_value_codes_follow_the_order():
    every = np.arange(256, dtype=np.uint8)
    for byte, code in zip(every.tolist(), value_codes(every).tolist()):
        assert code == (-1 if byte == ILLEGAL else VALUES.index(Evaluation.of_byte(byte).value))


def test_for_mover_inverts_and_adds_a_ply():
    assert Evaluation.loss(0).for_mover() == Evaluation.win(1)
    assert Evaluation.win(5).for_mover() == Evaluation.loss(6)
    assert DRAW.for_mover() == DRAW


def test_one_wording_each():
    assert [e.terse() for e in (Evaluation.win(3), DRAW, Evaluation.loss(22))] == ["win in 3", "draw", "loss in 22"]
    assert [e.move_text() for e in (Evaluation.win(3), DRAW, Evaluation.loss(22))] == ["wins in 3", "draw",
                                                                                       "loses in 22"]
    assert [e.label() for e in (Evaluation.win(3), DRAW, Evaluation.loss(22))] == ["W3", "D", "L22"]
    assert str(Evaluation.win(51)) == "win in 51"


def test_outcomes():
    start = Position.parse("start")
    assert ending(start, 1) is None and game_over(start) is None
    repetition = ending(start, 3)
    assert repetition == Outcome(Termination.REPETITION) and repetition.result == "draw by repetition"
    won = Position.parse("b4/1b3/2b2/w4/w3w w")
    assert game_over(won) == Outcome(Termination.THREE_IN_A_ROW, "black")
    assert ending(won, 3).termination is Termination.THREE_IN_A_ROW  # a win ends play before a repetition
    assert Outcome(Termination.PLY_LIMIT).result == "stopped" and not Outcome(Termination.QUIT).finished


def test_no_move_is_an_outcome():
    """On 3 x 3 won by the diagonals only (a rule built here, as in tests/neutreeko/solving/test_reference.py), White
    on rank 1 under Black on rank 2 cannot move: Black wins."""
    diagonals = Rule("diagonals", "the two long diagonals", lambda board: {(0, 4, 8), (2, 4, 6)},
                     lambda board: True, "3 x 3")
    stuck = Position.parse("3/bbb/www w", game=Game.of(Board(3, 3), diagonals))
    assert game_over(stuck) == Outcome(Termination.NO_MOVE, "black")
    assert game_over(stuck).reason(stuck) == "White cannot move"


def test_reprs_are_readable():
    assert repr(Rule.of("connected")) == "Rule('connected')"
    assert repr(Game.of("5x5", "centre")) == "Game('5x5', 'centre')"
    assert repr(Position.parse("start")) == "Position('1w1w1/2b2/5/2w2/1b1b1 b')"
    assert "lambda" not in repr(Game.of("4x4"))


def test_version():
    assert solver.__version__ and invoke("--version").stdout == f"neutreeko {solver.__version__}\n"
