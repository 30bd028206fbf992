"""Every array the numba kernels (:mod:`solver.neutreeko.solving._kernel`, :mod:`solver.neutreeko.checking._forward`) read,
built once from a game.

The kernels see integers and arrays only, never a board; :class:`KernelInputs` is the one place where a
:class:`~solver.neutreeko.model.game.Game` is turned into them, for :func:`solver.neutreeko.solving.solve.solve`,
:func:`solver.neutreeko.checking.check.check_consistency` and the tests that call the kernels directly. Plain numpy: nothing
here imports numba.

**Ray words.** The retrograde kernel asks, for the square a piece stands on, which squares it can
have slid from. It sees the squares along the square's eight rays as bits of one 64-bit word,
numbered for that square alone: ray after ray, each ray's squares nearest first, then one *guard* bit;
the top 8 bits say which of the square's eight neighbours are blocked (occupied, or off the board)::

    square C3 of 5 x 5, ray 0 (east: D3 E3), ray 1 (north-east: D4 E5), ray 2 (north: C4 C5), ...

    bit     0  1  2 | 3  4  5 | 6  7  8 | ... |  56 .. 63
    square  D3 E3 g | D4 E5 g | C4 C5 g | ... |  neighbour in direction 0 .. 7 blocked
                                                 g: guard bit, always set

So a board of any size fits (9 x 9 needs at most 40 bits below the top 8), and every ray is
"rising": its first blocker is its lowest occupied bit. With the guard bits set, subtracting each
ray's first bit from the occupancy borrows, within each ray alone, exactly up to the first blocker,
which gives the free squares of all eight rays at once; the top 8 bits pick, in one lookup, the rays
whose opposite neighbour is blocked, the only ones a piece can have slid in along (see
:func:`solver.neutreeko.solving._kernel._origins`).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import gcd

import numpy as np
import numpy.typing as npt

from solver.neutreeko.model import index
from solver.neutreeko.model.board import DIRECTIONS
from solver.neutreeko.model.game import Game

#: Bits of a ray word, and the first of its top 8, the neighbour bits.
_WORD = 64
_NEIGHBOURS = 56


@dataclass(frozen=True, eq=False)
class KernelInputs:
    """The kernels' view of a game. Arrays are described in :mod:`solver.neutreeko.solving._kernel`."""

    game: Game
    #: ``steps[square, direction]``: the neighbour in that direction of :data:`~solver.neutreeko.model.board.DIRECTIONS`,
    #: or -1 off the board; shape ``(N, 8)``, int32 (the forward checker walks slides with it).
    steps: npt.NDArray[np.int32]
    #: ``ray_bit[square, other]``: the bit of ``other`` in ``square``'s ray word, 0 if ``other`` is on
    #: none of its rays (``square`` itself included), with the neighbour bit if ``other`` is a neighbour;
    #: shape ``(N, N)``, int64.
    ray_bit: npt.NDArray[np.int64]
    #: ``ray_guards[square]``: the guard bits, and the neighbour bits of the neighbours off the board;
    #: ``ray_firsts[square]``: the first bit of every ray that has a square; int64.
    ray_guards: npt.NDArray[np.int64]
    ray_firsts: npt.NDArray[np.int64]
    #: ``ray_live[square, blocked]``: the bits of the rays whose opposite neighbour is blocked, for each
    #: pattern of blocked neighbours (the top 8 bits of a ray word); shape ``(N, 256)``, int64.
    ray_live: npt.NDArray[np.int64]
    #: ``ray_square[square, bit]``: the square of a bit of ``square``'s ray word; shape ``(N, 64)``, int32.
    ray_square: npt.NDArray[np.int32]
    #: ``triples[rank]``: the sorted squares of a triple rank (:func:`solver.neutreeko.model.index.triples`).
    triples: npt.NDArray[np.int32]
    #: ``wins[rank]``: does the triple of that rank win?
    wins: npt.NDArray[np.bool_]
    #: ``weights[k, square]``: what ``square`` adds to a triple's rank as its k-th smallest square
    #: (:func:`solver.neutreeko.model.index.rank_weights`).
    weights: npt.NDArray[np.int32]
    #: C(N - 3, 3), the number of squeezed triples of the other side.
    other_count: int
    #: ``part_of[mover rank]``: which of ``parts`` parts settles the indices of that mover rank.
    part_of: npt.NDArray[np.int32]
    parts: int
    #: An upper bound on the predecessors of one position.
    max_unmoves: int
    #: The type of the kernels' arrays of indices: int32 where every index fits it, else int64.
    index_type: type[np.signedinteger]

    @property
    def rays(self) -> tuple[np.ndarray, ...]:
        """The ray-word arrays as the kernels take them: ``(ray_bit, ray_guards, ray_firsts, ray_live,
        ray_square)``."""
        return self.ray_bit, self.ray_guards, self.ray_firsts, self.ray_live, self.ray_square

    @classmethod
    def of(cls, game: Game, parts: int = 1) -> KernelInputs:
        """The inputs for solving ``game`` with ``parts`` threads settling disjoint parts of the index."""
        squares = game.board.size
        steps = np.array(game.board.steps, dtype=np.int32).reshape(squares, len(DIRECTIONS))
        layout = _ray_words(game)
        return cls(
            game=game, steps=steps, **layout, triples=index.triples(squares),
            wins=game.wins, weights=index.rank_weights(squares), other_count=index.other_count(squares),
            part_of=_partition(squares, parts), parts=parts,
            max_unmoves=3 * max(game.board.ray_squares(square) for square in range(squares)),
            index_type=np.int32 if game.positions <= np.iinfo(np.int32).max else np.int64,
        )


