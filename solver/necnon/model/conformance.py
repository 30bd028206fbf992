"""NECNON's rules on a small board, as the conformance test of every game reads them
(:class:`~solver.core.conformance.Conformance`): positions are :class:`~solver.necnon.model.position.Position`,
keys those of :mod:`~solver.necnon.model.keys`, values :class:`~solver.necnon.model.values.Evaluation`.
A placement game has no unmoves: ``parents`` is None.
"""

from __future__ import annotations

from collections.abc import Mapping

from solver.necnon.model.keys import canonical_key, key, position_of
from solver.necnon.model.position import Position
from solver.necnon.model.rules import Game
from solver.necnon.model.values import Evaluation


class NecnonConformance:
    """NECNON (``nec``) on 3 x 3."""

    board = "3x3"
    parents = None

    def __init__(self) -> None:
        self.game = Game.of(self.board, "nec")

    def positions(self) -> list[Position]:
        """Every position reachable from the empty board."""
        seen = {key(Position.empty(self.game)): Position.empty(self.game)}
        pending = list(seen.values())
        while pending:
            for child in self.children(pending.pop()):
                if key(child) not in seen:
                    seen[key(child)] = child
                    pending.append(child)
        return list(seen.values())

    def encode(self, position: Position) -> int:
        return key(position)

    def decode(self, number: int) -> Position:
        return position_of(self.game, number)

    def children(self, position: Position) -> list[Position]:
        return [position.play(turn) for turn in position.turns()]

    def images(self, position: Position) -> list[Position]:
        return [Position(self.game, _image(position.black, cells), _image(position.green, cells),
                         position.black_to_move, position.passes)
                for cells in self.game.grid.symmetries.tolist()]

    def solve_small(self) -> Mapping[int, Evaluation]:
        """The solver's value of every reachable position (its class's)."""
        from solver.necnon.solving.solve import solve  # numba only when solving

        records = solve(self.game).records
        classes = {int(k): Evaluation(int(m), int(t)) for k, m, t in zip(records["key"], records["margin"], records["turns"])}
        return {key(position): classes[canonical_key(position)] for position in self.positions()}

    def value(self, position: Position, values: list[Evaluation]) -> Evaluation:
        """The margin when the game is over; else the best child's for the mover, one turn more."""
        if not values:
            return Evaluation(position.margin(), 0)
        return min(values, key=lambda value: value.order_key(position.black_to_move)).after_turn()


def _image(mask: int, cells: list[int]) -> int:
    """The mask of the images (``cells[c]`` the image of cell ``c``) of the cells of ``mask``."""
    return sum(1 << image for cell, image in enumerate(cells) if mask >> cell & 1)


#: The conformance part of :data:`solver.necnon.GAME`.
CONFORMANCE = NecnonConformance()
