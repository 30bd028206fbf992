"""Game records and move text: numbering, reading moves, round trips (write, read, replay), bad records."""

from __future__ import annotations

import copy
import pickle
import random

import pytest

from solver.core.answers.record import Variation
from solver.core.errors import IllegalMoveError, InputError, NotationError
from solver.neutreeko.model.game import Game
from solver.neutreeko.model.outcome import ending
from solver.neutreeko.model.position import Move, Position, random_positions
from solver.neutreeko.playing.record import (
    GameRecord,
    RecordError,
    numbered,
    parse_record,
    ply_label,
    read_moves,
    read_playable,
    read_record,
    read_variations,
)
from tests.helpers import START, assert_one_line_error, assert_record_refused, assert_round_trip, invoke

RULES_EXAMPLE = "1. C4-C3 D5-D2 2. D1-E1 B5-B2"  # the rules' example: White wins


def names(start: Position, text: str) -> list[str]:
    return [move.name(start.game.board) for move in read_moves(start, text)]


def random_moves(before: list[Position], rng: random.Random, limit: int) -> list[Move]:
    """Random legal moves after the positions ``before`` (a game's start and on), stopped at the game's
    end (a third occurrence counted from the start) or after ``limit`` plies."""
    moves, positions = [], list(before)
    while len(moves) < limit and ending(positions[-1], positions.count(positions[-1])) is None:
        moves.append(rng.choice(positions[-1].moves()))
        positions.append(positions[-1].play(moves[-1]))
    return moves


def random_game(start: Position, rng: random.Random, limit: int = 60) -> GameRecord:
    """A game of random legal moves from ``start``, stopped at its end or after ``limit`` plies."""
    return GameRecord(start, tuple(random_moves([start], rng, limit)),
                      (("Black", "person"), ("White", 'an "engine" \\ seed 3'), ("Event", "test")))


def random_variations(before: list[Position], moves: list[Move], rng: random.Random, depth: int) -> tuple[Variation, ...]:
    """Random variations of the line ``moves`` played after ``before``, in the order of their plies,
    some at the same ply, nested ``depth`` deep."""
    positions = list(before)
    for move in moves:
        positions.append(positions[-1].play(move))
    variations = []
    for ply in sorted(rng.sample(range(len(before), len(positions)), min(3, len(moves)))):
        for _ in range(rng.choice((1, 1, 2))):
            branch = random_moves(positions[:ply], rng, rng.randrange(1, 8))
            nested = random_variations(positions[:ply], branch, rng, depth - 1) if depth > 1 else ()
            variations.append(Variation(ply, tuple(branch), nested))
    return tuple(variations)


# -- numbering and move text ------------------------------------------------------------------------

def test_numbering():
    start = Position.parse(START)
    white_first = Position.parse("1w1w1/5/2b2/2w2/1b1b1 w")
    assert [ply_label(start, ply) for ply in range(1, 5)] == ["1.", "1...", "2.", "2..."]
    assert [ply_label(white_first, ply) for ply in range(1, 4)] == ["1...", "2.", "2..."]
    assert numbered(start, ["C4-C3", "D5-D2", "D1-E1"]) == ["1. C4-C3 D5-D2", "2. D1-E1"]
    assert numbered(white_first, ["D5-D2", "B1-C1", "B5-B2"]) == ["1... D5-D2", "2. B1-C1 B5-B2"]


@pytest.mark.parametrize("text", [
    "C4-C3 D5-D2 D1-E1 B5-B2", "c4-c3 d5-d2 d1-e1 b5-b2", RULES_EXAMPLE, "1.C4-C3 D5-D2 2.D1-E1 B5-B2",
    "1. C4-C3 1... D5-D2 2. D1-E1 2... B5-B2", "  1. C4-C3\n D5-D2\r\n2. D1-E1 B5-B2  ", "7. C4-C3 D5-D2 8. D1-E1 B5-B2",
])
def test_plain_and_numbered_moves_read_alike(text):
    """One parser: a plain list, numbered text (glued or not, from any first number) give the same moves."""
    assert names(Position.parse(START), text) == ["C4-C3", "D5-D2", "D1-E1", "B5-B2"]


