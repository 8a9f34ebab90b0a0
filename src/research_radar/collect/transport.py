"""A lean HTTP/1.1 transport for plain-HTTP servers, under the collect stage's client.

A run of thousands of repositories against a server on this machine or network (the
replay server, a local mirror) spends most of its HTTP time in Python: httpcore's and
h11's per-request bookkeeping cost about half a millisecond a request, more than the
request itself (#19). `PlainHttpTransport` sends `http://` requests over kept-alive
sockets of its own: it writes the request head, reads the status line and headers with a
buffered reader and the body by `Content-Length` or chunks, and hands httpx the raw body
(httpx still decodes any `Content-Encoding`, follows redirects and runs event hooks).
It is mounted for `http://` only (`plain_http_mounts`): `https://` keeps httpx's own
transport (over the internet the network dominates, and TLS stays with httpx), and a
proxy named in the environment keeps routing plain HTTP as before.

Failures map to httpx's exceptions as httpcore's do, so the retry loop
(`sources.http.send`) judges them the same way: a connection that cannot be made is a
`ConnectError`, a stalled one a `ConnectTimeout`/`ReadTimeout`/`WriteTimeout`, a body cut
short or a malformed answer a `RemoteProtocolError`.
"""

from __future__ import annotations

import select
import socket
import threading
import urllib.request
from collections.abc import Mapping
from typing import BinaryIO

import httpx

__all__ = ["PlainHttpTransport", "plain_http_mounts"]

_NO_BODY = frozenset({204, 304})
_MAX_LINE = 65_536
_RETRYABLE = frozenset({"GET", "HEAD", "OPTIONS"})
"""Methods sent again on a fresh connection when a kept-alive one turns out closed."""


Header = tuple[bytes, bytes]
Answer = tuple[int, bytes, list[Header], bytes, bool]
"""(status, reason phrase, headers, body, keep the connection alive)."""


class _Closed(Exception):
    """The server closed a connection before answering at all."""


class _Connection:
    """One socket and its buffered reader."""

    def __init__(self, host: str, port: int, timeouts: Mapping[str, float | None]):
        try:
            self.sock = socket.create_connection((host, port), timeouts.get("connect"))
        except TimeoutError as exc:
            raise httpx.ConnectTimeout(str(exc) or "connect timed out") from exc
        except OSError as exc:
            raise httpx.ConnectError(str(exc)) from exc
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.reader: BinaryIO = self.sock.makefile("rb")

    def closed_by_peer(self) -> bool:
        """An idle connection that is readable has been closed (or broken) by the server."""
        try:
            readable, _, _ = select.select([self.sock], [], [], 0)
        except (OSError, ValueError):
            return True
        return bool(readable)

    def close(self) -> None:
        self.reader.close()
        self.sock.close()

    def send(self, data: bytes, timeout: float | None) -> None:
        self.sock.settimeout(timeout)
        try:
            self.sock.sendall(data)
        except (BrokenPipeError, ConnectionResetError) as exc:
            raise _Closed from exc
        except TimeoutError as exc:
            raise httpx.WriteTimeout(str(exc) or "write timed out") from exc
        except OSError as exc:
            raise httpx.WriteError(str(exc)) from exc

    def receive(self, method: str, timeout: float | None) -> Answer:
        """(status, reason, headers, body, keep-alive) of the answer to the request sent."""
        self.sock.settimeout(timeout)
        try:
            return self._receive(method)
        except TimeoutError as exc:
            raise httpx.ReadTimeout(str(exc) or "read timed out") from exc
        except (_Closed, httpx.RemoteProtocolError):
            raise
        except (OSError, ValueError) as exc:
            raise httpx.ReadError(str(exc)) from exc

    def _receive(self, method: str) -> Answer:
        first = True
        while True:
            try:
                line = self.reader.readline(_MAX_LINE)
            except ConnectionResetError:
                if first:
                    raise _Closed from None
                raise
            if not line:
                if first:
                    raise _Closed
                raise httpx.RemoteProtocolError("server disconnected without sending a response")
            first = False
            version, status, reason = _status_line(line)
            headers = self._headers()
            if not 100 <= status < 200 or status == 101:
                break
        fields = {name.lower(): value for name, value in headers}
        connection = fields.get(b"connection", b"").lower()
        keep = b"close" not in connection and (
            version != b"HTTP/1.0" or b"keep-alive" in connection
        )
        if method == "HEAD" or status in _NO_BODY or 100 <= status < 200:
            return status, reason, headers, b"", keep
        if b"chunked" in fields.get(b"transfer-encoding", b"").lower():
            return status, reason, headers, self._chunks(), keep
        if b"content-length" in fields:
            length = _length(fields[b"content-length"])
            body = self.reader.read(length)
            if len(body) < length:
                raise httpx.RemoteProtocolError(
                    f"peer closed connection without sending complete message body "
                    f"(received {len(body)} bytes, expected {length})"
                )
            return status, reason, headers, body, keep
        return status, reason, headers, self.reader.read(), False  # delimited by the close

    def _headers(self) -> list[Header]:
        headers: list[Header] = []
        while True:
            line = self.reader.readline(_MAX_LINE)
            if not line:
                raise httpx.RemoteProtocolError("server disconnected in the middle of the headers")
            if line in (b"\r\n", b"\n"):
                return headers
            name, colon, value = line.partition(b":")
            if not colon or not name.strip():
                raise httpx.RemoteProtocolError(f"malformed header line {line[:80]!r}")
            headers.append((name.strip(), value.strip()))

    def _chunks(self) -> bytes:
        parts: list[bytes] = []
        while True:
            line = self.reader.readline(_MAX_LINE)
            size = _length(line.split(b";", 1)[0].strip(), base=16)
            if size == 0:
                self._headers()  # trailers, up to the blank line
                return b"".join(parts)
            part = self.reader.read(size)
            if len(part) < size or self.reader.readline(_MAX_LINE) not in (b"\r\n", b"\n"):
                raise httpx.RemoteProtocolError("incomplete chunked read")
            parts.append(part)


