"""What the games' terminal sessions share: reading a person's line after a prompt, from a terminal (with
line editing and history), a pipe or a list, with the line echoed when the input is not a terminal (so
that a transcript reads like a session), cutting a line of input that is longer than any a command reads,
and showing the end of a game that Ctrl-C stopped."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Callable, TypeVar

from solver.core import files
from solver.core.answers.record import MAX_RECORD_BYTES
from solver.core.interrupts import Terminated

Result = TypeVar("Result")

#: A line of input (``query -``, ``play``, ``train``) is kept up to this many bytes and one more, the rest
#: of it dropped as it arrives: as long as any record, far longer than a line any command reads, which
#: then refuses it as too long.
MAX_LINE_BYTES = MAX_RECORD_BYTES


class LineCutter:
    """Bytes as they arrive in, the lines they end out (without their ``\\n``): a line longer than
    ``limit`` bytes is cut after ``limit + 1``, the rest of it dropped, so that a line never ending holds
    no more memory than that.

    >>> cutter = LineCutter(limit=4)
    >>> cutter.feed(b"ab\\ncdefgh"), cutter.feed(b"ij\\nk"), cutter.end()
    ([b'ab'], [b'cdefg'], [b'k'])
    """

    def __init__(self, limit: int = MAX_LINE_BYTES) -> None:
        self.limit = limit
        self.pending = bytearray()  # the start of a line whose end has not arrived yet

    def feed(self, data: bytes) -> list[bytes]:
        """The lines ``data`` ends, in order."""
        *complete, rest = data.split(b"\n")
        if complete:
            self.pending += complete[0][:self._room()]
            complete[0] = bytes(self.pending)
            self.pending = bytearray()
        self.pending += rest[:self._room()]
        return [line[:self.limit + 1] for line in complete]

    def end(self) -> list[bytes]:
        """The last line, if the input ended without its ``\\n``."""
        last, self.pending = bytes(self.pending), bytearray()
        return [last] if last else []

    def _room(self) -> int:
        return max(0, self.limit + 1 - len(self.pending))


class TerminalLines(Iterator[str]):
    """The lines a person types at a terminal (standard input), read by :func:`input` with line editing
    and history: the standard library's :mod:`~readline`, where the platform has it, is loaded when one
    is made. :func:`read_line` hands it the prompt, so that editing a line redraws the prompt with it;
    iterating it reads lines without a prompt."""

    def __init__(self) -> None:
        try:
            import readline  # noqa: F401  (loading it is what gives input() editing and history)
        except ImportError:  # not built on every platform: input() then reads plain lines
            pass

    def read(self, prompt: str) -> str | None:
        """The next line typed after ``prompt``, or None at the end of input (Ctrl-D). A line the
        terminal's encoding cannot decode is U+FFFD, which no command reads, as in a pipe."""
        try:
            return input(prompt)
        except EOFError:
            return None
        except UnicodeDecodeError:
            return "\ufffd"

    def __next__(self) -> str:
        line = self.read("")
        if line is None:
            raise StopIteration
        return line


def read_line(lines: Iterator[str], prompt: str, write: Callable[[str], None], echo: bool) -> str | None:
    """The next line of ``lines`` without its line end, after writing ``prompt`` (through ``write``, or
    :func:`input`'s own for :class:`TerminalLines`); written after the prompt too if ``echo``; None at
    the end of input (after ending the prompt's line).

    >>> written = []
    >>> read_line(iter(["c3,d4\\n"]), "Black> ", written.append, echo=True), written
    ('c3,d4', ['Black> ', 'c3,d4\\n'])
    """
    if isinstance(lines, TerminalLines):
        typed = lines.read(prompt)
        if typed is None:
            write("\n")
        return typed
    write(prompt)
    try:
        text = next(lines).rstrip("\r\n")
    except StopIteration:
        write("\n")
        return None
    if echo:
        write(text + "\n")
    return text


def until_interrupted(play: Callable[[], Result], stopped: Callable[[], object]) -> Result:
    """``play()``; if Ctrl-C (a :class:`KeyboardInterrupt`, but not SIGTERM's
    :class:`~solver.core.interrupts.Terminated`) stops it, ``stopped()`` first, which shows the end of
    the game stopped, its record included: the game is not lost. The interrupt then goes on, so that
    the command still exits as interrupted (130)."""
    try:
        return play()
    except Terminated:
        raise
    except KeyboardInterrupt:
        stopped()
        raise


def save_text(path: Path, text: str, say: Callable[[str], None], done: str | None) -> None:
    """Write ``text`` to ``path`` atomically (a game's record, as ``save`` and ``--record`` of play do),
    then ``say`` ``done`` (unless None); if it cannot be written, say why instead."""
    try:
        files.write_atomically(path, text)
    except OSError as error:
        say(f"cannot save the record to {path}: {error.strerror or error}")
        return
    if done is not None:
        say(done)
