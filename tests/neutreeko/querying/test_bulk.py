"""Bulk queries with moves: the vectorised moves equal the position model's, and ``query - --with-moves``
answers exactly as single queries do, with no numba on its path."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

from solver.core.answers.console import MAX_LINE_BYTES
from solver.core.errors import InputError
from solver.neutreeko.model.children import children
from solver.neutreeko.model.game import Game
from solver.neutreeko.model.position import Position, random_positions
from solver.neutreeko.querying import bulk
from solver.neutreeko.querying.bulk import BATCH_LINES, LINES_PER_CHUNK, _regular, answer_lines, default_batch_lines
from solver.neutreeko.querying.probe import Tablebase
from solver.neutreeko.querying.report import query_object
from solver.neutreeko.tables.build import build_table


@pytest.mark.parametrize("board, rule", [("5x5", "connected"), ("4x4", "connected"), ("3x3", "connected"),
                                         ("7x7", "connected"), ("6x4", "diagonal"), ("5x5", "centre"),
                                         ("8x8", "connected"), ("9x9", "orthogonal"), ("9x7", "equidistant")])
def test_children_equal_the_position_model(board, rule):
    """Every move, in order, and the index after it, as :meth:`Position.children` gives them, on random
    positions and on positions whose other side has already won (no moves)."""
    game = Game.of(board, rule)
    positions = random_positions(game, 400, seed=3)
    won = [position for position in positions if position.winner()]
    assert won or board in ("7x7", "8x8", "9x9", "9x7")  # positions with no move among them (large boards have few)
    moves = children(game, [position.mover for position in positions], [position.other for position in positions])
    for row, position in enumerate(positions):
        expected = [(move.origin, move.target, after.index()) for move, after in position.children()]
        legal = moves.legal[row]
        assert list(zip(moves.origin[row][legal].tolist(), moves.target[row][legal].tolist(),
                        moves.after[row][legal].tolist())) == expected
        assert (moves.origin[row][~legal] == -1).all() and (moves.after[row][~legal] == -1).all()


def single(tablebase: Tablebase, game: Game, line: str) -> dict:
    """What ``query LINE --json`` answers, or None for a line it refuses."""
    position = Position.parse(line, game=game)
    return query_object(position, tablebase.probe(position), tablebase.moves(position))


def awkward_lines(game: Game) -> list[str]:
    """Lines the regular form does not take, but the notation does: each goes the careful way. (A rank
    has no other form than the shortest: no leading zeros, and the side to move is lower case.)"""
    return ["start", "START", " 1w1w1/2b2/5/2w2/1b1b1   b ", "b4/1b3/2b2/w4/w3w w"] \
        if str(game.board) == "5x5" else ["start"]


@pytest.fixture(scope="module")
def tables_9x3(tmp_path_factory) -> Path:
    """A directory holding ``neutreeko-9x3.h5``: ranks of nine files, whose text takes over 8 bytes."""
    directory = tmp_path_factory.mktemp("tables-9x3")
    build_table(Game.of("9x3"), directory / "neutreeko-9x3.h5")
    return directory


@pytest.mark.parametrize("board", ["5x5", "4x4", "9x3"])
def test_bulk_with_moves_equals_single_queries(board, tablebase, tables_4x4, tables_9x3):
    game = Game.of(board)
    base = {"5x5": tablebase, "4x4": Tablebase(tables_4x4), "9x3": Tablebase(tables_9x3)}[board]
    lines = [position.fen() for position in random_positions(game, 1500, seed=11)] + awkward_lines(game)
    answers = answer_lines(lines, base, game, with_moves=True)
    assert answers.errors == 0
    for line, text in zip(lines, answers.texts):
        assert text == json.dumps(single(base, game, line)), line


def test_bulk_with_moves_in_chunks_and_bad_lines(tablebase):
    """Bad lines get their error objects in place; a position with no moves has an empty list."""
    game = Game.of("5x5")
    lines = ["b4/1b3/2b2/w4/w3w w", "", "x4/5/5/5/5 b", "bbb2/5/5/5/www2 b", "1w1w1/2b2/5/2w2/1b1b1 b"]
    answers = answer_lines(lines, tablebase, game, with_moves=True, first=7)
    objects = [json.loads(text) for text in answers.texts]
    assert answers.errors == 3
    assert objects[0]["moves"] == [] and objects[0]["value"] == "loss" and objects[0]["plies"] == 0
    assert objects[1] == {"line": 8, "input": "", "error": "empty line"}
    assert objects[2]["line"] == 9 and objects[3]["line"] == 10 and "winning triple" in objects[3]["error"]
    assert objects[4] == single(tablebase, game, lines[4])


def test_with_moves_does_not_import_numba(tables_5x5):
    code = ("import sys\nfrom solver.cli import cli\ntry:\n    cli(['query', '-', '--with-moves'])\n"
            "except SystemExit:\n    pass\nprint('numba' in sys.modules, file=sys.stderr)\n")
    done = subprocess.run([sys.executable, "-c", code], input="1w1w1/2b2/5/2w2/1b1b1 b\n", capture_output=True,
                          text=True, timeout=60, env={**os.environ, "NEUTREEKO_TABLES": str(tables_5x5)})
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["moves"][0]["move"] == "B1-C1"
    assert done.stderr.splitlines()[-1] == "False"


def mutants(lines: list[str], count: int, seed: int) -> list[str]:
    """``count`` lines, each one of ``lines`` with a character replaced, inserted or removed: text that
    is nearly notation, much of it still some position's, some of it in another form."""
    rng = np.random.default_rng(seed)
    alphabet = "0123456789bw/ xBW\t\u00e9\0"
    out = []
    for line in rng.choice(lines, count).tolist():
        place, char = int(rng.integers(0, len(line) + 1)), str(rng.choice(list(alphabet)))
        kind = int(rng.integers(0, 3))
        out.append(line[:place] + char + line[place + 1:] if kind == 0 else
                   line[:place] + char + line[place:] if kind == 1 else line[:place] + line[place + 1:])
    return out


