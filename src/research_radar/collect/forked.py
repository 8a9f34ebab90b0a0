"""Repositories fetched on two cores: a long list's second half by a forked process (#19).

Fetching is Python work (HTTP, JSON, parsing) that the fetching threads of one process do
one at a time. From `FORK_MIN` repositories on, and only with a client the collect stage
made itself (so an equal one can be made), a forked copy of the process fetches the
second half with its own client and threads while this one fetches the first; what it
found, its request counts and its failures come back in order.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, replace

import httpx

from research_radar.errors import SourceError
from research_radar.github import RequestStats
from research_radar.models import Snapshot, Source
from research_radar.sources import github as gh
from research_radar.sources.http import RawResponse

__all__ = ["FORK_MIN", "Fetch", "Repo", "fetch_repos"]

FORK_MIN = 400
"""Repositories from which the second half is fetched by a forked process."""
THREADS = 4
"""Fetching threads of each process."""

Repo = tuple[list[RawResponse], Source, Snapshot | None]
"""A repository's raw responses, source and snapshot."""
Fetch = Callable[[gh.GitHubApi, str], Repo]
"""fetch(api, owner/name): one repository (raises SourceError)."""


@dataclass(frozen=True)
class _Failure:
    """A SourceError as the forked process saw it (SourceError itself does not pickle)."""

    text: str
    source: str
    url: str | None
    status: int | None
    retry: bool

    def error(self) -> SourceError:
        error = SourceError("", self.source, self.url, self.status, self.retry)
        error.args = (self.text,)
        return error


@dataclass(frozen=True)
class _Half:
    """What the forked process fetched, with its request counts."""

    results: list[tuple[str, Repo | _Failure]]
    requests: int
    not_modified: int
    reused: int
    sent: int
    """HTTP requests its client sent (retries and redirects included)."""


_FORKED: list[tuple[gh.GitHubApi, Fetch, Callable[[], httpx.Client]]] = []
"""What the forked process inherits: the API, the fetch and how to make its own client."""


def _threaded(
    api: gh.GitHubApi, fetch: Fetch, names: list[str]
) -> Iterator[tuple[str, Repo | SourceError]]:
    """(name, repository or SourceError) in order; a 401 is raised (no token helps)."""

    def one(name: str) -> tuple[str, Repo | SourceError]:
        try:
            return name, fetch(api, name)
        except SourceError as exc:
            if exc.status == 401:
                raise
            return name, exc

    with ThreadPoolExecutor(max_workers=THREADS) as pool:
        yield from pool.map(one, names)


def _fetch_half(names: list[str]) -> _Half:
    """In the forked process: fetch `names` with a client of its own."""
    api, fetch, make_client = _FORKED[-1]
    store = getattr(api.cache, "store", None)  # a StoreCache reads the store
    if store is not None:
        store.engine.dispose(close=False)  # the parent's connections stay the parent's
    sent = [0]
    lock = threading.Lock()

    def count(request: httpx.Request) -> None:
        with lock:
            sent[0] += 1

    client = make_client()
    client.event_hooks["request"] = [count]
    own = replace(api, client=client, stats=RequestStats())
    results: list[tuple[str, Repo | _Failure]] = []
    try:
        for name, result in _threaded(own, fetch, names):
            if isinstance(result, SourceError):
                results.append((name, _failure(result)))
            else:
                results.append((name, result))
    except SourceError as exc:  # a 401: the parent raises it when it reaches the name
        results.append((names[len(results)], _failure(exc)))
    finally:
        client.close()
    stats = own.stats
    return _Half(results, stats.requests, stats.not_modified, stats.reused, sent[0])


def _failure(exc: SourceError) -> _Failure:
    return _Failure(str(exc), exc.source, exc.url, exc.status, exc.retry)


def fetch_repos(
    api: gh.GitHubApi,
    fetch: Fetch,
    names: list[str],
    make_client: Callable[[], httpx.Client] | None,
    on_sent: Callable[[int], None],
    *,
    minimum: int = FORK_MIN,
) -> Iterator[tuple[str, Repo | SourceError]]:
    """(name, repository or SourceError) of each name, in order; a 401 is raised.

    With `make_client` and at least `minimum` names on a machine of several cores with
    fork, the second half is fetched by a forked process; its requests are added to
    `api.stats` and its sent requests reported through `on_sent`.
    """
    fork = "fork" in multiprocessing.get_all_start_methods()
    if make_client is None or len(names) < minimum or not fork or (os.cpu_count() or 1) < 2:
        yield from _threaded(api, fetch, names)
        return
    half = len(names) // 2
    _FORKED.append((api, fetch, make_client))
    try:
        context = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(max_workers=1, mp_context=context) as pool:
            second = pool.submit(_fetch_half, names[half:])
            yield from _threaded(api, fetch, names[:half])
            other = second.result()
    finally:
        _FORKED.pop()
    api.stats.add(other.requests, other.not_modified, other.reused)
    on_sent(other.sent)
    for name, result in other.results:
        if isinstance(result, _Failure):
            error = result.error()
            if error.status == 401:
                raise error
            yield name, error
        else:
            yield name, result
