"""GitHub REST adapter: `fetch_*` return raw responses, `parse_*` turn them into Sources.

Every request goes through the one GitHub client (`research_radar.github`), so GitHub
Enterprise, the replay server, ETags, rate limits and retries work as everywhere else.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import httpx

from research_radar.errors import SourceError
from research_radar.github import API_URL, JSON_MEDIA, RAW_MEDIA, GitHubClient, RequestStats
from research_radar.models import Snapshot, Source, SourceKind
from research_radar.resolve.keys import github_key
from research_radar.sources.http import RawResponse, ResponseCache, RetryPolicy

__all__ = [
    "COMMITS_KEPT",
    "RELEASES_PER_PAGE",
    "TAGS_PER_PAGE",
    "GitHubApi",
    "fetch_commits",
    "fetch_file",
    "fetch_issues",
    "fetch_pages",
    "fetch_pulls",
    "fetch_readme",
    "fetch_releases",
    "fetch_repo",
    "fetch_search",
    "fetch_tags",
    "parse_commits",
    "parse_issues",
    "parse_json",
    "parse_pulls",
    "parse_readme",
    "parse_repo",
    "parse_search",
]

SOURCE = "github"
_URL = re.compile(r"https?://[^\s)>\]\"'`]+")


@dataclass
class GitHubApi:
    """The collector's view of the GitHub client: settings, stats and reuse of the store.

    `token` is kept out of repr.
    """

    client: httpx.Client
    base_url: str = API_URL
    token: str | None = field(default=None, repr=False)
    policy: RetryPolicy = field(default_factory=RetryPolicy)
    cache: ResponseCache | None = None
    offline: bool = False
    """Answer from `cache` without a request when it holds the response (nothing changed)."""
    stats: RequestStats = field(default_factory=RequestStats)
    github: GitHubClient = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.github = GitHubClient(
            self.client, self.base_url, self.token, self.policy, self.cache, self.stats
        )

    def get(
        self, path: str, params: dict[str, Any] | None = None, accept: str = JSON_MEDIA
    ) -> RawResponse:
        return self.github.get(path, params, accept=accept, reuse=self.offline)


# -- fetch ----------------------------------------------------------------------------


def fetch_pages(
    api: GitHubApi, path: str, params: dict[str, Any], max_pages: int = 10
) -> list[RawResponse]:
    """Follow `Link: rel="next"` up to `max_pages` pages."""
    return api.github.paginate(path, params, max_pages=max_pages, reuse=api.offline)


def fetch_search(
    api: GitHubApi, query: str, *, per_page: int = 50, max_pages: int = 2
) -> list[RawResponse]:
    """Repository search (sorted by last push, newest first)."""
    params = {"q": query, "sort": "updated", "order": "desc", "per_page": per_page}
    return fetch_pages(api, "/search/repositories", params, max_pages)


def fetch_repo(api: GitHubApi, full_name: str) -> RawResponse:
    """Repository metadata; a 301 for a renamed repository is followed."""
    return api.get(f"/repos/{full_name}")


def fetch_commits(
    api: GitHubApi,
    full_name: str,
    *,
    sha: str | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
    per_page: int = 30,
    max_pages: int = 1,
) -> list[RawResponse]:
    """Commits of a branch (newest first), optionally within a committer-date window."""
    params: dict[str, Any] = {"sha": sha, "per_page": per_page}
    if since is not None:
        params["since"] = since.isoformat()
    if until is not None:
        params["until"] = until.isoformat()
    return fetch_pages(api, f"/repos/{full_name}/commits", params, max_pages)


def fetch_readme(api: GitHubApi, full_name: str, ref: str | None = None) -> RawResponse | None:
    """The README (contents API JSON), or None when the repository has none."""
    try:
        return api.get(f"/repos/{full_name}/readme", {"ref": ref} if ref else None)
    except SourceError as exc:
        if exc.status == 404:
            return None
        raise


TAGS_PER_PAGE = 30
RELEASES_PER_PAGE = 10
COMMITS_KEPT = 1
"""The newest commits a snapshot keeps, and all a repository's collect asks for: its head,
which pins the snapshot. No stage reads the commits below it, and a page of ten was the
largest answer a repository's collect parsed, compressed and kept (#19)."""


def fetch_tags(api: GitHubApi, full_name: str, per_page: int = TAGS_PER_PAGE) -> RawResponse:
    return api.get(f"/repos/{full_name}/tags", {"per_page": per_page})


def fetch_releases(
    api: GitHubApi, full_name: str, per_page: int = RELEASES_PER_PAGE
) -> RawResponse:
    return api.get(f"/repos/{full_name}/releases", {"per_page": per_page})


