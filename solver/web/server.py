"""The explorer's HTTP server: the page's files and the JSON API of :mod:`solver.web.api`.

It is the standard library's threading HTTP server (one thread per connection; HTTP/1.1 with
keep-alive): the explorer serves one person's browser and a few scripts on loopback, answers a
position in about a millisecond, and needs no routing, templates or sessions, so a framework would
add a dependency and nothing else. What it adds to the standard server:

- every error is a JSON object ``{"error": "..."}`` naming the problem, never an HTML or traceback
  page: 400 for a bad or oversized request (a URL longer than :data:`MAX_URL` characters, a header
  line over 64 KiB, a parameter given twice, a value that is not UTF-8, a body but to
  ``POST /api/annotate``, a body over :data:`MAX_BODY` bytes or without its length), and, as RFC 9112
  requires of a request whose framing is in doubt, for a header line folded onto the next (obsolete
  line folding), a header line without a colon or a ``Content-Length`` given twice; 404 for an unknown
  path, 405 for another method than GET or HEAD (or POST to ``/api/annotate``), 500 for a damaged
  table or a fault of the server (logged on the server's standard error, with its traceback);
- only the files of :func:`solver.web.assets.assets` are served, looked up by exact path;
- responses say ``nosniff`` and carry a content security policy that allows the page's own files only;
- a connection idle for :data:`IDLE_SECONDS` is closed, and up to 512 connections may wait to be
  accepted, so that a burst of hundreds of clients waits instead of being refused.
"""

from __future__ import annotations

import ipaddress
import json
import socket
import sys
import traceback
from collections.abc import Callable
from email.message import Message
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from solver import __version__
from solver.core.errors import InputError, MissingTableError, TableError
from solver.web.api import ApiError, Explorer
from solver.web.assets import assets

#: The longest request URL answered (a position with a few hundred moves fits).
MAX_URL = 8192
#: The largest request body read: a game record for ``POST /api/annotate`` (thousands of plies fit).
MAX_BODY = 64 * 1024
#: The one path that takes a POST.
POSTED = "/api/annotate"
#: Seconds a kept-alive connection may stay idle before it is closed.
IDLE_SECONDS = 30
_MAX_PARAMETERS = 16
_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
                               "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
}
# Errors the standard server raises itself, all about a request too large: answered as bad requests.
_TOO_LARGE = (HTTPStatus.REQUEST_URI_TOO_LONG, HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE,
              HTTPStatus.REQUEST_ENTITY_TOO_LARGE)


