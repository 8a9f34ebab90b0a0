"""One retrying GET for every HTTP source: backoff, rate limits, ETags, error mapping.

Transient failures (timeouts, broken connections, truncated bodies, 5xx) are retried with
exponential backoff and then raised as one `SourceError(retry=True)`. A primary rate limit
(403/429 with `X-RateLimit-Remaining: 0`) waits until `X-RateLimit-Reset`; a secondary
one waits `Retry-After`; both count down through `RetryPolicy.on_wait`. 401 is never
retried. Credentials are never logged: logs carry the request key only.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Protocol
from urllib.parse import urlencode

import httpx

from research_radar.errors import SourceError

__all__ = ["RawResponse", "ResponseCache", "RetryPolicy", "fetch", "next_link", "request_key"]

log = logging.getLogger(__name__)

_KEEP_HEADERS = ("etag", "link", "last-modified", "content-type", "retry-after")


@dataclass(frozen=True)
class RawResponse:
    """A response as kept in the store (and re-parsed from it)."""

    request_key: str
    """Path and sorted query, relative to the API base (stable across hosts and ports)."""
    status: int
    body: bytes
    etag: str | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    redirected_from: str | None = None
    """The path first requested, when the server answered with a redirect."""
    final_url: str = ""
    from_cache: bool = False
    """True when the server said 304 and `body` is the stored copy."""


class ResponseCache(Protocol):
    """Where earlier responses are found, for conditional requests."""

    def lookup(self, request_key: str) -> RawResponse | None: ...


@dataclass
class RetryPolicy:
    """How hard to try. Live defaults; tests pass a recording `sleep`."""

    retries: int = 3
    backoff: float = 1.0
    """Seconds before the first retry; doubled each time."""
    max_wait: float = 900.0
    """The longest rate-limit wait accepted before giving up on the source."""
    timeout: float = 30.0
    sleep: Callable[[float], None] = time.sleep
    clock: Callable[[], float] = time.time
    on_wait: Callable[[str, int], None] | None = None
    """Called once a second while waiting: (reason, seconds left)."""


def request_key(path: str, params: Mapping[str, object] | None = None) -> str:
    """`path?sorted-query`: the identity of a request in the store."""
    if not params:
        return path
    items = sorted((k, str(v)) for k, v in params.items() if v is not None)
    return f"{path}?{urlencode(items)}" if items else path


def next_link(link_header: str | None) -> str | None:
    """The rel="next" URL of a GitHub `Link` header."""
    for url, rel in re.findall(r'<([^>]+)>\s*;\s*rel="([^"]+)"', link_header or ""):
        if rel == "next":
            return str(url)
    return None


def _wait(policy: RetryPolicy, seconds: float, reason: str) -> None:
    remaining = max(0.0, seconds)
    while remaining > 0:
        if policy.on_wait is not None:
            policy.on_wait(reason, int(remaining + 0.999))
        step = min(1.0, remaining)
        policy.sleep(step)
        remaining -= step


def _rate_limit_wait(response: httpx.Response, policy: RetryPolicy) -> float | None:
    """Seconds to wait when the response is a rate limit, else None."""
    if response.status_code not in (403, 429):
        return None
    if response.headers.get("X-RateLimit-Remaining") == "0" and response.headers.get(
        "X-RateLimit-Reset"
    ):
        return max(1.0, float(response.headers["X-RateLimit-Reset"]) - policy.clock() + 1)
    if response.headers.get("Retry-After"):
        return float(response.headers["Retry-After"])
    return 60.0 if response.status_code == 429 else None


def _raw(key: str, response: httpx.Response, cached: RawResponse | None) -> RawResponse:
    headers = {k: response.headers[k] for k in _KEEP_HEADERS if k in response.headers}
    moved = next((r for r in response.history if r.status_code in (301, 302, 307, 308)), None)
    redirected = moved.request.url.path if moved is not None else None
    if response.status_code == 304 and cached is not None:
        return RawResponse(
            key, 304, cached.body, cached.etag, cached.headers, redirected, str(response.url), True
        )
    return RawResponse(
        key,
        response.status_code,
        response.content,
        response.headers.get("ETag"),
        headers,
        redirected,
        str(response.url),
    )


def fetch(
    client: httpx.Client,
    base_url: str,
    path: str,
    *,
    source: str,
    params: Mapping[str, object] | None = None,
    headers: Mapping[str, str] | None = None,
    policy: RetryPolicy | None = None,
    cache: ResponseCache | None = None,
    key: str | None = None,
) -> RawResponse:
    """GET `base_url + path`, retrying and waiting as the policy says.

    With a `cache`, an earlier ETag is sent as If-None-Match; a 304 returns the stored
    body with `from_cache=True`. Raises SourceError for anything but 2xx/304.
    """
    policy = policy or RetryPolicy()
    key = key or request_key(path, params)
    cached = cache.lookup(key) if cache is not None else None
    send = dict(headers or {})
    if cached is not None and cached.etag:
        send["If-None-Match"] = cached.etag
    url = base_url.rstrip("/") + path
    clean = {k: str(v) for k, v in (params or {}).items() if v is not None}
    attempt, waits, last = 0, 0, ""
    while True:
        try:
            response = client.get(
                url, params=clean, headers=send, timeout=policy.timeout, follow_redirects=True
            )
        except (httpx.TimeoutException, httpx.TransportError) as exc:
            last = f"{exc.__class__.__name__}: {exc}" if str(exc) else exc.__class__.__name__
        else:
            outcome = _judge(response, key, source, url, policy, waits)
            if isinstance(outcome, RawResponse) or outcome is None:
                return _raw(key, response, cached) if outcome is None else outcome
            if outcome > 0:
                waits += 1
                _wait(policy, outcome, f"{source}: rate limited")
                continue
            last = f"HTTP {response.status_code}"
        attempt += 1
        if attempt > policy.retries:
            raise SourceError(
                f"gave up after {attempt} attempts ({last}); try again later",
                source,
                key,
                retry=True,
            )
        log.info(
            "%s: %s on %s, retry %d in %.1fs",
            source,
            last,
            key,
            attempt,
            policy.backoff * 2 ** (attempt - 1),
        )
        policy.sleep(policy.backoff * 2 ** (attempt - 1))


def _judge(
    response: httpx.Response, key: str, source: str, url: str, policy: RetryPolicy, waits: int
) -> RawResponse | float | None:
    """None: accept; a float > 0: wait that long; 0.0: transient, retry; raises otherwise."""
    status = response.status_code
    if status < 300 or status == 304:
        return None
    if status == 401:
        raise SourceError(
            "bad credentials (401): the GitHub token was refused; check GITHUB_TOKEN or run `gh auth login`",
            source,
            key,
            status,
        )
    wait = _rate_limit_wait(response, policy)
    if wait is not None:
        if wait > policy.max_wait or waits >= 5:
            raise SourceError(
                f"rate limited for {wait:.0f}s; run again later", source, key, status, retry=True
            )
        return wait
    if status >= 500:
        return 0.0
    raise SourceError(f"HTTP {status} {response.reason_phrase}", source, key, status)
