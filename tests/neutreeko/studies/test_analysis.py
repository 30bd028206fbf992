"""The analyses behind the notebooks: their counts equal the table's, and the claims the notebooks print."""

from __future__ import annotations

import numpy as np
import pytest

from solver.neutreeko.model import values
from solver.neutreeko.model.game import Game
from solver.neutreeko.model.position import Position
from solver.neutreeko.model.symmetry import canonical_indices, images, symmetries
from solver.neutreeko.model.values import DRAW, Evaluation
from solver.neutreeko.solving.solve import solve
from solver.neutreeko.studies import analysis
from solver.neutreeko.tables.stats import summarize
from solver.neutreeko.tables.table import open_table, table_path
from tests.helpers import LONGEST, START, random_positions

pytestmark = pytest.mark.kernel

GAME = Game.of("5x5")


@pytest.fixture(scope="module")
def table(tables_5x5):
    return open_table(GAME, tables_5x5 / table_path(GAME).name)


@pytest.fixture(scope="module")
def pieces(table):
    return analysis.legal_pieces(GAME, table.result)


@pytest.fixture(scope="module")
def small():
    """The 3 x 4 game, solved, and a naive list of its legal positions with their values."""
    game = Game.of("3x4")
    result = solve(game).result
    positions = []
    for position_index, byte in enumerate(result.tolist()):
        if byte != 255:
            positions.append((Position.from_index(game, position_index), Evaluation.of_byte(byte).value))
    return game, result, positions


def test_value_codes():
    assert values.value_codes(np.array([0, 1, 2, 3, 52, 255], dtype=np.uint8)).tolist() == [1, 2, 0, 2, 0, -1]


def test_board_figures(tables_5x5):
    """Boards without a table are left out; 5 x 5 gives the published figures."""
    (figures,) = analysis.board_figures(["3x3", "5x5"], directory=tables_5x5)
    assert (figures.board, figures.legal, figures.draws, figures.longest_win, figures.start) == \
        ("5x5", 3_468_080, 104_660, 51, DRAW)
    assert figures.wins + figures.draws + figures.losses == figures.legal
    assert analysis.shares(figures.summary) == pytest.approx(
        {"win": figures.wins / 3_468_080, "draw": 104_660 / 3_468_080, "loss": figures.losses / 3_468_080})


def test_longest_wins_are_one_class(table, tablebase):
    positions = analysis.longest_wins(GAME, table)
    assert len(positions) == 8 and LONGEST in [position.fen() for position in positions]
    assert analysis.symmetry_classes(positions) == 1
    assert {tablebase.probe(position) for position in positions} == {Evaluation.win(51)}
    assert analysis.symmetry_classes([Position.parse(START), Position.parse(LONGEST)]) == 2


def test_square_values_count_every_piece(table, pieces):
    summary = summarize(GAME, table.result)
    counts = analysis.square_values(pieces).counts
    assert counts.shape == (2, 3, 5, 5)
    for holder in (0, 1):
        assert counts[holder].sum() == 3 * summary.legal
        assert counts[holder].sum(axis=(1, 2)).tolist() == [3 * summary.wins, 3 * summary.draws, 3 * summary.losses]
    for symmetry in symmetries(GAME.board):  # the board's symmetries keep every count
        flat = counts.reshape(2, 3, 25)
        assert np.array_equal(flat[:, :, symmetry], flat)


def test_square_values_and_holdings_against_naive(small):
    """On 3 x 4, position by position."""
    game, result, positions = small
    pieces = analysis.legal_pieces(game, result)
    counts = analysis.square_values(pieces).counts.reshape(2, 3, game.board.size)
    naive = np.zeros_like(counts)
    for position, value in positions:
        for holder, squares in enumerate((position.mover, position.other)):
            for square in squares:
                naive[holder, analysis.VALUES.index(value), square] += 1
    assert np.array_equal(counts, naive)
    chosen = ("B2", "A1")
    rows = analysis.holdings(pieces, chosen)
    squares = {game.board.parse_square(name) for name in chosen}
    for row in rows:
        side = 0 if row.holder == "side to move" else 1
        matching = [value for position, value in positions
                    if bool(squares & set((position.mover, position.other)[side])) == row.holds]
        assert (row.positions, row.wins, row.draws, row.losses) == \
            (len(matching), matching.count("win"), matching.count("draw"), matching.count("loss"))


