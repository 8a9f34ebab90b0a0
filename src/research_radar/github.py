"""The one GitHub REST client: ETags, rate limits, retries, error mapping, any API base.

Collection (`sources/github.py`), publishing (`publish/index_issue.py`) and verification
(`review/verifiers.py`) reach GitHub only through `GitHubClient`, which sends every
request through `sources.http.send` under one `RetryPolicy`. The API base may carry a
path, as GitHub Enterprise Server's `https://HOST/api/v3` does; request keys (the store's
name for a response) stay relative to it. Every error is a `GitHubError` that keeps the
status code and GitHub's own "message". The token goes into the Authorization header
only: never into a URL, an error, a repr or a log line.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import httpx

from research_radar.errors import SourceError
from research_radar.sources.http import (
    RawResponse,
    ResponseCache,
    RetryPolicy,
    fetch,
    next_link,
    request_key,
    send,
)

__all__ = [
    "API_URL",
    "JSON_MEDIA",
    "RAW_MEDIA",
    "GitHubClient",
    "GitHubError",
    "RequestStats",
    "open_github_client",
]

API_URL = "https://api.github.com"
JSON_MEDIA = "application/vnd.github+json"
RAW_MEDIA = "application/vnd.github.raw"
"""Accept header for a file's bytes from the contents API."""

_SOURCE = "github"
_API_VERSION = "2022-11-28"
_PROBLEMS = {401: "bad credentials", 403: "forbidden", 404: "not found", 410: "gone"}
_ADVICE = {
    401: "the GitHub token was refused: check GITHUB_TOKEN or run `gh auth login`",
    403: "the token may lack access to this repository: check its permissions",
}


class GitHubError(SourceError):
    """GitHub refused a request, sent a malformed answer, or none at all.

    Args:
        problem: what failed, with the status code and GitHub's words.
        key: the request key (path and query, never the token).
        status: the status of the last answer; None without one.
        said: GitHub's own "message", with the details of a validation error; "" when
            the answer had none.
        advice: what to do next.
        retry: True when running again later may succeed.
    """

    def __init__(
        self,
        problem: str,
        key: str,
        status: int | None = None,
        *,
        said: str = "",
        advice: str = "",
        retry: bool = False,
    ):
        super().__init__(f"{problem}; {advice}" if advice else problem, _SOURCE, key, status, retry)
        self.problem = problem
        self.said = said
        self.advice = advice


@dataclass
class RequestStats:
    """Requests made, answered 304, and responses reused from the cache without a request."""

    requests: int = 0
    not_modified: int = 0
    reused: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def add(self, requests: int = 0, not_modified: int = 0, reused: int = 0) -> None:
        with self._lock:
            self.requests += requests
            self.not_modified += not_modified
            self.reused += reused


def _said(answer: httpx.Response) -> str:
    """GitHub's "message" and the details of its "errors" list; "" for another body."""
    try:
        data = json.loads(answer.content)
    except (json.JSONDecodeError, UnicodeDecodeError):
        return ""
    if not isinstance(data, dict):
        return ""
    details = [
        str(item.get("message") or " ".join(str(item.get(k, "")) for k in ("field", "code")))
        for item in data.get("errors") or []
        if isinstance(item, dict)
    ]
    return " — ".join(text.strip() for text in [str(data.get("message") or ""), *details] if text)


def _status(answer: httpx.Response, said: str) -> str:
    return f"HTTP {answer.status_code}: {said}" if said else f"HTTP {answer.status_code}"


def _refuse(answer: httpx.Response, key: str) -> GitHubError:
    """The error for an answer that is not 2xx or 304."""
    status, said = answer.status_code, _said(answer)
    if status == 403 and "rate limit" in said.lower():  # a secondary limit without Retry-After
        return GitHubError(
            f"rate limited ({_status(answer, said)})",
            key,
            status,
            said=said,
            advice="run again later",
            retry=True,
        )
    problem = _PROBLEMS.get(status) or answer.reason_phrase.lower() or "unexpected answer"
    return GitHubError(
        f"{problem} ({_status(answer, said)})",
        key,
        status,
        said=said,
        advice=_ADVICE.get(status, ""),
    )


def _give_up(why: str, answer: httpx.Response | None, key: str) -> GitHubError:
    """The error for a request given up on (retries spent, or a rate limit too long)."""
    said = _said(answer) if answer is not None else ""
    status = answer.status_code if answer is not None else None
    return GitHubError(
        f"{why}: {said}" if said else why,
        key,
        status,
        said=said,
        advice="run again later" if status in (403, 429) else "try again later",
        retry=True,
    )


def _decode(body: bytes, key: str) -> Any:
    try:
        return json.loads(body)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        detail = exc.msg if isinstance(exc, json.JSONDecodeError) else str(exc)
        raise GitHubError(f"malformed JSON ({detail})", key) from exc


