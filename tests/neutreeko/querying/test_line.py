"""Perfect-play lines: Tablebase.line and ``neutreeko line``."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest

from solver.neutreeko.model.position import Position
from solver.neutreeko.querying.probe import LINE_RESULTS, Evaluation
from tests.helpers import LONGEST, START, colour_twin, invoke, random_positions


def test_longest_line(tablebase):
    """From the 51-ply position: exactly 51 plies, legal, the distance falling by one each ply, ending
    with Black's three in a row."""
    line = tablebase.line(LONGEST)
    assert line.evaluation == Evaluation("win", 51)
    assert len(line.steps) == 51
    position = Position.parse(LONGEST)
    for ply, step in enumerate(line.steps, 1):
        position = position.play(step.name)  # legal, and the line's own position
        assert position == step.position
        assert step.evaluation == Evaluation("loss" if ply % 2 else "win", 51 - ply)
    assert position.winner() == "black"
    assert line.result == "black wins"


def test_lines_take_fastest_wins_and_longest_resistance(tablebase):
    """Every ply of a decided line is the first move of moves(): its distance falls by exactly one."""
    for position in random_positions(40, seed=4):
        line = tablebase.line(position)
        if line.evaluation.value == "draw":
            continue
        plies = [line.evaluation.plies] + [step.evaluation.plies for step in line.steps]
        assert plies == list(range(line.evaluation.plies, -1, -1))
        winner = line.steps[-1].position.winner() if line.steps else position.winner()
        assert line.result == f"{winner} wins"


def test_drawn_line_ends_by_repetition(tablebase):
    """From the start: every position drawn, ending at the first position seen a third time."""
    line = tablebase.line("start")
    assert line.result == "draw by repetition"
    assert all(step.evaluation == Evaluation("draw", None) for step in line.steps)
    seen = Counter([line.position])
    for number, step in enumerate(line.steps, 1):
        seen[step.position] += 1
        assert (seen[step.position] == 3) == (number == len(line.steps))


def test_max_plies(tablebase):
    assert tablebase.line("start", max_plies=0).steps == ()
    stopped = tablebase.line(LONGEST, max_plies=10)
    assert (len(stopped.steps), stopped.result) == (10, "stopped")
    assert tablebase.line(LONGEST, max_plies=51).result == "black wins"


def test_line_of_a_finished_game(tablebase):
    line = tablebase.line("5/5/b1w2/bw3/bw3 w")
    assert (line.steps, line.result, line.evaluation) == ((), "black wins", Evaluation("loss", 0))


def test_colour_symmetric_lines(tablebase):
    """The twin of a position (colours swapped, board turned) has a line as long, won by the other
    colour, or drawn as well."""
    other = {"black wins": "white wins", "white wins": "black wins", "draw by repetition": "draw by repetition"}
    for position in random_positions(30, seed=5):
        line, twin = tablebase.line(position), tablebase.line(colour_twin(position))
        assert twin.evaluation == line.evaluation
        assert twin.result == other[line.result]
        if line.evaluation.value != "draw":
            assert len(twin.steps) == len(line.steps) == line.evaluation.plies


def test_cli_line_text(tables_env):
    result = invoke("line", LONGEST)
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[:7] == ["5 w . . . .", "4 . . . . .", "3 . b . . .", "2 . . w . .", "1 b w . b .",
                         "  A B C D E", LONGEST]
    assert lines[7] == "Black to move wins in 51 plies"
    assert lines[8].strip().startswith("1. ") and "White to move loses in 50 plies" in lines[8]
    assert lines[-1] == "result: black wins (three in a row on E3 E4 E5)"


def test_cli_line_json(tables_env):
    result = invoke("line", *LONGEST.split(), "--json")  # unquoted works too
    assert result.exit_code == 0, result.stderr
    answer = json.loads(result.stdout)
    assert set(answer) == {"position", "board", "to_move", "value", "plies", "moves", "movetext", "result", "reason"}
    assert (answer["position"], answer["value"], answer["plies"]) == (LONGEST, "win", 51)
    assert answer["result"] == "black wins"
    assert len(answer["moves"]) == 51
    for ply, move in enumerate(answer["moves"], 1):
        assert set(move) == {"ply", "number", "move", "forced", "position", "to_move", "value", "plies"}
        assert (move["ply"], move["plies"]) == (ply, 51 - ply)
        assert move["to_move"] == ("white" if ply % 2 else "black")
    assert answer["result"] in LINE_RESULTS


def test_cli_line_options(tables_env):
    stopped = json.loads(invoke("line", "start", "--max-plies", "3", "--json").stdout)
    assert (len(stopped["moves"]), stopped["result"], stopped["value"]) == (3, "stopped", "draw")
    after = json.loads(invoke("line", START, "--moves", "C4-C3", "--json").stdout)
    assert (after["position"], after["value"], after["plies"], after["result"]) == \
        ("1w1w1/5/2b2/2w2/1b1b1 w", "win", 3, "white wins")
    assert [move["move"] for move in after["moves"]][0] == "B5-B2"  # tie with D5-D2: alphabetical


