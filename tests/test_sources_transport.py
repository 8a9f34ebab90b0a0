"""The pooled HTTP/1.1 transport: the same answers as httpx's own, and its errors."""

from __future__ import annotations

import gzip
import json
import socket
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest

from research_radar.replay.server import Fault, serve_replay
from research_radar.sources import transport as transport_module
from research_radar.sources.transport import StatelessClient, WireTransport


def test_exported_members() -> None:
    assert transport_module.__all__ == ["StatelessClient", "WireTransport"]


# -- a server that misbehaves on purpose ------------------------------------------------


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.peers: list[int] = []
        """The client port of each GET: one port, one connection."""
        self.close_after_answer = False
        """Close each connection after its answer, without saying so (a server that drops
        idle keep-alive connections)."""

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - stdlib name
        """Quiet."""

    def do_HEAD(self) -> None:
        self._answer(200, b"", {"Content-Length": "42"}, write=False)

    def do_POST(self) -> None:
        echo = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self._answer(201, echo, {"Content-Length": str(len(echo))})

    def do_GET(self) -> None:
        self.server.peers.append(self.client_address[1])
        if self.path == "/chunked":
            self.send_response(200)
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for part in (b"hello ", b"chunked ", b"world"):
                self.wfile.write(b"%x\r\n%s\r\n" % (len(part), part))
            self.wfile.write(b"0\r\n\r\n")
        elif self.path == "/until-close":  # no length: the body runs to the close
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"all of it")
            self.close_connection = True
        elif self.path == "/truncated":
            self._answer(200, b"half", {"Content-Length": "8"})
            self.close_connection = True
        elif self.path == "/gzip":
            body = gzip.compress(b'{"zipped": true}')
            self._answer(200, body, {"Content-Length": str(len(body)), "Content-Encoding": "gzip"})
        elif self.path == "/not-modified":
            self._answer(304, b"", {"ETag": '"abc"'})
        elif self.path == "/moved":
            self._answer(301, b"", {"Location": "/plain?from=moved", "Content-Length": "0"})
        elif self.path == "/cookie":
            self._answer(200, b"", {"Content-Length": "0", "Set-Cookie": "session=abc; Path=/"})
        elif self.path == "/slow":
            time.sleep(0.5)
            self._answer(200, b"late", {"Content-Length": "4"})
        else:
            body = json.dumps({"path": self.path, "accept": self.headers.get("Accept")}).encode()
            self._answer(200, body, {"Content-Length": str(len(body)), "X-Several": "a, b"})
            self.close_connection = self.server.close_after_answer

    def _answer(
        self, status: int, body: bytes, headers: dict[str, str], *, write: bool = True
    ) -> None:
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.end_headers()
        if write:
            self.wfile.write(body)


