"""Annotating games: marks of every kind on hand-made games, summaries, the JSON, the chart, and play's
coach and end screen."""

from __future__ import annotations

import json
import struct
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from solver.core.answers.marks import Mark
from solver.core.errors import IllegalMoveError
from solver.neutreeko.drawing import chart
from solver.neutreeko.model.position import Position
from solver.neutreeko.model.values import DRAW, Evaluation
from solver.neutreeko.playing.annotate import annotate, annotation_object, mark_of
from solver.neutreeko.playing.record import read_moves
from tests.helpers import START, assert_one_line_error, invoke

SVG = "{http://www.w3.org/2000/svg}"
# Every kind of mark, checked against the rankings query prints for these positions:
# 1. C4-C3?  draw -> loses in 4 (B1-C1, D1-C1 keep the draw)          mistake
# 1... B5-A4??  White wins in 3 (B5-B2, D5-D2) -> loses in 8          blunder
# 2. D1-C1?!  Black wins in 7 (D1-D4) -> wins in 17                    inaccuracy
# 2... A4-A5?!  White loses in 16 (A4-A1) -> loses in 2                inaccuracy
# 3. C3-A1  wins in 1, three in a row on A1 B1 C1                      best
EVERY_MARK = "1. C4-C3 B5-A4 2. D1-C1 A4-A5 3. C3-A1"
# 1... C2-C1?  White wins in 3 -> draw                                 mistake (a win thrown away)
WIN_TO_DRAW = "1. C4-C3 C2-C1"


def judged(tablebase, text, start=START):
    position = Position.parse(start)
    return annotate(tablebase, position, read_moves(position, text))


def test_marks_from_evaluations():
    win, loss = Evaluation.win, Evaluation.loss
    cases = [(win(5), win(5), Mark.BEST), (win(5), win(7), Mark.INACCURACY), (win(5), DRAW, Mark.MISTAKE),
             (win(5), loss(2), Mark.BLUNDER), (DRAW, DRAW, Mark.BEST), (DRAW, loss(22), Mark.MISTAKE),
             (loss(8), loss(8), Mark.BEST), (loss(8), loss(2), Mark.INACCURACY), (loss(0), loss(0), Mark.BEST)]
    for before, after, mark in cases:
        assert mark_of(before, after) is mark
    for before, after in [(win(5), win(3)), (DRAW, win(1)), (loss(4), loss(6)), (loss(4), DRAW)]:
        with pytest.raises(ValueError):
            mark_of(before, after)
    assert [mark.symbol for mark in Mark] == ["", "?!", "?", "??"]


def test_every_kind_of_mark(tablebase):
    annotation = judged(tablebase, EVERY_MARK)
    plies = annotation.plies
    assert [(ply.number, ply.side, ply.move, ply.mark) for ply in plies] == [
        ("1.", "black", "C4-C3", Mark.MISTAKE), ("1...", "white", "B5-A4", Mark.BLUNDER),
        ("2.", "black", "D1-C1", Mark.INACCURACY), ("2...", "white", "A4-A5", Mark.INACCURACY),
        ("3.", "black", "C3-A1", Mark.BEST)]
    assert [(ply.before, ply.after) for ply in plies] == [
        (DRAW, Evaluation.loss(4)), (Evaluation.win(3), Evaluation.loss(8)), (Evaluation.win(7), Evaluation.win(17)),
        (Evaluation.loss(16), Evaluation.loss(2)), (Evaluation.win(1), Evaluation.win(1))]
    assert [ply.best for ply in plies] == [("B1-C1", "D1-C1"), ("B5-B2", "D5-D2"), ("D1-D4",), ("A4-A1",), ("C3-A1",)]
    assert [(ply.keeping, ply.legal) for ply in plies[:2]] == [(2, 14), (2, 15)]
    # Every value and count agrees with a fresh probe of each position.
    for ply in plies:
        ranked = tablebase.moves(ply.position)
        assert ply.before == tablebase.probe(ply.position) == ranked[0].evaluation
        assert ply.legal == len(ranked) and ply.keeping == sum(move.value == ply.before.value for move in ranked)
    assert annotation.first_error is plies[0]
    assert annotation.errors() == [plies[0], plies[1]]
    black, white = annotation.summary("black"), annotation.summary("white")
    assert (black.moves, black.kept, black.best, black.inaccuracies, black.mistakes, black.blunders) == (3, 2, 1, 1, 1, 0)
    assert (white.moves, white.kept, white.best, white.inaccuracies, white.mistakes, white.blunders) == (2, 1, 0, 1, 0, 1)
    assert annotation.result == "black wins" and annotation.end_evaluation == Evaluation.loss(0)


