"""A game: a board and a winning condition, with the lookup arrays that the solver and the queries share."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from solver.core.errors import BoardError
from solver.neutreeko.model import index
from solver.neutreeko.model.board import MAX_INDICES, MAX_RAY_SQUARES, Board
from solver.neutreeko.model.rules import DEFAULT_RULE, Rule, Triple, start_squares


@dataclass(frozen=True)
class Game:
    """Neutreeko on ``board`` won by ``rule``. Build one with :meth:`of`."""

    board: Board
    rule: Rule

    @classmethod
    def of(cls, board: Board | str = "5x5", rule: Rule | str = DEFAULT_RULE) -> Game:
        """The game for a board (``Board`` or ``"5x5"``) and a rule (``Rule`` or its name).

        Raises :class:`~solver.core.errors.BoardError` or :class:`~solver.neutreeko.model.rules.RuleError` for a board or
        rule that does not exist or does not go together."""
        board = board if isinstance(board, Board) else Board.parse(board)
        rule = rule if isinstance(rule, Rule) else Rule.of(rule)
        rule.check(board)
        return cls(board, rule)

    def __post_init__(self) -> None:
        rays = max(self.board.ray_squares(square) for square in range(self.board.size))
        if rays > MAX_RAY_SQUARES or self.positions > MAX_INDICES:
            raise BoardError(f"board {self.board} is too large for the solver: at most {MAX_RAY_SQUARES} squares "
                             f"along the rays of a square and {MAX_INDICES:,} indices")

    def __str__(self) -> str:
        return f"{self.board} {self.rule.name}"

    def __repr__(self) -> str:
        return f"Game({str(self.board)!r}, {self.rule.name!r})"

    @property
    def positions(self) -> int:
        """Number of indices (legal or not) of the dense index."""
        return index.position_count(self.board.size)

    @cached_property
    def winning_triples(self) -> frozenset[Triple]:
        return self.rule.winning_triples(self.board)

    @cached_property
    def wins(self) -> np.ndarray:
        """``wins[rank]``: does the triple of that :func:`~solver.neutreeko.model.index.triple_rank` win? (bool)"""
        table = np.zeros(len(index.triples(self.board.size)), dtype=np.bool_)
        for triple in self.winning_triples:
            table[index.triple_rank(*triple)] = True
        return table

    @cached_property
    def start(self) -> tuple[Triple, Triple]:
        """(Black's squares, White's squares) of the start position; Black moves first."""
        return start_squares(self.board, self.rule)