def test_folklore_squares(pieces):
    """The strategy notebook's numbers: holding C1/A3/C3/E3/C5 helps its owner, holding a corner hurts."""
    key = analysis.holdings(pieces, analysis.KEY_SQUARES)
    assert key == [
        analysis.Holding("side to move", True, 1_743_280, 1_389_932, 43_420, 309_928),
        analysis.Holding("side to move", False, 1_724_800, 1_083_096, 61_240, 580_464),
        analysis.Holding("side that just moved", True, 1_750_152, 1_111_404, 62_512, 576_236),
        analysis.Holding("side that just moved", False, 1_717_928, 1_361_624, 42_148, 314_156)]
    corners = analysis.holdings(pieces, analysis.CORNERS)
    for rows, better in ((key, True), (corners, False)):
        for with_, without in (rows[0:2], rows[2:4]):
            assert with_.positions + without.positions == 3_468_080
            assert (with_.holder_wins > without.holder_wins) == better
    assert round(key[0].holder_wins, 3) == 0.797 and round(key[2].holder_wins, 3) == 0.329
    assert round(corners[0].holder_wins, 3) == 0.579 and round(corners[2].holder_wins, 3) == 0.123
    wins = analysis.square_values(pieces).holder_wins(0)
    assert wins[2, 2] == wins.max() and wins[0, 0] == wins.min()  # C3 best, the corners worst
    assert round(float(wins[0, 2]), 3) == 0.789 and round(float(wins[0, 0]), 3) == 0.549


def test_folklore_first_fifteen_plies(tablebase):
    """The strategy notebook's numbers: one draw-keeping move up to symmetry for 15 plies, then five."""
    start = Position.parse(START)
    assert analysis.drawing_tree_widths(tablebase, start, 17) == [1] * 15 + [5, 6]
    choices = analysis.line_choices(tablebase, tablebase.line(start))
    assert [c.keeping_up_to_symmetry for c in choices[:16]] == [1] * 15 + [5]
    assert [c.keeping for c in choices[:16]] == [2] + [1] * 14 + [5]
    assert [c.played for c in choices[:3]] == ["B1-C1", "C2-C3", "C1-A3"]
    assert all(c.value == "draw" and c.plies is None for c in choices)


def test_choices_count_the_moves(tablebase):
    """keeping, best and moves agree with the ranked moves, on random positions."""
    for position in random_positions(30, seed=11):
        ranked = tablebase.moves(position)
        if not ranked:
            continue
        choice = analysis.choice(tablebase, position)
        value = tablebase.probe(position).value
        assert choice.moves == len(ranked)
        assert choice.keeping == (len(ranked) if value == "loss" else sum(m.value == value for m in ranked))
        assert 1 <= choice.keeping_up_to_symmetry <= choice.keeping
        assert choice.best == sum((m.value, m.plies) == (ranked[0].value, ranked[0].plies) for m in ranked) >= 1


def test_longest_line_choices(tablebase):
    """The longest-win notebook's numbers."""
    choices = analysis.line_choices(tablebase, tablebase.line(LONGEST))
    winner = [c for c in choices if c.value == "win"]
    loser = [c for c in choices if c.value == "loss"]
    assert (len(winner), len(loser)) == (26, 25)
    assert [c.plies for c in choices] == list(range(51, 0, -1))
    assert sum(c.keeping == 1 for c in winner) == 12 and max(c.keeping for c in winner) == 6
    assert all(c.best == 1 for c in winner)
    assert sum(c.best == 1 for c in loser) == 21


def test_opening_tree(tablebase):
    """Every move once, mirror branches merged into one node (its twins), replies below explored moves."""
    start = Position.parse(START)
    full = analysis.opening_tree(tablebase, start, 2)
    assert sorted(name for n in full for name in (n.move, *n.twins)) == sorted(m.name for m in tablebase.moves(start))
    values = {m.name: m.evaluation for m in tablebase.moves(start)}
    for node in full:
        assert all(values[twin] == node.evaluation for twin in node.twins)
        classes = {int(canonical_indices(Position.parse(START).play(name).index(), GAME.board))
                   for name in (node.move, *node.twins)}
        assert len(classes) == 1
    assert len({int(canonical_indices(n.position.index(), GAME.board)) for n in full}) == len(full)
    assert [(n.move, n.twins) for n in full[:1]] == [("B1-C1", ("D1-C1",))]
    assert all(reply.replies == () for n in full for reply in n.replies)
    drawn = analysis.opening_tree(tablebase, start, 3, explore=lambda move: move.value == "draw")
    assert [n.move for n in drawn if n.replies] == ["B1-C1"]
    assert analysis.opening_tree(tablebase, start, 0) == ()


