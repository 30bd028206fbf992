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

**Variations** are every game's too: moves in parentheses after the move they are an alternative to,
played from the position before it; they nest, and several may follow one move. The moves outside every
parenthesis are the game, its main line. :class:`TreeReader` reads them, a game's own
:class:`LineReader` reading each line's moves and numbers; :func:`tree_groups` writes them.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import IO, Any, Callable, ClassVar, Generic, Iterator, Protocol, Sequence, TypeVar

from solver.core import files
from solver.core.answers.notation import checked, quote
from solver.core.errors import InputError

Record = TypeVar("Record")
#: A move of a game (a Neutreeko move, a NECNON turn), and a position of it.
Step = TypeVar("Step")
State = TypeVar("State")

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
_TOKEN = re.compile(r"[()]|[^ ()]+")


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

    def others(self, game_tags: Sequence[str]) -> tuple[tuple[str, str], ...]:
        """The tags other than ``game_tags`` and ``Result``, name and value, in order."""
        return tuple((name, value) for name, (_, value) in self.tags.items() if name not in (*game_tags, "Result"))


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


class _Plays(Protocol):
    def play(self, step: Any, /) -> Any: ...


Playing = TypeVar("Playing", bound=_Plays)


class GameLine(Tagged, ABC, Generic[Playing, Step]):
    """What a game record of every game shares beyond its tags: ``start``, its main line (:attr:`line`,
    each move legal), its ``variations``, the positions along the main line, its text and its repr. A
    game's record (a frozen dataclass with ``repr=False``) names its players' tags (:attr:`player_tags`)
    and its main line's field (:attr:`line_field`), and says the tags its game writes
    (:meth:`game_tags`), how its moves are written (:meth:`groups`) and what ``Result`` says
    (:attr:`result`)."""

    start: Playing
    variations: tuple[Variation[Step], ...]
    player_tags: ClassVar[tuple[str, ...]]
    line_field: ClassVar[str]

    @property
    @abstractmethod
    def line(self) -> Sequence[Step]:
        """The moves of the main line."""

    @property
    @abstractmethod
    def result(self) -> str:
        """The ``Result`` tag: how the main line ends, or ``*`` while the game is not over."""

    @abstractmethod
    def game_tags(self) -> list[tuple[str, str]]:
        """The tags the game writes (its board, its variant, its start if not the usual one), in order."""

    @abstractmethod
    def groups(self) -> list[str]:
        """The groups of move text (see :func:`wrap`) of the main line and its variations."""

    @cached_property
    def positions(self) -> tuple[Playing, ...]:
        """The start, then the position after each move of the main line (each checked: an illegal one
        raises :class:`~solver.core.errors.IllegalMoveError`)."""
        positions = [self.start]
        for step in self.line:
            positions.append(positions[-1].play(step))
        return tuple(positions)

    @property
    def end(self) -> Playing:
        """The position after the main line's last move."""
        return self.positions[-1]

    def __repr__(self) -> str:
        # The moves as move text: a move does not know its board, the record does.
        tags = f", tags={self.tags!r}" if self.tags else ""
        return (f"{type(self).__name__}(start={self.start!r}, {self.line_field}={' '.join(self.groups())!r}{tags}, "
                f"result={self.result!r})")

    def text(self) -> str:
        """The record as text (see the module docstring), ending with a line end: the game's tags, the
        players', ``Result`` and the others, then the moves."""
        players = [(name, self.tag(name)) for name in self.player_tags if self.tag(name)]
        others = [(name, value) for name, value in self.tags if name not in self.player_tags]
        tags = [*self.game_tags(), *players, ("Result", self.result), *others]
        return "\n".join([*tag_lines(tags), "", wrap(self.groups())]) + "\n"


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
    return decode_record(data, name)


def decode_record(data: bytes, name: str) -> str:
    """The text of the record ``data`` (``name`` in messages): UTF-8, one byte order mark at its start
    skipped. Raises :class:`RecordError` for bytes that are not UTF-8."""
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


def write_record(path: Path | str, record: GameLine[Any, Any]) -> None:
    """Write ``record`` to ``path`` atomically (see :mod:`solver.core.files`); raises :class:`OSError`."""
    files.write_atomically(path, record.text())


# -- variations ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Variation(Generic[Step]):
    """Moves played instead of ply ``ply`` (from 1, counted from the game's start) of the line it belongs
    to, and on: from the position before that ply. Its own variations (``variations``) branch off its
    moves, at plies from ``ply`` on, in the order of their plies; a variation at ``ply`` itself is
    another alternative to the same move."""

    ply: int
    moves: tuple[Step, ...]
    variations: tuple[Variation[Step], ...] = ()


class GameOverError(RecordError):
    """A move after the end of the game; ``result`` says how it ended."""

    def __init__(self, message: str, result: str) -> None:
        super().__init__(message)
        self.result = result


