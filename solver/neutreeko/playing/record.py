"""Game records: the written form of a game, in the spirit of chess's PGN, and of its moves.

A record is tag lines, then the moves, numbered as in chess (Black moves first)::

    [Board "5x5"]
    [Rule "connected"]
    [Result "white wins"]

    1. C4-C3 D5-D2 2. D1-E1 B5-B2

The syntax of tags, comments and lines is every game's (:mod:`solver.core.answers.record`).
:func:`parse_record` and :func:`read_record` read a record into a :class:`GameRecord` (its main line
:attr:`GameRecord.moves`, what ``Result`` describes, and its variations),
:meth:`~solver.core.answers.record.GameLine.text` and :func:`~solver.core.answers.record.write_record`
write one. :func:`read_moves` reads move text (what ``--moves`` takes everywhere: moves ``FROM-TO``,
optionally numbered), :func:`read_variations` move text with variations in parentheses,
:func:`numbered` writes the numbers; each move is checked by
:meth:`Position.parse_move <solver.neutreeko.model.position.Position.parse_move>`. A record that cannot be
read raises :class:`~solver.core.answers.record.RecordError`, one line naming the line and the problem;
move text raises it for a wrong move number, and what ``parse_move`` raises for a bad move.

The tags, move text and variations: docs/reference/records.md.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Iterable, Sequence

from solver.core.answers.record import (
    MAX_NUMBER_DIGITS,
    MOVE_NUMBER,
    GameLine,
    GameOverError,
    LineReader,
    RecordError,
    RecordLines,
    TreeReader,
    Variation,
    check_result,
    one_line,
    read_file,
    split_record,
)
from solver.core.answers.record import tree_groups as core_tree_groups
from solver.core.answers.record import write_record as write_record  # a record's file, as every game writes it
from solver.core.errors import BoardError, InputError
from solver.neutreeko.model.board import Board
from solver.neutreeko.model.game import Game
from solver.neutreeko.model.outcome import LINE_RESULTS, Outcome, ending
from solver.neutreeko.model.position import Move, Position
from solver.neutreeko.model.rules import DEFAULT_RULE, RuleError

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


def numbered(start: Position, names: Iterable[str], first: int = 1) -> list[str]:
    """The moves ``names`` of a game from ``start``, the first of them ply ``first``, numbered as in
    chess, in groups that a line break should not split: ``["1. C4-C3 D5-D2", "2. B1-B4"]``;
    ``["1... D5-D2", "2. B1-C1"]`` if White began."""
    groups: list[str] = []
    for ply, name in enumerate(names, first):
        label = ply_label(start, ply)
        if ply > first and label.endswith("..."):
            groups[-1] += f" {name}"
        else:
            groups.append(f"{label} {name}")
    return groups


def tree_groups(start: Position, moves: Sequence[Move], variations: Sequence[Variation[Move]], first: int = 1) -> list[str]:
    """The groups (see :func:`numbered`) of the moves ``moves`` from ply ``first`` of a game from
    ``start``, with their variations, and theirs, in parentheses; the move after a variation is numbered
    again (``1...``)."""
    board = start.game.board
    return core_tree_groups(moves, variations, lambda line, ply: numbered(
        start, [move.name(board) for move in line], ply), first)


# -- reading moves ------------------------------------------------------------------------------------

class _Numbers:
    """The move numbers of one text: the first given fixes their offset from the numbers counted from 1,
    for the main line and its variations alike."""

    def __init__(self) -> None:
        self.offset: int | None = None


class _Line(LineReader[Position, Move]):
    """A line of moves being read (see :class:`~solver.core.answers.record.LineReader`), and the move numbers
    before them. With ``seen``, the occurrences of each position along the line being read, shared by
    every line of a tree, a move after the game ended (three in a row, no move, a third occurrence) is
    refused."""

    def __init__(self, start: Position, ply: int, before: Position, numbers: _Numbers,
                 seen: Counter[Position] | None) -> None:
        super().__init__(ply, before)
        self.start = start  # the game's: move numbers count from it
        self.seen = seen
        self.numbers = numbers
        self.pending: str | None = None  # a move number not yet followed by its move

    def feed(self, token: str) -> None:
        number = MOVE_NUMBER.fullmatch(token)
        if number is not None:
            self._number(number.group(1), token[:len(token) - len(number.group(3))])
            if number.group(3):
                self._move(number.group(3))
        else:
            self._move(token)

    def check_complete(self) -> None:
        """Raise :class:`~solver.core.answers.record.RecordError` if a move number waits for its move."""
        if self.pending is not None:
            raise RecordError(f"move number {self.pending} is not followed by a move")

    def _number(self, digits: str, token: str) -> None:
        self.check_complete()
        label = ply_label(self.start, self.next_ply)
        counted = int(label.rstrip("."))
        if len(digits) > MAX_NUMBER_DIGITS:
            raise RecordError(f"move number {token} is too large")
        if self.numbers.offset is None:
            self.numbers.offset = int(digits) - counted
        elif int(digits) != counted + self.numbers.offset:
            expected = f"{counted + self.numbers.offset}{label[len(str(counted)):]}"
            raise RecordError(f"move number {token} where {expected} was expected")
        self.pending = token

    def _move(self, text: str) -> None:
        if self.seen is not None:
            over = ending(self.position, self.seen[self.position])
            if over is not None:
                raise GameOverError(f"{text} comes after the end of the game ({over.result})", over.result)
        move = self.position.parse_move(text)
        self.positions.append(self.position.play(move))
        self.moves.append(move)
        if self.seen is not None:
            self.seen[self.position] += 1
        self.pending = None

    def branch(self) -> None:
        if self.seen is not None:
            self.seen[self.position] -= 1

    def rejoin(self) -> None:
        if self.seen is not None:
            self.seen[self.position] += 1

    def close(self) -> None:
        if self.seen is not None:
            self.seen.subtract(self.positions[1:])


def _tree_reader(start: Position) -> TreeReader[Position, Move]:
    """A reader of move text with variations from ``start``: every line's move numbers alike, a move after
    the end of its line's game refused."""
    numbers, seen = _Numbers(), Counter([start])
    return TreeReader(start, lambda ply, before: _Line(start, ply, before, numbers, seen), "move text",
                      MAX_MOVE_TEXT_LENGTH, lambda ply: ply_label(start, ply))


