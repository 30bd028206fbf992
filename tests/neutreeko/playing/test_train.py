"""``neutreeko train``: puzzles one after another, each answer judged against the table through the probe
API (here recomputed with ``Tablebase.moves``, not the drill's code), the score at the end, and replaying
the mistakes of a game."""

from __future__ import annotations

import re

import pytest

from solver.neutreeko.model.game import Game
from solver.neutreeko.model.position import Position
from solver.neutreeko.playing.puzzles import find_puzzles
from solver.neutreeko.querying.probe import Tablebase
from tests.helpers import START, assert_one_line_error, invoke

SEED = ("--count", "3", "--seed", "1")


def train(*arguments: str, input: str = ""):
    result = invoke("train", *arguments, input=input)
    assert result.exit_code == 0, result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    return result.stdout


@pytest.fixture
def shown(tables_env):
    """The positions of ``train --count 3 --seed 1`` in order, each with its right and a wrong move (by
    ``Tablebase.moves``: the moves keeping the position's value, and the best of the others)."""
    with Tablebase(tables_env) as tablebase:
        found = find_puzzles(tablebase, Game.of("5x5"), 3, "all", seed=1)
        puzzles = []
        for puzzle in found.puzzles:
            value = tablebase.probe(puzzle.position).value
            ranked = tablebase.moves(puzzle.position)
            right = [move for move in ranked if move.value == value]
            wrong = [move for move in ranked if move.value != value]
            assert len(right) == 1 and wrong
            puzzles.append((puzzle.position, right[0], wrong[0]))
    return puzzles


def scores(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("score: ")]


def test_every_puzzle_is_shown_with_its_task_and_values_hidden(shown):
    text = train(*SEED, input="")
    first, _, _ = shown[0]
    assert first.diagram() in text and first.fen() in text
    side = first.side_to_move.capitalize()
    assert re.search(rf"^{side} to move and (win|hold the draw)$", text, re.M)
    before_answer = text.split(f"{side}> ")[0]
    assert "wins in" not in before_answer and "draw" not in before_answer.split(first.fen())[1].replace(
        "hold the draw", "")


def test_right_answers_are_solved_and_the_solution_line_follows(shown):
    answers = "".join(f"{right.name.lower()}\n" for _, right, _ in shown)
    text = train(*SEED, input=answers)
    assert text.count("correct: the only ") == 3
    for position, right, _ in shown:
        word = "winning" if right.value == "win" else "drawing"
        plies = f", {right.evaluation.move_text()}" if right.plies is not None else ""
        assert f"correct: the only {word} move{plies}" in text
        number = "1." if position.side_to_move == "black" else "1..."
        assert f"solution: {number} {right.name}! " in text  # the line starts with the solution, forced
    assert scores(text) == ["score: 3 of 3 solved"]


def test_a_wrong_answer_says_what_it_does_and_which_move_keeps_the_value(shown):
    position, right, wrong = shown[0]
    value = "win" if right.value == "win" else "draw"
    text = train(*SEED, input=f"{wrong.name}\n{shown[1][2].name}\n")
    does = "draws" if wrong.plies is None else wrong.evaluation.move_text()
    assert f"this {does}: {right.name} keeps the {value}" in text
    assert text.count("solution: ") == 2  # the second answer went to the second puzzle
    assert scores(text) == ["score: 0 of 2 solved (end of input after 2 of 3)"]


def test_an_illegal_or_unreadable_move_is_refused_and_asked_again(shown):
    position, right, _ = shown[0]
    prompt = f"{position.side_to_move.capitalize()}> "
    legal = {move.name for move in position.moves()}
    illegal = next(f"{a}-{b}" for a in ("A1", "E5", "C3") for b in ("A2", "B1", "E4") if f"{a}-{b}" not in legal)
    text = train(*SEED, input=f"{illegal}\nhello\n\n{right.name}\nquit\n")
    first = text.split("Puzzle 2 of 3")[0]
    assert f"{illegal} is not a legal move here" in first and "Legal moves: " in first
    assert "is not of the form FROM-TO" in first
    assert first.count(prompt) == 4  # the illegal move, the word, the empty line, the right move
    assert "correct: the only" in first
    assert scores(text) == ["score: 1 of 1 solved (quit after 1 of 3)"]