def fetch_pulls(
    api: GitHubApi, full_name: str, state: str = "all", max_pages: int = 5
) -> list[RawResponse]:
    params = {"state": state, "per_page": 100, "sort": "updated", "direction": "desc"}
    return fetch_pages(api, f"/repos/{full_name}/pulls", params, max_pages)


def fetch_issues(
    api: GitHubApi,
    full_name: str,
    state: str = "all",
    since: datetime | None = None,
    max_pages: int = 5,
) -> list[RawResponse]:
    params: dict[str, Any] = {"state": state, "per_page": 100}
    if since is not None:
        params["since"] = since.isoformat()
    return fetch_pages(api, f"/repos/{full_name}/issues", params, max_pages)


def fetch_file(api: GitHubApi, full_name: str, path: str, ref: str) -> RawResponse:
    """A file's raw bytes at a pinned ref (commit SHA, tag or branch)."""
    return api.get(f"/repos/{full_name}/contents/{path}", {"ref": ref}, accept=RAW_MEDIA)


# -- parse (pure) ---------------------------------------------------------------------


def parse_json(raw: RawResponse) -> Any:
    """Decode a JSON body; a malformed one is a SourceError naming the request."""
    try:
        return json.loads(raw.body)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise SourceError(
            f"malformed JSON ({exc.msg if isinstance(exc, json.JSONDecodeError) else exc})",
            SOURCE,
            raw.request_key,
        ) from exc


def parse_search(raw: RawResponse) -> list[dict[str, Any]]:
    """The repository items of one search page (items without a full_name are dropped)."""
    data = parse_json(raw)
    if not isinstance(data, dict) or not isinstance(data.get("items"), list):
        raise SourceError("search answer has no items list", SOURCE, raw.request_key)
    return [
        item
        for item in data["items"]
        if isinstance(item, dict) and isinstance(item.get("full_name"), str)
    ]


@contextmanager
def _payload(request: str | None) -> Iterator[None]:
    """Turn an answer of an unexpected shape into a SourceError naming the request (#3).

    A missing field, a wrong type or a value the models reject (pydantic's ValidationError
    is a ValueError) means the payload is malformed: the collector records it and goes on.
    """
    try:
        yield
    except (LookupError, TypeError, AttributeError, ValueError) as exc:
        detail = " ".join(str(exc).split())[:100]
        raise SourceError(
            f"malformed payload ({type(exc).__name__}: {detail})", SOURCE, request
        ) from exc


def parse_readme(raw: RawResponse | None) -> str:
    """README text from the contents API JSON (base64) or a raw body."""
    if raw is None:
        return ""
    if not raw.body.lstrip().startswith(b"{"):
        return raw.body.decode("utf-8", "replace")
    data = parse_json(raw)
    try:
        return base64.b64decode(str(data.get("content", ""))).decode("utf-8", "replace")
    except (binascii.Error, ValueError, AttributeError) as exc:
        raise SourceError(f"README content is not base64: {exc}", SOURCE, raw.request_key) from exc


def parse_commits(pages: list[RawResponse]) -> list[dict[str, Any]]:
    """sha, committer date and first message line of each commit, newest first."""
    result = []
    for page in pages:
        data = parse_json(page)
        if not isinstance(data, list):
            raise SourceError("commits answer is not a list", SOURCE, page.request_key)
        with _payload(page.request_key):
            for item in data:
                if not isinstance(item.get("sha"), str):
                    raise SourceError("a commit has no sha", SOURCE, page.request_key)
                commit = item.get("commit") or {}
                message = commit.get("message")
                result.append(
                    {
                        "sha": item["sha"],
                        "date": (commit.get("committer") or {}).get("date"),
                        "author": (commit.get("author") or {}).get("name"),
                        "message": str(message).splitlines()[0] if message else "",
                    }
                )
    return result


def _when(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text.replace("Z", "+00:00")) if text else None


def _links(*texts: str) -> list[str]:
    found: dict[str, None] = {}
    for text in texts:
        for url in _URL.findall(text or ""):
            found[url.rstrip(".,;")] = None
    return list(found)


def _repo_meta(
    repo: dict[str, Any], head: dict[str, Any] | None, renamed_from: list[str]
) -> dict[str, Any]:
    parent = repo.get("parent") or {}
    root = repo.get("source") or {}
    license_info = repo.get("license") or {}
    return {
        "full_name": repo["full_name"],
        "id": repo.get("id"),
        "fork": bool(repo.get("fork")),
        "parent": parent.get("full_name"),
        "source_root": root.get("full_name"),
        "archived": bool(repo.get("archived")),
        "private": bool(repo.get("private")),
        "license": license_info.get("spdx_id") or license_info.get("key"),
        "topics": list(repo.get("topics") or []),
        "stargazers": repo.get("stargazers_count"),
        "default_branch": repo.get("default_branch"),
        "created_at": repo.get("created_at"),
        "pushed_at": repo.get("pushed_at"),
        "homepage": repo.get("homepage"),
        "renamed_from": renamed_from,
        "head_sha": head["sha"] if head else None,
        "head_date": head["date"] if head else None,
    }