def read_moves(start: Position, text: str) -> list[Move]:
    """The moves of move text ``text`` (a plain list or numbered, see the module docstring) played
    from ``start``, each checked. Raises :class:`~solver.core.answers.record.RecordError` for a wrong or dangling move number and
    what :meth:`~solver.neutreeko.model.position.Position.parse_move` raises for a move that does not parse or is not legal; text longer
    than :data:`MAX_MOVE_TEXT_LENGTH` or not printable ASCII is refused before any move is read.
    Variations are not taken (see :func:`read_variations`).

    >>> [move.name(Game.of().board) for move in read_moves(Position.parse("start"), "1. C4-C3 D5-D2 2.B1-B4")]
    ['C4-C3', 'D5-D2', 'B1-B4']
    """
    line = _Line(start, 1, start, _Numbers(), None)
    for token in one_line(text, "move text", MAX_MOVE_TEXT_LENGTH).split():
        line.feed(token)
    line.check_complete()
    return line.moves


def read_variations(start: Position, text: str) -> tuple[tuple[Move, ...], tuple[Variation[Move], ...]]:
    """The main line and the variations of move text ``text`` from ``start`` (see the module
    docstring), each move checked, none after the end of its line's game. Raises :class:`~solver.core.answers.record.RecordError`
    naming the problem, as :func:`read_moves` does, and for a parenthesis out of place.

    >>> moves, variations = read_variations(Position.parse("start"), "B1-C1 (C4-C3 D5-D2) B5-A5")
    >>> len(moves), variations[0].ply, len(variations[0].moves)
    (2, 1, 2)
    """
    return _tree_reader(start).read(text)


def read_playable(start: Position, text: str) -> tuple[tuple[Move, ...], tuple[Variation[Move], ...], str | None]:
    """The main line and the variations of move text ``text`` from ``start`` up to its first token
    that cannot be read or played, and why that one was refused (``"ply 3, C4-C9, cannot be played:
    ..."``), or None if all were read (see :meth:`TreeReader.read_playable
    <solver.core.answers.record.TreeReader.read_playable>`). Raises :class:`~solver.core.errors.InputError` only
    for text that is too long or not printable ASCII."""
    return _tree_reader(start).read_playable(text)


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

class Moves(tuple[Move, ...]):
    """Moves of a game on ``board``: a tuple of :class:`~solver.neutreeko.model.position.Move` (equal to a plain tuple of the same moves)
    that shows them by name, ``Moves('C4-C3 D5-D2')``, since it knows the board a move does not."""

    board: Board

    def __new__(cls, moves: Iterable[Move], board: Board) -> Moves:
        made = super().__new__(cls, moves)
        made.board = board
        return made

    def __getnewargs__(self) -> tuple[tuple[Move, ...], Board]:  # copy and pickle pass the board to __new__
        return tuple(self), self.board

    def __repr__(self) -> str:
        return f"Moves({' '.join(move.name(self.board) for move in self)!r})"


@dataclass(frozen=True, repr=False)
class GameRecord(GameLine[Position, Move]):
    """A game (see :class:`~solver.core.answers.record.GameLine`): where it started, its moves (each
    legal, none after the game ended: the main line), its tags other than those of :data:`GAME_TAGS`
    and ``Result``, which come from the game itself (the players' names, ``Black`` and ``White``, and
    any others, in order), and the variations of its moves, in the order of their plies. Everything
    that reads a game (annotation, play, training) reads its main line;
    :meth:`~solver.core.answers.record.GameLine.text` writes the variations too."""

    start: Position
    moves: tuple[Move, ...] = ()
    tags: tuple[tuple[str, str], ...] = field(default=())
    variations: tuple[Variation[Move], ...] = ()
    player_tags = PLAYER_TAGS
    line_field = "moves"

    def __post_init__(self) -> None:
        object.__setattr__(self, "moves", Moves(self.moves, self.start.game.board))
        self.check_tags(GAME_TAGS)

    @property
    def line(self) -> tuple[Move, ...]:
        return self.moves

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

    def game_tags(self) -> list[tuple[str, str]]:
        game = self.start.game
        start = [] if self.start == Position.start(game) else [("Start", self.start.fen())]
        return [("Board", str(game.board)), ("Rule", game.rule.name), *start]

    def groups(self) -> list[str]:
        return tree_groups(self.start, self.moves, self.variations)


def parse_record(text: str) -> GameRecord:
    """Read a record (see the module docstring). Raises :class:`~solver.core.answers.record.RecordError` naming the line (from 1)
    and the problem: a malformed or repeated tag, a board, rule or start that is not valid, a move or
    move number that is wrong, a move after the end of the game, or a ``Result`` that the moves do not
    lead to."""
    split = split_record(text)
    start = _start(split)
    main, variations = _tree_reader(start).read_record(split)
    record = GameRecord(start, main, split.others(GAME_TAGS), variations)
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
    """The record in the file ``path`` (UTF-8). Raises :class:`~solver.core.answers.record.RecordError` naming the file, and the
    line for a record that cannot be read."""
    return read_file(path, parse_record)
