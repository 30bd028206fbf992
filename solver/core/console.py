"""What the games' terminal sessions share: reading a person's line after a prompt, from a terminal, a
pipe or a list, with the line echoed when the input is not a terminal (so that a transcript reads like a
session)."""

from __future__ import annotations

from typing import Callable, Iterator


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