def test_numbered_moves_when_white_begins():
    start = Position.parse("1w1w1/5/2b2/2w2/1b1b1 w")
    assert names(start, "1... D5-D2 2. B1-C1") == names(start, "D5-D2 B1-C1") == ["D5-D2", "B1-C1"]


@pytest.mark.parametrize("text, error, words", [
    ("1. C4-C3 D5-D2 3. D1-E1", RecordError, ["3.", "where 2. was expected"]),
    ("1. C4-C3 D5-D2 2.", RecordError, ["2.", "not followed by a move"]),
    ("1. 2. C4-C3", RecordError, ["1.", "not followed by a move"]),
    ("1. C4-C3 B1-B2", IllegalMoveError, ["B1-B2", "not legal"]),
    ("1. C4C3", NotationError, ["C4C3"]),
    ("1. C4-Z9", NotationError, ["Z9"]),
])
def test_bad_move_text(text, error, words):
    with pytest.raises(error) as raised:
        read_moves(Position.parse(START), text)
    for word in words:
        assert word in str(raised.value)


# -- round trips ------------------------------------------------------------------------------------

def test_record_text():
    start = Position.parse(START)
    record = GameRecord(start, tuple(read_moves(start, RULES_EXAMPLE)), (("Black", "Ann"), ("White", "Bo")))
    assert record.text() == ('[Board "5x5"]\n[Rule "connected"]\n[Black "Ann"]\n[White "Bo"]\n'
                             f'[Result "white wins"]\n\n{RULES_EXAMPLE}\n')
    assert record.result == "white wins" and record.end.winner() == "white"
    assert parse_record(RULES_EXAMPLE) == GameRecord(start, record.moves)  # a bare list of moves is a record


@pytest.mark.parametrize("board, rule", [("5x5", "connected"), ("4x4", "connected"), ("5x4", "orthogonal"),
                                         ("7x7", "centre"), ("3x3", "connected")])
def test_round_trip_random_games(board, rule, tmp_path):
    """Write, read, replay: random games from the start and from random positions (either side to
    move), with escaped tag values, come back equal through text and through a file."""
    game = Game.of(board, rule)
    rng = random.Random(f"{board} {rule}")
    for number, start in enumerate([Position.start(game), *random_positions(game, 8, seed=rng.randrange(100))]):
        record = random_game(start, rng)
        assert ('[Start "' in record.text()) == (start != Position.start(game))
        again = assert_round_trip(record, parse_record, tmp_path / f"game-{number}.txt", read_record)
        assert again.result == (record.outcome.result if record.outcome else "*")
    assert sorted(path.name for path in tmp_path.iterdir()) == [f"game-{n}.txt" for n in range(9)]  # no leftovers


def test_long_records_wrap_and_read_back():
    record = random_game(Position.parse(START), random.Random(4), limit=120)
    assert max(len(line) for line in record.text().splitlines()) <= 78
    assert parse_record(record.text()) == record


def test_repetition_ends_a_record():
    cycle = "B1-A2 B5-A4 A2-B1 A4-B5 "
    record = parse_record(f'[Result "draw by repetition"]\n{cycle * 2}')
    assert record.result == "draw by repetition" and len(record.moves) == 8
    with pytest.raises(RecordError, match=r"line 2: B1-A2 comes after the end of the game \(draw by repetition\)"):
        parse_record(f"# a comment\n{cycle * 2}B1-A2\n")


# -- variations -------------------------------------------------------------------------------------

NESTED = "1. C4-C3 (1. B1-C1 B5-A5 (1... C2-C3) 2. C1-A3) (1. D1-C1) 1... D5-D2 2. D1-E1"


def names_of(start: Position, moves: tuple[Move, ...]) -> list[str]:
    return [move.name(start.game.board) for move in moves]


def test_variations_nest_and_the_main_line_is_the_game():
    start = Position.parse(START)
    record = parse_record(f'[Black "a"]\n\n{NESTED}\n')
    assert record.names() == ["C4-C3", "D5-D2", "D1-E1"] and record.result == "*"
    first, second = record.variations
    assert (first.ply, names_of(start, first.moves)) == (1, ["B1-C1", "B5-A5", "C1-A3"])
    assert [(nested.ply, names_of(start, nested.moves)) for nested in first.variations] == [(2, ["C2-C3"])]
    assert (second.ply, names_of(start, second.moves), second.variations) == (1, ["D1-C1"], ())
    assert record.text().endswith(f"\n\n{NESTED}\n")  # written back as it was read
    plain = "C4-C3 (B1-C1 B5-A5 (C2-C3) C1-A3) (D1-C1) D5-D2 D1-E1"  # unnumbered, as a link has it
    assert read_variations(start, plain) == (record.moves, record.variations)
    assert read_moves(start, "1. C4-C3 D5-D2 2. D1-E1") == list(record.moves)


