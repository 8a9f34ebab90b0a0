"""The collect stage: run every enabled source adapter and keep what it found.

For each source (github, host, arxiv, feeds, git) the raw responses are kept in the store
(gzip), parsed into Sources and pinned Snapshots, and written with the source's cursors
and health in ONE transaction. A source that fails is recorded as failed (or stale since
its last good run) and the run moves on. Conditional requests (ETag) make a second run of
the same window cheap: an unchanged repository costs one request, answered 304, and is
re-parsed from the stored responses.

Settings read here (all optional, in `radar.toml`)::

    [github]  queries = ["inference kv cache", ...]   repos = ["owner/name", ...]   exclude = [...]
    [arxiv]   queries = ['abs:"speculative decoding"', ...]   delay = 3.0
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
from pydantic import BaseModel, Field
from sqlalchemy import Connection

from .config import Settings
from .errors import RadarError, SourceError
from .models import Snapshot, Source
from .sources import arxiv as arxiv_source
from .sources import feeds as feed_source
from .sources import github as gh
from .sources.http import RawResponse, RetryPolicy
from .store import Store

__all__ = [
    "DEFAULT_ARXIV_QUERIES",
    "DEFAULT_GITHUB_QUERIES",
    "SOURCE_NAMES",
    "CollectSummary",
    "Progress",
    "SourceHealth",
    "collect",
    "collect_sample",
]

log = logging.getLogger(__name__)

SOURCE_NAMES = ("github", "host", "arxiv", "feeds", "git")
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


class SourceHealth(BaseModel):
    """What one source did in a run."""

    name: str
    status: str = "ok"
    """ok, failed (never worked), stale (failed now; `stale_since` is its last good run) or skipped."""
    requests: int = 0
    not_modified: int = 0
    """Requests answered 304 (re-parsed from the store)."""
    reused: int = 0
    """Responses re-read from the store without any request (unchanged repositories)."""
    parsed: int = 0
    saved: int = 0
    """Sources written (new or refreshed)."""
    errors: list[str] = Field(default_factory=list)
    stale_since: datetime | None = None


class CollectSummary(BaseModel):
    """The run summary: each source's health, the window and what was saved."""

    window_start: datetime | None = None
    window_end: datetime | None = None
    sources: dict[str, SourceHealth] = Field(default_factory=dict)
    queries: list[str] = Field(default_factory=list)
    keys: list[str] = Field(default_factory=list)
    """Canonical keys of the sources saved in this run."""

    @property
    def ok(self) -> bool:
        return all(h.status in ("ok", "skipped") for h in self.sources.values())

    def health(self) -> dict[str, str]:
        """source name -> "ok", "failed: <why>" or "stale since <UTC time>" (Coverage.sources)."""
        result = {}
        for name, item in self.sources.items():
            if item.status == "stale" and item.stale_since is not None:
                result[name] = f"stale since {item.stale_since.astimezone(UTC):%Y-%m-%d %H:%M} UTC"
            elif item.status == "failed":
                result[name] = "failed: " + (item.errors[0] if item.errors else "unknown error")
            else:
                result[name] = item.status
        return result

    def counts(self) -> dict[str, int]:
        """Totals over all sources, for the run record."""
        fields = ("requests", "not_modified", "reused", "parsed", "saved")
        totals = {name: sum(getattr(h, name) for h in self.sources.values()) for name in fields}
        totals["errors"] = sum(len(h.errors) for h in self.sources.values())
        return totals


@dataclass
class _Found:
    """What a collector produced, before it is written."""

    raws: list[RawResponse] = field(default_factory=list)
    items: list[tuple[Source, Snapshot | None]] = field(default_factory=list)
    cursors: dict[str, str] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)


class _StoreCache:
    """ETag memory backed by the store's raw responses."""

    def __init__(self, store: Store, source: str):
        self.store = store
        self.source = source

    def lookup(self, request_key: str) -> RawResponse | None:
        row = self.store.load_raw(self.source, request_key)
        if row is None:
            return None
        return RawResponse(
            request_key,
            int(row["status"]),
            row["body"],
            row["etag"],
            dict(row["headers"] or {}),
            from_cache=True,
        )


def _section(settings: Settings, name: str) -> dict[str, Any]:
    value = settings.extra.get(name, {})
    return dict(value) if isinstance(value, dict) else {}


