"""Downloading over HTTP or HTTPS with the standard library: a small file read whole (:func:`read`),
and a large one into a partial file that a later call resumes (:func:`download`).

A download goes to a partial file; if one is there already (an earlier download that stopped: a lost
connection, Ctrl-C), only the rest is asked for, with an HTTP ``Range`` request. A server that does not
honour the range answers with the whole file, which is then read again from its start; one that
finds the range beyond its file is asked for the whole file. The size the caller expects (a
manifest's) is checked against what the server announces before a byte is written, and against what
arrived at the end.

Every failure raises :class:`~solver.core.errors.ReleaseError` with one line naming the address. A
partial file is kept when a transfer stops (the next call resumes it) and removed when the server's
file is not of the size expected (no later call can complete it).
"""

from __future__ import annotations

import http.client
import re
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from pathlib import Path

from solver import __version__
from solver.core import files
from solver.core.errors import ReleaseError

#: ``progress(received, total)``: bytes held so far, of the total.
Progress = Callable[[int, int], None]

#: Seconds a connection or a read may wait for the server before the download stops.
TIMEOUT = 30.0
_BLOCK = 1 << 20
_HEADERS = {"User-Agent": f"neutreeko-solver/{__version__}", "Accept-Encoding": "identity"}
_CONTENT_RANGE = re.compile(r"bytes (\d+)-(\d+)/(\d+)")


def address(mirror: str, name: str) -> str:
    """The address of the file ``name`` on ``mirror`` (an ``http://`` or ``https://`` address of a
    directory, with or without its final slash); :class:`ReleaseError` for another kind of address.

    >>> address("http://127.0.0.1:8000/tables", "neutreeko-5x5.h5")
    'http://127.0.0.1:8000/tables/neutreeko-5x5.h5'
    """
    if not re.match(r"https?://[^/]", mirror, re.IGNORECASE):
        raise ReleaseError(f"the mirror {mirror!r} is not an http:// or https:// address")
    return f"{mirror.rstrip('/')}/{urllib.parse.quote(name)}"


def read(url: str, limit: int, timeout: float = TIMEOUT) -> bytes:
    """The whole body served at ``url``; :class:`ReleaseError` if it cannot be had or holds more than
    ``limit`` bytes."""
    with _open(url, {}, timeout) as response:
        try:
            body: bytes = response.read(limit + 1)
        except (OSError, http.client.HTTPException) as error:
            raise ReleaseError(f"cannot read {url}: {_why(error)}") from None
    if len(body) > limit:
        raise ReleaseError(f"{url} holds more than {limit:,} bytes")
    return body


def download(url: str, part: Path, size: int, progress: Progress | None = None, timeout: float = TIMEOUT) -> None:
    """Make the file ``part`` hold the ``size`` bytes served at ``url``, resuming from what it holds (see
    the module docstring); ``progress`` is told of every block received. Nothing is asked for if
    ``part`` is whole already."""
    try:
        present = files.regular_file(part)
    except OSError as error:
        raise ReleaseError(f"cannot use {part}: {error.strerror or error}") from None
    held = part.stat().st_size if present else 0
    if present and held == size:
        return
    if held > size:
        held = 0  # not a beginning of this file: start again
    try:
        response = _open(url, {"Range": f"bytes={held}-"} if held else {}, timeout, resuming=bool(held))
    except _BeyondTheFile:
        held, response = 0, _open(url, {}, timeout)
    with response:
        if response.status == 206:
            first, total = _content_range(response.headers.get("Content-Range", ""), url)
            if first != held:
                raise ReleaseError(f"{url} answered a request for bytes from {held:,} with bytes from {first:,}")
        else:  # 200: the whole file, the range ignored
            held = 0
            length = response.headers.get("Content-Length", "").strip()
            total = int(length) if length.isdigit() else size  # none: the transfer's end tells
        if total != size:
            part.unlink(missing_ok=True)
            raise ReleaseError(f"{url} does not match the manifest: the mirror serves {total:,} bytes, the "
                               f"manifest lists {size:,}")
        held = _receive(response, url, part, held, size, progress)
    if held < size:
        raise ReleaseError(f"the download of {url} stopped at {held:,} of {size:,} bytes; fetch again to resume it")


def _receive(response: http.client.HTTPResponse, url: str, part: Path, held: int, size: int,
             progress: Progress | None) -> int:
    """Append what ``response`` sends to ``part`` (written over from its start if ``held`` is 0) until it
    holds ``size`` bytes or the transfer ends; return how many it holds."""
    try:
        out = open(part, "ab" if held else "wb")
    except OSError as error:
        raise ReleaseError(f"cannot write {part}: {error.strerror or error}") from None
    with out:
        if progress:
            progress(held, size)
        while held < size:
            try:
                block = response.read(min(_BLOCK, size - held))
            except (OSError, http.client.HTTPException):  # a lost connection or a timeout: resumable
                break
            if not block:
                break
            try:
                out.write(block)
            except OSError as error:
                raise ReleaseError(f"cannot write {part}: {error.strerror or error}") from None
            held += len(block)
            if progress:
                progress(held, size)
    return held


class _BeyondTheFile(Exception):
    """The server's file ends before the range asked for begins (HTTP 416)."""


def _open(url: str, headers: dict[str, str], timeout: float,
          resuming: bool = False) -> http.client.HTTPResponse:
    """The response to a GET of ``url`` with ``headers``: 200, or 206 if ``resuming``;
    :class:`_BeyondTheFile` if ``resuming`` and the server answers 416, :class:`ReleaseError` for any
    other answer, or none."""
    request = urllib.request.Request(url, headers={**_HEADERS, **headers})
    try:
        response = urllib.request.urlopen(request, timeout=timeout)
    except urllib.error.HTTPError as error:
        error.close()
        if resuming and error.code == 416:
            raise _BeyondTheFile from None
        raise ReleaseError(f"cannot download {url}: HTTP {error.code} {error.reason}") from None
    except (OSError, http.client.HTTPException, ValueError) as error:
        raise ReleaseError(f"cannot download {url}: {_why(error)}") from None
    if response.status not in ((200, 206) if resuming else (200,)):
        response.close()
        raise ReleaseError(f"cannot download {url}: HTTP {response.status} {response.reason}")
    result: http.client.HTTPResponse = response
    return result


def _content_range(text: str, url: str) -> tuple[int, int]:
    """The first byte and the file's total size of a ``Content-Range`` header."""
    match = _CONTENT_RANGE.fullmatch(text.strip())
    if not match:
        raise ReleaseError(f"{url} answered a range request with the Content-Range {text!r}")
    return int(match[1]), int(match[3])


def _why(error: BaseException) -> str:
    """Why a connection or a read failed, in a few words."""
    reason = getattr(error, "reason", None)
    if isinstance(reason, BaseException):
        return _why(reason)
    return (getattr(error, "strerror", None) or str(reason or error) or type(error).__name__).strip()
