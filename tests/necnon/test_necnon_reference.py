"""The NECNON solver against the slow reference (``necnon_reference.py``), position by position: every
position reachable from the empty board, on every board up to 3 x 3 and on hexhex base 2, under all four
protocol settings, has the reference's value and turns, and the solver finds exactly as many positions."""

from __future__ import annotations

import numpy as np
import pytest

from solver.necnon.model.keys import canonical_keys, find, key
from solver.necnon.model.position import Position
from solver.necnon.model.rules import SETTINGS, Game
from solver.necnon.solving.solve import solve
from tests.necnon_reference import solved

pytestmark = pytest.mark.kernel

#: Black's and Green's protocol in each setting, as the rules name them.
PROTOCOLS = {"nec": ("nec", "nec"), "non": ("non", "non"), "nec-non": ("nec", "non"), "non-nec": ("non", "nec")}
BOARDS = [("square", 2, 2), ("square", 3, 2), ("square", 2, 3), ("square", 3, 3), ("hex", 2, 2)]


def board_name(kind: str, width: int, height: int) -> str:
    return f"{width}x{height}" if kind == "square" else f"hex{width}"


def test_the_settings_are_the_rules_ones():
    assert sorted(SETTINGS) == sorted(PROTOCOLS)


@pytest.mark.parametrize("setting", PROTOCOLS)
@pytest.mark.parametrize("board", BOARDS, ids=lambda board: board_name(*board))
def test_every_position_agrees_with_the_reference(board, setting):
    black, green = PROTOCOLS[setting]
    reference = solved(*board, black, green)
    game = Game.of(board_name(*board), setting)
    solution = solve(game)
    states = list(reference.values)
    positions = [Position.parse(reference.notation(state), game) for state in states]
    rows = find(solution.records, canonical_keys(game.grid, [key(position) for position in positions]))
    assert (rows >= 0).all(), "a reachable position is missing from the solution"
    expected = np.array([reference.values[state] for state in states])
    assert np.array_equal(solution.records["margin"][rows], expected[:, 0])
    assert np.array_equal(solution.records["turns"][rows], expected[:, 1])
    assert solution.positions == len(states)
