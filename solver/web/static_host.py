"""A static file server that answers HTTP ``Range`` requests, as a host of tables or of the static
explorer must (Python's ``python -m http.server`` does not): to try a release or a site on this machine,
and for the benchmarks and the tests of reading them.

Usage: ``python -m solver.web.static_host DIRECTORY [--port 8000]`` serves DIRECTORY on 127.0.0.1; then
``NEUTREEKO_TABLES=http://127.0.0.1:8000/ neutreeko query start --board 5x5``, or open the address of a
site (``neutreeko site``). Ctrl-C stops it.

It answers one range a request (``bytes=A-B``, ``bytes=A-``, ``bytes=-N``) with 206 and its
``Content-Range``, 416 for a range beyond the file, keeps connections open (HTTP/1.1), sends
``Accept-Ranges`` and ``Access-Control-Allow-Origin: *``, and counts the bytes of the bodies it sends.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import os
import re
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

_RANGE = re.compile(r"bytes=([0-9]*)-([0-9]*)")
#: How often a server started by :meth:`RangeServer.start` looks whether it is asked to stop (the
#: loop of ``serve_forever`` waits this long between looks; its own default is half a second).
_STOP_SECONDS = 0.01


class RangeHandler(http.server.SimpleHTTPRequestHandler):
    """``SimpleHTTPRequestHandler`` answering ``Range`` requests, each connection waiting at most
    ``timeout`` seconds for a request."""

    protocol_version = "HTTP/1.1"
    timeout = 10
    disable_nagle_algorithm = True  # a body's first segment not held back for the ACK of the head's

    def do_GET(self) -> None:  # noqa: N802 (the name http.server calls)
        self.reply(*self.answer())

    def answer(self) -> tuple[int, dict[str, str], bytes]:
        """The status, headers and body that answer the request."""
        path = Path(self.translate_path(self.path))
        if path.is_dir():  # a site's address: its page
            path = path / "index.html"
        if not path.is_file():
            return 404, {"Content-Length": "0"}, b""
        size = path.stat().st_size
        first, last = 0, size - 1
        asked = _RANGE.fullmatch(self.headers.get("Range", "").strip())
        if asked:
            start, end = asked.groups()
            if start:
                first, last = int(start), min(int(end), size - 1) if end else size - 1
            elif end:
                first = max(0, size - int(end))
            if first >= size or first > last:
                return 416, {"Content-Range": f"bytes */{size}", "Content-Length": "0"}, b""
        with open(path, "rb") as file:
            body = os.pread(file.fileno(), last - first + 1, first)
        headers = {"Content-Length": str(len(body)), "Content-Type": self.guess_type(str(path)),
                   "Accept-Ranges": "bytes", "Access-Control-Allow-Origin": "*"}
        if asked:
            headers["Content-Range"] = f"bytes {first}-{last}/{size}"
        return 206 if asked else 200, headers, body

    def reply(self, status: int, headers: dict[str, str], body: bytes) -> None:
        """Send the answer."""
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.end_headers()
        if isinstance(self.server, RangeServer):  # counted before the write: the client may have it at once
            self.server.sent += len(body)
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass


class RangeServer(http.server.ThreadingHTTPServer):
    """A :class:`RangeHandler` server of ``directory`` on ``host``:``port`` (0: any free port); ``sent``
    counts the body bytes sent."""

    daemon_threads = True

    def __init__(self, directory: Path, host: str = "127.0.0.1", port: int = 0,
                 handler: type[http.server.SimpleHTTPRequestHandler] = RangeHandler) -> None:
        super().__init__((host, port), functools.partial(handler, directory=str(directory)))
        self.sent = 0

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Say nothing of a client that went away before its answer was sent (a reader refusing it)."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host!s}:{port}/"

    def start(self) -> RangeServer:
        """Serve in a thread of its own (stopped by :meth:`stop`, within :data:`_STOP_SECONDS`)."""
        threading.Thread(target=self.serve_forever, kwargs={"poll_interval": _STOP_SECONDS}, daemon=True).start()
        return self

    def stop(self) -> None:
        self.shutdown()
        self.server_close()


@contextmanager
def static_server(directory: Path, handler: type[http.server.SimpleHTTPRequestHandler] = RangeHandler) -> Iterator[str]:
    """The address (``http://127.0.0.1:PORT/``) of a :class:`RangeServer` of ``directory`` on a free
    loopback port, stopped when the block ends. Raises :class:`OSError` if it cannot listen."""
    server = RangeServer(directory, handler=handler).start()
    try:
        yield server.url
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("directory", type=Path)
    parser.add_argument("--port", type=int, default=8000)
    options = parser.parse_args()
    server = RangeServer(options.directory, port=options.port)
    print(f"serving {options.directory} at {server.url} (Ctrl-C stops)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        server.server_close()


if __name__ == "__main__":
    main()
