"""An httpx transport for the GET requests of a stateless API: keep-alive HTTP/1.1 over
plain sockets, answers parsed by httptools (llhttp, in C).

httpx's own transport reads every answer through h11 and httpcore's pool in Python:
about three fifths of a request's CPU against a local replay server, and the collect
stage sends four requests a repository (#19). Here a request is written as one buffer and
the answer fed to httptools as it arrives; the body is read whole, and httpx decodes its
`Content-Encoding` as it does any transport's. Only GET is sent this way: any other method
goes to httpx's own transport, as does everything when the environment names a proxy
(`wire_transport`), so proxy settings keep working as httpx reads them. httpx's own
transport is made only when a request needs it: making one loads the system's
certificates into a TLS context, about 70 ms of CPU, which a run whose requests are all
GETs never needs (#19).
"""

from __future__ import annotations

import socket
import ssl
import threading
import urllib.request
from typing import Any

import httptools
import httpx

__all__ = ["WireTransport", "wire_transport"]

_RECEIVE = 65_536
_IDLE_MAX = 16
"""Idle connections kept per origin."""

Origin = tuple[str, str, int]


class _Answer:
    """What httptools says of one answer, as it arrives (its callbacks' object)."""

    def __init__(self) -> None:
        self.parser = httptools.HttpResponseParser(self)
        self.reason = bytearray()
        self.headers: list[tuple[bytes, bytes]] = []
        self.body: list[bytes] = []
        self.headed = False
        self.done = False
        self.keep_alive = False
        """Read when the answer is complete (the parser forgets it afterwards)."""

    def on_status(self, status: bytes) -> None:
        self.reason += status

    def on_header(self, name: bytes, value: bytes) -> None:
        self.headers.append((name, value))

    def on_headers_complete(self) -> None:
        self.headed = True

    def on_body(self, body: bytes) -> None:
        self.body.append(body)

    def on_message_complete(self) -> None:
        self.done = True
        self.keep_alive = self.parser.should_keep_alive()

    def delimited(self) -> bool:
        """Whether the body has a length of its own (else it ends when the server closes)."""
        names = {name.lower() for name, _ in self.headers}
        return b"content-length" in names or b"transfer-encoding" in names


class _Stale(Exception):
    """A kept-alive connection the server had closed before the request: send again."""


