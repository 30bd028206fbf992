"""The NECNON solver beyond the reference comparison: symmetry (the values of a position's images are
equal, in the reference, which knows no symmetry; the solver's classes are canonical), transposed
boards, determinism, and the boards it refuses."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.core.errors import BoardError
from solver.core.storage.container import digest
from solver.necnon.model.keys import canonical_keys
from solver.necnon.model.position import Position
from solver.necnon.model.rules import Game
from solver.necnon.solving.solve import solve
from tests.necnon_reference import solved

pytestmark = pytest.mark.kernel

CASES = [("square", 3, 3, "nec", "non"), ("square", 3, 2, "non", "non"), ("hex", 2, 2, "non", "nec")]


@pytest.mark.parametrize("case", CASES, ids=lambda case: f"{case[1]}x{case[2]}-{case[0]}-{case[3]}-{case[4]}")
def test_reference_values_are_the_same_on_every_image(case):
    """Map each position of the reference through each of the package's symmetries (by cell name):
    its value and turns are unchanged. This checks that the symmetries preserve the rules."""
    kind, width, height, black, green = case
    reference = solved(kind, width, height, black, green)
    grid = Game.of(f"{width}x{height}" if kind == "square" else f"hex{width}").grid
    cell_of = {reference.board.name(cell): cell for cell in reference.board.cells}
    for image in grid.symmetries[1:]:
        mapping = {cell: cell_of[grid.name(int(image[grid.parse_cell(reference.board.name(cell))]))]
                   for cell in reference.board.cells}
        for (stones_black, stones_green, black_to_move, passes), value in reference.values.items():
            moved = (frozenset(map(mapping.get, stones_black)), frozenset(map(mapping.get, stones_green)),
                     black_to_move, passes)
            assert reference.values[moved] == value


@pytest.mark.parametrize("board", ["3x3", "4x3", "hex2"])
def test_the_solvers_classes_are_canonical(board):
    solution = solve(Game.of(board, "nec-non"))
    keys = solution.records["key"]
    assert np.array_equal(canonical_keys(solution.game.grid, keys), keys)
    assert np.all(keys[1:] > keys[:-1])
    sizes = solution.records["images"]
    assert set(np.unique(sizes)) <= {size for size in range(1, 13) if len(solution.game.grid.symmetries) % size == 0}


def test_a_board_turned_a_quarter_is_the_same_game():
    wide, tall = solve(Game.of("4x3", "non-nec")), solve(Game.of("3x4", "non-nec"))
    assert wide.positions == tall.positions and len(wide.records) == len(tall.records)
    assert np.array_equal(np.sort(wide.records["margin"]), np.sort(tall.records["margin"]))
    empty_wide, empty_tall = wide.records[0], tall.records[0]  # key 0: the empty board, Black to move
    assert empty_wide["key"] == empty_tall["key"] == 0
    assert (empty_wide["margin"], empty_wide["turns"]) == (empty_tall["margin"], empty_tall["turns"])


def test_a_solve_is_the_same_every_time():
    game = Game.of("4x3", "nec")
    assert digest(solve(game).records) == digest(solve(game).records)


@pytest.mark.parametrize("board", ["hex4", "6x6"])
def test_boards_too_large_to_solve(board):
    with pytest.raises(BoardError, match="at most 30"):
        solve(Game.of(board, "nec"))


@pytest.mark.parametrize("board", ["3x3", "hex2", "4x3"])
def test_both_table_layouts_give_the_same_records(board):
    """Boards of more than 22 cells use the wide layout; small ones test it against the packed one."""
    game = Game.of(board, "non-nec")
    assert np.array_equal(solve(game, packed=True).records, solve(game, packed=False).records)


def test_a_packed_table_refuses_a_board_too_large_for_it():
    with pytest.raises(ValueError, match="at most 22 cells"):
        solve(Game.of("6x4", "nec"), packed=True)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["7x7", "hex6", "hex4", "5x3", "2x7"]), st.sampled_from(["nec", "non", "nec-non", "non-nec"]),
       st.integers(0, 2**32))
def test_the_kernels_rules_agree_with_the_positions_on_every_board(board, setting, seed):
    """The numba rules (allowed cells, final margin) the solver and the engine share, against the
    plain-Python ones of Position, on random positions of boards too large to solve."""
    from solver.necnon.model import _rules

    game = Game.of(board, setting)
    rng = random.Random(seed)
    position = Position.empty(game)
    for _ in range(rng.randrange(3 * game.grid.cells // 2)):
        if position.over:
            break
        position = position.play(rng.choice(position.turns()))
    neighbours, nec = game.grid.neighbour_table, game.nec
    board_bytes = np.array([{None: 0, "black": 1, "green": 2}[position.stone(cell)] for cell in range(game.grid.cells)],
                           dtype=np.int8)
    out = np.empty(game.grid.cells, dtype=np.int64)
    for black in (True, False):
        count = _rules.allowed_cells(board_bytes, black, nec, neighbours, out)
        assert tuple(out[:count]) == position.allowed(black)
    scratch = np.empty(game.grid.cells, dtype=np.bool_), np.empty(game.grid.cells, dtype=np.int64)
    assert _rules.margin(board_bytes, neighbours, *scratch) == position.margin()
