"""The ``neutreeko`` command: solve, verify and stats, and one clear line for every bad input."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import h5py
import pytest

import solver.neutreeko.checking.verify
from solver.neutreeko.model.game import Game
from solver.neutreeko.model.position import Position
from solver.neutreeko.model.symmetry import symmetries
from solver.neutreeko.model.values import encode_result
from solver.neutreeko.tables.stats import Summary
from solver.neutreeko.tables.table import Table, open_table
from tests.helpers import (
    assert_one_line_error,
    edit_data,
    help_examples,
    invoke,
    overwrite_with_text,
    read_terminal,
    replace_with_foreign_hdf5,
    truncate,
    write_first_format,
)

GAME = Game.of("5x5")
SUMMARY = re.compile(r"solved (\S+) connected: [\d,]+ legal positions \([\d,]+ wins, [\d,]+ losses, "
                     r"[\d,]+ draws\) in [\d.]+ s -> (.+)")

# Every test gets its own tables directory, so that none writes into the checkout's.
pytestmark = pytest.mark.usefixtures("fresh_tables")


@pytest.fixture
def tables(fresh_tables, table_5x5) -> Path:
    """The test's tables directory holding a copy of the 5 x 5 table."""
    fresh_tables.mkdir()
    shutil.copy(table_5x5, fresh_tables / table_5x5.name)
    return fresh_tables


def _listing(directory: Path) -> dict[str, bytes]:
    """Every file under ``directory`` with its content (to see that nothing was added or changed)."""
    return {str(path.relative_to(directory)): path.read_bytes() if path.is_file() else b"dir"
            for path in sorted(directory.rglob("*"))}


@pytest.fixture
def no_solve(monkeypatch):
    """Fail the test if anything gets as far as solving."""
    monkeypatch.setattr("solver.neutreeko.tables.build.solve", lambda *args: pytest.fail("solved despite bad input"))


# -- solve -----------------------------------------------------------------------------------------


@pytest.mark.kernel
def test_solve_writes_the_table_and_one_summary_line(fresh_tables):
    result = invoke("solve", "--board", "3x4")
    assert result.exit_code == 0 and result.stderr == ""  # no progress when not on a terminal
    match = SUMMARY.fullmatch(result.stdout.strip())
    assert match and match.group(1) == "3x4"
    assert Path(match.group(2)) == fresh_tables / "neutreeko-3x4.h5"
    assert open_table(Game.of("3x4")).attributes["board"] == "3x4"


@pytest.mark.kernel
def test_second_solve_refuses_and_force_rebuilds(fresh_tables):
    assert invoke("solve", "--board", "4x4").exit_code == 0
    path = fresh_tables / "neutreeko-4x4.h5"
    inode = path.stat().st_ino
    refused = invoke("solve", "--board", "4x4")
    assert_one_line_error(refused, "a valid table already exists at", str(path), "--force", code=1)
    assert path.stat().st_ino == inode
    forced = invoke("solve", "--board", "4x4", "--force")
    assert forced.exit_code == 0 and SUMMARY.fullmatch(forced.stdout.strip())
    assert path.stat().st_ino != inode  # a new file renamed into place
    assert os.listdir(fresh_tables) == [path.name]


@pytest.mark.kernel
def test_solve_out(fresh_tables, tmp_path):
    out = tmp_path / "elsewhere" / "t.h5"
    out.parent.mkdir()
    result = invoke("solve", "--board", "3x3", "--out", str(out))
    assert result.exit_code == 0 and Path(SUMMARY.fullmatch(result.stdout.strip()).group(2)) == out
    assert open_table(Game.of("3x3"), out).attributes["board"] == "3x3"
    assert not fresh_tables.exists()


def test_solve_refuses_to_overwrite_a_file_that_is_not_a_table(tmp_path, no_solve):
    notes = tmp_path / "notes.h5"
    notes.write_text("someone's data")
    assert_one_line_error(invoke("solve", "--out", str(notes)), "not overwriting", "--force",
                          "not a neutreeko-solver table")
    assert notes.read_text() == "someone's data"


