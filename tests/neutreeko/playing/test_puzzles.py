"""``neutreeko puzzles``: every puzzle checked against the table through the probe API (not the
generator's code), reproducible, one per symmetry class, graded and sorted, and its bad input refused."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from solver.neutreeko.model.game import Game
from solver.neutreeko.model.position import Position
from solver.neutreeko.model.symmetry import symmetries
from solver.neutreeko.playing.puzzles import TEMPTING_PLIES, _sample
from solver.neutreeko.querying.probe import Tablebase
from tests.helpers import assert_one_line_error, invoke

PUZZLE_KEYS = {"rank", "position", "side", "kind", "value", "plies", "solution", "line", "movetext", "result",
               "difficulty", "parts", "found_at"}


@pytest.fixture
def tables_4x4_env(tables_4x4, monkeypatch):
    monkeypatch.setenv("NEUTREEKO_TABLES", str(tables_4x4))
    return tables_4x4


def puzzles(*args: str) -> dict:
    result = invoke("puzzles", "--json", *args)
    assert result.exit_code == 0, result.stderr
    assert re.match(r"\d+ puzzles? \(", result.stderr) and "sampled games" in result.stderr
    return json.loads(result.stdout)


def check_puzzles(found: dict, directory, board: str) -> None:
    """Each puzzle's solution is the only move keeping the value, by Tablebase.moves; its line starts
    with it; the grade's parts are the moves' values; sorted by difficulty."""
    game = Game.of(board)
    with Tablebase(directory) as tablebase:
        for puzzle in found["puzzles"]:
            assert set(puzzle) == PUZZLE_KEYS
            position = Position.parse(puzzle["position"], game=game)
            assert position.side_to_move == puzzle["side"]
            evaluation = tablebase.probe(position)
            assert (evaluation.value, evaluation.plies) == (puzzle["value"], puzzle["plies"])
            ranked = tablebase.moves(position)
            keeping = [move.name for move in ranked if move.value == evaluation.value]
            assert keeping == [puzzle["solution"]], puzzle
            others = [move for move in ranked if move.name != puzzle["solution"]]
            assert others
            if puzzle["kind"] == "win":
                assert evaluation.value == "win" and all(move.value in ("draw", "loss") for move in others)
                assert puzzle["parts"]["plies"] == evaluation.plies
                tempting = [move for move in others if move.value == "draw" or move.plies >= TEMPTING_PLIES]
            else:
                assert evaluation.value == "draw" and all(move.value == "loss" for move in others)
                assert puzzle["parts"]["plies"] == others[0].plies
                tempting = [move for move in others if move.plies >= TEMPTING_PLIES]
            assert puzzle["parts"]["tempting"] == len(tempting)
            best = puzzle["parts"]["best_alternative"]
            assert (best["move"], best["value"], best["plies"]) == (others[0].name, others[0].value, others[0].plies)
            assert puzzle["parts"]["gap"] == (2 if puzzle["kind"] == "win" and best["value"] == "loss" else 1)
            assert puzzle["difficulty"] == (puzzle["parts"]["plies"] + 3 * puzzle["parts"]["tempting"]
                                            + (6 if puzzle["parts"]["gap"] == 1 else 0))
            line = puzzle["line"]
            assert line[0]["move"] == puzzle["solution"] and line[0]["forced"] and line[0]["solver"]
            assert [step["solver"] for step in line] == [ply % 2 == 0 for ply in range(len(line))]
    difficulties = [puzzle["difficulty"] for puzzle in found["puzzles"]]
    assert difficulties == sorted(difficulties)
    assert [puzzle["rank"] for puzzle in found["puzzles"]] == list(range(1, len(difficulties) + 1))


def image_keys(fen: str, game: Game) -> set[tuple[frozenset[int], frozenset[int]]]:
    """(mover's squares, other's squares) of every image of a position under the board's symmetries."""
    position = Position.parse(fen, game=game)
    return {(frozenset(int(table[square]) for square in position.mover),
             frozenset(int(table[square]) for square in position.other)) for table in symmetries(game.board)}


def assert_one_per_class(found: dict, game: Game) -> None:
    seen: set = set()
    for puzzle in found["puzzles"]:
        keys = image_keys(puzzle["position"], game)
        assert not keys & seen, puzzle["position"]
        seen |= keys


def test_4x4_puzzles_are_unique_graded_and_one_per_class(tables_4x4_env):
    found = puzzles("--board", "4x4", "--count", "60", "--seed", "3")
    assert len(found["puzzles"]) == 60
    assert {puzzle["kind"] for puzzle in found["puzzles"]} == {"win", "save"}
    check_puzzles(found, tables_4x4_env, "4x4")
    assert_one_per_class(found, Game.of("4x4"))
    assert found["board"] == "4x4" and found["seed"] == 3 and found["kind"] == "all"
    assert sum(found["plies"].values()) == sum(found["found_at"].values()) == 60
    assert found["sampled"]["candidates"] >= 60 and found["sampled"]["positions"] > 0


