"""Bulk queries (``neutreeko query -``): many positions in, one JSON object per position out.

Each input line is answered by the object ``neutreeko query LINE --json`` prints (without its "moves"
list unless ``with_moves``), or, if the line cannot be read, by an error object
``{"line": n, "input": text, "error": message}`` with the message a single query would give (see
:mod:`solver.neutreeko.querying.report`; a line longer than any position is quoted by its start only).
Answers come in input order; a bad line does not stop the others. Input is UTF-8 (undecodable bytes
become U+FFFD, and their line an error object, as any line that is not ASCII notation); a byte order
mark at its start is skipped.

Lines in the regular form (the notation as :meth:`~solver.neutreeko.model.position.Position.fen` writes
it) are read, looked up and written with numpy, a chunk of lines at a time, a table larger than the
chunk cache looked up a batch at a time (:func:`default_batch_lines`); every other line goes through
:meth:`~solver.neutreeko.model.position.Position.parse` and
:class:`~solver.neutreeko.querying.probe.Tablebase` one at a time, and both paths answer alike.

How the work is split, and why: docs/design/tables.md.
"""

from __future__ import annotations

import io
import json
import os
import re
import select
from dataclasses import dataclass
from functools import lru_cache
from itertools import islice
from typing import IO, Iterable, Iterator, NamedTuple, Protocol

import numpy as np

from solver.core.answers.console import LineCutter
from solver.core.errors import InputError
from solver.core.storage.chunks import cache_limit
from solver.neutreeko.model import index
from solver.neutreeko.model.children import children
from solver.neutreeko.model.game import Game
from solver.neutreeko.model.position import BLACK, WHITE, Position
from solver.neutreeko.model.values import DRAW, ILLEGAL, Evaluation
from solver.neutreeko.querying import BATCH_LINES, LINES_PER_CHUNK
from solver.neutreeko.querying.probe import Tablebase
from solver.neutreeko.querying.report import error_object, query_object
from solver.neutreeko.tables.table import Table

#: Lines are parsed and answered this many at a time (with their moves: looked up too).
CHUNK_LINES = 1 << 14
#: Bytes asked of the operating system at a time when reading a file descriptor.
_READ_BYTES = 1 << 19

_BOM = "\ufeff"


