"""Board symmetries, canonical indices and symmetry-folded tables (issue 4).

Symmetry is checked against hand-written geometry; the solver is checked by symmetry (every image of a
position must have its value); folded tables must answer every probe exactly as full ones do.
"""

from __future__ import annotations

from functools import lru_cache

import h5py
import numpy as np
import pytest

from solver.core.errors import TableError
from solver.core.storage import container
from solver.core.storage.chunks import Chunks
from solver.neutreeko.model import index, symmetry
from solver.neutreeko.model.board import Board
from solver.neutreeko.model.game import Game
from solver.neutreeko.model.position import Position
from solver.neutreeko.model.rules import RULES, RuleError
from solver.neutreeko.model.symmetry import canonical_indices, class_sizes, images, symmetries, symmetry_count
from solver.neutreeko.model.values import ILLEGAL, UNDECIDED, Evaluation
from solver.neutreeko.solving.solve import solve
from solver.neutreeko.tables import folding
from solver.neutreeko.tables.folding import Classes, fold, unfold
from solver.neutreeko.tables.stats import summarize, summarize_folded_stretches
from solver.neutreeko.tables.table import open_table, write_folded_table, write_table
from tests.helpers import assert_one_line_error, invoke

pytestmark = pytest.mark.kernel

SMALL_BOARDS = ["3x3", "3x4", "4x3", "4x4"]
BOARDS = [Board(width, height) for width in range(3, 8) for height in range(3, 8)]
EVERY_BOARD = [Board(width, height) for width in range(3, 12) for height in range(3, 12)]


def _games(boards) -> list[Game]:
    games = []
    for board in boards:
        for rule in RULES:
            try:
                games.append(Game.of(board, rule))
            except RuleError:
                continue
    return games


@lru_cache(maxsize=None)
def _solved(board: str, rule: str) -> np.ndarray:
    return solve(Game.of(board, rule)).result


def _random_indices(game: Game, count: int, seed: int = 4) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, game.positions, count)


def _naive_maps(board: Board) -> set[tuple[int, ...]]:
    """The rotations and mirrors of the board, written out: flip files, flip ranks, and (square
    boards only) swap files with ranks."""
    width, height = board.width, board.height
    maps = set()
    for transpose in ((False, True) if width == height else (False,)):
        for flip_file in (False, True):
            for flip_rank in (False, True):
                table = []
                for square in range(board.size):
                    file, rank = square % width, square // width
                    file, rank = (width - 1 - file if flip_file else file), (height - 1 - rank if flip_rank else rank)
                    if transpose:
                        file, rank = rank, file
                    table.append(rank * width + file)
                maps.add(tuple(table))
    return maps


def _naive_image(game: Game, position_index: int, mapping) -> int:
    mover, other = index.decode(position_index, game.board.size)
    mover = sorted(int(mapping[square]) for square in mover)
    other = sorted(int(mapping[square]) for square in other)
    return int(index.encode(*mover, *other, index.other_count(game.board.size)))


# -- the symmetries -------------------------------------------------------------------------------

@pytest.mark.parametrize("board", BOARDS, ids=str)
def test_symmetries_are_the_rotations_and_mirrors(board):
    table = symmetries(board)
    assert symmetry_count(board) == (8 if board.width == board.height else 4)
    assert (table[0] == np.arange(board.size)).all()
    assert {tuple(int(square) for square in row) for row in table} == _naive_maps(board)
    rows = {tuple(row) for row in table}
    assert all(tuple(first[second]) in rows for first in table for second in table)  # a group


@pytest.mark.parametrize("game", _games(BOARDS), ids=str)
def test_every_rule_and_start_square_set_is_symmetric(game):
    """What folding relies on: a symmetry maps winning triples onto winning triples."""
    for mapping in symmetries(game.board):
        assert {tuple(sorted(int(mapping[s]) for s in triple)) for triple in game.winning_triples} \
            == set(game.winning_triples)


@pytest.mark.parametrize("board", ["5x5", "4x3", "7x7", "6x5", "9x9", "10x10"])
def test_images_match_the_naive_images(board):
    """Past 8 x 8 an index passes 2^31 (10 x 10's 23.8 billion): the images are computed in int64."""
    game = Game.of(board)
    indices = _random_indices(game, 300)
    computed = images(indices, game.board)
    for g, mapping in enumerate(symmetries(game.board)):
        assert list(computed[g]) == [_naive_image(game, int(i), mapping) for i in indices]


