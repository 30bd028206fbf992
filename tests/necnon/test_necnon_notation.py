"""NECNON's boards and notation: cell names on both grids, board names, the symmetries, and round trips
of positions, turns and keys on random positions of every board."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.core.errors import BoardError
from solver.necnon.model.grid import Grid
from solver.necnon.model.keys import canonical_keys, key, position_of
from solver.necnon.model.position import Position, notation_grid
from solver.necnon.model.rules import SETTINGS, Game

SQUARES = [Grid.square(width, height) for width in range(2, 8) for height in range(2, 8)]
HEXES = [Grid.hexhex(base) for base in range(2, 7)]
GRIDS = SQUARES + HEXES


@pytest.mark.parametrize("grid", GRIDS, ids=str)
def test_every_cell_name_reads_back(grid):
    names = [grid.name(cell) for cell in range(grid.cells)]
    assert len(set(names)) == grid.cells
    assert [grid.parse_cell(name.upper()) for name in names] == list(range(grid.cells))
    assert Grid.parse(str(grid)) == grid
    assert Grid.of_rows([len(row) for row in grid.rows]) == grid
    assert sorted(cell for row in grid.rows for cell in row) == list(range(grid.cells))


def test_documented_names():
    """The layouts drawn in solver/necnon/model/grid.py."""
    square = Grid.parse("4x3")
    assert square.parse_cell("a1") == 0 and square.parse_cell("b1") == 1 and square.parse_cell("d3") == 11
    assert [square.name(cell) for cell in square.rows[0]] == ["a3", "b3", "c3", "d3"]
    hexes = Grid.parse("hex3")
    assert hexes.cells == 19 and hexes.parse_cell("b1") == 3 and hexes.parse_cell("e5") == 18
    assert [[hexes.name(cell) for cell in row] for row in hexes.rows] == [
        ["e3", "e4", "e5"], ["d2", "d3", "d4", "d5"], ["c1", "c2", "c3", "c4", "c5"], ["b1", "b2", "b3", "b4"],
        ["a1", "a2", "a3"]]
    assert sorted(hexes.name(cell) for cell in hexes.neighbours[hexes.parse_cell("c3")]) == \
        ["b2", "b3", "c2", "c4", "d3", "d4"]
    assert [Grid.hexhex(base).cells for base in range(2, 7)] == [7, 19, 37, 61, 91]


@pytest.mark.parametrize("text", ["1x4", "8x2", "4x", "hex1", "hex7", "hexa", "4by4", "", "hex 3 4"])
def test_bad_boards(text):
    with pytest.raises(BoardError):
        Grid.parse(text)


@pytest.mark.parametrize("name", ["e1", "a4", "z9", "c", "3c", "c3,"])
def test_bad_cells_on_hex3(name):
    with pytest.raises(BoardError):
        Grid.parse("hex3").parse_cell(name)


@pytest.mark.parametrize("grid", GRIDS, ids=str)
def test_symmetries_map_neighbours_onto_neighbours(grid):
    table = grid.symmetries
    expected = 12 if grid.kind == "hex" else 8 if grid.width == grid.height else 4
    assert table.shape == (expected, grid.cells)
    assert np.array_equal(table[0], np.arange(grid.cells))
    assert len({tuple(row) for row in table}) == expected
    edges = {frozenset((cell, near)) for cell in range(grid.cells) for near in grid.neighbours[cell]}
    for image in table:
        assert sorted(image) == list(range(grid.cells))
        assert {frozenset((int(image[a]), int(image[b]))) for a, b in map(tuple, edges)} == edges
    composed = {tuple(first[second]) for first in table for second in table}
    assert composed == {tuple(row) for row in table}  # a group


def random_position(game: Game, rng: random.Random) -> Position:
    """A position reached by random turns from the empty board (possibly the end of the game)."""
    position = Position.empty(game)
    for _ in range(rng.randrange(2 * game.grid.cells)):
        if position.over:
            break
        position = position.play(rng.choice(position.turns()))
    return position


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(GRIDS), st.sampled_from(list(SETTINGS)), st.integers(0, 2**32))
def test_positions_and_turns_read_back(grid, setting, seed):
    game = Game.of(grid, setting)
    position = random_position(game, random.Random(seed))
    text = position.notation()
    assert Position.parse(text, game) == position
    assert Position.parse(text.upper(), game) == position
    assert notation_grid(text) == grid
    for turn in position.turns()[:20]:
        assert position.parse_turn(turn.name(grid)) == turn
        assert position.parse_turn(",".join(reversed(turn.name(grid).split(",")))) == turn


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([grid for grid in GRIDS if grid.cells <= 30]), st.sampled_from(list(SETTINGS)),
       st.integers(0, 2**32))
def test_keys_read_back_and_canonical_keys_are_the_same_for_every_image(grid, setting, seed):
    game = Game.of(grid, setting)
    position = random_position(game, random.Random(seed))
    assert position_of(game, key(position)) == position
    images = []
    for image in grid.symmetries:
        moved = Position(game, sum(1 << int(image[cell]) for cell in range(grid.cells) if position.black >> cell & 1),
                         sum(1 << int(image[cell]) for cell in range(grid.cells) if position.green >> cell & 1),
                         position.black_to_move, position.passes)
        images.append(key(moved))
    canonical = canonical_keys(grid, images)
    assert len(set(canonical.tolist())) == 1 and int(canonical[0]) == min(images)
