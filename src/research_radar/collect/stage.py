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

The collectors themselves live in `collectors.py`; this module runs them and writes.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from functools import partial

import httpx
from pydantic import BaseModel, Field
from sqlalchemy import Connection

from research_radar.collect.collectors import (
    DEFAULT_GITHUB_QUERIES,
    Found,
    Progress,
    Reported,
    collect_arxiv,
    collect_feeds,
    collect_git,
    collect_github,
    collect_host,
    collect_inbox,
)
from research_radar.collect.storecache import StoreCache
from research_radar.config import Settings
from research_radar.errors import RadarError, SourceError
from research_radar.sources import arxiv as arxiv_source
from research_radar.sources import github as gh
from research_radar.sources.http import RetryPolicy
from research_radar.sources.stateless import StatelessClient
from research_radar.store.rows import RawRecord
from research_radar.store.store import Store

__all__ = [
    "SOURCE_NAMES",
    "WINDOW_CURSOR",
    "CatchUp",
    "CollectSummary",
    "OnFound",
    "SourceHealth",
    "collect",
    "pending_keys",
    "window_end",
]

log = logging.getLogger(__name__)

SOURCE_NAMES = ("github", "host", "arxiv", "feeds", "git", "inbox")


class SourceHealth(BaseModel):
    """What one source did in a run."""

    name: str
    status: str = "ok"
    """ok, partial (worked, but some requests or payloads failed: see `errors`), failed (never
    worked), stale (failed now; `stale_since` is its last good run) or skipped."""
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
    window_start: datetime | None = None
    """Where this source's window started: its own last complete window's end."""
    window_advanced: bool = False
    """True when this run covered the source's window completely, so its next window starts
    at this one's end; a failed or partial source keeps its old window end (#13)."""


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
        """No source failed outright (a partial source still kept what it could read)."""
        return all(h.status in ("ok", "partial", "skipped") for h in self.sources.values())

    def health(self) -> dict[str, str]:
        """source name -> "ok", "partial: N errors", "failed: <why>" or "stale since <UTC time>".

        These go into the report (Coverage.sources), so they stay short: the first error
        is cut to 120 characters. The full errors stay in the store and the run record.
        """
        result = {}
        for name, item in self.sources.items():
            if item.status == "stale" and item.stale_since is not None:
                result[name] = f"stale since {item.stale_since.astimezone(UTC):%Y-%m-%d %H:%M} UTC"
            elif item.status == "failed":
                result[name] = "failed: " + _brief(
                    item.errors[0] if item.errors else "unknown error"
                )
            elif item.status == "partial":
                count = len(item.errors)
                result[name] = f"partial: {count} error{'' if count == 1 else 's'}"
            else:
                result[name] = item.status
        return result

    def counts(self) -> dict[str, int]:
        """Totals over all sources, for the run record."""
        fields = ("requests", "not_modified", "reused", "parsed", "saved")
        totals = {name: sum(getattr(h, name) for h in self.sources.values()) for name in fields}
        totals["errors"] = sum(len(h.errors) for h in self.sources.values())
        return totals


_HEALTH_WIDTH = 120
"""The longest error text `CollectSummary.health()` shows (URLs make raw errors long)."""