@pytest.mark.parametrize("board", ["5x5", "9x3", "10x4", "3x10"])
def test_the_regular_form_is_exactly_the_notation_fen_writes(board):
    """A line takes the fast path exactly when it is a legal position written as ``Position.fen``
    writes it, whatever else it is (runs of ten squares, leading zeros, split runs, stray characters),
    and is decoded to that position."""
    game = Game.of(board)
    fens = [position.fen() for position in random_positions(game, 300, seed=3)]
    lines = fens + mutants(fens, 3000, seed=4) + ["start", "", " " + fens[0], fens[0] + " ", fens[0].upper()]
    expected = {}
    for number, line in enumerate(lines):
        try:
            position = Position.parse(line, game=game)
        except InputError:
            continue
        if position.fen() == line:
            expected[number] = position
    regular = _regular(lines, game)
    assert regular is not None and regular.rows == sorted(expected)
    assert 0 < len(expected) < len(lines)
    for row, black, white, to_move in zip(regular.rows, regular.black.tolist(), regular.white.tolist(),
                                          regular.black_to_move.tolist()):
        position = expected[row]
        assert (sorted(position.black), sorted(position.white), position.black_to_move) == (black, white, to_move)


def test_a_table_larger_than_the_cache_is_read_by_batches_of_lines_a_chunk(tablebase, monkeypatch):
    table = tablebase.table(Game.of("5x5"))
    assert default_batch_lines(table) == BATCH_LINES  # 3.5 MB: it fits the cache
    monkeypatch.setattr(bulk, "cache_limit", lambda: 0)
    assert default_batch_lines(table) == BATCH_LINES  # more than 64 lines for each of its 14 chunks
    monkeypatch.setattr(bulk, "BATCH_LINES", 10)
    assert table.chunks.count > 1 and default_batch_lines(table) == LINES_PER_CHUNK * table.chunks.count


def test_a_line_never_ending_is_cut_at_the_bound(tmp_path):
    """A line of standard input far over the bound, arriving in pieces through a pipe: ``query -`` keeps
    the bound and a byte of it (so that it is refused as too long), drops the rest, and reads on."""
    reading, writing = os.pipe()

    def write() -> None:
        with open(writing, "wb") as stream:
            for _ in range(3 * MAX_LINE_BYTES // 65536):
                stream.write(b"x" * 65536)
            stream.write(b"\nstart\nlast")

    writer = threading.Thread(target=write)
    writer.start()
    with open(reading) as stream:
        lines = [line for chunk in bulk.read_lines(stream) for line in chunk]
    writer.join(10)
    assert [len(line) for line in lines[:1]] == [MAX_LINE_BYTES + 1] and lines[1:] == ["start", "last"]