@lru_cache(maxsize=None)
def _rank_texts(width: int) -> tuple[str, ...]:
    """The notation of every rank ``width`` squares wide, by its *code*: the sum over its files of
    ``3 ** file`` times 0 (empty), 1 (black) or 2 (white)."""
    texts = []
    for code in range(3 ** width):
        cells = "".join(".bw"[code // 3 ** file % 3] for file in range(width))
        texts.append(re.sub(r"\.+", lambda run: str(len(run.group())), cells))
    return tuple(texts)


@lru_cache(maxsize=None)
def _rank_bytes(width: int) -> np.ndarray:
    """The text of every rank ``width`` squares wide by its code, after a slash (``/1b1w1``), as padded
    bytes (see :func:`_padded`) in 8 or 16 bytes."""
    return _padded(["/" + text for text in _rank_texts(width)], 8 * -(-(width + 1) // 8))


@lru_cache(maxsize=None)
def _rank_lengths(width: int) -> np.ndarray:
    """The length of the text of every rank ``width`` squares wide by its code, with the slash before it."""
    lengths: np.ndarray = np.count_nonzero(_rank_bytes(width), axis=1)
    return lengths


# What each byte of a placement is, by its value (a zero byte too: the padding is marked apart).
_PAD, _DIGIT, _PIECE, _SLASH, _OTHER = range(5)
_KINDS = np.full(256, _OTHER, dtype=np.uint8)
_KINDS[list(b"0123456789")] = _DIGIT
_KINDS[list(b"bw")] = _PIECE
_KINDS[ord("/")] = _SLASH
# The squares a byte of a placement stands for, if no digit follows it: a piece one, a digit its value.
_SQUARES = np.zeros(256, dtype=np.int16)
_SQUARES[list(b"0123456789")] = np.arange(10)
_SQUARES[list(b"bw")] = 1


class Answers(NamedTuple):
    """The JSON texts answering a chunk of lines, in order, and how many of them are error objects."""

    texts: list[str]
    errors: int


def read_lines(stream: IO[str], batch_lines: int = BATCH_LINES) -> Iterator[list[str]]:
    """The lines of ``stream`` (without their line ends), in batches of the lines available at once,
    up to ``batch_lines`` (or one more read's worth).

    A stream with a file descriptor is read with ``os.read``, which returns what has arrived, and read
    on while more has arrived (``select``): a client that writes one line and waits gets its answer at
    once, a file is read in large batches. Undecodable bytes become U+FFFD (and their line an error
    object); a byte order mark starting the stream is dropped."""
    try:
        descriptor = stream.fileno()
    except (AttributeError, OSError, io.UnsupportedOperation):
        yield from _without_bom(_text_chunks(stream, batch_lines))
        return
    yield from _without_bom(_descriptor_chunks(descriptor, batch_lines))


def _text_chunks(stream: IO[str], batch_lines: int) -> Iterator[list[str]]:
    lines = iter(stream)
    while chunk := [line.rstrip("\r\n") for line in islice(lines, batch_lines)]:
        yield chunk


def _descriptor_chunks(descriptor: int, batch_lines: int) -> Iterator[list[str]]:
    cutter = LineCutter()  # a line never ending holds no more than a line may be
    ended = False
    while not ended:
        complete: list[bytes] = []
        while not ended and (not complete or len(complete) < batch_lines and _waiting(descriptor)):
            read = os.read(descriptor, _READ_BYTES)
            ended = not read
            complete += cutter.feed(read) if read else cutter.end()
        if complete:
            yield [line.decode("utf-8", "replace").rstrip("\r") for line in complete]


def _waiting(descriptor: int) -> bool:
    """Can ``descriptor`` be read without waiting (more input has arrived, or its end)?"""
    return bool(select.select([descriptor], [], [], 0)[0])


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
    """Answer batches of lines (positions of ``game``, see :func:`read_lines`), :data:`CHUNK_LINES`
    lines at a time, lines numbered from 1. Raises only what opening ``game``'s table raises (see
    :meth:`~solver.core.storage.tablebase.OpenedTables.table`)."""
    first = 1
    for chunk in chunks:
        for answers in _answer_batch(chunk, tablebase, game, with_moves, first):
            yield answers
            first += len(answers.texts)


def answer_lines(lines: list[str], tablebase: Tablebase, game: Game, with_moves: bool = False,
                 first: int = 1) -> Answers:
    """The answers to ``lines``, numbered from ``first`` (see the module docstring)."""
    parts = list(_answer_batch(lines, tablebase, game, with_moves, first))
    return Answers([text for part in parts for text in part.texts], sum(part.errors for part in parts))


def _answer_batch(lines: list[str], tablebase: Tablebase, game: Game, with_moves: bool,
                  first: int) -> Iterator[Answers]:
    """The answers to ``lines``, numbered from ``first``, :data:`CHUNK_LINES` at a time; every result
    byte the regular lines need looked up first, together."""
    parts = [lines[start:start + CHUNK_LINES] for start in range(0, len(lines), CHUNK_LINES)]
    regulars = [_regular(part, game) for part in parts]
    present = [regular for regular in regulars if regular is not None]
    looked = _source(tablebase.table(game), present, with_moves) if present else None
    for part, regular in zip(parts, regulars):
        texts: list[str | None] = [None] * len(part)
        if regular is not None and looked is not None:
            (_answer_with_moves if with_moves else _answer_values)(regular, looked, texts)
        errors = 0
        answers: list[str] = []
        for number, (text, answer) in enumerate(zip(part, texts)):
            if answer is None:
                answer, failed = _answer_one(text, tablebase, game, with_moves, first + number)
                errors += failed
            answers.append(answer)
        yield Answers(answers, errors)
        first += len(part)


class _Looked(NamedTuple):
    """The result bytes of a batch's indices, read from the table at once, and looked up in place of it."""

    indices: np.ndarray  # sorted, without repeats
    results: np.ndarray

    def probe(self, indices: np.ndarray) -> np.ndarray:
        """The result byte of each of ``indices`` (any shape): the byte of each one of :attr:`indices`,
        some byte for another (which the callers mask: index 0 stands in for a slot without a move)."""
        found: np.ndarray = self.results[np.searchsorted(self.indices, indices)]
        return found


class _Lookup(Protocol):
    def probe(self, indices: np.ndarray) -> np.ndarray: ...


def default_batch_lines(table: Table) -> int:
    """How many waiting lines are answered together unless told otherwise:
    :data:`~solver.neutreeko.querying.BATCH_LINES`, or :data:`~solver.neutreeko.querying.LINES_PER_CHUNK`
    for each chunk of a table larger than the chunk cache, if more."""
    return BATCH_LINES if _fits_cache(table) else max(BATCH_LINES, LINES_PER_CHUNK * table.chunks.count)


def _fits_cache(table: Table) -> bool:
    return len(table.chunks) * table.chunks.dtype.itemsize <= cache_limit()


def _source(table: Table, regulars: list[_Regular], with_moves: bool) -> _Lookup:
    """What the answers to ``regulars`` look their result bytes up in: the table itself if all of it
    fits the chunk cache (its chunks, once read, stay there), else :func:`_look_up`."""
    return table if _fits_cache(table) else _look_up(table, regulars, with_moves)


def _look_up(table: Table, regulars: list[_Regular], with_moves: bool) -> _Looked:
    """Every result byte the answers to ``regulars`` read (with their moves: those after each move
    too), looked up together, so that each chunk of the table is read once a batch."""
    wanted = [regular.indices() for regular in regulars]
    if with_moves:
        for regular in regulars:
            moves = children(regular.game, regular.mover, regular.other)
            wanted.append(moves.after[moves.legal])
    indices = np.sort(np.concatenate(wanted))
    indices = indices[np.r_[True, indices[1:] != indices[:-1]]]  # np.unique, without its slower hashing
    return _Looked(indices, table.probe(indices))


def _answer_one(text: str, tablebase: Tablebase, game: Game, with_moves: bool,
                line_number: int) -> tuple[str, bool]:
    """One line through :meth:`~solver.neutreeko.model.position.Position.parse` and the :class:`Tablebase`: (answer, False) or
    (error object, True)."""
    if not text.strip():
        return json.dumps(error_object(line_number, text, "empty line")), True
    try:
        position = Position.parse(text, game=game)
    except InputError as error:
        return json.dumps(error_object(line_number, text, str(error))), True
    moves = tablebase.moves(position) if with_moves else None
    return json.dumps(query_object(position, tablebase.probe(position), moves)), False


class _Regular(NamedTuple):
    """The lines of a chunk in the regular form (see the module docstring) that are legal positions:
    their places in the chunk, their text, the side to move, the squares of each side and the codes
    of the ranks (see :func:`_rank_texts`), the bottom rank first."""

    game: Game
    rows: list[int]
    fens: list[str]
    black_to_move: np.ndarray
    black: np.ndarray
    white: np.ndarray
    codes: np.ndarray

    @property
    def mover(self) -> np.ndarray:
        return np.where(self.black_to_move[:, None], self.black, self.white)

    @property
    def other(self) -> np.ndarray:
        return np.where(self.black_to_move[:, None], self.white, self.black)

    def indices(self) -> np.ndarray:
        mover, other = self.mover, self.other
        indices: np.ndarray = index.encode(mover[:, 0], mover[:, 1], mover[:, 2], other[:, 0], other[:, 1],
                                           other[:, 2], index.other_count(self.game.board.size))
        return indices


def _regular(lines: list[str], game: Game) -> _Regular | None:
    """The :class:`_Regular` lines of ``lines``, or None if there are none.

    The lines are read together as rows of bytes: each placement character stands for some squares
    (a piece one, a run of empty squares its number), which place the pieces, and a line is regular
    only if it is as long as the notation of what it places (the sum of its ranks' text lengths), which
    makes it that notation; any other text, however it decodes, goes the careful way."""
    board = game.board
    width, height = board.width, board.height
    longest = board.size + height + 1  # every square written, the slashes, " b"
    lengths = np.fromiter(map(len, lines), dtype=np.int64, count=len(lines))
    numbers = np.flatnonzero((lengths >= 2 * height + 1) & (lengths <= longest))
    if len(numbers) == 0:
        return None
    # The candidate lines as rows of ASCII bytes, zero-padded (what is not ASCII becomes "?").
    sizes = lengths[numbers]
    text = np.frombuffer("".join(lines[number].ljust(longest, "\0") for number in numbers.tolist())
                         .encode("ascii", "replace"), dtype=np.uint8).reshape(len(numbers), longest)
    rows = np.arange(len(numbers))
    side = text[rows, sizes - 1]
    within = np.arange(longest) < (sizes - 2)[:, None]
    placement = np.where(within, text, 0)
    kind = np.where(within, _KINDS[text], _PAD)
    digit, slash = kind == _DIGIT, kind == _SLASH
    black, white = placement == ord("b"), placement == ord("w")
    well_formed = ((text[rows, sizes - 2] == ord(" ")) & ((side == ord("b")) | (side == ord("w")))
                   & ~(kind == _OTHER).any(axis=1) & (slash.sum(axis=1) == height - 1)
                   & (black.sum(axis=1) == 3) & (white.sum(axis=1) == 3))
    # The squares each character stands for: a piece one, a digit its value, ten times it before
    # another digit (a run of ten is two digits; any other text is caught by its length, below).
    squares = _SQUARES[placement]
    squares[:, :-1] *= np.where(digit[:, :-1] & digit[:, 1:], 10, 1).astype(np.int16)
    passed = _row_sums(squares)  # squares written up to each character, itself included
    rank = _row_sums(slash)  # from the top, 0 first
    well_formed &= (passed[:, -1] == board.size) & ~(slash & (passed != rank * width)).any(axis=1)
    kept = np.flatnonzero(well_formed)
    if len(kept) == 0:
        return None
    text, sizes, passed, rank = text[kept], sizes[kept], passed[kept], rank[kept]

    def squares_of(pieces: np.ndarray) -> np.ndarray:
        # Square s is file s % width of rank s // width, and the text gives the top rank first.
        row, column = np.nonzero(pieces[kept])
        found = (height - 1 - rank[row, column]) * width + (passed[row, column] - 1) % width
        return np.sort(found.reshape(-1, 3), axis=1)

    black_squares, white_squares = squares_of(black), squares_of(white)
    codes = np.zeros((len(kept), height), dtype=np.int64)
    for placed, colour in ((black_squares, 1), (white_squares, 2)):
        np.add.at(codes, (np.arange(len(kept))[:, None], placed // width), colour * 3 ** (placed % width))
    # Equal length means equal text: the notation writes each run of empty squares in the fewest
    # digits, and no other text as short is read as that run (one digit, or two: 10 * a + b).
    shortest = _rank_lengths(width)[codes].sum(axis=1) - 1
    to_move = text[np.arange(len(kept)), sizes - 1] == ord("b")
    mover = np.where(to_move[:, None], black_squares, white_squares)
    regular = (shortest == sizes - 2) & ~game.wins[index.triple_rank(mover[:, 0], mover[:, 1], mover[:, 2])]
    if not regular.any():
        return None
    chosen = numbers[kept[regular]].tolist()
    return _Regular(game, chosen, [lines[number] for number in chosen], to_move[regular], black_squares[regular],
                    white_squares[regular], codes[regular])


def _row_sums(cells: np.ndarray) -> np.ndarray:
    """The running sums along each row of ``cells`` (small integers or booleans), as int64: one running
    sum over the whole array, less each row's start, as a running sum along rows is slow in numpy."""
    running = np.cumsum(cells.reshape(-1), dtype=np.int64).reshape(cells.shape)
    before = np.zeros(len(cells), dtype=np.int64)
    before[1:] = running[:-1, -1]
    sums: np.ndarray = running - before[:, None]
    return sums


def _answer_values(regular: _Regular, table: _Lookup, texts: list[str | None]) -> None:
    """Answer, in ``texts``, the regular lines without their moves."""
    results = table.probe(regular.indices())
    middles = {side: f'", "board": "{regular.game.board}", "to_move": "{BLACK if side else WHITE}", "value": "'
               for side in (True, False)}
    for row, fen, black_to_move, result in zip(regular.rows, regular.fens, regular.black_to_move.tolist(),
                                               results.tolist()):
        if result != ILLEGAL:  # never for a legal position; if it were, the careful path reports it
            texts[row] = '{"position": "' + fen + middles[black_to_move] + _TAILS[result]


def _answer_with_moves(regular: _Regular, table: _Lookup, texts: list[str | None]) -> None:
    """Answer, in ``texts``, the regular lines with every move ranked (see the module docstring)."""
    game, templates = regular.game, _Templates.of(regular.game)
    results = table.probe(regular.indices())
    moves = children(game, regular.mover, regular.other)
    after = np.where(moves.legal, table.probe(np.maximum(moves.after, 0)), 0)
    answerable = (results != ILLEGAL) & ~((after == ILLEGAL) & moves.legal).any(axis=1)
    # Best first: the value's place in the order, from the result byte after the move, then the name.
    keys = np.where(moves.legal, templates.order[after] << 12 | templates.name_order[moves.origin, moves.target],
                    np.iinfo(np.int64).max)
    order = np.argsort(keys, axis=1)
    row, place = np.nonzero(np.take_along_axis(moves.legal, order, axis=1))  # every move, best first by row
    slot = order[row, place]
    origin, target, after = moves.origin[row, slot], moves.target[row, slot], after[row, slot]
    last = place == np.bincount(row, minlength=len(results))[row] - 1
    black_to_move = regular.black_to_move[row]
    codes = templates.moved(regular, row, origin, target)
    tail = (~black_to_move).astype(np.int64) * 2 + last
    text = np.concatenate([templates.head[origin, target], templates.move_value[after],
                           templates.placement(codes), templates.tail[tail]], axis=1)
    lengths = templates.lengths(after, codes, tail)
    ends = np.cumsum(np.bincount(row, weights=lengths, minlength=len(results)).astype(np.int64))
    moves_text = text[text != 0].tobytes().decode("ascii")
    middles = {side: f'", "board": "{game.board}", "to_move": "{BLACK if side else WHITE}", "value": "'
               for side in (True, False)}
    begin = 0
    for line, fen, to_move, result, end, ok in zip(regular.rows, regular.fens, regular.black_to_move.tolist(),
                                                    results.tolist(), ends.tolist(), answerable.tolist()):
        if ok:  # never otherwise for a table that opened; if it were, the careful path reports it
            texts[line] = '{"position": "' + fen + middles[to_move] + _MOVES_HEADS[result] + moves_text[begin:end] + "]}"
        begin = end


def _padded(texts: list[str], width: int = 0) -> np.ndarray:
    """``texts`` as rows of ASCII bytes, padded with zero bytes to the longest (or to ``width``)."""
    width = max([width] + [len(text) for text in texts])
    return np.frombuffer("".join(text.ljust(width, "\0") for text in texts).encode("ascii"),
                         dtype=np.uint8).reshape(len(texts), width)


@dataclass(frozen=True)
class _Templates:
    """The padded texts (see :func:`_padded`) that the moves of answers are assembled from, for one
    game, and the parts of the move order. A position's placement is written from its rank codes (see
    :func:`_rank_texts`)."""

    game: Game
    head: np.ndarray  # by origin and target: '{"move": "B1-C1", "value": "'
    move_value: np.ndarray  # by the result byte after the move: 'loss", "plies": 4, "position": "'
    tail: np.ndarray  # by 2 * (Black to move after the move) + (last move): ' w"}, ', ' w"}', ' b"}, ', ' b"}'
    order: np.ndarray  # by result byte after a move: the move's place in the value order
    name_order: np.ndarray  # by origin and target: the place of the move's name in alphabetical order

    @property
    def ranks(self) -> np.ndarray:
        """By rank code: "/1b1w1", a slash and the placement of the rank, in 8 or 16 bytes."""
        return _rank_bytes(self.game.board.width)

    @classmethod
    @lru_cache(maxsize=None)
    def of(cls, game: Game) -> _Templates:
        board, size = game.board, game.board.size
        moves, order = [], []
        for byte in range(256):
            move = (Evaluation.of_byte(byte) if byte != ILLEGAL else DRAW).for_mover()
            moves.append(f'{move.value}", "plies": {json.dumps(move.plies)}, "position": "')
            rank, plies = move.order_key()
            order.append(rank << 9 | (plies + 256))
        names = [f'{{"move": "{board.name(origin)}-{board.name(target)}", "value": "'
                 for origin in range(size) for target in range(size)]
        files = np.array([board.file_of(square) for square in range(size)])
        rank_numbers = np.array([board.rank_of(square) for square in range(size)])
        alphabetical = files * board.height + rank_numbers  # a square's place in the order of its names
        names_order = alphabetical[:, None] * size + alphabetical[None, :]
        return cls(game, _padded(names).reshape(size, size, -1), _padded(moves),
                   _padded([' w"}, ', ' w"}', ' b"}, ', ' b"}']), np.array(order, dtype=np.int64), names_order)

    def moved(self, regular: _Regular, row: np.ndarray, origin: np.ndarray, target: np.ndarray) -> np.ndarray:
        """The rank codes of the positions after the moves ``origin`` to ``target`` of the regular
        positions ``row``: their own, less the piece on ``origin``, plus one on ``target``."""
        width = self.game.board.width
        codes: np.ndarray = regular.codes[row]
        colour = np.where(regular.black_to_move[row], 1, 2)
        moves = np.arange(len(row))
        codes[moves, origin // width] -= colour * 3 ** (origin % width)
        codes[moves, target // width] += colour * 3 ** (target % width)
        return codes

    def placement(self, codes: np.ndarray) -> np.ndarray:
        """The placement part of the notation (the top rank first, ``/`` between ranks) of positions
        given by their rank ``codes``, as padded bytes ``(n, 8 * height)`` (16 a rank on boards of more
        than 7 files)."""
        # Each rank's padded text is gathered as one or two 64-bit numbers.
        text: np.ndarray = self.ranks.view(np.uint64)[codes[:, ::-1]].view(np.uint8).reshape(len(codes), -1).copy()
        text[:, 0] = 0  # the slash before the top rank
        return text

    def lengths(self, after: np.ndarray, codes: np.ndarray, tail: np.ndarray) -> np.ndarray:
        """How many bytes the text of each move takes (without its padding): the move's name, its
        value (from the result byte ``after``), its position (rank ``codes``, less the first slash)
        and its ``tail``."""
        def length(table: np.ndarray) -> np.ndarray:
            counts: np.ndarray = np.count_nonzero(table, axis=-1)
            return counts

        lengths: np.ndarray = (self.head.shape[2] + length(self.move_value)[after]
                               + _rank_lengths(self.game.board.width)[codes].sum(axis=1) - 1 + length(self.tail)[tail])
        return lengths


_MOVES_HEADS = [f'{evaluation.value}", "plies": {json.dumps(evaluation.plies)}, "moves": ['
                for evaluation in (Evaluation.of_byte(byte) if byte != ILLEGAL else DRAW for byte in range(256))]


def _tail(byte: int) -> str:
    """The end of an answer, from the value: ``win", "plies": 5}``."""
    evaluation = Evaluation.of_byte(byte)
    return f'{evaluation.value}", "plies": {json.dumps(evaluation.plies)}}}'


_TAILS = [_tail(byte) if byte != ILLEGAL else "" for byte in range(256)]
