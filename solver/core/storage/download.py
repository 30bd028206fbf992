"""Downloading over HTTP or HTTPS with the standard library: a small file read whole (:func:`~solver.core.storage.download.read`),
and a large one into a partial file that a later call resumes (:func:`~solver.core.storage.download.download`).

A download goes to a partial file, each block written as it arrives; if one is there already (an
earlier download that stopped: a lost connection, its deadline, Ctrl-C), only the rest is asked for,
with an HTTP ``Range`` request. A server that does not honour the range answers with the whole file,
which is then read again from its start; one that finds the range beyond its file is asked for the
whole file. The size the caller expects (a manifest's) is checked against what the server announces
before a byte is written, and against what arrived at the end.

Each file has a deadline (``deadline`` seconds from the call) besides the wait of each read
(``timeout``): a server sending a byte now and then cannot hold a download for longer.

Every failure raises :class:`~solver.core.errors.ReleaseError` with one line naming the address (at
most :data:`~solver.core.answers.notation.QUOTED` characters of it). A partial file is kept when a transfer
stops (the next call resumes it) and removed when the server's file is not of the size expected (no
later call can complete it).
"""

from __future__ import annotations

import functools
import http.client
import io
import re
import socket
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from solver import __version__
from solver.core import files
from solver.core.answers.notation import quote, shortened
from solver.core.errors import ReleaseError
from solver.core.httpio import TimedReader, content_range, number
from solver.core.storage.remote import joined

#: ``progress(received, total)``: bytes held so far, of the total.
Progress = Callable[[int, int], None]

#: Seconds a connection or a read may wait for the server before the download stops.
TIMEOUT = 30.0
#: Seconds a whole file may take before its download stops (a partial file is kept, to be resumed).
DEADLINE = 3600.0
#: The most bytes one read asks for; what arrives is written at once.
_BLOCK = 1 << 16
_HEADERS = {"User-Agent": f"neutreeko-solver/{__version__}", "Accept-Encoding": "identity"}


def address(mirror: str, name: str) -> str:
    """The address of the file ``name`` on ``mirror`` (an ``http://`` or ``https://`` address of a
    directory, with or without its final slash); :class:`~solver.core.errors.ReleaseError` for another kind of address.

    >>> address("http://127.0.0.1:8000/tables", "neutreeko-5x5.h5")
    'http://127.0.0.1:8000/tables/neutreeko-5x5.h5'
    """
    if not re.match(r"https?://[^/]", mirror, re.IGNORECASE):
        raise ReleaseError(f"the mirror {quote(mirror)} is not an http:// or https:// address")
    return joined(mirror, name)


@dataclass(frozen=True)
class _Deadline:
    """The end of a file's time: ``seconds`` after its start, at the :func:`time.monotonic` time ``at``."""

    seconds: float
    at: float

    @classmethod
    def starting(cls, seconds: float) -> _Deadline:
        return cls(seconds, time.monotonic() + seconds)

    def passed(self) -> bool:
        return time.monotonic() >= self.at

    def why(self, error: BaseException) -> str:
        """Why a connection or a read failed, in a few words: this deadline, if it has passed."""
        return f"its deadline of {self.seconds:g} s passed" if self.passed() else why(error)


def read(url: str, limit: int, timeout: float = TIMEOUT, deadline: float = DEADLINE) -> bytes:
    """The whole body served at ``url``, within ``deadline`` seconds; :class:`~solver.core.errors.ReleaseError` if it
    cannot be had in time or holds more than ``limit`` bytes."""
    end = _Deadline.starting(deadline)
    with _open(url, {}, timeout, end) as response:
        try:
            body: bytes = response.read(limit + 1)
        except (OSError, http.client.HTTPException) as error:
            raise ReleaseError(f"cannot read {quote(url)}: {end.why(error)}") from None
    if len(body) > limit:
        raise ReleaseError(f"{quote(url)} holds more than {limit:,} bytes")
    return body


def download(url: str, part: Path, size: int, progress: Progress | None = None, timeout: float = TIMEOUT,
             deadline: float = DEADLINE) -> None:
    """Make the file ``part`` hold the ``size`` bytes served at ``url``, resuming from what it holds (see
    the module docstring); ``progress`` is told of every block received. Nothing is asked for if
    ``part`` is whole already. :class:`~solver.core.errors.ReleaseError` if the transfer stops, ``deadline`` seconds
    after the call at the latest, or does not match ``size``."""
    try:
        present = files.regular_file(part)
    except OSError as error:
        raise ReleaseError(f"cannot use {part}: {error.strerror or error}") from None
    held = part.stat().st_size if present else 0
    if present and held == size:
        return
    if held > size:
        held = 0  # not a beginning of this file: start again
    end = _Deadline.starting(deadline)
    try:
        response = _open(url, {"Range": f"bytes={held}-"} if held else {}, timeout, end, resuming=bool(held))
    except _BeyondTheFile:
        held, response = 0, _open(url, {}, timeout, end)
    with response:
        if response.status == 206:
            first, total = _content_range(response.headers.get("Content-Range", ""), url)
            if first != held:
                raise ReleaseError(f"{quote(url)} answered a request for bytes from {held:,} with bytes from "
                                   f"{first:,}")
        else:  # 200: the whole file, the range ignored
            held = 0
            length = response.headers.get("Content-Length")
            total = size if length is None else _number(length, "Content-Length", url)  # none: the end tells
        if total != size:
            part.unlink(missing_ok=True)
            raise ReleaseError(f"{quote(url)} does not match the manifest: the mirror serves {total:,} bytes, the "
                               f"manifest lists {size:,}")
        held = _receive(response, part, held, size, progress)
    if held < size:
        late = f", past its deadline of {deadline:g} s" if end.passed() else ""
        raise ReleaseError(f"the download of {quote(url)} stopped at {held:,} of {size:,} bytes{late}; fetch again "
                           f"to resume it")


