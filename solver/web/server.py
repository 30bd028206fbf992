"""The explorer's HTTP server: the page's files and the JSON API of :mod:`solver.web.api`.

:class:`ExplorerServer` is the standard library's threading HTTP server (one thread per connection;
HTTP/1.1 with keep-alive) with what the explorer needs added:

- every error is a JSON object ``{"error": "..."}`` naming the problem, never an HTML or traceback
  page: 400 for a bad or oversized request (a URL over :data:`MAX_URL` characters, header lines over
  :data:`MAX_HEADER_BYTES` bytes, a body over :data:`MAX_BODY` bytes, a framing in doubt as RFC 9112
  says), 404, 405, 421 for another host, 500 for a damaged table, a failed build or a fault of the
  server (logged on standard error with its traceback), 503 while a table is built (see
  :mod:`solver.web.tables`), a search waits for another (see :mod:`solver.web.searches`) or every
  connection is taken;
- what clients may hold is bounded (:class:`Limits`: :data:`MAX_CONNECTIONS`, :data:`IDLE_SECONDS`,
  :data:`REQUEST_SECONDS`, :data:`ACCEPT_PAUSE`);
- a ``Host`` (or an absolute URL's host) naming another host than this server is answered 421, against
  DNS rebinding;
- only the files of :func:`solver.web.assets.assets` are served, looked up by exact path, with
  ``nosniff`` and a content security policy that allows the page's own files only.

What is refused and why, the bounds and the names allowed as ``Host``: docs/reference/json-api.md.
"""

from __future__ import annotations

import errno
import http.client
import io
import ipaddress
import json
import socket
import sys
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from email.message import Message
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl, urlsplit, urlunsplit

from solver import __version__, registry
from solver.core.answers.notation import quote
from solver.core.answers.record import decode_record
from solver.core.errors import InputError, MissingTableError, TableError
from solver.core.httpio import TimedReader, number
from solver.web.api import ApiError, Explorer
from solver.web.assets import assets
from solver.web.tables import BusyError

#: The longest request URL answered (a position with a few hundred moves fits).
MAX_URL = 8192
#: The largest request body read: a game record for ``POST /api/annotate`` or ``/api/game`` (thousands of plies
#: fit), or the positions of ``POST /api/positions``.
MAX_BODY = 64 * 1024
#: Connections open at once; one more is answered 503 and closed.
MAX_CONNECTIONS = 64
#: Seconds a kept-alive connection may wait for its next request before it is closed.
IDLE_SECONDS = 30
#: Seconds from a request's first byte by which all of it (line, headers, body) must have arrived.
REQUEST_SECONDS = 10
#: Bytes of a request's header lines in all (the request line apart); more is a 400.
MAX_HEADER_BYTES = 64 * 1024
#: Seconds the accept loop pauses when the process is out of file descriptors (or memory for sockets).
ACCEPT_PAUSE = 0.1
#: Seconds a client is asked to wait (``Retry-After``) before asking again after a 503.
RETRY_SECONDS = 2
_OUT_OF_RESOURCES = {errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM}
_MAX_PARAMETERS = 16
_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
                               "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
}
# Errors the standard server raises itself, all about a request too large: answered as bad requests.
_TOO_LARGE = {HTTPStatus.REQUEST_URI_TOO_LONG: "its request line is over 65,536 bytes",
              HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE: f"its header lines are over {MAX_HEADER_BYTES:,} bytes in "
                                                          f"all, or more than 100",
              HTTPStatus.REQUEST_ENTITY_TOO_LARGE: "request entity too large"}


@dataclass(frozen=True)
class Limits:
    """What the clients of a server may hold of it (see the module docstring); the defaults are the
    module's constants."""

    connections: int = MAX_CONNECTIONS
    idle_seconds: float = IDLE_SECONDS
    request_seconds: float = REQUEST_SECONDS


