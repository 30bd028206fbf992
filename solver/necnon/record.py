"""NECNON game records: the written form of a game, tags then its turns, each numbered::

    [Board "3x3"]
    [Protocol "nec"]
    [Black "person"]
    [Green "perfect (the table)"]
    [Result "Green wins by 1"]

    1. b2 2. a1,c3 3. a3,c1 4. a2,b3 5. b1

The syntax of tags, comments and lines is every game's (:mod:`solver.core.record`). ``Board`` (default:
the board ``Start`` is written on, else ``4x4``) and ``Protocol`` (default ``nec``) name the game;
``Start`` is the position the game began from, in notation, written only when it is not the empty
board; ``Result`` is ``Black wins by N``, ``Green wins by N``, ``draw`` (the score at the end, as the
rules count it) or ``*`` (not over), and must be what the turns lead to. ``Black``, ``Green`` and any
other tags (``Event``, ``Date``, ...) are kept as they are. Every tag is optional: a bare list of
turns is a record of a game from the empty 4 x 4 board under NEC.

**Turns** are written as everywhere (``c3,d4``, ``c3``, ``pass``; see :mod:`solver.necnon.position`),
separated by spaces or line breaks, each checked against the rules. Every turn has its own number, from
1 at the start (Black and Green alternate, so a turn's number says whose it was); numbers are
optional, and may be glued to the turn (``3.a1,d4``), but a number given must be the number of the
turn it stands before. A turn after the end of the game is refused. A record that cannot be read
raises :class:`~solver.core.record.RecordError`, one line naming the line and the problem.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Iterable

from solver.core import files
from solver.core.notation import checked
from solver.core.record import (
    MAX_NUMBER_DIGITS,
    MOVE_NUMBER,
    RecordError,
    RecordLines,
    Tagged,
    at_line,
    check_result,
    read_file,
    split_record,
    tag_lines,
    wrap,
)
from solver.necnon.position import MAX_LINE_LENGTH, Position, Turn, notation_grid
from solver.necnon.rules import Game
from solver.necnon.values import Evaluation

#: Tags a record writes from its game, in this order, before any others.
GAME_TAGS = ("Board", "Protocol", "Start")
PLAYER_TAGS = ("Black", "Green")
#: The board and protocol of a record that names none.
DEFAULT_BOARD, DEFAULT_PROTOCOL = "4x4", "nec"
#: What a ``Result`` tag may say: the score's wording (:meth:`Evaluation.result`), or ``*``.
_RESULT = re.compile(r"(Black|Green) wins by [1-9][0-9]*|draw|\*")

__all__ = ["GameRecord", "RecordError", "numbered", "parse_record", "read_record", "write_record"]


def numbered(names: Iterable[str]) -> list[str]:
    """The turns ``names`` numbered from 1, in groups that a line break should not split.

    >>> numbered(["b2", "a1,c3", "pass"])
    ['1. b2', '2. a1,c3', '3. pass']
    """
    return [f"{number}. {name}" for number, name in enumerate(names, 1)]


@dataclass(frozen=True)
class GameRecord(Tagged):
    """A game: where it started, its turns (each legal, none after the end) and its tags other than
    those of :data:`GAME_TAGS` and ``Result``, which come from the game itself: the players' names
    (``Black``, ``Green``) and any others, in order."""

    start: Position
    turns: tuple[Turn, ...] = ()
    tags: tuple[tuple[str, str], ...] = field(default=())

    def __post_init__(self) -> None:
        self.check_tags(GAME_TAGS)

    @cached_property
    def positions(self) -> tuple[Position, ...]:
        """The start, then the position after each turn (each checked: an illegal one raises
        :class:`~solver.core.errors.IllegalMoveError`)."""
        positions = [self.start]
        for turn in self.turns:
            positions.append(positions[-1].play(turn))
        return tuple(positions)

    @property
    def end(self) -> Position:
        """The position after the last turn."""
        return self.positions[-1]

    @property
    def result(self) -> str:
        """The ``Result`` tag: the score at the end (``"Black wins by 2"``, ``"draw"``), or ``*`` while
        the game is not over."""
        return Evaluation(self.end.margin(), 0).result() if self.end.over else "*"

    def names(self) -> list[str]:
        """The turns as written: ``c3,d4``, ``c3``, ``pass``."""
        return [turn.name(self.start.game.grid) for turn in self.turns]

    def __repr__(self) -> str:
        # The turns as written, a1,c3 rather than Turn(cells=(0, 8)): a turn does not know its board, the
        # record does.
        tags = f", tags={self.tags!r}" if self.tags else ""
        return f"GameRecord(start={self.start!r}, turns={' '.join(numbered(self.names()))!r}{tags}, " \
               f"result={self.result!r})"

    def text(self) -> str:
        """The record as text (see the module docstring), ending with a line end."""
        game = self.start.game
        tags = [("Board", str(game.grid)), ("Protocol", game.setting)]
        if not self.start.first_turn:
            tags.append(("Start", self.start.notation()))
        players = [(name, self.tag(name)) for name in PLAYER_TAGS if self.tag(name)]
        others = [(name, value) for name, value in self.tags if name not in PLAYER_TAGS]
        tags += [*players, ("Result", self.result), *others]
        return "\n".join([*tag_lines(tags), "", wrap(numbered(self.names()))]) + "\n"


def parse_record(text: str) -> GameRecord:
    """Read a record (see the module docstring). Raises :class:`RecordError` naming the line (from 1)
    and the problem: a malformed or repeated tag, a board, protocol or start that is not valid, a turn
    or turn number that is wrong, a turn after the end of the game, or a ``Result`` that the turns do
    not lead to.

    >>> record = parse_record('[Board "3x3"]\\n1. b2 2. a1,c3')
    >>> record.names(), record.result, record.end.notation()
    (['b2', 'a1,c3'], '*', '2g/1b1/g2 b')
    """
    split = split_record(text)
    start = position = _start(split)
    turns: list[Turn] = []
    pending: str | None = None  # a turn number not yet followed by its turn
    for number, line in split.moves:
        with at_line(number):
            # Checked as notation is (printable ASCII), so that no other character than a space
            # separates two turns.
            tokens = checked(line, "line of turns", MAX_LINE_LENGTH).split()
        for token in tokens:
            with at_line(number):
                pending, token = _number(token, pending, len(turns) + 1)
                if not token:
                    continue
                if position.over:
                    result = Evaluation(position.margin(), 0).result()
                    raise RecordError(f"{token} comes after the end of the game ({result})")
                turn = position.parse_turn(token)
            position = position.play(turn)
            turns.append(turn)
            pending = None
    if pending is not None:
        raise RecordError(f"line {split.moves[-1][0]}: turn number {pending} is not followed by a turn")
    players = tuple((name, value) for name, (_, value) in split.tags.items() if name not in (*GAME_TAGS, "Result"))
    record = GameRecord(start, tuple(turns), players)
    check_result(split, record.result, lambda said: _RESULT.fullmatch(said) is not None,
                 "Black wins by N, Green wins by N, draw or *")
    return record


def _number(token: str, pending: str | None, expected: int) -> tuple[str | None, str]:
    """Read a turn number at the head of ``token``, if there is one, checking that it is ``expected``
    and that no other number is still waiting for its turn (``pending``). Returns the number waiting
    now (None if there is none) and the rest of the token: the turn to read, or ``""``."""
    number = MOVE_NUMBER.fullmatch(token)
    if number is None:
        return pending, token
    if pending is not None:
        raise RecordError(f"turn number {pending} is not followed by a turn")
    digits, dots, rest = number.groups()
    written = token[:len(token) - len(rest)]
    if len(digits) > MAX_NUMBER_DIGITS:
        raise RecordError(f"turn number {written} is too large")
    if dots != "." or int(digits) != expected:
        raise RecordError(f"turn number {written} where {expected}. was expected (every turn has its own number)")
    return written, rest


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


def write_record(path: Path | str, record: GameRecord) -> None:
    """Write ``record`` to ``path`` atomically (see :mod:`solver.core.files`); raises :class:`OSError`."""
    files.write_atomically(path, record.text())