def test_a_variation_of_a_white_move_and_after_one_the_number_again():
    start = Position.parse(START)
    moves, variations = read_variations(start, "C4-C3 D5-D2 (B5-B2) D1-E1")
    assert GameRecord(start, moves, (), variations).text().endswith("\n1. C4-C3 D5-D2 (1... B5-B2) 2. D1-E1\n")
    moves, variations = read_variations(start, "C4-C3 (B1-C1) D5-D2")
    assert GameRecord(start, moves, (), variations).text().endswith("\n1. C4-C3 (1. B1-C1) 1... D5-D2\n")


@pytest.mark.parametrize("board, rule", [("5x5", "connected"), ("4x4", "connected"), ("5x4", "orthogonal")])
def test_round_trip_random_trees(board, rule, tmp_path):
    """Random games with random variations, nested three deep, from the start and from random
    positions: written, read back (through a file too) and written again, equal."""
    game = Game.of(board, rule)
    rng = random.Random(f"tree {board} {rule}")
    for number, start in enumerate([Position.start(game), *random_positions(game, 6, seed=rng.randrange(100))]):
        main = random_game(start, rng, limit=30)
        record = GameRecord(start, main.moves, main.tags, random_variations([start], list(main.moves), rng, 3))
        assert record.variations or not record.moves
        assert_round_trip(record, parse_record, tmp_path / f"tree-{number}.txt", read_record)


def nesting(variations: tuple[Variation, ...]) -> int:
    """How deep ``variations`` nest (1: none of them has its own)."""
    depth, level = 0, variations
    while level:
        depth, level = depth + 1, tuple(nested for variation in level for nested in variation.variations)
    return depth


def test_variations_nested_deeper_than_python_recurses_are_read_and_written():
    """1,200 variations each inside the one before, over lines of a record: read, written, read back."""
    text = "B1-C1 " + "\n".join(["(B1-C1 " * 100] * 12) + ")" * 1200 + " B5-A5\n"
    record = parse_record(text)
    assert record.names() == ["B1-C1", "B5-A5"] and nesting(record.variations) == 1200
    written = record.text()
    assert " ".join(written.split("\n\n")[1].split()) == "1. B1-C1 " + "(1. B1-C1 " * 1199 + "(1. B1-C1" + ")" * 1200 + " 1... B5-A5"
    assert parse_record(written).text() == written


def test_repetitions_are_counted_along_each_variation_alone():
    """A variation counts the positions of its own line only: neither the moves of its parent after it
    nor those of its sibling variations."""
    cycle = "B1-A2 B5-A4 A2-B1 A4-B5"
    # The start a third time at ply 8 on the main line, and in the variation of ply 5; not in that of ply 1.
    record = parse_record(f"B1-A2 ({cycle} B1-A2) B5-A4 A2-B1 A4-B5 B1-A2 ({cycle}) B5-A4 A2-B1 A4-B5 (A4-A5 D1-E1)")
    assert record.result == "draw by repetition" and [len(each.moves) for each in record.variations] == [5, 4, 2]
    with pytest.raises(RecordError, match="B1-A2 comes after the end of the game"):
        parse_record(f"{cycle} B1-A2 ({cycle} B1-A2) B5-A4")
    with pytest.raises(RecordError, match="B1-A2 comes after the end of the game"):
        parse_record(f"{cycle} {cycle} (A4-A5) B1-A2")


BAD_VARIATIONS = [
    ("1. C4-C3 D5-D2\n(1... B5-B2 2. B1-B2)", ["line 2", "B1-B2", "not legal", "in the variation at 1..."]),
    ("1. C4-C3 (1. B1-C1 (1. D1-C1 1... Q9-Q8)) D5-D2", ["line 1", "Q9", "in the variation at 1."]),
    ("1. C4-C3 (2. B1-C1) D5-D2", ["line 1", "2. where 1. was expected", "in the variation at 1."]),
    ("1. C4-C3 2. (1. B1-C1)", ["line 1", "2. where 1... was expected"]),
    (f"1. B1-C1 ({RULES_EXAMPLE} 3. B1-C1) B5-A5", ["line 1", "after the end of the game (white wins)",
                                                    "in the variation at 1."]),
]


