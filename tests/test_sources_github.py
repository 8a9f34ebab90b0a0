"""GitHub adapter: real client code against the replay server; parse_* on its payloads."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from research_radar.errors import SourceError
from research_radar.models import SourceKind
from research_radar.replay.server import ReplayServer, serve_replay
from research_radar.resolve.keys import github_key
from research_radar.sources import github as gh
from research_radar.sources.http import RawResponse, RetryPolicy


@pytest.fixture(scope="module")
def server() -> Iterator[ReplayServer]:
    with serve_replay() as running:
        yield running


@pytest.fixture
def api(server: ReplayServer) -> Iterator[gh.GitHubApi]:
    with httpx.Client() as client:
        yield gh.GitHubApi(client, server.url, token="t0ken", policy=RetryPolicy(backoff=0.0))


def test_repo_source_and_pinned_snapshot(api: gh.GitHubApi) -> None:
    repo = gh.parse_json(gh.fetch_repo(api, "SEU-PAISys/Embodied.cpp"))
    commits = gh.parse_commits(gh.fetch_commits(api, repo["full_name"], sha=repo["default_branch"]))
    tags = gh.parse_json(gh.fetch_tags(api, repo["full_name"]))
    releases = gh.parse_json(gh.fetch_releases(api, repo["full_name"]))
    readme = gh.parse_readme(gh.fetch_readme(api, repo["full_name"]))
    source, snapshot = gh.parse_repo(
        repo, readme=readme, commits=commits, tags=tags, releases=releases
    )
    assert source.key == "gh:seu-paisys/embodied.cpp" and source.kind is SourceKind.REPO
    assert "arXiv:2607.02501" in source.text
    assert source.meta["license"] == "Apache-2.0" and source.meta["fork"] is False
    assert source.meta["releases"][0]["tag"] == "v1.0"
    assert snapshot is not None
    assert snapshot.version == "c5a96a2f2442c3a459be87f74f60703949d4eb00"
    assert (
        snapshot.version_date is not None
        and snapshot.version_date.isoformat() == "2026-08-12T12:00:45+08:00"
    )
    assert snapshot.url.endswith("/tree/c5a96a2f2442c3a459be87f74f60703949d4eb00")


def test_fork_keeps_parent(api: gh.GitHubApi) -> None:
    source, _ = gh.parse_repo(gh.parse_json(gh.fetch_repo(api, "zhongpei/ninfer-4090")))
    assert source.meta["fork"] is True and source.meta["parent"] == "Neroued/ninfer"


def test_renamed_repository_is_followed(api: gh.GitHubApi) -> None:
    raw = gh.fetch_repo(api, "Red-Weasel/mach-x")
    assert raw.redirected_from == "/repos/Red-Weasel/mach-x"
    assert gh.parse_json(raw)["full_name"] == "Red-Weasel/machx-inference-engine"


def test_pagination_follows_link(api: gh.GitHubApi) -> None:
    pages = gh.fetch_commits(api, "AMD-AGI/Infera", per_page=7, max_pages=10)
    assert len(pages) == 5
    assert len(gh.parse_commits(pages)) == 30


def test_search_with_window(api: gh.GitHubApi) -> None:
    pages = gh.fetch_search(api, '"KV-aware routing" pushed:2026-08-01..2026-08-31')
    assert [item["full_name"] for item in gh.parse_search(pages[0])] == ["AMD-AGI/Infera"]


def test_pulls_and_issues_states(api: gh.GitHubApi) -> None:
    pulls = gh.parse_pulls(gh.fetch_pulls(api, "example-org/inferhost"), "example-org/inferhost")
    assert {p.meta["number"]: p.meta["state"] for p in pulls} == {
        115: "closed",
        112: "draft",
        108: "merged",
        104: "open",
    }
    issues = gh.parse_issues(gh.fetch_issues(api, "example-org/inferhost"), "example-org/inferhost")
    assert sorted(i.meta["number"] for i in issues) == [101, 117, 121, 126]
    assert all(i.key.startswith("gh:example-org/inferhost#") for i in pulls + issues)


def test_file_at_ref_and_missing_readme(api: gh.GitHubApi) -> None:
    with pytest.raises(SourceError) as caught:
        gh.fetch_file(api, "AMD-AGI/Infera", "nothing.md", "main")
    assert caught.value.status == 404
    assert gh.fetch_readme(api, "Nobody/nothing-here") is None


def test_token_is_sent_but_not_shown(api: gh.GitHubApi, server: ReplayServer) -> None:
    gh.fetch_repo(api, "AMD-AGI/Infera")
    assert "t0ken" not in repr(api)
    assert "authorization" not in {k.lower() for k in server.requests[-1].headers}


def test_malformed_json_names_the_request() -> None:
    raw = RawResponse("/repos/a/b", 200, b'{"full_name": "a/')
    with pytest.raises(SourceError, match=r"malformed JSON.*\(/repos/a/b\)"):
        gh.parse_json(raw)


def test_repo_keys_are_github_keys() -> None:
    assert github_key(" Neroued/NInfer/ ") == "gh:neroued/ninfer"


_KEYS = st.sampled_from(
    ["sha", "commit", "committer", "author", "date", "message", "name", "full_name", "items"]
    + ["html_url", "created_at", "pushed_at", "parent", "license", "topics", "tag_name", "draft"]
)
_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(_KEYS | st.text(), inner, max_size=5)
    ),
    max_leaves=25,
)


def _raw(data: Any) -> RawResponse:
    return RawResponse("/repos/a/b/commits", 200, json.dumps(data).encode())


@given(_JSON, _JSON, _JSON, _JSON)
def test_parse_repo_on_any_json(repo: Any, commits: Any, tags: Any, releases: Any) -> None:
    try:
        gh.parse_repo(repo, commits=commits, tags=tags, releases=releases, request_key="/r")
    except SourceError as exc:
        assert exc.url == "/r"


@given(st.lists(_JSON, max_size=3))
def test_parse_commits_on_any_json(pages: list[Any]) -> None:
    try:
        commits = gh.parse_commits([_raw(page) for page in pages])
    except SourceError as exc:
        assert exc.url == "/repos/a/b/commits"
    else:
        assert all(isinstance(commit["sha"], str) for commit in commits)


@given(_JSON)
def test_parse_search_on_any_json(page: Any) -> None:
    try:
        items = gh.parse_search(_raw(page))
    except SourceError:
        return
    assert all(isinstance(item["full_name"], str) for item in items)


def test_commit_without_sha_names_the_page() -> None:
    page = _raw([{"sha": None, "commit": {"message": "x"}}])
    with pytest.raises(SourceError, match=r"no sha.*\(/repos/a/b/commits\)"):
        gh.parse_commits([page])
