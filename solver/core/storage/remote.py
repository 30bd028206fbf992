"""Tables read over HTTP or HTTPS: a table's address opened where a path is (``--table https://...``),
and a release's address taken as the tables directory (``NEUTREEKO_TABLES=https://...``); both are a
:class:`~solver.core.storage.remote.Url`.

A :class:`RemoteFile` reads a file's bytes with HTTP ``Range`` requests, as
:class:`~solver.core.storage.chunks.OpenFile` reads a local file's, so that the container's checks
(:func:`solver.core.storage.container.open_contents`) and the chunk reader
(:mod:`solver.core.storage.chunks`) are the same for both: opening reads the header and the chunk map
and checks them; a probe reads its chunk and checks its SHA-256. The metadata region, which a probe
never uses, is left unread (``check-file`` reads every byte). Nothing is written to disk. Connections
are kept open between requests (one per thread reading at a time); each read of a response waits at
most :data:`TIMEOUT` seconds, and a request ends within :data:`DEADLINE` seconds.

The host must answer ``Range`` requests (HTTP 206 with the ``Content-Range`` asked for). A file it does
not have (HTTP 404 or 410) raises :class:`~solver.core.errors.MissingTableError`; anything else
raises :class:`~solver.core.errors.TableError` in one line naming the address: no answer in time, a
refused connection, an HTTP error, the whole file (HTTP 200) instead of the range, a ``Content-Range``
other than the one asked for, a body shorter or longer than the range, a file whose size changes
between requests, a redirect to another scheme (redirects within one are followed, at most
:data:`_REDIRECTS`). What arrives is then checked as a local file's bytes are.
"""

from __future__ import annotations

import functools
import re
import threading
import time
import urllib.parse
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING

from solver import __version__
from solver.core.answers.notation import quote, shortened
from solver.core.errors import InputError, MissingTableError, TableError

# http.client, httpio and download (ssl, email, socket, urllib.request) are imported where an address is
# read: a local table needs none of them.
if TYPE_CHECKING:
    import http.client

#: Seconds a connection or one read of a response may wait for the server.
TIMEOUT = 30.0
#: Seconds one request may take, its body included.
DEADLINE = 120.0
_REDIRECTS = 5
_HEADERS = {"User-Agent": f"neutreeko-solver/{__version__}", "Accept-Encoding": "identity"}
_ADDRESS = re.compile(r"https?://", re.IGNORECASE)


class AddressError(InputError, ValueError):
    """A text that starts as an address but is not one this reader can ask (exit 2 on the command line)."""


class Url(str):
    """The ``http://`` or ``https://`` address of a table, or of a release's directory: a text that,
    like a :class:`~pathlib.Path`, has a :attr:`name` and gives the address of a file in it with ``/``.
    Formatted into a message (``f"{url}"``) it is cut to
    :data:`~solver.core.answers.notation.QUOTED` characters; ``str(url)`` is whole.

    :class:`AddressError` for a text that is not an ``http://`` or ``https://`` address of a host, in
    printable ASCII, with a port from 0 to 65535 if it names one.

    >>> Url("http://127.0.0.1:8000/release") / "neutreeko-5x5.h5"
    'http://127.0.0.1:8000/release/neutreeko-5x5.h5'
    """

    def __new__(cls, text: str) -> Url:
        why = _fault(text)
        if why:
            raise AddressError(f"{quote(text)} is not an address to read tables from: {why}")
        return super().__new__(cls, text)

    @property
    def name(self) -> str:
        """The last segment of the address's path, decoded (a table's file name)."""
        return urllib.parse.unquote(urllib.parse.urlsplit(self).path.rstrip("/").rpartition("/")[2])

    @property
    def parent(self) -> Url:
        """The address of the directory the address names a file of."""
        return Url(str(self).rstrip("/").rpartition("/")[0] + "/")

    def __truediv__(self, name: str) -> Url:
        from solver.core.storage import download

        return Url(download.address(str(self), name))

    def __format__(self, spec: str) -> str:
        return format(shortened(str(self)), spec)


def _fault(text: str) -> str:
    """What makes ``text`` no address :class:`Url` takes, in a few words, or ``""``."""
    if not text.isascii() or not text.isprintable() or " " in text:
        return "it holds spaces, control characters or non-ASCII (percent-encode them)"
    try:
        parts = urllib.parse.urlsplit(text)
        parts.port  # a port that is not a number from 0 to 65535 raises
    except ValueError as error:
        return shortened(str(error))
    if parts.scheme.lower() not in ("http", "https"):
        return "it is not an http:// or https:// address"
    if not parts.hostname:
        return "it names no host"
    try:
        parts.hostname.encode("idna")
    except UnicodeError:
        return "its host name has an empty part or one over 63 characters"
    return ""


#: Where a table is: a local path or an address.
Location = Path | Url


def is_address(text: str) -> bool:
    """Does ``text`` start as an ``http://`` or ``https://`` address does?"""
    return bool(_ADDRESS.match(text))


def location(place: str | PathLike[str]) -> Location:
    """``place`` as a :class:`Url` if it is an address (:func:`is_address`), else as a path.

    >>> location("https://example.org/t/neutreeko-9x9.h5").name, location("tables/neutreeko-9x9.h5").name
    ('neutreeko-9x9.h5', 'neutreeko-9x9.h5')
    """
    if isinstance(place, Url):
        return place
    return Url(place) if isinstance(place, str) and is_address(place) else Path(place)


