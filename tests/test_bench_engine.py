"""``scripts/bench_engine.py`` and ``scripts/match_engines.py`` on tiny settings: their lines parse, the
same seed prints the same figures, and the points given away agree with the table's judgement."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

from solver.necnon.model.position import BLACK, GREEN, Position
from solver.necnon.model.rules import Game
from solver.necnon.playing.annotate import annotate
from solver.necnon.playing.play import engine_player, perfect_player, play_game
from solver.necnon.playing.record import GameRecord
from solver.necnon.querying.judge import TableJudge
from solver.necnon.querying.probe import Tablebase
from solver.necnon.searching.engine import SearchEngine
from tests.helpers import SCRIPTS, script

pytestmark = pytest.mark.integration

TALLY = (r"(\d+) games?, (\d+\.\d\d) points given away a game, the perfect result in (\d+) \((\d+\.\d) %\), "
         r"(\d+\.\d\d) a game in its first turn")


bench = script("bench_engine")
match = script("match_engines")


def figures(printed: str) -> list[str]:
    """The printed lines without the time, which changes from run to run."""
    return [line for line in printed.splitlines() if not line.startswith("time:")]


@pytest.fixture
def empty_tables(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("NEUTREEKO_TABLES", str(tmp_path))
    return tmp_path


def test_bench_prints_a_line_per_board_protocol_and_seat_and_repeats_with_its_seed(empty_tables, capsys):
    argv = ["--boards", "3x3", "--protocols", "nec,non-nec", "--games", "2", "--iterations", "50", "--seed", "3"]
    bench.main(argv)
    first = capsys.readouterr()
    assert "building necnon-3x3-nec.h5" in first.err  # the missing tables are built first
    lines = figures(first.out)
    assert lines[0] == "the engine (50 playouts a turn) against perfect play, 2 games per board, protocol and seat"
    rows = [re.fullmatch(rf"3x3 (nec|non-nec) engine (black|green): {TALLY}", line) for line in lines[1:5]]
    assert all(rows), lines
    assert [(row[1], row[2]) for row in rows if row] == [("nec", "black"), ("nec", "green"),
                                                        ("non-nec", "black"), ("non-nec", "green")]
    board = re.fullmatch(rf"3x3 all: {TALLY}", lines[5])
    summary = re.fullmatch(rf"summary: {TALLY}", lines[6])
    assert board and summary and board.groups() == summary.groups() and summary[1] == "8"
    given = sum(float(row[4]) * int(row[3]) for row in rows if row)
    assert float(summary[2]) == pytest.approx(given / 8, abs=0.005)
    assert sum(int(row[5]) for row in rows if row) == int(summary[3])
    assert all(float(row[7]) <= float(row[4]) for row in rows if row)  # a share of what is given
    assert float(summary[5]) == pytest.approx(sum(float(row[7]) * int(row[3]) for row in rows if row) / 8, abs=0.005)
    assert lines[7] == "command: python scripts/bench_engine.py " + " ".join(argv)
    bench.main(argv)
    assert figures(capsys.readouterr().out) == lines


def test_points_given_away_are_none_in_perfect_play_and_agree_with_the_table(necnon_env):
    game = Game.of("3x3", "nec")
    start = Position.empty(game)
    with Tablebase() as tablebase:
        value = tablebase.probe(start).margin  # Green wins by 1
        perfect = play_game(start, {BLACK: perfect_player(tablebase), GREEN: perfect_player(tablebase)})
        assert perfect.position.margin() == value == -1
        assert bench.points_given_away(value, perfect.position, True) == 0
        assert bench.points_given_away(value, perfect.position, False) == 0
        for seed in range(4):
            engine = engine_player(SearchEngine(game, seed, iterations=10))
            played = play_game(start, {BLACK: engine, GREEN: perfect_player(tablebase)})
            record = GameRecord(start, tuple(ply.turn for ply in played.plies))
            annotation = annotate(TableJudge(tablebase), record)
            judged = annotation.summary(BLACK).given
            assert bench.points_given_away(value, played.position, True) == judged >= 0
            assert bench.given_in_first_turn(tablebase, played, BLACK) == annotation.turns[0].given
        hexagons = Position.empty(Game.of("hex2", "nec"))  # its worst first stone gives 2 points away
        worst = play_game(hexagons, {BLACK: lambda position: tablebase.turns(position)[-1].turn,
                                     GREEN: perfect_player(tablebase)})
        record = GameRecord(hexagons, tuple(ply.turn for ply in worst.plies))
        annotation = annotate(TableJudge(tablebase), record)
        assert bench.given_in_first_turn(tablebase, worst, BLACK) == annotation.turns[0].given == 2
        assert bench.given_in_first_turn(tablebase, worst, GREEN) == annotation.turns[1].given == 0


def test_match_prints_the_score_and_its_interval_and_repeats_with_its_seed(capsys):
    argv = ["--board", "hex2", "--a", "iterations=50", "--b", "iterations=20", "--games", "2", "--seed", "4"]
    match.main(argv)
    lines = figures(capsys.readouterr().out)
    assert lines[0] == "A (50 playouts a turn) against B (20 playouts a turn) on hex2 nec: 2 games, A Black in the odd ones"
    games = [re.fullmatch(r"game (\d): (A Black, B Green|B Black, A Green): (Black wins by \d+|Green wins by \d+|draw), "
                          r"A scores (1|0\.5|0)", line) for line in lines[1:3]]
    assert all(games) and [row[2] for row in games if row] == ["A Black, B Green", "B Black, A Green"]
    total = re.fullmatch(r"A: (\d) wins?, (\d) draws?, (\d) loss(?:es)? in 2 games; score ([\d.]+)/2 = ([\d.]+), "
                         r"95 % interval ([\d.]+) to ([\d.]+) \(Wilson\)", lines[3])
    assert total
    scores = [float(row[4]) for row in games if row]
    assert float(total[4]) == sum(scores) and int(total[1]) + int(total[2]) + int(total[3]) == 2
    assert float(total[6]) <= float(total[5]) <= float(total[7])
    assert lines[4] == ("command: python scripts/match_engines.py --board hex2 --protocol nec --a iterations=50 "
                        "--b iterations=20 --games 2 --seed 4 --max-seconds 900")
    match.main(argv)
    assert figures(capsys.readouterr().out) == lines


def test_a_side_of_another_source_tree_plays_that_tree_s_engine(capsys):
    """``tree=DIR`` plays the engine of DIR in a process of its own: with DIR this checkout, the same
    games as this checkout's engine in the match's own process."""
    argv = ["--board", "hex2", "--a", "iterations=30", "--games", "2", "--seed", "2"]
    match.main([*argv, "--b", "iterations=20"])
    here = figures(capsys.readouterr().out)
    match.main([*argv, "--b", f"iterations=20,tree={SCRIPTS.parent}"])
    there = figures(capsys.readouterr().out)
    assert there[0] == here[0].replace("(20 playouts a turn)", f"(20 playouts a turn, the engine of {SCRIPTS.parent})")
    assert there[1:-1] == here[1:-1]
    assert there[-1].endswith(f"--b iterations=20,tree={SCRIPTS.parent} --games 2 --seed 2 --max-seconds 900")
    with pytest.raises(SystemExit, match="not a source tree"):
        match.TreeEngine(SCRIPTS)


def test_the_wilson_interval_holds_the_share_and_narrows_with_games():
    low, high = match.wilson_interval(5, 10)
    assert low < 0.5 < high and high - low > 0.5
    wider = match.wilson_interval(50, 100)
    assert low < wider[0] < 0.5 < wider[1] < high
    assert match.wilson_interval(0, 4)[0] == 0.0


def test_the_doctests_of_the_scripts():
    for module in (bench, match):
        assert doctest.testmod(module).failed == 0, module.__name__
