"""A count of one takes the singular, in every message of both programs."""

from __future__ import annotations

import pytest

from solver.core.answers.report import counted
from solver.necnon.model.rules import Game as NecnonGame
from solver.necnon.model.values import turns_text
from solver.necnon.querying.judge import EngineJudge
from solver.neutreeko.model.values import plies_text
from tests.helpers import invoke


def test_counted():
    assert [counted(n, "puzzle") for n in (0, 1, 2, 1000)] == ["0 puzzles", "1 puzzle", "2 puzzles", "1,000 puzzles"]
    assert (counted(1, "inaccuracy", "inaccuracies"), counted(3, "inaccuracy", "inaccuracies")) == (
        "1 inaccuracy", "3 inaccuracies")
    assert (plies_text(1), plies_text(51), turns_text(1), turns_text(8)) == ("1 ply", "51 plies", "1 turn", "8 turns")


@pytest.fixture
def tables_4x4_env(tables_4x4, monkeypatch):
    monkeypatch.setenv("NEUTREEKO_TABLES", str(tables_4x4))


def test_one_puzzle_and_one_line(tables_4x4_env):
    found = invoke("puzzles", "--board", "4x4", "--count", "1", "--seed", "1")
    assert found.exit_code == 0 and found.stderr.startswith("1 puzzle ("), found.stderr
    answered = invoke("query", "-", "--board", "4x4", input="nonsense\n")
    assert answered.stderr == "neutreeko: error: 1 of 1 line could not be answered (see their error objects)\n"


def test_one_playout():
    judge = EngineJudge(NecnonGame.of("3x3", "nec"), seed=1, iterations=1)
    assert judge.name == "the search engine, 1 playout a position"
