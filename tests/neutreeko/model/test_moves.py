"""Moves and unmoves agree: the kernel's predecessor generator, its move counts, Position's moves and
the reference's slides, on random positions of several boards and rules and on every position of the
smallest boards."""

from __future__ import annotations

from collections import defaultdict
from functools import lru_cache

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from solver.neutreeko.model import index
from solver.neutreeko.model.game import Game
from solver.neutreeko.model.position import Move, Position
from solver.neutreeko.model.values import ILLEGAL, UNDECIDED, encode_result
from solver.neutreeko.solving import _kernel
from solver.neutreeko.solving.kernel_inputs import KernelInputs, run_length
from tests import reference

pytestmark = pytest.mark.kernel

#: (board, rule) pairs the random positions are drawn from.
GAMES = [("3x3", "connected"), ("4x5", "orthogonal"), ("5x5", "connected"), ("5x5", "centre"),
         ("6x7", "diagonal"), ("7x7", "equidistant"), ("7x7", "connected"), ("8x8", "connected"),
         ("9x7", "orthogonal"), ("9x9", "connected"), ("9x9", "centre")]
#: Boards small enough to classify every index of (a few seconds at most).
CLASSIFIED = [("3x3", "connected"), ("4x5", "orthogonal"), ("5x5", "connected"), ("5x5", "centre")]

EXAMPLES = settings(max_examples=200, deadline=None)


@lru_cache(maxsize=None)
def _game(board: str, rule: str) -> Game:
    return Game.of(board, rule)


