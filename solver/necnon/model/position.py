"""NECNON positions: the stones of both players, the side to move and the passes just made; their
notation, the turns the rules allow, and the score at the end.

**Notation.** The rows from the top down, separated by ``/``; in a row, the cells from left to right,
``b`` a Black stone, ``g`` a Green stone, a number that many empty cells; then a space and the side to
move, ``b`` or ``g``; then, only after a pass, ``p`` (the previous turn was a pass) or ``pp`` (the last
two turns were: the game is over). The board is read from the rows: equal rows make a rectangle
(``4/4/4/4`` is 4x4), rows of n, n+1, ..., 2n-1, ..., n cells a hexhex board (``3/4/5/4/3`` is hex3)::

    2b1/g3/4/3g b         4x4: Black on c4, Green on a3 and d1, Black to move
    3/4/2b2/4/3 g         hex3: Black on c3 (the centre), Green to move
    bg/g1 g p             2x2 nec: Black has just passed (b1 has two green neighbours), Green to move

``empty`` is the empty board with Black to move: the first turn, the only one on which a player lays
one stone by choice (no other position has an empty board, so no mark is needed for it).

**Turns** are written ``c3,d4`` (two stones, either order), ``c3`` (one stone: the first turn, or when
exactly one cell is allowed) or ``pass`` (when no cell is allowed, and only then); cell names are those
of :mod:`solver.necnon.model.grid`.

**Positions that cannot occur** are refused with :class:`~solver.core.errors.IllegalPositionError`:
stone counts that no sequence of turns lays (Black lays 1 stone on the first turn, then 0 to 2 a turn,
Green 0 to 2; two passes in a row end the game), a pass by a player who had an allowed cell, and a pass
after the board is full.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property, lru_cache
from itertools import combinations
from typing import Iterable, Literal, NamedTuple

from solver.core.answers.notation import checked, quote
from solver.core.errors import BoardError, IllegalMoveError, IllegalPositionError, NotationError
from solver.necnon.model.grid import MAX_BASE, MAX_ROW, MAX_SIDE, Cell, Grid
from solver.necnon.model.rules import Game

Colour = Literal["black", "green"]
#: The colours, Black first to move.
BLACK: Colour = "black"
#: The second colour.
GREEN: Colour = "green"
#: The notation's letter of each colour.
LETTER = {BLACK: "b", GREEN: "g"}
#: Consecutive passes just made, as the notation writes them after the side to move.
PASS_MARKS = ("", "p", "pp")

#: The longest position on the largest boards: at most a character per cell, the slashes between the
#: rows, the side to move and two passes (106 characters on hex6).
_LONGEST_POSITION = max(grid.cells + len(grid.rows) - 1 for grid in (Grid.square(MAX_SIDE, MAX_SIDE),
                                                                     Grid.hexhex(MAX_BASE))) + len(" b pp")
#: :meth:`Position.parse` refuses longer text: twice the longest position, so that spacing never matters.
MAX_POSITION_LENGTH = 2 * _LONGEST_POSITION
#: :meth:`Position.parse_turn` refuses longer text: three times the longest turn (two cell names and a
#: comma), so that a turn slightly wrong still gets a message saying what is wrong with it.
MAX_TURN_LENGTH = 3 * (2 * (1 + len(str(MAX_ROW))) + 1)
#: :meth:`Position.play_line` refuses longer text: far more than the longest game (hex6: fewer than
#: 200 turns of at most 8 characters with their space).
MAX_LINE_LENGTH = 10_000

_ROW_TOKEN = re.compile(r"\d+|[bg]")


class Turn(NamedTuple):
    """The cells one turn lays a stone on, in increasing order: two, one, or none (a pass)."""

    cells: tuple[Cell, ...]

    def name(self, grid: Grid) -> str:
        """``c3,d4``, ``c3`` or ``pass``."""
        return ",".join(grid.name(cell) for cell in self.cells) if self.cells else "pass"


PASS = Turn(())


class Group(NamedTuple):
    """A maximal set of same-coloured stones connected through neighbours; ``smothered`` when none of
    them has an empty neighbour (scored at the end for the other colour)."""

    colour: Colour
    cells: tuple[Cell, ...]
    smothered: bool


def mask(cells: Iterable[Cell]) -> int:
    """The cells as a bit mask (bit ``c`` set for cell ``c``)."""
    bits = 0
    for cell in cells:
        bits |= 1 << cell
    return bits


def members(bits: int) -> tuple[Cell, ...]:
    """The cells of a bit mask, in increasing order."""
    cells = []
    while bits:
        low = bits & -bits
        cells.append(low.bit_length() - 1)
        bits ^= low
    return tuple(cells)


@lru_cache(maxsize=None)
def counts_occur(black: int, green: int, black_to_move: bool, passes: int) -> bool:
    """Can some sequence of turns leave ``black`` and ``green`` stones on the board, this side to move,
    after ``passes`` consecutive passes? (Counts only: whether the passes were forced is not asked.)

    >>> counts_occur(1, 0, False, 0), counts_occur(1, 0, True, 0), counts_occur(1, 0, True, 1)
    (True, False, True)
    """
    if black == 0:
        return green == 0 and black_to_move and passes == 0
    last_black = not black_to_move  # the previous turn was the other side's
    if passes:
        return counts_occur(black, green, last_black, passes - 1)
    for laid in (1, 2):
        before = (black - laid, green) if last_black else (black, green - laid)
        if min(before) < 0 or (last_black and before[0] == 0 and laid == 2):
            continue  # Black's first turn lays one stone
        if any(counts_occur(*before, last_black, before_passes) for before_passes in (0, 1)):
            return True
    return False


@dataclass(frozen=True)
class Position:
    """The stones of both players (bit masks of cells), the side to move, and the number of passes
    just made (0, 1, or 2 when the game ended on them), in a :class:`~solver.necnon.model.rules.Game`.

    Every ``Position`` can occur (the constructor checks it; see the module docstring).
    """

    game: Game
    black: int
    green: int
    black_to_move: bool = True
    passes: int = 0

    def __post_init__(self) -> None:
        cells = self.game.grid.cells
        if self.black & self.green or (self.black | self.green) >> cells or min(self.black, self.green) < 0:
            raise NotationError("each stone needs a cell of its own on the board")
        if self.passes not in (0, 1, 2):
            raise NotationError(f"{self.passes} passes in a row cannot be: the second one ends the game")
        black, green = self.black.bit_count(), self.green.bit_count()
        if not counts_occur(black, green, self.black_to_move, self.passes):
            raise IllegalPositionError(f"{self.notation()} cannot occur: no sequence of turns leaves {black} black "
                                       f"and {green} green stones with {self.side_to_move.capitalize()} to move"
                                       f"{' after a pass' * bool(self.passes)}")
        if self.passes and self.full:
            raise IllegalPositionError(f"{self.notation()} cannot occur: the game ends when the board is full, "
                                       f"before anyone passes")
        for passer, count in ((not self.black_to_move, 1), (self.black_to_move, 2)):
            if self.passes >= count and self.allowed(passer):
                raise IllegalPositionError(f"{self.notation()} cannot occur: {_colour(passer).capitalize()} passed "
                                           f"with cells allowed ({self._names(self.allowed(passer))})")

    # -- construction and notation -----------------------------------------------------------------

    @classmethod
    def empty(cls, game: Game) -> Position:
        """The empty board, Black to move: the first turn."""
        return cls(game, 0, 0)

    @classmethod
    def parse(cls, text: str, game: Game) -> Position:
        """Read the notation (or ``empty``) of a position of ``game``; raise
        :class:`~solver.core.errors.NotationError` naming the offending part (or for text that is not
        printable ASCII or is longer than :data:`MAX_POSITION_LENGTH`), or
        :class:`~solver.core.errors.IllegalPositionError` for one that cannot occur.

        >>> print(Position.parse("2b1/g3/4/3g b", Game.of("4x4")).notation())
        2b1/g3/4/3g b
        """
        text = checked(text, "position", MAX_POSITION_LENGTH)
        if text.lower() == "empty":
            return cls.empty(game)
        fields = text.split()
        if len(fields) not in (2, 3):
            raise NotationError(f"position {quote(text)} needs the rows, a space and the side to move (b or g), "
                                f"then p or pp after a pass")
        placement, side = fields[0], fields[1].lower()
        passes = fields[2].lower() if len(fields) == 3 else ""
        if side not in ("b", "g"):
            raise NotationError(f"side to move {quote(fields[1])} is not b or g")
        if passes not in PASS_MARKS:
            raise NotationError(f"{quote(fields[2])} after the side to move is not p (a pass) or pp (two passes)")
        rows = [_parse_row(row, number) for number, row in enumerate(placement.split("/"), 1)]
        grid = _grid_of(placement, rows)
        if grid != game.grid:
            raise NotationError(f"position {quote(placement)} is on a {grid} board, not {game.grid} "
                                f"(give --board {grid})")
        cells = [cell for row in grid.rows for cell in row]
        stones = [stone for row in rows for stone in row]
        black = mask(cell for cell, stone in zip(cells, stones) if stone == "b")
        green = mask(cell for cell, stone in zip(cells, stones) if stone == "g")
        return cls(game, black, green, side == "b", PASS_MARKS.index(passes))

    def notation(self) -> str:
        """The position in notation (see the module docstring)."""
        rows = []
        for row in self.game.grid.rows:
            text, run = "", 0
            for cell in row:
                stone = self.stone(cell)
                if stone is None:
                    run += 1
                    continue
                text += (str(run) if run else "") + LETTER[stone]
                run = 0
            rows.append(text + (str(run) if run else ""))
        mark = PASS_MARKS[self.passes]
        return f"{'/'.join(rows)} {LETTER[self.side_to_move]}{' ' + mark if mark else ''}"

    def __str__(self) -> str:
        return self.notation()

    def __repr__(self) -> str:
        return f"Position({self.notation()!r}, game={str(self.game)!r})"

    # -- what is where --------------------------------------------------------------------------------

    @property
    def side_to_move(self) -> Colour:
        return _colour(self.black_to_move)

    def stone(self, cell: Cell) -> Colour | None:
        """The colour of the stone on ``cell``, or None if it is empty."""
        if self.black >> cell & 1:
            return BLACK
        return GREEN if self.green >> cell & 1 else None

    @property
    def full(self) -> bool:
        return (self.black | self.green).bit_count() == self.game.grid.cells

    @property
    def first_turn(self) -> bool:
        """The empty board: Black lays one stone of its choice."""
        return not (self.black | self.green)

    def enemies(self, cell: Cell, black: bool) -> int:
        """How many neighbours of ``cell`` hold a stone of Black's enemy (``black``) or Green's."""
        enemy = self.green if black else self.black
        return sum(enemy >> near & 1 for near in self.game.grid.neighbours[cell])

    def allowed(self, black: bool | None = None) -> tuple[Cell, ...]:
        """The empty cells the side to move (or Black, ``black=True``, or Green) may lay a stone on."""
        black = self.black_to_move if black is None else black
        protocol, occupied = self.game.protocol(black), self.black | self.green
        return tuple(cell for cell in range(self.game.grid.cells)
                     if not occupied >> cell & 1 and protocol.allows(self.enemies(cell, black)))

    # -- play -----------------------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        """Has the game ended: the board full, or both players passed in consecutive turns?"""
        return self.passes == 2 or self.full

    @cached_property
    def _turns(self) -> tuple[Turn, ...]:
        if self.over:
            return ()
        allowed = self.allowed()
        if self.first_turn or len(allowed) == 1:
            return tuple(Turn((cell,)) for cell in allowed)
        if not allowed:
            return (PASS,)
        return tuple(Turn(pair) for pair in combinations(allowed, 2))

    def turns(self) -> tuple[Turn, ...]:
        """Every turn the side to move may make, in increasing order of cells; empty when the game is over."""
        return self._turns

    def play(self, turn: Turn) -> Position:
        """The position after ``turn``, which must be one of :meth:`turns` (else :class:`~solver.core.errors.IllegalMoveError`)."""
        if turn not in self._turns:
            raise IllegalMoveError(f"{turn.name(self.game.grid)} is not a legal turn in {self.notation()}")
        laid = mask(turn.cells)
        black, green = (self.black | laid, self.green) if self.black_to_move else (self.black, self.green | laid)
        return Position(self.game, black, green, not self.black_to_move, 0 if turn.cells else self.passes + 1)

    def parse_turn(self, text: str) -> Turn:
        """Read ``c3,d4``, ``c3`` or ``pass`` and check it against the rules; raise
        :class:`~solver.core.errors.IllegalMoveError` saying what is wrong (a forbidden or occupied cell, one stone when
        two were possible, a pass when a cell is allowed, a turn after the end), or
        :class:`~solver.core.errors.NotationError` if it does not parse (or is not printable ASCII, or is longer than
        :data:`MAX_TURN_LENGTH`)."""
        grid, text = self.game.grid, checked(text, "turn", MAX_TURN_LENGTH)
        if self.over:
            raise IllegalMoveError(f"the game is over in {self.notation()}: no turn {quote(text)} can be made")
        allowed = self.allowed()
        if text.lower() == "pass":
            if allowed:
                raise IllegalMoveError(f"{self.side_to_move.capitalize()} cannot pass: {self._names(allowed)} "
                                       f"{'is' if len(allowed) == 1 else 'are'} allowed")
            return PASS
        names = text.split(",")
        if not 1 <= len(names) <= 2 or not all(name.strip() for name in names):
            raise NotationError(f"turn {quote(text)} is not c3,d4 (two stones), c3 (one) or pass")
        try:
            cells = tuple(sorted(grid.parse_cell(name) for name in names))
        except BoardError as error:
            raise NotationError(f"turn {quote(text)}: {error}") from None
        if len(set(cells)) != len(cells):
            raise IllegalMoveError(f"turn {quote(text)} lays two stones on one cell")
        if not allowed:
            raise IllegalMoveError(f"{self.side_to_move.capitalize()} has no allowed cell and must pass")
        for cell in cells:
            if self.stone(cell) is not None:
                raise IllegalMoveError(f"{grid.name(cell)} is occupied (by {self.stone(cell)})")
            if cell not in allowed:
                enemies = self.enemies(cell, self.black_to_move)
                raise IllegalMoveError(f"{grid.name(cell)} is forbidden to {self.side_to_move.capitalize()} "
                                       f"({self.game.protocol(self.black_to_move).value}: {enemies} enemy "
                                       f"neighbour{'s' * (enemies != 1)})")
        if len(cells) == 1 and not self.first_turn and len(allowed) > 1:
            raise IllegalMoveError(f"{grid.name(cells[0])} alone: {len(allowed)} cells are allowed, so the turn "
                                   f"lays two stones")
        if len(cells) == 2 and self.first_turn:
            raise IllegalMoveError("the first turn lays one stone")
        return Turn(cells)  # two stones on allowed cells: two were allowed

    def play_line(self, text: str) -> Position:
        """The position after the turns of ``text``, separated by spaces (``"c3 a1,d4 pass"``), each checked
        (:meth:`parse_turn`); :class:`~solver.core.errors.NotationError` for text longer than :data:`MAX_LINE_LENGTH` or
        not printable ASCII."""
        position = self
        for word in checked(text, "line of turns", MAX_LINE_LENGTH).split():
            position = position.play(position.parse_turn(word))
        return position

    # -- the end ----------------------------------------------------------------------------------------

    def groups(self) -> tuple[Group, ...]:
        """Every group of stones, in order of its lowest cell, smothered or not (see :class:`Group`)."""
        neighbours, occupied = self.game.grid.neighbours, self.black | self.green
        seen, groups = 0, []
        for cell in range(self.game.grid.cells):
            colour = self.stone(cell)
            if colour is None or seen >> cell & 1:
                continue
            own = self.black if colour == BLACK else self.green
            found, frontier, breathes = 1 << cell, [cell], False
            while frontier:
                for near in neighbours[frontier.pop()]:
                    if own >> near & 1 and not found >> near & 1:
                        found |= 1 << near
                        frontier.append(near)
                    breathes = breathes or not occupied >> near & 1
            seen |= found
            groups.append(Group(colour, members(found), not breathes))
        return tuple(groups)

    def points(self) -> tuple[int, int]:
        """(Black's points, Green's points) if the game ended here: the stones of the other colour's
        smothered groups."""
        smothered = {BLACK: 0, GREEN: 0}
        for group in self.groups():
            if group.smothered:
                smothered[group.colour] += len(group.cells)
        return smothered[GREEN], smothered[BLACK]

    def margin(self) -> int:
        """Black's points minus Green's if the game ended here."""
        black, green = self.points()
        return black - green

    # -- text -----------------------------------------------------------------------------------------

    def diagram(self, last: Turn | None = None) -> str:
        """The board as text, top row first: ``b`` and ``g`` stones (upper case where ``last`` laid
        them), ``+`` an empty cell allowed to the side to move, ``.`` one forbidden to it (all ``.`` when
        the game is over); each row labelled with its letter (hexes) or rank (squares)."""
        grid = self.game.grid
        allowed = set(self.allowed()) if not self.over else set()
        placed = set(last.cells) if last else set()

        def symbol(cell: Cell) -> str:
            stone = self.stone(cell)
            if stone is None:
                return "+" if cell in allowed else "."
            return LETTER[stone].upper() if cell in placed else LETTER[stone]

        lines = []
        widest = max(len(row) for row in grid.rows)
        for row in grid.rows:
            first, last_cell = grid.name(row[0]), grid.name(row[-1])
            cells = " ".join(symbol(cell) for cell in row)
            if grid.kind == "square":
                lines.append(f"{first[1:]:>2}  {cells}")
            else:
                indent = " " * (widest - len(row))
                lines.append(f"{first[0]}  {indent}{cells}{indent}   {first}-{last_cell}")
        if grid.kind == "square":
            lines.append("    " + " ".join(grid.name(cell)[0] for cell in grid.rows[-1]))
        return "\n".join(lines)

    def _repr_svg_(self) -> str:
        """The board diagram without values (:func:`solver.necnon.drawing.diagram.board_diagram`) as SVG: what a
        notebook shows for a position."""
        # Imported here: the drawing layer stands above the position model, and a query never draws.
        from solver.necnon.drawing.diagram import board_diagram

        return board_diagram(self)._repr_svg_()

    def _names(self, cells: Iterable[Cell]) -> str:
        return " ".join(self.game.grid.name(cell) for cell in cells)


def _colour(black: bool) -> Colour:
    return BLACK if black else GREEN


def _parse_row(text: str, number: int) -> list[str]:
    """One row of the notation as a list of ``"b"``, ``"g"`` and ``""`` (empty) cells."""
    cells: list[str] = []
    at = 0
    for token in _ROW_TOKEN.finditer(text.lower()):
        if token.start() != at:
            break
        at = token.end()
        if token.group().isdigit():
            if len(token.group()) > 2 or int(token.group()) > MAX_ROW:  # refuse before expanding
                raise NotationError(f"{quote(token.group())} empty cells in row {number} {quote(text)} are more "
                                    f"than any row holds")
            cells.extend([""] * int(token.group()))
        else:
            cells.append(token.group())
    if at != len(text) or not text:
        raise NotationError(f"unexpected {quote(text[at:])} in row {number} {quote(text)}" if text else f"row {number} is empty")
    return cells


def _grid_of(placement: str, rows: list[list[str]]) -> Grid:
    """The board whose rows the notation ``placement`` gives; :class:`~solver.core.errors.NotationError` if none."""
    try:
        return Grid.of_rows([len(row) for row in rows])
    except BoardError as error:
        raise NotationError(f"position {quote(placement)}: {error}") from None


def notation_grid(text: str) -> Grid | None:
    """The board a position's notation is written on (from its rows), or None for ``empty``, which
    is on any board. Raises :class:`~solver.core.errors.NotationError` if the rows do not parse or make no board (or as
    :meth:`Position.parse` does for text that is not printable ASCII or too long).

    >>> print(notation_grid("3/4/2b2/4/3 g"), notation_grid("empty"))
    hex3 None
    """
    text = checked(text, "position", MAX_POSITION_LENGTH)
    if text.lower() == "empty" or not text:
        return None
    placement = text.split()[0]
    return _grid_of(placement, [_parse_row(row, number) for number, row in enumerate(placement.split("/"), 1)])