# -- GitHub ---------------------------------------------------------------------------


def _gh_repo(api: gh.GitHubApi, name: str) -> tuple[list[RawResponse], Source, Snapshot | None]:
    """One repository: metadata (conditional), then README, commits, tags, releases.

    When the metadata answers 304 the rest is re-read from the store without requests.
    """
    raw_repo = gh.fetch_repo(api, name)
    repo = gh.parse_json(raw_repo)
    if not isinstance(repo, dict) or "full_name" not in repo:
        raise SourceError("repository answer has no full_name", "github", raw_repo.request_key)
    full = str(repo["full_name"])
    sub = replace(api, offline=raw_repo.from_cache)
    readme = gh.fetch_readme(sub, full)
    commits = gh.fetch_commits(sub, full, sha=repo.get("default_branch"))
    tags, releases = gh.fetch_tags(sub, full), gh.fetch_releases(sub, full)
    renamed = []
    if raw_repo.redirected_from and raw_repo.redirected_from.lower() != f"/repos/{full}".lower():
        renamed.append(raw_repo.redirected_from.removeprefix("/repos/"))
    elif name.lower() != full.lower():
        renamed.append(name)
    source, snapshot = gh.parse_repo(
        repo,
        readme=gh.parse_readme(readme),
        commits=gh.parse_commits(commits),
        tags=gh.parse_json(tags),
        releases=gh.parse_json(releases),
        renamed_from=renamed,
    )
    raws = [raw_repo, *commits, tags, releases] + ([readme] if readme else [])
    return raws, source, snapshot


