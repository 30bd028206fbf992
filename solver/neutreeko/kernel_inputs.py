"""Every array the retrograde kernels (:mod:`solver.neutreeko._kernel`) read, built once from a game.

The kernels see integers and arrays only, never a board; :class:`KernelInputs` is the one place where a
:class:`~solver.neutreeko.game.Game` is turned into them, for :func:`solver.neutreeko.solve.solve` and
for the tests that call the kernels directly. Plain numpy: nothing here imports numba.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import gcd

import numpy as np
import numpy.typing as npt

from solver.neutreeko import index
from solver.neutreeko.game import Game


@dataclass(frozen=True, eq=False)
class KernelInputs:
    """The kernels' view of a game. Arrays are described in :mod:`solver.neutreeko._kernel`."""

    game: Game
    #: ``steps[square, direction]``: the neighbour, or the wall (square ``N``, whose steps lead back to
    #: itself); shape ``(N + 1, 8)``, int32.
    steps: npt.NDArray[np.int32]
    #: ``rays[square, k]``: bitmask of the squares along the square's k-th ray, rising rays first; int64.
    rays: npt.NDArray[np.int64]
    #: ``stops[square, k]``: the neighbour of ``square`` opposite its k-th ray; int32.
    stops: npt.NDArray[np.int32]
    #: ``triples[rank]``: the sorted squares of a triple rank (:func:`solver.neutreeko.index.triples`).
    triples: npt.NDArray[np.int32]
    #: ``wins[rank]``: does the triple of that rank win?
    wins: npt.NDArray[np.bool_]
    #: ``weights[k, square]``: what ``square`` adds to a triple's rank as its k-th smallest square.
    weights: npt.NDArray[np.int32]
    #: C(N - 3, 3), the number of squeezed triples of the other side.
    other_count: int
    #: ``part_of[mover rank]``: which of ``parts`` parts settles the indices of that mover rank.
    part_of: npt.NDArray[np.int32]
    parts: int
    #: An upper bound on the predecessors of one position.
    max_unmoves: int

    @classmethod
    def of(cls, game: Game, parts: int = 1) -> KernelInputs:
        """The inputs for solving ``game`` with ``parts`` threads settling disjoint parts of the index."""
        squares = game.board.size
        steps = _walled_steps(game)
        rays, stops = _rays(steps)
        return cls(
            game=game, steps=steps, rays=rays, stops=stops, triples=index.triples(squares),
            wins=game.wins, weights=_rank_weights(squares), other_count=index.other_count(squares),
            part_of=_partition(squares, parts), parts=parts,
            max_unmoves=3 * max(sum(bin(int(ray)).count("1") for ray in square) for square in rays),
        )


def _walled_steps(game: Game) -> npt.NDArray[np.int32]:
    """The board's steps (:attr:`~solver.neutreeko.board.Board.steps`) with the squares off the board
    replaced by one extra square, the wall, whose steps lead back to itself (the kernels keep it
    occupied)."""
    wall = game.board.size
    steps = np.array(game.board.steps, dtype=np.int32)
    steps = np.where(steps < 0, wall, steps)
    return np.vstack([steps, np.full((1, 8), wall)]).astype(np.int32)


def _rays(steps: npt.NDArray[np.int32]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int32]]:
    """(``rays``, ``stops``) of walled ``steps``: per square, the bitmask of each ray, the four along
    which square numbers rise first, and the neighbour opposite each ray."""
    wall = len(steps) - 1
    # Square numbers change by a fixed amount per step in a direction, so one step on the board tells.
    rising = [any(wall > steps[square, direction] > square for square in range(wall)) for direction in range(8)]
    order = [d for d in range(8) if rising[d]] + [d for d in range(8) if not rising[d]]
    rays = np.zeros((wall, 8), dtype=np.int64)
    stops = np.empty((wall, 8), dtype=np.int32)
    for square in range(wall):
        for k, direction in enumerate(order):
            step = steps[square, direction]
            while step != wall:
                rays[square, k] |= 1 << int(step)
                step = steps[step, direction]
            stops[square, k] = steps[square, direction ^ 4]
    return rays, stops


def _rank_weights(squares: int) -> npt.NDArray[np.int32]:
    """``weights[k, s]``: what square ``s`` adds to :func:`index.triple_rank` as a triple's k-th smallest
    square (the rank is a sum of one term per square, and a square 0 adds nothing)."""
    s, zero = np.arange(squares), np.zeros(squares, dtype=np.int64)
    return np.array([index.triple_rank(s, zero, zero), index.triple_rank(zero, s, zero),
                     index.triple_rank(zero, zero, s)], dtype=np.int32)


def _partition(squares: int, parts: int) -> npt.NDArray[np.int32]:
    """``part_of[mover rank]``: which of ``parts`` parts settles the indices of that mover rank.

    Parts take turns over runs of ranks that span a multiple of 8 indices, so that they share no byte
    of the decided bits, and each part gets its share of every region of the index (the predecessors
    of a level crowd into some regions more than others)."""
    movers, other_count = len(index.triples(squares)), index.other_count(squares)
    run = 8 // gcd(other_count, 8)
    return (np.arange(movers) // run % parts).astype(np.int32)
