"""An httpx transport for many small requests: HTTP/1.1 on pooled keep-alive sockets.

A collect run sends five requests a candidate repository (#19). httpx's default transport
(httpcore over h11) took about a third of the client's CPU time for each of them against
a local server, and `http.client` parses headers with the `email` package, nearly as
slow. This transport keeps httpx's client (redirects, event hooks, headers, timeouts,
content decoding, the errors the retry loop knows) and replaces only the wire: a request
is written in one piece, and the answer's status line, headers and body (by
Content-Length, chunked, or up to the close) are read from a buffered socket. Idle
connections are pooled per origin and shared by the client's threads.

Errors are httpx's: a connection that cannot be made is `httpx.ConnectError` (or
`ConnectTimeout`), a stalled read `ReadTimeout`, a body cut short or a connection dropped
mid-answer `RemoteProtocolError`. A kept-alive connection the server closed meanwhile is
replaced once, as httpcore does, before its failure counts.
"""

from __future__ import annotations

import socket
import ssl
import threading
from collections.abc import Callable
from typing import Any, BinaryIO

import httpx

__all__ = ["StatelessClient", "WireTransport"]

Origin = tuple[str, str, int]
"""(scheme, host, port)."""

_IDLE_PER_ORIGIN = 16
"""Idle connections kept per origin (the collect stage's threads need a few)."""
_DEFAULT_PORTS = {"http": 80, "https": 443}
_MAX_LINE = 65_536
_MAX_HEADERS = 200
_NO_BODY = frozenset({204, 304})


class _NoCookies(httpx.Cookies):
    """Cookies that stay empty: an answer's are not looked for."""

    def extract_cookies(self, response: httpx.Response) -> None:
        """Keep nothing."""


class StatelessClient(httpx.Client):
    """An httpx client that keeps no cookies, for stateless APIs (GitHub's, arXiv's).

    httpx looks for cookies in every answer, copying its request into a urllib request
    and its headers into an email message on the way: a tenth of a request's CPU, for a
    client that needs none (#19). Takes httpx.Client's arguments (`cookies` aside).
    """

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self._none = _NoCookies()

    @property
    def cookies(self) -> httpx.Cookies:
        return self._none

    @cookies.setter
    def cookies(self, cookies: Any) -> None:
        self._none = _NoCookies()


