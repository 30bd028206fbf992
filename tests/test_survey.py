"""The survey of every board and rule (issue 4): rows, files, reuse of tables, bad input."""

from __future__ import annotations

import csv

import pytest

from solver.neutreeko.board import Board
from solver.neutreeko.build import ensure_table
from solver.neutreeko.game import Game
from solver.neutreeko.rules import RULES, RuleError
from solver.neutreeko.stats import summarize
from solver.neutreeko.survey import run_survey, select_rules, survey_games, to_csv, to_markdown
from solver.neutreeko.table import open_table, table_path, write_table
from tests.helpers import assert_one_line_error, invoke

SMALL = [("3x3", "connected"), ("3x3", "orthogonal"), ("3x4", "connected"), ("3x4", "orthogonal"),
         ("4x3", "connected"), ("4x3", "orthogonal"), ("4x4", "connected"), ("4x4", "orthogonal"),
         ("4x4", "diagonal")]


@pytest.fixture
def tables(tmp_path, monkeypatch):
    directory = tmp_path / "tables"
    monkeypatch.setenv("NEUTREEKO_TABLES", str(directory))
    return directory


def _survey(*args):
    return invoke("survey", *args)


def _csv_rows(path):
    with open(path, newline="") as file:
        return list(csv.DictReader(file))


def test_select_rules():
    assert [rule.name for rule in select_rules("all")] == list(RULES)
    assert [rule.name for rule in select_rules("centre, Connected")] == ["connected", "centre"]
    for text in ("knight", "connected,knight", " , "):
        with pytest.raises(RuleError):
            select_rules(text)


def test_survey_games_are_every_board_and_offered_rule():
    games = survey_games(Board(4, 4), select_rules("all"))
    assert [(str(game.board), game.rule.name) for game in games] == SMALL
    assert len(survey_games(Board(7, 7), select_rules("all"))) == 91
    with pytest.raises(RuleError, match="no board up to 4x4 offers centre"):
        survey_games(Board(4, 4), select_rules("centre"))


def test_survey_up_to_4x4_writes_the_expected_rows(tables, tmp_path):
    out = tmp_path / "docs" / "survey.md"
    outcome = _survey("--max-board", "4x4", "--out", str(out))
    assert outcome.exit_code == 0, outcome.stderr
    rows = _csv_rows(out.with_suffix(".csv"))
    assert [(row["board"], row["rule"]) for row in rows] == SMALL
    for row in rows:
        game = Game.of(row["board"], row["rule"])
        summary = summarize(game, open_table(game).result)
        assert int(row["legal"]) == summary.legal
        counts = (int(row["wins"]), int(row["losses"]), int(row["draws"]))
        assert counts == (summary.wins, summary.losses, summary.draws)
        assert int(row["longest_win"]) == summary.longest_win and int(row["no_move"]) == summary.no_move
        assert int(row["table_bytes"]) == table_path(game).stat().st_size
        assert float(row["solve_seconds"]) >= 0
        assert row["start_value"] in ("win", "loss", "draw")
        assert (row["start_plies"] == "") == (row["start_value"] == "draw")
    assert rows[6]["longest_win"] == "33"  # 4x4 connected, published
    report = out.read_text()
    assert "| 4x4 | connected | 153,296 |" in report and report.count("\n| ") == 1 + len(SMALL)

    # A second survey reuses every table.
    stamps = {path: path.stat().st_mtime_ns for path in tables.iterdir()}
    again = _survey("--max-board", "4x4", "--out", str(out))
    assert again.exit_code == 0 and "building" not in again.stderr
    assert {path: path.stat().st_mtime_ns for path in tables.iterdir()} == stamps


