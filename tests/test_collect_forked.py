"""Repositories fetched on two cores: a forked half finds what one process finds."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator

import httpx
import pytest

from research_radar.collect.collectors import _gh_repo
from research_radar.collect.forked import fetch_repos
from research_radar.collect.storecache import StoreCache
from research_radar.errors import SourceError
from research_radar.replay.server import Fault, ReplayServer, serve_replay
from research_radar.sources import github as gh
from research_radar.sources.http import RetryPolicy
from research_radar.store.store import Store

pytestmark = pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="forks on two cores only")

NAMES = [
    "AMD-AGI/Infera",
    "IntelLabs/Xe-Forge",
    "nobody/missing",
    "L-Forster/open-jet",
    "NVIDIA/NeMo-Speech.cpp",
    "Neroued/ninfer",
]


def _client() -> httpx.Client:
    return httpx.Client(headers={"User-Agent": "research-radar"}, timeout=5.0)


def _api(store: Store, server: ReplayServer, client: httpx.Client) -> gh.GitHubApi:
    policy = RetryPolicy(retries=0, backoff=0.0, timeout=5.0, sleep=lambda _: None)
    return gh.GitHubApi(client, server.url, None, policy, StoreCache(store, "github"))


def _fetched(
    api: gh.GitHubApi, make: Callable[[], httpx.Client] | None, sent: list[int]
) -> list[tuple[str, object]]:
    found = fetch_repos(api, _gh_repo, NAMES, make, sent.append, minimum=2)
    return [
        (name, str(result) if isinstance(result, SourceError) else result[1].model_dump())
        for name, result in found
    ]


@pytest.fixture
def server() -> Iterator[ReplayServer]:
    with serve_replay() as replay:
        yield replay


def test_a_forked_half_fetches_the_same_repositories_in_order(
    store: Store, server: ReplayServer
) -> None:
    with _client() as client:
        alone = _api(store, server, client)
        expected = _fetched(alone, None, [])
        split = _api(store, server, client)
        sent: list[int] = []
        assert _fetched(split, _client, sent) == expected
    assert [name for name, _ in expected] == NAMES
    assert "nobody/missing" in str(dict(expected)["nobody/missing"])
    assert split.stats.requests == alone.stats.requests
    second_half = ("/repos/L-Forster/", "/repos/NVIDIA/", "/repos/Neroued/")
    forked_half = [r for r in server if r.path.startswith(second_half)]
    assert sent == [len(forked_half) // 2]  # each repository was fetched twice


def test_bad_credentials_in_the_forked_half_are_raised(store: Store) -> None:
    with serve_replay(faults=[Fault("/repos/Neroued/*", "401")]) as server, _client() as client:
        found = fetch_repos(
            _api(store, server, client), _gh_repo, NAMES, _client, lambda _: None, minimum=2
        )
        with pytest.raises(SourceError) as raised:
            list(found)
    assert raised.value.status == 401 and "Bad credentials" in str(raised.value)
