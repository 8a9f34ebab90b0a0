"""One retry loop for every HTTP source: backoff, rate limits, ETags.

`send` is the loop. Transient failures (timeouts, broken connections, truncated bodies,
5xx) are retried with exponential backoff. A primary rate limit (403/429 with
`X-RateLimit-Remaining: 0`) waits until `X-RateLimit-Reset`; a secondary one waits
`Retry-After`; both count down through `RetryPolicy.on_wait`. Any other answer, 401
included, is returned at once for the caller to judge. A host that cannot be reached at
all (offline, name not resolved, connection refused) is marked down in the policy and not
asked again in the run, so an offline run fails in seconds. Credentials are never logged:
logs carry the request key only.

`fetch` is a conditional GET on top of it (arXiv and feeds use it as is, the GitHub
client with its own error mapping).
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
from research_radar.sources.stateless import StatelessClient

__all__ = [
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

log = logging.getLogger(__name__)

_KEEP_HEADERS = ("etag", "link", "last-modified", "content-type", "retry-after")
_IDEMPOTENT = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "DELETE"})
_MAX_WAITS = 5
"""Rate-limit waits for one request before it gives up."""


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
    """The longest rate-limit wait accepted before giving up on the request."""
    timeout: float = 30.0
    sleep: Callable[[float], None] = time.sleep
    clock: Callable[[], float] = time.time
    on_wait: Callable[[str, int], None] | None = None
    """Called once a second while waiting: (reason, seconds left)."""
    unreachable: dict[str, str] = field(default_factory=dict)
    """Hosts found unreachable in this run (name not resolved, connection refused), with
    why. Shared by every request made with this policy (one run), so an offline machine
    fails each source at once instead of retrying every request."""


Fail = Callable[[str, httpx.Response | None], Exception]
"""Builds the error of a request given up on: (why, the last answer if there was one)."""

Refuse = Callable[[httpx.Response, str], Exception]
"""Builds the error of an answer that is not 2xx or 304: (answer, request key)."""


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
            # a wait still running has a second left at least (never `0 s` while waiting)
            policy.on_wait(reason, max(1, int(remaining + 0.999)))
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


def send(
    client: httpx.Client,
    request: httpx.Request,
    *,
    source: str,
    key: str,
    policy: RetryPolicy,
    fail: Fail,
    recover: Callable[[], httpx.Response | None] | None = None,
) -> httpx.Response:
    """Send `request` as the policy says and return the answer, whatever its status.

    Transient failures are retried and rate limits waited out; when retries run out, or
    a rate limit lasts longer than `policy.max_wait`, `fail(why, last answer)` is raised.
    A request that may take effect twice (POST) is sent again only through `recover`,
    which looks whether the failed attempt took effect after all: it returns the answer
    to use instead, or None to send again. Without `recover` it is sent once.
    """
    once = request.method not in _IDEMPOTENT
    attempt, waits = 0, 0
    host = request.url.host
    if host in policy.unreachable:
        raise fail(f"{host} is unreachable ({policy.unreachable[host]}); not asked again", None)
    while True:
        answer, last, down = _attempt(client, request)
        if down:
            policy.unreachable[host] = last
            log.info("%s: %s is unreachable (%s); not asked again this run", source, host, last)
            raise fail(f"{host} is unreachable ({last})", None)
        wait = _rate_limit_wait(answer, policy) if answer is not None else None
        if answer is not None and wait is not None:
            if wait > policy.max_wait or waits >= _MAX_WAITS:
                raise fail(f"rate limited for {wait:.0f}s (HTTP {answer.status_code})", answer)
            waits += 1
            _wait(policy, wait, f"{source}: rate limited")
            continue
        if answer is not None and answer.status_code < 500:
            return answer
        attempt += 1
        delay = policy.backoff * 2 ** (attempt - 1)
        gave_up = f"gave up after {attempt} attempt{'s' * (attempt > 1)} ({last})"
        if once:
            if recover is None:
                raise fail(gave_up, answer)
            policy.sleep(delay)  # then look: the failed attempt may have taken effect
            found = recover()
            if found is not None:
                return found
        if attempt > policy.retries:
            raise fail(gave_up, answer)
        log.info("%s: %s on %s, retry %d in %.1fs", source, last, key, attempt, delay)
        if not once:
            policy.sleep(delay)


def _attempt(
    client: httpx.Client, request: httpx.Request
) -> tuple[httpx.Response | None, str, bool]:
    """The answer, or None and what went wrong on the way; and whether the host is down.

    A connection that could not be made at all (`httpx.ConnectError`: name not resolved,
    refused, no route) means the host is down for this run. Timeouts (a connect timeout
    included) and broken connections are transient and retried instead.
    """
    try:
        answer = client.send(request, follow_redirects=True)
    except httpx.TransportError as exc:
        why = f"{exc.__class__.__name__}: {exc}" if str(exc) else exc.__class__.__name__
        return None, why, isinstance(exc, httpx.ConnectError)
    return answer, f"HTTP {answer.status_code}", False


def _kept_headers(response: httpx.Response) -> dict[str, str]:
    """The headers of `_KEEP_HEADERS` that the answer has, a repeated one joined with ", "
    as httpx joins it; read in one pass (each `headers[name]` scans them all, #19)."""
    found: dict[str, str] = {}
    for name, value in response.headers.multi_items():
        if name in _KEEP_HEADERS:
            found[name] = f"{found[name]}, {value}" if name in found else value
    return {name: found[name] for name in _KEEP_HEADERS if name in found}


def _raw(key: str, response: httpx.Response, cached: RawResponse | None) -> RawResponse:
    headers = _kept_headers(response)
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
        headers.get("etag"),
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
    fail: Fail | None = None,
    refuse: Refuse | None = None,
) -> RawResponse:
    """GET `base_url + path` through `send`.

    With a `cache`, an earlier ETag is sent as If-None-Match; a 304 returns the stored
    body with `from_cache=True`. Anything but 2xx/304 raises `refuse(answer, key)`, and a
    request given up on `fail(why, answer)`; by default both are a SourceError naming the
    status.
    """
    policy = policy or RetryPolicy()
    key = key or request_key(path, params)
    cached = cache.lookup(key) if cache is not None else None
    send_headers = dict(headers or {})
    if cached is not None and cached.etag:
        send_headers["If-None-Match"] = cached.etag
    url = base_url.rstrip("/") + path
    pairs: dict[str, str] | None = {k: str(v) for k, v in (params or {}).items() if v is not None}
    if "?" not in url:
        # encoded here as httpx encodes `params`, which parses the URL a second time (a
        # tenth of a request's CPU against a local server, #19); a URL with a query of its
        # own (a feed's) has the params merged into it by httpx, as before
        url, pairs = url + (f"?{urlencode(pairs)}" if pairs else ""), None
    request = (
        client.build_get(url, send_headers, policy.timeout)
        if pairs is None and isinstance(client, StatelessClient)
        else client.build_request(
            "GET", url, params=pairs, headers=send_headers, timeout=policy.timeout
        )
    )
    response = send(
        client,
        request,
        source=source,
        key=key,
        policy=policy,
        fail=fail or (lambda why, answer: _given_up(why, answer, source, key)),
    )
    if response.status_code >= 300 and response.status_code != 304:
        raise (refuse or (lambda answer, at: _refused(answer, source, at)))(response, key)
    return _raw(key, response, cached)


def _given_up(why: str, answer: httpx.Response | None, source: str, key: str) -> SourceError:
    status = answer.status_code if answer is not None else None
    advice = "run again later" if status in (403, 429) else "try again later"
    return SourceError(f"{why}; {advice}", source, key, status, retry=True)


def _refused(answer: httpx.Response, source: str, key: str) -> SourceError:
    return SourceError(
        f"HTTP {answer.status_code} {answer.reason_phrase}", source, key, answer.status_code
    )