@lru_cache(maxsize=None)
def _inputs(game: Game) -> tuple[KernelInputs, np.ndarray]:
    """The solver's kernel inputs for ``game`` (every parent in one part), and decided bits with no
    position marked decided (zeros that are never written take no memory, even on 9 x 9)."""
    return KernelInputs.of(game), np.zeros(game.positions // 8 + 1, dtype=np.uint8)


def _kernel_parents(game: Game, position: int) -> list[int]:
    """The predecessors that the kernel's unmove generator writes for ``position``.

    The one place that knows the kernel's calling convention. The buffer has room for four times the
    bound the solver allows a position (:attr:`KernelInputs.max_unmoves`), so that an overrun shows as
    a failed check rather than as damaged memory."""
    inputs, decided = _inputs(game)
    bound = inputs.max_unmoves
    out = np.full((1, 4 * bound), -1, dtype=inputs.index_type)
    counts = np.zeros(1, dtype=np.int64)
    _kernel._unmoves(inputs.index_type(position), inputs.rays, inputs.triples, inputs.weights,
                     inputs.other_count, decided, inputs.part_of, out, 0, counts)
    assert counts[0] <= bound, f"{counts[0]} predecessors, more than the solver's buffer holds ({bound})"
    return out[0, :counts[0]].tolist()


@lru_cache(maxsize=None)
def _classified(game: Game) -> tuple[np.ndarray, np.ndarray]:
    """``result`` and ``moves_left`` as the kernel's classification pass leaves them: the result byte
    of every decided index, 0 elsewhere, and the number of moves of every undecided one, 0 elsewhere."""
    inputs, _ = _inputs(game)
    both = np.zeros(game.positions, dtype=np.uint8)
    decided = np.zeros(-(-game.positions // 8), dtype=np.uint8)
    fresh = np.zeros(len(inputs.triples), dtype=np.int64)
    run = run_length(game.board.size)
    _kernel._classify(0, -(-len(inputs.triples) // run), inputs.rays, inputs.triples, inputs.wins,
                      inputs.other_count, run, both, decided, fresh)
    is_decided = np.unpackbits(decided, bitorder="little")[:game.positions].astype(bool)
    assert fresh.sum() == np.count_nonzero(both[is_decided] == encode_result(0))
    return np.where(is_decided, both, 0), np.where(is_decided, 0, both)


def _reference_moves(position: Position) -> set[Move]:
    width, height = position.game.board.width, position.game.board.height
    return {Move(reference.number(origin, width), reference.number(target, width))
            for origin, target in reference.moves(reference.side_of(position.mover, width),
                                                  reference.side_of(position.other, width), width, height)}


@st.composite
def legal_positions(draw, games=GAMES, other_won=st.booleans()):
    """A random legal position, Black to move, of one of ``games``; when ``other_won`` draws True, the
    other side stands on a winning line (a position lost at distance 0)."""
    game = _game(*draw(st.sampled_from(games)))
    size = game.board.size
    if draw(other_won):
        other = draw(st.sampled_from(sorted(game.winning_triples)))
        free = [square for square in range(size) if square not in other]
        mover = draw(st.lists(st.sampled_from(free), min_size=3, max_size=3, unique=True))
    else:
        pieces = draw(st.lists(st.integers(0, size - 1), min_size=6, max_size=6, unique=True))
        mover, other = pieces[:3], pieces[3:]
    mover, other = tuple(sorted(mover)), tuple(sorted(other))
    assume(mover not in game.winning_triples)
    return Position(game, mover, other, True)


@EXAMPLES
@given(position=legal_positions())
def test_every_predecessor_moves_to_the_position(position):
    """Each predecessor the kernel generates is a genuine one: one of its moves leads to the position.

    Every predecessor is checked with the reference's slides; the legal ones (whose mover has not
    already won; the solver never settles the others, which are marked decided from the start) also
    with Position.moves() and play(). Each predecessor comes once, as the solver counts a position's
    moves one by one."""
    game, width = position.game, position.game.board.width
    parents = _kernel_parents(game, position.index())
    assert len(parents) == len(set(parents))
    movers, others = index.decode(np.array(parents, dtype=np.int64), game.board.size)
    for parent, mover, other in zip(parents, map(tuple, movers.tolist()), map(tuple, others.tolist())):
        # The side that just moved was the parent's mover; the present mover did not move.
        assert other == position.mover
        (origin,) = set(mover) - set(position.other)
        (target,) = set(position.other) - set(mover)
        slides = reference.moves(reference.side_of(mover, width), reference.side_of(other, width), width,
                                 game.board.height)
        assert ((origin % width, origin // width), (target % width, target // width)) in slides
        if mover in game.winning_triples:
            continue
        before = Position.from_index(game, parent)
        assert position.index() in {before.play(move).index() for move in before.moves()}


@EXAMPLES
@given(position=legal_positions(other_won=st.just(False)))
def test_every_move_is_undone_by_an_unmove(position):
    """For each move of a position, the kernel's predecessors of the resulting position include the
    original position: no parent is missed."""
    moves = position.moves()
    assume(moves)
    for move in moves:
        child = position.play(move)
        assert position.index() in _kernel_parents(position.game, child.index()), \
            f"{position.fen()}: {move.name(position.game.board)} is not undone from {child.fen()}"


@EXAMPLES
@given(position=legal_positions())
def test_position_moves_are_the_reference_slides(position):
    """Position.moves() gives exactly the reference's slides (none once the other side has won)."""
    moves = position.moves()
    assert len(moves) == len(set(moves))
    if position.other in position.game.winning_triples:
        assert moves == []
    else:
        assert set(moves) == _reference_moves(position)


@EXAMPLES
@given(position=legal_positions(games=CLASSIFIED))
def test_classify_counts_the_moves(position):
    """The kernel's classification: lost in 0 where the other side has won or there is no move;
    otherwise undecided with ``moves_left`` = the number of Position.moves()."""
    result, moves_left = _classified(position.game)
    moves = position.moves()
    if not moves:
        assert result[position.index()] == encode_result(0)
    else:
        assert result[position.index()] == UNDECIDED
        assert moves_left[position.index()] == len(moves)


@pytest.mark.parametrize("board, rule", [("3x3", "connected"), ("3x4", "orthogonal"), ("4x3", "connected")])
def test_unmoves_reverse_the_reference_moves_on_every_position(board, rule):
    """On every index of a small board, legal or not, the kernel's predecessors are exactly the
    positions whose reference moves lead to it, each once."""
    game = _game(board, rule)
    width, height = game.board.width, game.board.height
    positions = reference.all_positions(width, height)
    kernel_index = [reference.package_index(mover, other, width, height) for mover, other in positions]
    parents = defaultdict(list)
    for n, (mover, other) in enumerate(positions):
        for origin, target in reference.moves(mover, other, width, height):
            parents[reference.package_index(other, (mover - {origin}) | {target}, width, height)].append(kernel_index[n])
    for position in range(game.positions):
        assert sorted(_kernel_parents(game, position)) == sorted(parents[position]), position


@pytest.mark.parametrize("board, rule", [("3x3", "connected"), ("3x4", "orthogonal"), ("4x3", "connected")])
def test_classify_on_every_position(board, rule):
    """On every index of a small board the classification pass agrees with the reference: ILLEGAL
    where the mover has a winning line, lost in 0 where the other side has one or the mover has no
    slide, else undecided with as many moves left as the reference has slides."""
    game = _game(board, rule)
    width, height = game.board.width, game.board.height
    lines = reference.winning_lines(rule, width, height)
    result, moves_left = _classified(game)
    for mover, other in reference.all_positions(width, height):
        position = reference.package_index(mover, other, width, height)
        slides = len(reference.moves(mover, other, width, height))
        if mover in lines:
            assert result[position] == ILLEGAL
        elif other in lines or slides == 0:
            assert result[position] == encode_result(0)
        else:
            assert (result[position], moves_left[position]) == (UNDECIDED, slides)


def test_rules_example_from_the_start():
    """The rules' example: from the start, the piece on B1 can go to A1, C1, A2 or B4 (C2 is occupied)."""
    start = Position.start(_game("5x5", "connected"))
    board = start.game.board
    from_b1 = {move.name(board) for move in start.moves() if board.name(move.origin) == "B1"}
    assert from_b1 == {"B1-A1", "B1-C1", "B1-A2", "B1-B4"}
