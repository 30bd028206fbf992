"""The published figures (the `neutreeko verify` table of docs/results/neutreeko.md), reproduced by a solve
(5 x 5 and 4 x 4, ``connected``)."""

from __future__ import annotations

import numpy as np
import pytest

from solver.neutreeko.model.game import Game
from solver.neutreeko.model.position import Position
from solver.neutreeko.model.values import ILLEGAL, UNDECIDED, encode_result
from solver.neutreeko.solving.solve import solve

START = "1w1w1/2b2/5/2w2/1b1b1 b"

pytestmark = pytest.mark.slow


def _longest_win(result: np.ndarray) -> int:
    distances = result[(result != UNDECIDED) & (result != ILLEGAL)].astype(np.int64) - 1
    return int(distances[distances % 2 == 1].max())


def test_legal_positions(solved_5x5):
    """3,468,080 indices are legal positions (the side to move has no three in a row)."""
    assert np.count_nonzero(solved_5x5.result != ILLEGAL) == 3_468_080


def test_drawn_positions(solved_5x5):
    """104,660 legal positions are never decided: draws."""
    assert np.count_nonzero(solved_5x5.result == UNDECIDED) == 104_660


def test_longest_win_is_51_plies_by_8_positions(solved_5x5):
    """The longest forced win takes 51 plies, and exactly 8 positions (one symmetry class) have it."""
    assert _longest_win(solved_5x5.result) == 51
    assert np.count_nonzero(solved_5x5.result == encode_result(51)) == 8


def test_longest_wins_are_one_symmetry_class(solved_5x5):
    """The 8 positions won in 51 are the images of one of them under the 8 symmetries of the square."""
    game = solved_5x5.game
    longest = {int(i) for i in np.flatnonzero(solved_5x5.result == encode_result(51))}
    first = Position.from_index(game, min(longest))

    def image(square, turn, mirror):
        file, rank = square % 5, square // 5
        for _ in range(turn):
            file, rank = rank, 4 - file
        return rank * 5 + (4 - file if mirror else file)

    images = set()
    for turn in range(4):
        for mirror in (False, True):
            mover = tuple(sorted(image(square, turn, mirror) for square in first.mover))
            other = tuple(sorted(image(square, turn, mirror) for square in first.other))
            images.add(Position(game, mover, other, True).index())
    assert images == longest


def test_start_position_is_a_draw(solved_5x5):
    """The standard start position, Black to move, is a draw."""
    start = Position.parse(START, game=solved_5x5.game)
    assert start == Position.start(solved_5x5.game)
    assert solved_5x5.result[start.index()] == UNDECIDED


def test_seed_example_c4_c3_loses_in_3(solved_5x5):
    """After 1. C4-C3? White wins in 3 plies, and exactly D5-D2 and its mirror B5-B2 achieve it: each
    leaves Black lost in 2. No move wins at once, so 3 is the fastest win."""
    game, result = solved_5x5.game, solved_5x5.result
    position = Position.parse(START, game=game).play("C4-C3")
    assert not position.black_to_move
    assert result[position.index()] == encode_result(3)
    after = {move.name(game.board): int(result[position.play(move).index()]) for move in position.moves()}
    assert {name for name, byte in after.items() if byte == encode_result(2)} == {"D5-D2", "B5-B2"}
    assert encode_result(0) not in after.values()


def test_longest_win_on_4x4_is_33_plies():
    """On the 4 x 4 board the longest forced win takes 33 plies."""
    assert _longest_win(solve(Game.of("4x4", "connected")).result) == 33