def _gh_search(
    api: gh.GitHubApi, queries: Sequence[str], since: datetime, until: datetime, found: _Found
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


def _collect_github(
    api: gh.GitHubApi,
    settings: Settings,
    since: datetime,
    until: datetime,
    progress: Progress | None,
) -> _Found:
    section = _section(settings, "github")
    found = _Found()
    watched = [str(n) for n in section.get("repos", [])]
    queries = [str(q) for q in section.get("queries", DEFAULT_GITHUB_QUERIES)]
    excluded = {str(n).lower() for n in section.get("exclude", [])}
    if settings.host_repo:
        excluded.add(settings.host_repo.lower())  # the host is collected by "host"
    searched = _gh_search(api, queries, since, until, found)
    if queries and not searched and len(found.errors) == len(queries) and not watched:
        raise SourceError("every search failed: " + "; ".join(found.errors[:3]), "github")
    done: set[str] = set()
    for batch in (watched, searched):
        names = list(
            dict.fromkeys(n for n in batch if n.lower() not in excluded and n.lower() not in done)
        )
        _gh_repos(api, names, found, done, progress)
    return found


def _gh_repos(
    api: gh.GitHubApi, names: list[str], found: _Found, done: set[str], progress: Progress | None
) -> None:
    def one(name: str) -> tuple[str, Any]:
        try:
            return name, _gh_repo(api, name)
        except SourceError as exc:
            if exc.status == 401:
                raise
            return name, exc

    with ThreadPoolExecutor(max_workers=4) as pool:
        for index, (name, result) in enumerate(pool.map(one, names), start=1):
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


def _collect_host(api: gh.GitHubApi, settings: Settings) -> _Found:
    found = _Found()
    repo = settings.host_repo or ""
    raws, host, head = _gh_repo(api, repo)
    found.raws.extend(raws)
    found.items.append((host, head))
    pulls = gh.fetch_pulls(api, repo)
    issues = gh.fetch_issues(api, repo)
    found.raws.extend([*pulls, *issues])
    items = gh.parse_pulls(pulls, repo) + gh.parse_issues(issues, repo)
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


# -- arXiv and feeds ---------------------------------------------------------------------


def _collect_arxiv(
    api: arxiv_source.ArxivApi, settings: Settings, since: datetime, until: datetime
) -> _Found:
    section = _section(settings, "arxiv")
    found = _Found()
    for terms in [str(q) for q in section.get("queries", DEFAULT_ARXIV_QUERIES)]:
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


def _collect_feeds(
    client: httpx.Client, urls: Sequence[str], cache: _StoreCache, policy: RetryPolicy
) -> _Found:
    found = _Found()
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


def _collect_git(settings: Settings, since: datetime | None) -> _Found:
    from pathlib import Path

    from .sources import gitrepo

    found = _Found()
    cache_dir = Path(str(_section(settings, "git").get("cache_dir", ".radar-cache/repos")))
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


# -- the stage ----------------------------------------------------------------------------


@dataclass
class _Context:
    store: Store
    settings: Settings
    client: httpx.Client
    since: datetime
    until: datetime
    progress: Progress | None
    policy: RetryPolicy
    arxiv_delay: float | None = None


def _enabled(settings: Settings) -> list[str]:
    names = ["github", "arxiv"]
    if settings.host_repo:
        names.insert(1, "host")
    if settings.feeds:
        names.append("feeds")
    if settings.repos:
        names.append("git")
    return names


def _github_api(ctx: _Context) -> gh.GitHubApi:
    return gh.GitHubApi(
        ctx.client,
        ctx.settings.github_api_url,
        ctx.settings.github_token,
        ctx.policy,
        _StoreCache(ctx.store, "github"),
    )


def _run_one(name: str, ctx: _Context, health: SourceHealth) -> _Found:
    """Run one collector; request counts go into `health`."""
    if name in ("github", "host"):
        api = _github_api(ctx)
        try:
            if name == "github":
                return _collect_github(api, ctx.settings, ctx.since, ctx.until, ctx.progress)
            return _collect_host(api, ctx.settings)
        finally:
            health.requests, health.not_modified, health.reused = (
                api.stats.requests,
                api.stats.not_modified,
                api.stats.reused,
            )
    if name == "arxiv":
        delay = (
            ctx.arxiv_delay
            if ctx.arxiv_delay is not None
            else float(_section(ctx.settings, "arxiv").get("delay", 3.0))
        )
        api_ax = arxiv_source.ArxivApi(
            ctx.client,
            ctx.settings.arxiv_api_url,
            delay,
            ctx.policy,
            _StoreCache(ctx.store, "arxiv"),
        )
        found = _collect_arxiv(api_ax, ctx.settings, ctx.since, ctx.until)
    elif name == "feeds":
        found = _collect_feeds(
            ctx.client, ctx.settings.feeds, _StoreCache(ctx.store, "feeds"), ctx.policy
        )
    elif name == "git":
        found = _collect_git(ctx.settings, ctx.since)
    else:
        raise SourceError(f"unknown source; choose from {', '.join(SOURCE_NAMES)}", name)
    health.requests = len(found.raws)
    health.not_modified = sum(1 for r in found.raws if r.from_cache)
    return found


def _save(conn: Connection, store: Store, name: str, found: _Found) -> int:
    raw_source = "github" if name == "host" else name
    for raw in found.raws:
        if not raw.from_cache and raw.status == 200:
            store.save_raw(
                conn,
                raw_source,
                raw.request_key,
                raw.body,
                status=raw.status,
                etag=raw.etag,
                headers=dict(raw.headers),
            )
    saved: dict[str, None] = {}
    for source, snapshot in found.items:
        store.save_source(conn, source)
        if snapshot is not None:
            store.save_snapshot(conn, snapshot)
        saved[source.key] = None
    for query, value in found.cursors.items():
        store.save_cursor(conn, name, query, value)
    return len(saved)


def _collect_source(name: str, ctx: _Context, summary: CollectSummary) -> None:
    health = SourceHealth(name=name)
    summary.sources[name] = health
    if ctx.progress is not None:
        ctx.progress(f"{name}: collecting", 0, 0)
    try:
        found = _run_one(name, ctx, health)
    except (SourceError, RadarError) as exc:
        log.warning("%s failed: %s", name, exc)
        last_ok = (ctx.store.load_health().get(name) or {}).get("last_ok_at")
        health.status, health.stale_since = ("stale", last_ok) if last_ok else ("failed", None)
        health.errors.append(str(exc))
        with ctx.store.transaction() as conn:
            ctx.store.save_health(conn, name, False, str(exc))
        return
    health.parsed = len(found.items)
    health.errors.extend(found.errors)
    with ctx.store.transaction() as conn:
        health.saved = _save(conn, ctx.store, name, found)
        ctx.store.save_health(conn, name, True, "; ".join(found.errors[:5]) or None)
    summary.keys.extend(dict.fromkeys(s.key for s, _ in found.items))


def collect(
    store: Store,
    settings: Settings,
    *,
    sources: Sequence[str] | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
    client: httpx.Client | None = None,
    progress: Progress | None = None,
    policy: RetryPolicy | None = None,
) -> CollectSummary:
    """Run the enabled (or named) sources over a window and keep what they return.

    Args:
        sources: names from SOURCE_NAMES; default every source the settings enable.
        since: window start; default the last run's end (cursor) or 7 days before `until`.
        until: window end; default now.
        client: an httpx.Client to use (a private one is made and closed otherwise).
        progress: progress(message, done, total); rate-limit waits count down through it.
        policy: retry/backoff/timeout policy (live defaults).
    """
    until = until or datetime.now(UTC)
    since = since or _default_since(store, until)
    names = list(sources) if sources else _enabled(settings)
    unknown = [n for n in names if n not in SOURCE_NAMES]
    if unknown:
        raise SourceError(
            f"unknown source {unknown[0]!r}; choose from {', '.join(SOURCE_NAMES)}", unknown[0]
        )
    policy = policy or RetryPolicy()
    if progress is not None and policy.on_wait is None:
        policy = replace(
            policy, on_wait=lambda reason, left: progress(f"{reason}: resuming in {left}s", 0, 0)
        )
    own = client is None
    http = client or httpx.Client(headers={"User-Agent": "research-radar"}, timeout=policy.timeout)
    summary = CollectSummary(window_start=since, window_end=until)
    ctx = _Context(
        store,
        settings,
        http,
        since,
        until,
        progress,
        policy,
        _section(settings, "arxiv").get("delay"),
    )
    try:
        for name in names:
            _collect_source(name, ctx, summary)
    finally:
        if own:
            http.close()
    summary.queries = [
        str(q) for q in _section(settings, "github").get("queries", DEFAULT_GITHUB_QUERIES)
    ]
    with store.transaction() as conn:
        store.save_cursor(conn, "collect", "window_end", until.isoformat())
    return summary


def _default_since(store: Store, until: datetime) -> datetime:
    last = store.load_cursor("collect", "window_end")
    if last:
        return min(datetime.fromisoformat(last), until)
    return until - timedelta(days=7)


# -- the bundled sample ---------------------------------------------------------------------

SAMPLE_SINCE = datetime(2024, 9, 1, tzinfo=UTC)
"""The sample's window starts here, so every bundled repository and paper falls inside."""
SAMPLE_HOST = "example-org/inferhost"
SAMPLE_INDEX_ISSUE = "example-org/inferhost#126"
SAMPLE_GITHUB = {
    "queries": ["inference fork:true", "speech runtime", "triton kernel"],
    "repos": ["Red-Weasel/mach-x"],
}
SAMPLE_ARXIV = {"queries": ["all:inference OR all:decoding"], "delay": 0.0}


def sample_settings(
    base: Settings, server_url: str, arxiv_url: str, feeds: Sequence[str]
) -> Settings:
    """Settings that point every collector at a replay server of the bundled sample."""
    extra = dict(base.extra)
    extra["github"], extra["arxiv"] = dict(SAMPLE_GITHUB), dict(SAMPLE_ARXIV)
    return replace(
        base,
        github_api_url=server_url,
        arxiv_api_url=arxiv_url,
        github_token=None,
        host_repo=base.host_repo or SAMPLE_HOST,
        feeds=tuple(feeds),
        repos=(),
        extra=extra,
    )


def collect_sample(
    store: Store,
    *,
    now: datetime,
    progress: Progress | None = None,
    settings: Settings | None = None,
) -> CollectSummary:
    """Collect the bundled sample offline: the real collectors against a replay server.

    No token and no network. The window runs from SAMPLE_SINCE to `now`.
    """
    from .replay import serve_replay

    with serve_replay() as server:
        feeds = [server.feed_url(name) for name in server.feed_names()]
        local = sample_settings(settings or Settings(), server.url, server.arxiv_url, feeds)
        policy = RetryPolicy(retries=1, backoff=0.0, timeout=10.0)
        with httpx.Client(timeout=10.0) as client:
            return collect(
                store,
                local,
                sources=["github", "host", "arxiv", "feeds"],
                since=SAMPLE_SINCE,
                until=max(now, SAMPLE_SINCE),
                client=client,
                progress=progress,
                policy=policy,
            )
