"""Positions: the pieces of both sides and the side to move, in the notation of the rules.

Notation (any board size): ranks from the top down, separated by ``/``; in a rank, files from A
rightwards, ``b`` a Black piece, ``w`` a White piece, a number (1 up to the board's width, no leading
zero) that many empty squares; then a space and the side to move, ``b`` or ``w``. The standard start
is ``1w1w1/2b2/5/2w2/1b1b1 b``; ``start`` (any case) stands for it.

A move is ``FROM-TO`` (``C4-C3``, square letters in any case): one piece slides in one of eight
directions as far as it can (a list of moves is read by :mod:`solver.neutreeko.playing.record`).

Both readers here check their text first as :func:`solver.core.answers.notation.checked` says (printable
ASCII, at most :data:`MAX_POSITION_LENGTH` or :data:`MAX_MOVE_LENGTH` characters), so that parsing
costs time linear in the input, whatever it is.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Literal, NamedTuple

import numpy as np

from solver.core.answers.notation import checked, quote
from solver.core.errors import BoardError, IllegalMoveError, IllegalPositionError, NotationError
from solver.neutreeko.model import index
from solver.neutreeko.model.board import MAX_SIDE, Board, Square
from solver.neutreeko.model.game import Game
from solver.neutreeko.model.rules import DEFAULT_RULE, Triple, sorted_triple

Colour = Literal["black", "white"]
BLACK: Colour = "black"
WHITE: Colour = "white"

#: The longest position on the largest board: its ranks, each at most as long as the board is wide,
#: the slashes between them, a space and the side to move (133 characters on 11 x 11).
_LONGEST_POSITION = MAX_SIDE * (MAX_SIDE + 1) + 1
#: :meth:`Position.parse` refuses longer text: twice the longest position, so that spacing never matters.
MAX_POSITION_LENGTH = 2 * _LONGEST_POSITION
#: :meth:`Position.parse_move` refuses longer text: three times the longest move (two square names
#: and a dash), so that a move slightly wrong still gets a message saying what is wrong with it.
MAX_MOVE_LENGTH = 3 * (2 * (1 + len(str(MAX_SIDE))) + 1)


class Move(NamedTuple):
    """A slide from ``origin`` to ``target`` (squares)."""

    origin: Square
    target: Square

    def name(self, board: Board) -> str:
        return f"{board.name(self.origin)}-{board.name(self.target)}"


_RANK_TOKEN = re.compile(r"[0-9]+|[bw]")


def _parse_rank(text: str, rank_label: int) -> list[str]:
    """One rank of the notation as a list of ``"b"``, ``"w"`` and ``""`` (empty) squares."""
    squares: list[str] = []
    position = 0
    for token in _RANK_TOKEN.finditer(text):
        if token.start() != position:
            raise NotationError(f"unexpected {quote(text[position:token.start()])} in rank {rank_label} {quote(text)}")
        position = token.end()
        run = token.group()
        if run.isdigit():
            # Refuse long runs before expanding them: "999999999999" must not allocate a huge list.
            if run[0] == "0" or len(run) > len(str(MAX_SIDE)) or int(run) > MAX_SIDE:
                raise NotationError(f"{quote(run)} in rank {rank_label} {quote(text)} is not a number of empty "
                                    f"squares: 1 to {MAX_SIDE} (the widest board), no leading zero")
            squares.extend([""] * int(run))
        else:
            squares.append(run)
    if position != len(text) or not text:
        raise NotationError(f"unexpected {quote(text[position:])} in rank {rank_label} {quote(text)}"
                            if text else f"rank {rank_label} is empty")
    return squares


@dataclass(frozen=True)
class Position:
    """Black's and White's squares (sorted) and the side to move, in a :class:`~solver.neutreeko.model.game.Game`.

    A position is *legal* when the side to move does not already have a winning triple; every
    ``Position`` is legal (the constructors check it). Values elsewhere in the package are always
    from the point of view of the side to move.
    """

    game: Game
    black: Triple
    white: Triple
    black_to_move: bool

    def __post_init__(self) -> None:
        squares = set(self.black) | set(self.white)
        if len(self.black) != 3 or len(self.white) != 3 or len(squares) != 6:
            raise NotationError("each side needs exactly three pieces on distinct squares")
        if not all(0 <= square < self.game.board.size for square in squares):
            raise NotationError(f"a piece stands off the {self.game.board} board")
        if self.mover in self.game.winning_triples:
            raise IllegalPositionError(f"{self.fen()} is not a legal position: {self.side_to_move} to move "
                                       f"already has a winning triple")

    # -- construction -----------------------------------------------------------------------------

    @classmethod
    def parse(cls, text: str, rule: str = "connected", game: Game | None = None) -> Position:
        """Read the notation (or ``start``). The board comes from the text; with ``game`` given it must match.

        Raises :class:`~solver.core.errors.NotationError` naming the offending part, without parsing
        text that is longer than :data:`MAX_POSITION_LENGTH` or not printable ASCII."""
        text = checked(text, "position", MAX_POSITION_LENGTH)
        if text.lower() == "start":
            return cls.start(game or Game.of("5x5", rule))
        fields = text.split()
        if len(fields) != 2:
            raise NotationError(f"position {quote(text)} needs the ranks, a space and the side to move (b or w)")
        placement, side = fields
        if side not in ("b", "w"):
            raise NotationError(f"side to move {quote(side)} is not b or w (lower case)")
        rank_texts = placement.split("/")
        ranks = [_parse_rank(rank, len(rank_texts) - number) for number, rank in enumerate(rank_texts)]
        widths = {len(rank) for rank in ranks}
        if len(widths) != 1:
            # Name the first rank whose width is not the most common one (the first seen, on a tie).
            counts = Counter(len(rank) for rank in ranks)
            usual = max(counts, key=counts.__getitem__)
            odd = next(number for number, rank in enumerate(ranks) if len(rank) != usual)
            raise NotationError(f"rank {len(ranks) - odd} {quote(rank_texts[odd])} of {quote(placement)} "
                                f"is {len(ranks[odd])} squares wide; most ranks are {usual}")
        try:
            board = Board(widths.pop(), len(ranks))
        except BoardError as error:
            raise NotationError(f"position {quote(placement)}: {error}") from None
        if game is None:
            game = Game.of(board, rule)
        elif game.board != board:
            raise NotationError(f"position {quote(placement)} has {board.height} ranks of {board.width} squares: "
                                f"a {board} board, not {game.board}")
        pieces: dict[str, list[Square]] = {"b": [], "w": []}
        for row, rank in enumerate(ranks):
            for file, occupant in enumerate(rank):
                if occupant:
                    pieces[occupant].append(board.square(file, board.height - 1 - row))
        for colour, name in (("b", BLACK), ("w", WHITE)):
            if len(pieces[colour]) != 3:
                raise NotationError(f"{name} has {len(pieces[colour])} pieces in {quote(placement)}, not 3")
        return cls(game, sorted_triple(pieces["b"]), sorted_triple(pieces["w"]), side == "b")

    @classmethod
    def start(cls, game: Game) -> Position:
        """The start position of ``game``: Black to move."""
        black, white = game.start
        return cls(game, black, white, True)

    @classmethod
    def from_index(cls, game: Game, position_index: int, black_to_move: bool = True) -> Position:
        """The position of a dense index (see :mod:`solver.neutreeko.model.index`), with the given side to move."""
        mover, other = (sorted_triple(int(square) for square in side)
                        for side in index.decode(position_index, game.board.size))
        if black_to_move:
            return cls(game, mover, other, True)
        return cls(game, other, mover, False)

    # -- notation ---------------------------------------------------------------------------------

    def fen(self) -> str:
        """The position in notation, e.g. ``1w1w1/2b2/5/2w2/1b1b1 b``."""
        board = self.game.board
        ranks = []
        for rank in reversed(range(board.height)):
            text, empty = "", 0
            for file in range(board.width):
                square = board.square(file, rank)
                occupant = "b" if square in self.black else "w" if square in self.white else ""
                if occupant:
                    text += (str(empty) if empty else "") + occupant
                    empty = 0
                else:
                    empty += 1
            ranks.append(text + (str(empty) if empty else ""))
        return "/".join(ranks) + (" b" if self.black_to_move else " w")

    def __str__(self) -> str:
        return self.fen()

    def __repr__(self) -> str:
        rule = "" if self.game.rule.name == DEFAULT_RULE else f", rule={self.game.rule.name!r}"
        return f"Position({self.fen()!r}{rule})"

    def _repr_svg_(self) -> str:
        """The board diagram without values (:func:`solver.neutreeko.drawing.diagram.board_diagram`) as SVG: what a
        notebook shows for a position."""
        # Imported here: the drawing layer stands above the position model, and a query never draws.
        from solver.neutreeko.drawing.diagram import board_diagram

        return board_diagram(self)._repr_svg_()

    def diagram(self, last: Move | None = None) -> str:
        """A small text board, the top rank first, files labelled underneath.

        With ``last`` (the move that led here) its piece is shown in brackets, ``[b]``, and the square
        it left as ``*``; the brackets take the place of the spaces around the piece, so the columns
        stay aligned."""
        board = self.game.board
        lines = []
        for rank in reversed(range(board.height)):
            cells = ["b" if board.square(f, rank) in self.black else
                     "w" if board.square(f, rank) in self.white else "." for f in range(board.width)]
            # gaps[f] comes before cell f, gaps[width] after the last one.
            gaps = [" "] * board.width + [""]
            if last is not None:
                if board.rank_of(last.origin) == rank:
                    cells[board.file_of(last.origin)] = "*"
                if board.rank_of(last.target) == rank:
                    gaps[board.file_of(last.target)], gaps[board.file_of(last.target) + 1] = "[", "]"
            lines.append(f"{rank + 1}" + "".join(gap + cell for gap, cell in zip(gaps, cells)) + gaps[-1])
        lines.append("  " + " ".join(board.name(f)[0] for f in range(board.width)))
        return "\n".join(lines)

    # -- the two sides ----------------------------------------------------------------------------

    @property
    def side_to_move(self) -> Colour:
        return BLACK if self.black_to_move else WHITE

    @property
    def mover(self) -> Triple:
        """Squares of the side to move."""
        return self.black if self.black_to_move else self.white

    @property
    def other(self) -> Triple:
        """Squares of the side that just moved."""
        return self.white if self.black_to_move else self.black

    def index(self) -> int:
        """The dense index of this position (see :mod:`solver.neutreeko.model.index`)."""
        return int(index.encode(*self.mover, *self.other, index.other_count(self.game.board.size)))

    def winner(self) -> Colour | None:
        """``"black"`` or ``"white"`` if the side that just moved has won, else None."""
        if self.other in self.game.winning_triples:
            return WHITE if self.black_to_move else BLACK
        return None

    # -- moves ------------------------------------------------------------------------------------

    def moves(self) -> list[Move]:
        """Every legal move of the side to move, by origin square then direction; none once the game is won."""
        if self.winner():
            return []
        steps = self.game.board.steps
        occupied = set(self.black) | set(self.white)
        moves = []
        for origin in self.mover:
            for direction in range(8):
                target = origin
                while steps[target][direction] >= 0 and steps[target][direction] not in occupied:
                    target = steps[target][direction]
                if target != origin:
                    moves.append(Move(origin, target))
        return moves

    def parse_move(self, text: str) -> Move:
        """Read ``FROM-TO`` (square letters in any case) and check it is legal here; raise
        :class:`~solver.core.errors.IllegalMoveError` if not, :class:`~solver.core.errors.NotationError` if it does not parse (without parsing
        text longer than :data:`MAX_MOVE_LENGTH` or not printable ASCII)."""
        text = checked(text, "move", MAX_MOVE_LENGTH)
        parts = text.split("-")
        if len(parts) != 2:
            raise NotationError(f"move {quote(text)} is not of the form FROM-TO, e.g. C4-C3")
        try:
            move = Move(*(self.game.board.parse_square(part) for part in parts))
        except BoardError as error:
            raise NotationError(f"move {quote(text)}: {error}") from None
        if move not in self.moves():
            raise IllegalMoveError(f"move {move.name(self.game.board)} is not legal in {self.fen()}")
        return move

    def play(self, move: Move | str) -> Position:
        """The position after ``move`` (a :class:`Move` or ``"C4-C3"``); the other side is then to move."""
        if isinstance(move, str):
            move = self.parse_move(move)
        elif move not in self.moves():
            raise IllegalMoveError(f"move {move.name(self.game.board)} is not legal in {self.fen()}")
        return self._after(move)

    def children(self) -> list[tuple[Move, Position]]:
        """Every legal move, in the order of :meth:`moves`, with the position it leads to."""
        return [(move, self._after(move)) for move in self.moves()]

    def _after(self, move: Move) -> Position:
        """The position after ``move``, known to be legal."""
        mover = sorted_triple(move.target if square == move.origin else square for square in self.mover)
        if self.black_to_move:
            return Position(self.game, mover, self.white, False)
        return Position(self.game, self.black, mover, True)


def random_positions(game: Game, count: int, seed: int = 0) -> list[Position]:
    """``count`` legal positions of ``game``, drawn uniformly over the index and the side to move;
    the same ``seed`` gives the same positions."""
    rng = np.random.default_rng(seed)
    positions: list[Position] = []
    while len(positions) < count:
        for position_index, black in zip(rng.integers(0, game.positions, count).tolist(),
                                         rng.integers(0, 2, count).tolist()):
            try:
                positions.append(Position.from_index(game, position_index, bool(black)))
            except IllegalPositionError:  # the side to move already has a winning triple
                continue
    return positions[:count]