@pytest.mark.parametrize("board", ["3x4", "4x4", "5x3"])
def test_canonical_index_is_the_smallest_image_everywhere(board):
    game = Game.of(board)
    every = np.arange(game.positions)
    canonical = canonical_indices(every, game.board)
    assert (canonical == images(every, game.board).min(axis=0)).all()
    assert (canonical_indices(canonical, game.board) == canonical).all()
    sizes = class_sizes(every, game.board)
    assert set(np.unique(sizes)) <= {1, 2, 4, 8}
    assert sizes[canonical == every].sum() == game.positions  # the classes partition the indices


def test_canonical_indices_past_2_to_the_31():
    """On 10 x 10, one index at a time (the probes' path) and a row's worth at once (the unfolding's)
    give the smallest of the naive images."""
    game = Game.of("10x10")
    indices = _random_indices(game, 40, seed=10)
    naive = [min(_naive_image(game, int(i), mapping) for mapping in symmetries(game.board)) for i in indices]
    assert [int(canonical_indices(int(i), game.board)) for i in indices] == naive
    other_count = index.other_count(game.board.size)
    row = int(indices[0]) // other_count * other_count + np.arange(other_count)
    assert canonical_indices(row, game.board)[int(indices[0]) % other_count] == naive[0]


@pytest.mark.parametrize("board", ["4x4", "5x5", "6x4", "7x7"])
def test_canonical_index_of_a_few_positions(board):
    """A few indices (a probe, a position's moves) go one by one in plain integers, many at once in
    numpy: both give the smallest image, whatever the count."""
    game = Game.of(board)
    indices = _random_indices(game, 200, seed=7)
    naive = images(indices, game.board).min(axis=0)
    for count in (1, 2, 31, 32, 33, 64):
        assert (canonical_indices(indices[:count], game.board) == naive[:count]).all()
    assert (canonical_indices(indices[:6].reshape(2, 3), game.board) == naive[:6].reshape(2, 3)).all()


@pytest.mark.parametrize("board", ["5x5", "7x6", "7x7"])
def test_canonical_index_on_random_positions(board):
    game = Game.of(board)
    indices = _random_indices(game, 20_000)
    every_image = images(indices, game.board)
    canonical = canonical_indices(indices, game.board)
    assert (canonical == every_image.min(axis=0)).all()
    for row in every_image:
        assert (canonical_indices(row, game.board) == canonical).all()
    assert canonical_indices(int(indices[0]), game.board).shape == ()



@pytest.mark.parametrize("board", ["3x3", "4x3", "3x5", "5x5"])
def test_triple_images_are_the_naive_images(board):
    board = Board.parse(board)
    triples = [tuple(triple) for triple in index.triples(board.size).tolist()]
    rank = {triple: number for number, triple in enumerate(triples)}
    for g, mapping in enumerate(symmetries(board).tolist()):
        assert symmetry.triple_images(board)[g].tolist() == [rank[tuple(sorted(mapping[s] for s in t))] for t in triples]
    some = np.random.default_rng(3).integers(0, len(triples), 50)
    assert (symmetry.images_of_triples(some, board) == symmetry.triple_images(board)[:, some]).all()


@pytest.mark.parametrize("board", EVERY_BOARD, ids=str)
def test_canonical_triples_are_those_every_image_gives(board):
    """The canonical triples, found by their images' top squares, are those whose smallest image is
    themselves, and the symmetric ones those that some symmetry besides the identity leaves unchanged."""
    table = symmetry.triple_images(board)
    ranks = np.arange(table.shape[1])
    found = symmetry.canonical_triples(board)
    assert (found.canonical == (table.min(axis=0) == ranks)).all()
    assert (found.symmetric == (found.canonical & (np.count_nonzero(table == ranks, axis=0) > 1))).all()


