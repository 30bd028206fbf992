"""A static web server for the tests of the static explorer: Python's ``http.server`` answering single
``Range`` requests (Python 3.11's does not), on an ephemeral loopback port, in a thread."""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

_RANGE = re.compile(r"bytes=(\d+)-(\d*)")


class RangeHandler(SimpleHTTPRequestHandler):
    """Files of the directory, a ``Range: bytes=A-B`` request answered 206 with those bytes."""

    def log_message(self, format: str, *args: object) -> None:  # quiet
        pass

    def do_GET(self) -> None:
        asked = _RANGE.fullmatch(self.headers.get("Range", ""))
        path = Path(self.translate_path(self.path))
        if not asked or not path.is_file():
            super().do_GET()
            return
        size = path.stat().st_size
        first, last = int(asked.group(1)), min(int(asked.group(2) or size - 1), size - 1)
        if first >= size:
            self.send_error(416)
            return
        with open(path, "rb") as file:
            file.seek(first)
            body = file.read(last - first + 1)
        self.send_response(206)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Range", f"bytes {first}-{last}/{size}")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)


@contextmanager
def static_server(directory: Path) -> Iterator[str]:
    """The address of a server of ``directory`` on 127.0.0.1, stopped when the block ends."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(RangeHandler, directory=os.fspath(directory)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)