class GitHubClient:
    """GitHub's REST API at `base_url`, through `http`, under one retry policy.

    Args:
        http: the connection pool; whoever made it closes it (see `open_github_client`).
        base_url: https://api.github.com, GitHub Enterprise Server's https://HOST/api/v3,
            or the replay server.
        token: sent as a Bearer token; kept out of repr.
        policy: retries, backoff, rate-limit waits and the timeout of every request.
        cache: earlier responses; a GET of one with an ETag is conditional, and its 304
            answer returns the stored body.
        stats: where requests are counted; pass one to share it between clients.
    """

    def __init__(
        self,
        http: httpx.Client,
        base_url: str = API_URL,
        token: str | None = None,
        policy: RetryPolicy | None = None,
        cache: ResponseCache | None = None,
        stats: RequestStats | None = None,
    ):
        self.http = http
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.policy = policy or RetryPolicy()
        self.cache = cache
        self.stats = stats if stats is not None else RequestStats()
        self._prefix = urlsplit(self.base_url).path

    def __repr__(self) -> str:
        return f"GitHubClient({self.base_url!r})"

    def _headers(self, accept: str) -> dict[str, str]:
        headers = {
            "Accept": accept,
            "X-GitHub-Api-Version": _API_VERSION,
            "User-Agent": "research-radar",
        }
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        return headers

    def get(
        self,
        path: str,
        params: Mapping[str, Any] | None = None,
        *,
        accept: str = JSON_MEDIA,
        reuse: bool = False,
    ) -> RawResponse:
        """GET `path` (relative to the base, e.g. /repos/OWNER/NAME).

        Args:
            reuse: answer from the cache without a request when it holds the response
                (the caller knows nothing changed since).
        """
        key = request_key(path, params)
        if reuse and self.cache is not None:
            kept = self.cache.lookup(key)
            if kept is not None:
                self.stats.add(reused=1)
                return kept
        raw = fetch(
            self.http,
            self.base_url,
            path,
            source=_SOURCE,
            params=params,
            headers=self._headers(accept),
            policy=self.policy,
            cache=self.cache,
            key=key,
            fail=lambda why, answer: _give_up(why, answer, key),
            refuse=_refuse,
        )
        self.stats.add(requests=1, not_modified=int(raw.from_cache))
        if raw.redirected_from:
            raw = replace(raw, redirected_from=raw.redirected_from.removeprefix(self._prefix))
        return raw

    def get_json(self, path: str, params: Mapping[str, Any] | None = None) -> Any:
        """GET `path` and decode its JSON."""
        raw = self.get(path, params)
        return _decode(raw.body, raw.request_key)

    def paginate(
        self,
        path: str,
        params: Mapping[str, Any] | None = None,
        *,
        max_pages: int = 10,
        reuse: bool = False,
    ) -> list[RawResponse]:
        """GET `path` and the pages its `Link: rel="next"` headers name, up to `max_pages`."""
        pages = [self.get(path, params, reuse=reuse)]
        while len(pages) < max_pages:
            link = next_link(pages[-1].headers.get("link"))
            if not link:
                break
            parts = urlsplit(link)
            following = dict(parse_qsl(parts.query))
            pages.append(self.get(parts.path.removeprefix(self._prefix), following, reuse=reuse))
        return pages

    def get_list(
        self, path: str, params: Mapping[str, Any] | None = None, *, max_pages: int = 10
    ) -> list[Any]:
        """The items of every page of a list endpoint, in order."""
        items: list[Any] = []
        for page in self.paginate(path, params, max_pages=max_pages):
            data = _decode(page.body, page.request_key)
            if not isinstance(data, list):
                raise GitHubError("the answer is not a list", page.request_key, page.status)
            items.extend(data)
        return items

    def post(
        self, path: str, payload: Any, *, recover: Callable[[], Any | None] | None = None
    ) -> Any:
        """POST `payload` as JSON to `path`; the decoded answer.

        A POST may take effect although its answer is lost, so after a 5xx or a broken
        connection it is sent again only with `recover`, which looks for what the failed
        attempt made and returns it (taken as the answer), or None to send again.
        """
        request = self.http.build_request(
            "POST",
            self.base_url + path,
            json=payload,
            headers=self._headers(JSON_MEDIA),
            timeout=self.policy.timeout,
        )

        def look() -> httpx.Response | None:
            found = recover() if recover is not None else None
            return None if found is None else httpx.Response(200, json=found, request=request)

        answer = send(
            self.http,
            request,
            source=_SOURCE,
            key=path,
            policy=self.policy,
            fail=lambda why, last: _give_up(why, last, path),
            recover=look if recover is not None else None,
        )
        if answer.status_code >= 300:
            raise _refuse(answer, path)
        self.stats.add(requests=1)
        return _decode(answer.content, path)


@contextmanager
def open_github_client(
    base_url: str = API_URL, token: str | None = None, *, policy: RetryPolicy | None = None
) -> Iterator[GitHubClient]:
    """A GitHubClient over a connection pool of its own, closed when the block ends."""
    with httpx.Client() as http:
        yield GitHubClient(http, base_url, token, policy)