class RemoteFile:
    """The file served at ``url``, read by ``Range`` requests (see the module docstring); its
    :meth:`size` is known from the first read on."""

    def __init__(self, url: Url) -> None:
        self.url = url
        self._target = urllib.parse.urlsplit(url)
        self._size: int | None = None
        self._idle: list[http.client.HTTPConnection] = []
        self._lock = threading.Lock()

    def size(self) -> int:
        """The file's size in bytes, as the server gave it in answer to the first read."""
        if self._size is None:
            raise TableError(f"cannot read {self.url}: nothing read yet")
        return self._size

    def read(self, length: int, offset: int) -> bytes:
        """Up to ``length`` bytes from ``offset`` (fewer at the end of the file), checked to be the range
        asked for (see the module docstring)."""
        import http.client

        from solver.core.storage import download

        if self._size is not None:
            length = min(length, self._size - offset)
        if length <= 0:
            return b""
        end = offset + length - 1
        for _ in range(_REDIRECTS + 1):
            connection = self._connection()
            try:
                response = self._request(connection, offset, end)
                if response.status in (301, 302, 303, 307, 308):
                    self._redirect(response.getheader("Location") or "")
                    connection.close()
                    continue
                body = self._body(response, offset, end)
            except (OSError, http.client.HTTPException) as error:
                connection.close()
                raise self._failed(download.why(error)) from None
            except BaseException:
                connection.close()
                raise
            self._release(connection, response)
            return body
        raise self._failed(f"it redirects more than {_REDIRECTS} times")

    def close(self) -> None:
        """Close the connections kept open."""
        with self._lock:
            idle, self._idle = self._idle, []
        for connection in idle:
            connection.close()

    def _request(self, connection: http.client.HTTPConnection, first: int, last: int) -> http.client.HTTPResponse:
        """The response's head to a GET of bytes ``first`` to ``last``."""
        from solver.core.storage import download

        connection.response_class = functools.partial(  # type: ignore[assignment]
            download.TimedResponse, wait=TIMEOUT, deadline=time.monotonic() + DEADLINE)
        target = self._target.path or "/"
        connection.request("GET", target + (f"?{self._target.query}" if self._target.query else ""),
                           headers={**_HEADERS, "Range": f"bytes={first}-{last}"})
        return connection.getresponse()

    def _body(self, response: http.client.HTTPResponse, first: int, last: int) -> bytes:
        """The body of ``response``, once it is found to be bytes ``first`` to ``last`` (or the file's
        last bytes from ``first``, on the first read) of a file of the size known."""
        from solver.core.httpio import content_range

        if response.status == 200:
            raise self._failed("it answered a Range request with the whole file (HTTP 200); its host must "
                               "answer Range requests")
        if response.status in (404, 410):
            raise MissingTableError(f"no table at {self.url} (HTTP {response.status})")
        if response.status != 206:
            raise self._failed(f"HTTP {response.status} {shortened(str(response.reason))}")
        text = response.getheader("Content-Range") or ""
        try:
            start, stop, total = content_range(text)
        except ValueError:
            raise self._failed(f"it answered a range request with the Content-Range {quote(text)}") from None
        cut = self._size is None and stop == total - 1 and start <= stop < last  # the first read, a small file
        if start != first or (stop != last and not cut) or stop >= total:
            raise self._failed(f"it answered a request for bytes {first:,} to {last:,} with bytes {start:,} to "
                               f"{stop:,} of {total:,}")
        if self._size is not None and total != self._size:
            raise self._failed(f"its size changed from {self._size:,} to {total:,} bytes")
        wanted = stop - start + 1
        stated = response.getheader("Content-Length")
        if stated is not None and stated.strip(" \t") != str(wanted):
            raise self._failed(f"it sent a Content-Length of {quote(stated)} for a range of {wanted:,} bytes")
        body = response.read(wanted + 1)
        if len(body) != wanted:
            raise self._failed(f"it sent {len(body):,} bytes for a range of {wanted:,}")
        self._size = total
        return body

    def _redirect(self, location: str) -> None:
        """Follow a redirect to ``location`` (relative to the address asked), within one scheme."""
        try:
            target = urllib.parse.urlsplit(Url(urllib.parse.urljoin(self._target.geturl(), location)))
        except AddressError:
            target = None
        if target is None or target.scheme != self._target.scheme:
            raise self._failed(f"it redirects to {quote(location)}, not an {self._target.scheme}:// address")
        self._target = target

    def _connection(self) -> http.client.HTTPConnection:
        """A connection to the host of the address: one kept open, or a new one."""
        import http.client

        with self._lock:
            while self._idle:
                connection = self._idle.pop()
                if (connection.host, connection.port) == (self._target.hostname, self._port()):
                    return connection
                connection.close()
        kind = http.client.HTTPSConnection if self._target.scheme == "https" else http.client.HTTPConnection
        return kind(self._target.hostname or "", self._port(), timeout=TIMEOUT)

    def _port(self) -> int:
        return self._target.port or (443 if self._target.scheme == "https" else 80)

    def _release(self, connection: http.client.HTTPConnection, response: http.client.HTTPResponse) -> None:
        """Keep ``connection`` for the next request, unless the server closes it."""
        if response.will_close:
            connection.close()
            return
        with self._lock:
            self._idle.append(connection)

    def _failed(self, why: str) -> TableError:
        return TableError(f"cannot read the table at {self.url}: {why}")

