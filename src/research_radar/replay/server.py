"""A replay server: recorded GitHub REST, arXiv API and feed responses on loopback.

`serve_replay(root)` starts a stdlib `ThreadingHTTPServer` on 127.0.0.1, port 0, in a
thread, and answers in the real API shapes from a folder of recorded payloads::

    github/repos/{owner}/{name}.json          GET /repos/{owner}/{name}
    github/repos/{owner}/{name}/commits.json  GET .../commits (since/until/sha filters)
    github/repos/{owner}/{name}/readme.md     GET .../readme (base64 JSON, or raw on Accept)
    github/repos/{owner}/{name}/{pulls,issues,releases,tags}.json
    github/repos/{owner}/{name}/contents/...  GET .../contents/{path}?ref=
    github/renames.json                       {"old/name": "new/name"}: 301 like GitHub
    arxiv/*.xml                               GET /arxiv/api/query (search_query, id_list)
    feeds/*                                   GET /feeds/{file}

`GET /search/repositories` filters the recorded repositories by the query's words and
`created:`/`pushed:`/`fork:`/`repo:`/`-repo:` qualifiers. Every 200 answer carries an ETag
(a hash of the body) and `If-None-Match` gives 304; list endpoints paginate with
`per_page`/`page` and a `Link` header. `issues/{n}/comments` is an in-memory store
(GET, POST, and PATCH of `issues/comments/{id}`). `Fault`s inject timeouts, 5xx, rate
limits, 429, truncated or malformed bodies and 401 on paths matching a pattern.

This module is the server and the faults; the answers come from `replay_routes.py`.
"""

from __future__ import annotations

import email.utils
import fnmatch
import functools
import hashlib
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from http import HTTPStatus
from http.client import HTTPMessage
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType
from typing import Any
from urllib.parse import parse_qs, urlsplit

from research_radar.replay.routes import ReplayData, Reply, json_reply, route

__all__ = ["FAULT_KINDS", "Fault", "RecordedRequest", "ReplayServer", "sample_root", "serve_replay"]

FAULT_KINDS = ("timeout", "5xx", "rate-limit", "429", "truncated", "malformed", "401")


def sample_root() -> Path:
    """The bundled sample's recorded responses."""
    return Path(__file__).parent.parent / "sample" / "replay"


@dataclass
class Fault:
    """Misbehave on requests whose path matches `pattern` (fnmatch, without the query).

    Args:
        pattern: e.g. "/repos/*/ninfer*" or "/arxiv/*".
        kind: one of FAULT_KINDS.
        times: misbehave on the first `times` matching requests only (None: always).
        delay: seconds to stall for "timeout".
        status: the status of "5xx".
        retry_after: seconds in Retry-After ("429") or until X-RateLimit-Reset ("rate-limit").
    """

    pattern: str
    kind: str
    times: int | None = None
    delay: float = 2.0
    status: int = 502
    retry_after: int = 1
    hits: int = 0

    def __post_init__(self) -> None:
        if self.kind not in FAULT_KINDS:
            raise ValueError(
                f"unknown fault kind {self.kind!r}; use one of {', '.join(FAULT_KINDS)}"
            )

    def take(self, path: str) -> bool:
        """True when this request should fail (and count it)."""
        if not fnmatch.fnmatchcase(path, self.pattern):
            return False
        if self.times is not None and self.hits >= self.times:
            return False
        self.hits += 1
        return True


@dataclass(frozen=True)
class RecordedRequest:
    """One request the server saw (the Authorization header is never kept)."""

    method: str
    path: str
    query: str
    headers: dict[str, str]
    status: int


_MAX_LINE = 65_536
_MAX_HEADERS = 100


def _etag(body: bytes) -> str:
    return '"' + hashlib.sha256(body).hexdigest()[:32] + '"'


@functools.lru_cache(maxsize=2)
def _http_date(second: int) -> str:
    """The Date header of answers sent in one second (formatted once a second, #19)."""
    return email.utils.formatdate(second, usegmt=True)