def test_a_win_thrown_away_to_a_draw(tablebase):
    plies = judged(tablebase, WIN_TO_DRAW).plies
    assert [(ply.mark, ply.after) for ply in plies] == [(Mark.MISTAKE, Evaluation.loss(4)), (Mark.MISTAKE, DRAW)]
    assert plies[1].verdict() == "1... C2-C1? a mistake: win in 3 -> draw; best B5-B2 D5-D2 (win in 3)"
    assert judged(tablebase, WIN_TO_DRAW).result == "*"


def test_perfect_play_is_all_best(tablebase):
    line = tablebase.line(Position.parse(START))
    annotation = annotate(tablebase, line.position, [step.move for step in line.steps])
    assert all(ply.mark is Mark.BEST for ply in annotation.plies) and annotation.first_error is None
    assert annotation.result == "draw by repetition"


def test_moves_after_the_end_are_refused(tablebase):
    start = Position.parse(START)
    with pytest.raises(IllegalMoveError, match="after the end of the game"):
        annotate(tablebase, start, ["B1-A2", "B5-A4", "A2-B1", "A4-B5"] * 2 + ["B1-A2"])
    with pytest.raises(IllegalMoveError, match="B1-B2"):
        annotate(tablebase, start, ["B1-B2"])


def test_json_schema(tables_env, tablebase):
    """``annotate --json`` is :func:`annotation_object`, with the keys and types the user guide documents."""
    result = invoke("annotate", "-", "--json", input=EVERY_MARK)
    assert result.exit_code == 0, result.stderr
    answer = json.loads(result.stdout)
    assert answer == annotation_object(judged(tablebase, EVERY_MARK))
    assert list(answer) == ["board", "rule", "start", "value", "plies", "moves", "summary", "first_error", "end",
                            "result"]
    assert (answer["board"], answer["start"], answer["value"], answer["plies"]) == ("5x5", START, "draw", None)
    first = answer["moves"][0]
    assert list(first) == ["ply", "number", "side", "move", "position", "before", "after", "mark", "best",
                           "keeping", "legal"]
    assert first == {"ply": 1, "number": "1.", "side": "black", "move": "C4-C3", "position": START,
                     "before": {"value": "draw", "plies": None}, "after": {"value": "loss", "plies": 4},
                     "mark": "mistake", "best": ["B1-C1", "D1-C1"], "keeping": 2, "legal": 14}
    assert [move["mark"] for move in answer["moves"]] == ["mistake", "blunder", "inaccuracy", "inaccuracy", "best"]
    assert answer["summary"]["white"] == {"moves": 2, "kept": 1, "best": 0, "inaccuracies": 1, "mistakes": 0,
                                          "blunders": 1}
    assert answer["first_error"] == 1
    assert answer["end"] == {"position": "w2w1/5/5/2w2/bbb2 w", "to_move": "white", "value": "loss", "plies": 0}
    assert answer["result"] == "black wins"


