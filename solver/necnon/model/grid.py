"""NECNON's boards: rectangles of square cells and hexhex boards of hexagonal cells, their cell names,
neighbours, rows (for the notation and for text diagrams), centres (for pictures) and symmetries.

A :class:`Grid` is made by :meth:`Grid.square` (``WxH``, each side 2 to 7), :meth:`Grid.hexhex` (``hexN``,
base N from 2 to 6) or :meth:`Grid.parse` of a board's name (:class:`~solver.core.errors.BoardError` if
it names none). Cells are numbered from the bottom row up, left to right in each row. A square cell
is named by its file letter and rank number, as in chess (``a1`` = 0, bottom left), and has up to 4
neighbours (a shared edge); a hexagonal cell as Abalone names its board, a row letter from the bottom
and a number along the diagonals, and has up to 6 neighbours::

    hex3         e3  e4  e5
               d2  d3  d4  d5
             c1  c2  c3  c4  c5        a1 = 0, a2 = 1, a3 = 2, b1 = 3, ..., e5 = 18
               b1  b2  b3  b4
                 a1  a2  a3

:meth:`Grid.name` and :meth:`Grid.parse_cell` convert between cells and names. :meth:`Grid.symmetries`
lists the symmetries (8 on a square board, 4 on a rectangle, 12 on a hexhex board) as permutations of
the cells, the identity first.

The numbering, the neighbours and the symmetries in full: docs/design/necnon.md.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass
from functools import cached_property
from typing import Literal

import numpy as np
import numpy.typing as npt

from solver.core.answers.notation import checked, quote
from solver.core.errors import BoardError

Cell = int
Kind = Literal["square", "hex"]

MIN_SIDE, MAX_SIDE = 2, 7
MIN_BASE, MAX_BASE = 2, 6
#: The most neighbours a cell has (on a hexhex board).
MAX_NEIGHBOURS = 6
#: The most cells a row of any board holds (the middle row of hex6).
MAX_ROW = max(MAX_SIDE, 2 * MAX_BASE - 1)
LETTERS = string.ascii_lowercase
#: :meth:`Grid.parse` refuses longer text (``hex6`` needs 4 characters).
MAX_BOARD_LENGTH = 16

_SQUARE_PATTERN = re.compile(r"([0-9]+) *[xX] *([0-9]+)")
_HEX_PATTERN = re.compile(r"hex *([0-9]+)", re.IGNORECASE)
# Two digits are more than any board needs (hex6's diagonals are numbered up to 11).
_CELL_PATTERN = re.compile(r"([A-Za-z])([0-9]{1,2})")


@dataclass(frozen=True)
class Grid:
    """A board: ``kind`` ``"square"`` with ``width`` files and ``height`` ranks, or ``"hex"`` with
    ``width == height`` the base. Build one with :meth:`parse`, :meth:`~solver.neutreeko.model.board.Board.square` or :meth:`hexhex`."""

    kind: Kind
    width: int
    height: int

    def __post_init__(self) -> None:
        if self.kind == "square":
            if not (MIN_SIDE <= self.width <= MAX_SIDE and MIN_SIDE <= self.height <= MAX_SIDE):
                raise BoardError(f"board {self.width}x{self.height} is not supported: each side must be from "
                                 f"{MIN_SIDE} to {MAX_SIDE}")
        elif self.kind == "hex":
            if self.width != self.height or not MIN_BASE <= self.width <= MAX_BASE:
                raise BoardError(f"board hex{self.width} is not supported: a hexhex board's base is from "
                                 f"{MIN_BASE} to {MAX_BASE}")
        else:
            raise BoardError(f"unknown kind of board {self.kind!r}: square or hex")

    @classmethod
    def square(cls, width: int, height: int) -> Grid:
        return cls("square", width, height)

    @classmethod
    def hexhex(cls, base: int) -> Grid:
        return cls("hex", base, base)

    @classmethod
    def parse(cls, text: str) -> Grid:
        """``WxH`` (e.g. ``4x4``, ``5x4``: files x ranks) or ``hexN`` (e.g. ``hex3``), spaces allowed
        around it and its number; raise :class:`~solver.core.errors.BoardError` otherwise, or for text that is not printable
        ASCII or is longer than :data:`MAX_BOARD_LENGTH`.

        >>> Grid.parse("5x4"), Grid.parse("hex3").cells
        (Grid(kind='square', width=5, height=4), 19)
        """
        text = checked(text, "board", MAX_BOARD_LENGTH, BoardError)
        if match := _SQUARE_PATTERN.fullmatch(text):
            return cls.square(int(match.group(1)), int(match.group(2)))
        if match := _HEX_PATTERN.fullmatch(text):
            return cls.hexhex(int(match.group(1)))
        raise BoardError(f"board {quote(text)} is neither WIDTHxHEIGHT (e.g. 4x4) nor hexN (e.g. hex3)")

    @classmethod
    def of_rows(cls, lengths: list[int]) -> Grid:
        """The board whose rows, from the top, have these numbers of cells (as the notation gives
        them); :class:`~solver.core.errors.BoardError` if none has.

        >>> str(Grid.of_rows([3, 4, 5, 4, 3])), str(Grid.of_rows([4, 4, 4]))
        ('hex3', '4x3')
        """
        rows = len(lengths)
        if len(set(lengths)) == 1:
            return cls.square(lengths[0], rows)
        base = (rows + 1) // 2
        if rows % 2 == 1 and lengths == [2 * base - 1 - abs(row - base + 1) for row in range(rows)]:
            return cls.hexhex(base)
        raise BoardError(f"rows of {', '.join(map(str, lengths))} cells make neither a rectangle nor a hexhex board")

    def __str__(self) -> str:
        return f"{self.width}x{self.height}" if self.kind == "square" else f"hex{self.width}"

    def describe(self) -> str:
        """``"4 x 4 squares"``, ``"hexhex base 3"``."""
        return f"{self.width} x {self.height} squares" if self.kind == "square" else f"hexhex base {self.width}"

    # -- cells --------------------------------------------------------------------------------------

    @cached_property
    def _coordinates(self) -> tuple[tuple[int, int], ...]:
        """(row from the bottom, column) of each cell: the file on squares, the diagonal number minus
        one on hexes."""
        if self.kind == "square":
            return tuple((rank, file) for rank in range(self.height) for file in range(self.width))
        base = self.width
        return tuple((row, column) for row in range(2 * base - 1) for column in range(2 * base - 1)
                     if abs(column - row) <= base - 1)

    @cached_property
    def _cell_at(self) -> dict[tuple[int, int], Cell]:
        return {coordinates: cell for cell, coordinates in enumerate(self._coordinates)}

    @property
    def cells(self) -> int:
        """Number of cells."""
        return len(self._coordinates)

    def name(self, cell: Cell) -> str:
        """``c3``: the letter of the file (squares) or row (hexes), then the rank or diagonal number."""
        row, column = self._coordinates[cell]
        return f"{LETTERS[column]}{row + 1}" if self.kind == "square" else f"{LETTERS[row]}{column + 1}"

    def parse_cell(self, text: str) -> Cell:
        """The cell named ``text`` (any case); :class:`~solver.core.errors.BoardError` if there is none on this board."""
        match = _CELL_PATTERN.fullmatch(text.strip())
        if not match:
            raise BoardError(f"{quote(text.strip())} is not a cell name such as c3")
        letter, number = LETTERS.index(match.group(1).lower()), int(match.group(2)) - 1
        coordinates = (number, letter) if self.kind == "square" else (letter, number)
        if coordinates not in self._cell_at:
            raise BoardError(f"there is no cell {text.strip().lower()} on the {self} board")
        return self._cell_at[coordinates]

    @cached_property
    def rows(self) -> tuple[tuple[Cell, ...], ...]:
        """The cells row by row, the top row first, each row from left to right."""
        rows: dict[int, list[Cell]] = {}
        for cell, (row, _) in enumerate(self._coordinates):
            rows.setdefault(row, []).append(cell)
        return tuple(tuple(rows[row]) for row in sorted(rows, reverse=True))

    @cached_property
    def neighbours(self) -> tuple[tuple[Cell, ...], ...]:
        """``neighbours[cell]``: the cells sharing an edge with it, in increasing order."""
        steps = ((0, 1), (0, -1), (1, 0), (-1, 0)) if self.kind == "square" else \
            ((0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1))
        table = []
        for row, column in self._coordinates:
            near = (self._cell_at.get((row + d_row, column + d_column)) for d_row, d_column in steps)
            table.append(tuple(sorted(cell for cell in near if cell is not None)))
        return tuple(table)

    @cached_property
    def neighbour_table(self) -> npt.NDArray[np.int8]:
        """:attr:`neighbours` as the kernels read them: ``table[cell, k]``, ``-1`` after the last
        (read-only, shape ``(cells, MAX_NEIGHBOURS)``)."""
        table = np.full((self.cells, MAX_NEIGHBOURS), -1, dtype=np.int8)
        for cell, near in enumerate(self.neighbours):
            table[cell, :len(near)] = near
        table.flags.writeable = False
        return table

    def centre(self, cell: Cell) -> tuple[float, float]:
        """Where the cell's centre is drawn, in units of a cell's width, ``x`` rightwards and ``y``
        downwards from the top-left corner of the board's bounding box (rows of hexagons are
        ``sqrt(3)/2`` apart)."""
        row, column = self._coordinates[cell]
        if self.kind == "square":
            return column + 0.5, self.height - row - 0.5
        base = self.width
        return column - row / 2 + (base - 1) / 2 + 0.5, (2 * base - 2 - row) * 3 ** 0.5 / 2 + 3 ** 0.5 / 3

    def extent(self) -> tuple[float, float]:
        """Width and height of the board's bounding box, in the units of :meth:`centre`."""
        if self.kind == "square":
            return float(self.width), float(self.height)
        base = self.width
        return 2 * base - 1.0, (2 * base - 2) * 3 ** 0.5 / 2 + 2 * 3 ** 0.5 / 3

    # -- symmetries ---------------------------------------------------------------------------------

    def _image(self, cell: Cell, turns: int, mirrored: bool) -> Cell:
        row, column = self._coordinates[cell]
        if self.kind == "square":
            x, y = column, row
            if mirrored:
                x = self.width - 1 - x
            for _ in range(turns):
                x, y = (self.width - 1 - y, x) if self.width == self.height else \
                    (self.width - 1 - x, self.height - 1 - y)
            return self._cell_at[(y, x)]
        centre = self.width - 1
        a, b = column - centre, row - centre
        if mirrored:
            a, b = b, a
        for _ in range(turns):
            a, b = a - b, a  # a turn of 60 degrees: each neighbour direction goes to the next one
        return self._cell_at[(b + centre, a + centre)]

    @cached_property
    def symmetries(self) -> npt.NDArray[np.int8]:
        """``symmetries[g, cell]``: the image of ``cell`` under symmetry ``g``, read-only, shape
        ``(8, cells)`` on a square board, ``(4, cells)`` on a rectangle, ``(12, cells)`` on a hexhex
        board; ``g = 0`` is the identity, then the turns, then each turn after a mirror.

        >>> [len(Grid.parse(board).symmetries) for board in ("4x4", "5x4", "hex3")]
        [8, 4, 12]
        """
        turns = 6 if self.kind == "hex" else 4 if self.width == self.height else 2
        table = np.array([[self._image(cell, turn, mirrored) for cell in range(self.cells)]
                          for mirrored in (False, True) for turn in range(turns)], dtype=np.int8)
        table.flags.writeable = False
        return table
