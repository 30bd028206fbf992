"""The numba kernel against the slow, independent reference solver of ``tests/reference.py``.

On every small board the kernel's result byte of every index must be the reference's value and
distance of that position (or ILLEGAL exactly where the reference finds the mover already won). On
5 x 5, too big for the reference, random positions of the solved table must satisfy the reference's
definitions against their children.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.neutreeko.model import index
from solver.neutreeko.model.board import Board
from solver.neutreeko.model.game import Game
from solver.neutreeko.model.rules import RULES, Rule
from solver.neutreeko.model.values import ILLEGAL, UNDECIDED, encode_result
from solver.neutreeko.solving.solve import solve
from tests import reference
from tests.helpers import offered

pytestmark = pytest.mark.kernel

#: (width, height, rule): every rule offered on the boards up to 4 x 4, and ``equidistant`` on the
#: smallest boards that offer it.
OFFERED = [
    (3, 3, "connected"), (3, 4, "connected"), (4, 3, "connected"), (4, 4, "connected"),
    (3, 3, "orthogonal"), (3, 4, "orthogonal"), (4, 3, "orthogonal"), (4, 4, "orthogonal"),
    (4, 4, "diagonal"),
    (3, 5, "equidistant"), (5, 3, "equidistant"),
]

#: ``diagonal`` is not offered on boards 3 wide or high, where a side can be left without a move; the
#: kernel is run on them with a rule built here, to check that such positions are lost at distance 0.
NOT_OFFERED = [(3, 3, "diagonal"), (3, 4, "diagonal"), (4, 3, "diagonal")]


def _cases(cases) -> list:
    return [pytest.param(width, height, rule, id=f"{width}x{height}-{rule}") for width, height, rule in cases]


def _game(width: int, height: int, rule: str) -> Game:
    board = Board(width, height)
    if (width, height, rule) in NOT_OFFERED:
        lines = reference.numbered_lines(rule, width, height)
        return Game.of(board, Rule(rule, "reference lines", lambda _: lines, lambda _: True, "any board"))
    return Game.of(board, rule)


@lru_cache(maxsize=None)
def _kernel_result(width: int, height: int, rule: str) -> np.ndarray:
    return solve(_game(width, height, rule)).result


def _expected_result(solution: reference.Solution) -> np.ndarray:
    """The reference's values as result bytes in the kernel's index layout (ILLEGAL where the
    reference has no legal position)."""
    squares = solution.width * solution.height
    expected = np.full(index.position_count(squares), ILLEGAL, dtype=np.uint8)
    for (mover, other), distance in solution.distance.items():
        position = reference.package_index(mover, other, solution.width, solution.height)
        assert expected[position] == ILLEGAL, "two reference positions share an index"
        expected[position] = UNDECIDED if distance is None else encode_result(distance)
    return expected


def _describe(byte: int) -> str:
    if byte == ILLEGAL:
        return "illegal"
    if byte == UNDECIDED:
        return "draw"
    return f"{'win' if (byte - 1) % 2 else 'loss'} in {byte - 1}"


def _assert_same(kernel: np.ndarray, expected: np.ndarray, game: Game) -> None:
    differ = np.flatnonzero(kernel != expected)
    if len(differ):
        movers, others = index.decode(differ[:5], game.board.size)
        examples = "; ".join(
            f"mover {' '.join(map(game.board.name, mover))} / other {' '.join(map(game.board.name, other))}"
            f" (index {i}): kernel {_describe(kernel[i])}, reference {_describe(expected[i])}"
            for i, mover, other in zip(differ[:5], movers.tolist(), others.tolist()))
        pytest.fail(f"{game}: {len(differ)} of {len(kernel)} indices differ, e.g. {examples}")


@pytest.mark.parametrize("width, height, rule", _cases(OFFERED + NOT_OFFERED))
def test_kernel_matches_reference_on_every_position(width, height, rule):
    """Every index: the kernel's value and distance are the reference's (draws included)."""
    game = _game(width, height, rule)
    _assert_same(_kernel_result(width, height, rule), _expected_result(reference.solve(width, height, rule)), game)


@pytest.mark.parametrize("width, height, rule", _cases(OFFERED + NOT_OFFERED))
def test_illegal_exactly_where_the_mover_has_won(width, height, rule):
    """The kernel marks an index ILLEGAL exactly when the mover's squares form a winning line."""
    squares = width * height
    lines = reference.numbered_lines(rule, width, height)
    movers, _ = index.decode(np.arange(index.position_count(squares)), squares)
    mover_won = np.array([tuple(mover) in lines for mover in movers.tolist()])
    assert np.array_equal(_kernel_result(width, height, rule) == ILLEGAL, mover_won)