def _ray_words(game: Game) -> dict[str, np.ndarray]:
    """The ray-word arrays of ``game``'s board (see the module docstring)."""
    board, squares = game.board, game.board.size
    one = np.int64(1)
    ray_bit = np.zeros((squares, squares), dtype=np.int64)
    ray_guards = np.zeros(squares, dtype=np.int64)
    ray_firsts = np.zeros(squares, dtype=np.int64)
    ray_live = np.zeros((squares, 256), dtype=np.int64)
    ray_square = np.zeros((squares, _WORD), dtype=np.int32)
    blocked = np.arange(256)
    for square in range(squares):
        bit = 0
        for direction in range(8):
            ray = board.ray(square, direction)
            if not ray:
                ray_guards[square] |= one << (_NEIGHBOURS + direction)
                continue
            ray_firsts[square] |= one << bit
            ray_bit[square, ray[0]] |= one << (_NEIGHBOURS + direction)
            mask = np.int64(0)
            for other in ray:
                ray_bit[square, other] |= one << bit
                ray_square[square, bit] = other
                mask |= one << bit
                bit += 1
            ray_guards[square] |= one << bit
            bit += 1
            # A piece slides in along this ray only if the opposite neighbour (DIRECTIONS lists opposite
            # directions four apart) stops it.
            ray_live[square, (blocked >> (direction ^ 4)) & 1 == 1] |= mask
        assert bit <= _NEIGHBOURS, "the board's rays do not fit the ray word (Game checks MAX_RAY_SQUARES)"
    return {"ray_bit": ray_bit, "ray_guards": ray_guards, "ray_firsts": ray_firsts, "ray_live": ray_live,
            "ray_square": ray_square}


def _partition(squares: int, parts: int) -> npt.NDArray[np.int32]:
    """``part_of[mover rank]``: which of ``parts`` parts settles the indices of that mover rank.

    Parts take turns over runs of ranks that span a multiple of 8 indices (:func:`run_length`), so that
    they share no byte of the decided bits, and each part gets its share of every region of the index
    (the predecessors of a level crowd into some regions more than others)."""
    movers = len(index.triples(squares))
    return (np.arange(movers) // run_length(squares) % parts).astype(np.int32)


def run_length(squares: int) -> int:
    """The fewest consecutive mover ranks whose indices span a multiple of 8 (a whole number of bytes
    of one-bit-per-index arrays)."""
    return 8 // gcd(index.other_count(squares), 8)