@pytest.mark.parametrize("text, words", BAD_VARIATIONS)
def test_bad_variations_name_the_line_and_the_move(text, words):
    assert_record_refused(parse_record, text, words)


def test_read_playable_keeps_what_comes_before_the_first_refusal():
    """The explorer's links: read up to the first token refused, each variation open closed there."""
    start = Position.parse(START)
    moves, variations, refused = read_playable(start, "B1-C1 (C4-C3 D5-D2 C4-C9 B1-C1) B5-A5")
    assert names_of(start, moves) == ["B1-C1"] and refused.startswith("ply 3, C4-C9, cannot be played: ")
    assert [(each.ply, names_of(start, each.moves)) for each in variations] == [(1, ["C4-C3", "D5-D2"])]
    assert read_playable(start, "B1-C1 ) B5-A5")[2] == "ply 2, ), cannot be played: a ) closes no variation"
    assert read_playable(start, "B1-C1 (C4-C3 (")[:2] == read_variations(start, "B1-C1 (C4-C3)")
    won = "C4-C3 D5-D2 D1-E1 B5-B2"
    assert read_playable(start, f"{won} A1-A2")[2] == "ply 5, A1-A2, cannot be played: the game is over (white wins)"


def test_commands_read_the_main_line_of_a_record_with_variations(tables_env, tmp_path):
    """annotate judges, play --load continues and train --from-game replays the main line alone."""
    with_variations, main_line = tmp_path / "tree.txt", tmp_path / "main.txt"
    with_variations.write_text(NESTED + "\n")
    main_line.write_text("1. C4-C3 D5-D2 2. D1-E1\n")
    for command in (["annotate", "--json"], ["annotate"]):
        annotated = invoke(*command, str(with_variations))
        assert annotated.exit_code == 0, annotated.stderr
        assert annotated.stdout == invoke(*command, str(main_line)).stdout
    loaded = invoke("play", "--as", "both", "--load", str(with_variations), input="quit\n")
    assert loaded.exit_code == 0, loaded.stderr
    assert "The game goes on after 3 plies: 1. C4-C3 D5-D2 2. D1-E1" in loaded.stdout
    trained = invoke("train", "--from-game", str(with_variations), input="quit\n")
    assert trained.exit_code == 0, trained.stderr
    assert trained.stdout == invoke("train", "--from-game", str(main_line), input="quit\n").stdout.replace(
        str(main_line), str(with_variations))


# -- bad records ------------------------------------------------------------------------------------

BAD_RECORDS = [
    ('[Board "5x5"\n1. C4-C3', ["line 1", "tag"]),
    ('[Board 5x5]', ["line 1", "tag"]),
    ('[Black "a"]\n[Black "b"]', ["line 2", "Black", "twice"]),
    ('1. C4-C3\n[Black "a"]', ["line 2", "after the moves"]),
    ('[Board "12x12"]', ["line 1", "12x12"]),
    ('[Rule "square"]', ["line 1", "square"]),
    ('[Board "3x3"]\n[Rule "centre"]', ["line 2", "centre"]),
    ('[Start "5/5/5/5/5 b"]', ["line 1", "0 pieces"]),
    ('[Board "4x4"]\n[Start "1w1w1/2b2/5/2w2/1b1b1 b"]', ["line 2", "not 4x4"]),
    ('[Black "a"]\n\n1. C4-C3 D5-D2\n2. D1-E1 B1-B2', ["line 4", "B1-B2", "not legal"]),
    (f'{RULES_EXAMPLE} 3. B1-C1', ["line 1", "after the end of the game (white wins)"]),
    ('[Result "black wins"]\n' + RULES_EXAMPLE, ["line 1", "white wins"]),
    ('[Result "white wins"]\n1. C4-C3', ["line 1", "not over", '"*"']),
    ('[Result "1-0"]', ["line 1", "'1-0'", "black wins"]),
    ("1. C4-C3 3. D5-D2", ["line 1", "3. where 1... was expected"]),
]


