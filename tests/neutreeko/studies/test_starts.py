"""Fair starts: the family, re-derived from the board's geometry; every listed start re-checked against
probes; the freedom figures recomputed by a slow search on 4 x 4; the command and play --start."""

from __future__ import annotations

import json
from itertools import combinations
from pathlib import Path

import pytest

from solver.neutreeko.model.game import Game
from solver.neutreeko.model.position import Position
from solver.neutreeko.querying.probe import Tablebase
from solver.neutreeko.studies.starts import fair_starts, family, starts_object
from tests.helpers import assert_one_line_error, invoke


def geometric_involutions(game: Game) -> list[dict[int, int]]:
    """The half turn and the mirrors of the board (the diagonal ones on a square board), from
    coordinates: each a map of squares."""
    board = game.board
    width, height = board.width, board.height
    maps = [lambda f, r: (width - 1 - f, height - 1 - r), lambda f, r: (width - 1 - f, r),
            lambda f, r: (f, height - 1 - r)]
    if width == height:
        maps += [lambda f, r: (r, f), lambda f, r: (width - 1 - r, height - 1 - f)]
    return [{board.square(f, r): board.square(*image(f, r)) for f in range(width) for r in range(height)}
            for image in maps]


def images(game: Game, mover: tuple[int, ...], other: tuple[int, ...]) -> tuple:
    """A key shared by the positions of one class: the smallest image, under the board's symmetries made
    from coordinates, of (mover's squares, other side's squares)."""
    board = game.board
    width, height = board.width, board.height
    transforms = [lambda f, r: (f, r), lambda f, r: (width - 1 - f, height - 1 - r), lambda f, r: (width - 1 - f, r),
                  lambda f, r: (f, height - 1 - r)]
    if width == height:
        transforms += [lambda f, r: (r, f), lambda f, r: (width - 1 - r, height - 1 - f),
                       lambda f, r: (width - 1 - r, f), lambda f, r: (r, height - 1 - f)]

    def moved(squares, transform):
        return tuple(sorted(board.square(*transform(board.file_of(s), board.rank_of(s))) for s in squares))

    return min((moved(mover, transform), moved(other, transform)) for transform in transforms)


def key(position: Position) -> tuple:
    return images(position.game, position.mover, position.other)


@pytest.mark.parametrize("board", ["5x5", "4x4", "5x4"])
def test_family_from_geometry(board):
    game = Game.of(board)
    expected = set()
    for mapping in geometric_involutions(game):
        for black in combinations(range(game.board.size), 3):
            white = tuple(sorted(mapping[square] for square in black))
            if not set(white) & set(black) and black not in game.winning_triples and white not in game.winning_triples:
                expected.add((black, white))
    found = family(game)
    assert {(position.black, position.white) for position in found} == expected
    assert all(position.black_to_move for position in found)
    assert (Position.start(game).black, Position.start(game).white) in expected  # the standard start is one


def slow_freedom(tablebase: Tablebase, position: Position, depth: int) -> tuple[list[int], int, int, int]:
    """(widths, first moves, first moves keeping the draw, those up to symmetry), by probing move by move."""
    frontier = {key(position): position}
    widths = []
    for _ in range(depth):
        reached = {}
        for current in frontier.values():
            for move in tablebase.moves(current):
                if move.value == "draw":
                    reached.setdefault(key(move.position), move.position)
        frontier = reached
        widths.append(len(frontier))
    moves = tablebase.moves(position)
    keeping = [move for move in moves if move.value == "draw"]
    return widths, len(moves), len(keeping), len({key(move.position) for move in keeping})


