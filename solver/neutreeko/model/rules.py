"""Winning conditions and start positions, as data.

A winning condition is nothing but the set of three-square sets that win: the solver and the position
model only ask "is this triple in the set?". Adding a condition means adding an entry to :data:`RULES`.

Haugland's five conditions (``connected`` is standard Neutreeko):

============  ===============================================================  ======================
name          a player wins with three pieces ...                              offered on
============  ===============================================================  ======================
connected     in a line of three adjacent squares, orthogonal or diagonal      every board
orthogonal    in a line of three adjacent squares along a file or a rank       every board
diagonal      in a line of three adjacent squares along a diagonal             both sides at least 4
equidistant   equally spaced on a straight line, the middle one halfway        a side at least 5
              between the others (A1 C1 E1, A1 C3 E5, A1 B3 C5)
centre        ... as soon as one of them stands on the centre square           both sides odd, >= 5
============  ===============================================================  ======================

A side to move with no legal move has lost (this never happens in standard 5 x 5 play).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Callable, Iterable

from solver.core.answers.notation import checked, quote
from solver.core.errors import InputError
from solver.neutreeko.model.board import Board, Square

Triple = tuple[Square, Square, Square]


def sorted_triple(squares: Iterable[Square]) -> Triple:
    """Three squares as a sorted triple (:class:`ValueError` if they are not three)."""
    a, b, c = sorted(squares)
    return a, b, c


class RuleError(InputError, ValueError):
    """An unknown winning condition, or one not offered on the chosen board."""


_ORTHOGONAL_STEPS = ((1, 0), (0, 1))
_DIAGONAL_STEPS = ((1, 1), (-1, 1))


def _adjacent_lines(board: Board, steps: tuple[tuple[int, int], ...]) -> set[Triple]:
    lines = set()
    for square in range(board.size):
        file, rank = board.file_of(square), board.rank_of(square)
        for df, dr in steps:
            if board.on_board(file + 2 * df, rank + 2 * dr):
                lines.add(sorted_triple(board.square(file + k * df, rank + k * dr) for k in range(3)))
    return lines


def _equally_spaced(board: Board) -> set[Triple]:
    triples = set()
    for a, c in combinations(range(board.size), 2):
        df = board.file_of(c) - board.file_of(a)
        dr = board.rank_of(c) - board.rank_of(a)
        if df % 2 == 0 and dr % 2 == 0:
            middle = board.square(board.file_of(a) + df // 2, board.rank_of(a) + dr // 2)
            triples.add(sorted_triple((a, middle, c)))
    return triples


def _centre_square(board: Board) -> Square:
    return board.square(board.width // 2, board.height // 2)


def _through_centre(board: Board) -> set[Triple]:
    centre = _centre_square(board)
    return {triple for triple in combinations(range(board.size), 3) if centre in triple}


@dataclass(frozen=True)
class Rule:
    """A winning condition: its name, the triples that win on a board, and where it is offered."""

    name: str
    summary: str
    _triples: Callable[[Board], set[Triple]]
    _offered: Callable[[Board], bool]
    limits: str

    def __repr__(self) -> str:
        return f"Rule({self.name!r})"

    @staticmethod
    def of(name: str) -> Rule:
        """The rule called ``name`` (any case); raise :class:`RuleError` naming the known ones otherwise."""
        try:
            return RULES[checked(name, "rule", MAX_RULE_LENGTH, RuleError).lower()]
        except KeyError:
            raise RuleError(f"unknown rule {quote(name)}; known rules: {', '.join(RULES)}") from None

    def check(self, board: Board) -> None:
        """Raise :class:`RuleError` if this condition is not offered on ``board``."""
        if not self._offered(board):
            raise RuleError(f"rule {self.name!r} is not offered on the {board} board ({self.limits})")

    def winning_triples(self, board: Board) -> frozenset[Triple]:
        """Every sorted triple of squares that wins on ``board``."""
        self.check(board)
        return frozenset(self._triples(board))


#: Every winning rule, by its name.
RULES: dict[str, Rule] = {
    rule.name: rule
    for rule in (
        Rule("connected", "three in a row, orthogonally or diagonally adjacent",
             lambda board: _adjacent_lines(board, _ORTHOGONAL_STEPS + _DIAGONAL_STEPS),
             lambda board: True, "every board"),
        Rule("orthogonal", "three in a row along a file or a rank",
             lambda board: _adjacent_lines(board, _ORTHOGONAL_STEPS),
             lambda board: True, "every board"),
        Rule("diagonal", "three in a row along a diagonal",
             lambda board: _adjacent_lines(board, _DIAGONAL_STEPS),
             lambda board: min(board.width, board.height) >= 4, "both sides at least 4"),
        Rule("equidistant", "three equally spaced on any straight line",
             _equally_spaced,
             lambda board: max(board.width, board.height) >= 5, "a side at least 5"),
        Rule("centre", "a piece on the centre square",
             _through_centre,
             lambda board: board.width % 2 == 1 and board.height % 2 == 1 and min(board.width, board.height) >= 5,
             "both sides odd and at least 5"),
    )
}

DEFAULT_RULE = "connected"
#: :meth:`Rule.of` refuses longer names.
MAX_RULE_LENGTH = 32


# Haugland's program places the pieces specially for these; every other board and rule numbers the
# squares 1..N from A1 along the ranks and puts Black on 1, 3, N-1 and White on 2, N-2, N.
_SPECIAL_STARTS: dict[tuple[str, str], tuple[tuple[str, ...], tuple[str, ...]]] = {
    ("connected", "5x5"): (("B1", "D1", "C4"), ("B5", "D5", "C2")),
    ("connected", "7x7"): (("C1", "E1", "D5"), ("D3", "C7", "E7")),
    ("centre", "5x5"): (("C1", "A4", "E4"), ("A2", "E2", "C5")),
    ("centre", "7x7"): (("D2", "B5", "F5"), ("B3", "F3", "D6")),
}


def start_squares(board: Board, rule: Rule) -> tuple[Triple, Triple]:
    """(Black's squares, White's squares) at the start; Black moves first."""
    special = _SPECIAL_STARTS.get((rule.name, str(board)))
    if special:
        black, white = ([board.parse_square(name) for name in names] for names in special)
    else:
        n = board.size
        black, white = [0, 2, n - 2], [1, n - 3, n - 1]
    return sorted_triple(black), sorted_triple(white)
