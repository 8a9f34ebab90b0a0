"""The lean plain-HTTP transport: keep-alive, bodies by length, chunks or close, and
failures mapped to httpx's exceptions, against scripted servers on loopback."""

from __future__ import annotations

import gzip
import os
import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import httpx
import pytest

from research_radar.collect import transport as lean
from research_radar.collect.transport import PlainHttpTransport, plain_http_mounts
from research_radar.replay.server import serve_replay

Script = Callable[[socket.socket, int], None]
"""script(connection, request number on it): read a request and answer it (or not)."""


def _read_request(conn: socket.socket) -> bytes:
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(65536)
        if not chunk:
            return b""
        data += chunk
    return data


@contextmanager
def scripted(script: Script) -> Iterator[tuple[str, list[int]]]:
    """A loopback server running `script` per request; yields its URL and the number of
    requests each accepted connection served."""
    listener = socket.create_server(("127.0.0.1", 0))
    served: list[int] = []

    def serve(conn: socket.socket) -> None:
        index = len(served)
        served.append(0)
        with conn:
            while True:
                try:
                    script(conn, served[index])
                except (ConnectionError, _Stop):
                    return
                served[index] += 1

    def accept() -> None:
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            threading.Thread(target=serve, args=(conn,), daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}", served
    finally:
        listener.close()


class _Stop(Exception):
    """The script closes the connection."""


def _answer(head: str, body: bytes = b"") -> Script:
    def script(conn: socket.socket, _: int) -> None:
        if not _read_request(conn):
            raise _Stop
        conn.sendall(head.encode() + b"\r\n\r\n" + body)

    return script


@pytest.fixture
def client() -> Iterator[httpx.Client]:
    with httpx.Client(mounts={"http://": PlainHttpTransport()}, timeout=2.0) as http:
        yield http


def test_exported_members() -> None:
    assert sorted(lean.__all__) == ["PlainHttpTransport", "plain_http_mounts"]


def test_keep_alive_reuses_one_connection(client: httpx.Client) -> None:
    script = _answer("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nX-Thing: a b", b"hello")
    with scripted(script) as (url, served):
        answers = [client.get(f"{url}/path?q={n}") for n in range(3)]
    assert [a.content for a in answers] == [b"hello"] * 3
    assert answers[0].headers["x-thing"] == "a b"
    assert answers[0].reason_phrase == "OK"
    assert served == [3]


def test_chunked_body_and_gzip_are_decoded(client: httpx.Client) -> None:
    packed = gzip.compress(b'{"a": 1}')
    chunks = b"".join(
        b"%x;ext=1\r\n%s\r\n" % (len(part), part) for part in (packed[:5], packed[5:])
    )
    head = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Encoding: gzip"
    with scripted(_answer(head, chunks + b"0\r\nTrailer: x\r\n\r\n")) as (url, served):
        first, second = client.get(url), client.get(url)
    assert first.json() == {"a": 1} and second.json() == {"a": 1}
    assert served == [2]


def test_not_modified_has_no_body_whatever_its_length_says(client: httpx.Client) -> None:
    with scripted(_answer('HTTP/1.1 304 Not Modified\r\nETag: "x"\r\nContent-Length: 99')) as (
        url,
        served,
    ):
        answers = [client.get(url, headers={"If-None-Match": '"x"'}) for _ in range(2)]
    assert [(a.status_code, a.content) for a in answers] == [(304, b"")] * 2
    assert served == [2]


def test_connection_close_and_body_to_the_end(client: httpx.Client) -> None:
    def script(conn: socket.socket, _: int) -> None:
        _read_request(conn)
        conn.sendall(b"HTTP/1.0 200 OK\r\n\r\nuntil the end")
        raise _Stop

    with scripted(script) as (url, served):
        answers = [client.get(url).content for _ in range(2)]
    assert answers == [b"until the end"] * 2
    assert served == [0, 0]  # a new connection each time


def test_truncated_body_is_a_protocol_error(client: httpx.Client) -> None:
    def script(conn: socket.socket, _: int) -> None:
        _read_request(conn)
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhalf")
        raise _Stop

    with scripted(script) as (url, _), pytest.raises(httpx.RemoteProtocolError):
        client.get(url)