# -- the request handler --------------------------------------------------------------


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    raw_requestline: bytes  # set by handle_one_request before parse_request
    fields: dict[str, str]
    """The request's headers by lower-case name (the first of a repeated one), as
    `headers.get` finds them without running the email policy on each call (#19)."""
    pairs: list[tuple[str, str]]
    """The request's headers as sent, in order."""
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True
    """TCP_NODELAY: a keep-alive reply goes out at once, not after Nagle's ~40 ms wait for
    the client's delayed ACK (issue #19)."""

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib name
        """Quiet: the server keeps its own request log."""

    def parse_request(self) -> bool:
        """The request line and headers, as the stdlib reads them but without its email
        parser (a third of the server's time per request, #19): HTTP/1.0 and 1.1 only."""
        self.command = ""
        self.request_version = self.default_request_version
        self.close_connection = True
        self.requestline = str(self.raw_requestline, "iso-8859-1").rstrip("\r\n")
        words = self.requestline.split()
        if len(words) != 3 or words[2] not in ("HTTP/1.0", "HTTP/1.1"):
            self.send_error(HTTPStatus.BAD_REQUEST, f"Bad request line ({self.requestline!r})")
            return False
        self.command, self.path, self.request_version = words
        if self.path.startswith("//"):  # as the stdlib does (an open redirect otherwise)
            self.path = "/" + self.path.lstrip("/")
        headers, self.fields, self.pairs = HTTPMessage(), {}, []
        for _ in range(_MAX_HEADERS):
            line = self.rfile.readline(_MAX_LINE + 1)
            if line in (b"\r\n", b"\n", b""):
                break
            name, colon, value = str(line, "iso-8859-1").partition(":")
            if not colon or len(line) > _MAX_LINE:
                self.send_error(HTTPStatus.BAD_REQUEST, "Malformed header line")
                return False
            value = value.strip()
            headers.set_raw(name, value)
            self.fields.setdefault(name.lower(), value)
            self.pairs.append((name, value))
        else:
            self.send_error(HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE, "Too many headers")
            return False
        self.headers = headers
        connection = self.fields.get("connection", "").lower()
        self.close_connection = connection == "close" or (
            self.request_version == "HTTP/1.0" and connection != "keep-alive"
        )
        return True

    def do_GET(self) -> None:
        self._serve("GET")

    def do_POST(self) -> None:
        self._serve("POST")

    def do_PATCH(self) -> None:
        self._serve("PATCH")

    def _serve(self, method: str) -> None:
        parts = urlsplit(self.path)
        path = parts.path.rstrip("/") or "/"
        query = {k: v[-1] for k, v in parse_qs(parts.query, keep_blank_values=True).items()}
        length = int(self.fields.get("content-length") or 0)
        payload = self.rfile.read(length) if length else b""
        fault = self.server.replay.take_fault(path)
        reply = self._fault(fault) if fault else self._route(method, path, query, payload)
        if reply.status == 200 and method == "GET" and reply.body:
            reply.headers["ETag"] = _etag(reply.body)
            if self.fields.get("if-none-match") == reply.headers["ETag"]:
                reply = Reply(304, b"", {"ETag": reply.headers["ETag"]})
        headers = {k: v for k, v in self.pairs if k.lower() != "authorization"}
        self.server.replay.log(RecordedRequest(method, path, parts.query, headers, reply.status))
        self._send(reply, truncate=bool(fault and fault.kind == "truncated"))

    def _send(self, reply: Reply, *, truncate: bool = False) -> None:
        """The status line, headers and body in one write (as `send_response`,
        `send_header` and `end_headers` would, with less of the server's time, #19)."""
        reply.headers.setdefault("X-RateLimit-Remaining", "4999")
        reply.headers.setdefault("X-RateLimit-Reset", str(int(time.time()) + 3600))
        phrase = self.responses[reply.status][0] if reply.status in self.responses else ""
        head = [
            f"{self.protocol_version} {reply.status} {phrase}",
            f"Server: {self.version_string()}",
            f"Date: {_http_date(int(time.time()))}",
            f"Content-Type: {reply.content_type}",
            f"Content-Length: {len(reply.body)}",
            "X-RateLimit-Limit: 5000",
            *(f"{name}: {value}" for name, value in reply.headers.items()),
        ]
        if truncate:
            head.append("Connection: close")
            self.close_connection = True
        body = reply.body[: len(reply.body) // 2] if truncate else reply.body
        self.wfile.write(("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body)

    def _fault(self, fault: Fault) -> Reply:
        if fault.kind == "timeout":
            time.sleep(fault.delay)
            return json_reply(504, {"message": "stalled by the replay server"})
        if fault.kind == "5xx":
            return json_reply(fault.status, {"message": "Server Error"})
        if fault.kind == "rate-limit":
            reset = str(int(time.time()) + fault.retry_after)
            headers = {"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": reset}
            return json_reply(403, {"message": "API rate limit exceeded"}, headers)
        if fault.kind == "429":
            return json_reply(
                429, {"message": "secondary rate limit"}, {"Retry-After": str(fault.retry_after)}
            )
        if fault.kind == "401":
            return json_reply(
                401,
                {"message": "Bad credentials", "documentation_url": "https://docs.github.com/rest"},
            )
        if fault.kind == "malformed":
            return Reply(200, b'{"id": 1, "full_name": "broken', {})
        return self._route("GET", urlsplit(self.path).path.rstrip("/"), {}, b"")  # truncated

    def _route(self, method: str, path: str, query: dict[str, str], payload: bytes) -> Reply:
        replay = self.server.replay
        accept = self.fields.get("accept", "")
        return route(replay.data, method, path, query, payload, base=replay.url, accept=accept)


# -- the server -------------------------------------------------------------------------


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    replay: ReplayServer

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that went away (timeouts, truncation tests) is not an error here."""
        import sys

        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class ReplayServer:
    """A running replay server. Use as a context manager, or call `close()`.

    Attributes:
        url: base URL, e.g. http://127.0.0.1:54321 (GitHub API base).
        arxiv_url: the arXiv API query URL on this server.
        requests: every request answered, in order.
    """

    def __init__(self, root: Path, faults: Sequence[Fault] = (), port: int = 0):
        self.root = root
        self.data = ReplayData(root)
        self.faults = list(faults)
        self.requests: list[RecordedRequest] = []
        self._lock = threading.Lock()
        self._server = _Server(("127.0.0.1", port), _Handler)
        self._server.replay = self
        host, bound = self._server.server_address[:2]
        self.url = f"http://{host!s}:{bound}"
        self.arxiv_url = f"{self.url}/arxiv/api/query"
        self._thread = threading.Thread(
            target=self._server.serve_forever, args=(0.05,), name="replay", daemon=True
        )
        self._thread.start()

    def feed_url(self, name: str) -> str:
        return f"{self.url}/feeds/{name}"

    def feed_names(self) -> list[str]:
        folder = self.root / "feeds"
        return sorted(p.name for p in folder.iterdir()) if folder.is_dir() else []

    def take_fault(self, path: str) -> Fault | None:
        with self._lock:
            return next((fault for fault in self.faults if fault.take(path)), None)

    def log(self, request: RecordedRequest) -> None:
        with self._lock:
            self.requests.append(request)

    def comments(self, repo: str, number: int) -> list[dict[str, Any]]:
        """Comments posted to an issue so far (for tests of the publisher)."""
        with self.data.lock:
            return list(self.data.comments.get(f"{repo.lower()}#{number}", []))

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> ReplayServer:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __iter__(self) -> Iterator[RecordedRequest]:
        return iter(list(self.requests))


def serve_replay(
    root: Path | None = None, *, faults: Sequence[Fault] | None = None, port: int = 0
) -> ReplayServer:
    """Start a replay server on 127.0.0.1 (port 0: any free port) over `root`.

    `root` defaults to the bundled sample (`sample_root()`).
    """
    return ReplayServer(root or sample_root(), faults or (), port)
