"""The shared retrying GET against the replay server's faults."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest

from research_radar.errors import SourceError
from research_radar.replay.server import Fault, serve_replay
from research_radar.sources import http as radar_http
from research_radar.sources.http import RawResponse, RetryPolicy, fetch, next_link, request_key

NOW = datetime(2026, 11, 30, tzinfo=UTC)


class Recorder:
    def __init__(self) -> None:
        self.sleeps: list[float] = []
        self.waits: list[tuple[str, int]] = []

    def policy(self, **values: float) -> RetryPolicy:
        settings = {"backoff": 0.01, "timeout": 2.0, **values}
        return RetryPolicy(
            sleep=self.sleeps.append,
            on_wait=lambda reason, left: self.waits.append((reason, left)),
            **settings,  # type: ignore[arg-type]
        )


@pytest.fixture
def client() -> Iterator[httpx.Client]:
    with httpx.Client() as http:
        yield http


def test_exported_members() -> None:
    assert sorted(radar_http.__all__) == [
        "Fail",
        "RawResponse",
        "Refuse",
        "ResponseCache",
        "RetryPolicy",
        "fetch",
        "next_link",
        "request_key",
        "send",
    ]


def test_request_key_is_sorted_and_host_free() -> None:
    assert request_key("/repos/a/b/commits", {"sha": "main", "per_page": 30, "since": None}) == (
        "/repos/a/b/commits?per_page=30&sha=main"
    )


def test_next_link() -> None:
    header = '<http://x/a?page=2>; rel="next", <http://x/a?page=5>; rel="last"'
    assert next_link(header) == "http://x/a?page=2"
    assert next_link(None) is None


@pytest.mark.parametrize(
    ("path", "params"),
    [
        pytest.param("/repos/a/b/commits", {"sha": "main", "per_page": 30, "x": None}, id="plain"),
        pytest.param("/q", {"a": "é/中文?&=#%", "b": "[]@!$'()*,; +"}, id="reserved"),
        pytest.param("/docs/a b.md", {}, id="no-params"),
        pytest.param("/feed?format=rss&x=a%20b", {"page": 2}, id="own-query"),
    ],
)
def test_the_query_is_sent_as_httpx_encodes_params(path: str, params: dict[str, object]) -> None:
    seen: list[str] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(str(request.url))
        return httpx.Response(200, content=b"{}")

    with httpx.Client(transport=httpx.MockTransport(answer)) as http:
        fetch(http, "http://h.test/api/", path, source="t", params=params)
        kept = {k: str(v) for k, v in params.items() if v is not None}
        expected = http.build_request("GET", "http://h.test/api" + path, params=kept).url
    assert seen == [str(expected)]


@pytest.mark.parametrize("kind", ["5xx", "truncated"])
def test_transient_faults_are_retried(kind: str, client: httpx.Client) -> None:
    rec = Recorder()
    with serve_replay(faults=[Fault("/repos/*", kind, times=2)]) as server:
        raw = fetch(
            client, server.url, "/repos/AMD-AGI/Infera", source="github", policy=rec.policy()
        )
    assert raw.status == 200 and b"AMD-AGI/Infera" in raw.body
    assert rec.sleeps == [0.01, 0.02]


def test_timeout_is_retried(client: httpx.Client) -> None:
    rec = Recorder()
    with serve_replay(faults=[Fault("/rate_limit", "timeout", times=1, delay=0.4)]) as server:
        raw = fetch(
            client, server.url, "/rate_limit", source="github", policy=rec.policy(timeout=0.1)
        )
    assert raw.status == 200 and rec.sleeps == [0.01]


def test_persistent_5xx_gives_up(client: httpx.Client) -> None:
    rec = Recorder()
    with (
        serve_replay(faults=[Fault("/repos/*", "5xx")]) as server,
        pytest.raises(SourceError) as caught,
    ):
        fetch(
            client,
            server.url,
            "/repos/AMD-AGI/Infera",
            source="github",
            policy=rec.policy(retries=2),
        )
    assert caught.value.retry and "gave up after 3 attempts (HTTP 502)" in str(caught.value)


def test_rate_limit_waits_with_countdown(client: httpx.Client) -> None:
    rec = Recorder()
    with serve_replay(faults=[Fault("/repos/*", "rate-limit", times=1, retry_after=3)]) as server:
        raw = fetch(
            client, server.url, "/repos/AMD-AGI/Infera", source="github", policy=rec.policy()
        )
    assert raw.status == 200
    lefts = [left for _, left in rec.waits]
    assert lefts[0] >= 3 and lefts == sorted(lefts, reverse=True) and lefts[-1] == 1
    assert all(reason == "github: rate limited" for reason, _ in rec.waits)


def test_retry_after(client: httpx.Client) -> None:
    rec = Recorder()
    with serve_replay(faults=[Fault("/repos/*", "429", times=1, retry_after=2)]) as server:
        fetch(client, server.url, "/repos/AMD-AGI/Infera", source="github", policy=rec.policy())
    assert [left for _, left in rec.waits] == [2, 1]


def test_rate_limit_too_long_is_an_error(client: httpx.Client) -> None:
    rec = Recorder()
    with (
        serve_replay(faults=[Fault("/repos/*", "429", retry_after=5000)]) as server,
        pytest.raises(SourceError) as caught,
    ):
        fetch(client, server.url, "/repos/AMD-AGI/Infera", source="github", policy=rec.policy())
    assert caught.value.status == 429 and "rate limited" in str(caught.value)


def test_unauthorized_is_not_retried(client: httpx.Client) -> None:
    rec = Recorder()
    with (
        serve_replay(faults=[Fault("/repos/*", "401")]) as server,
        pytest.raises(SourceError) as caught,
    ):
        fetch(
            client,
            server.url,
            "/repos/AMD-AGI/Infera",
            source="feeds",
            policy=rec.policy(),
            headers={"Authorization": "Bearer wrong"},
        )
    assert caught.value.status == 401 and "HTTP 401 Unauthorized" in str(caught.value)
    assert "wrong" not in str(caught.value) and rec.sleeps == []
    assert len(server.requests) == 1


def test_not_found_is_an_error(client: httpx.Client) -> None:
    with serve_replay() as server, pytest.raises(SourceError) as caught:
        fetch(
            client, server.url, "/repos/nobody/nothing", source="github", policy=Recorder().policy()
        )
    assert caught.value.status == 404


class DictCache:
    def __init__(self) -> None:
        self.kept: dict[str, RawResponse] = {}

    def lookup(self, request_key: str) -> RawResponse | None:
        return self.kept.get(request_key)


def test_conditional_request_returns_stored_body(client: httpx.Client) -> None:
    cache = DictCache()
    with serve_replay() as server:
        first = fetch(client, server.url, "/repos/AMD-AGI/Infera", source="github", cache=cache)
        cache.kept[first.request_key] = first
        second = fetch(client, server.url, "/repos/AMD-AGI/Infera", source="github", cache=cache)
        assert server.requests[-1].status == 304
    assert second.from_cache and second.status == 304 and second.body == first.body


def _closed_port() -> int:
    """A loopback port nobody listens on: connecting is refused at once."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_an_unreachable_host_is_not_retried_and_not_asked_again(client: httpx.Client) -> None:
    slept: list[float] = []
    policy = RetryPolicy(retries=3, backoff=1.0, sleep=slept.append)
    base = f"http://127.0.0.1:{_closed_port()}"
    with pytest.raises(SourceError, match="is unreachable") as first:
        fetch(client, base, "/a", source="github", policy=policy)
    assert "ConnectError" in str(first.value) and slept == []
    assert "127.0.0.1" in policy.unreachable
    with pytest.raises(SourceError, match="not asked again"):
        fetch(client, base, "/b", source="github", policy=policy)


def test_an_offline_collection_fails_every_source_in_seconds(tmp_path: Path) -> None:
    """No network: each source fails at once (live retry policy, real sleeps)."""
    import time

    from research_radar.collect.stage import collect
    from research_radar.config import ArxivSettings, GitHubSettings, Settings
    from research_radar.store.store import open_store

    base = f"http://127.0.0.1:{_closed_port()}"
    settings = Settings(
        github_api_url=base,
        arxiv_api_url=f"{base}/arxiv/api/query",
        feeds=(f"{base}/feed.xml",),
        github=GitHubSettings(queries=tuple(f"query {n}" for n in range(12))),
        arxiv=ArxivSettings(queries=("all:inference", "all:decoding"), delay=0.0),
    )
    store = open_store(str(tmp_path / "radar.db"))
    started = time.monotonic()
    summary = collect(store, settings, since=NOW - timedelta(days=1), until=NOW)
    assert time.monotonic() - started < 10
    assert {name: health.status for name, health in summary.sources.items()} == {
        "github": "failed",
        "arxiv": "failed",
        "feeds": "failed",
    }
    assert all("unreachable" in h.errors[0] for h in summary.sources.values())
