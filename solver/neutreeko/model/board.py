"""Board geometry: squares, names and the eight sliding directions.

Squares are numbered from 0 along rank 1 (A1 = 0, B1 = 1, ...), then rank 2, and so on, so that on a
board ``width`` files wide the square on file ``f`` and rank ``r`` (both from 0) is ``r * width + f``::

    rank 3 |  8  9 10 11        (a 4 x 3 board)
    rank 2 |  4  5  6  7
    rank 1 |  0  1  2  3
           +------------
              A  B  C  D

Nothing here knows about pieces or winning; this module only answers "where is what".
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass
from functools import cached_property

from solver.core.answers.notation import checked, quote
from solver.core.errors import BoardError

Square = int

#: The sides a board may have. The ceiling is this one number (11 x 11: 76.9 billion indices, a solve
#: of about 86 GB over positions, about 11 GB over symmetry classes); :class:`~solver.neutreeko.model.game.Game` checks that a game fits what the solver's arrays
#: can hold (:data:`MAX_RAY_SQUARES`, :data:`MAX_INDICES`).
MIN_SIDE, MAX_SIDE = 3, 11
#: The kernels see the squares along a square's eight rays, with one guard bit after each ray, and eight
#: bits more, as one 64-bit word (see :mod:`solver.neutreeko.solving.kernel_inputs`): at most 48 squares on the
#: rays of any square (a 13 x 13 board; 11 x 11 has at most 40).
MAX_RAY_SQUARES = 48
#: The kernels hold position indices as int64 (as int32 on boards where they fit).
MAX_INDICES = 2**63 - 1

#: The eight directions a piece may slide in, as (file step, rank step).
DIRECTIONS: tuple[tuple[int, int], ...] = (
    (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1),
)

FILE_LETTERS = string.ascii_uppercase[:MAX_SIDE]

#: Board.parse refuses longer text (``7x7`` needs 3 characters).
_LONGEST_BOARD = 16
_BOARD_PATTERN = re.compile(r"([0-9]+) *[xX] *([0-9]+)")
# A rank number has no leading zero; three digits are more than any board needs.
_SQUARE_PATTERN = re.compile(r"([A-Za-z])([1-9][0-9]{0,2})")


@dataclass(frozen=True)
class Board:
    """A rectangular board ``width`` files by ``height`` ranks, each side from :data:`MIN_SIDE` to
    :data:`MAX_SIDE` (3 to 11)."""

    width: int
    height: int

    def __post_init__(self) -> None:
        for side in (self.width, self.height):
            if not MIN_SIDE <= side <= MAX_SIDE:
                raise BoardError(
                    f"board {self.width}x{self.height} is not supported: each side must be "
                    f"from {MIN_SIDE} to {MAX_SIDE}"
                )

    @classmethod
    def parse(cls, text: str) -> Board:
        """Read ``WIDTHxHEIGHT`` (files x ranks), e.g. ``5x5``; raise :class:`~solver.core.errors.BoardError` otherwise (see
        :func:`solver.core.answers.notation.checked` for what is refused before parsing)."""
        text = checked(text, "board", _LONGEST_BOARD, BoardError)
        match = _BOARD_PATTERN.fullmatch(text)
        if not match:
            raise BoardError(f"board {quote(text)} is not of the form WIDTHxHEIGHT, e.g. 5x5")
        return cls(int(match.group(1)), int(match.group(2)))

    def __str__(self) -> str:
        return f"{self.width}x{self.height}"

    @property
    def size(self) -> int:
        """Number of squares."""
        return self.width * self.height

    def square(self, file: int, rank: int) -> Square:
        """The square on ``file`` and ``rank`` (both counted from 0)."""
        return rank * self.width + file

    def file_of(self, square: Square) -> int:
        return square % self.width

    def rank_of(self, square: Square) -> int:
        return square // self.width

    def on_board(self, file: int, rank: int) -> bool:
        return 0 <= file < self.width and 0 <= rank < self.height

    def name(self, square: Square) -> str:
        """The square's name, upper case: ``C4``."""
        return f"{FILE_LETTERS[self.file_of(square)]}{self.rank_of(square) + 1}"

    def parse_square(self, text: str) -> Square:
        """Read a square name (``C4``, the letter in any case); raise :class:`~solver.core.errors.BoardError` if it is not
        on this board."""
        match = _SQUARE_PATTERN.fullmatch(text.strip())
        if not match:
            raise BoardError(f"{quote(text)} is not a square name such as C4")
        file = ord(match.group(1).upper()) - ord("A")
        rank = int(match.group(2)) - 1
        if not self.on_board(file, rank):
            raise BoardError(f"square {text.strip().upper()} is not on the {self} board")
        return self.square(file, rank)

    def ray_squares(self, square: Square) -> int:
        """How many squares lie along the eight rays from ``square`` (to the board's edges)."""
        return sum(len(self.ray(square, direction)) for direction in range(len(DIRECTIONS)))

    def ray(self, square: Square, direction: int) -> tuple[Square, ...]:
        """The squares met going out from ``square`` in ``direction`` (an index of :data:`DIRECTIONS`), nearest
        first, up to the edge."""
        squares = []
        step = self.steps[square][direction]
        while step >= 0:
            squares.append(step)
            step = self.steps[step][direction]
        return tuple(squares)

    @cached_property
    def steps(self) -> tuple[tuple[int, ...], ...]:
        """``steps[square][direction]``: the neighbouring square in that direction, or -1 off the board."""
        table = []
        for square in range(self.size):
            file, rank = self.file_of(square), self.rank_of(square)
            table.append(tuple(
                self.square(file + df, rank + dr) if self.on_board(file + df, rank + dr) else -1
                for df, dr in DIRECTIONS
            ))
        return tuple(table)