class ExplorerServer(ThreadingHTTPServer):
    """The explorer on ``host``:``port`` (port 0: any free port; see :attr:`url`), answering from
    ``explorer``; ``log`` receives one line per request (None: none). A fault of the server (a bug) is
    written to standard error with its traceback in any case."""

    daemon_threads = True
    request_queue_size = 512

    def __init__(self, host: str, port: int, explorer: Explorer, log: Callable[[str], None] | None = None) -> None:
        self.address_family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
        self.explorer = explorer
        self.log = log
        self.assets = assets()
        super().__init__((host, port), _Handler)

    @property
    def host(self) -> str:
        """The address listened on, e.g. ``127.0.0.1``."""
        return str(self.server_address[0])

    @property
    def on_loopback(self) -> bool:
        """Is it listening on this machine only? (An IPv4 loopback address mapped into IPv6,
        ``::ffff:127.0.0.1``, is loopback too.)"""
        address = ipaddress.ip_address(self.host)
        mapped = address.ipv4_mapped if isinstance(address, ipaddress.IPv6Address) else None
        return (mapped or address).is_loopback

    @property
    def url(self) -> str:
        """The address to open in a browser, e.g. ``http://127.0.0.1:8000/``."""
        return f"http://{f'[{self.host}]' if ':' in self.host else self.host}:{self.server_address[1]}/"

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A connection that failed outside a request's answer (the client went away): one line, not a
        traceback, unless it is a fault of ours."""
        error = sys.exc_info()[1]
        if isinstance(error, (ConnectionError, TimeoutError)):
            return
        _log_fault(f"connection from {client_address[0]} failed")


def _log_fault(what: str) -> None:
    print(f"neutreeko serve: {what}:\n{traceback.format_exc()}", file=sys.stderr, flush=True)


class _Handler(BaseHTTPRequestHandler):
    server: ExplorerServer
    protocol_version = "HTTP/1.1"
    timeout = IDLE_SECONDS
    # An answer leaves in one write, at once: a kept-alive connection would otherwise wait for the
    # client's delayed acknowledgement (40 ms) between the headers and the body.
    wbufsize = 1 << 16
    disable_nagle_algorithm = True

    def version_string(self) -> str:
        return f"neutreeko-explorer/{__version__}"

    def do_GET(self) -> None:
        self._answer(self._route)

    def do_HEAD(self) -> None:
        self._answer(self._route)

    def do_POST(self) -> None:
        if urlsplit(self.path).path == POSTED:
            self._answer(self._posted)
        else:
            self._refuse_method()

    def do_PUT(self) -> None:
        self._refuse_method()

    do_DELETE = do_PATCH = do_OPTIONS = do_PUT

    def _refuse_method(self) -> None:
        self.close_connection = True  # its body, if any, is not read
        allowed = "GET, HEAD, POST" if urlsplit(self.path).path == POSTED else "GET, HEAD"
        self._send_json(HTTPStatus.METHOD_NOT_ALLOWED, {"error": f"{self.command} is not allowed here; use "
                                                                 f"{' or '.join(allowed.split(', '))}"},
                        {"Allow": allowed})

    def _answer(self, route: Callable[[], tuple[int, bytes, str]]) -> None:
        try:
            status, body, media_type = route()
        except ApiError as error:
            self._send_json(error.status, {"error": str(error)})
        except MissingTableError as error:
            self._send_json(HTTPStatus.BAD_REQUEST, {"error": str(error)})
        except TableError as error:
            self._send_json(HTTPStatus.INTERNAL_SERVER_ERROR, {"error": str(error)})
        except InputError as error:
            self._send_json(HTTPStatus.BAD_REQUEST, {"error": str(error)})
        except Exception:
            _log_fault(f"{self.command} {self.path[:200]} failed")
            self._send_json(HTTPStatus.INTERNAL_SERVER_ERROR, {"error": "internal error (see the server's log)"})
        else:
            self._send(status, body, media_type)

    def _route(self) -> tuple[int, bytes, str]:
        if self.headers.get("Content-Length", "0") != "0" or "Transfer-Encoding" in self.headers:
            self.close_connection = True  # the body is not read: what follows it is not a request
            raise ApiError(f"a {self.command} request has no body")
        if len(self.path) > MAX_URL:
            raise ApiError(f"the URL is {len(self.path):,} characters long; at most {MAX_URL:,} are read")
        url = urlsplit(self.path)
        if url.path.startswith("/api/"):
            answer = self.server.explorer.answer(url.path, _parameters(url.query))
            return HTTPStatus.OK, json.dumps(answer).encode(), "application/json"
        asset = self.server.assets.get(url.path)
        if asset is None:
            raise ApiError(f"no file {url.path[:100]}", HTTPStatus.NOT_FOUND)
        return HTTPStatus.OK, asset.content, asset.media_type

    def _posted(self) -> tuple[int, bytes, str]:
        """``POST /api/annotate``: the game record in the body annotated."""
        if urlsplit(self.path).query:
            self.close_connection = True
            raise ApiError(f"POST {POSTED} takes its game record in the body, not in the URL")
        answer = self.server.explorer.annotate_record(self._body())
        return HTTPStatus.OK, json.dumps(answer).encode(), "application/json"

    def _body(self) -> str:
        """The request's body as text; raises :class:`ApiError` (and closes the connection, the body
        unread) unless it has a length of at most :data:`MAX_BODY` bytes and is UTF-8."""
        length = self.headers.get("Content-Length")
        if "Transfer-Encoding" in self.headers or length is None or not length.isascii() or not length.isdigit():
            self.close_connection = True
            raise ApiError("a POST needs its Content-Length (a chunked body is not read)")
        if int(length) > MAX_BODY:
            self.close_connection = True
            raise ApiError(f"the body is {int(length):,} bytes long; at most {MAX_BODY:,} are read")
        body = self.rfile.read(int(length))
        if len(body) < int(length):
            self.close_connection = True
            raise ApiError(f"the body ended after {len(body):,} of its {int(length):,} bytes")
        try:
            return body.decode("utf-8")
        except UnicodeDecodeError:
            raise ApiError("the body is not UTF-8 text") from None

    def _send_json(self, status: int, answer: dict[str, str], headers: dict[str, str] | None = None) -> None:
        self._send(status, json.dumps(answer).encode(), "application/json", headers)

    def _send(self, status: int, body: bytes, media_type: str, headers: dict[str, str] | None = None) -> None:
        """One answer; the connection is then closed if :attr:`close_connection` was set."""
        self.send_response(status)
        closing = {"Connection": "close"} if self.close_connection else {}
        for name, value in {**_HEADERS, "Content-Type": media_type, "Content-Length": str(len(body)),
                            "Cache-Control": "no-cache", **closing, **(headers or {})}.items():
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def parse_request(self) -> bool:
        if not super().parse_request():
            return False
        if self.request_version == "HTTP/0.9":  # a bare "GET /": its answer would have no status line
            self.send_error(HTTPStatus.BAD_REQUEST, "HTTP/0.9 requests are not answered")
            return False
        problem = _framing_problem(self.headers)
        if problem is not None:
            self.send_error(HTTPStatus.BAD_REQUEST, problem)
            return False
        return True

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """The standard server's own errors (a malformed or oversized request line or header, an unknown
        method) as JSON, with a status line even when the request had none; the connection is closed
        after them."""
        if self.request_version == "HTTP/0.9":
            self.request_version = "HTTP/1.0"
        if code in _TOO_LARGE:
            code, message = HTTPStatus.BAD_REQUEST, f"request too large: {HTTPStatus(code).phrase.lower()}"
        elif code == HTTPStatus.NOT_IMPLEMENTED:
            code = HTTPStatus.METHOD_NOT_ALLOWED
        self.log_error("code %d, message %s", code, message)
        self.close_connection = True
        self._send_json(code, {"error": (message or HTTPStatus(code).phrase)[:300]})

    def log_message(self, format: str, *args: Any) -> None:
        """One line per request, and the standard server's notes (timeouts, bad request lines), to the
        server's ``log`` if it has one."""
        if self.server.log is not None:
            self.server.log(f"{self.address_string()} {format % args}")


