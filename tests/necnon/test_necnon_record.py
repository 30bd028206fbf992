"""NECNON game records: the text written, round trips (write, read, replay), turn numbers, and bad records
(one line naming the line)."""

from __future__ import annotations

import random

import pytest

from solver.cli import group
from solver.core.answers.record import Variation
from solver.core.errors import IllegalMoveError
from solver.necnon.model.position import Position, Turn
from solver.necnon.model.rules import Game
from solver.necnon.playing.record import (
    GameRecord,
    RecordError,
    parse_record,
    read_playable,
    read_record,
    read_variations,
)
from tests.helpers import assert_one_line_error, assert_record_refused, assert_round_trip, invoke

cli = group("necnon")

GAME = Game.of("3x3", "nec")
# A whole game on 3 x 3: Green's a1,c3 gives two points away, and Black wins by 1.
WHOLE = "1. b2 2. a1,c3 3. b1,c1 4. a2,a3 5. c2 6. b3"


def necnon(*args: str, input: str | None = None):
    return invoke(*args, input=input, program=cli)


def random_game(start: Position, rng: random.Random, limit: int = 200) -> GameRecord:
    """A game of random legal turns from ``start``, to its end or ``limit`` turns."""
    turns, position = [], start
    while len(turns) < limit and not position.over:
        turn = rng.choice(position.turns())
        turns.append(turn)
        position = position.play(turn)
    return GameRecord(start, tuple(turns), (("Black", "person"), ("Green", 'an "engine" \\ seed 3'),
                                            ("Event", "test")))


def test_record_text():
    record = parse_record(f'[Board "3x3"]\n{WHOLE}')
    assert record.text() == ('[Board "3x3"]\n[Protocol "nec"]\n[Result "Black wins by 1"]\n\n'
                             f"{WHOLE}\n")
    assert record.result == "Black wins by 1" and record.end.over and record.end.margin() == 1
    named = GameRecord(record.start, record.turns, (("Green", "Bo"), ("Black", "Ann"), ("Date", "today")))
    assert named.text().splitlines()[2:6] == ['[Black "Ann"]', '[Green "Bo"]', '[Result "Black wins by 1"]',
                                              '[Date "today"]']


@pytest.mark.parametrize("text", [
    "b2 a1,c3 b1,c1", "1. b2 2. a1,c3 3. b1,c1", "1.b2 2.a1,c3 3.c1,b1", "  1. b2\n 2. A1,C3\r\n3. b1,c1  ",
    "# a comment\n\nb2\n2. a1,c3 b1,c1",
])
def test_plain_and_numbered_turns_read_alike(text):
    """One reader: a plain list, numbered turns (glued or not, any case, over lines) give the same game."""
    assert parse_record(f'[Board "3x3"]\n{text}').names() == ["b2", "a1,c3", "b1,c1"]


def test_a_bare_list_of_turns_is_a_game_on_the_default_board():
    record = parse_record("b2 a1,c3")
    assert str(record.start.game) == "4x4 nec" and record.start.first_turn and record.result == "*"
    assert parse_record('[Start "1b1/3/3 g"]\na1,c3').start.game.grid == GAME.grid  # the board of Start


@pytest.mark.parametrize("board, protocol", [("3x3", "nec"), ("hex2", "non"), ("3x2", "nec-non"), ("5x5", "non-nec"),
                                             ("hex4", "nec")])
def test_round_trip_random_games(board, protocol, tmp_path):
    """Write, read, replay: random games from the empty board and from positions met on the way (either
    side to move, after a pass too), with escaped tag values, come back equal through text and a file."""
    game = Game.of(board, protocol)
    rng = random.Random(f"{board} {protocol}")
    whole = random_game(Position.empty(game), rng)
    starts = [Position.empty(game), *rng.sample(whole.positions[1:-1], min(4, len(whole.positions) - 2))]
    for number, start in enumerate(starts):
        record = random_game(start, rng)
        assert ('[Start "' in record.text()) == (not start.first_turn)
        again = assert_round_trip(record, parse_record, tmp_path / f"game-{number}.txt", read_record)
        assert again.result == record.result
    assert sorted(path.name for path in tmp_path.iterdir()) == [f"game-{n}.txt" for n in range(len(starts))]


def test_a_game_stopped_before_its_end_reads_back_stopped():
    record = random_game(Position.empty(Game.of("hex3")), random.Random(1), limit=3)
    assert record.result == "*" and parse_record(record.text()) == record


# -- variations ---------------------------------------------------------------------------------

#: A tree on 3 x 3: two alternatives to Green's first turn, one with its own variation, and one to Black's.
TREE = "1. b2 2. a1,c3 (2. a1,b1 3. c1,a2 (3. a3,c3)) (2. b1,c1) 3. b1,c1 (3. a2,a3)"


