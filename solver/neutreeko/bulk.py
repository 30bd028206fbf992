"""Bulk queries (``neutreeko query -``): many positions in, one JSON object per position out.

Each input line is answered by the object ``neutreeko query LINE --json`` prints (without its "moves"
list unless ``with_moves``), or, if the line cannot be read, by an error object
``{"line": n, "input": text, "error": message}`` with the message a single query would give (see
:mod:`solver.neutreeko.report`; a line longer than any position is quoted by its start only).
Answers come in input order; a bad line does not stop the others. Input is UTF-8 (undecodable bytes
become U+FFFD, and their line an error object, as any line that is not ASCII notation); a byte order
mark at its start is skipped.

Speed comes from splitting the work: each line is checked against a strict form of the notation with a
few string operations (ranks of ``b``, ``w`` and single digits 1-7, then ``b`` or ``w``); the lines in
that form are then decoded, indexed and looked up together with numpy, and written from templates whose
text is the same as ``json.dumps`` of :func:`solver.neutreeko.report.query_object` gives. Every other line (``start``,
a malformed or illegal position, ``with_moves``) goes through :meth:`Position.parse` and
:class:`~solver.neutreeko.probe.Tablebase` one at a time, so both paths answer alike.
"""

from __future__ import annotations

import io
import json
import os
import re
from itertools import islice
from typing import IO, Iterable, Iterator, NamedTuple

import numpy as np

from solver.core.errors import InputError
from solver.neutreeko import index
from solver.neutreeko.game import Game
from solver.neutreeko.position import BLACK, MAX_POSITION_LENGTH, WHITE, Position
from solver.neutreeko.probe import Tablebase
from solver.neutreeko.report import error_object, query_object
from solver.neutreeko.values import ILLEGAL, Evaluation

#: At most this many lines are looked up and written together.
CHUNK_LINES = 1 << 14
#: Bytes asked of the operating system at a time when reading a file descriptor.
_READ_BYTES = 1 << 19

_EXPAND = str.maketrans({str(count): "." * count for count in range(1, 8)})
# Anything but pieces, single digits 1-7 and rank separators leaves the fast path.
_IRREGULAR = re.compile(r"[^bw1-7/]|[1-7][0-9]")
_BOM = "\ufeff"
_SIDES = ("b", "w")


class Answers(NamedTuple):
    """The JSON texts answering a chunk of lines, in order, and how many of them are error objects."""

    texts: list[str]
    errors: int


def read_lines(stream: IO[str]) -> Iterator[list[str]]:
    """The lines of ``stream`` (without their line ends), in chunks of the lines available at once.

    A stream with a file descriptor is read with ``os.read``, which returns what has arrived: a
    client that writes one line and waits gets its answer at once, a file is read in large chunks.
    Undecodable bytes become U+FFFD (and their line an error object); a byte order mark starting the
    stream is dropped."""
    try:
        descriptor = stream.fileno()
    except (AttributeError, OSError, io.UnsupportedOperation):
        yield from _without_bom(_text_chunks(stream))
        return
    yield from _without_bom(_descriptor_chunks(descriptor))


def _text_chunks(stream: IO[str]) -> Iterator[list[str]]:
    lines = iter(stream)
    while chunk := [line.rstrip("\r\n") for line in islice(lines, CHUNK_LINES)]:
        yield chunk


def _descriptor_chunks(descriptor: int) -> Iterator[list[str]]:
    pending: list[bytes] = []  # the start of a line whose end has not arrived yet
    while data := os.read(descriptor, _READ_BYTES):
        if b"\n" not in data:
            pending.append(data)
            continue
        *complete, rest = b"".join([*pending, data]).split(b"\n")
        pending = [rest]
        yield [line.decode("utf-8", "replace").rstrip("\r") for line in complete]
    if b"".join(pending):
        yield [b"".join(pending).decode("utf-8", "replace").rstrip("\r")]


def _without_bom(chunks: Iterator[list[str]]) -> Iterator[list[str]]:
    """The chunks, the first line's byte order mark (U+FEFF, as some editors start a file) dropped."""
    first = next(chunks, None)
    if first is None:
        return
    if first[0].startswith(_BOM):
        first[0] = first[0][len(_BOM):]
    yield first
    yield from chunks


def query_stream(chunks: Iterable[list[str]], tablebase: Tablebase, game: Game,
                 with_moves: bool = False) -> Iterator[Answers]:
    """Answer chunks of lines (positions of ``game``, see :func:`read_lines`) chunk by chunk, lines
    numbered from 1. Raises only what opening ``game``'s table raises (see :meth:`Tablebase.table`)."""
    first = 1
    for chunk in chunks:
        for start in range(0, len(chunk), CHUNK_LINES):
            part = chunk[start:start + CHUNK_LINES]
            yield answer_lines(part, tablebase, game, with_moves, first)
            first += len(part)


