"""``scripts/bench_class_level.py`` and ``scripts/bench_check.py`` on 5 x 5: the state the first rebuilds
from a solved table is the one the solve holds at that level, and a level is timed through the solve's
own passes; the second checks a sample of a folded table's rows."""

from __future__ import annotations

import numpy as np
import pytest

from solver.neutreeko.model.game import Game
from solver.neutreeko.model.values import ILLEGAL, encode_result
from solver.neutreeko.solving import solve as solve_module
from solver.neutreeko.solving.solve_classes import solve_classes
from solver.neutreeko.tables.stats import summarize_folded
from solver.neutreeko.tables.table import write_folded_table
from tests.helpers import script

pytestmark = pytest.mark.integration

bench = script("bench_class_level")
check = script("bench_check")


@pytest.fixture
def folded(tmp_path) -> np.ndarray:
    """5 x 5's folded bytes, also written as a folded table at ``tmp_path / "table.h5"``."""
    game = Game.of("5x5")
    bytes_ = solve_classes(game).folded
    write_folded_table(game, bytes_, summarize_folded(game, bytes_), tmp_path / "table.h5", 0.0)
    return bytes_


def test_a_level_is_rebuilt_from_the_table_and_timed_through_the_solve(tmp_path, folded, monkeypatch):
    state = tmp_path / "state"
    state.mkdir()
    level = bench.prepare("5x5", tmp_path / "table.h5", 3, state)
    assert level == np.count_nonzero(folded == encode_result(3)) > 0
    result = np.load(state / "words.npy").view(np.uint8)
    decided = np.unpackbits(np.load(state / "decided.npy"), bitorder="little").astype(bool)[:len(result)]
    padding = result[len(folded):]
    assert (padding == ILLEGAL).all() and decided[len(folded):].all()
    known = (folded != 0) & (folded != ILLEGAL) & (folded <= encode_result(3))
    assert np.array_equal(decided[:len(folded)], known | (folded == ILLEGAL))
    legal, undecided = result[:len(folded)], ~decided[:len(folded)]
    assert np.array_equal(legal[known], folded[known]) and (legal[undecided] == 200).all()
    monkeypatch.setattr(solve_module, "_SLAB", 1000)  # a level of several slabs: the slabs of within ranks
    measured = bench.measure("5x5", state, 3, 1)
    assert measured["classes"] == level and measured["gather"] > 0 and measured["settle"] > 0


def test_a_sample_of_rows_is_checked(tmp_path, folded):
    measured = check.measure("5x5", tmp_path / "table.h5", 50, 1)
    assert measured["wrong"] == 0 and 0 < measured["classes"] < len(folded) / 10 and measured["check"] > 0
