"""What the explorer's HTTP server and fetch's client share: one strict reader of the numbers HTTP headers
carry (``Content-Length``, ``Content-Range``), so that neither end reads a length the other would frame
otherwise, and a socket's bytes read under a deadline."""

from __future__ import annotations

import io
import re
import socket
import time
from typing import Any

from solver.core.answers.notation import quote

#: The most digits a header's number may have, leading zeros included: lengths up to an exabyte.
MAX_DIGITS = 18
_DIGITS = frozenset("0123456789")
_CONTENT_RANGE = re.compile(rf"bytes ([0-9]{{1,{MAX_DIGITS}}})-([0-9]{{1,{MAX_DIGITS}}})/([0-9]{{1,{MAX_DIGITS}}})")


def number(value: str) -> int:
    """The whole number a header's ``value`` writes: 1 to :data:`MAX_DIGITS` ASCII digits, with only
    spaces or tabs around them (HTTP's optional whitespace); :class:`ValueError` for anything else (a
    sign, other digits, more digits).

    >>> number("0042 ")
    42
    """
    digits = value.strip(" \t")
    if not 0 < len(digits) <= MAX_DIGITS or not _DIGITS.issuperset(digits):
        raise ValueError(f"{quote(value)} is not a number of 1 to {MAX_DIGITS} ASCII digits")
    return int(digits)



def content_range(value: str) -> tuple[int, int, int]:
    """The first byte, the last byte and the file's size a ``Content-Range`` header's ``value`` states:
    ``bytes FIRST-LAST/SIZE``, numbers of 1 to :data:`MAX_DIGITS` ASCII digits, with only spaces or tabs
    around the whole; :class:`ValueError` for anything else (an unsatisfied range's ``bytes */SIZE``
    included).

    >>> content_range("bytes 0-99/1000 ")
    (0, 99, 1000)
    """
    match = _CONTENT_RANGE.fullmatch(value.strip(" \t"))
    if not match:
        raise ValueError(f"{quote(value)} is not a Content-Range of bytes")
    first, last, size = (int(part) for part in match.groups())
    return first, last, size


class TimedReader(io.RawIOBase):
    """The bytes ``connection`` (a socket, or a TLS one) receives: each read waits at most ``wait``
    seconds, and none goes on past its ``deadline`` (a :func:`~time.monotonic` time, or None), raising
    :class:`TimeoutError`. It holds the socket open until it is closed, as the socket's own reader does."""

    def __init__(self, connection: socket.socket, wait: float, deadline: float | None = None) -> None:
        super().__init__()
        self._connection = connection
        self._stream = connection.makefile("rb", buffering=0)
        self._wait = wait
        self.deadline = deadline

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int | None:
        wait = self._wait if self.deadline is None else min(self._wait, self.deadline - time.monotonic())
        if wait <= 0:
            raise TimeoutError("the deadline has passed")
        self._connection.settimeout(wait)
        return self._stream.readinto(buffer)

    def close(self) -> None:
        self._stream.close()
        super().close()
