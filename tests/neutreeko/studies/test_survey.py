"""The survey of every board and rule (issue 4): rows, files, reuse of tables, bad input."""

from __future__ import annotations

import csv
import xml.etree.ElementTree as ElementTree
from dataclasses import fields

import pytest

from solver.neutreeko.model.board import Board
from solver.neutreeko.model.game import Game
from solver.neutreeko.model.position import Position
from solver.neutreeko.model.rules import RULES, RuleError
from solver.neutreeko.model.values import DRAW, Evaluation
from solver.neutreeko.solving.solve import solve
from solver.neutreeko.studies.survey import (
    SurveyRow,
    findings,
    run_survey,
    select_rules,
    survey_games,
    to_csv,
    to_markdown,
)
from solver.neutreeko.tables.build import ensure_table
from solver.neutreeko.tables.stats import summarize
from solver.neutreeko.tables.table import open_table, table_path, write_table
from tests.helpers import assert_one_line_error, invoke

pytestmark = pytest.mark.kernel

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
    out.parent.mkdir()
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
    figures = report.split("## Figures")[1].split("## Start positions")[0]
    assert "| 4x4 | connected | 153,296 |" in figures and figures.count("\n| ") == 1 + len(SMALL)

    # A second survey reuses every table.
    stamps = {path: path.stat().st_mtime_ns for path in tables.iterdir()}
    again = _survey("--max-board", "4x4", "--out", str(out), "--force")
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
    assert "--also 4x3 --also 3x4:orthogonal --check " in text and "| forward check |" in text

    game = Game.of("3x3")
    result = open_table(game).result.copy()
    result[result == 2] = 4  # every win in 1 now a win in 3
    write_table(game, result, table_path(game), 0.0)
    failed = _survey("--max-board", "3x3", "--rules", "connected", "--check", "--out", str(out), "--force")
    assert failed.exit_code == 1 and "the forward check failed: 3x3 connected" in failed.stderr
    assert _csv_rows(out.with_suffix(".csv"))[0]["verified"].startswith("FAILED forward check")

    unchecked = _survey("--max-board", "3x3", "--rules", "orthogonal", "--out", str(out), "--force")
    assert unchecked.exit_code == 0 and _csv_rows(out.with_suffix(".csv"))[0]["verified"] == ""


def test_a_folded_table_is_checked_class_by_class(tables, tmp_path, monkeypatch):
    """A folded table (10 x 10's can only be one) is surveyed and checked without being unfolded."""
    assert invoke("solve", "--board", "3x4", "--fold").exit_code == 0
    monkeypatch.setattr("solver.neutreeko.tables.folding.unfold", lambda *_: pytest.fail("unfolded whole"))
    out = tmp_path / "survey.md"
    outcome = _survey("--max-board", "3x4", "--rules", "connected", "--check", "--out", str(out))
    assert outcome.exit_code == 0, outcome.stderr
    assert "checked 3x4 connected" in outcome.stderr and "classes of legal positions, 0 inconsistent" in outcome.stderr
    rows = _csv_rows(out.with_suffix(".csv"))
    assert [(row["board"], row["verified"]) for row in rows] == [("3x3", "forward check"), ("3x4", "forward check")]
    game = Game.of("3x4")
    assert int(rows[1]["legal"]) == summarize(game, solve(game).result).legal


def test_keep_takes_the_rows_of_absent_tables_from_the_report_before(tables, tmp_path):
    """``--keep``: a variant whose table is gone keeps its row as the CSV had it (even a figure changed
    there), one whose table is here is read again from it (a figure changed in the CSV is put right),
    and the report says which were read; the kept tables are not built again."""
    out = tmp_path / "survey.md"
    assert _survey("--max-board", "3x4", "--rules", "connected", "--check", "--out", str(out)).exit_code == 0
    first = _csv_rows(out.with_suffix(".csv"))
    assert [(row["board"], row["verified"]) for row in first] == [("3x3", "forward check"), ("3x4", "forward check")]
    table_path(Game.of("3x3")).unlink()
    edited = out.with_suffix(".csv").read_text().replace(",1520,", ",1521,").replace("3x4,connected,", "3x4,connected,9")
    out.with_suffix(".csv").write_text(edited)

    outcome = _survey("--max-board", "3x4", "--rules", "connected", "--keep", "--out", str(out))
    assert outcome.exit_code == 0, outcome.stderr
    assert "(1 kept from the report before)" in outcome.stdout
    rows = _csv_rows(out.with_suffix(".csv"))
    assert rows[0] == {**first[0], "legal": "1521"}  # kept as the CSV had it
    assert rows[1] == {**first[1], "verified": ""}  # read again from its table, unchecked this time
    assert not table_path(Game.of("3x3")).exists()
    text = out.read_text()
    assert "--rules connected --out " in text and " --keep`" in text
    assert "Read from their tables by that command: 3x4 connected;\n1 row was kept from the report before" in text