@pytest.mark.parametrize(
    "answer",
    [
        pytest.param(b"SMTP ready\r\n\r\n", id="status-line"),
        pytest.param(b"HTTP/1.1 200 OK\r\nno colon here\r\n\r\n", id="header"),
        pytest.param(b"HTTP/1.1 200 OK\r\nContent-Length: -3\r\n\r\n", id="length"),
    ],
)
def test_malformed_answers_are_protocol_errors(client: httpx.Client, answer: bytes) -> None:
    def script(conn: socket.socket, _: int) -> None:
        _read_request(conn)
        conn.sendall(answer)
        raise _Stop

    with scripted(script) as (url, _), pytest.raises(httpx.RemoteProtocolError):
        client.get(url)


def test_a_kept_alive_connection_the_server_closed_is_replaced(client: httpx.Client) -> None:
    def script(conn: socket.socket, number: int) -> None:
        if not _read_request(conn):
            raise _Stop
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
        raise _Stop  # closes after each answer without saying so

    with scripted(script) as (url, served):
        answers = [client.get(url).content for _ in range(3)]
    assert answers == [b"ok"] * 3
    assert len(served) == 3


def test_a_silent_close_of_a_fresh_connection_is_an_error(client: httpx.Client) -> None:
    def script(conn: socket.socket, _: int) -> None:
        _read_request(conn)
        raise _Stop

    with scripted(script) as (url, _), pytest.raises(httpx.RemoteProtocolError):
        client.get(url)


def test_a_stalled_answer_times_out() -> None:
    release = threading.Event()

    def script(conn: socket.socket, _: int) -> None:
        _read_request(conn)
        release.wait(5)
        raise _Stop

    transport = PlainHttpTransport()
    with (
        scripted(script) as (url, _),
        httpx.Client(mounts={"http://": transport}, timeout=0.2) as http,
        pytest.raises(httpx.ReadTimeout),
    ):
        http.get(url)
    release.set()


def test_a_refused_connection_is_a_connect_error(client: httpx.Client) -> None:
    with socket.create_server(("127.0.0.1", 0)) as probe:
        port = probe.getsockname()[1]
    with pytest.raises(httpx.ConnectError):
        client.get(f"http://127.0.0.1:{port}/")


def test_post_sends_its_body(client: httpx.Client) -> None:
    seen: list[bytes] = []

    def script(conn: socket.socket, number: int) -> None:
        data = _read_request(conn)
        if not data:
            raise _Stop
        head, _, body = data.partition(b"\r\n\r\n")
        length = int(head.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
        while len(body) < length:
            body += conn.recv(65536)
        seen.append(head.split(b"\r\n")[0] + b" " + body)
        conn.sendall(b"HTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\n{}")

    with scripted(script) as (url, _):
        answer = client.post(f"{url}/issues?x=1", json={"body": "hi"})
    assert answer.status_code == 201
    assert seen == [b'POST /issues?x=1 HTTP/1.1 {"body":"hi"}']


def test_the_replay_server_answers_alike_through_both_transports() -> None:
    with (
        serve_replay() as server,
        httpx.Client() as plain,
        httpx.Client(mounts={"http://": PlainHttpTransport()}) as leaner,
    ):
        for path in ("/repos/Neroued/ninfer", "/repos/Neroued/ninfer/commits?per_page=2"):
            one, other = plain.get(server.url + path), leaner.get(server.url + path)
            assert (one.status_code, one.content) == (other.status_code, other.content)
            assert one.headers["etag"] == other.headers["etag"]
            assert one.headers.get("link") == other.headers.get("link")


def test_a_proxy_in_the_environment_keeps_httpx_transport(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in list(os.environ):
        if name.lower().endswith("_proxy"):
            monkeypatch.delenv(name)
    assert isinstance(plain_http_mounts()["http://"], PlainHttpTransport)
    monkeypatch.setenv("HTTP_PROXY", "http://proxy.invalid:3128")
    assert plain_http_mounts() == {}