class ExplorerServer(ThreadingHTTPServer):
    """The explorer on ``host``:``port`` (port 0: any free port; see :attr:`url`), answering from
    ``explorer`` within ``limits``; ``log`` receives one line per request (None: none). A fault of the
    server (a bug) is written to standard error with its traceback in any case."""

    daemon_threads = True
    request_queue_size = 512

    def __init__(self, host: str, port: int, explorer: Explorer, log: Callable[[str], None] | None = None,
                 limits: Limits = Limits()) -> None:
        self.address_family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
        self.explorer = explorer
        self.log = log
        self.limits = limits
        self.assets = assets()
        self._connections = threading.BoundedSemaphore(limits.connections)
        super().__init__((host, port), _Handler)
        self._host_names = {_bracketed(name).lower() for name in ("localhost", "127.0.0.1", "::1", self.host, host)}
        self._busy = _busy_answer(limits.connections)

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

    def allows_host(self, value: str | None) -> bool:
        """May a request whose ``Host`` header is ``value`` (None: none) be answered? Yes for none, and
        for a name of this server (see the module docstring) with this server's port or none."""
        if value is None:
            return True
        name, port = _split_host(value)
        if port not in ("", str(self.server_address[1])):
            return False
        return name in self._host_names or (self._on_every_address and _is_address(name))

    @property
    def _on_every_address(self) -> bool:
        return ipaddress.ip_address(self.host).is_unspecified

    def get_request(self) -> tuple[socket.socket, Any]:
        """The next connection; when the process is out of file descriptors, a pause first: the
        listening socket stays readable, and the loop would try again at once, forever."""
        try:
            return super().get_request()
        except OSError as error:
            if error.errno in _OUT_OF_RESOURCES:
                time.sleep(ACCEPT_PAUSE)
            raise

    def process_request(self, request: Any, client_address: Any) -> None:
        """Answer ``request`` in a thread of its own, or, if :attr:`Limits.connections` are open, with a 503
        at once, and close it."""
        if not self._connections.acquire(blocking=False):
            _refuse(request, self._busy)
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._connections.release()
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._connections.release()

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A connection that failed outside a request's answer (the client went away): one line, not a
        traceback, unless it is a fault of ours."""
        error = sys.exc_info()[1]
        if isinstance(error, (ConnectionError, TimeoutError)):
            return
        _log_fault(f"connection from {client_address[0]} failed")


def _log_fault(what: str) -> None:
    print(f"{registry.default().program} serve: {what}:\n{traceback.format_exc()}", file=sys.stderr, flush=True)


def _bracketed(name: str) -> str:
    """A host as a ``Host`` header writes it: an IPv6 address in brackets."""
    return f"[{name}]" if ":" in name and not name.startswith("[") else name


def _split_host(value: str) -> tuple[str, str]:
    """A ``Host`` header's name and port (``""`` if none), in lower case: ``[::1]:8000`` is
    (``[::1]``, ``8000``)."""
    value = value.lower()
    if value.startswith("["):
        name, _, rest = value.partition("]")
        return f"{name}]", rest.removeprefix(":")
    name, colon, port = value.rpartition(":")
    return (name, port) if colon else (value, "")


def _is_address(name: str) -> bool:
    """Is the host ``name`` an IP address (an IPv6 one in brackets), not a name that a DNS server could
    make anything of?"""
    try:
        ipaddress.ip_address(name[1:-1] if name.startswith("[") else name)
    except ValueError:
        return False
    return True


def _busy_answer(connections: int) -> bytes:
    """The whole 503 answer to a connection beyond the bound, made once."""
    body = json.dumps({"error": f"the server is busy: it has {connections} connections open, as many as it takes; "
                                f"try again in a moment"}).encode()
    head = [f"HTTP/1.1 503 {HTTPStatus.SERVICE_UNAVAILABLE.phrase}", *(f"{name}: {value}" for name, value in
            {**_HEADERS, "Content-Type": "application/json", "Content-Length": len(body),
             "Retry-After": RETRY_SECONDS, "Connection": "close"}.items())]
    return "\r\n".join(head).encode() + b"\r\n\r\n" + body


def _refuse(request: socket.socket, answer: bytes) -> None:
    """Send ``answer`` without waiting (a new connection's buffer takes it whole) and read what the
    client sent already, so that closing the connection does not reset it before the answer is read."""
    try:
        request.setblocking(False)
        request.send(answer)
        request.recv(1 << 16)
    except OSError:  # nothing to read yet, or the client has gone
        pass


class _Bounded:
    """The ``readline`` of ``stream``, giving at most ``budget`` bytes in all, for the standard server's
    header parser: past them it raises what that parser raises for a line too long."""

    def __init__(self, stream: io.BufferedIOBase, budget: int) -> None:
        self._stream = stream
        self._budget = budget

    def readline(self, limit: int = -1) -> bytes:
        line = self._stream.readline(self._budget + 1 if limit < 0 else min(limit, self._budget + 1))
        self._budget -= len(line)
        if self._budget < 0:
            raise http.client.LineTooLong(f"headers over {MAX_HEADER_BYTES:,} bytes")
        return line


class _Handler(BaseHTTPRequestHandler):
    server: ExplorerServer
    protocol_version = "HTTP/1.1"
    # An answer leaves in one write, at once: a kept-alive connection would otherwise wait for the
    # client's delayed acknowledgement (40 ms) between the headers and the body.
    wbufsize = 1 << 16
    disable_nagle_algorithm = True

    def setup(self) -> None:
        """The standard setup, its reader replaced by one that keeps each request's deadline (and so sets
        the socket's timeout before each read; :meth:`_send` sets it for writing)."""
        super().setup()
        self.rfile.close()  # the socket's own reader: it would keep the socket open
        self._incoming = TimedReader(self.connection, self.server.limits.idle_seconds)
        self.rfile = io.BufferedReader(self._incoming)

    def handle_one_request(self) -> None:
        """Wait up to :attr:`Limits.idle_seconds` for a request's first byte, then answer the request if
        it arrives within :attr:`Limits.request_seconds`; otherwise close the connection."""
        self._incoming.deadline = None
        try:
            waiting = self.rfile.peek(1)  # type: ignore[attr-defined]
        except TimeoutError as error:
            self.log_error("Request timed out: %r", error)
            waiting = b""
        if not waiting:
            self.close_connection = True
            return
        self._incoming.deadline = time.monotonic() + self.server.limits.request_seconds
        super().handle_one_request()

    def version_string(self) -> str:
        return f"{registry.default().program}-explorer/{__version__}"

    def do_GET(self) -> None:
        if self._post_only():
            self._refuse_method()
        else:
            self._answer(self._route)

    do_HEAD = do_GET

    def _post_only(self) -> bool:
        explorer, path = self.server.explorer, urlsplit(self.path).path
        return path in explorer.posted and path not in explorer.endpoints

    def do_POST(self) -> None:
        if urlsplit(self.path).path in self.server.explorer.posted:
            self._answer(self._posted)
        else:
            self._refuse_method()

    def do_PUT(self) -> None:
        self._refuse_method()

    do_DELETE = do_PATCH = do_OPTIONS = do_PUT

    def _refuse_method(self) -> None:
        self.close_connection = True  # its body, if any, is not read
        path = urlsplit(self.path).path
        allowed = "POST" if self._post_only() else "GET, HEAD, POST" if path in self.server.explorer.posted \
            else "GET, HEAD"
        self._send_json(HTTPStatus.METHOD_NOT_ALLOWED, {"error": f"{self.command} is not allowed here; use "
                                                                 f"{' or '.join(allowed.split(', '))}"},
                        {"Allow": allowed})

    def _answer(self, route: Callable[[], tuple[int, bytes, str]]) -> None:
        try:
            status, body, media_type = route()
        except ApiError as error:
            self._send_json(error.status, {"error": str(error)})
        except BusyError as error:
            self._send_json(HTTPStatus.SERVICE_UNAVAILABLE, {"error": str(error)}, {"Retry-After": str(RETRY_SECONDS)})
        except MissingTableError as error:
            self._send_json(HTTPStatus.BAD_REQUEST, {"error": str(error)})
        except TableError as error:
            self._send_json(HTTPStatus.INTERNAL_SERVER_ERROR, {"error": str(error)})
        except InputError as error:
            self._send_json(HTTPStatus.BAD_REQUEST, {"error": str(error)})
        except Exception:
            _log_fault(f"{self.command} {quote(self.path)} failed")
            self._send_json(HTTPStatus.INTERNAL_SERVER_ERROR, {"error": "internal error (see the server's log)"})
        else:
            self._send(status, body, media_type)

    def _route(self) -> tuple[int, bytes, str]:
        if self._length() or "Transfer-Encoding" in self.headers:
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
            raise ApiError(f"no file {quote(url.path)}", HTTPStatus.NOT_FOUND)
        return HTTPStatus.OK, asset.content, asset.media_type

    def _posted(self) -> tuple[int, bytes, str]:
        """A POST to one of :attr:`Explorer.posted <solver.web.api.Explorer.posted>`: the body (a game
        record, or positions one a line) answered, for the game the URL names (Neutreeko's if none)."""
        url = urlsplit(self.path)
        text = self._body()  # read before the URL is checked: a refusal then leaves no body unread on the connection
        answer = self.server.explorer.answer_body(url.path, _parameters(url.query), text)
        return HTTPStatus.OK, json.dumps(answer).encode(), "application/json"

    def _body(self) -> str:
        """The request's body as text, a byte order mark at its start skipped; raises :class:`ApiError`
        (and closes the connection, the body unread) unless it has a length of at most :data:`MAX_BODY`
        bytes, and :class:`~solver.core.answers.record.RecordError` if it is not UTF-8."""
        length = self._length()
        if "Transfer-Encoding" in self.headers or length is None:
            self.close_connection = True
            raise ApiError("a POST needs its Content-Length (a chunked body is not read)")
        if length > MAX_BODY:
            self.close_connection = True
            raise ApiError(f"the body is {length:,} bytes long; at most {MAX_BODY:,} are read")
        body = self.rfile.read(length)
        if len(body) < length:
            self.close_connection = True
            raise ApiError(f"the body ended after {len(body):,} of its {length:,} bytes")
        return decode_record(body, "the body")

    def _length(self) -> int | None:
        """The request's ``Content-Length`` (None if it has none), checked by :meth:`parse_request`."""
        length = self.headers.get("Content-Length")
        return None if length is None else number(length)

    def _send_json(self, status: int, answer: dict[str, str], headers: dict[str, str] | None = None) -> None:
        self._send(status, json.dumps(answer).encode(), "application/json", headers)

    def _send(self, status: int, body: bytes, media_type: str, headers: dict[str, str] | None = None) -> None:
        """One answer; the connection is then closed if :attr:`close_connection` was set."""
        self.connection.settimeout(self.server.limits.idle_seconds)  # a client that does not read is let go
        self.send_response(status)
        closing = {"Connection": "close"} if self.close_connection else {}
        for name, value in {**_HEADERS, "Content-Type": media_type, "Content-Length": str(len(body)),
                            "Cache-Control": "no-cache", **closing, **(headers or {})}.items():
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def parse_request(self) -> bool:
        """The standard parser, its headers read :data:`MAX_HEADER_BYTES` at most; then HTTP/0.9, ambiguous
        framing and a ``Host`` that is not this server's are refused."""
        stream, self.rfile = self.rfile, _Bounded(self.rfile, MAX_HEADER_BYTES)  # type: ignore[assignment]
        try:
            if not super().parse_request():
                return False
        finally:
            self.rfile = stream
        if self.request_version == "HTTP/0.9":  # a bare "GET /": its answer would have no status line
            self.send_error(HTTPStatus.BAD_REQUEST, "HTTP/0.9 requests are not answered")
            return False
        problem = _framing_problem(self.headers)
        if problem is not None:
            self.send_error(HTTPStatus.BAD_REQUEST, problem)
            return False
        try:
            authority, self.path = _target(self.path)
        except ValueError as error:
            self.send_error(HTTPStatus.BAD_REQUEST, str(error))
            return False
        host = self.headers.get("Host") if authority is None else authority
        if not self.server.allows_host(host):
            self.send_error(HTTPStatus.MISDIRECTED_REQUEST, f"this server does not answer for the host "
                                                            f"{quote(str(host))}; open {self.server.url}")
            return False
        return True

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """The standard server's own errors (a malformed or oversized request line or header, an unknown
        method) as JSON, with a status line even when the request had none; the connection is closed
        after them."""
        if self.request_version == "HTTP/0.9":
            self.request_version = "HTTP/1.0"
        if code in _TOO_LARGE:
            code, message = HTTPStatus.BAD_REQUEST, f"request too large: {_TOO_LARGE[HTTPStatus(code)]}"
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


def _target(target: str) -> tuple[str | None, str]:
    """A request target's authority and its path with its query: (None, ``target``) for the usual
    ``/path?query``, and for an absolute URL (``http://host:port/path``, which RFC 9112 lets a client
    send) its ``host:port``, which then stands for the ``Host`` header; :class:`ValueError` for any
    other target."""
    if target.startswith("/"):
        return None, target
    try:
        url = urlsplit(target)
    except ValueError:
        url = None
    if url is None or url.scheme not in ("http", "https"):
        raise ValueError(f"the request target {quote(target)} is neither /path nor http://host/path")
    return url.netloc, urlunsplit(("", "", url.path or "/", url.query, ""))


def _framing_problem(headers: Message) -> str | None:
    """What makes the headers ambiguous, so that a proxy in front could read another request into them
    than this server does (request smuggling), or None. The standard server reads a folded line as part
    of the header above it, drops every header from a line without a colon on, and answers the first
    ``Content-Length`` or ``Host`` of several; a ``Content-Length`` that is not a plain number (a sign,
    digits other than ASCII, more than 18 of them) is one that readers may each take otherwise."""
    if headers.defects:  # a continuation line before any header, or a line without a colon
        return "a header line is not Name: value"
    if any("\r" in value or "\n" in value for value in headers.values()):
        return "a header line is folded onto the next (obsolete line folding is not accepted)"
    for name in ("Content-Length", "Host"):
        if len(headers.get_all(name, [])) > 1:
            return f"{name} is given more than once"
    length = headers.get("Content-Length")
    try:
        if length is not None:
            number(length)
    except ValueError as error:
        return f"the Content-Length {error}"
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
            raise ApiError(f"parameter {quote(name)} is given twice")
        parameters[name] = value
    return parameters