def random_variations(before: list[Position], turns: tuple[Turn, ...], rng: random.Random,
                      depth: int) -> tuple[Variation[Turn], ...]:
    """Random variations of the line ``turns`` played after ``before``, in the order of their plies, some
    at the same ply, nested ``depth`` deep."""
    positions = list(before)
    for turn in turns:
        positions.append(positions[-1].play(turn))
    variations = []
    for ply in sorted(rng.sample(range(len(before), len(positions)), min(3, len(turns)))):
        for _ in range(rng.choice((1, 1, 2))):
            branch = random_game(positions[ply - 1], rng, limit=rng.randrange(1, 6)).turns
            nested = random_variations(positions[:ply], branch, rng, depth - 1) if depth > 1 else ()
            variations.append(Variation(ply, branch, nested))
    return tuple(variations)


def test_variations_nest_and_the_main_line_is_the_game():
    record = parse_record(f'[Board "3x3"]\n{TREE}')
    assert record.names() == ["b2", "a1,c3", "b1,c1"] and record.result == "*"
    grid = GAME.grid
    names = [(each.ply, [turn.name(grid) for turn in each.moves], len(each.variations)) for each in record.variations]
    assert names == [(2, ["a1,b1", "c1,a2"], 1), (2, ["b1,c1"], 0), (3, ["a2,a3"], 0)]
    nested = record.variations[0].variations[0]
    assert (nested.ply, [turn.name(grid) for turn in nested.moves]) == (3, ["a3,c3"])
    assert record.text().endswith(f"\n\n{TREE}\n")  # written back as it was read
    plain = "b2 a1,c3 (a1,b1 c1,a2 (a3,c3)) (b1,c1) b1,c1 (a2,a3)"  # unnumbered, as a link has it
    assert read_variations(Position.empty(GAME), plain) == (record.turns, record.variations)


@pytest.mark.parametrize("board, protocol", [("3x3", "nec"), ("hex2", "non"), ("4x3", "nec-non"), ("hex3", "nec")])
def test_round_trip_random_trees(board, protocol, tmp_path):
    """Random games with random variations, nested three deep, from the empty board and from positions
    met on the way: written, read back (through a file too) and written again, equal."""
    game = Game.of(board, protocol)
    rng = random.Random(f"tree {board} {protocol}")
    whole = random_game(Position.empty(game), rng)
    for number, start in enumerate([Position.empty(game), *rng.sample(whole.positions[1:-1], 3)]):
        main = random_game(start, rng, limit=12)
        record = GameRecord(start, main.turns, main.tags, random_variations([start], main.turns, rng, 3))
        assert record.variations
        assert_round_trip(record, parse_record, tmp_path / f"tree-{number}.txt", read_record)


def test_variations_nested_deeper_than_python_recurses_are_read_and_written():
    """1,200 variations each inside the one before, over lines of a record: read, written, read back."""
    record = parse_record('[Board "3x3"]\nb2 ' + "\n".join(["(a1 " * 100] * 12) + ")" * 1200 + " a1,c3\n")
    depth, level = 0, record.variations
    while level:
        depth, level = depth + 1, tuple(nested for variation in level for nested in variation.variations)
    assert record.names() == ["b2", "a1,c3"] and depth == 1200
    written = record.text()
    assert " ".join(written.split("\n\n")[1].split()) == "1. b2 " + "(1. a1 " * 1199 + "(1. a1" + ")" * 1200 + " 2. a1,c3"
    assert parse_record(written).text() == written


BAD_VARIATIONS = [  # each after [Board "3x3"] on line 1
    ("1. b2 2. a1,c3\n(2. b2,c1)", ["line 3", "b2 is occupied", "in the variation at turn 2"]),
    ("1. b2 (1. a1 (1. c3 2. q9)) 2. a1,c3", ["line 2", "q9", "in the variation at turn 1"]),
    ("1. b2 (2. a1) 2. a1,c3", ["line 2", "turn number 2. where 1. was expected", "in the variation at turn 1"]),
    ("1. b2 2. (2. a1,c3)", ["line 2", "turn number 2. is not followed by a turn"]),
    (f"1. b2 ({WHOLE} 7. pass) 2. a1,c3", ["line 2", "after the end of the game (Black wins by 1)",
                                           "in the variation at turn 1"]),
]


@pytest.mark.parametrize("text, words", BAD_VARIATIONS)
def test_bad_variations_name_the_line_and_the_turn(text, words):
    assert_record_refused(parse_record, f'[Board "3x3"]\n{text}', words)


def test_read_playable_keeps_what_comes_before_the_first_refusal():
    """The explorer's links: read up to the first token refused, each variation open closed there."""
    empty = Position.empty(GAME)
    turns, variations, refused = read_playable(empty, "b2 (a1 a2,b3 c9 b1) a1,c3")
    assert [turn.name(GAME.grid) for turn in turns] == ["b2"]
    assert refused == "turn 3, c9, cannot be played: turn 'c9': there is no cell c9 on the 3x3 board"
    assert [(each.ply, [turn.name(GAME.grid) for turn in each.moves]) for each in variations] == [(1, ["a1", "a2,b3"])]
    assert read_playable(empty, "b2 ) a1,c3")[2] == "turn 2, ), cannot be played: a ) closes no variation"
    assert read_playable(empty, "b2 (a1 (")[:2] == read_variations(empty, "b2 (a1)")
    assert read_playable(empty, f"{WHOLE} pass")[2] == "turn 7, pass, cannot be played: the game is over (Black wins by 1)"


