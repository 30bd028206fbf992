"""Neutreeko's rules on a small board, as the conformance test of every game reads them
(:class:`~solver.core.conformance.Conformance`): positions are dense indices (the mover's side first, see
:mod:`~solver.neutreeko.model.index`), values ``(outcome, plies)`` for the side to move.

Children come from :meth:`Position.children <solver.neutreeko.model.position.Position.children>`;
parents are unmoves worked out here square by square: a piece of the side that has just moved stands
where a slide stops (the edge or a piece beyond it) and came along the free squares behind it.
"""

from __future__ import annotations

from collections.abc import Mapping

from solver.core.conformance import by_plies
from solver.neutreeko.model import index, symmetry
from solver.neutreeko.model.board import DIRECTIONS
from solver.neutreeko.model.game import Game
from solver.neutreeko.model.position import Position
from solver.neutreeko.model.rules import Triple, sorted_triple

_OPPOSITE = tuple(DIRECTIONS.index((-df, -dr)) for df, dr in DIRECTIONS)


class NeutreekoConformance:
    """Neutreeko (``connected``) on 3 x 3."""

    board = "3x3"

    def __init__(self) -> None:
        self.game = Game.of(self.board)
        self._others = index.other_count(self.game.board.size)

    def positions(self) -> list[int]:
        """Every legal index."""
        return [i for i in range(self.game.positions) if self._sides(i)[0] not in self.game.winning_triples]

    def encode(self, position: int) -> int:
        return position

    def decode(self, key: int) -> int:
        return key

    def _sides(self, position: int) -> tuple[Triple, Triple]:
        mover, other = index.decode(position, self.game.board.size)
        return sorted_triple(int(s) for s in mover), sorted_triple(int(s) for s in other)

    def children(self, position: int) -> list[int]:
        return [child.index() for _, child in Position.from_index(self.game, position).children()]

    def parents(self, position: int) -> list[int]:
        """The indices whose moves lead to ``position``, none of them a position already won."""
        mover, other = self._sides(position)
        if mover in self.game.winning_triples:
            return []  # the side to move had won before the last move: the game was over
        steps, occupied, found = self.game.board.steps, {*mover, *other}, []
        for piece in other:
            for direction in range(len(DIRECTIONS)):
                beyond = steps[piece][direction]
                if beyond >= 0 and beyond not in occupied:
                    continue  # a slide this way would not have stopped on the piece
                back = _OPPOSITE[direction]
                origin = steps[piece][back]
                while origin >= 0 and origin not in occupied:
                    before = sorted_triple(origin if square == piece else square for square in other)
                    if before not in self.game.winning_triples:
                        found.append(int(index.encode(*before, *mover, self._others)))
                    origin = steps[origin][back]
        return found

    def images(self, position: int) -> list[int]:
        return [int(image) for image in symmetry.images([position], self.game.board)[:, 0]]

    def solve_small(self) -> Mapping[int, tuple[int, int]]:
        """The solver's value of every legal index."""
        from solver.neutreeko.solving.solve import solve  # numba only when solving

        result = solve(self.game).result
        return {i: _value(int(result[i])) for i in self.positions()}

    def value(self, position: int, values: list[tuple[int, int]]) -> tuple[int, int]:
        """Lost at once when the other side has won or the mover cannot move; else :func:`~solver.core.conformance.by_plies`."""
        return by_plies(values) if values else (-1, 0)


def _value(byte: int) -> tuple[int, int]:
    """(outcome, plies) of a result byte (see :mod:`~solver.neutreeko.model.values`)."""
    if byte == 0:
        return 0, 0
    return (1 if (byte - 1) % 2 else -1), byte - 1


#: The conformance part of :data:`solver.neutreeko.GAME`.
CONFORMANCE = NeutreekoConformance()
