"""Annotating NECNON games: known point-losing turns marked, every value against a fresh probe, the
summaries, the JSON, the chart, and a board without a table judged by the search engine."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ElementTree

import pytest

from solver.cli import group
from solver.core.answers.marks import Mark
from solver.necnon.drawing import chart
from solver.necnon.model.position import Position
from solver.necnon.playing.annotate import annotate, annotation_object
from solver.necnon.playing.record import GameRecord, parse_record
from solver.necnon.querying.judge import EngineJudge, TableJudge
from solver.necnon.querying.probe import Tablebase
from tests.helpers import assert_one_line_error, invoke

cli = group("necnon")

SVG = "{http://www.w3.org/2000/svg}"
# Found against query's rankings on 3 x 3 under NEC (the empty board: Green by 1 in 5 turns):
# 2. a1,c3??  Green gives two points away: -1 -> +1 (26 of the 28 turns keep -1)        blunder
BLUNDER = '[Board "3x3"]\n1. b2 2. a1,c3 3. b1,c1 4. a2,a3 5. c2 6. b3'
# 2. b1,a2?  Green gives one point away: -1 -> 0                                        mistake
MISTAKE = '[Board "3x3"]\n1. c3 2. b1,a2'
# 2. b1,a2?!  Green keeps -1 but lets Black delay: Green by 1 in 4 turns -> in 6        inaccuracy
INACCURACY = '[Board "3x3"]\n1. a1 2. b1,a2'


def necnon(*args: str, input: str | None = None):
    return invoke(*args, input=input, program=cli)


def judged(tables, text):
    with Tablebase(tables) as tablebase:
        return annotate(TableJudge(tablebase), parse_record(text))


def test_a_known_blunder(necnon_tables):
    annotation = judged(necnon_tables, BLUNDER)
    turns = annotation.turns
    assert [(turn.number, turn.side, turn.play, turn.mark) for turn in turns] == [
        (1, "black", "b2", Mark.BEST), (2, "green", "a1,c3", Mark.BLUNDER), (3, "black", "b1,c1", Mark.BEST),
        (4, "green", "a2,a3", Mark.BEST), (5, "black", "c2", Mark.BEST), (6, "green", "b3", Mark.BEST)]
    blunder = turns[1]
    assert (blunder.before.margin, blunder.after.margin, blunder.given) == (-1, 1, 2)
    assert (blunder.values.keeping, blunder.values.legal) == (26, 28)
    assert annotation.first_point_lost is blunder and annotation.errors() == [blunder]
    assert blunder.verdict().startswith("2. a1,c3?? a blunder: gave 2 points away (-1 -> +1); a1,b1 a1,c1")
    black, green = annotation.summary("black"), annotation.summary("green")
    assert (black.turns, black.best, black.given) == (3, 3, 0)
    assert (green.turns, green.best, green.blunders, green.given) == (3, 2, 1, 2)
    assert annotation.record.result == "Black wins by 1" and annotation.end_value.margin == 1


def test_every_value_agrees_with_a_fresh_probe(necnon_tables):
    annotation = judged(necnon_tables, BLUNDER)
    with Tablebase(necnon_tables) as tablebase:
        for turn in annotation.turns:
            ranked = tablebase.turns(turn.position)
            played = next(entry for entry in ranked if entry.name == turn.play)
            assert turn.before.evaluation == tablebase.probe(turn.position) == ranked[0].evaluation
            assert turn.after.evaluation == played.evaluation
            black = turn.side == "black"
            assert turn.given == tablebase.probe(turn.position).gain(black) - played.evaluation.gain(black)
            assert turn.values.legal == len(ranked) == len(turn.position.turns())


@pytest.mark.parametrize("text, mark, given", [(MISTAKE, Mark.MISTAKE, 1), (INACCURACY, Mark.INACCURACY, 0)])
def test_a_mistake_and_an_inaccuracy(necnon_tables, text, mark, given):
    second = judged(necnon_tables, text).turns[1]
    assert (second.mark, second.given) == (mark, given)
    assert second.after.turns != second.before.turns if mark is Mark.INACCURACY else second.after.margin == 0


def test_perfect_play_is_all_best(necnon_tables):
    with Tablebase(necnon_tables) as tablebase:
        for board in ("3x3", "hex2"):
            start = Position.empty(parse_record(f'[Board "{board}"]').start.game)
            line = tablebase.line(start)
            annotation = annotate(TableJudge(tablebase), GameRecord(start, tuple(step.turn for step in line.steps)))
            assert all(turn.mark is Mark.BEST for turn in annotation.turns) and annotation.first_point_lost is None
            assert annotation.record.result == line.result


def test_json_schema(necnon_env):
    """``annotate --json`` is :func:`annotation_object`, with the keys and types the user guide documents."""
    result = necnon("annotate", "-", "--json", input=BLUNDER)
    assert result.exit_code == 0, result.stderr
    answer = json.loads(result.stdout)
    assert answer == annotation_object(judged(necnon_env, BLUNDER))
    assert list(answer) == ["board", "protocol", "start", "judge", "exact", "value", "turns", "game", "summary",
                            "first_point_lost", "end", "result"]
    assert (answer["board"], answer["protocol"], answer["start"], answer["judge"], answer["exact"]) == \
        ("3x3", "nec", "3/3/3 b", "the table", True)
    second = answer["game"][1]
    assert list(second) == ["turn", "by", "play", "position", "before", "after", "given", "mark", "best", "keeping",
                            "legal"]
    assert second == {"turn": 2, "by": "green", "play": "a1,c3", "position": "3/1b1/3 g",
                      "before": {"value": -1, "turns": 4}, "after": {"value": 1, "turns": 5}, "given": 2,
                      "mark": "blunder", "best": second["best"], "keeping": 26, "legal": 28}
    assert len(second["best"]) == 26 and "a1,c3" not in second["best"]
    assert answer["summary"]["green"] == {"turns": 3, "best": 2, "inaccuracies": 0, "mistakes": 0, "blunders": 1,
                                          "given": 2}
    assert answer["first_point_lost"] == 2
    assert answer["end"] == {"position": "ggg/gbb/gbb b", "to_move": "black", "over": True, "value": 1, "turns": 0}
    assert answer["result"] == "Black wins by 1"


def test_text_and_chart(necnon_env, tmp_path):
    result = necnon("annotate", "-", "--svg", str(tmp_path / "chart.svg"), input=MISTAKE)
    assert result.exit_code == 0, result.stderr
    text = result.stdout
    assert "judged by the table" in text and "2.  b1,a2?" in text and "mistake" in text
    assert "first point lost: Green's 2. b1,a2? a mistake: gave 1 point away (-1 -> 0)" in text
    assert "result: not over; Black to move" in text
    root = ElementTree.parse(tmp_path / "chart.svg").getroot()
    roles = [group.get("class") for group in root.iter(f"{SVG}g")]
    assert roles.count("position") == 3 and roles.count("turn mistake") == 1 and roles.count("turn best") == 1
    scene = chart.value_history(judged(necnon_env, BLUNDER))
    assert "6 turns, Black wins by 1" in scene.title


def test_a_board_without_a_table_is_judged_by_the_engine(necnon_env):
    """hex4 has no table (it is too large to solve): the engine judges, reproducibly with --iterations,
    and the output says that its values are estimates."""
    args = ("annotate", "-", "--iterations", "100", "--seed", "3")
    game = '[Board "hex4"]\n1. d4 2. a1,a2'
    text = necnon(*args, input=game)
    assert text.exit_code == 0, text.stderr
    assert "judged by the search engine, 100 playouts a position: values are estimates" in text.stdout
    answer = json.loads(necnon(*args, "--json", input=game).stdout)
    assert answer["exact"] is False and answer["judge"] == "the search engine, 100 playouts a position"
    assert answer["turns"] is None and all(turn["keeping"] is None and len(turn["best"]) == 1
                                           for turn in answer["game"])
    assert answer == json.loads(necnon(*args, "--json", input=game).stdout)
    assert [turn["legal"] for turn in answer["game"]] == [37, 630]


@pytest.mark.kernel
def test_the_engine_values_its_own_choice_as_the_position():
    """A turn the engine would have made gives nothing away; a finished game's value is its score."""
    start = parse_record('[Board "hex3"]').start
    judge = EngineJudge(start.game, seed=1, iterations=50)
    first = judge.judge(start, start.turns()[-1])
    own = judge.judge(start, start.parse_turn(first.best[0]))  # the position is searched once
    assert own.after == own.before == first.before and own.best == first.best
    ended = parse_record('[Board "2x2"]\n1. a1 2. a2,b2 3. b1').end
    assert ended.over and judge.value(ended).margin == ended.margin()


def test_a_missing_table_or_board_beyond_solving(necnon_env, tmp_path):
    assert_one_line_error(necnon("annotate", "-", "--table", str(tmp_path / "none.h5"), input=MISTAKE),
                          "none.h5", code=1, program="necnon")
    assert_one_line_error(necnon("annotate", "-", "--build", input='[Board "hex4"]\nd4'), "hex4", "at most 30",
                          code=2, program="necnon")


@pytest.mark.parametrize("record", ["", '[Board "3x3"]\n'])
def test_a_record_without_a_turn_is_refused(fresh_tables, record):
    """Nothing to annotate: one line, exit 2, before any table is read or built."""
    assert_one_line_error(necnon("annotate", "-", input=record), "standard input holds no turn to annotate",
                          code=2, program="necnon")
    assert not fresh_tables.exists()
