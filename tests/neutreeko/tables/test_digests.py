"""The committed digests of every table the survey builds (``solver/neutreeko/tables/table-digests.csv``,
written by ``scripts/table_digests.py``), checked against fresh solves of the boards small enough for
the suite: a change to the kernel that changes one result byte of any of them fails here."""

from __future__ import annotations

import dataclasses
from math import comb
from pathlib import Path

import numpy as np
import pytest

from solver.core.storage.container import digest
from solver.neutreeko.model.board import Board
from solver.neutreeko.model.game import Game
from solver.neutreeko.model.rules import RULES
from solver.neutreeko.solving import solve as solve_module
from solver.neutreeko.solving.kernel_inputs import KernelInputs
from solver.neutreeko.solving.solve import solve
from solver.neutreeko.studies.survey import survey_games
from solver.neutreeko.tables.digests import committed, committed_digest

pytestmark = pytest.mark.kernel

#: Boards with at most this many indices are solved here (every board up to 5 x 4 and 4 x 5).
SOLVED_HERE = 2_000_000


#: The rows beyond the survey: the tables of docs/scaling.md.
LARGER = {("8x8", "connected"), ("8x8", "orthogonal"), ("8x8", "diagonal"), ("8x8", "equidistant"),
          ("9x9", "connected"), ("10x10", "connected"), ("11x11", "connected")}


def test_every_surveyed_board_and_rule_has_a_digest():
    surveyed = {(str(game.board), game.rule.name) for game in survey_games(Board(7, 7), RULES.values())}
    assert set(committed()) == surveyed | LARGER and len(surveyed) == 91


@pytest.mark.parametrize("board, rule", sorted(LARGER))
def test_the_larger_digests_are_those_of_the_scaling_notes(board, rule):
    """Each row beyond the survey gives its board's index count and the digest docs/scaling.md
    reports for that table."""
    indices, digest_text = committed()[(board, rule)]
    squares = Board.parse(board).size
    assert indices == comb(squares, 3) * comb(squares - 3, 3) == Game.of(board, rule).positions
    scaling = (Path(__file__).resolve().parents[3] / "docs" / "scaling.md").read_text()
    assert digest_text.startswith("sha256:") and f"`{digest_text.removeprefix('sha256:')}`" in scaling


def test_a_board_without_a_row_has_no_committed_digest():
    assert committed_digest(Game.of("8x8", "connected")) == committed()[("8x8", "connected")][1]
    assert committed_digest(Game.of("9x9", "orthogonal")) is None


@pytest.mark.parametrize("board, rule", [key for key, (indices, _) in committed().items() if indices <= SOLVED_HERE])
def test_solve_gives_the_committed_digest(board, rule):
    game = Game.of(board, rule)
    indices, expected = committed()[(board, rule)]
    result = solve(game).result
    assert len(result) == indices and digest(result) == expected


def test_5x5_gives_the_committed_digest(solved_5x5):
    assert digest(solved_5x5.result) == committed()[("5x5", "connected")][1]


@pytest.mark.parametrize("board, rule", [("5x4", "diagonal"), ("4x5", "orthogonal"), ("3x7", "connected")])
def test_the_paths_of_large_boards_give_the_committed_digest(board, rule, monkeypatch):
    """What only large boards do, forced on small ones: slabs grouped by the other side's squares,
    levels in many slabs and chunks, indices as int64. The bytes must not change."""
    monkeypatch.setattr(solve_module, "_GROUP_FROM", 0)
    monkeypatch.setattr(solve_module, "_SLAB", 1000)
    monkeypatch.setattr(solve_module, "_CHUNK", 1 << 10)
    narrow = KernelInputs.of

    def wide(game: Game, parts: int = 1) -> KernelInputs:
        return dataclasses.replace(narrow(game, parts), index_type=np.int64)

    monkeypatch.setattr(KernelInputs, "of", wide)
    assert digest(solve(Game.of(board, rule)).result) == committed()[(board, rule)][1]