@pytest.mark.parametrize("arguments, token", [
    (["start", "--max-plies", "-1"], "-1"),
    (["start", "--moves", "C4-C9"], "C9"),
    (["start", "--moves", "B1-B2"], "B1-B2"),
    (["bbb2/5/5/5/www2 b"], "bbb2/5/5/5/www2 b"),
])
def test_cli_line_bad_input(tables_env, arguments, token):
    result = invoke("line", *arguments)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1 and token in result.stderr


# -- what a reader of a line sees: numbered move pairs, a finished game's words, forced moves ----------

def test_cli_line_numbers_move_pairs_as_play_does(tables_env):
    """Plies labelled 1. / 1... as play labels them, and the whole line as play's numbered move list."""
    result = invoke("line", LONGEST)
    assert result.exit_code == 0, result.stderr
    rows = _rows(result.stdout)
    assert len(rows) == 51
    assert re.match(r" 1\.\s+A1-A4 ", rows[0]) and re.match(r" 1\.\.\.\s+A5-E5 ", rows[1])
    assert re.match(r"26\.\s+D5-E4 ", rows[-1])
    played = _played(result.stdout)
    lines = result.stdout.splitlines()
    following = lines[lines.index("moves:") + 1:]
    moves = following[:next(n for n, line in enumerate(following) if not line[:1].isdigit())]
    assert moves[0].startswith("1. A1-A4 A5-E5 2. A4-E4 E5-A1 3. ") and max(map(len, moves)) <= 78
    assert " ".join(moves) == " ".join(f"{n // 2 + 1}. {played[n]}" if n % 2 == 0 else played[n] for n in range(51))


def _rows(text: str) -> list[str]:
    """The rows of a line's text that give one ply: label, move, forced mark, value after it."""
    return [row for row in text.splitlines() if re.match(r" *\d+\.(\.\.)? +[A-Z]\d-[A-Z]\d [ !] [A-Z]", row)]


def _played(text: str) -> list[str]:
    return [row.split()[1] for row in _rows(text)]


def test_cli_line_from_white_to_move_starts_with_an_ellipsis(tables_env):
    result = invoke("line", START, "--moves", "C4-C3")
    assert result.exit_code == 0, result.stderr
    assert "\nmoves:\n1... B5-B2 2. " in result.stdout
    assert re.search(r"^ ?1\.\.\.\s+B5-B2 ", result.stdout, re.M)


def test_a_finished_game_reads_as_won(tables_env):
    """The last ply and the result say who won and where, not "loses in 0 plies"."""
    result = invoke("line", LONGEST)
    assert "loses in 0" not in result.stdout
    assert re.search(r"^26\.\s+D5-E4\s+Black has won \(three in a row on E3 E4 E5\)$", result.stdout, re.M)
    assert result.stdout.splitlines()[-1] == "result: black wins (three in a row on E3 E4 E5)"
    finished = invoke("line", "5/5/b1w2/bw3/bw3 w")
    assert finished.stdout.splitlines()[7] == "Black has won (three in a row on A1 A2 A3)"
    assert finished.stdout.splitlines()[-1] == "result: black wins (three in a row on A1 A2 A3)"
    drawn = invoke("line", "start")
    assert drawn.stdout.splitlines()[-1] == "result: draw by repetition (the same position for the third time)"
    stopped = invoke("line", "start", "--max-plies", "2")
    assert stopped.stdout.splitlines()[-1] == "result: stopped (ply limit)"


def test_forced_moves_are_the_only_keeping_moves(tablebase):
    """A step is forced exactly when one move of the position before it keeps its value."""
    for position in [Position.parse(LONGEST), Position.parse("start"), *random_positions(12, seed=8)]:
        line = tablebase.line(position, max_plies=30)
        before = [line.position] + [step.position for step in line.steps[:-1]]
        for step, mover in zip(line.steps, before):
            value = tablebase.probe(mover).value
            keeping = [move for move in tablebase.moves(mover) if value == "loss" or move.value == value]
            assert step.forced == (len(keeping) == 1), (mover.fen(), step)


def test_forced_moves_are_marked(tables_env, tablebase):
    line = tablebase.line(LONGEST)
    forced = [ply for ply, step in enumerate(line.steps, 1) if step.forced]
    assert 0 < len(forced) < 51
    result = invoke("line", LONGEST)
    rows = _rows(result.stdout)
    assert [ply for ply, row in enumerate(rows, 1) if re.match(r"\s*\d+\.(\.\.)?\s+\S+ !", row)] == forced
    assert "! the only move that keeps the value" in result.stdout
    answer = json.loads(invoke("line", LONGEST, "--json").stdout)
    assert [move["ply"] for move in answer["moves"] if move["forced"]] == forced
    assert [move["number"] for move in answer["moves"][:3]] == [1, 1, 2]
    assert answer["movetext"].startswith("1. A1-A4 A5-E5 2. A4-E4")
    assert answer["reason"] == "three in a row on E3 E4 E5"