def test_quit_ends_at_once_with_the_score(shown):
    text = train(*SEED, input="quit\nA1-A2\n")
    assert "Puzzle 2" not in text and "solution" not in text
    assert scores(text) == ["score: 0 of 0 solved (quit after 0 of 3)"]
    assert text.rstrip("\n").endswith("score: 0 of 0 solved (quit after 0 of 3)")


def test_the_end_of_input_ends_cleanly_with_the_score(shown):
    _, right, _ = shown[0]
    text = train(*SEED, input=f"{right.name}")  # no line end after the last answer
    assert scores(text) == ["score: 1 of 1 solved (end of input after 1 of 3)"]


def test_the_same_seed_gives_the_same_puzzles_and_kind_filters_them(tables_env):
    assert train(*SEED) == train(*SEED)
    text = train("--count", "4", "--seed", "2", "--kind", "save")
    tasks = re.findall(r"^(?:Black|White) to move and .*$", text, re.M)
    assert tasks and all(task.endswith("and hold the draw") for task in tasks)


@pytest.fixture
def mistake(tables_env, tmp_path):
    """A record of one move from the 5 x 5 start that turns its draw into a loss, and the drawing moves
    there (by ``Tablebase.moves``)."""
    start = Position.parse(START)
    with Tablebase(tables_env) as tablebase:
        assert tablebase.probe(start).value == "draw"
        ranked = tablebase.moves(start)
    losing = next(move for move in ranked if move.value == "loss")
    path = tmp_path / "game.txt"
    path.write_text(f"1. {losing.name}\n")
    return path, losing, [move for move in ranked if move.value == "draw"]


def test_from_game_replays_the_position_before_the_mistake(mistake):
    path, losing, drawing = mistake
    text = train("--from-game", str(path), input=f"{drawing[-1].name}\n")
    start = Position.parse(START)
    assert "Replaying 1 mistake or blunder" in text and "Puzzle 1 of 1" in text
    assert start.diagram() in text and start.fen() in text and "Black to move and hold the draw" in text
    shown_before = text.split("Black> ")[0]
    assert f"from the game's 1. {losing.name}?, a mistake\n" in shown_before
    assert not any(move.name in shown_before for move in drawing)  # the right moves are not given away
    others = " ".join(move.name for move in drawing[:-1])
    assert f"correct: {len(drawing)} moves keep the draw (also {others})" in text
    assert scores(text) == ["score: 1 of 1 solved"]


def test_from_game_says_which_moves_keep_the_value_after_a_wrong_answer(mistake):
    path, losing, drawing = mistake
    text = train("--from-game", str(path), input=f"{losing.name}\n")
    assert f"this {losing.evaluation.move_text()}: {' '.join(move.name for move in drawing)} keep the draw" in text
    assert scores(text) == ["score: 0 of 1 solved"]


def test_from_game_without_mistakes_says_so(tables_env, tmp_path):
    start = Position.parse(START)
    with Tablebase(tables_env) as tablebase:
        best = tablebase.moves(start)[0]
    path = tmp_path / "game.txt"
    path.write_text(f"1. {best.name}\n")
    assert train("--from-game", str(path)) == f"{path}: no mistakes or blunders to replay\n"


@pytest.mark.parametrize("arguments, words", [
    (["--count", "0"], ["--count", "0"]),
    (["--kind", "lose"], ["--kind", "lose"]),
    (["--from-game", "no-such-file"], ["no-such-file"]),
])
def test_bad_input_is_one_line_and_exit_2(tables_env, arguments, words):
    assert_one_line_error(invoke("train", *arguments), *words, code=2)


def test_from_game_kind_keeps_only_positions_of_that_value(mistake):
    path, _, _ = mistake
    assert train("--from-game", str(path), "--kind", "win") == f"{path}: no win mistakes or blunders to replay\n"
    assert "Puzzle 1 of 1" in train("--from-game", str(path), "--kind", "save")