class _Connection:
    """A socket and its buffered reader."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.reader: BinaryIO = sock.makefile("rb")

    def close(self) -> None:
        self.reader.close()
        self.sock.close()


class WireTransport(httpx.BaseTransport):
    """HTTP/1.1 on a pool of keep-alive connections per origin (see the module's docstring).

    Args:
        ssl_context: for https; default httpx's (certifi's roots), made on first use.
    """

    def __init__(self, ssl_context: ssl.SSLContext | None = None) -> None:
        self._ssl_context = ssl_context
        self._idle: dict[Origin, list[_Connection]] = {}
        self._lock = threading.Lock()
        self._closed = False

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        url = request.url
        if url.scheme not in _DEFAULT_PORTS:
            raise httpx.UnsupportedProtocol(f"unsupported scheme {url.scheme!r}", request=request)
        origin = (url.scheme, url.host, url.port or _DEFAULT_PORTS[url.scheme])
        timeouts: dict[str, float | None] = request.extensions.get("timeout", {})
        head = _head(request)
        body = request.read()
        idle = self._take(origin)
        if idle is not None:
            try:
                return self._exchange(origin, idle, request, head + body, timeouts, reused=True)
            except _StaleConnection:
                pass  # the server closed it while it was idle: once more on a new one
        connection = self._connect(origin, request, timeouts.get("connect"))
        return self._exchange(origin, connection, request, head + body, timeouts, reused=False)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            idle = [c for connections in self._idle.values() for c in connections]
            self._idle.clear()
        for connection in idle:
            connection.close()

    # -- connections ----------------------------------------------------------------

    def _take(self, origin: Origin) -> _Connection | None:
        with self._lock:
            idle = self._idle.get(origin)
            return idle.pop() if idle else None

    def _give_back(self, origin: Origin, connection: _Connection) -> None:
        with self._lock:
            idle = self._idle.setdefault(origin, [])
            if not self._closed and len(idle) < _IDLE_PER_ORIGIN:
                idle.append(connection)
                return
        connection.close()

    def _connect(
        self, origin: Origin, request: httpx.Request, timeout: float | None
    ) -> _Connection:
        scheme, host, port = origin
        try:
            sock = socket.create_connection((host, port), timeout=timeout)
        except TimeoutError as exc:
            raise httpx.ConnectTimeout(_why(exc, "connect timed out"), request=request) from exc
        except OSError as exc:  # refused, name not resolved, no route
            raise httpx.ConnectError(_why(exc, "connection failed"), request=request) from exc
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        if scheme == "https":
            if self._ssl_context is None:
                self._ssl_context = httpx.create_ssl_context()
            try:
                sock = self._ssl_context.wrap_socket(sock, server_hostname=host)
            except TimeoutError as exc:
                sock.close()
                raise httpx.ConnectTimeout(_why(exc, "TLS timed out"), request=request) from exc
            except OSError as exc:  # ssl.SSLError included
                sock.close()
                raise httpx.ConnectError(_why(exc, "TLS failed"), request=request) from exc
        return _Connection(sock)

    def _exchange(
        self,
        origin: Origin,
        connection: _Connection,
        request: httpx.Request,
        message: bytes,
        timeouts: dict[str, float | None],
        *,
        reused: bool,
    ) -> httpx.Response:
        """Send `message` and read the whole answer; `_StaleConnection` when a `reused`
        connection turns out closed before any of the answer came."""
        try:
            answer = _send_and_read(connection, message, request.method, timeouts)
        except _Broken as broken:
            connection.close()
            if broken.before_answer and reused:
                raise _StaleConnection from broken
            raise broken.kind(broken.text, request=request) from broken.__cause__
        if answer.will_close:
            connection.close()
        else:
            self._give_back(origin, connection)
        return httpx.Response(
            answer.status,
            headers=answer.headers,
            content=answer.body,
            extensions={"http_version": answer.version, "reason_phrase": answer.reason},
        )


class _StaleConnection(Exception):
    """A kept-alive connection was closed by the server while idle."""


class _Broken(Exception):
    """An exchange failed: how (an httpx error class and text) and whether any answer came."""

    def __init__(
        self, kind: Callable[..., httpx.TransportError], text: str, *, before_answer: bool = False
    ):
        super().__init__(text)
        self.kind = kind
        self.text = text
        self.before_answer = before_answer


class _Answer:
    __slots__ = ("body", "headers", "reason", "status", "version", "will_close")

    def __init__(self, version: bytes, status: int, reason: bytes) -> None:
        self.version, self.status, self.reason = version, status, reason
        self.headers: list[tuple[bytes, bytes]] = []
        self.body = b""
        self.will_close = False


def _head(request: httpx.Request) -> bytes:
    """The request line and headers (httpx has set Host, Content-Length and the rest)."""
    lines = [b"%s %s HTTP/1.1" % (request.method.encode("ascii"), request.url.raw_path)]
    lines.extend(name + b": " + value for name, value in request.headers.raw)
    return b"\r\n".join(lines) + b"\r\n\r\n"


def _send_and_read(
    connection: _Connection, message: bytes, method: str, timeouts: dict[str, float | None]
) -> _Answer:
    """Write one request and read its whole answer."""
    sock = connection.sock
    try:
        sock.settimeout(timeouts.get("write"))
        sock.sendall(message)
    except TimeoutError as exc:
        raise _Broken(httpx.WriteTimeout, _why(exc, "write timed out")) from exc
    except OSError as exc:  # the server closed the kept-alive connection
        raise _Broken(httpx.WriteError, _why(exc, "write failed"), before_answer=True) from exc
    try:
        sock.settimeout(timeouts.get("read"))
        return _read_answer(connection.reader, method)
    except TimeoutError as exc:
        raise _Broken(httpx.ReadTimeout, _why(exc, "read timed out")) from exc
    except ConnectionError as exc:
        raise _Broken(
            httpx.RemoteProtocolError, "Server disconnected without sending a response."
        ) from exc
    except OSError as exc:
        raise _Broken(httpx.ReadError, _why(exc, "read failed")) from exc


def _read_answer(reader: BinaryIO, method: str) -> _Answer:
    answer = _read_status(reader)
    while 100 <= answer.status < 200:  # 100 Continue and the like: the answer follows
        _read_headers(reader)
        answer = _read_status(reader)
    answer.headers = _read_headers(reader)
    fields = {name.lower(): value for name, value in answer.headers}
    connection = fields.get(b"connection", b"").lower()
    answer.will_close = connection == b"close" or (
        answer.version == b"HTTP/1.0" and connection != b"keep-alive"
    )
    if method == "HEAD" or answer.status in _NO_BODY:
        return answer
    if b"chunked" in fields.get(b"transfer-encoding", b"").lower():
        answer.body = _read_chunked(reader)
    elif b"content-length" in fields:
        answer.body = _read_exactly(reader, _length(fields[b"content-length"]))
    else:  # the body runs to the close
        answer.body, answer.will_close = reader.read(), True
    return answer


def _read_status(reader: BinaryIO) -> _Answer:
    line = reader.readline(_MAX_LINE + 1)
    if not line:
        raise _Broken(
            httpx.RemoteProtocolError,
            "Server disconnected without sending a response.",
            before_answer=True,
        )
    parts = line.rstrip(b"\r\n").split(b" ", 2)
    if len(parts) < 2 or not parts[0].startswith(b"HTTP/") or not parts[1].isdigit():
        raise _Broken(httpx.RemoteProtocolError, f"malformed status line {line[:80]!r}")
    return _Answer(parts[0], int(parts[1]), parts[2] if len(parts) > 2 else b"")


def _read_headers(reader: BinaryIO) -> list[tuple[bytes, bytes]]:
    headers: list[tuple[bytes, bytes]] = []
    while True:
        line = reader.readline(_MAX_LINE + 1)
        if line in (b"\r\n", b"\n"):
            return headers
        name, colon, value = line.partition(b":")
        if not colon or not line.endswith(b"\n") or len(headers) >= _MAX_HEADERS:
            raise _Broken(httpx.RemoteProtocolError, f"malformed header line {line[:80]!r}")
        headers.append((name.strip(), value.strip()))


def _length(value: bytes) -> int:
    if not value.strip().isdigit():
        raise _Broken(httpx.RemoteProtocolError, f"malformed Content-Length {value[:40]!r}")
    return int(value)


def _read_exactly(reader: BinaryIO, size: int) -> bytes:
    data = reader.read(size)
    if len(data) < size:
        raise _Broken(
            httpx.RemoteProtocolError,
            "peer closed connection without sending complete message body "
            f"(received {len(data)} bytes, expected {size})",
        )
    return data


def _read_chunked(reader: BinaryIO) -> bytes:
    parts: list[bytes] = []
    while True:
        line = reader.readline(_MAX_LINE + 1)
        size_text = line.split(b";", 1)[0].strip()
        try:
            size = int(size_text, 16)
        except ValueError:
            raise _Broken(
                httpx.RemoteProtocolError, f"malformed chunk size {line[:40]!r}"
            ) from None
        if size == 0:
            _read_headers(reader)  # trailers
            return b"".join(parts)
        parts.append(_read_exactly(reader, size))
        _read_exactly(reader, 2)  # the CRLF after the chunk


def _why(exc: BaseException, default: str) -> str:
    return str(exc) or default
