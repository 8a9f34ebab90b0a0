"""The GET transport of the stateless client: real loopback servers, answered as HTTP
servers answer (lengths, chunks, gzip, bodies to the close, kept-alive connections)."""

from __future__ import annotations

import gzip
import socket
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from typing import TYPE_CHECKING

import httpx
import pytest

from research_radar.sources.stateless import StatelessClient
from research_radar.sources.wire import WireTransport, wire_transport

if TYPE_CHECKING:
    from conftest import Serve


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    connections: list[int] = []

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - stdlib name
        """Quiet."""

    def setup(self) -> None:
        super().setup()
        self.connections.append(self.client_address[1])

    def _answer(self, status: int, headers: dict[str, str], body: bytes = b"") -> None:
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        if self.path == "/chunked":
            self.send_response(200)
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for part in (b"first ", b"second"):
                self.wfile.write(f"{len(part):x}\r\n".encode() + part + b"\r\n")
            self.wfile.write(b"0\r\n\r\n")
        elif self.path == "/gzip":
            body = gzip.compress(b'{"zipped": true}')
            self._answer(200, {"Content-Encoding": "gzip", "Content-Length": str(len(body))}, body)
        elif self.path == "/to-close":
            self.close_connection = True
            self._answer(200, {"Connection": "close"}, b"until the end")
        elif self.path == "/not-modified":
            self._answer(304, {"ETag": '"v1"'})
        elif self.path == "/slow":
            time.sleep(0.5)
            self._answer(200, {"Content-Length": "0"})
        elif self.path == "/drop":
            self.close_connection = True  # no answer at all
        elif self.path == "/echo":
            body = self.rfile.read(int(self.headers["Content-Length"]))
            self._answer(200, {"Content-Length": str(len(body))}, body)
        else:
            body = f"{self.command} {self.path} {self.headers['X-Probe']}".encode()
            self._answer(200, {"Content-Length": str(len(body)), "X-Kind": "plain"}, body)


@pytest.fixture
def url(serve: Serve) -> str:
    _Handler.connections = []
    return serve(_Handler)


@pytest.fixture
def client() -> Iterator[httpx.Client]:
    with httpx.Client(transport=WireTransport(), timeout=2.0) as made:
        yield made


def test_answers_come_whole_over_one_kept_alive_connection(url: str, client: httpx.Client) -> None:
    for n in range(3):
        answer = client.get(f"{url}/plain?n={n}", headers={"X-Probe": "yes"})
        assert (answer.status_code, answer.text) == (200, f"GET /plain?n={n} yes")
        assert answer.reason_phrase == "OK"
        assert answer.http_version == "HTTP/1.1"
        assert answer.headers["x-kind"] == "plain"
    assert len(_Handler.connections) == 1


def test_a_get_with_a_body_sends_it(url: str, client: httpx.Client) -> None:
    answer = client.request("GET", f"{url}/echo", content=b"asked with a body")
    assert answer.content == b"asked with a body"
    assert client.get(f"{url}/plain", headers={"X-Probe": "next"}).text == "GET /plain next"


@pytest.mark.parametrize(
    ("path", "status", "body"),
    [
        pytest.param("/chunked", 200, b"first second", id="chunked"),
        pytest.param("/gzip", 200, b'{"zipped": true}', id="gzip decoded by httpx"),
        pytest.param("/to-close", 200, b"until the end", id="body to the close"),
        pytest.param("/not-modified", 304, b"", id="304 without a body"),
    ],
)
def test_each_way_an_answer_ends_is_read(
    url: str, client: httpx.Client, path: str, status: int, body: bytes
) -> None:
    answer = client.get(url + path)
    assert (answer.status_code, answer.content) == (status, body)
    after = client.get(f"{url}/plain", headers={"X-Probe": "after"})
    assert after.text == "GET /plain after"  # the connection after it is usable


class _Impatient(_Handler):
    timeout = 0.2
    """Seconds a kept-alive connection may stay idle before the server closes it."""


def test_a_connection_the_server_closed_while_idle_is_replaced(
    url: str, client: httpx.Client, serve: Serve
) -> None:
    client.get(f"{url}/to-close")  # the server closes this one: not kept
    client.get(f"{url}/plain")
    assert len(_Handler.connections) == 2
    _Handler.connections = []
    impatient = serve(_Impatient)
    assert client.get(f"{impatient}/plain").status_code == 200
    time.sleep(0.5)  # the server has closed the idle connection meanwhile
    again = client.get(f"{impatient}/plain", headers={"X-Probe": "again"})
    assert again.text == "GET /plain again"
    assert len(_Handler.connections) == 2


def test_transport_failures_are_httpx_errors(url: str, client: httpx.Client) -> None:
    with pytest.raises(httpx.ReadTimeout):
        client.get(f"{url}/slow", timeout=0.1)
    with pytest.raises(httpx.RemoteProtocolError):
        client.get(f"{url}/drop")
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    closed.close()
    with pytest.raises(httpx.ConnectError):  # what marks a host down for the run
        client.get(f"http://127.0.0.1:{port}/")


def test_a_malformed_answer_is_a_protocol_error() -> None:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()

    def answer() -> None:
        conn, _ = server.accept()
        conn.recv(65536)
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: nope\r\n\r\n")
        conn.close()

    thread = threading.Thread(target=answer, daemon=True)
    thread.start()
    with (
        httpx.Client(transport=WireTransport(), timeout=2.0) as client,
        pytest.raises(httpx.RemoteProtocolError),
    ):
        client.get(f"http://127.0.0.1:{server.getsockname()[1]}/")
    thread.join()
    server.close()


def test_other_methods_go_to_the_fallback(url: str) -> None:
    seen: list[str] = []

    def fallback(request: httpx.Request) -> httpx.Response:
        seen.append(request.method)
        return httpx.Response(202)

    transport = WireTransport(fallback=httpx.MockTransport(fallback))
    with httpx.Client(transport=transport) as client:
        assert client.post(f"{url}/x", json={"a": 1}).status_code == 202
        assert client.get(f"{url}/plain").status_code == 200
    assert seen == ["POST"]


def test_a_proxy_in_the_environment_keeps_httpx_own_transport(
    monkeypatch: pytest.MonkeyPatch, url: str
) -> None:
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY"):
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.lower(), raising=False)
    assert isinstance(wire_transport(), WireTransport)
    monkeypatch.setenv("HTTPS_PROXY", "http://proxy.invalid:3128")
    assert wire_transport() is None
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    with StatelessClient(timeout=2.0) as client:  # the plain URL goes straight, by httpx
        assert client.get(f"{url}/plain", headers={"X-Probe": "p"}).text == "GET /plain p"


def test_httpx_own_transport_is_made_only_for_a_request_that_needs_it(url: str) -> None:
    """Making it loads the system's certificates (a TLS context, ~70 ms of CPU): a client
    whose requests are all GETs over the wire never does (#19)."""
    with StatelessClient(timeout=2.0) as client:
        transport = client._transport  # the one transport of every URL
        assert isinstance(transport, WireTransport)
        assert client.get(f"{url}/plain", headers={"X-Probe": "p"}).text == "GET /plain p"
        assert transport._fallback is None
        client.post(f"{url}/x", json={"a": 1})  # (answered however the server answers)
        assert isinstance(transport._fallback, httpx.HTTPTransport)