def test_5x5_puzzles_are_unique_graded_and_one_per_class(tables_env):
    found = puzzles("--count", "40", "--seed", "5")
    assert len(found["puzzles"]) == 40
    check_puzzles(found, tables_env, "5x5")
    assert_one_per_class(found, Game.of("5x5"))


@pytest.mark.parametrize("kind", ["win", "save"])
def test_kind_and_plies_filter(tables_4x4_env, kind):
    found = puzzles("--board", "4x4", "--count", "15", "--kind", kind, "--min-plies", "4", "--max-plies", "9")
    assert found["puzzles"] and {puzzle["kind"] for puzzle in found["puzzles"]} == {kind}
    assert all(4 <= puzzle["parts"]["plies"] <= 9 for puzzle in found["puzzles"])
    check_puzzles(found, tables_4x4_env, "4x4")


def test_5x5_puzzles_from_the_fair_starts(tables_env):
    """--from fair: the sampled games begin at the fair starts; the puzzles are checked as any, and are
    another set than the standard start's with the same seed."""
    found = puzzles("--count", "15", "--seed", "5", "--from", "fair")
    assert found["from"] == "fair" and len(found["puzzles"]) == 15
    check_puzzles(found, tables_env, "5x5")
    standard = puzzles("--count", "15", "--seed", "5")
    assert standard["from"] == "standard"
    assert {p["position"] for p in found["puzzles"]} != {p["position"] for p in standard["puzzles"]}


def test_sampled_games_begin_at_the_starts_given(tables_4x4_env):
    """A start that is itself a puzzle is found at ply 0 of its games, first."""
    game = Game.of("4x4")
    with Tablebase(tables_4x4_env) as tablebase:
        puzzle = Position.parse(puzzles("--board", "4x4", "--count", "1", "--kind", "win")["puzzles"][0]["position"],
                                game=game)
        found, games, _ = _sample(tablebase, game, np.random.default_rng(1), ("win",), 1, None, 1, [puzzle])
        assert next(iter(found.values())) == (puzzle.index(), puzzle.black_to_move, 0) and games >= 1


def test_the_seed_reproduces_the_set(tables_4x4_env):
    first, again, other = (invoke("puzzles", "--board", "4x4", "--count", "25", "--seed", seed).stdout
                           for seed in ("7", "7", "8"))
    assert first == again and first != other
    assert first.startswith("1. ") and "line: " in first


def test_svg_and_out(tables_4x4_env, tmp_path):
    out = tmp_path / "puzzles.json"
    result = invoke("puzzles", "--board", "4x4", "--count", "4", "--json", "--svg", str(tmp_path / "svg"),
                    "--out", str(out))
    assert result.exit_code == 0 and result.stdout == ""
    assert out.read_text() == invoke("puzzles", "--board", "4x4", "--count", "4", "--json").stdout
    drawn = sorted(path.name for path in (tmp_path / "svg").iterdir())
    assert drawn == [f"puzzle-00{number}.svg" for number in range(1, 5)]
    assert (tmp_path / "svg" / "puzzle-001.svg").read_text().lstrip().startswith("<?xml")


@pytest.mark.parametrize("args, words", [
    (["--count", "0"], ["--count", "0"]),
    (["--min-plies", "9", "--max-plies", "3"], ["--min-plies 9", "--max-plies 3"]),
    (["--kind", "both"], ["--kind", "both"]),
    (["--min-plies", "0"], ["--min-plies"]),
    (["--board", "2x9"], ["2x9"]),
])
def test_bad_input_is_one_line_and_exit_2(tables_4x4_env, args, words):
    assert_one_line_error(invoke("puzzles", "--board", "4x4", *args), *words, code=2)


def test_a_missing_large_table_asks_for_build_as_other_commands_do(fresh_tables):
    """As query and the others: one line saying how to build it, exit 1 (a table that cannot be used)."""
    result = invoke("puzzles", "--board", "6x6")
    assert_one_line_error(result, "larger than 5 x 5", "--build", "neutreeko solve --board 6x6", code=1)
    assert not fresh_tables.exists()


def test_out_refuses_a_directory(tables_4x4_env, tmp_path):
    assert_one_line_error(invoke("puzzles", "--board", "4x4", "--out", str(tmp_path)), code=2)


def test_the_readme_s_example_diagram_is_the_command_s(tables_env, tmp_path):
    """docs/puzzle-example.svg, shown in the user guide, is what `neutreeko puzzles --count 3 --seed 4 --svg`
    draws for puzzle 1."""
    assert invoke("puzzles", "--count", "3", "--seed", "4", "--svg", str(tmp_path)).exit_code == 0
    committed = Path(__file__).resolve().parents[3] / "docs" / "puzzle-example.svg"
    assert (tmp_path / "puzzle-001.svg").read_bytes() == committed.read_bytes()
