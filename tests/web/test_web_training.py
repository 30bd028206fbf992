"""The training page's API through HTTP: ``/api/puzzles`` answers what ``neutreeko puzzles --json``
prints, ``/api/try`` judges a move in the words ``neutreeko train`` prints (both recomputed from the
command line, not from the API's code), and bad parameters are one-line 400s."""

from __future__ import annotations

import json
from urllib.parse import quote

import pytest

from tests.helpers import START, invoke
from tests.web.test_web import get_json


def cli_puzzles(*arguments: str) -> dict:
    result = invoke("puzzles", "--json", *arguments)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def try_path(position: str, **extra: str) -> str:
    return "/api/try?" + "&".join(f"{name}={quote(value)}" for name, value in {"position": position, **extra}.items())


@pytest.mark.parametrize("query, arguments", [
    ("count=6&seed=3", ("--count", "6", "--seed", "3")),
    ("board=5x5&rule=connected&count=5&kind=win&seed=11&min_plies=3&max_plies=9",
     ("--count", "5", "--kind", "win", "--seed", "11", "--min-plies", "3", "--max-plies", "9")),
    ("", ()),
])
def test_puzzles_answer_as_the_command_line_does(explorer_url, tables_env, query, arguments):
    status, answer = get_json(explorer_url, "/api/puzzles?" + query)
    assert status == 200, answer
    assert answer == cli_puzzles(*arguments)


def test_a_try_is_judged_in_the_words_of_train(explorer_url, tables_env):
    """The right and a wrong move of each of ``train --count 3 --seed 1``'s puzzles, answered through the
    API, say what the drill says of them, solution line included."""
    found = cli_puzzles("--count", "3", "--seed", "1")["puzzles"]
    tries = []
    for puzzle in found:
        status, shown = get_json(explorer_url, try_path(puzzle["position"]))
        assert status == 200, shown
        assert set(shown) == {"position", "board", "rule", "side", "task", "moves"}  # values hidden
        assert puzzle["solution"] in shown["moves"] and shown["moves"] == sorted(shown["moves"])
        wrong = next(move for move in shown["moves"] if move != puzzle["solution"])
        tries.append([get_json(explorer_url, try_path(puzzle["position"], move=move))[1]
                      for move in (puzzle["solution"], wrong)])
    for answers in ((right for right, _ in tries), (wrong for _, wrong in tries)):
        answers = list(answers)
        text = invoke("train", "--count", "3", "--seed", "1",
                      input="".join(answer["move"] + "\n" for answer in answers)).stdout
        for answer in answers:
            assert f"{answer['task']}\n" in text
            assert f"\n{answer['verdict']}\n{answer['solution']}\n" in text
    for (right, wrong), puzzle in zip(tries, found):
        assert right["correct"] and right["verdict"].startswith("correct: the only ")
        assert not wrong["correct"] and wrong["verdict"].startswith("this ")
        assert right["keeping"] == [puzzle["solution"]] and right["line"][0] == puzzle["solution"]
        assert right["solution"] == f"solution: {puzzle['movetext']} ({puzzle['result']})"


def test_a_try_before_a_game_s_mistake_takes_any_move_that_keeps_the_value(explorer_url):
    """The start is drawn, with several drawing moves: each is correct, C4-C3 (a mistake) loses."""
    _, right = get_json(explorer_url, try_path("start", move="B1-C1"))
    assert right["correct"] and right["verdict"].startswith("correct: ") and "moves keep the draw" in right["verdict"]
    _, wrong = get_json(explorer_url, try_path("start", move="c4-c3"))
    assert not wrong["correct"] and wrong["move"] == "C4-C3" and wrong["verdict"].startswith("this loses in ")
    assert wrong["task"] == "Black to move and hold the draw" and "B1-C1" in wrong["keeping"]


@pytest.mark.parametrize("path, words", [
    ("/api/puzzles?count=101", ["count '101'", "from 1 to 100"]),
    ("/api/puzzles?count=0", ["count '0'"]),
    ("/api/puzzles?count=ten", ["count 'ten'"]),
    ("/api/puzzles?seed=-1", ["seed '-1'"]),
    ("/api/puzzles?kind=easy", ["kind 'easy'", "win, save, all"]),
    ("/api/puzzles?min_plies=0", ["min_plies '0'"]),
    ("/api/puzzles?min_plies=9&max_plies=3", ["min_plies 9 is more than max_plies 3"]),
    ("/api/puzzles?board=11x11", ["11x11"]),
    ("/api/puzzles?board=6x6", ["no table for 6x6"]),
    ("/api/puzzles?position=start", ["unknown parameter 'position'"]),
    ("/api/try?move=C4-C9", ["C9"]),
    ("/api/try?move=C4-C2", ["C4-C2", "not legal"]),
    ("/api/try?move=C4", ["FROM-TO"]),
    ("/api/try?moves=C4-C3+D5-D2&move=B1-C1", ["is lost", "nothing to find"]),
    ("/api/try?moves=C4-C3+D5-D2+B1-C1+B5-E2", ["nothing to find"]),  # White has won: the game is over
    ("/api/try?position=" + quote(START) + "&count=3", ["unknown parameter 'count'"]),
])
def test_bad_training_parameters_are_a_400_naming_the_problem(explorer_url, path, words):
    status, answer = get_json(explorer_url, path)
    assert status == 400, answer
    assert list(answer) == ["error"] and "\n" not in answer["error"]
    for word in words:
        assert word in answer["error"], (word, answer)


def test_a_seed_beyond_the_command_lines_is_refused(explorer_url):
    status, answer = get_json(explorer_url, "/api/puzzles?seed=4294967296")
    assert status == 400 and "seed" in answer["error"], answer
