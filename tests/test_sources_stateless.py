"""The collect stage's client: httpx's, without a cookie jar."""

from __future__ import annotations

from http.server import BaseHTTPRequestHandler
from typing import TYPE_CHECKING

import httpx
import pytest

from research_radar.sources.stateless import StatelessClient

if TYPE_CHECKING:
    from conftest import Serve


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - stdlib name
        """Quiet."""

    def do_GET(self) -> None:
        if self.path == "/cookie":
            headers = {"Content-Length": "0", "Set-Cookie": "session=abc; Path=/"}
            body = b""
        elif self.path == "/moved":
            headers, body = {"Location": "/plain?from=moved", "Content-Length": "0"}, b""
            self.send_response(301)
            for name, value in headers.items():
                self.send_header(name, value)
            self.end_headers()
            return
        else:
            body = self.path.encode()
            headers = {"Content-Length": str(len(body))}
        self.send_response(200)
        for name, value in headers.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture
def url(serve: Serve) -> str:
    return serve(_Handler)


def test_a_stateless_client_keeps_no_cookie_and_still_follows_redirects(url: str) -> None:
    with httpx.Client() as kept:
        kept.get(f"{url}/cookie")
        assert dict(kept.cookies) == {"session": "abc"}  # httpx keeps it by default
    with StatelessClient(timeout=2.0) as stateless:
        assert stateless.get(f"{url}/cookie").headers["set-cookie"]
        assert dict(stateless.cookies) == {}
        stateless.cookies = {"set": "by hand"}
        assert dict(stateless.cookies) == {}
        moved = stateless.get(f"{url}/moved", follow_redirects=True)
        assert moved.text == "/plain?from=moved"


@pytest.mark.parametrize(
    ("url", "headers"),
    [
        pytest.param(
            "http://127.0.0.1:5555/repos/a/b",
            {"Accept": "application/vnd.github+json", "User-Agent": "research-radar"},
            id="api-headers",
        ),
        pytest.param(
            "http://127.0.0.1:5555/repos/a/b/commits?per_page=30&sha=main",
            {"Accept": "application/json", "If-None-Match": 'W/"abc"'},
            id="etag-and-query",
        ),
        pytest.param("https://example.org/api/query?q=abs%3A%22kv%22&start=0", {}, id="none"),
        pytest.param("/relative/path", {"Accept": "text/plain"}, id="relative"),
    ],
)
def test_build_get_is_the_request_build_request_makes(url: str, headers: dict[str, str]) -> None:
    with StatelessClient(headers={"User-Agent": "research-radar"}, timeout=2.0) as client:
        for _ in range(2):  # the second time from the merged headers it kept
            made, built = (
                client.build_request("GET", url, headers=headers, timeout=7.5),
                client.build_get(url, headers, 7.5),
            )
            assert (built.method, built.url, built.headers.raw, built.extensions) == (
                made.method,
                made.url,
                made.headers.raw,
                made.extensions,
            )
        client.headers["X-Later"] = "set after the first requests"
        assert client.build_get(url, headers, 7.5).headers.raw == (
            client.build_request("GET", url, headers=headers, timeout=7.5).headers.raw
        )


def test_build_get_merges_the_clients_base_url_as_build_request_does() -> None:
    with StatelessClient(base_url="http://127.0.0.1:5555/api", timeout=2.0) as client:
        assert client.build_get("/repos/a/b", {}, 1.0).url == "http://127.0.0.1:5555/api/repos/a/b"
