"""What every game's records share: the written form of a game in the spirit of chess's PGN, tag lines
then the moves, and reading one from a file or a stream.

The syntax, the same for every game::

    [Name "value"]          a tag, one a line; a " or \\ in a value escaped with \\
    [Other "value"]
                            blank lines, and lines starting with #, are ignored
    1. ... 2. ...           the moves (each game says how they are written and numbered)

Lines end with ``\\n``, ``\\r\\n`` or ``\\r`` (no other character ends a line); spaces around a line are
ignored; no tag comes after the moves, and none twice. :func:`split_record` reads this much and hands
each tag and each line of moves over with its line number, so that a game's reader names the line of
any problem it finds; :func:`tag_lines` and :func:`wrap` write it. A record that cannot be read raises
:class:`RecordError`, one line naming the line and the problem; one read from a file or a stream names
it first (``game.txt, line 7: ...``).
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Callable, Iterator, Sequence, TypeVar

from solver.core.errors import InputError
from solver.core.notation import quote

Record = TypeVar("Record")

#: How a move number is written: digits and dots (``3.``, ``3...``), perhaps its move glued on
#: (``3.C4-C3``): the groups are the digits, the dots and the move.
MOVE_NUMBER = re.compile(r"([0-9]+)(\.+)(.*)")
#: A move number of more digits is refused before it is read as a number.
MAX_NUMBER_DIGITS = 6
#: A line of moves is wrapped to at most this many columns.
WIDTH = 78
#: A record longer than this is refused unread (a thousand moves take about 10 kB).
MAX_RECORD_BYTES = 1_000_000

_TAG = re.compile(r'\[\s*([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\s*\]')
# A record's line ends: not str.splitlines's, which also ends lines at U+0085, U+2028, \v, \f and others
# that notation refuses.
_LINE_END = re.compile(r"\r\n?|\n")


class RecordError(InputError, ValueError):
    """A game record or move text that cannot be read: the message names the line and the problem."""


@dataclass(frozen=True)
class RecordLines:
    """A record split into its tags, ``name -> (line number, value unescaped)`` in the order given,
    and its lines of moves, ``(line number, text without surrounding spaces)``."""

    tags: dict[str, tuple[int, str]]
    moves: list[tuple[int, str]]

    def tag(self, name: str, default: str = "") -> tuple[int, str]:
        """The line number and value of tag ``name``; ``(0, default)`` if it is not given."""
        return self.tags.get(name, (0, default))


def split_record(text: str) -> RecordLines:
    """The tags and lines of moves of a record (see the module docstring). Raises :class:`RecordError`
    naming the line of a malformed tag, a tag given twice or a tag after the moves.

    >>> split_record('[Black "Ann \\\\"A\\\\""]\\n\\n# a comment\\n1. c3\\n')
    RecordLines(tags={'Black': (1, 'Ann "A"')}, moves=[(4, '1. c3')])
    """
    tags: dict[str, tuple[int, str]] = {}
    moves: list[tuple[int, str]] = []
    for number, line in enumerate(_LINE_END.split(text), 1):
        stripped = line.strip(" ")
        if not stripped or stripped.startswith("#"):
            continue
        if not stripped.startswith("["):
            moves.append((number, stripped))
            continue
        tag = _TAG.fullmatch(stripped)
        if tag is None:
            raise RecordError(f'line {number}: a tag is written [Name "value"], not {quote(stripped, 40)}')
        if moves:
            raise RecordError(f"line {number}: tag {tag.group(1)} comes after the moves")
        if tag.group(1) in tags:
            raise RecordError(f"line {number}: tag {tag.group(1)} is given twice")
        tags[tag.group(1)] = (number, re.sub(r"\\(.)", r"\1", tag.group(2)))
    return RecordLines(tags, moves)


@contextmanager
def at_line(number: int) -> Iterator[None]:
    """Turn an :class:`~solver.core.errors.InputError` raised in the block (a move, a number, a tag's
    value that is wrong) into a :class:`RecordError` naming line ``number`` first."""
    try:
        yield
    except InputError as error:
        raise RecordError(f"line {number}: {error}") from None


def check_result(lines: RecordLines, result: str, well_formed: Callable[[str], bool], expected: str) -> None:
    """Check the ``Result`` tag of ``lines``, if given: it must be ``well_formed`` (else the message
    says it is not ``expected``: ``"one of black wins, ..."``) and be ``result``, what the moves lead
    to (``*`` if the game is not over); else :class:`RecordError` naming its line."""
    if "Result" not in lines.tags:
        return
    number, said = lines.tags["Result"]
    if not well_formed(said):
        raise RecordError(f"line {number}: result {quote(said)} is not {expected}")
    if said != result:
        actual = 'the game is not over (its result is "*")' if result == "*" else f"the game ends in {result}"
        raise RecordError(f'line {number}: [Result "{said}"], but {actual}')


class Tagged:
    """What a game record of either game shares: ``tags``, its tags other than those the record writes
    from its game and result, name and value in order."""

    tags: tuple[tuple[str, str], ...]

    def check_tags(self, game_tags: Sequence[str]) -> None:
        """Raise :class:`ValueError` if a tag is one the record writes itself (``game_tags`` or
        ``Result``), or is given twice."""
        names = [name for name, _ in self.tags]
        reserved = [name for name in names if name in (*game_tags, "Result")]
        if reserved or len(set(names)) != len(names):
            raise ValueError(f"tags {reserved or names} are reserved or repeated")

    def tag(self, name: str, default: str = "") -> str:
        """The value of tag ``name``, or ``default``."""
        return next((value for key, value in self.tags if key == name), default)


def tag_lines(tags: Sequence[tuple[str, str]]) -> list[str]:
    """``[Name "value"]`` for each tag, in order, ``"`` and ``\\`` escaped.

    >>> tag_lines([("Black", 'Ann "A"')])
    ['[Black "Ann \\\\"A\\\\""]']
    """
    return [f'[{name} "{_escape(value)}"]' for name, value in tags]


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def wrap(groups: Sequence[str]) -> str:
    """``groups`` separated by spaces, in lines of at most :data:`WIDTH` columns (unless a group is longer)."""
    lines = [groups[0]] if groups else [""]
    for group in groups[1:]:
        if len(lines[-1]) + 1 + len(group) > WIDTH:
            lines.append(group)
        else:
            lines[-1] += " " + group
    return "\n".join(lines)


def record_text(stream: IO[bytes], name: str) -> str:
    """The text of a record read from ``stream`` (``name`` in messages): UTF-8, a byte order mark at its
    start skipped. Raises :class:`RecordError` for bytes that are not UTF-8, or more than
    :data:`MAX_RECORD_BYTES` of them (without reading further: ``/dev/zero`` is refused at once)."""
    data = stream.read(MAX_RECORD_BYTES + 1)
    if len(data) > MAX_RECORD_BYTES:
        raise RecordError(f"{name} is longer than any record (more than {MAX_RECORD_BYTES:,} bytes)")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise RecordError(f"cannot read {name}: it is not UTF-8 ({error.reason} at byte {error.start:,})") from None


def read_stream(stream: IO[bytes], name: str, parse: Callable[[str], Record]) -> Record:
    """The record ``parse`` reads from the text of ``stream`` (see :func:`record_text`); its
    :class:`RecordError` names ``name`` first."""
    text = record_text(stream, name)
    try:
        return parse(text)
    except RecordError as error:
        raise RecordError(f"{name}, {error}") from None


def read_file(path: Path | str, parse: Callable[[str], Record]) -> Record:
    """The record ``parse`` reads from the file ``path`` (UTF-8). Raises :class:`RecordError` naming
    the file, and the line for a record that cannot be read."""
    try:
        with open(path, "rb") as stream:
            return read_stream(stream, str(path), parse)
    except OSError as error:
        raise RecordError(f"cannot read {path}: {error.strerror or error}") from None