def test_interrupted_solve_keeps_the_previous_table(tables, monkeypatch):
    def interrupt(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr("solver.neutreeko.tables.build.solve", interrupt)
    before = _listing(tables)
    result = invoke("solve", "--force")
    assert result.exit_code == 130 and result.stderr == "neutreeko: error: interrupted\n"
    assert _listing(tables) == before


# -- verify ----------------------------------------------------------------------------------------


def test_verify_passes_and_shows_expected_and_actual(tables):
    result = invoke("verify")
    assert result.exit_code == 0, result.stderr
    assert "building the 4x4 connected table" in result.stderr  # the companion board, built on demand
    lines = result.stdout.splitlines()
    assert "expected" in lines[0] and "table" in lines[0]
    figures = {"3,468,080": 1, "104,660": 1, "51 plies": 1, "draw": 1, "434,500": 1, "13,114": 1, "33 plies": 1}
    checks = lines[1:-1]
    assert len(checks) == len(figures) and all(line.endswith("PASS") for line in checks)
    for figure in figures:  # each figure twice on its line: expected, then what the table gives
        assert any(line.count(figure) == 2 for line in checks), figure
    assert lines[-1] == "7 of 7 checks pass"
    assert (tables / "neutreeko-4x4.h5").is_file()


def test_verify_fails_with_exit_1(tables, monkeypatch):
    monkeypatch.setitem(solver.neutreeko.checking.verify.PUBLISHED, ("4x4", "connected"),
                        [("longest forced win on 4 x 4", "longest_win", "34 plies")])
    result = invoke("verify")
    assert result.exit_code == 1
    assert re.search(r"34 plies\s+33 plies\s+FAIL", result.stdout)
    assert result.stdout.splitlines()[-1] == "6 of 7 checks pass"


@pytest.mark.kernel
def test_verify_board_without_published_figures(fresh_tables):
    result = invoke("verify", "--board", "3x3")
    assert result.exit_code == 0 and "no published figures for 3x3 connected" in result.stdout
    assert (fresh_tables / "neutreeko-3x3.h5").is_file()


# -- stats -----------------------------------------------------------------------------------------


def test_stats_text(tables):
    result = invoke("stats")
    assert result.exit_code == 0 and result.stderr == ""
    assert "5x5 connected: 3,468,080 legal positions" in result.stdout
    assert re.search(r"draws\s+104,660", result.stdout)
    assert "longest win: 51 plies, 8 positions in 1 symmetry class" in result.stdout
    assert "  w4/5/1b3/2w2/bw1b1 b  8 positions" in result.stdout


def test_stats_columns_hold_the_counts_of_the_largest_boards(tables, monkeypatch):
    """10 x 10's counts run to 14 characters: the columns widen to them, every row aligned."""
    summary = Summary(legal=23_798_585_280, wins=18_067_971_692, losses=4_991_326_636, draws=739_286_952,
                      longest_win=1, longest_loss=2, no_move=0, wins_by_plies={1: 18_067_971_692},
                      losses_by_plies={0: 4_000_000_000, 2: 991_326_636}, longest_win_indices=())
    monkeypatch.setattr(Table, "summary", summary)
    lines = invoke("stats", "--board", "4x4").stdout.splitlines()
    assert len({line.index("%") for line in lines[1:4]}) == 1 and lines[2].endswith("20.97 %")
    table = lines[lines.index(next(line for line in lines if line.startswith("plies"))):][:4]
    assert len({len(line) for line in table}) == 1 and table[1].endswith("4,000,000,000")
    assert "18,067,971,692" in table[2] and "991,326,636" in table[3]


def test_stats_json(tables):
    result = invoke("stats", "--json")
    assert result.exit_code == 0
    stats = json.loads(result.stdout)
    assert stats["board"] == "5x5"
    for key in ("legal", "wins", "losses", "draws", "longest_win", "longest_loss"):
        assert type(stats[key]) is int, key
    assert (stats["legal"], stats["draws"], stats["longest_win"]) == (3_468_080, 104_660, 51)
    assert stats["wins"] + stats["losses"] + stats["draws"] == stats["legal"]
    for key, total, longest in (("wins_by_plies", "wins", "longest_win"),
                                ("losses_by_plies", "losses", "longest_loss")):
        by_plies = stats[key]
        assert all(isinstance(plies, str) and plies.isdigit() for plies in by_plies)
        assert sum(by_plies.values()) == stats[total]
        assert max(map(int, by_plies)) == stats[longest]
    assert stats["longest_wins"] == [{"position": "w4/5/1b3/2w2/bw1b1 b", "class_size": 8}]
    table = open_table(GAME)
    every = json.loads(invoke("stats", "--json", "--all").stdout)["longest_wins"][0]["positions"]
    assert len(every) == 8 == len(set(every))
    for fen in every:
        assert table.probe(Position.parse(fen, game=GAME).index()) == encode_result(51), fen


def _images(fen: str, game: Game) -> set[str]:
    """The positions a board symmetry maps ``fen`` onto, each square moved by the permutations."""
    position = Position.parse(fen, game=game)
    return {Position(game, tuple(sorted(int(g[s]) for s in position.black)),
                     tuple(sorted(int(g[s]) for s in position.white)), position.black_to_move).fen()
            for g in symmetries(game.board)}


@pytest.mark.parametrize("board, rule, positions, classes", [("3x3", "connected", 12, 2),
                                                             ("4x4", "orthogonal", 40, 5)])
@pytest.mark.kernel
def test_stats_groups_the_longest_wins_by_symmetry_class(board, rule, positions, classes):
    """One position of each class with the class's size; --all every position, by class. Checked
    against the images of each position under the board's permutations of squares."""
    game = Game.of(board, rule)
    answer = json.loads(invoke("stats", "--board", board, "--rule", rule, "--json").stdout)
    every = json.loads(invoke("stats", "--board", board, "--rule", rule, "--json", "--all").stdout)
    assert len(answer["longest_wins"]) == classes == len(every["longest_wins"])
    assert sum(group["class_size"] for group in answer["longest_wins"]) == positions
    assert positions == answer["wins_by_plies"][str(answer["longest_win"])]
    seen: set[str] = set()
    for group, listed in zip(answer["longest_wins"], every["longest_wins"]):
        images = _images(group["position"], game)
        assert group["class_size"] == len(images) and set(listed["positions"]) == images
        assert listed["position"] == group["position"] and not images & seen
        seen |= images
    text = invoke("stats", "--board", board, "--rule", rule).stdout
    assert f"longest win: {answer['longest_win']} plies, {positions} positions in {classes} symmetry classes" in text
    for group in answer["longest_wins"]:
        assert re.search(rf"^  {re.escape(group['position'])} +{group['class_size']} positions$", text, re.M)
    listed_all = invoke("stats", "--board", board, "--rule", rule, "--all").stdout
    assert sum(fen in listed_all for fen in seen) == positions


def test_stats_table_option(table_5x5, fresh_tables):
    result = invoke("stats", "--json", "--table", str(table_5x5))
    assert result.exit_code == 0 and json.loads(result.stdout)["legal"] == 3_468_080
    assert not fresh_tables.exists()


@pytest.mark.kernel
def test_tables_environment_variable(fresh_tables, tmp_path, monkeypatch):
    """NEUTREEKO_TABLES is where tables are built and read."""
    other = tmp_path / "other"
    monkeypatch.setenv("NEUTREEKO_TABLES", str(other))
    result = invoke("stats", "--board", "3x3", "--json")
    assert result.exit_code == 0 and json.loads(result.stdout)["board"] == "3x3"
    assert f"building the 3x3 connected table at {other / 'neutreeko-3x3.h5'}" in result.stderr
    assert os.listdir(other) == ["neutreeko-3x3.h5"] and not fresh_tables.exists()


# -- bad input -------------------------------------------------------------------------------------


@pytest.mark.parametrize("args, words", [
    (["solve", "--board", "2x5"], ["2x5"]),
    (["solve", "--board", "12x12"], ["12x12"]),
    (["solve", "--board", "five"], ["five", "WIDTHxHEIGHT"]),
    (["solve", "--rule", "nonsense"], ["nonsense", "connected"]),
    (["solve", "--board", "4x4", "--rule", "centre"], ["centre", "4x4"]),
    (["verify", "--board", "9x12"], ["9x12"]),
    (["verify", "--rule", "nonsense"], ["nonsense"]),
    (["stats", "--board", "five"], ["five"]),
    (["stats", "--rule", "nonsense"], ["nonsense"]),
    (["solve", "--no-such-option"], ["--no-such-option"]),
])
def test_bad_board_or_rule(fresh_tables, no_solve, args, words):
    assert_one_line_error(invoke(*args), *words, code=2)
    assert not fresh_tables.exists()


def test_unwritable_out(tmp_path, no_solve):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    before = _listing(tmp_path)
    assert_one_line_error(invoke("solve", "--out", str(blocker / "t.h5")), str(blocker), "not a directory", code=1)
    assert_one_line_error(invoke("solve", "--out", str(tmp_path)), str(tmp_path), "is a directory", code=1)
    assert _listing(tmp_path) == before


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux /proc")
def test_out_where_no_file_can_be_made(no_solve):
    assert_one_line_error(invoke("solve", "--out", "/proc/neutreeko.h5"), "/proc/neutreeko.h5", code=1)


def _edit_attribute(path: Path) -> None:
    with h5py.File(path, "r+") as file:
        file.attrs["draws"] = 100_000


@pytest.mark.parametrize("change, words", [
    (overwrite_with_text, ["not a neutreeko-solver table"]),
    (replace_with_foreign_hdf5, ["not a neutreeko-solver table"]),
    (truncate, ["truncated"]),
    (edit_data, ["is damaged", "rebuild it with neutreeko solve"]),
    (_edit_attribute, ["is damaged", "rebuild it with neutreeko solve"]),
], ids=["text", "foreign-hdf5", "truncated", "edited-data", "edited-attribute"])
@pytest.mark.parametrize("command", [["stats"], ["stats", "--table"], ["verify"]], ids=" ".join)
def test_bad_table_file(tables, table_5x5, no_solve, change, words, command):
    path = tables / table_5x5.name
    change(path)
    before = _listing(tables)
    args = [*command, str(path)] if command[-1] == "--table" else command
    assert_one_line_error(invoke(*args), str(path), *words, code=1)
    assert _listing(tables) == before


def test_table_of_another_board(table_5x5, fresh_tables, no_solve):
    line = assert_one_line_error(invoke("stats", "--board", "4x4", "--table", str(table_5x5)), "5x5", "4x4")
    assert "is a table for 5x5 connected, not 4x4 connected" in line
    assert not fresh_tables.exists()


def test_missing_table_file(tmp_path):
    missing = tmp_path / "none.h5"
    assert_one_line_error(invoke("stats", "--table", str(missing)), str(missing), "neutreeko solve", code=1)
    assert not missing.exists()


def test_no_command_shows_the_help():
    result = invoke()
    shown = result.stdout + result.stderr  # click 8.2 shows it on standard error, 8.1 on standard output
    assert "Usage:" in shown and "solve" in shown and "error" not in shown


# -- as a program: python -m solver, a terminal, Ctrl-C -------------------------------------------


def _program(*args: str) -> list[str]:
    return [sys.executable, "-m", "solver", *args]


def test_python_m_solver(fresh_tables):
    shown = subprocess.run(_program("--help"), capture_output=True, text=True, timeout=60)
    assert shown.returncode == 0 and "solve" in shown.stdout and "verify" in shown.stdout
    bad = subprocess.run(_program("stats", "--board", "five"), capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and bad.stderr.splitlines() == [
        "neutreeko: error: board 'five' is not of the form WIDTHxHEIGHT, e.g. 5x5"]


@pytest.mark.parametrize("program", ["neutreeko", "necnon"])
def test_shell_completion_as_the_docs_set_it_up(program):
    """The line for ~/.bashrc of "Getting started" names click's variable of each program; its script
    completes commands and options."""
    variable = f"_{program.upper()}_COMPLETE"
    page = (Path(__file__).resolve().parents[3] / "docs" / "getting-started.md").read_text()
    assert f'eval "$({variable}=bash_source {program})"' in page
    run = [sys.executable, "-c", f"from solver.__main__ import run; run({program!r})"]

    def completed(**environment: str) -> str:
        done = subprocess.run(run, capture_output=True, text=True, timeout=60, env={**os.environ, **environment})
        assert done.returncode == 0 and done.stderr == "", done.stderr
        return done.stdout

    assert f"complete -o nosort -F _{program}_completion {program}" in completed(**{variable: "bash_source"})
    assert completed(**{variable: "bash_complete", "COMP_WORDS": f"{program} pla", "COMP_CWORD": "1"}) \
        == "plain,play\n"
    assert "plain,--opponent" in completed(**{variable: "bash_complete", "COMP_WORDS": f"{program} play --opp",
                                              "COMP_CWORD": "2"})


def _on_terminal(args: list[str]):
    """Start ``args`` with standard error on a pseudo-terminal; (process, terminal's master end)."""
    pty = pytest.importorskip("pty")
    master, slave = pty.openpty()
    process = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=slave,
                               env=os.environ.copy())
    os.close(slave)
    return process, master


@pytest.mark.integration
def test_progress_on_a_terminal(tmp_path):
    out = tmp_path / "t.h5"
    process, master = _on_terminal(_program("solve", "--board", "4x4", "--out", str(out)))
    try:
        terminal = read_terminal(master, None, 120).decode()
        stdout = process.communicate(timeout=120)[0].decode()
    finally:
        os.close(master)
    assert process.returncode == 0
    plies = re.findall(r"ply +(\d+): +[\d,]+ new (wins|losses) +[\d.]+ % decided +[\d.]+ s", terminal)
    assert [int(ply) for ply, _ in plies] == list(range(34))  # 4 x 4: the longest win is 33 plies
    assert all((kind == "wins") == (int(ply) % 2 == 1) for ply, kind in plies)
    assert terminal.count("s left") == 33  # every level after the first gives the time left
    assert SUMMARY.fullmatch(stdout.strip())


def test_ctrl_c_during_solve(tmp_path, table_5x5):
    """SIGINT while solving 6 x 6 (seconds): exit 130, one message, the file at --out untouched."""
    directory = tmp_path / "out"
    directory.mkdir()
    previous = Path(shutil.copy(table_5x5, directory / "previous.h5"))
    before = _listing(directory)
    process, master = _on_terminal(_program("solve", "--board", "6x6", "--force", "--out", str(previous)))
    try:
        read_terminal(master, b"ply   1:", 120)  # well into the analysis
        process.send_signal(signal.SIGINT)
        stdout = process.communicate(timeout=60)[0].decode()
        terminal = read_terminal(master, None, 60).decode()
    finally:
        os.close(master)
    assert process.returncode == 130 and stdout == ""
    assert "Traceback" not in terminal
    assert terminal.rstrip().splitlines()[-1] == "neutreeko: error: interrupted"
    assert _listing(directory) == before


# -- tables larger than 5 x 5 are built only when asked ---------------------------------------------

@pytest.mark.parametrize("args", [
    ["query", "--board", "6x6", "start"], ["line", "--board", "5x6", "start"], ["show", "--board", "6x5", "start"],
    ["stats", "--board", "4x7"], ["verify", "--board", "6x6"], ["play", "--board", "6x6", "--as", "none"],
    ["survey", "--max-board", "5x6", "--rules", "connected", "--out", "{tmp}/survey.md"],
], ids=lambda args: " ".join(args[:3]))
def test_a_missing_table_larger_than_5x5_asks_for_build(fresh_tables, tmp_path, args):
    """One line saying how to build it (--build, or neutreeko solve), exit 1, and nothing written."""
    result = invoke(*[arg.replace("{tmp}", str(tmp_path)) for arg in args], input="")
    line = assert_one_line_error(result, "larger than 5 x 5", "--build", "neutreeko solve --board", code=1)
    assert re.search(r"[\d,]+ positions, about [\d.]+ MB of memory, a file of up to [\d.]+ MB", line), line
    assert not fresh_tables.exists() and not (tmp_path / "survey.md").exists()


@pytest.mark.kernel
def test_build_builds_a_table_larger_than_the_limit(fresh_tables, monkeypatch):
    """With --build the table is built as before (the limit lowered to 3 x 3 here, to keep it quick)."""
    monkeypatch.setattr("solver.neutreeko.tables.build.UNASKED_SQUARES", 9)
    assert_one_line_error(invoke("stats", "--board", "3x4", "--json"), "--build", code=1)
    assert not fresh_tables.exists()
    result = invoke("stats", "--board", "3x4", "--json", "--build")
    assert result.exit_code == 0 and json.loads(result.stdout)["legal"] == 17_304
    assert ("building the 3x4 connected table at "
            f"{fresh_tables / 'neutreeko-3x4.h5'} (18,480 positions, about 20.8 kB of memory") in result.stderr
    assert invoke("stats", "--board", "3x3", "--json").exit_code == 0  # not larger than the limit: built unasked


# -- help texts: one POSITION, an example each (which runs), the rules listed ----------------------------

def test_every_command_has_an_example_that_runs(tables, tmp_path, monkeypatch):
    """Each command's help shows an example; each runs as shown (the survey's, which regenerates the
    committed report from every table up to 7 x 7, is the command that report names; serve's, a server
    that runs until stopped, is run by tests/web/test_web.py; fetch's, from a mirror on the network, is
    shown here and fetched the same way from a mirror of its own by tests/core/test_release.py)."""
    monkeypatch.chdir(tmp_path)
    from solver.cli import cli

    for name in sorted(cli.commands):
        shown = invoke(name, "--help").stdout
        examples = help_examples(shown)
        assert examples, name
        for args, feed in examples:
            assert args[0] == name
            if name == "survey":
                report = (Path(__file__).resolve().parents[3] / "docs" / "survey.md").read_text()
                assert f"Generated by `neutreeko {' '.join(args)}`" in report
                continue
            if name == "serve":  # a server runs until it is stopped: tests/web/test_web.py starts and stops it
                assert args[1:] in (["--open"], [])
                continue
            if name == "fetch":  # its mirror is on the network: tests/core/test_release.py fetches from one of its own
                assert args[1] == "8x8" and args[2] == "--mirror" and args[3].startswith("https://")
                continue
            if name == "convert":  # it needs a table of the first format
                (tmp_path / "old").mkdir()
                table = open_table(Game.of("5x5"))
                write_first_format(tmp_path / args[1], "result", table.result, table.attributes)
            result = invoke(*args, input=feed or "")
            assert result.exit_code == 0, (args, result.stderr)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["longest.html", "old", "release", "reply.png",
                                                                "site", "tables"]


@pytest.mark.parametrize("name", ["query", "line", "show"])
def test_usage_names_one_position(name):
    usage = invoke(name, "--help").stdout.splitlines()[0]
    assert usage == f"Usage: neutreeko {name} [OPTIONS] POSITION"


def test_rule_lists_its_choices_and_takes_any_case(tables):
    from solver.cli import cli
    from solver.neutreeko.model.rules import RULES

    choices = "[" + "|".join(RULES) + "]"
    for name, command in cli.commands.items():
        if any(param.name == "rule" for param in command.params):
            assert f"--rule {choices}" in invoke(name, "--help").stdout, name
    result = invoke("query", "start", "--rule", "Connected", "--json")
    assert result.exit_code == 0 and json.loads(result.stdout)["value"] == "draw"
