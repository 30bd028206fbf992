"""The file at a table's address (:class:`~solver.core.storage.remote.Url`), read over HTTP or HTTPS.

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
import http.client
import threading
import time
import urllib.parse

from solver import __version__
from solver.core.answers.notation import quote, shortened
from solver.core.errors import MissingTableError, TableError
from solver.core.httpio import content_range
from solver.core.storage import download
from solver.core.storage.remote import AddressError, Url

#: Seconds a connection or one read of a response may wait for the server.
TIMEOUT = 30.0
#: Seconds one request may take, its body included.
DEADLINE = 120.0
_REDIRECTS = 5
_HEADERS = {"User-Agent": f"neutreeko-solver/{__version__}", "Accept-Encoding": "identity"}


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
        connection.response_class = functools.partial(  # type: ignore[assignment]
            download.TimedResponse, wait=TIMEOUT, deadline=time.monotonic() + DEADLINE)
        target = self._target.path or "/"
        connection.request("GET", target + (f"?{self._target.query}" if self._target.query else ""),
                           headers={**_HEADERS, "Range": f"bytes={first}-{last}"})
        return connection.getresponse()

    def _body(self, response: http.client.HTTPResponse, first: int, last: int) -> bytes:
        """The body of ``response``, once it is found to be bytes ``first`` to ``last`` (or the file's
        last bytes from ``first``, on the first read) of a file of the size known."""
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