def test_starts_on_4x4_recomputed(tables_4x4):
    """Every listed start is a draw, of the family, one per class; its figures and its rank agree with
    a slow search; the counts agree with probing every candidate."""
    game, depth = Game.of("4x4"), 10
    tablebase = Tablebase(tables_4x4)
    found = fair_starts(tablebase, game, depth)
    members = {(position.black, position.white) for position in family(game)}
    evaluations = {position: tablebase.probe(position) for position in family(game)}
    drawn = {key(position) for position, value in evaluations.items() if value.value == "draw"}
    assert len(found.starts) == found.candidates.drawn_classes == len(drawn)
    assert found.candidates.drawn == sum(value.value == "draw" for value in evaluations.values())
    assert found.candidates.immediate_wins == sum(value.plies == 1 for value in evaluations.values())
    assert found.candidates.classes == len({key(position) for position in evaluations})
    assert {key(start.position) for start in found.starts} == drawn
    for start in found.starts:
        position = start.position
        assert tablebase.probe(position).value == "draw" and position.black_to_move
        assert (position.black, position.white) in members
        widths, legal, keeping, classes = slow_freedom(tablebase, position, depth)
        assert list(start.widths) == widths
        assert (start.first_moves, start.keeping, start.keeping_up_to_symmetry) == (legal, keeping, classes)
        assert start.forced == next((ply for ply, width in enumerate(widths) if width > 1), depth)
    ranked = sorted(found.starts, key=lambda s: (s.forced, -s.widths[-1], -s.keeping / s.first_moves,
                                                 s.position.fen()))
    assert list(found.starts) == ranked and [start.rank for start in found.starts] == list(range(1, len(ranked) + 1))
    assert found.standard is None and not found.standard_evaluation.value == "draw" and found.standard_in_family


def test_standard_start_rank_on_5x5(tablebase):
    found = fair_starts(tablebase, Game.of("5x5"))
    standard = found.standard
    assert standard is not None and standard.position == Position.parse("start")
    assert standard.forced == 15 and list(standard.widths) == [1] * 15 + [5]
    assert (standard.first_moves, standard.keeping, standard.keeping_up_to_symmetry) == (14, 2, 1)
    assert all(start.forced < 15 for start in found.starts[:standard.rank - 1])
    assert len({key(start.position) for start in found.starts}) == len(found.starts)
    assert all(tablebase.probe(start.position).value == "draw" for start in found.starts)


def test_starts_command(tables_env, tablebase, tmp_path):
    result = invoke("starts", "--json", "--count", "3", "--svg", str(tmp_path / "pictures"))
    assert result.exit_code == 0, result.stderr
    answer = json.loads(result.stdout)
    assert answer == starts_object(fair_starts(tablebase, Game.of("5x5")), 3)
    assert list(answer) == ["board", "rule", "depth", "candidates", "starts", "standard_rank", "standard"]
    assert [start["rank"] for start in answer["starts"]] == [1, 2, 3]
    assert list(answer["starts"][0]) == ["rank", "position", "standard", "first_moves", "keeping",
                                         "keeping_up_to_symmetry", "forced", "widths"]
    assert sorted(path.name for path in (tmp_path / "pictures").iterdir()) == \
        ["start-01.svg", "start-02.svg", "start-03.svg"]
    assert answer["starts"][0]["position"] in (tmp_path / "pictures" / "start-01.svg").read_text()
    text = invoke("starts").stdout
    rank = answer["standard_rank"]
    assert f"The standard start 1w1w1/2b2/5/2w2/1b1b1 b ranks {rank} of {answer['candidates']['drawn_classes']}" \
        in text
    assert len([line for line in text.splitlines() if line.strip()[:2].strip().isdigit()]) == 10


def test_play_from_fair_starts(tables_env, tablebase):
    found = fair_starts(tablebase, Game.of("5x5"))
    second = invoke("play", "--start", "fair:2", "--as", "none", "--opponent", "perfect")
    assert f"The game starts from {found.starts[1].position.fen()}." in second.stdout
    seeded = [invoke("play", "--start", "fair", "--seed", "5", "--as", "none", "--opponent", "random").stdout
              for _ in range(2)]
    assert seeded[0] == seeded[1]
    starts = {line for line in seeded[0].splitlines() if line.startswith("The game starts from")}
    assert starts <= {f"The game starts from {start.position.fen()}." for start in found.starts[:10]}


def test_bad_starts_options(tables_env, tmp_path: Path):
    assert_one_line_error(invoke("starts", "--count", "0"), "--count", code=2)
    (tmp_path / "file").write_text("")
    assert_one_line_error(invoke("starts", "--svg", str(tmp_path / "file")), "file", code=2)
