"""The probe API (solver.neutreeko.querying.probe): values, errors, move ranking, against the 5 x 5 table."""

from __future__ import annotations

import pytest

from solver.core.errors import IllegalPositionError, MissingTableError, NotationError, TableError
from solver.neutreeko.model.game import Game
from solver.neutreeko.model.position import Position
from solver.neutreeko.querying.probe import Evaluation, Tablebase, open_tablebase
from tests.helpers import LONGEST, START, colour_twin, random_positions


def test_start_is_a_draw(tablebase):
    assert tablebase.probe("start") == Evaluation("draw", None)
    assert tablebase.probe(START) == tablebase.probe(Position.parse(START))


def test_longest_win(tablebase):
    """The published 51-ply win, from the side to move's point of view."""
    assert tablebase.probe(LONGEST) == Evaluation("win", 51)


def test_seed_example(tablebase):
    """1. C4-C3? D5-D2! and White wins: after C4-C3 White wins in 3, with D5-D2 or B5-B2 only."""
    after = Position.parse("start").play("C4-C3")
    assert tablebase.probe(after) == Evaluation("win", 3)
    winning = [move for move in tablebase.moves(after) if move.value == "win"]
    assert [(move.name, move.plies) for move in winning] == [("B5-B2", 3), ("D5-D2", 3)]
    assert tablebase.probe(after.play("D5-D2")) == Evaluation("loss", 2)


def test_start_moves(tablebase):
    """From the start only B1-C1 and D1-C1 keep the draw; every other move loses."""
    moves = tablebase.moves("start")
    assert len(moves) == len(Position.parse("start").moves())
    assert [move.name for move in moves if move.value == "draw"] == ["B1-C1", "D1-C1"]
    assert all(move.value == "loss" for move in moves[2:])
    assert (moves[2].name, moves[2].plies) == ("B1-B4", 22)


def test_moves_order_and_values(tablebase):
    """Wins by fewest plies, draws, losses by most plies, ties alphabetical; each move's value is the
    child's value inverted, one ply further; the position's value is that of its best move."""
    order = {"win": 0, "draw": 1, "loss": 2}
    for position in random_positions(300, seed=1):
        moves = tablebase.moves(position)
        keys = [(order[m.value], (m.plies if m.value == "win" else -m.plies) if m.plies is not None else 0, m.name)
                for m in moves]
        assert keys == sorted(keys)
        for move in moves:
            assert move.position == position.play(move.move)
            child = tablebase.probe(move.position)
            if child.value == "draw":
                assert (move.value, move.plies) == ("draw", None)
            else:
                assert (move.value, move.plies) == ("win" if child.value == "loss" else "loss", child.plies + 1)
        if moves:
            assert tablebase.probe(position) == Evaluation(moves[0].value, moves[0].plies)
        else:
            assert tablebase.probe(position) == Evaluation("loss", 0)


def test_colour_symmetry(tablebase):
    """Swapping colours and turning the board 180 degrees changes no value and no move's value."""
    start = Position.parse("start")
    assert colour_twin(start) == Position(start.game, start.black, start.white, False)
    last = start.game.board.size - 1
    for position in random_positions(200, seed=2):
        twin = colour_twin(position)
        assert tablebase.probe(twin) == tablebase.probe(position)
        turned = {(last - m.move.origin, last - m.move.target): (m.value, m.plies) for m in tablebase.moves(position)}
        assert {(m.move.origin, m.move.target): (m.value, m.plies) for m in tablebase.moves(twin)} == turned


def test_missing_table_is_a_key_error(tmp_path):
    """A missing table raises MissingTableError, a KeyError; get() returns the default instead."""
    with open_tablebase(tmp_path) as empty:
        with pytest.raises(MissingTableError) as raised:
            empty.probe("start")
        assert isinstance(raised.value, KeyError)
        assert "neutreeko solve" in str(raised.value)
        assert empty.get("start") is None
        assert empty.get("start", default="unknown") == "unknown"


def test_get_returns_the_value_when_the_table_exists(tablebase):
    assert tablebase.get(LONGEST, default="unknown") == Evaluation("win", 51)


@pytest.mark.parametrize("text", ["bbb2/5/5/5/www2 b", "5/5/b1w2/bw3/bw3 b"])
def test_illegal_position(tablebase, text):
    """A side to move that already has three in a row: a clear error, not a value (get included)."""
    with pytest.raises(IllegalPositionError, match="not a legal position"):
        tablebase.probe(text)
    with pytest.raises(IllegalPositionError):
        tablebase.get(text)


def test_bad_notation(tablebase):
    with pytest.raises(NotationError, match="'x'"):
        tablebase.probe("x4/5/5/5/5 b")


def test_position_over(tablebase):
    """The side that just moved has three in a row: lost in 0, no moves."""
    over = Position.parse("5/5/b1w2/bw3/bw3 w")
    assert over.winner() == "black"
    assert tablebase.probe(over) == Evaluation("loss", 0)
    assert tablebase.moves(over) == []


def test_other_board_table(tmp_path, solved_5x5):
    """Positions of another game need that game's table; a table file of the wrong game is refused."""
    from solver.neutreeko.tables.table import write_table
    wrong = tmp_path / "neutreeko-4x4.h5"
    write_table(Game.of("5x5"), solved_5x5.result, wrong, 0.0)  # a 5 x 5 table under a 4 x 4 name
    with pytest.raises(TableError, match="not 4x4"):
        Tablebase(tmp_path).probe(Position.start(Game.of("4x4")))


def test_folded_table_answers_alike(tablebase, solved_5x5, tmp_path):
    """A symmetry-folded table probes exactly like the full one (all reads go through Table.probe)."""
    from solver.neutreeko.tables.table import write_table
    write_table(Game.of("5x5"), solved_5x5.result, tmp_path / "neutreeko-5x5.h5", 0.0, fold=True)
    folded = Tablebase(tmp_path)
    for position in random_positions(100, seed=3) + [Position.parse(LONGEST)]:
        assert folded.probe(position) == tablebase.probe(position)
        assert folded.moves(position) == tablebase.moves(position)