def _status_line(line: bytes) -> tuple[bytes, int, bytes]:
    parts = line.rstrip(b"\r\n").split(b" ", 2)
    if len(parts) < 2 or not parts[0].startswith(b"HTTP/") or not parts[1].isdigit():
        raise httpx.RemoteProtocolError(f"malformed status line {line[:80]!r}")
    return parts[0], int(parts[1]), parts[2] if len(parts) > 2 else b""


def _length(text: bytes, base: int = 10) -> int:
    try:
        value = int(text, base)
    except ValueError:
        value = -1
    if value < 0:
        raise httpx.RemoteProtocolError(f"malformed length {text[:40]!r}")
    return value


def plain_http_mounts() -> dict[str, httpx.BaseTransport]:
    """`mounts` for an httpx.Client: `http://` through a `PlainHttpTransport`, unless the
    environment names a proxy (the client then routes plain HTTP through it as before)."""
    return {} if urllib.request.getproxies() else {"http://": PlainHttpTransport()}


class PlainHttpTransport(httpx.BaseTransport):
    """HTTP/1.1 with keep-alive for `http://` URLs; anything else (and a streamed upload)
    through `fallback` (default `httpx.HTTPTransport()`, made when first needed). Safe to
    share between threads: each request has a connection to itself while it runs."""

    def __init__(self, fallback: httpx.BaseTransport | None = None):
        self._fallback = fallback
        self._idle: dict[tuple[str, int], list[_Connection]] = {}
        self._lock = threading.Lock()
        self._closed = False

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        url = request.url
        if url.scheme != "http" or "transfer-encoding" in request.headers:
            with self._lock:
                self._fallback = self._fallback or httpx.HTTPTransport()
            return self._fallback.handle_request(request)
        timeouts = request.extensions.get("timeout", {})
        where = (url.host, url.port or 80)
        data = _head(request) + request.read()
        while True:
            connection, reused = self._take(where, timeouts)
            try:
                connection.send(data, timeouts.get("write"))
                status, reason, headers, body, keep = connection.receive(
                    request.method, timeouts.get("read")
                )
            except _Closed:
                connection.close()
                if reused and request.method in _RETRYABLE:
                    continue  # the server had closed the kept-alive connection
                raise httpx.RemoteProtocolError(
                    "server disconnected without sending a response"
                ) from None
            except BaseException:
                connection.close()
                raise
            break
        if keep:
            self._give_back(where, connection)
        else:
            connection.close()
        return httpx.Response(
            status,
            headers=headers,
            stream=httpx.ByteStream(body),
            extensions={"http_version": b"HTTP/1.1", "reason_phrase": reason},
        )

    def _take(
        self, where: tuple[str, int], timeouts: Mapping[str, float | None]
    ) -> tuple[_Connection, bool]:
        with self._lock:
            idle = self._idle.get(where, [])
            while idle:
                connection = idle.pop()
                if not connection.closed_by_peer():
                    return connection, True
                connection.close()
        return _Connection(where[0], where[1], timeouts), False

    def _give_back(self, where: tuple[str, int], connection: _Connection) -> None:
        with self._lock:
            if not self._closed:
                self._idle.setdefault(where, []).append(connection)
                return
        connection.close()

    def close(self) -> None:
        with self._lock:
            self._closed = True
            idle = [connection for kept in self._idle.values() for connection in kept]
            self._idle.clear()
        for connection in idle:
            connection.close()
        if self._fallback is not None:
            self._fallback.close()


def _head(request: httpx.Request) -> bytes:
    """The request line and headers."""
    lines = [b"%s %s HTTP/1.1" % (request.method.encode("ascii"), request.url.raw_path)]
    lines += [b"%s: %s" % (name, value) for name, value in request.headers.raw]
    return b"\r\n".join(lines) + b"\r\n\r\n"
