"""A slow, obviously correct Neutreeko solver for small boards, written from the rules alone.

Nothing of the solving here comes from the package: squares are (file, rank) pairs, moves are slides
worked out square by square, the winning lines of every rule are built here, and values come from
forward iteration straight from the definitions of the rules (docs/guide/notation.md):

* a position is a pair (mover's squares, other side's squares), the mover being the side to move;
* it is *illegal* if the mover already has a winning line;
* it is *lost at distance 0* if the other side has a winning line, or if the mover has no move;
* it is *won in k* (k odd) if some move reaches a position lost in k - 1;
* it is *lost in k* (k even) if every move reaches a won position and the longest of those wins is k - 1;
* whatever is never decided is a draw.

The last section translates the reference's positions into the package's square numbers and indices,
for the tests that compare the two; it is the only place the reference meets the package.

Level k is computed from levels 0 .. k-1 only, so each position gets the first (smallest) k whose
condition holds. The levels run over numpy arrays of child lists, because plain Python loops over the
160,160 positions of 4 x 4 for some 35 levels would take minutes; the conditions are the ones above.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

import numpy as np

Square = tuple[int, int]  # (file, rank), both from 0; (0, 0) is A1
Side = frozenset  # frozenset[Square]: the three squares of one side
Position = tuple[Side, Side]  # (mover, other)

#: The eight directions a piece may slide in, as (file step, rank step).
DIRECTIONS: tuple[Square, ...] = tuple((df, dr) for df in (-1, 0, 1) for dr in (-1, 0, 1) if (df, dr) != (0, 0))


def all_squares(width: int, height: int) -> list[Square]:
    return [(file, rank) for rank in range(height) for file in range(width)]


def number(square: Square, width: int) -> int:
    """The square's number in the notation's order: A1 = 0, B1 = 1, ... along rank 1, then rank 2."""
    file, rank = square
    return rank * width + file


def _on_board(square: Square, width: int, height: int) -> bool:
    return 0 <= square[0] < width and 0 <= square[1] < height


def winning_lines(rule: str, width: int, height: int) -> set[Side]:
    """Every set of three squares that wins under ``rule`` on a ``width`` x ``height`` board."""
    squares = all_squares(width, height)
    if rule == "centre":
        centre = (width // 2, height // 2)
        return {frozenset(triple) for triple in combinations(squares, 3) if centre in triple}
    if rule == "equidistant":
        # a, a + s, a + 2s for any step s: the middle piece halfway between the others, any spacing.
        steps = [(df, dr) for df in range(-width, width + 1) for dr in range(-height, height + 1)
                 if (df, dr) != (0, 0)]
    else:
        orthogonal = [(1, 0), (0, 1)]
        diagonal = [(1, 1), (1, -1)]
        steps = {"connected": orthogonal + diagonal, "orthogonal": orthogonal, "diagonal": diagonal}[rule]
    lines = set()
    for file, rank in squares:
        for df, dr in steps:
            line = [(file + k * df, rank + k * dr) for k in range(3)]
            if all(_on_board(square, width, height) for square in line):
                lines.add(frozenset(line))
    return lines


def ray(square: Square, direction: Square, width: int, height: int) -> list[Square]:
    """The squares from ``square`` (left out) to the edge in ``direction``, nearest first."""
    (file, rank), (df, dr) = square, direction
    squares = []
    while _on_board((file + df, rank + dr), width, height):
        file, rank = file + df, rank + dr
        squares.append((file, rank))
    return squares


@lru_cache(maxsize=None)
def rays(width: int, height: int) -> dict[Square, list[list[Square]]]:
    """``rays[square]``: the :func:`ray` of every direction from ``square``."""
    return {square: [ray(square, direction, width, height) for direction in DIRECTIONS]
            for square in all_squares(width, height)}


def moves(mover: Side, other: Side, width: int, height: int) -> list[tuple[Square, Square]]:
    """Every (origin, target) slide of the mover's pieces. A piece runs along a ray and stops on the
    last free square before the edge or before the first occupied square; a slide of zero squares is
    no move."""
    occupied = mover | other
    result = []
    for piece in mover:
        for path in rays(width, height)[piece]:
            target = piece
            for square in path:
                if square in occupied:
                    break
                target = square
            if target != piece:
                result.append((piece, target))
    return result


@lru_cache(maxsize=None)
def all_positions(width: int, height: int) -> tuple[Position, ...]:
    """Every pair of disjoint three-square sets (mover, other), legal or not."""
    squares = all_squares(width, height)
    positions = []
    for mover in combinations(squares, 3):
        rest = [square for square in squares if square not in mover]
        for other in combinations(rest, 3):
            positions.append((frozenset(mover), frozenset(other)))
    return tuple(positions)


@lru_cache(maxsize=None)
def _successors(width: int, height: int) -> tuple[tuple[int, ...], ...]:
    """``successors[n]``: the positions (numbers in :func:`all_positions`) that the moves of position
    ``n`` lead to, the other side then being to move. Independent of the rule: computed once a board."""
    positions = all_positions(width, height)
    number_of = {position: n for n, position in enumerate(positions)}
    return tuple(
        tuple(number_of[(other, (mover - {origin}) | {target})]
              for origin, target in moves(mover, other, width, height))
        for mover, other in positions
    )


@dataclass(frozen=True)
class Solution:
    """The reference result of one board and rule.

    ``distance[(mover, other)]`` for every *legal* position: the distance in plies (odd: the mover wins,
    even: the mover loses), or None for a draw. Illegal positions are absent. ``no_move`` counts the
    positions lost because the mover cannot move (the other side not having won)."""

    width: int
    height: int
    rule: str
    lines: frozenset
    distance: dict[Position, int | None]
    no_move: int


UNDECIDED = -1
ILLEGAL = -2


@lru_cache(maxsize=None)
def solve(width: int, height: int, rule: str) -> Solution:
    """Solve Neutreeko on a ``width`` x ``height`` board under ``rule`` by forward iteration."""
    lines = frozenset(winning_lines(rule, width, height))
    positions = all_positions(width, height)
    successors = _successors(width, height)

    distance = np.full(len(positions), UNDECIDED, dtype=np.int64)
    no_move = 0
    open_positions, starts, children = [], [], []
    for n, (mover, other) in enumerate(positions):
        if mover in lines:
            distance[n] = ILLEGAL              # the mover would already have won
        elif other in lines:
            distance[n] = 0                    # the other side has just won
        elif not successors[n]:
            distance[n] = 0                    # the mover cannot move
            no_move += 1
        else:
            open_positions.append(n)
            starts.append(len(children))
            children.extend(successors[n])
    open_positions = np.array(open_positions, dtype=np.int64)
    starts = np.array(starts, dtype=np.int64)
    children = np.array(children, dtype=np.int64)
    # A child's mover is the parent's other side, which has not won: no move leads to an illegal position.
    assert not np.any(distance[children] == ILLEGAL)

    level = 1
    while len(open_positions):
        child_distance = distance[children]     # UNDECIDED (-1) for a child not yet decided
        if level % 2 == 1:
            # won in `level`: some move reaches a position lost in level - 1
            holds = np.logical_or.reduceat(child_distance == level - 1, starts)
        else:
            # lost in `level`: every move reaches a won position, the longest win being level - 1
            child_won = (child_distance > 0) & (child_distance % 2 == 1)
            every_move_won = np.logical_and.reduceat(child_won, starts)
            longest = np.maximum.reduceat(child_distance, starts)
            holds = every_move_won & (longest == level - 1)
        new = open_positions[holds & (distance[open_positions] == UNDECIDED)]
        # Each level's condition needs a position decided at the level before: after an empty
        # level nothing can ever be decided again.
        if len(new) == 0:
            break
        distance[new] = level
        level += 1

    result = {position: (None if distance[n] == UNDECIDED else int(distance[n]))
              for n, position in enumerate(positions) if distance[n] != ILLEGAL}
    return Solution(width, height, rule, lines, result, no_move)


# -- the reference in the package's terms ------------------------------------------------------------

def numbers(side: Side, width: int) -> tuple[int, ...]:
    """The sorted square numbers (:func:`number`) of a side."""
    return tuple(sorted(number(square, width) for square in side))


def side_of(squares, width: int) -> Side:
    """The side standing on the numbered ``squares``."""
    return frozenset((square % width, square // width) for square in squares)


def numbered_lines(rule: str, width: int, height: int) -> set[tuple[int, ...]]:
    """The winning lines of ``rule`` as sorted triples of square numbers."""
    return {numbers(line, width) for line in winning_lines(rule, width, height)}


def package_index(mover: Side, other: Side, width: int, height: int) -> int:
    """The package's dense index of the position (``mover`` to move)."""
    from solver.neutreeko.model import index  # the package's numbering, used to compare, never to solve

    return int(index.encode(*numbers(mover, width), *numbers(other, width), index.other_count(width * height)))