@pytest.mark.parametrize("width, height, rule", _cases(NOT_OFFERED))
def test_no_move_is_lost_at_once(width, height, rule):
    """Where the mover cannot move (and the other side has not won) the kernel says lost in 0.

    Such positions exist only where ``diagonal`` is not offered; the comparison above checks them one
    by one, this test that there are some to check."""
    solution = reference.solve(width, height, rule)
    stuck = [position for position, distance in solution.distance.items()
             if distance == 0 and position[1] not in solution.lines]
    assert len(stuck) == solution.no_move > 0
    result = _kernel_result(width, height, rule)
    for mover, other in stuck:
        assert result[reference.package_index(mover, other, width, height)] == encode_result(0)


@pytest.mark.parametrize("rule", sorted(RULES))
def test_rules_winning_lines_match_reference(rule):
    """On every board 3 x 3 .. 7 x 7 that offers it, the rule's winning triples (the data the kernel
    is given) are the reference's lines."""
    boards = [(w, h) for w in range(3, 8) for h in range(3, 8) if offered(rule, Board(w, h))]
    assert boards
    for width, height in boards:
        assert set(RULES[rule].winning_triples(Board(width, height))) == reference.numbered_lines(rule, width, height), \
            f"{rule} on {width}x{height}"


def _board_positions(squares: int):
    """Random positions as (mover's sorted squares, other's sorted squares)."""
    return st.lists(st.integers(0, squares - 1), min_size=6, max_size=6, unique=True).map(
        lambda pieces: (tuple(sorted(pieces[:3])), tuple(sorted(pieces[3:]))))


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(position=_board_positions(25))
def test_5x5_table_satisfies_the_definitions(solved_5x5, position):
    """A random legal 5 x 5 position's byte follows from its children's bytes by the definitions:
    lost in 0 if the other side has won or there is no move; else won in 1 + the shortest loss among
    the children if there is one; else lost in 1 + the longest win if every child is won; else a draw.
    Children come from the reference's own move generation."""
    width = height = 5
    lines = reference.numbered_lines("connected", width, height)
    mover, other = position
    if mover in lines:
        return
    result = solved_5x5.result
    other_count = index.other_count(width * height)
    byte = int(result[index.encode(*mover, *other, other_count)])

    slides = reference.moves(reference.side_of(mover, width), reference.side_of(other, width), width, height)
    if other in lines or not slides:
        assert byte == encode_result(0)
        return
    children = []
    for origin, target in slides:
        moved = reference.numbers((reference.side_of(mover, width) - {origin}) | {target}, width)
        children.append(int(result[index.encode(*other, *moved, other_count)]))
    assert ILLEGAL not in children
    losses = [child - 1 for child in children if child != UNDECIDED and (child - 1) % 2 == 0]
    wins = [child - 1 for child in children if child != UNDECIDED and (child - 1) % 2 == 1]
    if losses:
        assert byte == encode_result(1 + min(losses))
    elif len(wins) == len(children):
        assert byte == encode_result(1 + max(wins))
    else:
        assert byte == UNDECIDED
