"""A slow, obviously correct NECNON solver for small boards, written from the rules alone
(NECNON's rules and the package's documented choices, as docs/guide/necnon.md states them), sharing no code
with the package.

* Cells are points of the plane: (x, y) on squares; on a hexhex board of base n, the cube coordinates
  (a, b, c), a + b + c = 0, each at most n - 1 in size, drawn at x = a + b/2, y = b (y upwards).
  Neighbours: squares at distance 1 (sharing an edge); hexes differing by one of the six unit moves.
* A position is (black cells, green cells, Black to move?, consecutive passes just made).
* A player may lay a stone on an empty cell whose number k of enemy neighbours is 0, or, under NEC,
  odd, or, under NON, even. The first turn (empty board) lays one stone; later turns lay two distinct
  allowed cells, one if only one is allowed, and pass if none is.
* The game is over after two passes in a row or when the board is full; then each group with no
  empty neighbour gives its size to the other colour.
* Value: Black maximises Black's points minus Green's, Green minimises it. Turns to the end: the
  winner the fewest, the loser the most, both the fewest at margin 0.

The value is plain recursion with a dictionary of positions seen (no symmetry, no bit tricks). The
last section writes positions in the package's notation (rows from the top, digits for runs of empty
cells) from the cells' drawing coordinates and the documented names, so the tests can compare.
"""

from __future__ import annotations

import string
from functools import lru_cache
from itertools import combinations

Cell = tuple[int, ...]
State = tuple[frozenset, frozenset, bool, int]


class Board:
    """Cells, neighbours and the drawing of a board: ``Board("square", 3, 2)`` or ``Board("hex", 2)``."""

    def __init__(self, kind: str, width: int, height: int | None = None) -> None:
        self.kind = kind
        if kind == "square":
            self.cells = [(x, y) for x in range(width) for y in range(height or width)]
        else:
            n = width
            self.cells = [(a, b, -a - b) for a in range(-n + 1, n) for b in range(-n + 1, n)
                          if abs(a + b) <= n - 1]
        self.neighbours = {cell: [other for other in self.cells if self._touch(cell, other)] for cell in self.cells}

    def _touch(self, one: Cell, other: Cell) -> bool:
        if self.kind == "square":
            return abs(one[0] - other[0]) + abs(one[1] - other[1]) == 1
        return sorted(p - q for p, q in zip(one, other)) == [-1, 0, 1]

    def drawn_at(self, cell: Cell) -> tuple[float, int]:
        """(x, y) of the cell's centre, y upwards, in cell widths."""
        if self.kind == "square":
            return cell[0], cell[1]
        return cell[0] + cell[1] / 2, cell[1]

    def rows_from_top(self) -> list[list[Cell]]:
        ys = sorted({self.drawn_at(cell)[1] for cell in self.cells}, reverse=True)
        return [sorted((cell for cell in self.cells if self.drawn_at(cell)[1] == y), key=lambda c: self.drawn_at(c)[0])
                for y in ys]

    def name(self, cell: Cell) -> str:
        """Squares: file letter and rank from a1 at the bottom left. Hexes: row letter from the bottom,
        then a number that grows by one to the right along a row and stays the same one row up and half
        a cell to the left; a1 is the bottom row's left cell."""
        x, y = self.drawn_at(cell)
        bottom = min(self.drawn_at(c)[1] for c in self.cells)
        left = min(self.drawn_at(c)[0] for c in self.cells)
        if self.kind == "square":
            return f"{string.ascii_lowercase[int(x - left)]}{int(y - bottom) + 1}"
        row = int(y - bottom)
        a1 = min((c for c in self.cells if self.drawn_at(c)[1] == bottom), key=lambda c: self.drawn_at(c)[0])
        number = (x - self.drawn_at(a1)[0]) + row / 2 + 1
        return f"{string.ascii_lowercase[row]}{int(number)}"


class Reference:
    """Values of every position reachable from the empty board of ``board`` under ``protocols`` (Black's,
    Green's: "nec" or "non")."""

    def __init__(self, board: Board, black: str, green: str) -> None:
        self.board = board
        self.protocols = {True: black, False: green}
        self.values: dict[State, tuple[int, int]] = {}

    def allowed(self, state: State) -> list[Cell]:
        black, green, black_to_move, _ = state
        enemy = green if black_to_move else black
        protocol = self.protocols[black_to_move]
        cells = []
        for cell in self.board.cells:
            if cell in black or cell in green:
                continue
            k = sum(near in enemy for near in self.board.neighbours[cell])
            if k == 0 or (protocol == "nec" and k % 2 == 1) or (protocol == "non" and k % 2 == 0):
                cells.append(cell)
        return cells

    def over(self, state: State) -> bool:
        black, green, _, passes = state
        return passes == 2 or len(black) + len(green) == len(self.board.cells)

    def children(self, state: State) -> list[State]:
        black, green, black_to_move, passes = state
        allowed = self.allowed(state)
        if not allowed:
            return [(black, green, not black_to_move, passes + 1)]
        if not black and not green or len(allowed) == 1:
            turns = [(cell,) for cell in allowed]
        else:
            turns = list(combinations(allowed, 2))
        if black_to_move:
            return [(black | frozenset(turn), green, False, 0) for turn in turns]
        return [(black, green | frozenset(turn), True, 0) for turn in turns]

    def score(self, state: State) -> int:
        black, green, _, _ = state
        margin = 0
        for own, sign in ((black, -1), (green, 1)):
            left = set(own)
            while left:
                group, frontier = set(), [left.pop()]
                while frontier:
                    cell = frontier.pop()
                    group.add(cell)
                    for near in self.board.neighbours[cell]:
                        if near in left:
                            left.remove(near)
                            frontier.append(near)
                breathes = any(near not in black and near not in green
                               for cell in group for near in self.board.neighbours[cell])
                if not breathes:
                    margin += sign * len(group)
        return margin

    def value(self, state: State) -> tuple[int, int]:
        """(margin, turns) of ``state``."""
        if state in self.values:
            return self.values[state]
        if self.over(state):
            result = (self.score(state), 0)
        else:
            options = [self.value(child) for child in self.children(state)]
            black_to_move = state[2]
            best = max(margin if black_to_move else -margin for margin, _ in options)
            margin = best if black_to_move else -best
            lengths = [turns for m, turns in options if m == margin]
            result = (margin, 1 + (max(lengths) if best < 0 else min(lengths)))
        self.values[state] = result
        return result

    def solve(self) -> tuple[int, int]:
        return self.value((frozenset(), frozenset(), True, 0))

    def notation(self, state: State) -> str:
        """``state`` in the package's documented notation."""
        black, green, black_to_move, passes = state
        rows = []
        for row in self.board.rows_from_top():
            text, run = "", 0
            for cell in row:
                if cell in black or cell in green:
                    text += (str(run) if run else "") + ("b" if cell in black else "g")
                    run = 0
                else:
                    run += 1
            rows.append(text + (str(run) if run else ""))
        return "/".join(rows) + (" b" if black_to_move else " g") + ("", " p", " pp")[passes]


@lru_cache(maxsize=None)
def solved(kind: str, width: int, height: int, black: str, green: str) -> Reference:
    """A reference solved once a session."""
    reference = Reference(Board(kind, width, height), black, green)
    reference.solve()
    return reference