@pytest.mark.parametrize("separator", ["\x85", "\u2028", "\u2029", "\v", "\f", "\x1c", "\x1d", "\x1e"])
def test_only_line_feeds_and_carriage_returns_end_a_line(separator):
    """str.splitlines would end a line at each of these: a record refuses them, as notation does, between
    moves or at the end of a line."""
    for text in (f"1. C4-C3{separator}D5-D2\n", f"1. C4-C3 D5-D2{separator}\n"):
        with pytest.raises(RecordError, match=rf"^line 1: move text .* \(U\+{ord(separator):04X}\) at column"):
            parse_record(text)


def test_lines_end_with_lf_crlf_or_cr():
    record = parse_record('[Black "a"]\r\n\r1. C4-C3\rD5-D2\n2. D1-E1 B5-B2')
    assert record.names() == ["C4-C3", "D5-D2", "D1-E1", "B5-B2"] and record.tag("Black") == "a"
    with pytest.raises(RecordError, match="^line 4: "):
        parse_record('[Black "a"]\r\n\r1. C4-C3\rD5-D2 Q9-Q8\n')


@pytest.mark.parametrize("text, words", BAD_RECORDS)
def test_bad_records_name_the_line(text, words):
    assert_record_refused(parse_record, text, words)


def test_bad_record_files_are_one_line_errors(tables_env, tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text('[Black "a"]\n1. C4-C3 Q9-Q8\n')
    assert_one_line_error(invoke("annotate", str(path)), str(path), "line 2", "Q9", code=2)
    assert_one_line_error(invoke("annotate", "-", input="1. C4-C3 2. B1-C1"), "standard input, line 1",
                          "2. where 1... was expected", code=2)
    assert_one_line_error(invoke("annotate", "-", input="C4-C3\x85D5-D2"), "standard input, line 1", "U+0085",
                          code=2)
    assert_one_line_error(invoke("annotate", str(tmp_path / "missing.txt")), "missing.txt", "No such file", code=2)
    path.write_bytes(b"\xff\xfe1. C4-C3")
    assert_one_line_error(invoke("annotate", str(path)), "cannot read", code=2)
    assert_one_line_error(invoke("play", "--load", str(tmp_path / "missing.txt")), "missing.txt", code=2)


def test_moves_option_takes_numbered_text(tables_env):
    """--moves of query, line and show read plain and numbered text alike."""
    for command in (["query", START, "--json"], ["line", START, "--json"], ["show", START]):
        plain = invoke(*command, "--moves", "C4-C3 D5-D2")
        assert plain.exit_code == 0, plain.stderr
        assert invoke(*command, "--moves", "1. C4-C3 D5-D2").stdout == plain.stdout
    assert_one_line_error(invoke("query", START, "--moves", "1. C4-C3 D5-D2 2."), "not followed by a move", code=2)


def test_errors_are_input_errors():
    assert issubclass(RecordError, InputError)


def test_a_record_reprs_its_moves_in_notation(tmp_path):
    """What ``read_record`` gives reads as move text, variations included, not as square numbers; the
    moves themselves stay plain :class:`Move` tuples (equal, hashable, unpackable)."""
    path = tmp_path / "game.txt"
    path.write_text('[Black "Ann"]\n\n1. C4-C3 (1. B1-C1) 1... D5-D2 2. D1-E1\n')
    record = read_record(path)
    assert repr(record) == ("GameRecord(start=Position('1w1w1/2b2/5/2w2/1b1b1 b'), "
                            "moves='1. C4-C3 (1. B1-C1) 1... D5-D2 2. D1-E1', tags=(('Black', 'Ann'),), result='*')")
    assert repr(GameRecord(Position.parse(START))) == "GameRecord(start=Position('1w1w1/2b2/5/2w2/1b1b1 b'), " \
                                                      "moves='', result='*')"
    origin, target = record.moves[0]
    assert record.moves[0] == Move(origin, target) and {record.moves[0]: 1}[Move(origin, target)] == 1
    assert repr(record.moves) == "Moves('C4-C3 D5-D2 D1-E1')" and record.moves == tuple(record.moves)
    assert copy.deepcopy(record) == record and pickle.loads(pickle.dumps(record.moves)) == record.moves