@pytest.fixture
def server() -> Iterator[_Server]:
    running = _Server()
    thread = threading.Thread(target=running.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    yield running
    running.shutdown()
    running.server_close()


@pytest.fixture
def wire() -> Iterator[httpx.Client]:
    with httpx.Client(transport=WireTransport(), timeout=2.0) as http:
        yield http


# -- answers --------------------------------------------------------------------------


def test_replay_answers_are_those_of_httpx_own_transport() -> None:
    paths = [
        "/repos/AMD-AGI/Infera",
        "/repos/AMD-AGI/Infera/commits?per_page=2",
        "/repos/AMD-AGI/Infera/readme",
        "/repos/nobody/nothing",
    ]
    with (
        serve_replay() as replay,
        httpx.Client() as plain,
        httpx.Client(transport=WireTransport()) as wire,
    ):
        for path in paths:
            mine, theirs = wire.get(replay.url + path), plain.get(replay.url + path)
            assert (mine.status_code, mine.content) == (theirs.status_code, theirs.content)
            assert mine.headers.get("etag") == theirs.headers.get("etag")
            assert mine.headers["content-type"] == theirs.headers["content-type"]
            assert mine.reason_phrase == theirs.reason_phrase


def test_a_connection_is_kept_alive_and_reused(server: _Server, wire: httpx.Client) -> None:
    answers = [wire.get(f"{server.url}/plain?n={n}").json() for n in range(5)]
    assert [a["path"] for a in answers] == [f"/plain?n={n}" for n in range(5)]
    assert len(set(server.peers)) == 1


def test_a_connection_the_server_dropped_is_replaced(server: _Server, wire: httpx.Client) -> None:
    server.close_after_answer = True
    assert [wire.get(f"{server.url}/plain").status_code for _ in range(3)] == [200, 200, 200]
    assert len(set(server.peers)) == 3


@pytest.mark.parametrize(
    ("path", "content"),
    [
        pytest.param("/chunked", b"hello chunked world", id="chunked"),
        pytest.param("/until-close", b"all of it", id="until-close"),
        pytest.param("/gzip", b'{"zipped": true}', id="gzip-decoded"),
        pytest.param("/not-modified", b"", id="304-has-no-body"),
    ],
)
def test_bodies(server: _Server, wire: httpx.Client, path: str, content: bytes) -> None:
    assert wire.get(server.url + path).content == content
    assert wire.get(f"{server.url}/plain").json()["path"] == "/plain"  # the pool still works


def test_headers_redirects_head_and_post(server: _Server, wire: httpx.Client) -> None:
    answer = wire.get(f"{server.url}/plain", headers={"Accept": "text/x-test"})
    assert answer.json()["accept"] == "text/x-test" and answer.headers["x-several"] == "a, b"
    moved = wire.get(f"{server.url}/moved", follow_redirects=True)
    assert moved.json()["path"] == "/plain?from=moved"
    assert [r.status_code for r in moved.history] == [301]
    head = wire.head(f"{server.url}/plain")
    assert head.status_code == 200 and head.content == b""
    assert wire.post(f"{server.url}/echo", content=b"payload").content == b"payload"


# -- errors ---------------------------------------------------------------------------


def test_a_body_cut_short_is_a_protocol_error(server: _Server, wire: httpx.Client) -> None:
    with pytest.raises(httpx.RemoteProtocolError, match="received 4 bytes, expected 8"):
        wire.get(f"{server.url}/truncated")


def test_a_stalled_answer_is_a_read_timeout(server: _Server) -> None:
    with httpx.Client(transport=WireTransport(), timeout=0.1) as http:
        with pytest.raises(httpx.ReadTimeout):
            http.get(f"{server.url}/slow")
        time.sleep(0.5)
        assert http.get(f"{server.url}/plain").status_code == 200


def test_a_refused_connection_is_a_connect_error(wire: httpx.Client) -> None:
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
    with pytest.raises(httpx.ConnectError):
        wire.get(f"http://127.0.0.1:{port}/")


def test_replay_faults_raise_what_httpx_raises(wire: httpx.Client) -> None:
    faults = [Fault("/repos/*/ninfer", "truncated"), Fault("/rate_limit", "timeout", delay=0.5)]
    with serve_replay(faults=faults) as replay:
        with pytest.raises(httpx.RemoteProtocolError):
            wire.get(f"{replay.url}/repos/Neroued/ninfer")
        with pytest.raises(httpx.TimeoutException):
            wire.get(f"{replay.url}/rate_limit", timeout=0.1)


def test_a_stateless_client_keeps_no_cookie(server: _Server) -> None:
    with httpx.Client(transport=WireTransport()) as kept:
        kept.get(f"{server.url}/cookie")
        assert dict(kept.cookies) == {"session": "abc"}  # httpx keeps it by default
    with StatelessClient(transport=WireTransport()) as stateless:
        assert stateless.get(f"{server.url}/cookie").headers["set-cookie"]
        assert dict(stateless.cookies) == {}
        moved = stateless.get(f"{server.url}/moved", follow_redirects=True)
        assert moved.json()["path"] == "/plain?from=moved"
