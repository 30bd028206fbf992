"""Game records: the written form of a game, in the spirit of chess's PGN, and of its moves.

A record is tag lines, then the moves, numbered as in chess (Black moves first)::

    [Board "5x5"]
    [Rule "connected"]
    [Black "person"]
    [White "strong engine (seed 7)"]
    [Result "white wins"]

    1. C4-C3 D5-D2 2. D1-E1 B5-B2

The syntax of tags, comments and lines is every game's (:mod:`solver.core.record`). ``Board``
(default ``5x5``) and ``Rule`` (default ``connected``) name the game; ``Start`` is the position the game
began from, in notation, written only when it is not the board's standard start; ``Result`` is
``black wins``, ``white wins``, ``draw by repetition`` or ``*`` (not over), and must be what the moves
lead to. ``Black``, ``White`` and any other tags (``Event``, ``Date``, ...) are kept as they are.
Every tag is optional: a bare list of moves is a record of a game from the standard start.

**Move text** (the part after the tags, and what ``--moves`` takes everywhere) is moves ``FROM-TO``
separated by spaces or line breaks, optionally numbered: ``1. C4-C3 D5-D2 2. D1-E1`` (``1... D5-D2``
for a move of White's that opens a pair). A number, when given, must be the number of the move it stands before,
counting from the first number given (so a fragment of a game, ``12. B1-C1 C2-C3``, reads too).
:func:`numbered` writes the numbers; :func:`read_moves` reads them; each move is checked by
:meth:`Position.parse_move <solver.neutreeko.position.Position.parse_move>`.

A record that cannot be read raises :class:`RecordError`, one line naming the line and the problem.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Iterable

from solver.core import files
from solver.core.errors import BoardError, InputError
from solver.core.notation import checked
from solver.core.record import (
    MAX_NUMBER_DIGITS,
    MOVE_NUMBER,
    RecordError,
    RecordLines,
    at_line,
    check_result,
    read_file,
    split_record,
    tag_lines,
    wrap,
)
from solver.neutreeko.game import Game
from solver.neutreeko.outcome import LINE_RESULTS, Outcome, ending
from solver.neutreeko.position import Move, Position
from solver.neutreeko.rules import DEFAULT_RULE, RuleError

#: What a record's ``Result`` tag may say: how the game ended, or ``*`` while it is not over.
RESULTS = (*LINE_RESULTS[:3], "*")
#: Tags a record writes from its game, in this order, before any others.
GAME_TAGS = ("Board", "Rule", "Start")
PLAYER_TAGS = ("Black", "White")
#: :func:`read_moves` refuses longer move text: room for a thousand moves with their numbers.
MAX_MOVE_TEXT_LENGTH = 10_000

# -- numbering ----------------------------------------------------------------------------------------

def move_number(start: Position, ply: int) -> int:
    """The move number of ply ``ply`` (from 1) of a game from ``start``: a Black move and the White reply
    share one."""
    return (ply - 1 + (0 if start.black_to_move else 1)) // 2 + 1


def ply_label(start: Position, ply: int) -> str:
    """``3.`` or ``3...``: the move number of ply ``ply`` (from 1) of a game from ``start``.

    >>> start = Position.parse("start")
    >>> ply_label(start, 1), ply_label(start, 2), ply_label(start, 5)
    ('1.', '1...', '3.')
    """
    black_moves = (ply % 2 == 1) == start.black_to_move
    return f"{move_number(start, ply)}{'.' if black_moves else '...'}"


def numbered(start: Position, names: Iterable[str]) -> list[str]:
    """The moves ``names`` of a game from ``start`` numbered as in chess, in groups that a line break
    should not split: ``["1. C4-C3 D5-D2", "2. B1-B4"]``; ``["1... D5-D2", "2. B1-C1"]`` if White began."""
    groups: list[str] = []
    for ply, name in enumerate(names, 1):
        label = ply_label(start, ply)
        if groups and label.endswith("..."):
            groups[-1] += f" {name}"
        else:
            groups.append(f"{label} {name}")
    return groups


# -- reading moves ------------------------------------------------------------------------------------

class _MoveReader:
    """Reads move text token by token from ``start``, checking each move and each move number."""

    def __init__(self, start: Position) -> None:
        self.start = start
        self.position = start
        self.moves: list[Move] = []
        self.offset: int | None = None  # first number given minus the number counted from 1
        self.pending: str | None = None  # a move number not yet followed by its move

    def feed(self, token: str) -> None:
        number = MOVE_NUMBER.fullmatch(token)
        if number is not None:
            self._number(number.group(1), token[:len(token) - len(number.group(3))])
            if number.group(3):
                self._move(number.group(3))
        else:
            self._move(token)

    def finish(self) -> list[Move]:
        if self.pending is not None:
            raise RecordError(f"move number {self.pending} is not followed by a move")
        return self.moves

    def _number(self, digits: str, token: str) -> None:
        if self.pending is not None:
            raise RecordError(f"move number {self.pending} is not followed by a move")
        label = ply_label(self.start, len(self.moves) + 1)
        counted = int(label.rstrip("."))
        if len(digits) > MAX_NUMBER_DIGITS:
            raise RecordError(f"move number {token} is too large")
        if self.offset is None:
            self.offset = int(digits) - counted
        elif int(digits) != counted + self.offset:
            expected = f"{counted + self.offset}{label[len(str(counted)):]}"
            raise RecordError(f"move number {token} where {expected} was expected")
        self.pending = token

    def _move(self, text: str) -> None:
        move = self.position.parse_move(text)
        self.position = self.position.play(move)
        self.moves.append(move)
        self.pending = None


def read_moves(start: Position, text: str) -> list[Move]:
    """The moves of move text ``text`` (a plain list or numbered, see the module docstring) played
    from ``start``, each checked. Raises :class:`RecordError` for a wrong or dangling move number and
    what :meth:`Position.parse_move` raises for a move that does not parse or is not legal; text longer
    than :data:`MAX_MOVE_TEXT_LENGTH` or not printable ASCII is refused before any move is read.

    >>> [move.name(Game.of().board) for move in read_moves(Position.parse("start"), "1. C4-C3 D5-D2 2.B1-B4")]
    ['C4-C3', 'D5-D2', 'B1-B4']
    """
    reader = _MoveReader(start)
    lines_as_one = text.replace("\r", " ").replace("\n", " ")  # move text may run over lines, as in a record
    for token in checked(lines_as_one, "move text", MAX_MOVE_TEXT_LENGTH).split():
        reader.feed(token)
    return reader.finish()


def play_moves(start: Position, moves: Iterable[Move]) -> Position:
    """The position after ``moves`` (each checked) from ``start``."""
    position = start
    for move in moves:
        position = position.play(move)
    return position


def after_moves(start: Position, text: str) -> Position:
    """The position after the move text ``text`` from ``start`` (see :func:`read_moves`)."""
    return play_moves(start, read_moves(start, text))


# -- records ------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class GameRecord:
    """A game: where it started, its moves (each legal, none after the game ended) and its tags
    other than those of :data:`GAME_TAGS` and ``Result``, which come from the game itself: the
    players' names (``Black``, ``White``) and any others, in order."""

    start: Position
    moves: tuple[Move, ...] = ()
    tags: tuple[tuple[str, str], ...] = field(default=())

    def __post_init__(self) -> None:
        names = [name for name, _ in self.tags]
        reserved = [name for name in names if name in (*GAME_TAGS, "Result")]
        if reserved or len(set(names)) != len(names):
            raise ValueError(f"tags {reserved or names} are reserved or repeated")

    def tag(self, name: str, default: str = "") -> str:
        """The value of tag ``name``, or ``default``."""
        return next((value for key, value in self.tags if key == name), default)

    @cached_property
    def positions(self) -> tuple[Position, ...]:
        """The start, then the position after each move."""
        positions = [self.start]
        for move in self.moves:
            positions.append(positions[-1].play(move))
        return tuple(positions)

    @property
    def end(self) -> Position:
        """The position after the last move."""
        return self.positions[-1]

    @cached_property
    def outcome(self) -> Outcome | None:
        """How the moves ended the game (three in a row, no move, or a third occurrence of a
        position, the start counting once), or None if it is not over."""
        return ending(self.end, Counter(self.positions)[self.end])

    @property
    def result(self) -> str:
        """The ``Result`` tag: the outcome's result, or ``*`` while the game is not over."""
        return self.outcome.result if self.outcome else "*"

    def names(self) -> list[str]:
        """The moves as ``FROM-TO``."""
        return [move.name(self.start.game.board) for move in self.moves]

    def text(self) -> str:
        """The record as text (see the module docstring), ending with a line end."""
        game = self.start.game
        tags = [("Board", str(game.board)), ("Rule", game.rule.name)]
        if self.start != Position.start(game):
            tags.append(("Start", self.start.fen()))
        players = [(name, self.tag(name)) for name in PLAYER_TAGS if self.tag(name)]
        others = [(name, value) for name, value in self.tags if name not in PLAYER_TAGS]
        tags += [*players, ("Result", self.result), *others]
        return "\n".join([*tag_lines(tags), "", wrap(numbered(self.start, self.names()))]) + "\n"