def test_text_and_chart(tables_env, tmp_path):
    record = tmp_path / "game.txt"
    record.write_text(f'[Black "Ann"]\n[White "Bo"]\n\n{EVERY_MARK}\n')
    result = invoke("annotate", str(record), "--svg", str(tmp_path / "chart.svg"), "--png", str(tmp_path / "chart.png"))
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "Neutreeko 5x5 connected, from the start; Black: Ann; White: Bo"
    assert lines[2].split()[:5] == ["1.", "C4-C3?", "draw", "loses", "in"] and "mistake" in lines[2]
    assert "B5-A4??" in lines[3] and "blunder" in lines[3]
    assert "Black: 3 moves, 2 kept the value (1 best, 1 inaccuracy), 1 mistake, 0 blunders" in lines
    assert "first decisive error: Black's 1. C4-C3? a mistake: draw -> loss in 4; best B1-C1 D1-C1 (draw)" in lines
    assert lines[-1] == "result: black wins (three in a row on A1 B1 C1)"
    root = ElementTree.parse(tmp_path / "chart.svg").getroot()
    roles = [group.get("class") for group in root.iter(f"{SVG}g")]
    assert roles.count("move mistake") == 1 and roles.count("move blunder") == 1
    assert roles.count("move inaccuracy") == 2 and roles.count("move best") == 1
    assert sum(role.startswith("position ") for role in roles) == 6  # the start and after each ply
    data = (tmp_path / "chart.png").read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", data[16:24]) == (int(root.get("width")),
                                                                                     int(root.get("height")))


def test_chart_places_positions_by_value(tablebase):
    """Dots: draws on the centre line, a win on its winner's side, as far in as its plies."""
    scene = chart.value_history(judged(tablebase, EVERY_MARK))
    dots = [group for group in scene.shapes if getattr(group, "role", "").startswith("position ")]
    xs = [dot.shapes[0].cx for dot in dots]
    centre = scene.width / 2
    assert xs[0] == pytest.approx(centre, abs=1)  # the start: a draw
    assert xs[1] > centre and xs[2] < centre  # White wins in 3, then Black wins in 7
    assert xs[5] < xs[4] < xs[2] < xs[3] < centre  # Black wins in 7, White loses in 16, then 1, then 0


def test_bad_annotate_input(tables_env, tmp_path):
    assert_one_line_error(invoke("annotate", "-", input="1. C4-C3 D5-D2 2. B1-B2"), "line 1", "B1-B2", code=2)
    assert_one_line_error(invoke("annotate", "-", "--png", str(tmp_path / "a.svg"), input=EVERY_MARK), "a.svg",
                          code=2)
    assert not (tmp_path / "a.svg").exists()



@pytest.mark.parametrize("record", ["", "\n\n", '[White "Ann"]\n'])
def test_a_record_without_a_move_is_refused(fresh_tables, tmp_path, monkeypatch, record):
    """Nothing to annotate: one line, exit 2, before any table is read or built."""
    assert_one_line_error(invoke("annotate", "-", input=record), "standard input holds no move to annotate", code=2)
    monkeypatch.chdir(tmp_path)
    Path("game.txt").write_text(record)
    assert_one_line_error(invoke("annotate", "game.txt"), "'game.txt' holds no move to annotate", code=2)
    assert not fresh_tables.exists()


# -- play ---------------------------------------------------------------------------------------------

def test_coach_and_every_mistake_at_the_end(tables_env):
    """--coach judges each of the person's moves at once; the end lists the mistakes of both sides."""
    result = invoke("play", "--as", "both", "--coach", input="\n".join(EVERY_MARK.split()[i] for i in (1, 2, 4, 5, 7)))
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    coach = [line for line in lines if line.startswith("coach: ")]
    assert coach == ["coach: 1. C4-C3? a mistake: draw -> loss in 4; best B1-C1 D1-C1 (draw)",
                     "coach: 1... B5-A4?? a blunder: win in 3 -> loss in 8; best B5-B2 D5-D2 (win in 3)",
                     "coach: 2. D1-C1?! an inaccuracy: win in 7 -> win in 17; best D1-D4 (win in 7)",
                     "coach: 2... A4-A5?! an inaccuracy: loss in 16 -> loss in 2; best A4-A1 (loss in 16)",
                     "coach: 3. C3-A1 best: wins in 1 (11 of 13 moves keep the win)"]
    end = lines.index("mistakes and blunders:")
    assert lines[end + 1:end + 3] == ["  Black 1. C4-C3? a mistake: draw -> loss in 4; best B1-C1 D1-C1 (draw)",
                                      "  White 1... B5-A4?? a blunder: win in 3 -> loss in 8; best B5-B2 D5-D2 (win in 3)"]
    assert "coach" not in invoke("play", "--as", "both", input="C4-C3\n").stdout