class WireTransport(httpx.BaseTransport):
    """GET over kept-alive sockets with httptools; other methods through `fallback`.

    Thread-safe: each request takes a connection of its own from the idle ones (or opens
    one) and gives it back once the answer is read whole.
    """

    def __init__(self, fallback: httpx.BaseTransport | None = None) -> None:
        """`fallback`: default httpx's own transport, made on the first request for it."""
        self._fallback = fallback
        self._idle: dict[Origin, list[socket.socket]] = {}
        self._lock = threading.Lock()
        self._tls: ssl.SSLContext | None = None

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if request.method != "GET" or request.url.scheme not in ("http", "https"):
            return self._fallback_transport().handle_request(request)
        timeout = request.extensions.get("timeout", {})
        origin = (request.url.scheme, request.url.host, request.url.port or _port(request))
        message = _message(request)
        sock = self._take(origin)
        if sock is not None:
            try:
                return self._exchange(origin, sock, message, timeout, request, reused=True)
            except _Stale:
                pass  # the server closed it while it was idle: once more on a new one
        sock = self._connect(origin, timeout)
        return self._exchange(origin, sock, message, timeout, request, reused=False)

    def _exchange(
        self,
        origin: Origin,
        sock: socket.socket,
        message: bytes,
        timeout: dict[str, Any],
        request: httpx.Request,
        *,
        reused: bool,
    ) -> httpx.Response:
        """Send `message` on `sock` and read the answer; `_Stale` when a `reused`
        connection turns out closed before any of the answer came."""
        answer = _Answer()
        keep = sent = False
        try:
            sock.settimeout(timeout.get("write"))
            sock.sendall(message)
            sent = True
            sock.settimeout(timeout.get("read"))
            keep = _receive(sock, answer)
        except _Stale as exc:
            sock.close()
            if reused:
                raise
            raise httpx.RemoteProtocolError(
                "the server closed the connection without answering", request=request
            ) from exc
        except TimeoutError as exc:
            sock.close()
            late = httpx.ReadTimeout if sent else httpx.WriteTimeout
            raise late(str(exc) or "timed out", request=request) from exc
        except httptools.HttpParserError as exc:
            sock.close()
            raise httpx.RemoteProtocolError(str(exc), request=request) from exc
        except OSError as exc:
            sock.close()
            if reused and not answer.reason and not answer.headed:
                raise _Stale from exc  # reset or broken pipe on a connection kept idle
            raise httpx.ReadError(str(exc), request=request) from exc
        if keep and answer.keep_alive:
            self._give_back(origin, sock)
        else:
            sock.close()
        return httpx.Response(
            answer.parser.get_status_code(),
            headers=answer.headers,
            stream=httpx.ByteStream(b"".join(answer.body)),
            extensions={
                "http_version": b"HTTP/" + answer.parser.get_http_version().encode("ascii"),
                "reason_phrase": bytes(answer.reason),
            },
        )

    def _connect(self, origin: Origin, timeout: dict[str, Any]) -> socket.socket:
        scheme, host, port = origin
        try:
            sock = socket.create_connection((host, port), timeout=timeout.get("connect"))
        except TimeoutError as exc:
            raise httpx.ConnectTimeout(str(exc) or "timed out") from exc
        except OSError as exc:
            raise httpx.ConnectError(str(exc)) from exc
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        if scheme == "https":
            try:
                sock = self._context().wrap_socket(sock, server_hostname=host)
            except TimeoutError as exc:
                sock.close()
                raise httpx.ConnectTimeout(str(exc) or "timed out") from exc
            except OSError as exc:  # ssl.SSLError included
                sock.close()
                raise httpx.ConnectError(str(exc)) from exc
        return sock

    def _context(self) -> ssl.SSLContext:
        if self._tls is None:
            self._tls = httpx.create_ssl_context()
        return self._tls

    def _fallback_transport(self) -> httpx.BaseTransport:
        with self._lock:
            if self._fallback is None:
                self._fallback = httpx.HTTPTransport()
            return self._fallback

    def _take(self, origin: Origin) -> socket.socket | None:
        with self._lock:
            idle = self._idle.get(origin)
            return idle.pop() if idle else None

    def _give_back(self, origin: Origin, sock: socket.socket) -> None:
        with self._lock:
            idle = self._idle.setdefault(origin, [])
            if len(idle) < _IDLE_MAX:
                idle.append(sock)
                return
        sock.close()

    def close(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, {}
        for sockets in idle.values():
            for sock in sockets:
                sock.close()
        if self._fallback is not None:
            self._fallback.close()


def _port(request: httpx.Request) -> int:
    return 443 if request.url.scheme == "https" else 80


def _message(request: httpx.Request) -> bytes:
    """The request line, headers (httpx has set Host, and the length of a body) and body,
    as one buffer."""
    lines = [b"GET " + request.url.raw_path + b" HTTP/1.1"]
    lines += [name + b": " + value for name, value in request.headers.raw]
    return b"\r\n".join(lines) + b"\r\n\r\n" + request.read()


def _receive(sock: socket.socket, answer: _Answer) -> bool:
    """Feed the answer to its parser until it is complete; whether the connection may be
    used again. An answer whose body runs to the close of the connection ends there."""
    while not answer.done:
        data = sock.recv(_RECEIVE)
        if not data:
            if not answer.headed and not answer.reason:
                raise _Stale  # nothing came back: the server had closed the connection
            if answer.headed and not answer.delimited():
                return False
            raise httptools.HttpParserError("the server closed the connection mid-answer")
        answer.parser.feed_data(data)
    return True


def wire_transport() -> WireTransport | None:
    """The transport of a client whose GETs go over the wire, or None (httpx's own
    transport) when the environment names a proxy."""
    return None if urllib.request.getproxies() else WireTransport()