@pytest.mark.parametrize("csv_text, words", [
    (None, ["cannot read the survey", "survey.csv"]),
    ("board,rule\n", ["is not a survey's CSV"]),
    ("HEADER\n3x3,connected,1520,888,348,284,18.68,7,6,0,draw,,10762,0.15,forward check,extra\n", ["line 2"]),
    ("HEADER\n3x3,connected,many,888,348,284,18.68,7,6,0,draw,,10762,0.15,\n", ["line 2", "many"]),
    ("HEADER\n3x3,connected,1520,888,348,284,18.68,7,6,0,even,,10762,0.15,\n", ["line 2", "even"]),
    ("HEADER\n12x12,connected,1520,888,348,284,18.68,7,6,0,draw,,10762,0.15,\n", ["line 2", "12x12"]),
])
def test_keep_refuses_a_report_it_cannot_read_in_one_line(csv_text, words, tables, tmp_path):
    out = tmp_path / "survey.md"
    if csv_text is not None:
        header = ",".join(field.name for field in fields(SurveyRow))
        out.with_suffix(".csv").write_text(csv_text.replace("HEADER", header))
    assert_one_line_error(_survey("--max-board", "3x3", "--rules", "connected", "--keep", "--out", str(out)), *words)
    assert not out.exists() and not tables.exists()


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
                                  ["--max-board", "12x12"], ["--max-board", "2x5"], ["--max-board", "big"],
                                  ["--max-board", "4x4", "--rules", "centre"]])
def test_bad_input_is_one_line_and_writes_nothing(args, tables, tmp_path):
    out = tmp_path / "survey.md"
    assert_one_line_error(_survey(*args, "--out", str(out)), code=2)
    assert list(tmp_path.iterdir()) == [] and not tables.exists()


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


# -- the report: findings from the figures, start diagrams, performance apart, no silent overwrite --------

def _row(board: str, rule: str, start: Evaluation, legal: int = 100, draws: int = 10, longest_win: int = 9,
         seconds: float = 0.5) -> SurveyRow:
    """A made-up row: the figures the findings are computed from."""
    wins = (legal - draws) // 2
    return SurveyRow(board, rule, legal, wins, legal - draws - wins, draws, round(100 * draws / legal, 2),
                     longest_win, longest_win + 1, 0, start.value, start.plies, 1234, seconds)


MADE_UP = [
    _row("3x4", "connected", Evaluation.win(9), draws=12, longest_win=17),
    _row("4x3", "connected", Evaluation.win(3), draws=12, longest_win=17),
    _row("4x4", "connected", DRAW, draws=5, longest_win=33),
    _row("4x4", "orthogonal", Evaluation.loss(146), draws=40, longest_win=59),
    _row("3x7", "orthogonal", DRAW, draws=30, longest_win=39),
    _row("7x3", "orthogonal", Evaluation.win(1), draws=30, longest_win=39),
    _row("3x5", "orthogonal", Evaluation.win(5), legal=101, draws=30, longest_win=23),
    _row("5x3", "orthogonal", Evaluation.win(5), draws=30, longest_win=23),
]


