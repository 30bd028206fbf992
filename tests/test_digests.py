"""The committed digests of every table the survey builds (``docs/table-digests.csv``, written by
``scripts/table_digests.py``), checked against fresh solves of the boards small enough for the suite:
a change to the kernel that changes one result byte of any of them fails here."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from solver.core.container import digest
from solver.neutreeko.board import Board
from solver.neutreeko.game import Game
from solver.neutreeko.rules import RULES
from solver.neutreeko.solve import solve
from solver.neutreeko.survey import survey_games

DIGESTS = Path(__file__).resolve().parent.parent / "docs" / "table-digests.csv"
#: Boards with at most this many indices are solved here (every board up to 5 x 4 and 4 x 5).
SOLVED_HERE = 2_000_000


def _committed() -> dict[tuple[str, str], tuple[int, str]]:
    with open(DIGESTS, newline="") as file:
        return {(row["board"], row["rule"]): (int(row["indices"]), row["digest"]) for row in csv.DictReader(file)}


def test_every_surveyed_board_and_rule_has_a_digest():
    surveyed = {(str(game.board), game.rule.name) for game in survey_games(Board(7, 7), RULES.values())}
    assert set(_committed()) == surveyed and len(surveyed) == 91


@pytest.mark.parametrize("board, rule", [key for key, (indices, _) in _committed().items() if indices <= SOLVED_HERE])
def test_solve_gives_the_committed_digest(board, rule):
    game = Game.of(board, rule)
    indices, expected = _committed()[(board, rule)]
    result = solve(game).result
    assert len(result) == indices and digest(result) == expected


def test_5x5_gives_the_committed_digest(solved_5x5):
    assert digest(solved_5x5.result) == _committed()[("5x5", "connected")][1]
