"""NECNON game records: the written form of a game, tags then its turns, each numbered::

    [Board "3x3"]
    [Protocol "nec"]
    [Result "Green wins by 1"]

    1. b2 2. a1,c3 (2. a1,b1 3. c1,a2) 3. a3,c1 4. a2,b3 5. b1

The syntax of tags, comments and lines is every game's (:mod:`solver.core.answers.record`).
:func:`parse_record` reads a record into a :class:`GameRecord` (its main line
:attr:`GameRecord.turns`, what ``Result`` describes, and its variations) and
:meth:`~solver.core.answers.record.GameLine.text` writes one. Turns are written as everywhere (``c3,d4``, ``c3``, ``pass``; see
:mod:`solver.necnon.model.position`), each checked against the rules; every turn has its own number,
optional, but a number given must be the number of the turn it stands before. :func:`read_variations`
reads turns with variations in parentheses, :func:`numbered` writes the numbers. A record that cannot
be read raises :class:`~solver.core.answers.record.RecordError`, one line naming the line and the
problem.

The tags, turns and variations: docs/reference/records.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
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
    at_line,
    check_result,
    read_file,
    split_record,
    tree_groups,
    write_record,
)
from solver.necnon.model.position import MAX_LINE_LENGTH, Position, Turn, notation_grid
from solver.necnon.model.rules import Game
from solver.necnon.model.values import Evaluation

#: Tags a record writes from its game, in this order, before any others.
GAME_TAGS = ("Board", "Protocol", "Start")
PLAYER_TAGS = ("Black", "Green")
#: The board and protocol of a record that names none.
DEFAULT_BOARD, DEFAULT_PROTOCOL = "4x4", "nec"
#: What a ``Result`` tag may say: the score's wording (:meth:`Evaluation.result`), or ``*``.
_RESULT = re.compile(r"(Black|Green) wins by [1-9][0-9]*|draw|\*")

__all__ = ["GameRecord", "RecordError", "numbered", "parse_record", "read_playable", "read_record",
           "read_variations", "write_record"]


def numbered(names: Iterable[str], first: int = 1) -> list[str]:
    """The turns ``names`` numbered from ``first``, in groups that a line break should not split.

    >>> numbered(["b2", "a1,c3", "pass"])
    ['1. b2', '2. a1,c3', '3. pass']
    """
    return [f"{number}. {name}" for number, name in enumerate(names, first)]


def turn_groups(start: Position, turns: Sequence[Turn], variations: Sequence[Variation[Turn]]) -> list[str]:
    """The groups (see :func:`numbered`) of the game of ``turns`` from ``start`` and its variations, each
    in parentheses after the turn it is an alternative to.

    >>> turn_groups(Position.empty(Game.of("3x3")), *read_variations(Position.empty(Game.of("3x3")), "b2 (a1) a1,c3"))
    ['1. b2', '(1. a1)', '2. a1,c3']
    """
    grid = start.game.grid
    return tree_groups(turns, variations, lambda line, first: numbered([turn.name(grid) for turn in line], first))


@dataclass(frozen=True, repr=False)
class GameRecord(GameLine[Position, Turn]):
    """A game (see :class:`~solver.core.answers.record.GameLine`): where it started, its turns (each
    legal, none after the end: the main line), its tags other than those of ``GAME_TAGS`` and
    ``Result``, which come from the game itself (the players' names, ``Black`` and ``Green``, and any
    others, in order), and the variations of its turns, in the order of their plies. What reads a game
    (annotation, play) reads its main line; :meth:`~solver.core.answers.record.GameLine.text` writes
    the variations too."""

    start: Position
    turns: tuple[Turn, ...] = ()
    tags: tuple[tuple[str, str], ...] = field(default=())
    variations: tuple[Variation[Turn], ...] = ()
    player_tags = PLAYER_TAGS
    line_field = "turns"

    def __post_init__(self) -> None:
        self.check_tags(GAME_TAGS)

    @property
    def line(self) -> tuple[Turn, ...]:
        return self.turns

    @property
    def result(self) -> str:
        """The ``Result`` tag: the score at the end (``"Black wins by 2"``, ``"draw"``), or ``*`` while
        the game is not over."""
        return Evaluation(self.end.margin(), 0).result() if self.end.over else "*"

    def names(self) -> list[str]:
        """The turns as written: ``c3,d4``, ``c3``, ``pass``."""
        return [turn.name(self.start.game.grid) for turn in self.turns]

    def game_tags(self) -> list[tuple[str, str]]:
        game = self.start.game
        start = [] if self.start.first_turn else [("Start", self.start.notation())]
        return [("Board", str(game.grid)), ("Protocol", game.setting), *start]

    def groups(self) -> list[str]:
        return turn_groups(self.start, self.turns, self.variations)


class _Line(LineReader[Position, Turn]):
    """A line of turns being read (see :class:`~solver.core.answers.record.LineReader`), each numbered or not:
    a number given is the number of the turn it stands before."""

    def __init__(self, ply: int, before: Position) -> None:
        super().__init__(ply, before)
        self.pending: str | None = None  # a turn number not yet followed by its turn

    def feed(self, token: str) -> None:
        number = MOVE_NUMBER.fullmatch(token)
        if number is not None:
            self._number(token, *number.groups())
            token = number.group(3)
            if not token:
                return
        if self.position.over:
            result = Evaluation(self.position.margin(), 0).result()
            raise GameOverError(f"{token} comes after the end of the game ({result})", result)
        turn = self.position.parse_turn(token)
        self.positions.append(self.position.play(turn))
        self.moves.append(turn)
        self.pending = None

    def check_complete(self) -> None:
        if self.pending is not None:
            raise RecordError(f"turn number {self.pending} is not followed by a turn")

    def _number(self, token: str, digits: str, dots: str, rest: str) -> None:
        self.check_complete()
        written = token[:len(token) - len(rest)]
        expected = self.next_ply  # every turn its own number, from 1 at the start
        if len(digits) > MAX_NUMBER_DIGITS:
            raise RecordError(f"turn number {written} is too large")
        if dots != "." or int(digits) != expected:
            raise RecordError(f"turn number {written} where {expected}. was expected (every turn has its own number)")
        self.pending = written


def _tree_reader(start: Position) -> TreeReader[Position, Turn]:
    return TreeReader(start, _Line, "line of turns", MAX_LINE_LENGTH, lambda ply: f"turn {ply}", unit="turn")


def read_variations(start: Position, text: str) -> tuple[tuple[Turn, ...], tuple[Variation[Turn], ...]]:
    """The main line and the variations of the turns ``text`` from ``start`` (numbered or not, over lines
    or not, see the module docstring), each turn checked, none after the end of its line's game. Raises
    :class:`RecordError` naming the problem, or what :meth:`Position.parse_turn
    <solver.necnon.model.position.Position.parse_turn>` raises for a turn that is wrong.

    >>> turns, variations = read_variations(Position.empty(Game.of("3x3")), "b2 (a1) a1,c3")
    >>> len(turns), variations[0].ply, len(variations[0].moves)
    (2, 1, 1)
    """
    return _tree_reader(start).read(text)


def read_playable(start: Position, text: str) -> tuple[tuple[Turn, ...], tuple[Variation[Turn], ...], str | None]:
    """The main line and the variations of the turns ``text`` from ``start`` up to its first token that
    cannot be read or played, and why that one was refused (``"turn 3, c9, cannot be played: ..."``), or
    None if all were read (see :meth:`TreeReader.read_playable
    <solver.core.answers.record.TreeReader.read_playable>`). Raises :class:`~solver.core.errors.InputError` only
    for text that is too long or not printable ASCII."""
    return _tree_reader(start).read_playable(text, "turn")


def parse_record(text: str) -> GameRecord:
    """Read a record (see the module docstring). Raises :class:`RecordError` naming the line (from 1)
    and the problem: a malformed or repeated tag, a board, protocol or start that is not valid, a turn
    or turn number that is wrong, a turn after the end of the game, a parenthesis out of place, or a
    ``Result`` that the turns do not lead to.

    >>> record = parse_record('[Board "3x3"]\\n1. b2 2. a1,c3 (2. a1,b1)')
    >>> record.names(), record.result, record.end.notation()
    (['b2', 'a1,c3'], '*', '2g/1b1/g2 b')
    """
    split = split_record(text)
    start = _start(split)
    turns, variations = _tree_reader(start).read_record(split)
    record = GameRecord(start, turns, split.others(GAME_TAGS), variations)
    check_result(split, record.result, lambda said: _RESULT.fullmatch(said) is not None,
                 "Black wins by N, Green wins by N, draw or *")
    return record


def _start(split: RecordLines) -> Position:
    """The start position the ``Board``, ``Protocol`` and ``Start`` tags describe."""
    board_line, board = split.tag("Board")
    protocol_line, protocol = split.tag("Protocol", DEFAULT_PROTOCOL)
    start_line, start = split.tag("Start")
    with at_line(start_line):
        written_on = notation_grid(start) if start else None
    with at_line(board_line):
        game = Game.of(board or written_on or DEFAULT_BOARD, DEFAULT_PROTOCOL)
    with at_line(protocol_line):
        game = Game.of(game.grid, protocol)
    with at_line(start_line):
        return Position.parse(start, game) if start else Position.empty(game)


def read_record(path: Path | str) -> GameRecord:
    """The record in the file ``path`` (UTF-8). Raises :class:`RecordError` naming the file, and the
    line for a record that cannot be read."""
    return read_file(path, parse_record)
