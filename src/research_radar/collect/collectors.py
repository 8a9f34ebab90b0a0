"""The per-source collectors: what each source adapter fetches and parses in one run.

Each collector (github, host, arxiv, feeds, git) returns a `Found`: the raw responses to
keep, the parsed Sources with their pinned Snapshots, cursors, and per-item errors. The
`parse_*` functions turn a malformed payload into a `SourceError` naming its request, so
one bad repository, page or feed is recorded in `Found.errors` and the rest go on (#3).
A collector raises `SourceError` only when the whole source failed; writing what it found
is the collect stage's job (`collect.py`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import httpx

from research_radar.collect.forked import fetch_repos
from research_radar.collect.storecache import StoreCache
from research_radar.config import Settings
from research_radar.errors import SourceError
from research_radar.models import Snapshot, Source, SourceKind
from research_radar.sources import arxiv as arxiv_source
from research_radar.sources import feeds as feed_source
from research_radar.sources import github as gh
from research_radar.sources.http import RawResponse, RetryPolicy, next_link, request_key

__all__ = [
    "DEFAULT_ARXIV_QUERIES",
    "DEFAULT_GITHUB_QUERIES",
    "Found",
    "Progress",
    "Reported",
    "collect_arxiv",
    "collect_feeds",
    "collect_git",
    "collect_github",
    "collect_host",
    "collect_inbox",
]


DEFAULT_GITHUB_QUERIES = (
    "inference engine kv cache",
    "llm serving speculative decoding",
    "triton kernel optimization llm",
    "vla inference runtime",
    "diffusion inference cpp",
    "speech streaming inference",
)
DEFAULT_ARXIV_QUERIES = (
    'abs:"KV cache" AND cat:cs.LG',
    'abs:"speculative decoding"',
    'abs:"LLM inference" AND cat:cs.DC',
    'abs:"kernel" AND abs:"LLM agents"',
)
Progress = Callable[[str, int, int], None]
"""progress(message, done, total); total 0 means a wait or a note, not a count."""
Reported = Callable[[Sequence[str]], set[str]]
"""reported(names): the GitHub repositories among `names` (owner/name) reported already,
lower-case (the store is asked about these names only, #19)."""


@dataclass
class Found:
    """What a collector produced, before it is written."""

    raws: list[RawResponse] = field(default_factory=list)
    items: list[tuple[Source, Snapshot | None]] = field(default_factory=list)
    cursors: dict[str, str] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    sent_elsewhere: int = 0
    """HTTP requests a forked process sent for this collector (`forked.fetch_repos`)."""


# -- GitHub ---------------------------------------------------------------------------


def _gh_repo(api: gh.GitHubApi, name: str) -> tuple[list[RawResponse], Source, Snapshot | None]:
    """One repository: metadata (conditional), then README, commits, tags, and a fork's
    releases (see `_reads_releases`).

    When the metadata answers 304 the rest is re-read from the store without requests.
    """
    raw_repo = gh.fetch_repo(api, name)
    repo = gh.parse_json(raw_repo)
    if not isinstance(repo, dict) or "full_name" not in repo:
        raise SourceError("repository answer has no full_name", "github", raw_repo.request_key)
    full = str(repo["full_name"])
    sub = replace(api, offline=raw_repo.from_cache)
    readme = gh.fetch_readme(sub, full)
    commits = gh.fetch_commits(sub, full, sha=repo.get("default_branch"), per_page=gh.COMMITS_KEPT)
    tags = gh.fetch_tags(sub, full)
    tag_list = gh.parse_json(tags)
    releases = gh.fetch_releases(sub, full) if _reads_releases(repo, tag_list) else None
    renamed = []
    if raw_repo.redirected_from and raw_repo.redirected_from.lower() != f"/repos/{full}".lower():
        renamed.append(raw_repo.redirected_from.removeprefix("/repos/"))
    elif name.lower() != full.lower():
        renamed.append(name)
    source, snapshot = gh.parse_repo(
        repo,
        readme=gh.parse_readme(readme),
        commits=gh.parse_commits(commits),
        tags=tag_list,
        releases=_release_list(repo, releases),
        renamed_from=renamed,
        request_key=raw_repo.request_key,
    )
    raws = [raw_repo, *commits, tags, *(r for r in (releases, readme) if r is not None)]
    return raws, source, snapshot


def _reads_releases(repo: dict[str, Any], tags: Any) -> bool:
    """Whether a repository's releases are asked for: a fork's only, where resolve weighs
    the releases of its own (`resolve.projects.classify_fork`); no other stage reads them,
    and they were a fifth of a repository's requests (#19). Nor is a fork without tags
    asked: a published release has a tag (GitHub turns a release whose tag is deleted
    into a draft, and drafts are not kept)."""
    return bool(repo.get("fork")) and tags != []


def _release_list(repo: dict[str, Any], releases: RawResponse | None) -> Any:
    """The releases to parse: the answer's; none for a fork without tags; None (not
    asked, so not known) for any other repository."""
    if releases is not None:
        return gh.parse_json(releases)
    return [] if repo.get("fork") else None


def _gh_search(
    api: gh.GitHubApi, queries: Sequence[str], since: datetime, until: datetime, found: Found
) -> list[str]:
    names: list[str] = []
    window = f"pushed:{since.date().isoformat()}..{until.date().isoformat()}"
    for query in queries:
        full_query = f"{query} {window}"
        try:
            pages = gh.fetch_search(api, full_query)
            items = [item for page in pages for item in gh.parse_search(page)]
        except SourceError as exc:
            found.errors.append(str(exc))
            continue
        found.raws.extend(pages)
        names.extend(str(item["full_name"]) for item in items)
        newest = max((str(i.get("pushed_at") or "") for i in items), default="")
        found.cursors[full_query] = newest or until.isoformat()
    return names


def collect_github(
    api: gh.GitHubApi,
    settings: Settings,
    since: datetime,
    until: datetime,
    progress: Progress | None,
    make_client: Callable[[], httpx.Client] | None = None,
    reported: Reported | None = None,
) -> Found:
    """Searched and watched repositories (the host, `exclude` and those `reported` left out).

    `make_client`: how to make a client like `api`'s; with it, a long list's second half
    is fetched by a forked process (`forked.fetch_repos`). `reported`: which of some
    repositories were reported already (lower-case), asked about these names only."""
    found = Found()
    watched = list(settings.github.repos)
    queries = list(
        settings.github.queries if settings.github.queries is not None else DEFAULT_GITHUB_QUERIES
    )
    excluded = {name.lower() for name in settings.github.exclude}
    if settings.host_repo:
        excluded.add(settings.host_repo.lower())  # the host is collected by "host"
    searched = _gh_search(api, queries, since, until, found)
    if queries and not searched and len(found.errors) == len(queries) and not watched:
        raise SourceError("every search failed: " + "; ".join(found.errors[:3]), "github")
    done: set[str] = set()
    for batch in (watched, searched):
        left_out = excluded | (reported(batch) if reported is not None else set())
        names = list(
            dict.fromkeys(n for n in batch if n.lower() not in left_out and n.lower() not in done)
        )
        _gh_repos(api, names, found, done, progress, make_client)
    return found


def _gh_repos(
    api: gh.GitHubApi,
    names: list[str],
    found: Found,
    done: set[str],
    progress: Progress | None,
    make_client: Callable[[], httpx.Client] | None = None,
) -> None:
    if isinstance(api.cache, StoreCache):
        api.cache.expect(key for name in names for key in _repo_keys(name))

    def sent(count: int) -> None:
        found.sent_elsewhere += count

    fetched = fetch_repos(api, _gh_repo, names, make_client, sent)
    for index, (name, result) in enumerate(fetched, start=1):
        if progress is not None:
            progress(f"github: {name}", index, len(names))
        if isinstance(result, SourceError):
            found.errors.append(str(result))
            continue
        raws, source, snapshot = result
        done.update({name.lower(), str(source.meta["full_name"]).lower()})
        found.raws.extend(raws)
        found.items.append((source, snapshot))
        if source.meta.get("pushed_at"):
            found.cursors[f"repo:{source.key}"] = str(source.meta["pushed_at"])


_TAGS_QUERY = request_key("", {"per_page": gh.TAGS_PER_PAGE})
"""The query of a repository's tags request, as `request_key` writes it after any path
(encoded once, not once a repository, #19)."""


def _repo_keys(name: str) -> list[str]:
    """The request keys of a repository that `_gh_repo` reads and that do not depend on
    its metadata (its commits' key names its default branch; only a fork's releases are
    asked for)."""
    repo = request_key(f"/repos/{name}")
    return [repo, f"{repo}/readme", f"{repo}/tags{_TAGS_QUERY}"]


def collect_host(api: gh.GitHubApi, settings: Settings) -> Found:
    """The host repository with its pull requests and issues, part by part.

    A part that fails (a 403 on pulls, a page that does not load, a malformed list) is
    recorded in `Found.errors`, naming what is missing; the host repository and every
    page that did load are kept (#13).
    """
    found = Found()
    repo = settings.host_repo or ""
    raws, host, head = _gh_repo(api, repo)
    found.raws.extend(raws)
    found.items.append((host, head))
    items: list[Source] = []
    for part, path, params, parse_items in (
        (
            "pull requests",
            "pulls",
            {"state": "all", "per_page": 100, "sort": "updated", "direction": "desc"},
            gh.parse_pulls,
        ),
        ("issues", "issues", {"state": "all", "per_page": 100}, gh.parse_issues),
    ):
        pages, failure = _loaded_pages(api, f"/repos/{repo}/{path}", params, max_pages=5)
        if failure is not None:
            kept = f"kept the first {len(pages)} page(s)" if pages else "none were collected"
            found.errors.append(f"host: {part} of {repo} incomplete ({kept}): {failure}")
        try:
            items.extend(parse_items(pages, repo))
        except SourceError as exc:  # a malformed list is recorded; the host repo is kept (#3)
            found.errors.append(f"host: {part} of {repo} not read: {exc}")
            continue
        found.raws.extend(pages)
    for item in items:
        version = f"{item.meta['state']}@{item.updated_at.isoformat() if item.updated_at else ''}"
        found.items.append(
            (
                item,
                Snapshot(
                    source_key=item.key, version=version, version_date=item.updated_at, url=item.url
                ),
            )
        )
    return found


def _loaded_pages(
    api: gh.GitHubApi, path: str, params: dict[str, Any], max_pages: int
) -> tuple[list[RawResponse], SourceError | None]:
    """Follow `Link: rel="next"` like `gh.fetch_pages`, but keep the pages that loaded
    when a later one fails; returns them and the failure (None when all loaded)."""
    base_path = urlsplit(api.base_url).path.rstrip("/")
    pages: list[RawResponse] = []
    request: tuple[str, dict[str, Any]] | None = (path, params)
    while request is not None and len(pages) < max_pages:
        try:
            pages.append(api.get(*request))
        except SourceError as exc:
            if exc.status == 401:
                raise
            return pages, exc
        link = next_link(pages[-1].headers.get("link"))
        parts = urlsplit(link) if link else None
        request = (
            (parts.path.removeprefix(base_path), dict(parse_qsl(parts.query))) if parts else None
        )
    return pages, None


# -- arXiv and feeds ---------------------------------------------------------------------


def collect_arxiv(
    api: arxiv_source.ArxivApi, settings: Settings, since: datetime, until: datetime
) -> Found:
    """Papers for each configured query over the window (at most 500 a query)."""
    found = Found()
    queries = settings.arxiv.queries
    for terms in queries if queries is not None else DEFAULT_ARXIV_QUERIES:
        query = arxiv_source.build_query(terms, since, until)
        start, total = 0, 1
        try:
            while start < total and start < 500:
                raw = arxiv_source.fetch_query(api, query, start=start, max_results=100)
                papers, total = arxiv_source.parse_feed(raw)
                found.raws.append(raw)
                found.items.extend(papers)
                start += max(len(papers), 1)
        except SourceError as exc:
            found.errors.append(str(exc))
            continue
        dates = [s.updated_at.isoformat() for s, _ in found.items if s.updated_at]
        found.cursors[query] = max(dates, default=until.isoformat())
    if found.errors and not found.raws:
        raise SourceError("every query failed: " + "; ".join(found.errors[:3]), "arxiv")
    return found


def collect_feeds(
    client: httpx.Client, urls: Sequence[str], cache: StoreCache, policy: RetryPolicy
) -> Found:
    """Each feed at `urls`, conditionally (ETag) through `cache`."""
    found = Found()
    for url in urls:
        try:
            raw = feed_source.fetch_feed(client, url, policy=policy, cache=cache)
            found.items.extend(feed_source.parse_feed(raw, url))
        except SourceError as exc:
            found.errors.append(str(exc))
            continue
        found.raws.append(raw)
        found.cursors[url] = raw.etag or ""
    if found.errors and not found.raws:
        raise SourceError("no feed could be read: " + "; ".join(found.errors[:3]), "feeds")
    return found


def collect_git(settings: Settings, since: datetime | None) -> Found:
    """Local checkouts and clones of `settings.repos`."""
    from research_radar.sources import gitrepo

    found = Found()
    cache_dir = settings.git.cache_dir
    for spec in settings.repos:
        try:
            path = (
                gitrepo.clone(spec, cache_dir)
                if "://" in spec or spec.startswith("git@")
                else Path(spec)
            )
            source, snapshot = gitrepo.parse_checkout(path, since)
        except SourceError as exc:
            found.errors.append(str(exc))
            continue
        found.items.append((source, snapshot))
        found.cursors[spec] = snapshot.version
    if found.errors and not found.items:
        raise SourceError("no repository could be read: " + "; ".join(found.errors[:3]), "git")
    return found


def collect_inbox(root: Path) -> Found:
    """The team inbox's notes and paper cards as sources, each pinned by a content hash.

    The raw text of each file is kept (under `inbox`, keyed by its path relative to the
    root) so a digest can be derived again from the store. Notes are internal: they are
    never findings and never published.
    """
    from research_radar.sources.inbox_files import load_inbox

    if not root.is_dir():
        raise SourceError(f"inbox folder {root} not found; set inbox_root in radar.toml", "inbox")
    inbox = load_inbox(root)
    found = Found()
    for path, kind, title, when in [
        *((n.path, SourceKind.NOTE, n.title, n.timestamp) for n in inbox.notes),
        *((c.path, SourceKind.CARD, c.title, None) for c in inbox.cards),
    ]:
        body = (root / path).read_bytes()
        digest = hashlib.sha256(body).hexdigest()
        key = f"inbox:{path}"
        found.raws.append(RawResponse(request_key=path, status=200, body=body))
        found.items.append(
            (
                Source(key=key, kind=kind, url=path, title=title, created_at=when, updated_at=when),
                Snapshot(
                    source_key=key, version=digest[:16], version_date=when, content_hash=digest
                ),
            )
        )
    found.errors.extend(f"{p.path}: {p.message}" for p in inbox.problems)
    return found
