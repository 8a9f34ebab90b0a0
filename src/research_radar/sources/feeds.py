"""RSS/Atom feeds (engineering blogs), decoded with feedparser.

A post's snapshot version is a hash of its title and content, so an edited post is a new
snapshot (an update) while an unchanged one is recognised as seen.
"""

from __future__ import annotations

import calendar
import hashlib
import re
from datetime import UTC, datetime
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import feedparser
import httpx

from research_radar.errors import SourceError
from research_radar.models import Snapshot, Source, SourceKind
from research_radar.sources.http import RawResponse, ResponseCache, RetryPolicy, fetch

__all__ = ["fetch_feed", "parse_feed", "post_key"]

SOURCE = "feeds"
_URL = re.compile(r"https?://[^\s)<>\]\"'`]+")
_TAGS = re.compile(r"<[^>]+>")


def post_key(url: str) -> str:
    """`url:` + a lightly normalised URL (identity.py owns the full normalisation)."""
    parts = urlsplit(url.strip())
    query = [(k, v) for k, v in parse_qsl(parts.query) if not k.startswith("utm_")]
    path = parts.path.rstrip("/") or "/"
    return "url:" + urlunsplit(
        ("https", parts.netloc.lower().removeprefix("www."), path, urlencode(query), "")
    )


def fetch_feed(
    client: httpx.Client,
    url: str,
    *,
    policy: RetryPolicy | None = None,
    cache: ResponseCache | None = None,
) -> RawResponse:
    parts = urlsplit(url)
    base = f"{parts.scheme}://{parts.netloc}"
    path = parts.path + (f"?{parts.query}" if parts.query else "")
    return fetch(
        client,
        base,
        path,
        source=SOURCE,
        policy=policy,
        cache=cache,
        key=url,
        headers={"Accept": "application/atom+xml, application/rss+xml, application/xml;q=0.9"},
    )


def _when(struct: Any) -> datetime | None:
    return datetime.fromtimestamp(calendar.timegm(struct), UTC) if struct else None


def _post(entry: Any, feed_title: str, feed_url: str) -> tuple[Source, Snapshot]:
    link = str(entry.get("link") or entry.get("id") or "")
    html = " ".join(c.get("value", "") for c in entry.get("content", [])) or str(
        entry.get("summary", "")
    )
    text = " ".join(_TAGS.sub(" ", html).split())
    title = " ".join(str(entry.get("title", "")).split())
    digest = hashlib.sha256(f"{title}\n{text}".encode()).hexdigest()
    published = _when(entry.get("published_parsed")) or _when(entry.get("updated_parsed"))
    updated = _when(entry.get("updated_parsed")) or published
    source = Source(
        key=post_key(link),
        kind=SourceKind.BLOG,
        url=link,
        title=title,
        summary=" ".join(_TAGS.sub(" ", str(entry.get("summary", ""))).split()),
        text=text,
        created_at=published,
        updated_at=updated,
        meta={
            "feed": feed_title,
            "feed_url": feed_url,
            "author": entry.get("author"),
            "published": published.isoformat() if published else None,
            "updated": updated.isoformat() if updated else None,
            "links": list(dict.fromkeys(u.rstrip(".,;") for u in _URL.findall(text))),
            "content_hash": digest,
        },
    )
    snapshot = Snapshot(
        source_key=source.key,
        version=digest[:16],
        version_date=updated,
        url=link,
        content_hash=digest,
    )
    return source, snapshot


def parse_feed(raw: RawResponse, feed_url: str) -> list[tuple[Source, Snapshot]]:
    """Posts of a feed with their content-hash snapshots."""
    feed = feedparser.parse(raw.body)
    if feed.get("bozo") and not feed.entries:
        raise SourceError(f"not a readable feed ({feed.get('bozo_exception')})", SOURCE, feed_url)
    title = str(feed.feed.get("title", feed_url))
    try:
        return [
            _post(entry, title, feed_url)
            for entry in feed.entries
            if entry.get("link") or entry.get("id")
        ]
    except (LookupError, TypeError, AttributeError, ValueError) as exc:
        # a post the models reject (e.g. a link urlsplit cannot read): the feed is malformed (#3)
        detail = " ".join(str(exc).split())[:100]
        message = f"malformed post ({type(exc).__name__}: {detail})"
        raise SourceError(message, SOURCE, feed_url) from exc