def test_tree_lines_sum_up_the_losing_moves(tablebase):
    """One line per move that keeps the draw, one summary line for the losing moves of each position."""
    start = Position.parse(START)
    lines = analysis.tree_lines(analysis.opening_tree(tablebase, start, 3, explore=lambda m: m.value == "draw"), start)
    assert lines[:3] == ["1. B1-C1 = D1-C1  draw", "   1... C2-C3  draw", "      2. C1-A3  draw"]
    losing = [m for m in tablebase.moves(start) if m.value == "loss"]
    classes = len(set(canonical_indices([m.position.index() for m in losing], GAME.board).tolist()))
    assert lines[-1] == (f"1. {len(losing)} losing moves ({classes} up to symmetry): in {losing[-1].plies} to "
                         f"{losing[0].plies} plies, the longest resistance B1-B4 = D1-D4")
    after = start.play("B1-C1").play("C2-C3")
    replies = [m for m in tablebase.moves(after) if m.value == "loss"]
    assert f"      2. {len(replies)} losing moves: in {replies[-1].plies} to {replies[0].plies} plies, " \
           f"the longest resistance {replies[0].name}" in lines
    assert sum("losing" in line for line in lines) == 3


def test_square_groups_partition_the_5x5_board():
    groups = analysis.square_groups(GAME.board)
    assert list(groups) == list(analysis.SQUARE_GROUPS)
    assert sorted(name for squares in groups.values() for name in squares) == \
        sorted(GAME.board.name(square) for square in range(25))
    assert groups["centre"] == ("C3",) and set(groups["corners"]) == set(analysis.CORNERS)
    assert set(groups["centre"] + groups["edge midpoints"]) == set(analysis.KEY_SQUARES)
    for symmetry in symmetries(GAME.board):  # each group is mapped onto itself
        for squares in groups.values():
            chosen = {GAME.board.parse_square(name) for name in squares}
            assert {int(symmetry[square]) for square in chosen} == chosen
    with pytest.raises(ValueError):
        analysis.square_groups(Game.of("4x4").board)


def test_drawing_tree_is_draw_keeping_play(tablebase):
    """Each level holds the classes that drawing moves from the level before reach, every one drawn, each
    with all its images; as many classes as the strategy notebook's widths."""
    start = Position.parse(START)
    levels = analysis.drawing_tree(tablebase, start, 18)
    assert [len(set(canonical_indices([p.index() for p in level], GAME.board).tolist())) for level in levels] == \
        analysis.drawing_tree_widths(tablebase, start, 18)
    before = [start]
    for ply, level in enumerate(levels, 1):
        assert all(tablebase.probe(position).value == "draw" for position in level)
        assert {p.black_to_move for p in level} == {ply % 2 == 0}
        reached = {m.position.index() for p in before for m in tablebase.moves(p) if m.value == "draw"}
        indices = {p.index() for p in level}
        assert set(canonical_indices(list(reached), GAME.board).tolist()) == \
            set(canonical_indices(list(indices), GAME.board).tolist())
        assert reached <= indices == set(images(list(indices), GAME.board).reshape(-1).tolist())
        before = level


def test_moves_by_target_and_pieces_of_against_naive(tablebase):
    positions = random_positions(25, seed=21)
    counted = analysis.moves_by_target(tablebase, positions)
    moves, keeping = np.zeros(25, dtype=int), np.zeros(25, dtype=int)
    for position in positions:
        value = tablebase.probe(position).value
        for move in tablebase.moves(position):
            moves[move.move.target] += 1
            keeping[move.move.target] += value == "loss" or move.value == value
    assert np.array_equal(counted.moves.reshape(-1), moves) and np.array_equal(counted.keeping.reshape(-1), keeping)
    assert counted.keeping_share() == pytest.approx(keeping.sum() / moves.sum())
    assert counted.keeping_share(["A1", "E5"], GAME.board) == pytest.approx(
        (keeping[0] + keeping[24]) / (moves[0] + moves[24]))
    pieces = analysis.pieces_of(tablebase, positions)
    assert [analysis.VALUES[code] for code in pieces.values] == [tablebase.probe(p).value for p in positions]
    assert [tuple(row) for row in pieces.mover] == [p.mover for p in positions]
    assert [tuple(row) for row in pieces.other] == [p.other for p in positions]


def test_markdown_table():
    assert analysis.markdown_table(["a", "b", "c", "d"], [(1234567, 0.25, "x", True)]) == \
        "| a | b | c | d |\n|---|---|---|---|\n| 1,234,567 | 25.0 % | x | yes |"
