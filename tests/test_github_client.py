"""The one GitHub client, and its three users (collector, publisher, verifier).

Every test answers through an `httpx.MockTransport` handler: no network, no patching.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterator
from datetime import date
from typing import Any

import httpx
import pytest

from research_radar import github as github_module
from research_radar.errors import PublishError, SourceError
from research_radar.github import GitHubClient, GitHubError, open_github_client
from research_radar.publish.index_issue import publish_report
from research_radar.review.verifiers import GitHubVerifier, Outcome
from research_radar.sources import github as gh
from research_radar.sources.http import RawResponse, RetryPolicy

BASE = "https://api.example"
GHES = "http://ghe.example/api/v3"
TOKEN = "ghp_" + "NotARealToken0" * 3
SHA = "feedface" * 5

Handler = Callable[[httpx.Request], httpx.Response]


class Recorder:
    """A policy that records its sleeps and rate-limit countdowns instead of waiting."""

    def __init__(self) -> None:
        self.sleeps: list[float] = []
        self.waits: list[tuple[str, int]] = []

    def policy(self, **values: Any) -> RetryPolicy:
        settings: dict[str, Any] = {"backoff": 0.5, "timeout": 2.0, "clock": lambda: 1000.0}
        return RetryPolicy(
            sleep=self.sleeps.append,
            on_wait=lambda reason, left: self.waits.append((reason, left)),
            **{**settings, **values},
        )


class DictCache:
    def __init__(self) -> None:
        self.kept: dict[str, RawResponse] = {}

    def lookup(self, request_key: str) -> RawResponse | None:
        return self.kept.get(request_key)


@pytest.fixture
def rec() -> Recorder:
    return Recorder()


@pytest.fixture
def http_for() -> Iterator[Callable[[Handler], httpx.Client]]:
    """httpx clients answered by a handler function; closed after the test."""
    made: list[httpx.Client] = []

    def make(handler: Handler) -> httpx.Client:
        made.append(httpx.Client(transport=httpx.MockTransport(handler)))
        return made[-1]

    yield make
    for client in made:
        client.close()


def _answers(*replies: httpx.Response) -> tuple[Handler, list[httpx.Request]]:
    """A handler giving `replies` in turn (the last one over and over) and what it was asked."""
    asked: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        asked.append(request)
        return replies[min(len(asked), len(replies)) - 1]

    return handler, asked


def _error(status: int, message: str, **extra: Any) -> httpx.Response:
    return httpx.Response(status, json={"message": message, **extra})


def test_exported_members() -> None:
    assert sorted(github_module.__all__) == [
        "API_URL",
        "GitHubClient",
        "GitHubError",
        "JSON_MEDIA",
        "RAW_MEDIA",
        "RequestStats",
        "open_github_client",
    ]


# -- requests ---------------------------------------------------------------------------


def test_conditional_get_reuses_the_stored_body_on_304(
    http_for: Callable[[Handler], httpx.Client],
) -> None:
    asked: list[str | None] = []

    def handler(request: httpx.Request) -> httpx.Response:
        asked.append(request.headers.get("If-None-Match"))
        if request.headers.get("If-None-Match") == '"v1"':
            return httpx.Response(304, headers={"ETag": '"v1"'})
        return httpx.Response(200, json={"full_name": "a/b"}, headers={"ETag": '"v1"'})

    cache = DictCache()
    github = GitHubClient(http_for(handler), BASE, cache=cache)
    first = github.get("/repos/a/b")
    cache.kept[first.request_key] = first
    second = github.get("/repos/a/b")
    assert asked == [None, '"v1"']
    assert second.from_cache and second.status == 304 and second.body == first.body
    assert github.get("/repos/a/b", reuse=True) == first
    assert len(asked) == 2
    stats = github.stats
    assert (stats.requests, stats.not_modified, stats.reused) == (2, 1, 1)


def test_primary_rate_limit_waits_until_the_reset(
    http_for: Callable[[Handler], httpx.Client], rec: Recorder
) -> None:
    limited = _error(403, "API rate limit exceeded")  # the clock says 1000
    limited.headers.update({"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1002"})
    handler, asked = _answers(limited, httpx.Response(200, json={"ok": True}))
    github = GitHubClient(http_for(handler), BASE, policy=rec.policy())
    assert github.get_json("/rate_limit") == {"ok": True}
    assert [left for _, left in rec.waits] == [3, 2, 1]
    assert {reason for reason, _ in rec.waits} == {"github: rate limited"}
    assert len(asked) == 2


def test_secondary_rate_limit_waits_retry_after(
    http_for: Callable[[Handler], httpx.Client], rec: Recorder
) -> None:
    limited = httpx.Response(429, json={"message": "secondary"}, headers={"Retry-After": "2"})
    handler, asked = _answers(limited, httpx.Response(200, json=[]))
    GitHubClient(http_for(handler), BASE, policy=rec.policy()).get("/search/repositories")
    assert [left for _, left in rec.waits] == [2, 1] and len(asked) == 2


def test_a_rate_limit_longer_than_max_wait_is_an_error_in_githubs_words(
    http_for: Callable[[Handler], httpx.Client], rec: Recorder
) -> None:
    limited = _error(403, "API rate limit exceeded for user ID 7")
    limited.headers.update({"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "5000"})
    handler, asked = _answers(limited)
    github = GitHubClient(http_for(handler), BASE, TOKEN, rec.policy(max_wait=60.0))
    with pytest.raises(GitHubError) as caught:
        github.get("/repos/a/b")
    error = caught.value
    assert (
        error.status == 403
        and error.retry
        and error.said == "API rate limit exceeded for user ID 7"
    )
    assert "rate limited for 4001s (HTTP 403): API rate limit exceeded for user ID 7" in str(error)
    assert len(asked) == 1 and rec.waits == [] and TOKEN not in str(error)


def test_a_403_that_says_rate_limit_is_one_without_headers(
    http_for: Callable[[Handler], httpx.Client],
) -> None:
    handler, _ = _answers(_error(403, "You have exceeded a secondary rate limit."))
    with pytest.raises(GitHubError) as caught:
        GitHubClient(http_for(handler), BASE).get("/repos/a/b")
    assert caught.value.retry and "secondary rate limit" in str(caught.value)


def test_5xx_and_timeouts_are_retried_then_succeed(
    http_for: Callable[[Handler], httpx.Client], rec: Recorder
) -> None:
    asked: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        asked.append(request)
        if len(asked) == 1:
            raise httpx.ReadTimeout("stalled", request=request)
        if len(asked) < 4:
            return _error(502, "Server Error")
        return httpx.Response(200, json={"full_name": "a/b"})

    github = GitHubClient(http_for(handler), BASE, policy=rec.policy())
    assert github.get_json("/repos/a/b") == {"full_name": "a/b"}
    assert rec.sleeps == [0.5, 1.0, 2.0] and github.stats.requests == 1


def test_5xx_that_persist_end_in_one_error_in_githubs_words(
    http_for: Callable[[Handler], httpx.Client], rec: Recorder
) -> None:
    handler, asked = _answers(_error(503, "Unicorn is resting"))
    with pytest.raises(GitHubError) as caught:
        GitHubClient(http_for(handler), BASE, policy=rec.policy(retries=2)).get("/repos/a/b")
    assert caught.value.retry and caught.value.status == 503
    assert "gave up after 3 attempts (HTTP 503): Unicorn is resting" in str(caught.value)
    assert len(asked) == 3 and rec.sleeps == [0.5, 1.0]


@pytest.mark.parametrize(
    ("reply", "said"),
    [
        pytest.param(_error(401, "Bad credentials"), "Bad credentials", id="401"),
        pytest.param(
            _error(403, "Resource not accessible by integration"),
            "Resource not accessible by integration",
            id="403",
        ),
        pytest.param(_error(404, "Not Found"), "Not Found", id="404"),
        pytest.param(
            _error(422, "Validation Failed", errors=[{"field": "sha", "code": "invalid"}]),
            "Validation Failed — sha invalid",
            id="422",
        ),
        pytest.param(httpx.Response(400, text="<html>proxy</html>"), "", id="not-json"),
    ],
)
def test_errors_keep_the_status_and_githubs_message(
    http_for: Callable[[Handler], httpx.Client], rec: Recorder, reply: httpx.Response, said: str
) -> None:
    handler, asked = _answers(reply)
    with pytest.raises(GitHubError) as caught:
        GitHubClient(http_for(handler), BASE, TOKEN, rec.policy()).get("/repos/a/b")
    error = caught.value
    assert (error.status, error.said, error.retry) == (reply.status_code, said, False)
    assert f"HTTP {reply.status_code}" in str(error) and said in str(error)
    assert error.url == "/repos/a/b" and TOKEN not in str(error)
    assert len(asked) == 1 and rec.sleeps == []


def test_bad_credentials_say_what_to_do(http_for: Callable[[Handler], httpx.Client]) -> None:
    handler, _ = _answers(_error(401, "Bad credentials"))
    with pytest.raises(GitHubError, match="check GITHUB_TOKEN"):
        GitHubClient(http_for(handler), BASE, TOKEN).get("/user")


def test_malformed_json_names_the_request(http_for: Callable[[Handler], httpx.Client]) -> None:
    handler, _ = _answers(httpx.Response(200, content=b'{"full_name": "a/'))
    with pytest.raises(GitHubError, match=r"malformed JSON.*\(/repos/a/b\)") as caught:
        GitHubClient(http_for(handler), BASE).get_json("/repos/a/b")
    assert caught.value.status is None


def test_a_post_is_not_sent_twice_blindly(
    http_for: Callable[[Handler], httpx.Client], rec: Recorder
) -> None:
    handler, asked = _answers(_error(502, "Server Error"), httpx.Response(201, json={"id": 1}))
    github = GitHubClient(http_for(handler), BASE, policy=rec.policy())
    with pytest.raises(GitHubError, match=r"gave up after 1 attempt \(HTTP 502\)"):
        github.post("/repos/a/b/issues/1/comments", {"body": "x"})
    assert len(asked) == 1
    looked: list[int] = []

    def nothing_there() -> None:
        looked.append(1)

    answer = github.post("/repos/a/b/issues/1/comments", {"body": "x"}, recover=nothing_there)
    assert answer == {"id": 1} and len(asked) == 2 and looked == []


def test_a_post_after_a_lost_answer_looks_before_sending_again(
    http_for: Callable[[Handler], httpx.Client], rec: Recorder
) -> None:
    handler, asked = _answers(_error(502, "Server Error"), httpx.Response(201, json={"id": 2}))
    github = GitHubClient(http_for(handler), BASE, policy=rec.policy())
    looks: list[dict[str, Any] | None] = [None, {"id": 1, "found": True}]
    assert github.post("/x", {"body": "x"}, recover=lambda: looks.pop(0)) == {"id": 2}
    handler, asked = _answers(_error(502, "Server Error"))
    github = GitHubClient(http_for(handler), BASE, policy=rec.policy())
    looks = [{"id": 1, "found": True}]
    assert github.post("/x", {"body": "x"}, recover=lambda: looks.pop(0)) == {
        "id": 1,
        "found": True,
    }
    assert len(asked) == 1


def test_token_is_sent_as_a_header_only(http_for: Callable[[Handler], httpx.Client]) -> None:
    handler, asked = _answers(httpx.Response(200, json={}))
    github = GitHubClient(http_for(handler), BASE, TOKEN)
    github.get("/repos/a/b", {"per_page": 5})
    headers = asked[0].headers
    assert headers["Authorization"] == f"Bearer {TOKEN}"
    assert headers["Accept"] == "application/vnd.github+json"
    assert headers["X-GitHub-Api-Version"] == "2022-11-28"
    assert TOKEN not in str(asked[0].url) and TOKEN not in repr(github)


def test_open_github_client_closes_its_pool() -> None:
    with open_github_client(BASE, TOKEN) as github:
        assert not github.http.is_closed
    assert github.http.is_closed


# -- GitHub Enterprise Server: an API base with a path ----------------------------------------


def _enterprise(asked: list[httpx.Request]) -> Handler:
    """A GitHub Enterprise Server answering only under /api/v3."""
    comments: list[dict[str, Any]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        asked.append(request)
        path = request.url.path
        if not path.startswith("/api/v3/"):
            return _error(404, "Not Found (outside /api/v3)")
        path = path.removeprefix("/api/v3")
        if path == "/repos/old/name":
            return httpx.Response(301, headers={"Location": f"{GHES}/repos/a/b"})
        if path == "/repos/a/b":
            return httpx.Response(200, json={"full_name": "a/b", "default_branch": "main"})
        if path == f"/repos/a/b/commits/{SHA}":
            return httpx.Response(200, json={"sha": SHA, "commit": {"committer": {}}})
        if path == "/repos/a/b/commits":
            page = int(request.url.params.get("page", "1"))
            headers = {}
            if page == 1:
                headers["Link"] = f'<{GHES}/repos/a/b/commits?per_page=1&page=2>; rel="next"'
            return httpx.Response(200, json=[{"sha": f"{page}" * 40}], headers=headers)
        if path == "/repos/a/b/issues/1/comments" and request.method == "POST":
            comments.append(json.loads(request.content))
            return httpx.Response(201, json={"id": 9, "html_url": "http://ghe.example/c/9"})
        if path == "/repos/a/b/issues/1/comments":
            return httpx.Response(200, json=comments)
        return _error(404, "Not Found")

    return handler


def test_enterprise_base_url_with_a_path_is_honoured(
    http_for: Callable[[Handler], httpx.Client], rec: Recorder
) -> None:
    asked: list[httpx.Request] = []
    api = gh.GitHubApi(http_for(_enterprise(asked)), GHES, TOKEN, rec.policy())
    moved = gh.fetch_repo(api, "old/name")
    assert moved.request_key == "/repos/old/name"
    assert moved.redirected_from == "/repos/old/name"
    pages = gh.fetch_commits(api, "a/b", per_page=1, max_pages=5)
    assert [page.request_key for page in pages] == [
        "/repos/a/b/commits?per_page=1",
        "/repos/a/b/commits?page=2&per_page=1",
    ]
    verifier = GitHubVerifier(api.github)
    assert verifier.commit("a/b", SHA).outcome is Outcome.FOUND
    published = publish_report(
        api.github,
        target="a/b#1",
        markdown="## 2026-11-30\n\nnothing new\n",
        report_date=date(2026, 11, 30),
        dry_run=False,
    )
    assert published.posted == 1
    assert all(request.url.path.startswith("/api/v3/") for request in asked)
    assert {request.url.host for request in asked} == {"ghe.example"}


# -- the three users keep GitHub's message -------------------------------------------------

_REFUSALS = [
    pytest.param(401, {"message": "Bad credentials"}, "Bad credentials", id="401"),
    pytest.param(
        404, {"message": "No commit found for SHA: feedface"}, "No commit found", id="404"
    ),
    pytest.param(
        422,
        {"message": "Validation Failed", "errors": [{"message": "body is too long"}]},
        "Validation Failed — body is too long",
        id="422",
    ),
]


def _refusing(status: int, body: dict[str, Any]) -> Handler:
    return lambda request: httpx.Response(status, json=body)


@pytest.mark.parametrize(("status", "body", "said"), _REFUSALS)
def test_the_collector_keeps_githubs_message(
    http_for: Callable[[Handler], httpx.Client],
    rec: Recorder,
    status: int,
    body: dict[str, Any],
    said: str,
) -> None:
    api = gh.GitHubApi(http_for(_refusing(status, body)), BASE, TOKEN, rec.policy())
    with pytest.raises(SourceError) as caught:
        gh.fetch_repo(api, "a/b")
    assert caught.value.status == status
    assert said in str(caught.value) and f"HTTP {status}" in str(caught.value)


@pytest.mark.parametrize(("status", "body", "said"), _REFUSALS)
def test_the_publisher_keeps_githubs_message(
    http_for: Callable[[Handler], httpx.Client],
    rec: Recorder,
    status: int,
    body: dict[str, Any],
    said: str,
) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        if status == 422 and request.method == "GET":  # the comment itself is refused
            return httpx.Response(200, json=[])
        return httpx.Response(status, json=body)

    github = GitHubClient(http_for(handler), BASE, TOKEN, rec.policy())
    with pytest.raises(PublishError) as caught:
        publish_report(
            github,
            target="a/b#1",
            markdown="## 2026-11-30\n\nnothing new\n",
            report_date=date(2026, 11, 30),
            dry_run=False,
        )
    assert caught.value.status == status
    assert said in str(caught.value) and f"{status}: " in str(caught.value)
    assert TOKEN not in str(caught.value)


@pytest.mark.parametrize(("status", "body", "said"), _REFUSALS)
def test_the_verifier_keeps_githubs_message(
    http_for: Callable[[Handler], httpx.Client],
    rec: Recorder,
    caplog: pytest.LogCaptureFixture,
    status: int,
    body: dict[str, Any],
    said: str,
) -> None:
    """The verifier never raises: 404/422 mean absent, anything else unreachable; both logged."""
    github = GitHubClient(http_for(_refusing(status, body)), BASE, TOKEN, rec.policy())
    with caplog.at_level(logging.DEBUG, logger="research_radar.review.verifiers"):
        found = GitHubVerifier(github).commit("a/b", "feedface")
    assert found.outcome is (Outcome.UNREACHABLE if status == 401 else Outcome.ABSENT)
    logged = [r.getMessage() for r in caplog.records if r.name.endswith("verifiers")]
    assert any(said in line and f"HTTP {status}" in line for line in logged), logged
    assert TOKEN not in caplog.text