def _receive(response: http.client.HTTPResponse, part: Path, held: int, size: int, progress: Progress | None) -> int:
    """Append what ``response`` sends to ``part`` (written over from its start if ``held`` is 0), each
    block as it arrives, until it holds ``size`` bytes or the transfer ends; return how many it holds."""
    try:
        out = open(part, "ab" if held else "wb")
    except OSError as error:
        raise ReleaseError(f"cannot write {part}: {error.strerror or error}") from None
    with out:
        if progress:
            progress(held, size)
        while held < size:
            try:
                block = response.read1(min(_BLOCK, size - held))
            except (OSError, http.client.HTTPException):  # a lost connection, a timeout, the deadline: resumable
                break
            if not block:
                break
            try:
                out.write(block)
                out.flush()  # kept if the process is stopped: a slow download resumes where it was
            except OSError as error:
                raise ReleaseError(f"cannot write {part}: {error.strerror or error}") from None
            held += len(block)
            if progress:
                progress(held, size)
    return held


class _BeyondTheFile(Exception):
    """The server's file ends before the range asked for begins (HTTP 416)."""


def _open(url: str, headers: dict[str, str], timeout: float, end: _Deadline,
          resuming: bool = False) -> http.client.HTTPResponse:
    """The response to a GET of ``url`` with ``headers``, every read of it (its head's too) waiting at
    most ``timeout`` seconds and none past ``end``: 200, or 206 if ``resuming``; :class:`_BeyondTheFile`
    if ``resuming`` and the server answers 416, :class:`~solver.core.errors.ReleaseError` for any other answer, or none."""
    left = end.at - time.monotonic()
    if left <= 0:
        raise ReleaseError(f"cannot download {quote(url)}: its deadline of {end.seconds:g} s passed")
    request = urllib.request.Request(url, headers={**_HEADERS, **headers})
    opener = urllib.request.build_opener(_HttpHandler(timeout, end.at), _HttpsHandler(timeout, end.at))
    try:
        response = opener.open(request, timeout=min(timeout, left))
    except urllib.error.HTTPError as error:
        error.close()
        if resuming and error.code == 416:
            raise _BeyondTheFile from None
        raise ReleaseError(f"cannot download {quote(url)}: HTTP {error.code} {shortened(str(error.reason))}") from None
    except (OSError, http.client.HTTPException, ValueError) as error:
        raise ReleaseError(f"cannot download {quote(url)}: {end.why(error)}") from None
    if response.status not in ((200, 206) if resuming else (200,)):
        response.close()
        raise ReleaseError(f"cannot download {quote(url)}: HTTP {response.status} {shortened(str(response.reason))}")
    result: http.client.HTTPResponse = response
    return result


class TimedResponse(http.client.HTTPResponse):
    """A response read through a :class:`~solver.core.httpio.TimedReader`: its status line and headers as
    well as its body."""

    def __init__(self, sock: socket.socket, *args: Any, wait: float, deadline: float, **kwargs: Any) -> None:
        super().__init__(sock, *args, **kwargs)
        self.fp.close()  # the socket's own reader, which knows no deadline
        self.fp = io.BufferedReader(TimedReader(sock, wait, deadline))


class _Timed(urllib.request.AbstractHTTPHandler):
    """Connections whose responses are :class:`TimedResponse` objects waiting at most ``wait`` seconds a read
    and reading nothing past ``deadline`` (a :func:`time.monotonic` time)."""

    def __init__(self, wait: float, deadline: float) -> None:
        super().__init__()
        self._response = functools.partial(TimedResponse, wait=wait, deadline=deadline)

    def do_open(self, http_class: Any, req: urllib.request.Request, **http_conn_args: Any) -> http.client.HTTPResponse:
        def connection(host: str, **options: Any) -> http.client.HTTPConnection:
            made: http.client.HTTPConnection = http_class(host, **options)
            made.response_class = self._response  # type: ignore[assignment]
            return made

        return super().do_open(connection, req, **http_conn_args)


class _HttpHandler(_Timed, urllib.request.HTTPHandler):
    pass


class _HttpsHandler(_Timed, urllib.request.HTTPSHandler):
    pass


def _number(text: str, what: str, url: str) -> int:
    """The number a header of the response from ``url`` writes (:func:`~solver.core.httpio.number`);
    :class:`~solver.core.errors.ReleaseError` naming the header, ``what``, if it is not one."""
    try:
        return number(text)
    except ValueError as error:
        raise ReleaseError(f"{quote(url)} sent a {what} that cannot be read: {error}") from None


def _content_range(text: str, url: str) -> tuple[int, int]:
    """The first byte and the file's total size of a ``Content-Range`` header."""
    try:
        first, _, total = content_range(text)
    except ValueError:
        raise ReleaseError(f"{quote(url)} answered a range request with the Content-Range {quote(text)}") from None
    return first, total


def why(error: BaseException) -> str:
    """Why a connection or a read failed, in a few words."""
    reason = getattr(error, "reason", None)
    if isinstance(reason, BaseException):
        return why(reason)
    return shortened((getattr(error, "strerror", None) or str(reason or error) or type(error).__name__).strip())
