"""How a game or a line ends: the :class:`~solver.neutreeko.model.outcome.Termination` and the :class:`~solver.neutreeko.model.outcome.Outcome`, in the spirit of
python-chess's ``Outcome``, and the one place that decides whether play has ended.

A game ends when the side that has just moved has three in a row (it wins), when the side to move has
no move (it loses: this never happens on 5 x 5), or when a position occurs for the third time (a draw;
the position play starts from counts as its first occurrence). Play may also be stopped before that:
a line after its ply limit, a game by ``quit``, the end of its input or Ctrl-C.

>>> from solver.neutreeko.model.position import Position
>>> ending(Position.parse("start"), occurrences=1) is None, ending(Position.parse("start"), occurrences=3).result
(True, 'draw by repetition')
>>> over = ending(Position.parse("b4/1b3/2b2/w4/w3w w"), occurrences=1)
>>> over.result, over.reason(Position.parse("b4/1b3/2b2/w4/w3w w"))
('black wins', 'three in a row on C3 B4 A5')
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from solver.neutreeko.model.position import BLACK, WHITE, Colour, Position


class Termination(enum.Enum):
    """Why play ended."""

    THREE_IN_A_ROW = "three in a row"
    NO_MOVE = "no move"
    REPETITION = "repetition"
    PLY_LIMIT = "ply limit"
    QUIT = "quit"
    END_OF_INPUT = "end of input"
    INTERRUPTED = "interrupted"


_STOPPED = {Termination.PLY_LIMIT: "stopped", Termination.QUIT: "quit", Termination.END_OF_INPUT: "end of input",
            Termination.INTERRUPTED: "interrupted"}


@dataclass(frozen=True)
class Outcome:
    """The end of play: its :class:`Termination` and the winner (None for a draw or when stopped)."""

    termination: Termination
    winner: Colour | None = None

    @property
    def finished(self) -> bool:
        """True when the game itself ended (a win or a draw), False when play was only stopped."""
        return self.termination not in _STOPPED

    @property
    def result(self) -> str:
        """``"black wins"``, ``"white wins"``, ``"draw by repetition"``, or for play that was stopped
        ``"stopped"`` (a line's ply limit), ``"quit"``, ``"end of input"`` or ``"interrupted"`` (Ctrl-C)."""
        if self.winner is not None:
            return f"{self.winner} wins"
        if self.termination is Termination.REPETITION:
            return "draw by repetition"
        return _STOPPED[self.termination]

    def reason(self, position: Position) -> str:
        """Why the game ended in ``position``, its last position: ``"three in a row on B1 C2 D3"``,
        ``"White cannot move"``, ``"the same position for the third time"`` (the termination's own
        name when play was stopped)."""
        if self.termination is Termination.THREE_IN_A_ROW:
            line = position.black if self.winner == BLACK else position.white
            return f"three in a row on {' '.join(position.game.board.name(square) for square in line)}"
        if self.termination is Termination.NO_MOVE:
            return f"{position.side_to_move.capitalize()} cannot move"
        if self.termination is Termination.REPETITION:
            return "the same position for the third time"
        return str(self.termination.value)


#: Every result a line can end with (see :attr:`Outcome.result`).
LINE_RESULTS = ("black wins", "white wins", "draw by repetition", "stopped")


def game_over(position: Position) -> Outcome | None:
    """How the game has ended in ``position`` by itself (three in a row or no move), or None."""
    winner = position.winner()
    if winner is not None:
        return Outcome(Termination.THREE_IN_A_ROW, winner)
    if not position.moves():
        return Outcome(Termination.NO_MOVE, WHITE if position.black_to_move else BLACK)
    return None


def ending(position: Position, occurrences: int) -> Outcome | None:
    """How play has ended in ``position``, which has now occurred ``occurrences`` times (the start of
    play counting as one), or None if it goes on."""
    over = game_over(position)
    if over is not None:
        return over
    if occurrences >= 3:
        return Outcome(Termination.REPETITION)
    return None