# -- bad records: one line naming the line ---------------------------------------------------------

BAD_RECORDS = [
    ('[Board "3x3"\n1. b2', RecordError, ["line 1", "tag"]),
    ('[Black "a"]\n[Black "b"]', RecordError, ["line 2", "Black", "twice"]),
    ('1. b2\n[Black "a"]', RecordError, ["line 2", "after the moves"]),
    ('[Board "9x9"]', RecordError, ["line 1", "9x9"]),
    ('[Board "3x3"]\n[Protocol "necnon"]', RecordError, ["line 2", "necnon", "known"]),
    ('[Start "3/3/3 x"]', RecordError, ["line 1", "side to move"]),
    ('[Board "4x4"]\n[Start "1b1/3/3 g"]', RecordError, ["line 2", "3x3 board, not 4x4"]),
    ('[Board "3x3"]\n\n1. b2\n2. b2,c3', RecordError, ["line 4", "b2 is occupied"]),
    ('[Board "3x3"]\n1. b2 2. a1', RecordError, ["line 2", "lays two stones"]),
    ('[Board "3x3"]\n1. a1,b1', RecordError, ["line 2", "first turn lays one stone"]),
    ('[Board "3x3"]\n1. b2 3. a1,c3', RecordError, ["line 2", "turn number 3. where 2. was expected"]),
    ('[Board "3x3"]\n1. b2 1... a1,c3', RecordError, ["line 2", "1...", "where 2. was expected"]),
    ('[Board "3x3"]\n1. b2\n2.', RecordError, ["line 3", "2.", "not followed by a turn"]),
    ('[Board "3x3"]\n1. 2. b2', RecordError, ["line 2", "1.", "not followed by a turn"]),
    ('[Board "3x3"]\n1. b2 1234567. a1,c3', RecordError, ["line 2", "too large"]),
    ('[Board "3x3"]\n1. b2 2. a1,z9', RecordError, ["line 2", "no cell z9"]),
    (f'[Board "3x3"]\n{WHOLE} 7. pass', RecordError, ["line 2", "pass comes after the end of the game",
                                                        "Black wins by 1"]),
    (f'[Board "3x3"]\n[Result "draw"]\n{WHOLE}', RecordError, ["line 2", '[Result "draw"]',
                                                              "the game ends in Black wins by 1"]),
    ('[Board "3x3"]\n[Result "Green wins by 1"]\n1. b2', RecordError, ["line 2", "not over", '"*"']),
    ('[Result "1-0"]', RecordError, ["line 1", "'1-0'", "Black wins by N"]),
    ('[Board "3x3"]\n1. b2\u2028a1,c3', RecordError, ["line 2", "U+2028"]),
]


@pytest.mark.parametrize("text, error, words", BAD_RECORDS)
def test_bad_records_name_the_line(text, error, words):
    with pytest.raises(error) as raised:
        parse_record(text)
    for word in words:
        assert word in str(raised.value), (word, str(raised.value))
    assert "\n" not in str(raised.value)


def test_a_record_is_checked_when_made_in_code():
    with pytest.raises(ValueError, match="reserved"):
        GameRecord(Position.empty(GAME), (), (("Result", "draw"),))
    with pytest.raises(IllegalMoveError):
        GameRecord(Position.empty(GAME), (Position.empty(GAME).turns()[0],) * 2).positions


def test_bad_record_files_are_one_line_errors(necnon_env, tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text('[Board "3x3"]\n1. b2 2. b2,c3\n')
    assert_one_line_error(necnon("annotate", str(path)), f"{path}, line 2", "b2 is occupied", code=2,
                          program="necnon")
    assert_one_line_error(necnon("annotate", "-", input='[Board "3x3"]\n1. b2 3. a1,c3'),
                          "standard input, line 2", "where 2. was expected", code=2, program="necnon")
    assert_one_line_error(necnon("annotate", str(tmp_path / "missing.txt")), "missing.txt", "No such file", code=2,
                          program="necnon")
    path.write_bytes(b"\xff\xfe1. b2")
    assert_one_line_error(necnon("annotate", str(path)), "cannot read", "not UTF-8", code=2, program="necnon")
    assert_one_line_error(necnon("play", "--load", str(tmp_path / "missing.txt")), "missing.txt", code=2,
                          program="necnon")


def test_a_record_and_a_position_repr_in_notation():
    """A record reads as its turns written out, not as cell numbers; a position as its notation and game."""
    record = parse_record('[Board "3x3"]\n[Black "Ann"]\n1. b2 2. a1,c3')
    assert repr(record) == ("GameRecord(start=Position('3/3/3 b', game='3x3 nec'), turns='1. b2 2. a1,c3', "
                            "tags=(('Black', 'Ann'),), result='*')")
    assert repr(record.end) == "Position('2g/1b1/g2 b', game='3x3 nec')"