def answer_lines(lines: list[str], tablebase: Tablebase, game: Game, with_moves: bool = False,
                 first: int = 1) -> Answers:
    """The answers to ``lines``, numbered from ``first`` (see the module docstring)."""
    texts: list[str | None] = [None] * len(lines)
    if not with_moves:
        _answer_regular(lines, tablebase, game, texts)
    errors = 0
    answers: list[str] = []
    for number, (text, answer) in enumerate(zip(lines, texts)):
        if answer is None:
            answer, failed = _answer_one(text, tablebase, game, with_moves, first + number)
            errors += failed
        answers.append(answer)
    return Answers(answers, errors)


def _answer_one(text: str, tablebase: Tablebase, game: Game, with_moves: bool,
                line_number: int) -> tuple[str, bool]:
    """One line through :meth:`Position.parse` and the :class:`Tablebase`: (answer, False) or
    (error object, True)."""
    if not text.strip():
        return json.dumps(error_object(line_number, text, "empty line")), True
    try:
        position = Position.parse(text, game=game)
    except InputError as error:
        return json.dumps(error_object(line_number, text, str(error))), True
    moves = tablebase.moves(position) if with_moves else None
    return json.dumps(query_object(position, tablebase.probe(position), moves)), False


def _answer_regular(lines: list[str], tablebase: Tablebase, game: Game, texts: list[str | None]) -> None:
    """Answer, in ``texts``, the lines in the strict form of the notation (see the module docstring)
    that are legal positions of ``game``; leave the others None."""
    width, height = game.board.width, game.board.height
    length = height * (width + 1) - 1
    numbers, grids, black_to_move, fens = [], [], [], []
    for number, line in enumerate(lines):
        if len(line) > MAX_POSITION_LENGTH or not (line.isascii() and line.isprintable()):
            continue  # what Position.parse refuses
        fields = line.split()
        if len(fields) == 2 and fields[1] in _SIDES and not _IRREGULAR.search(fields[0]):
            expanded = fields[0].translate(_EXPAND)
            if len(expanded) == length:
                numbers.append(number)
                grids.append(expanded)
                black_to_move.append(fields[1] == "b")
                fens.append(f"{fields[0]} {fields[1]}")
    if not numbers:
        return
    grid = np.frombuffer("".join(grids).encode("ascii"), dtype=np.uint8).reshape(len(numbers), length)
    black, white, regular = _pieces(grid, game)
    to_move = np.asarray(black_to_move)[:, None]
    mover, other = np.where(to_move, black, white), np.where(to_move, white, black)
    regular &= ~game.wins[index.triple_rank(mover[:, 0], mover[:, 1], mover[:, 2])]
    if not regular.any():
        return
    mover, other = mover[regular], other[regular]
    indices = index.encode(mover[:, 0], mover[:, 1], mover[:, 2], other[:, 0], other[:, 1], other[:, 2],
                           index.other_count(game.board.size))
    results = tablebase.table(game).lookup(indices).tolist()
    middles = {side: f'", "board": "{game.board}", "to_move": "{BLACK if side else WHITE}", "value": "'
               for side in (True, False)}
    for row, result in zip(np.flatnonzero(regular).tolist(), results):
        if result != ILLEGAL:  # never for a legal position; if it were, the careful path reports it
            texts[numbers[row]] = '{"position": "' + fens[row] + middles[black_to_move[row]] + _TAILS[result]


def _pieces(grid: np.ndarray, game: Game) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Black's and White's sorted squares of each expanded placement in ``grid`` (one row each:
    ranks from the top, ``.`` empty, ``/`` between ranks), and which rows are well formed: ``/``
    exactly between the ranks, three pieces a side."""
    width, height = game.board.width, game.board.height
    columns = np.arange(grid.shape[1])
    separator = columns % (width + 1) == width
    well_formed = ((grid[:, separator] == ord("/")).all(axis=1) &
                   (grid[:, ~separator] != ord("/")).all(axis=1))
    is_black, is_white = grid == ord("b"), grid == ord("w")
    well_formed &= (is_black.sum(axis=1) == 3) & (is_white.sum(axis=1) == 3)
    # Column c of a placement is file c % (width + 1) on rank height - 1 - c // (width + 1).
    square_of = (height - 1 - columns // (width + 1)) * width + columns % (width + 1)
    sides = []
    for occupied in (is_black, is_white):
        squares = np.zeros((len(grid), 3), dtype=np.int64)
        rows = occupied[well_formed]
        squares[well_formed] = square_of[np.nonzero(rows)[1]].reshape(-1, 3)
        sides.append(np.sort(squares, axis=1))
    return sides[0], sides[1], well_formed


def _tail(byte: int) -> str:
    """The end of an answer, from the value: ``win", "plies": 5}``."""
    evaluation = Evaluation.of_byte(byte)
    return f'{evaluation.value}", "plies": {json.dumps(evaluation.plies)}}}'


_TAILS = [_tail(byte) if byte != ILLEGAL else "" for byte in range(256)]