def _framing_problem(headers: Message) -> str | None:
    """What makes the headers ambiguous, so that a proxy in front could read another request into them
    than this server does (request smuggling), or None. The standard server reads a folded line as part
    of the header above it, drops every header from a line without a colon on, and answers the first
    ``Content-Length`` of several."""
    if headers.defects:  # a continuation line before any header, or a line without a colon
        return "a header line is not Name: value"
    if any("\r" in value or "\n" in value for value in headers.values()):
        return "a header line is folded onto the next (obsolete line folding is not accepted)"
    if len(headers.get_all("Content-Length", [])) > 1:
        return "Content-Length is given more than once"
    return None


def _parameters(query: str) -> dict[str, str]:
    """A URL's query as one value per name; raises :class:`ApiError` for a name given twice, too many
    parameters, or a value that is not UTF-8."""
    try:
        pairs = parse_qsl(query, keep_blank_values=True, errors="strict", max_num_fields=_MAX_PARAMETERS)
    except UnicodeDecodeError:
        raise ApiError("a parameter is not UTF-8 text") from None
    except ValueError:
        raise ApiError(f"more than {_MAX_PARAMETERS} parameters") from None
    parameters: dict[str, str] = {}
    for name, value in pairs:
        if name in parameters:
            raise ApiError(f"parameter {name[:40]!r} is given twice")
        parameters[name] = value
    return parameters