def one_line(text: str, what: str, longest: int) -> str:
    """Move text ``text`` on one line (moves may run over lines, as in a record), checked as notation is
    (see :func:`~solver.core.answers.notation.checked`: ``what`` names it, at most ``longest``
    characters of printable ASCII, else :class:`~solver.core.errors.InputError`)."""
    return checked(text.replace("\r", " ").replace("\n", " "), what, longest)


def tokens(text: str) -> list[str]:
    """The tokens of move text: moves (numbered or not) and parentheses, which need no spaces around them.

    >>> tokens("1. b2 (1.c3) 2. a1,c3")
    ['1.', 'b2', '(', '1.c3', ')', '2.', 'a1,c3']
    """
    return _TOKEN.findall(text)


class LineReader(ABC, Generic[State, Step]):
    """A line being read: the moves played from ``before``, the position before its first move, ply
    ``ply`` (from 1) of the game, each checked, and the variations of its moves. A game says how a token
    of its move text is read (:meth:`feed`: a move, or a move number) and what may not be left waiting
    at the end of a line (:meth:`check_complete`). A game that counts positions along a line (its
    repetitions) counts them from :meth:`feed` on, and takes them back in :meth:`branch`, :meth:`rejoin`
    and :meth:`close`, so that a variation is read without a copy of the line it branches off."""

    def __init__(self, ply: int, before: State) -> None:
        self.ply = ply  # of the line's first move
        self.positions = [before]
        self.moves: list[Step] = []
        self.variations: list[Variation[Step]] = []

    @property
    def position(self) -> State:
        return self.positions[-1]

    @property
    def next_ply(self) -> int:
        """The ply of the next move read."""
        return self.ply + len(self.moves)

    @abstractmethod
    def feed(self, token: str) -> None:
        """Read ``token``, a move or its number; raise :class:`~solver.core.errors.InputError` if it is wrong."""

    @abstractmethod
    def check_complete(self) -> None:
        """Raise :class:`RecordError` if a move number waits for its move."""

    def branch(self) -> None:
        """A variation of the line's last move opens: until :meth:`rejoin`, the game stands before that move."""

    def rejoin(self) -> None:
        """The variation :meth:`branch` opened is closed: the game stands after the line's last move again."""

    def close(self) -> None:
        """The line is read: the game stands where it stood before the line's first move."""


class TreeReader(Generic[State, Step]):
    """Reads move text token by token (see :func:`tokens`), ``(`` and ``)`` included: a variation opens
    after the move it is an alternative to, and is played from the position before that move. Each line,
    the main one first, is read by ``new_line(ply, before)``, given its first ply and the position
    before it. ``text`` names move text in messages (``move text``), which is at most ``longest``
    characters; ``unit`` names a move (``move``, ``turn``), and ``ply_label(ply)`` where a variation
    begins (``2...``, ``turn 3``)."""

    def __init__(self, start: State, new_line: Callable[[int, State], LineReader[State, Step]], text: str,
                 longest: int, ply_label: Callable[[int], str], unit: str = "move") -> None:
        self.new_line = new_line
        self.text, self.longest, self.ply_label = text, longest, ply_label
        self.unit = unit
        self.lines = [new_line(1, start)]  # the main line, then each variation open
        self.opened: list[int] = []  # the record's line on which each variation open began

    @property
    def ply(self) -> int:
        """The ply of the next move read."""
        return self.lines[-1].next_ply

    def feed(self, token: str, line_number: int = 0) -> None:
        """Read ``token``, found on line ``line_number`` of a record (0: not in a record)."""
        line = self.lines[-1]
        if token == "(":
            line.check_complete()
            if not line.moves:
                raise RecordError(f"a variation ( must follow the {self.unit} it is an alternative to")
            line.branch()
            self.lines.append(self.new_line(line.next_ply - 1, line.positions[-2]))
            self.opened.append(line_number)
        elif token == ")":
            if len(self.lines) == 1:
                raise RecordError("a ) closes no variation")
            line.check_complete()
            if not line.moves:
                raise RecordError(f"a variation () has no {self.unit}s")
            self._close()
        else:
            line.feed(token)

    def _close(self) -> None:
        """Close the innermost variation open, kept among its parent's if it has moves."""
        line = self.lines.pop()
        self.opened.pop()
        line.close()
        self.lines[-1].rejoin()
        if line.moves:
            self.lines[-1].variations.append(Variation(line.ply, tuple(line.moves), tuple(line.variations)))

    def finish(self) -> tuple[tuple[Step, ...], tuple[Variation[Step], ...]]:
        """The main line's moves and its variations; raises :class:`RecordError` for a variation not
        closed or a move number without its move."""
        if len(self.lines) > 1:
            where = f" (opened on line {self.opened[-1]})" if self.opened[-1] else ""
            raise RecordError(f"a variation is not closed: a ( without its ){where}")
        self.lines[0].check_complete()
        return tuple(self.lines[0].moves), tuple(self.lines[0].variations)

    def cut(self) -> tuple[tuple[Step, ...], tuple[Variation[Step], ...]]:
        """What was read so far, each variation open closed where it stands (one without moves left out)."""
        while len(self.lines) > 1:
            self._close()
        return tuple(self.lines[0].moves), tuple(self.lines[0].variations)

    def checked_tokens(self, text: str) -> list[str]:
        """The tokens of move text ``text`` (see :func:`one_line`)."""
        return tokens(one_line(text, self.text, self.longest))

    def read(self, text: str) -> tuple[tuple[Step, ...], tuple[Variation[Step], ...]]:
        """The main line and the variations of move text ``text`` (see :meth:`checked_tokens`); raises
        what :meth:`feed` and :meth:`finish` raise."""
        for token in self.checked_tokens(text):
            self.feed(token)
        return self.finish()

    def read_record(self, lines: RecordLines) -> tuple[tuple[Step, ...], tuple[Variation[Step], ...]]:
        """The main line and the variations of a record's lines of moves; :class:`RecordError` naming the
        line, and the variation, of the first problem."""
        for number, line in lines.moves:
            with at_line(number):
                # Checked as notation is (printable ASCII), so that no other character than a space
                # separates two moves.
                words = tokens(checked(line, self.text, self.longest))
            for token in words:
                try:
                    self.feed(token, number)
                except InputError as error:
                    within = f" (in the variation at {self.ply_label(self.lines[-1].ply)})" if len(self.lines) > 1 \
                        else ""
                    raise RecordError(f"line {number}: {error}{within}") from None
        with at_line(lines.moves[-1][0] if lines.moves else 0):  # without moves, nothing can be amiss
            return self.finish()

    def read_playable(self, text: str, place: str = "ply") -> tuple[tuple[Step, ...], tuple[Variation[Step], ...],
                                                                     str | None]:
        """The main line and the variations of the move text ``text`` up to its first token that cannot
        be read or played, and why that one was refused, naming its ``place`` (``"ply 3, C4-C9, cannot be
        played: ..."``), or None if all were read. Each variation open there is closed where it stands; a
        move number at the end, without its move, is left out. Raises
        :class:`~solver.core.errors.InputError` only for text that :meth:`checked_tokens` refuses."""
        refused = None
        for token in self.checked_tokens(text):
            try:
                self.feed(token)
            except InputError as error:
                reason = f"the game is over ({error.result})" if isinstance(error, GameOverError) else str(error)
                refused = f"{place} {self.ply}, {token[:24]}, cannot be played: {reason}"
                break
        return (*self.cut(), refused)