@pytest.mark.parametrize("game", _games(EVERY_BOARD), ids=str)
def test_the_class_numbering_is_the_one_every_image_gives(game):
    """Blocks for the canonical triples that do not win, full ones unless the triple is symmetric."""
    classes = Classes.of(game)
    table = symmetry.triple_images(game.board)
    ranks = np.arange(table.shape[1])
    blocks = (table.min(axis=0) == ranks) & ~game.wins
    symmetric = blocks & (np.count_nonzero(table == ranks, axis=0) > 1)
    assert ((classes.block_start >= 0) == blocks).all() and (classes.symmetric == symmetric).all()
    sizes = np.diff(np.append(classes.block_start[blocks], classes.count))
    assert (sizes[~symmetric[blocks]] == index.other_count(game.board.size)).all()
    assert (sizes[symmetric[blocks]] < index.other_count(game.board.size)).all()


def test_the_numbering_and_a_probe_rank_only_the_images_they_meet():
    """A probe of a folded table needs the class numbering and the canonical indices of a few positions:
    neither ranks the images of every triple (the largest boards' start-up)."""
    game = Game.of("11x11")
    for cached in (symmetry.triple_images, symmetry.smallest_triple_images, symmetry._tables, folding._classes):
        cached.cache_clear()
    classes = Classes.of(game)
    indices = _random_indices(game, 20, seed=11)
    canonical = canonical_indices(indices, game.board)
    plain = ~classes.symmetric[canonical // index.other_count(game.board.size)]  # no block to list
    numbers = classes.numbers(indices[plain])
    assert symmetry.triple_images.cache_info().currsize == 0
    naive = [min(_naive_image(game, int(i), mapping) for mapping in symmetries(game.board)) for i in indices]
    assert canonical.tolist() == naive
    legal = numbers >= 0
    assert legal.sum() > 10 and (classes.canonical_of(numbers[legal]) == canonical[plain][legal]).all()


def test_5x5_has_434500_legal_classes_13114_drawn(solved_5x5):
    game = solved_5x5.game
    every = np.arange(game.positions)
    canonical = every[canonical_indices(every, game.board) == every]
    legal = canonical[solved_5x5.result[canonical] != ILLEGAL]
    assert len(legal) == 434_500 == Classes.of(game).count
    assert np.count_nonzero(solved_5x5.result[legal] == UNDECIDED) == 13_114
    assert (Classes.of(game).canonical() == legal).all()
    sizes = class_sizes(legal, game.board)
    assert sizes.sum() == 3_468_080
    assert sizes[solved_5x5.result[legal] == UNDECIDED].sum() == 104_660


# -- the solver, checked by symmetry ----------------------------------------------------------------

@pytest.mark.parametrize("game", _games(SMALL_BOARDS + ["3x5", "5x3"]), ids=str)
def test_images_have_one_value_on_small_boards(game):
    result = _solved(str(game.board), game.rule.name)
    every = np.arange(game.positions)
    assert (result[images(every, game.board)] == result).all()


def test_images_have_one_value_on_5x5(solved_5x5):
    game = solved_5x5.game
    indices = _random_indices(game, 200_000)
    assert (solved_5x5.result[images(indices, game.board)] == solved_5x5.result[indices]).all()


# -- folded tables ----------------------------------------------------------------------------------

def _write_both(game: Game, result: np.ndarray, directory):
    name = f"{game.board}-{game.rule.name}"
    full, folded = directory / f"{name}.h5", directory / f"{name}-folded.h5"
    write_table(game, result, full, 1.0)
    write_table(game, result, folded, 1.0, fold=True)
    return open_table(game, full), open_table(game, folded)


@pytest.mark.parametrize("game", _games(SMALL_BOARDS), ids=str)
def test_folded_and_full_tables_agree_on_every_position(game, tmp_path):
    result = _solved(str(game.board), game.rule.name)
    full, folded = _write_both(game, result, tmp_path)
    assert folded.folded and not full.folded
    assert bool(folded.attributes["folded"]) and folded.attributes["classes"] == Classes.of(game).count
    assert folded.attributes["symmetries"] == symmetry_count(game.board)
    every = np.arange(game.positions)
    assert (folded.probe(every) == full.probe(every)).all()
    assert all(folded.probe(int(i)) == full.probe(int(i)) for i in every[::97])
    assert (folded.probe(every.reshape(-1, 2)) == result.reshape(-1, 2)).all()
    assert (folded.result == result).all()
    assert folded.attributes["legal"] == full.attributes["legal"]


@pytest.mark.parametrize("game", _games(["3x4", "4x4"]), ids=str)
def test_a_folded_table_is_counted_and_digested_without_unfolding(game, tmp_path, monkeypatch):
    """Its summary (counts, distances, the longest wins' positions) and its result digest are those of
    the full table, and the folded bytes are never unfolded whole (10 x 10's unfolding is 24 GB)."""
    full, folded = _write_both(game, _solved(str(game.board), game.rule.name), tmp_path)
    monkeypatch.setattr("solver.neutreeko.tables.folding.unfold", lambda *_: pytest.fail("unfolded whole"))
    assert folded.summary == full.summary
    assert folded.result_digest() == full.result_digest() == container.digest(full.result)


def test_a_folded_table_is_counted_a_chunk_at_a_time(solved_5x5, tmp_path, monkeypatch):
    """The summary of a folded table streams its chunks (the folded bytes are never held whole: 9.6 GB on
    11 x 11) and agrees with the counts of the whole array however the stretches fall, the longest wins
    found across them; stretches that leave out, repeat or overrun classes are refused."""
    game = Game.of("5x5")
    folded = fold(game, solved_5x5.result)
    path = tmp_path / "folded.h5"
    write_folded_table(game, folded, summarize(game, solved_5x5.result), path, 1.0)
    monkeypatch.setattr(Chunks, "whole", lambda self: pytest.fail("the whole dataset was read at once"))
    table = open_table(game, path)
    assert len(table.chunks) > 1
    streamed = table.summary
    assert streamed == summarize(game, solved_5x5.result)
    bounds = [0, 1, 1_000, 65_536, 65_537, 300_000, len(folded)]
    ragged = [(first, folded[first:end]) for first, end in zip(bounds, bounds[1:])]
    assert summarize_folded_stretches(game, ragged) == streamed and len(streamed.longest_win_indices) > 1
    overrun = [(first, folded[first:first + 400_000]) for first in (0, 300_000)]
    for parts in (ragged[1:], ragged[:-1], ragged[:2] + ragged[1:], overrun):
        with pytest.raises(ValueError, match="legal classes"):
            summarize_folded_stretches(game, parts)


def test_a_folded_table_whose_classes_contradict_its_counts_is_refused(tmp_path):
    """A folded table written with its own digest but a class marked illegal, or a loss made a win, is
    found damaged when it is counted (stats, the digest of a release), in one line."""
    game = Game.of("4x4")
    result = _solved("4x4", "connected")
    summary, folded = summarize(game, result), fold(game, result)
    assert Evaluation.of_byte(int(folded[0])).value == "loss"
    for byte, why in ((ILLEGAL, "marks a legal class as illegal"), (int(folded[0]) + 1, "its data has wins")):
        path = tmp_path / f"damaged-{byte}.h5"
        changed = folded.copy()
        changed[0] = byte
        write_folded_table(game, changed, summary, path, 1.0)
        with pytest.raises(TableError, match=why) as error:
            open_table(game, path).result_digest()
        assert "\n" not in str(error.value)
        assert_one_line_error(invoke("stats", "--board", "4x4", "--table", str(path)), why)


@pytest.mark.parametrize("rule", list(RULES))
def test_folded_and_full_tables_agree_on_random_5x5_positions(rule, solved_5x5, tmp_path):
    game = Game.of("5x5", rule)
    result = solved_5x5.result if rule == "connected" else _solved("5x5", rule)
    path = tmp_path / "folded.h5"
    write_table(game, result, path, 1.0, fold=True)
    folded = open_table(game, path)
    indices = _random_indices(game, 20_000, seed=len(rule))
    assert (folded.probe(indices) == result[indices]).all()
    start = Position.start(game)
    assert folded.probe(start.index()) == result[start.index()]
    if rule == "connected":
        assert path.stat().st_size < 1_000_000


def test_fold_then_unfold_is_the_identity_on_5x5(solved_5x5):
    game = solved_5x5.game
    assert (unfold(game, fold(game, solved_5x5.result)) == solved_5x5.result).all()


def test_class_numbers_are_a_numbering_of_the_legal_classes():
    game = Game.of("4x4", "diagonal")
    classes = Classes.of(game)
    every = np.arange(game.positions)
    numbers = classes.numbers(every)
    legal = ~game.wins[every // index.other_count(game.board.size)]
    assert (numbers[~legal] == -1).all()
    assert set(numbers[legal]) == set(range(classes.count))
    canonical = canonical_indices(every, game.board)
    assert (numbers == classes.numbers(canonical)).all()
    assert (classes.numbers(classes.canonical()) == np.arange(classes.count)).all()


@pytest.mark.parametrize("board", ["3x3", "4x3", "4x4", "5x5", "6x4", "7x7", "10x10"])
def test_a_symmetric_block_has_as_many_classes_as_burnside_counts(board):
    """The numbering counts a symmetric triple's classes without listing them (Burnside's lemma): each
    count is the length of the block's list, made the long way, and the lists are the canonical indices.
    (The mover triple of a block is its own canonical one: its positions' canonical indices stay in the
    block, and their distinct values are listed by marking them, without a sort.)"""
    game = Game.of(board)
    classes = Classes.of(game)
    rows = np.flatnonzero(classes.block_start >= 0)
    sizes = dict(zip(rows.tolist(), np.diff(np.append(classes.block_start[rows], classes.count)).tolist()))
    other_count = index.other_count(game.board.size)
    for mover in np.flatnonzero(classes.symmetric).tolist():
        first = mover * other_count
        canonical = canonical_indices(first + np.arange(other_count), game.board)
        assert first <= canonical.min() and canonical.max() < first + other_count
        seen = np.zeros(other_count, dtype=bool)
        seen[canonical - first] = True
        listed = first + np.flatnonzero(seen)
        assert sizes[mover] == len(listed) and (classes.block_indices(mover) == listed).all()


@pytest.fixture
def folded_4x4(tmp_path):
    game = Game.of("4x4")
    path = tmp_path / "folded-4x4.h5"
    write_table(game, _solved("4x4", "connected"), path, 1.0, fold=True)
    return path


@pytest.mark.parametrize("board, rule", [("4x4", "orthogonal"), ("3x4", "connected"), ("5x5", "connected")])
def test_a_folded_table_of_another_game_is_refused(folded_4x4, board, rule):
    with pytest.raises(TableError, match="is a table for 4x4 connected") as error:
        open_table(Game.of(board, rule), folded_4x4)
    assert "\n" not in str(error.value)


def test_a_folded_table_of_another_game_fails_on_the_command_line(folded_4x4):
    outcome = invoke("stats", "--board", "4x4", "--rule", "diagonal", "--table", str(folded_4x4))
    assert_one_line_error(outcome, "4x4 connected")


def test_a_damaged_folded_table_is_refused(folded_4x4):
    with h5py.File(folded_4x4, "r+") as file:
        file["class_result"][5] ^= 1
    # Refused on opening if HDF5 moved the chunk it rewrote, else when the chunk is read.
    with pytest.raises(TableError, match="damaged"):
        open_table(Game.of("4x4"), folded_4x4).chunks.chunk(0)


def test_a_folded_table_of_another_canonical_form_is_refused(tmp_path, monkeypatch):
    path = tmp_path / "other-form.h5"
    with monkeypatch.context() as patch:
        patch.setattr("solver.neutreeko.tables.table.CANONICAL_FORM", "largest index among the images")
        write_table(Game.of("4x4"), _solved("4x4", "connected"), path, 1.0, fold=True)
    with pytest.raises(TableError, match="canonical form"):
        open_table(Game.of("4x4"), path)


def test_solve_fold_on_the_command_line(tmp_path):
    folded, full = tmp_path / "folded.h5", tmp_path / "full.h5"
    assert invoke("solve", "--board", "4x4", "--fold", "--out", str(folded)).exit_code == 0
    assert invoke("solve", "--board", "4x4", "--out", str(full)).exit_code == 0
    assert folded.stat().st_size * 3 < full.stat().st_size
    stats = [invoke("stats", "--board", "4x4", "--json", "--table", str(path))
             for path in (folded, full)]
    assert stats[0].exit_code == 0 and stats[0].stdout == stats[1].stdout