def parse_repo(
    repo: dict[str, Any],
    *,
    readme: str = "",
    commits: list[dict[str, Any]] | None = None,
    tags: list[dict[str, Any]] | None = None,
    releases: list[dict[str, Any]] | None = None,
    renamed_from: list[str] | None = None,
    request_key: str | None = None,
) -> tuple[Source, Snapshot | None]:
    """A repository Source and its Snapshot pinned at the head commit (None without commits).

    Args:
        releases: the releases answer; None when they were not asked for (the meta then
            has no "releases", rather than none).
        request_key: the repository request, named in the SourceError of a malformed answer.
    """
    with _payload(request_key):
        return _repo(repo, readme, commits or [], tags or [], releases, renamed_from or [])


def _repo(
    repo: dict[str, Any],
    readme: str,
    commits: list[dict[str, Any]],
    tags: list[dict[str, Any]],
    releases: list[dict[str, Any]] | None,
    renamed_from: list[str],
) -> tuple[Source, Snapshot | None]:
    head = commits[0] if commits else None
    meta = _repo_meta(repo, head, renamed_from)
    tag_names = {t["commit"]["sha"]: t["name"] for t in tags if "commit" in t}
    meta["tags"] = [t["name"] for t in tags[:10]]
    if releases is not None:
        meta["releases"] = [
            {"tag": r.get("tag_name"), "name": r.get("name"), "published_at": r.get("published_at")}
            for r in releases
            if not r.get("draft")
        ]
    meta["links"] = _links(repo.get("description") or "", repo.get("homepage") or "", readme)
    source = Source(
        key=github_key(repo["full_name"]),
        kind=SourceKind.REPO,
        url=repo.get("html_url") or f"https://github.com/{repo['full_name']}",
        title=repo["full_name"],
        summary=repo.get("description") or "",
        text=readme,
        created_at=_when(repo.get("created_at")),
        updated_at=_when(repo.get("pushed_at")),
        meta=meta,
    )
    if head is None:
        return source, None
    snapshot = Snapshot(
        source_key=source.key,
        version=head["sha"],
        version_date=_when(head["date"]),
        tag=tag_names.get(head["sha"]),
        url=f"{source.url}/tree/{head['sha']}",
        content_hash=hashlib.sha256(readme.encode("utf-8")).hexdigest(),
        meta={
            "default_branch": repo.get("default_branch"),
            "commits": commits[:COMMITS_KEPT],
        }
        | ({"releases": meta["releases"][:3]} if "releases" in meta else {}),
    )
    return source, snapshot


def _state(item: dict[str, Any]) -> str:
    if item.get("merged_at") or (item.get("pull_request") or {}).get("merged_at"):
        return "merged"
    if item.get("state") == "open" and item.get("draft"):
        return "draft"
    return str(item.get("state", "open"))


def _item_source(item: dict[str, Any], full_name: str, kind: SourceKind) -> Source:
    number = item["number"]
    return Source(
        key=github_key(f"{full_name}#{number}"),
        kind=kind,
        url=item.get("html_url") or f"https://github.com/{full_name}/issues/{number}",
        title=str(item.get("title", "")),
        text=str(item.get("body") or ""),
        created_at=_when(item.get("created_at")),
        updated_at=_when(item.get("updated_at")),
        meta={
            "repo": full_name,
            "number": number,
            "state": _state(item),
            "draft": bool(item.get("draft")),
            "merged_at": item.get("merged_at") or (item.get("pull_request") or {}).get("merged_at"),
            "closed_at": item.get("closed_at"),
            "labels": [str(x.get("name")) for x in item.get("labels") or []],
            "author": (item.get("user") or {}).get("login"),
        },
    )


def _items(pages: list[RawResponse], full_name: str, kind: SourceKind) -> list[Source]:
    result: list[Source] = []
    for page in pages:
        data = parse_json(page)
        if not isinstance(data, list):
            raise SourceError(f"{kind.value}s answer is not a list", SOURCE, page.request_key)
        with _payload(page.request_key):
            result.extend(
                _item_source(item, full_name, kind)
                for item in data
                if kind is not SourceKind.ISSUE or "pull_request" not in item
            )
    return result


def parse_pulls(pages: list[RawResponse], full_name: str) -> list[Source]:
    """Pull requests with state open / draft / merged / closed. Key `gh:owner/name#N`."""
    return _items(pages, full_name, SourceKind.PULL)


def parse_issues(pages: list[RawResponse], full_name: str) -> list[Source]:
    """Issues only (the issues API also lists pull requests; those are skipped)."""
    return _items(pages, full_name, SourceKind.ISSUE)