def parse_record(text: str) -> GameRecord:
    """Read a record (see the module docstring). Raises :class:`RecordError` naming the line (from 1)
    and the problem: a malformed or repeated tag, a board, rule or start that is not valid, a move or
    move number that is wrong, a move after the end of the game, or a ``Result`` that the moves do not
    lead to."""
    split = split_record(text)
    start = _start(split)
    reader = _MoveReader(start)
    seen = Counter([start])
    for number, line in split.moves:
        with at_line(number):
            tokens = checked(line, "move text", MAX_MOVE_TEXT_LENGTH).split()
        for token in tokens:
            over = ending(reader.position, seen[reader.position])
            if over is not None:
                raise RecordError(f"line {number}: {token} comes after the end of the game ({over.result})")
            played = len(reader.moves)
            with at_line(number):
                reader.feed(token)
            if len(reader.moves) > played:
                seen[reader.position] += 1
    if split.moves:
        with at_line(split.moves[-1][0]):
            reader.finish()
    players = tuple((name, value) for name, (_, value) in split.tags.items() if name not in (*GAME_TAGS, "Result"))
    record = GameRecord(start, tuple(reader.moves), players)
    check_result(split, record.result, RESULTS.__contains__, f"one of {', '.join(RESULTS)}")
    return record


def _start(split: RecordLines) -> Position:
    """The start position the ``Board``, ``Rule`` and ``Start`` tags describe (without ``Board``, a
    ``Start`` gives the board; without either, 5 x 5)."""
    board_line, board = split.tag("Board")
    rule_line, rule = split.tag("Rule", DEFAULT_RULE)
    start_line, start = split.tag("Start")
    try:
        game = Game.of(board or "5x5", rule) if board or not start else None
        return Position.parse(start, rule, game) if start else Position.start(game or Game.of())
    except BoardError as error:
        raise RecordError(f"line {board_line}: {error}") from None
    except RuleError as error:
        raise RecordError(f"line {rule_line}: {error}") from None
    except InputError as error:
        raise RecordError(f"line {start_line}: {error}") from None


def read_record(path: Path | str) -> GameRecord:
    """The record in the file ``path`` (UTF-8). Raises :class:`RecordError` naming the file, and the
    line for a record that cannot be read."""
    return read_file(path, parse_record)


def write_record(path: Path | str, record: GameRecord) -> None:
    """Write ``record`` to ``path`` atomically (see :mod:`solver.core.files`); raises :class:`OSError`."""
    files.write_atomically(path, record.text())