def test_findings_are_computed_from_the_rows():
    text = "\n".join(findings(MADE_UP))
    assert "2 of 8 variants start drawn: 4x4 connected, 3x7 orthogonal." in text
    assert "Black, who moves first, wins the start in 5 variants and loses it in 1: 4x4 orthogonal (loss in 146)." \
           in text
    assert "1 start is won with Black's first move: 7x3 orthogonal." in text
    assert "The longest forced win: 59 plies, on 4x4 orthogonal; then 39 plies (3x7 orthogonal, 7x3 orthogonal)" \
           in text
    assert "The slowest decided start: 4x4 orthogonal, Black loses in 146 plies." in text
    # 3 transposed pairs; 3x5/5x3 differ in their counts, 3x4/4x3 and 3x7/7x3 in their starts.
    assert "Of 3 pairs of transposed boards (W x H and H x W, one rule), 2 have the same counts" in text
    assert "and 1 differs: 3x5/5x3 orthogonal. Their starts differ in 2, in value in 1: 3x7/7x3 orthogonal" in text
    assert "| connected | 3x4 | win in 9 | 4x3 | win in 3 |\n| orthogonal | 3x7 | draw | 7x3 | win in 1 |" in text
    extremes = [line for line in text.splitlines() if line.startswith("| orthogonal | 5 |")]
    assert extremes == ["| orthogonal | 5 | 1 | 3x5 (29.70 %) | 4x4 (40.00 %) | 59 (4x4) |"]


def test_findings_of_the_real_figures(tables, tmp_path):
    """On every board up to 4 x 4: the drawn starts and the longest win as the table says."""
    rows = run_survey(survey_games(Board(4, 4), select_rules("all")), ensure_table)
    text = "\n".join(findings(rows))
    drawn = [f"{row.board} {row.rule}" for row in rows if row.start_value == "draw"]
    assert f"{len(drawn)} of {len(rows)} variants start drawn: {', '.join(drawn)}." in text
    assert "The longest forced win: 59 plies, on 4x4 orthogonal" in text
    assert "Of 2 pairs of transposed boards (W x H and H x W, one rule), 2 have the same counts" in text


def test_report_sections_diagrams_and_refusal(tables, tmp_path):
    """Findings, figures, a diagram of each start (files beside the report), performance apart; a second
    run refuses to overwrite without --force."""
    out = tmp_path / "docs" / "survey.md"
    out.parent.mkdir()
    result = _survey("--max-board", "3x4", "--out", str(out))
    assert result.exit_code == 0, result.stderr
    report = out.read_text()
    headings = [line for line in report.splitlines() if line.startswith("## ")]
    assert headings == ["## Findings", "## Figures", "## Start positions", "## Performance"]
    figures = report.split("## Figures")[1].split("## Start positions")[0]
    assert "solve time" not in figures and "table size" not in figures
    performance = report.split("## Performance")[1]
    assert performance.count("\n| 3x") == 4 and "solve time" in performance
    starts = out.parent / "survey-starts"
    assert sorted(path.name for path in starts.iterdir()) == \
        ["3x3-connected.svg", "3x3-orthogonal.svg", "3x4-connected.svg", "3x4-orthogonal.svg"]
    for path in starts.iterdir():
        assert f"](survey-starts/{path.name})" in report
        board, rule = path.stem.split("-")
        root = ElementTree.fromstring(path.read_bytes())
        texts = [element.text for element in root.iter("{http://www.w3.org/2000/svg}text")]
        start = Position.start(Game.of(board, rule))
        assert f"{board} {rule}" in texts and start.fen() == root.find("{http://www.w3.org/2000/svg}title").text
    assert f"Generated by `neutreeko survey --max-board 3x4 --rules all --out {out}`;" in report  # as run

    stamp = out.stat().st_mtime_ns
    again = _survey("--max-board", "3x3", "--out", str(out))
    assert_one_line_error(again, str(out), "--force", code=1)
    assert out.stat().st_mtime_ns == stamp
    forced = _survey("--max-board", "3x3", "--out", str(out), "--force")
    assert forced.exit_code == 0, forced.stderr
    assert "| 3x4 |" not in out.read_text()
    assert f"Generated by `neutreeko survey --max-board 3x3 --rules all --out {out} --force`;" in out.read_text()
    assert sorted(path.name for path in starts.iterdir()) == ["3x3-connected.svg", "3x3-orthogonal.svg"]
