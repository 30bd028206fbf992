"""What every game's notation shares: text a user gives (a position, a move, a board, a line of a
batch) is checked here before it is parsed, and quoted briefly when it is refused.

The rule, the same for every reader: notation is **printable ASCII** (U+0020 to U+007E; fields are
separated by spaces, never by tabs or other characters), and each kind of text has a length that no
valid one exceeds. Surrounding spaces are dropped first. Anything else is refused in time linear in
the text, before any parsing, with a message that quotes at most :data:`QUOTED` characters of it and
names its length, so that neither a huge input nor its error costs more than reading it.
"""

from __future__ import annotations

from solver.core.errors import InputError, NotationError

#: At most this many characters of a refused text appear in a message.
QUOTED = 60


def quote(text: str, limit: int = QUOTED) -> str:
    """``text`` quoted for a message, non-ASCII escaped (``'C\\uff14'``), at most ``limit`` characters
    between the quotes: a longer one is cut, ``'1b/1b/1b/...'``."""
    quoted = ascii(text[:limit + 1])
    if len(text) <= limit and len(quoted) <= limit + 2:
        return quoted
    for cut in range(limit - 3, -1, -1):  # escapes take several characters each: cut until it fits
        quoted = ascii(text[:cut])
        if len(quoted) <= limit - 1:
            break
    return f"{quoted[:-1]}...{quoted[-1]}"


def shortened(text: str, limit: int = QUOTED) -> str:
    """``text`` as :func:`quote` gives it, without the quotation marks: for words that need no marks to
    be told apart from the message (a server's reason for an error, a value's ``repr``)."""
    return quote(text, limit)[1:-1]


def checked(text: str, what: str, longest: int, error: type[InputError] = NotationError) -> str:
    """``text`` without surrounding spaces, if it is printable ASCII of at most ``longest`` characters;
    otherwise raise ``error`` saying which rule it breaks (``what`` names the text: "position")."""
    text = text.strip(" ")
    if len(text) > longest:
        raise error(f"{what} {quote(text, 20)} is {len(text):,} characters long, longer than any {what} "
                    f"(at most {longest})")
    if not text.isascii() or not text.isprintable():
        column, character = next((column, character) for column, character in enumerate(text, 1)
                                 if not (character.isascii() and character.isprintable()))
        raise error(f"{what} {quote(text)} has {ascii(character)} (U+{ord(character):04X}) at column {column}: "
                    f"notation is printable ASCII, fields separated by spaces")
    return text