def _brief(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= _HEALTH_WIDTH else flat[: _HEALTH_WIDTH - 1] + "…"


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
    counter: _RequestCounter | None = None
    make_client: Callable[[], httpx.Client] | None = None
    """How to make a client like `client` (when the stage made it): a forked process
    fetching half of a long list of repositories needs one of its own."""
    reported: Reported | None = None
    """Which repositories among some names were reported already (left out)."""
    on_found: OnFound | None = None
    """Told what each source found before it is written (see `collect`)."""


class _RequestCounter:
    """Counts every HTTP request the client sends: retries and redirects included."""

    def __init__(self) -> None:
        self.count = 0
        self._lock = threading.Lock()

    def __call__(self, request: httpx.Request) -> None:
        with self._lock:
            self.count += 1


def _enabled(settings: Settings) -> list[str]:
    names = ["github", "arxiv"]
    if settings.host_repo:
        names.insert(1, "host")
    if settings.feeds:
        names.append("feeds")
    if settings.repos:
        names.append("git")
    if settings.inbox_root:
        names.append("inbox")
    return names


def _github_api(ctx: _Context) -> gh.GitHubApi:
    return gh.GitHubApi(
        ctx.client,
        ctx.settings.github_api_url,
        ctx.settings.github_token,
        ctx.policy,
        StoreCache(ctx.store, "github"),
    )


def _run_one(name: str, ctx: _Context, health: SourceHealth) -> Found:
    """Run one collector; request counts go into `health`."""
    if name in ("github", "host"):
        api = _github_api(ctx)
        try:
            if name == "github":
                return collect_github(
                    api,
                    ctx.settings,
                    ctx.since,
                    ctx.until,
                    ctx.progress,
                    ctx.make_client,
                    ctx.reported,
                )
            return collect_host(api, ctx.settings)
        finally:
            health.requests, health.not_modified, health.reused = (
                api.stats.requests,
                api.stats.not_modified,
                api.stats.reused,
            )
    if name == "arxiv":
        delay = ctx.settings.arxiv.delay
        api_ax = arxiv_source.ArxivApi(
            ctx.client,
            ctx.settings.arxiv_api_url,
            delay,
            ctx.policy,
            StoreCache(ctx.store, "arxiv"),
        )
        found = collect_arxiv(api_ax, ctx.settings, ctx.since, ctx.until)
    elif name == "feeds":
        found = collect_feeds(
            ctx.client, ctx.settings.feeds, StoreCache(ctx.store, "feeds"), ctx.policy
        )
    elif name == "git":
        found = collect_git(ctx.settings, ctx.since)
    elif name == "inbox":
        if ctx.settings.inbox_root is None:
            raise SourceError("no inbox folder: set inbox_root in radar.toml", "inbox")
        found = collect_inbox(ctx.settings.inbox_root)
    else:
        raise SourceError(f"unknown source; choose from {', '.join(SOURCE_NAMES)}", name)
    health.requests = len(found.raws)
    health.not_modified = sum(1 for r in found.raws if r.from_cache)
    return found


def _save(conn: Connection, store: Store, name: str, found: Found) -> int:
    """Write what a source found, each kind of row in bulk (#19)."""
    raw_source = "github" if name == "host" else name
    store.save_raws(
        conn,
        raw_source,
        [
            RawRecord(raw.request_key, raw.body, raw.status, raw.etag, None, dict(raw.headers))
            for raw in found.raws
            if not raw.from_cache and raw.status == 200
        ],
    )
    store.save_sources(conn, [source for source, _ in found.items])
    store.save_snapshots(conn, [snapshot for _, snapshot in found.items if snapshot is not None])
    saved = dict.fromkeys(source.key for source, _ in found.items)
    store.save_cursors(conn, name, found.cursors)
    return len(saved)


WINDOW_CURSOR = "window"
"""Cursor family of each source's window end: `("window", source name) -> ISO time`."""
_LEGACY_WINDOW = ("collect", "window_end")
"""The single window end of stores made before windows were kept per source."""


def window_end(store: Store, name: str) -> datetime | None:
    """Where the last complete collection of source `name` ended (None: never)."""
    value = store.load_cursor(WINDOW_CURSOR, name) or store.load_cursor(*_LEGACY_WINDOW)
    return datetime.fromisoformat(value) if value else None


def _advanced_end(old: datetime | None, start: datetime, until: datetime) -> datetime | None:
    """The source's new window end after a complete run over [start, until]: the window
    only grows forward, and never over a gap (a window that starts after the old end)."""
    if old is None:
        return until
    if start > old:
        return None  # the stretch between the old end and `start` was never collected
    return max(old, until)


def _collect_source(
    name: str, ctx: _Context, summary: CollectSummary, catch_up: CatchUp | None
) -> None:
    last_end = window_end(ctx.store, name)
    since = ctx.since if catch_up is None else catch_up(last_end)
    since = min(since, ctx.until)
    health = SourceHealth(name=name, window_start=since)
    summary.sources[name] = health
    if ctx.progress is not None:
        ctx.progress(f"{name}: collecting", 0, 0)
    before = ctx.counter.count if ctx.counter is not None else 0
    try:
        found = _run_one(name, replace(ctx, since=since), health)
    except (SourceError, RadarError) as exc:
        _count_requests(name, ctx, health, before)
        log.warning("%s failed: %s", name, exc)
        last_ok = (ctx.store.load_health().get(name) or {}).get("last_ok_at")
        health.status, health.stale_since = ("stale", last_ok) if last_ok else ("failed", None)
        health.errors.append(str(exc))
        with ctx.store.transaction() as conn:
            ctx.store.save_health(conn, name, False, str(exc))
        return
    _count_requests(name, ctx, health, before)
    health.requests += found.sent_elsewhere if ctx.counter is not None else 0
    health.parsed = len(found.items)
    health.errors.extend(found.errors)
    health.status = "partial" if found.errors else "ok"
    new_end = _advanced_end(last_end, since, ctx.until) if not found.errors else None
    if ctx.on_found is not None:
        ctx.on_found(name, found)
    with ctx.store.transaction() as conn:
        health.saved = _save(conn, ctx.store, name, found)
        ctx.store.save_health(conn, name, True, "; ".join(found.errors[:5]) or None)
        if new_end is not None:
            ctx.store.save_cursor(conn, WINDOW_CURSOR, name, new_end.isoformat())
            health.window_advanced = True
    summary.keys.extend(dict.fromkeys(s.key for s, _ in found.items))


def _count_requests(name: str, ctx: _Context, health: SourceHealth, before: int) -> None:
    """A web source's request count is what went over the wire, retries included."""
    if ctx.counter is not None and name in ("github", "host", "arxiv", "feeds"):
        health.requests = ctx.counter.count - before


def pending_keys(store: Store) -> set[str]:
    """Keys of the sources kept since the last complete daily run collected: what a
    standalone `radar collect` gathered in between, which the next daily weighs (#13)."""
    return set(store.source_keys_updated_after(store.last_stage_end("daily", "collect")))


CatchUp = Callable[[datetime | None], datetime]
"""catch_up(last window end or None) -> where a source's window starts."""
OnFound = Callable[[str, Found], None]
"""on_found(source name, what it found), before the source's writing transaction."""


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
    catch_up: CatchUp | None = None,
    reported: Reported | None = None,
    on_found: OnFound | None = None,
) -> CollectSummary:
    """Run the enabled (or named) sources over a window and keep what they return.

    Each source has its own window: without `since` it starts where that source's last
    complete window ended, so a source that failed (or was partial) is collected again
    from its old end on the next run, while the others move on (#13).

    Args:
        sources: names from SOURCE_NAMES; default every source the settings enable.
        since: window start of every source; default each source's own (see `catch_up`).
        until: window end; default now.
        client: an httpx.Client to use (a private one is made and closed otherwise).
        progress: progress(message, done, total); rate-limit waits count down through it.
        policy: retry/backoff/timeout policy (live defaults).
        catch_up: where a source's window starts, given its last window end (or None);
            default that end (at most `until`), else 7 days before `until`.
        reported: which of some GitHub repositories (owner/name) were reported already,
            lower-case: they are left out of what GitHub returns.
        on_found: told what each source found before writing it, and before the writing
            transaction opens (a caller may start work on it, or fork, meanwhile: the
            daily run extracts the claims of a long list ahead while it is saved, #19).
    """
    until = until or datetime.now(UTC)
    names = list(sources) if sources else _enabled(settings)
    unknown = [n for n in names if n not in SOURCE_NAMES]
    if unknown:
        raise SourceError(
            f"unknown source {unknown[0]!r}; choose from {', '.join(SOURCE_NAMES)}", unknown[0]
        )
    if since is None and catch_up is None:
        catch_up = partial(_default_since, until=until)
    policy = policy or RetryPolicy()
    if progress is not None and policy.on_wait is None:
        policy = replace(
            policy, on_wait=lambda reason, left: progress(f"{reason}: resuming in {left}s", 0, 0)
        )
    own = client is None
    timeout = policy.timeout

    def make_client() -> httpx.Client:
        # no cookie jar: a tenth of each request's CPU (#19)
        return StatelessClient(headers={"User-Agent": "research-radar"}, timeout=timeout)

    http = client or make_client()
    counter = _RequestCounter()
    http.event_hooks["request"] = [*http.event_hooks["request"], counter]
    summary = CollectSummary(window_start=since, window_end=until)
    ctx = _Context(
        store,
        settings,
        http,
        since or until,
        until,
        progress,
        policy,
        counter,
        make_client if own else None,
        reported,
        on_found,
    )
    try:
        for name in names:
            _collect_source(name, ctx, summary, None if since is not None else catch_up)
    finally:
        http.event_hooks["request"] = [h for h in http.event_hooks["request"] if h is not counter]
        if own:
            http.close()
    starts = [h.window_start for h in summary.sources.values() if h.window_start is not None]
    summary.window_start = since or min(starts, default=until)
    summary.queries = [
        str(q)
        for q in (
            settings.github.queries
            if settings.github.queries is not None
            else DEFAULT_GITHUB_QUERIES
        )
    ]
    return summary


def _default_since(last_end: datetime | None, *, until: datetime) -> datetime:
    if last_end is not None:
        return min(last_end, until)
    return until - timedelta(days=7)
