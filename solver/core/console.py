"""What the games' terminal sessions share: reading a person's line after a prompt, from a terminal, a
pipe or a list, with the line echoed when the input is not a terminal (so that a transcript reads like a
session), and showing the end of a game that Ctrl-C stopped."""

from __future__ import annotations

from typing import Callable, Iterator, TypeVar

from solver.core.interrupts import Terminated

Result = TypeVar("Result")


def read_line(lines: Iterator[str], prompt: str, write: Callable[[str], None], echo: bool) -> str | None:
    """The next line of ``lines`` without its line end, after writing ``prompt``; written after the
    prompt too if ``echo``; None at the end of input (after ending the prompt's line).

    >>> written = []
    >>> read_line(iter(["c3,d4\\n"]), "Black> ", written.append, echo=True), written
    ('c3,d4', ['Black> ', 'c3,d4\\n'])
    """
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
