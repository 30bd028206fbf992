"""The dense position index: triple ranks, encode/decode and Position.index() are exact inverses."""

from __future__ import annotations

from itertools import combinations
from math import comb

import numpy as np
import pytest

from solver.core.errors import NotationError
from solver.neutreeko.model import index
from solver.neutreeko.model.game import Game
from solver.neutreeko.model.position import Position

#: Every board size from 3 x 3 to 11 x 11, in squares.
SIZES = sorted({width * height for width in range(3, 12) for height in range(3, 12)})


def _encode(mover: np.ndarray, other: np.ndarray, squares: int) -> np.ndarray:
    """:func:`index.encode` applied to arrays of sorted triples (one per row)."""
    return index.encode(*mover.T.astype(np.int64), *other.T.astype(np.int64), index.other_count(squares))


@pytest.mark.parametrize("squares", SIZES)
def test_triple_ranks_are_the_colexicographic_order(squares):
    """``triples(N)`` lists every sorted triple of N squares exactly once, in colexicographic order
    (compare the largest square, then the middle, then the smallest), and triple_rank inverts it."""
    table = index.triples(squares)
    expected = sorted(combinations(range(squares), 3), key=lambda triple: triple[::-1])
    assert table.shape == (comb(squares, 3), 3)
    assert [tuple(row) for row in table.tolist()] == expected
    ranks = index.triple_rank(table[:, 0].astype(np.int64), table[:, 1].astype(np.int64),
                              table[:, 2].astype(np.int64))
    assert np.array_equal(ranks, np.arange(len(table)))


@pytest.mark.parametrize("squares", [9, 25, 121])
def test_rank_weights_sum_to_the_triple_rank(squares):
    """A triple's rank is the sum of its squares' terms in ``rank_weights``, the smallest square's
    being the square itself (the kernels add the squeezed square and look up the other two)."""
    weights = index.rank_weights(squares)
    table = index.triples(squares).astype(np.int64)
    assert np.array_equal(weights[0], np.arange(squares))
    summed = weights[0, table[:, 0]] + weights[1, table[:, 1]] + weights[2, table[:, 2]]
    assert np.array_equal(summed, np.arange(len(table)))



@pytest.mark.parametrize("squares", [9, 25, 121])
def test_pairs_are_the_lower_pairs_of_the_triples_in_rank_order(squares):
    expected = sorted(combinations(range(squares - 1), 2), key=lambda pair: pair[::-1])
    assert [tuple(pair) for pair in index.pairs(squares).tolist()] == expected
    values = np.arange(len(expected))
    assert (index.pairs(squares)[index.by_pair(values, squares)] == index.triples(squares)[:, :2]).all()
    assert (index.by_top(np.arange(squares), squares) == index.triples(squares)[:, 2]).all()

def test_triple_rank_examples():
    """The examples of the module docstring."""
    assert [index.triple_rank(0, 1, 2), index.triple_rank(0, 1, 3), index.triple_rank(0, 2, 3)] == [0, 1, 2]


@pytest.mark.parametrize("squares", SIZES)
def test_squeeze_inverts_unsqueeze(squares):
    """Around every mover triple, unsqueeze maps 0 .. N-4 onto the free squares in order and squeeze
    maps them back."""
    free = np.arange(squares - 3)
    for m0, m1, m2 in index.triples(squares)[:: max(1, comb(squares, 3) // 300)].tolist():
        placed = index.unsqueeze(free, m0, m1, m2)
        assert placed.tolist() == [s for s in range(squares) if s not in (m0, m1, m2)]
        assert np.array_equal(index.squeeze(placed, m0, m1, m2), free)


@pytest.mark.parametrize("width, height", [(3, 3), (4, 3), (4, 4), (5, 5)])
def test_every_index_round_trips(width, height):
    """decode then encode gives back every index of the board, and the decoded positions are pairs of
    disjoint sorted triples on the board; as there are C(N,3) * C(N-3,3) indices, the index is a
    bijection onto all such pairs."""
    squares = width * height
    positions = index.position_count(squares)
    assert positions == comb(squares, 3) * comb(squares - 3, 3)
    every = np.arange(positions)
    mover, other = index.decode(every, squares)
    for side in (mover, other):
        assert np.all((side[:, 0] < side[:, 1]) & (side[:, 1] < side[:, 2]))
        assert side.min() >= 0 and side.max() < squares
    assert not np.any((mover[:, :, None] == other[:, None, :]).any(axis=(1, 2)))
    assert np.array_equal(_encode(mover, other, squares), every)


@pytest.mark.parametrize("squares, positions", [(49, 279_676_320), (81, 6_490_804_320)])
def test_large_index_round_trips_on_a_sample(squares, positions):
    """On 7 x 7 and 9 x 9 (beyond int32): decode/encode round trip on the ends and 200,000 random
    indices, and encode/decode round trip on 20,000 random pairs of disjoint triples."""
    assert index.position_count(squares) == positions
    rng = np.random.default_rng(7)
    sample = np.concatenate([[0, 1, positions - 2, positions - 1], rng.integers(0, positions, 200_000)])
    mover, other = index.decode(sample, squares)
    assert not np.any((mover[:, :, None] == other[:, None, :]).any(axis=(1, 2)))
    assert np.array_equal(_encode(mover, other, squares), sample)

    pieces = np.sort(np.argsort(rng.random((20_000, squares)), axis=1)[:, :6].reshape(-1, 2, 3), axis=2)
    encoded = _encode(pieces[:, 0], pieces[:, 1], squares)
    assert encoded.min() >= 0 and encoded.max() < positions
    mover, other = index.decode(encoded, squares)
    assert np.array_equal(mover, pieces[:, 0]) and np.array_equal(other, pieces[:, 1])


@pytest.mark.parametrize("board, rule", [("3x3", "connected"), ("3x4", "connected"), ("4x3", "orthogonal")])
def test_position_from_index_round_trips_on_every_index(board, rule):
    """Position.from_index(i).index() == i for every legal index, with either side to move; an
    illegal index (the mover has a winning triple) is refused."""
    game = Game.of(board, rule)
    movers, _ = index.decode(np.arange(game.positions), game.board.size)
    for position_index, mover in enumerate(map(tuple, movers.tolist())):
        if mover in game.winning_triples:
            with pytest.raises(NotationError):
                Position.from_index(game, position_index)
            continue
        for black_to_move in (True, False):
            position = Position.from_index(game, position_index, black_to_move)
            assert position.index() == position_index
            assert position.mover == mover


@pytest.mark.parametrize("board, rule", [("5x5", "connected"), ("7x6", "diagonal"), ("7x7", "equidistant"),
                                         ("7x7", "centre"), ("9x9", "connected"), ("8x9", "orthogonal")])
def test_position_from_index_round_trips_on_a_sample(board, rule):
    """Position.from_index(i).index() == i on 2,000 random legal indices of larger boards."""
    game = Game.of(board, rule)
    rng = np.random.default_rng(5)
    checked = 0
    for position_index in rng.integers(0, game.positions, 2_000).tolist():
        try:
            position = Position.from_index(game, position_index, position_index % 2 == 0)
        except NotationError:
            continue
        assert position.index() == position_index
        checked += 1
    assert checked > 1_000