#: How a game numbers a line's moves: ``numbering(moves, first)``, the groups of move text (see
#: :func:`wrap`) of ``moves`` from ply ``first``, its first move numbered.
Numbering = Callable[[Sequence[Step], int], list[str]]


def tree_groups(moves: Sequence[Step], variations: Sequence[Variation[Step]], numbering: Numbering[Step],
                first: int = 1) -> list[str]:
    """The groups of move text (see :func:`wrap`) of ``moves`` from ply ``first``, with their variations,
    and theirs, each in parentheses after the move it is an alternative to, the move after it numbered
    again: each stretch of a line between variations numbered by ``numbering``. Time and room are linear
    in the tree, however deep its variations nest.

    >>> tree_groups("ab", [Variation(1, "c", (Variation(1, "d"),))], lambda moves, ply: [f"{ply}.{m}" for m in moves])
    ['1.a', '(1.c', '(1.d))', '2.b']
    """
    groups: list[str] = []
    # What is left to write, last first: a stretch of a line's moves from a ply, a variation to open, or
    # the end of one (its closing parenthesis, written with the next group or at the end).
    todo: list[tuple[Sequence[Step], int] | Variation[Step] | None] = [*reversed(_stretches(moves, variations, first))]
    opening, closing = False, 0
    while todo:
        item = todo.pop()
        if item is None:
            closing += 1
        elif isinstance(item, Variation):
            todo += [None, *reversed(_stretches(item.moves, item.variations, item.ply))]
            opening = True
        else:
            written = numbering(*item)
            if closing:
                groups[-1] += ")" * closing
            if opening:
                written[0] = "(" + written[0]
            groups += written
            opening, closing = False, 0
    if closing:
        groups[-1] += ")" * closing
    return groups


def _stretches(moves: Sequence[Step], variations: Sequence[Variation[Step]],
               first: int) -> list[tuple[Sequence[Step], int] | Variation[Step]]:
    """A line's moves in stretches ``(moves, first ply)`` that end where variations follow a move, those
    variations after them, in order."""
    parts: list[tuple[Sequence[Step], int] | Variation[Step]] = []
    start = 0
    at: dict[int, list[Variation[Step]]] = {}
    for variation in variations:
        at.setdefault(variation.ply - first, []).append(variation)
    for index in sorted(at):
        parts.append((moves[start:index + 1], first + start))
        parts += at[index]
        start = index + 1
    if start < len(moves):
        parts.append((moves[start:], first + start))
    return parts
