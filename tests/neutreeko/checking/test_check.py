"""The forward consistency check (``neutreeko check``): it passes every real table from 3 x 3 to 5 x 5
and finds a deliberately corrupted entry of each kind; and the board ceiling (11 x 11 in, 12 x 12 out)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest

from solver.neutreeko.checking.check import check_consistency, check_folded
from solver.neutreeko.model import index
from solver.neutreeko.model.board import MAX_SIDE, Board
from solver.neutreeko.model.game import Game
from solver.neutreeko.model.rules import RULES
from solver.neutreeko.model.values import ILLEGAL, UNDECIDED, Evaluation, encode_result
from solver.neutreeko.solving import memory
from solver.neutreeko.solving.solve import solve
from solver.neutreeko.studies.survey import survey_games
from solver.neutreeko.tables.folding import Classes, fold, unfold
from solver.neutreeko.tables.table import write_table
from tests.helpers import assert_one_line_error, invoke

pytestmark = pytest.mark.kernel

#: Every board and rule the survey solves up to 5 x 5 but 5 x 5 connected (the session's solve).
SMALL = [(str(game.board), game.rule.name) for game in survey_games(Board(5, 5), RULES.values())
         if (str(game.board), game.rule.name) != ("5x5", "connected")]


@lru_cache(maxsize=None)
def _solved(board: str, rule: str = "connected") -> np.ndarray:
    return solve(Game.of(board, rule)).result


@pytest.mark.parametrize("board, rule", SMALL)
def test_every_small_table_passes(board, rule):
    game = Game.of(board, rule)
    result = _solved(board, rule)
    report = check_consistency(game, result)
    assert (report.passed, report.wrong, report.listed) == (True, 0, ())
    assert report.indices == game.positions == len(result)
    assert report.legal == np.count_nonzero(result != ILLEGAL)


def test_the_5x5_table_passes(solved_5x5):
    report = check_consistency(solved_5x5.game, solved_5x5.result)
    assert report.passed and report.legal == 3_468_080


def _first(result: np.ndarray, wanted) -> int:
    return int(np.flatnonzero(wanted(result))[0])


def _corrupted(stored: Evaluation, wrong: Evaluation) -> tuple[np.ndarray, int]:
    """The 4 x 4 table with the first position valued ``stored`` changed to ``wrong``, and its index."""
    result = _solved("4x4").copy()
    position = _first(result, lambda table: table == stored.byte())
    result[position] = wrong.byte()
    return result, position


@pytest.mark.parametrize("stored, wrong", [
    (Evaluation.loss(6), Evaluation.win(7)),    # wrong value
    (Evaluation.win(5), Evaluation.win(7)),     # distance off by two
    (Evaluation.loss(8), Evaluation.loss(6)),   # distance off by two, a loss
    (Evaluation("draw"), Evaluation.win(1)),    # a draw marked as a win
], ids=["wrong-value", "win-distance-off-by-two", "loss-distance-off-by-two", "draw-marked-won"])
def test_a_corrupted_entry_is_found(stored, wrong):
    game = Game.of("4x4")
    result, position = _corrupted(stored, wrong)
    report = check_consistency(game, result)
    assert not report.passed
    mine = [found for found in report.listed if found.index == position]
    assert mine and (mine[0].stored, mine[0].expected) == (wrong.byte(), stored.byte())
    # Every other inconsistency is a parent of the damaged entry: it differs from the true table only
    # through its children.
    assert report.wrong == len(report.listed) and all(
        result[found.index] == _solved("4x4")[found.index] for found in report.listed if found.index != position)


def test_an_illegal_byte_on_a_legal_position_is_found():
    game = Game.of("4x4")
    result = _solved("4x4").copy()
    position = _first(result, lambda table: table == encode_result(0))
    result[position] = ILLEGAL
    report = check_consistency(game, result)
    assert position in {found.index for found in report.listed}
    described = next(found for found in report.listed if found.index == position).describe(game)
    assert "stored illegal, its children give loss in 0" in described


def test_listing_is_bounded_but_counting_is_not():
    game = Game.of("4x4")
    result = np.full(game.positions, UNDECIDED, dtype=np.uint8)
    report = check_consistency(game, result, listed=5)
    assert len(report.listed) == 5 and report.wrong > 5
    assert [found.index for found in report.listed] == sorted(found.index for found in report.listed)


def test_check_command(tmp_path):
    game = Game.of("4x4")
    good, bad = tmp_path / "good.h5", tmp_path / "bad.h5"
    write_table(game, _solved("4x4"), good, 0.0)
    result, position = _corrupted(Evaluation.win(5), Evaluation.win(7))
    write_table(game, result, bad, 0.0)

    passed = invoke("check", "--board", "4x4", "--table", str(good))
    assert passed.exit_code == 0, passed.stderr
    assert passed.stdout.splitlines() == [
        f"checked 4x4 connected ({good}): {game.positions:,} indices, "
        f"{np.count_nonzero(_solved('4x4') != ILLEGAL):,} legal positions, 0 inconsistent, in "
        + passed.stdout.split(" in ")[-1].strip()]
    failed = invoke("check", "--board", "4x4", "--table", str(bad))
    assert failed.exit_code == 1
    assert f"index {position:,} (" in failed.stdout and "stored win in 7, its children give win in 5" in failed.stdout
    assert failed.stdout.splitlines()[-1].startswith("checked 4x4 connected")


def test_check_needs_a_table(tmp_path):
    assert_one_line_error(invoke("check", "--board", "4x4", "--table", str(tmp_path / "none.h5")),
                          "no table for 4x4 connected", code=1)


def test_the_largest_board_is_accepted_and_one_larger_refused(tmp_path):
    assert MAX_SIDE == 11
    game = Game.of("11x11")
    assert game.positions == 76_866_469_680 and game.board.name(120) == "K11"
    assert game.board.parse_square("k11") == 120
    # Accepted up to the table lookup: there is no 11 x 11 table at that path.
    assert_one_line_error(invoke("check", "--board", "11x11", "--table", str(tmp_path / "none.h5")),
                          "no table for 11x11 connected", code=1)
    assert_one_line_error(invoke("check", "--board", "12x12"), "board 12x12 is not supported", code=2)
    assert_one_line_error(invoke("solve", "--board", "11x12"), "from 3 to 11", code=2)


def test_check_help_and_readme_say_how_many_are_listed():
    """``check --help`` and the user guide say what the command does: the first LISTED inconsistencies
    listed, all counted."""
    from solver.neutreeko.checking.check import LISTED

    listed = f"the first {LISTED:,}"
    shown = " ".join(invoke("check", "--help").stdout.split())
    assert f"list the inconsistencies ({listed}, in index order; all are counted)" in shown
    guide = Path(__file__).resolve().parents[3] / "docs" / "guide" / "solving.md"
    assert f"lists every inconsistency ({listed}, all counted)" in " ".join(guide.read_text().split())


# -- folded tables, checked class by class ------------------------------------------------------------------


@pytest.mark.parametrize("board, rule", SMALL)
def test_every_small_folded_table_passes(board, rule):
    game = Game.of(board, rule)
    report = check_folded(game, fold(game, _solved(board, rule)))
    assert (report.passed, report.wrong, report.listed, report.unit) == (True, 0, (), "classes")
    assert report.indices == report.legal == Classes.of(game).count


def test_the_5x5_folded_table_passes(solved_5x5):
    game = solved_5x5.game
    assert check_folded(game, fold(game, solved_5x5.result)).passed


@pytest.mark.parametrize("board", ["4x4", "5x4"])
def test_a_corrupted_class_is_found_as_the_full_check_finds_its_positions(board):
    """Every class of a symmetric mover triple and some others, each damaged in turn (a win one ply
    longer, a draw a loss): the class check finds the damaged class and exactly the classes of the
    positions the full check finds in the unfolded table."""
    game = Game.of(board)
    classes = Classes.of(game)
    folded = fold(game, _solved(board))
    symmetric = np.flatnonzero(np.isin(classes.canonical() // index.other_count(game.board.size),
                                       np.flatnonzero(classes.symmetric)))
    for number in [*symmetric[::7][:12], 0, len(folded) // 2, len(folded) - 1]:
        damaged = folded.copy()
        damaged[number] = UNDECIDED if damaged[number] != UNDECIDED else encode_result(0)
        report = check_folded(game, damaged)
        full = check_consistency(game, unfold(game, damaged))
        assert not report.passed and classes.canonical_of(number)[0] in {found.index for found in report.listed}
        assert ({int(n) for n in classes.numbers(np.array([found.index for found in full.listed]))}
                == {int(n) for n in classes.numbers(np.array([found.index for found in report.listed]))})
        assert all(found.stored == damaged[classes.numbers(found.index)] for found in report.listed)


def test_check_command_on_a_folded_table(tmp_path):
    game = Game.of("4x4")
    good = tmp_path / "good.h5"
    write_table(game, _solved("4x4"), good, 0.0, fold=True)
    passed = invoke("check", "--board", "4x4", "--table", str(good))
    assert passed.exit_code == 0, passed.stderr
    assert passed.stdout.startswith(f"checked 4x4 connected ({good}): {Classes.of(game).count:,} classes of legal "
                                    f"positions, 0 inconsistent, in ")


@pytest.mark.parametrize("folded", [False, True])
def test_a_check_tells_how_far_it_is(folded):
    """About a hundred reports, the items done rising to all of them, the time left falling to none."""
    game = Game.of("5x4")
    result = _solved("5x4")
    seen: list = []
    report = (check_folded(game, fold(game, result), progress=seen.append) if folded
              else check_consistency(game, result, progress=seen.append))
    assert report.passed and 50 <= len(seen) <= 101
    assert {step.unit for step in seen} == {"classes" if folded else "indices"}
    assert [step.done for step in seen] == sorted({step.done for step in seen})
    assert seen[-1].done == seen[-1].total == report.indices and seen[-1].seconds_left == 0


def test_check_command_progress(tmp_path):
    out = tmp_path / "table.h5"
    write_table(Game.of("4x4"), _solved("4x4"), out, 0.0, fold=True)
    shown = invoke("check", "--board", "4x4", "--table", str(out), "--progress")
    lines = shown.stderr.splitlines()
    assert shown.exit_code == 0 and lines and all(" % of the classes " in line for line in lines)
    assert lines[-1].startswith("  checked 100.0 % of the classes") and lines[-1].endswith("about 0 s left")
    assert invoke("check", "--board", "4x4", "--table", str(out)).stderr == ""  # not a terminal


def test_a_solve_larger_than_the_memory_is_refused_naming_the_one_that_fits(tmp_path, monkeypatch):
    """10 x 10 over positions (26.8 GB) does not fit a 24 GB machine, over classes (3.4 GB) it does: a
    machine of 3 MB meets the same on 5 x 5 (4.0 MB over positions, 0.5 MB over classes)."""
    monkeypatch.setattr(memory, "physical_memory", lambda: 3_000_000)
    out = tmp_path / "neutreeko-5x5.h5"
    assert_one_line_error(invoke("solve", "--board", "5x5", "--out", str(out)), "over positions holds about 4.0 MB",
                          "machine's 3.0 MB", "--fold (about 498.1 kB)", code=2)
    assert not out.exists()
    assert invoke("solve", "--board", "5x5", "--fold", "--out", str(out)).exit_code == 0
    monkeypatch.setattr(memory, "physical_memory", lambda: 400_000)
    assert_one_line_error(invoke("solve", "--board", "5x5", "--fold", "--out", str(out), "--force"),
                          "over symmetry classes holds about 488.8 kB", code=2)


def test_a_missing_table_too_large_to_solve_over_positions_names_the_solve_over_classes(tmp_path, monkeypatch):
    """The way to build a missing table, where --build (a solve over positions) would be refused."""
    monkeypatch.setattr(memory, "physical_memory", lambda: 3_000_000)
    monkeypatch.setenv("NEUTREEKO_TABLES", str(tmp_path))
    line = assert_one_line_error(invoke("query", "start", "--board", "6x6", "--table", str(tmp_path / "none.h5")),
                                 "neutreeko solve --board 6x6 --rule connected", "--fold", code=1)
    assert "--build" not in line
    line = assert_one_line_error(invoke("query", "start", "--board", "6x6"),
                                 "does not fit this machine's memory", "neutreeko solve --board 6x6 --rule connected --fold",
                                 code=1)
    assert "add --build" not in line
    # Asked to build it, the refusal is the one line, before anything is said or written.
    assert_one_line_error(invoke("query", "start", "--board", "6x6", "--build"), "over positions holds about 43.8 MB",
                          code=2)
    assert list(tmp_path.iterdir()) == []