def test_larger_boards_added_and_every_table_checked(tables, tmp_path):
    """``--also`` adds boards beyond the grid (under the rules named, or those of --rules offered
    there); ``--check`` confirms every table and marks its row; a damaged table fails the survey."""
    out = tmp_path / "survey.md"
    outcome = _survey("--max-board", "3x3", "--rules", "connected,diagonal", "--also", "4x3",
                      "--also", "3x4:orthogonal", "--check", "--out", str(out))
    assert outcome.exit_code == 0, outcome.stderr
    rows = _csv_rows(out.with_suffix(".csv"))
    assert [(row["board"], row["rule"], row["verified"]) for row in rows] == [
        ("3x3", "connected", "forward check"), ("4x3", "connected", "forward check"),
        ("3x4", "orthogonal", "forward check")]
    assert "checked 4x3 connected" in outcome.stderr and "0 inconsistent" in outcome.stderr
    text = out.read_text()
    assert "--also 4x3 --also 3x4:orthogonal --check`" in text and "| forward check |" in text

    game = Game.of("3x3")
    result = open_table(game).result.copy()
    result[result == 2] = 4  # every win in 1 now a win in 3
    write_table(game, result, table_path(game), 0.0)
    failed = _survey("--max-board", "3x3", "--rules", "connected", "--check", "--out", str(out))
    assert failed.exit_code == 1 and "the forward check failed: 3x3 connected" in failed.stderr
    assert _csv_rows(out.with_suffix(".csv"))[0]["verified"].startswith("FAILED forward check")

    unchecked = _survey("--max-board", "3x3", "--rules", "orthogonal", "--out", str(out))
    assert unchecked.exit_code == 0 and _csv_rows(out.with_suffix(".csv"))[0]["verified"] == ""


def test_5x5_connected_row_matches_the_published_figures(solved_5x5, tables, tmp_path):
    game = Game.of("5x5")
    write_table(game, solved_5x5.result, table_path(game), solved_5x5.seconds)
    out = tmp_path / "survey.md"
    outcome = _survey("--max-board", "5x5", "--rules", "connected", "--out", str(out))
    assert outcome.exit_code == 0, outcome.stderr
    rows = {row["board"]: row for row in _csv_rows(out.with_suffix(".csv"))}
    assert len(rows) == 9
    row = rows["5x5"]
    assert (row["legal"], row["draws"], row["longest_win"], row["start_value"]) == ("3468080", "104660", "51", "draw")
    assert row["no_move"] == "0"
    assert "| 5x5 | connected | 3,468,080 |" in out.read_text()


@pytest.mark.parametrize("args", [["--rules", "knight"], ["--rules", "connected,knight"],
                                  ["--max-board", "10x10"], ["--max-board", "2x5"], ["--max-board", "big"],
                                  ["--max-board", "4x4", "--rules", "centre"]])
def test_bad_input_is_one_line_and_writes_nothing(args, tables, tmp_path):
    out = tmp_path / "report" / "survey.md"
    assert_one_line_error(_survey(*args, "--out", str(out)), code=2)
    assert not out.parent.exists() and not tables.exists()


def test_a_report_path_that_is_a_directory_fails_before_solving(tables, tmp_path):
    assert_one_line_error(_survey("--max-board", "3x3", "--out", str(tmp_path)), "it is a directory")
    assert not tables.exists()


def test_a_csv_report_path_is_refused(tables, tmp_path):
    """The CSV goes beside the report with the suffix .csv: a report named .csv would be overwritten."""
    assert_one_line_error(_survey("--max-board", "3x3", "--out", str(tmp_path / "survey.csv")),
                          "would be overwritten by its CSV", code=2)
    assert not (tmp_path / "survey.csv").exists()


def test_markdown_and_csv_of_rows(tables):
    rows = run_survey(survey_games(Board(3, 3), select_rules("all")), ensure_table)
    text = to_markdown(rows, "neutreeko survey --max-board 3x3")
    assert "`neutreeko survey --max-board 3x3`" in text
    assert to_csv(rows).splitlines()[0].startswith("board,rule,legal,wins,losses,draws,draws_percent")
    assert len(to_csv(rows).splitlines()) == 3
