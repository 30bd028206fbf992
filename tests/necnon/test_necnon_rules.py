"""NECNON's rules on hand-made positions: the allowed-cell rule for 0 to 6 enemy neighbours under each
protocol, one- and two-stone turns, forced passes, the end of the game, and scoring (singletons, groups
along the edge, groups that touch an empty cell only diagonally)."""

from __future__ import annotations

import pytest

from solver.core.errors import IllegalMoveError, IllegalPositionError, NotationError
from solver.necnon.model.position import PASS, Position, Turn, counts_occur, mask
from solver.necnon.model.rules import Game

#: From the rules: NEC forbids an even, non-zero number of enemy neighbours, NON an odd number.
ALLOWED_ENEMIES = {"nec": {0, 1, 3, 5}, "non": {0, 2, 4, 6}}


def at(game: Game, text: str, moves: str = "") -> Position:
    return Position.parse(text, game).play_line(moves)


def cells(game: Game, names: str) -> tuple[int, ...]:
    return tuple(sorted(game.grid.parse_cell(name) for name in names.split()))


@pytest.mark.parametrize("protocol", ["nec", "non"])
@pytest.mark.parametrize("enemies", range(7))
def test_allowed_cell_by_enemy_neighbours(protocol, enemies):
    """On hex3 the centre c3 has six neighbours; k of them Green, Black (elsewhere) to move."""
    game = Game.of("hex3", protocol)
    around = [game.grid.parse_cell(name) for name in ("b2", "b3", "c2", "c4", "d3", "d4")]
    far = [game.grid.parse_cell("e5")]  # a green stone away from c3 when none is next to it
    position = Position(game, black=mask([game.grid.parse_cell("a1")]), green=mask(around[:enemies] or far))
    centre = game.grid.parse_cell("c3")
    assert position.enemies(centre, black=True) == enemies
    assert (centre in position.allowed()) == (enemies in ALLOWED_ENEMIES[protocol])


@pytest.mark.parametrize("protocol", ["nec", "non"])
@pytest.mark.parametrize("enemies", range(5))
def test_allowed_cell_on_squares_for_green(protocol, enemies):
    """On 3x3 the centre b2 has four neighbours; k of them Black (or a1 if none), Green to move."""
    game = Game.of("3x3", f"nec-{protocol}")
    around = [game.grid.parse_cell(name) for name in ("b1", "a2", "c2", "b3")]
    black = around[:enemies] or [game.grid.parse_cell("a1")]
    position = Position(game, black=mask(black), green=0, black_to_move=False)
    assert (game.grid.parse_cell("b2") in position.allowed()) == (enemies in ALLOWED_ENEMIES[protocol])


def test_the_first_turn_lays_one_stone_anywhere():
    game = Game.of("4x4", "non")
    empty = Position.empty(game)
    assert empty.first_turn and empty.turns() == tuple(Turn((cell,)) for cell in range(16))
    with pytest.raises(IllegalMoveError, match="first turn lays one stone"):
        empty.parse_turn("a1,b1")
    assert empty.play(empty.parse_turn("b2")).notation() == "4/4/1b2/4 g"


def test_two_stones_when_two_cells_are_allowed():
    """After b2, every empty cell has 0 or 1 black neighbours: all 15 allowed to Green under nec."""
    game = Game.of("4x4", "nec")
    position = at(game, "4/4/1b2/4 g")
    assert len(position.turns()) == 15 * 14 // 2 and all(len(turn.cells) == 2 for turn in position.turns())
    with pytest.raises(IllegalMoveError, match="15 cells are allowed, so the turn lays two stones"):
        position.parse_turn("a1")
    assert position.parse_turn("d4,a1") == Turn(cells(game, "a1 d4"))
    with pytest.raises(IllegalMoveError, match="b2 is occupied"):
        position.parse_turn("b2,a1")


def test_a_forced_single_stone():
    """Black (nec): a2 has one green neighbour (b2), b1 two (b2, c1): only a2 is allowed."""
    game = Game.of("3x3", "nec")
    position = at(game, "bgg/1gb/b1g b")
    assert position.allowed() == cells(game, "a2")
    assert position.turns() == (Turn(cells(game, "a2")),)
    with pytest.raises(IllegalMoveError, match="b1 is forbidden"):
        position.parse_turn("a2,b1")
    with pytest.raises(IllegalMoveError, match="b1 is forbidden to Black .nec: 2 enemy neighbours"):
        position.parse_turn("b1")
    assert position.play(position.parse_turn("a2")).notation() == "bgg/bgb/b1g g"


def test_a_forced_pass_then_the_other_side_plays():
    """Black (nec): b1 has two green neighbours, so Black passes; Green then fills b1."""
    game = Game.of("2x2", "nec")
    position = at(game, "bg/g1 b")
    assert position.allowed() == () and position.turns() == (PASS,)
    with pytest.raises(IllegalMoveError, match="has no allowed cell and must pass"):
        position.parse_turn("b1")
    passed = position.play(position.parse_turn("pass"))
    assert passed.notation() == "bg/g1 g p" and not passed.over
    assert passed.turns() == (Turn(cells(game, "b1")),)
    with pytest.raises(IllegalMoveError, match="Green cannot pass: b1 is allowed"):
        passed.parse_turn("pass")
    assert passed.play_line("b1").over


