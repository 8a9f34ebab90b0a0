"""arXiv API adapter: Atom responses fetched over HTTP, decoded with feedparser.

arXiv asks for at most one request every three seconds; `ArxivApi.delay` enforces that
between requests of one run (0 for the replay server).
"""

from __future__ import annotations

import calendar
import re
import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit

import feedparser
import httpx

from research_radar.errors import SourceError
from research_radar.models import Snapshot, Source, SourceKind
from research_radar.sources.http import RawResponse, ResponseCache, RetryPolicy, fetch

__all__ = ["ArxivApi", "arxiv_key", "build_query", "fetch_query", "parse_feed", "split_id"]

SOURCE = "arxiv"
_ID = re.compile(r"(\d{4}\.\d{4,5}|[a-z\-]+(?:\.[A-Z]{2})?/\d{7})(v\d+)?$")
_URL = re.compile(r"https?://[^\s)>\]\"'`]+")


@dataclass
class ArxivApi:
    """The API endpoint (settings.arxiv_api_url) and the politeness delay."""

    client: httpx.Client
    url: str = "https://export.arxiv.org/api/query"
    delay: float = 3.0
    policy: RetryPolicy = field(default_factory=RetryPolicy)
    cache: ResponseCache | None = None
    _last: float = field(default=0.0, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def throttle(self) -> None:
        """Sleep until `delay` seconds have passed since the previous request."""
        with self._lock:
            gap = self._last + self.delay - time.monotonic()
            if gap > 0:
                self.policy.sleep(gap)
            self._last = time.monotonic()


def split_id(entry_id: str) -> tuple[str, str]:
    """`http://arxiv.org/abs/2409.10516v2` -> ("2409.10516", "v2")."""
    match = _ID.search(entry_id.strip().rstrip("/"))
    if not match:
        raise ValueError(f"not an arXiv id: {entry_id!r}")
    return match.group(1), match.group(2) or "v1"


def arxiv_key(arxiv_id: str) -> str:
    """`arxiv:NNNN.NNNNN`, version stripped."""
    return "arxiv:" + split_id(arxiv_id)[0]


def build_query(terms: str, since: datetime | None, until: datetime | None) -> str:
    """Add a submittedDate window (UTC, minute precision) to a search query."""
    if since is None and until is None:
        return terms
    low = (since or datetime(1991, 1, 1, tzinfo=UTC)).astimezone(UTC).strftime("%Y%m%d%H%M")
    high = (until or datetime(2999, 1, 1, tzinfo=UTC)).astimezone(UTC).strftime("%Y%m%d%H%M")
    return f"({terms}) AND submittedDate:[{low} TO {high}]"


def fetch_query(
    api: ArxivApi, search_query: str, *, start: int = 0, max_results: int = 100
) -> RawResponse:
    """One page of an API query, newest submissions first."""
    api.throttle()
    parts = urlsplit(api.url)
    base = f"{parts.scheme}://{parts.netloc}"
    params = {
        "search_query": search_query,
        "start": start,
        "max_results": max_results,
        "sortBy": "submittedDate",
        "sortOrder": "descending",
    }
    return fetch(
        api.client,
        base,
        parts.path,
        source=SOURCE,
        params=params,
        policy=api.policy,
        cache=api.cache,
    )


def _when(struct: Any) -> datetime | None:
    return datetime.fromtimestamp(calendar.timegm(struct), UTC) if struct else None


def _entry(entry: Any) -> tuple[Source, Snapshot]:
    arxiv_id, version = split_id(str(entry.get("id", "")))
    abstract = " ".join(str(entry.get("summary", "")).split())
    comment = " ".join(str(entry.get("arxiv_comment", "")).split())
    journal = str(entry.get("arxiv_journal_ref", ""))
    links = list(
        dict.fromkeys(u.rstrip(".,;") for u in _URL.findall(f"{abstract} {comment} {journal}"))
    )
    published, updated = _when(entry.get("published_parsed")), _when(entry.get("updated_parsed"))
    source = Source(
        key=f"arxiv:{arxiv_id}",
        kind=SourceKind.PAPER,
        url=f"https://arxiv.org/abs/{arxiv_id}",
        title=" ".join(str(entry.get("title", "")).split()),
        summary=abstract,
        text=abstract
        + (f"\n\nComments: {comment}" if comment else "")
        + (f"\n\nJournal-ref: {journal}" if journal else ""),
        created_at=published,
        updated_at=updated,
        meta={
            "arxiv_id": arxiv_id,
            "version": version,
            "versions": int(version[1:]),
            "v1_date": published.isoformat() if published else None,
            "latest_date": updated.isoformat() if updated else None,
            "comment": comment,
            "journal_ref": journal,
            "doi": entry.get("arxiv_doi"),
            "primary_category": (entry.get("arxiv_primary_category") or {}).get("term"),
            "categories": [t.get("term") for t in entry.get("tags", [])],
            "authors": [a.get("name") for a in entry.get("authors", [])],
            "links": links,
            "code_links": [u for u in links if "github.com/" in u],
        },
    )
    snapshot = Snapshot(
        source_key=source.key,
        version=version,
        version_date=updated or published,
        url=f"https://arxiv.org/abs/{arxiv_id}{version}",
        meta={"v1_date": source.meta["v1_date"]},
    )
    return source, snapshot


def parse_feed(raw: RawResponse) -> tuple[list[tuple[Source, Snapshot]], int]:
    """Papers of one API page and the query's total result count."""
    feed = feedparser.parse(raw.body)
    if feed.get("bozo") and not feed.entries:
        raise SourceError(f"malformed Atom ({feed.get('bozo_exception')})", SOURCE, raw.request_key)
    items = []
    try:
        total = int(feed.feed.get("opensearch_totalresults", len(feed.entries)) or 0)
        for entry in feed.entries:
            if "api/errors" in str(entry.get("id", "")):
                message = f"arXiv API error: {entry.get('summary')}"
                raise SourceError(message, SOURCE, raw.request_key)
            items.append(_entry(entry))
    except (LookupError, TypeError, AttributeError, ValueError) as exc:
        # an entry the models reject (no arXiv id, a bad date): the page is malformed (#3)
        detail = " ".join(str(exc).split())[:100]
        message = f"malformed entry ({type(exc).__name__}: {detail})"
        raise SourceError(message, SOURCE, raw.request_key) from exc
    return items, total