def test_the_game_ends_on_two_passes():
    """Under non, a2's and b1's stones leave a1 and b2 one enemy neighbour each, for both players."""
    game = Game.of("2x2", "non")
    position = at(game, "g1/1b b")
    assert position.turns() == (PASS,)
    once = position.play(PASS)
    assert once.notation() == "g1/1b g p" and once.turns() == (PASS,) and not once.over
    twice = once.play(PASS)
    assert twice.over and twice.passes == 2 and twice.notation() == "g1/1b b pp" and twice.turns() == ()
    assert twice.points() == (0, 0)  # both stones have empty neighbours
    with pytest.raises(IllegalMoveError, match="game is over"):
        twice.parse_turn("pass")


def test_a_player_who_passed_may_play_again():
    """Black (non) passes: b2, c2 and a1 each have one green neighbour. Green's c2 gives b2 a second."""
    game = Game.of("3x2", "non")
    position = at(game, "b2/1gg b")
    assert position.turns() == (PASS,)
    later = position.play_line("pass c2")
    assert later.notation() == "b1g/1gg b" and later.allowed() == cells(game, "b2")


def test_a_full_board_ends_the_game():
    game = Game.of("2x2", "nec")
    full = at(game, "bg/gb g")
    assert full.over and full.turns() == ()
    with pytest.raises(IllegalPositionError, match="before anyone passes"):
        at(game, "bg/gb g p")


# -- scoring ----------------------------------------------------------------------------------------------

def test_a_smothered_singleton_scores_for_the_other_colour():
    game = Game.of("3x3", "nec")
    position = at(game, "1g1/gbg/1g1 b")
    smothered = [group for group in position.groups() if group.smothered]
    assert [(group.colour, group.cells) for group in smothered] == [("black", cells(game, "b2"))]
    assert position.points() == (0, 1) and position.margin() == -1


def test_groups_along_the_edge():
    """Black's a1-b1-c1 group along the bottom edge is smothered by Green's row above; Green breathes."""
    game = Game.of("3x3", "nec")
    position = at(game, "3/ggg/bbb b")
    black, green = sorted(position.groups(), key=lambda group: group.colour)
    assert black.cells == cells(game, "a1 b1 c1") and black.smothered
    assert green.cells == cells(game, "a2 b2 c2") and not green.smothered
    assert position.points() == (0, 3)


def test_a_diagonal_empty_cell_does_not_let_a_group_breathe():
    """Black's a1 touches the empty b2 only at a corner: its neighbours a2 and b1 are Green."""
    game = Game.of("4x4", "nec")
    corner = at(game, "4/4/g3/bg2 b")
    assert [(group.colour, group.cells) for group in corner.groups() if group.smothered] == \
        [("black", cells(game, "a1"))]
    assert corner.points() == (0, 1) and corner.margin() == -1


def test_every_group_is_smothered_on_a_full_hex_board():
    """hex2 full: Black c2, b3 and a1 alone; Green c3-b2-b1-a2 one group of four."""
    game = Game.of("hex2", "nec")
    position = at(game, "bg/ggb/bg b")
    assert position.full and position.over
    groups = sorted((group.colour, len(group.cells), group.smothered) for group in position.groups())
    assert groups == [("black", 1, True)] * 3 + [("green", 4, True)]
    assert position.points() == (4, 3)


# -- positions that cannot occur ---------------------------------------------------------------------------

@pytest.mark.parametrize("text, reason", [
    ("g3/4/4/4 b", "no sequence of turns"),           # Green has a stone before Black
    ("4/4/4/4 g", "no sequence of turns"),            # Green to move on the empty board
    ("b3/4/4/4 b", "no sequence of turns"),           # Black to move after one stone and no pass
    ("bbbb/bbbb/4/4 b", "no sequence of turns"),      # Green's last turn laid no stone, yet no pass
    ("4/4/1b2/4 b p", "Green passed with cells allowed"),
    ("4/4/1b2/4 g pp", "passed with cells allowed"),
])
def test_positions_that_cannot_occur(text, reason):
    with pytest.raises(IllegalPositionError, match=reason):
        Position.parse(text, Game.of("4x4", "nec"))


def test_stone_counts_that_turns_can_lay():
    assert counts_occur(0, 0, True, 0) and not counts_occur(0, 0, False, 0)
    assert counts_occur(1, 2, True, 0)          # b2, then Green's two
    assert not counts_occur(1, 2, False, 0)     # Green to move: Black's last turn laid stones, so two in all
    assert counts_occur(3, 2, False, 0) and counts_occur(2, 2, False, 0)
    assert counts_occur(1, 6, True, 0)          # Black passing between Green's turns
    assert not counts_occur(9, 0, True, 0) and counts_occur(9, 0, True, 1)  # Green passed every time


@pytest.mark.parametrize("text", ["", "4/4/4 b x", "4/4/4/4", "4/4/4/4 w", "4/4/4/4 b ppp", "5/4/4/4 b",
                                  "4/4/4/4/ b", "4//4/4 b", "4/4/4/x3 b", "99/4/4/4 b", "4/4/4/4 b pass"])
def test_bad_notation(text):
    with pytest.raises(NotationError):
        Position.parse(text, Game.of("4x4", "nec"))


def test_a_position_on_another_board():
    with pytest.raises(NotationError, match="hex3 board, not 4x4"):
        Position.parse("3/4/5/4/3 b", Game.of("4x4", "nec"))
