"""RSS/Atom feeds (engineering blogs), decoded with feedparser.

A post's snapshot version is a hash of its title and content, so an edited post is a new
snapshot (an update) while an unchanged one is recognised as seen.
"""

from __future__ import annotations

import calendar
import hashlib
import re
from datetime import UTC, datetime
from html.parser import HTMLParser
from typing import Any
from urllib.parse import parse_qsl, urlencode, urljoin, urlsplit, urlunsplit

import httpx

from research_radar.errors import SourceError
from research_radar.models import Snapshot, Source, SourceKind
from research_radar.sources.http import RawResponse, ResponseCache, RetryPolicy, fetch

__all__ = ["fetch_feed", "parse_feed", "post_key"]

SOURCE = "feeds"
_URL = re.compile(r"https?://[^\s)<>\]\"'`]+")


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


class _Text(HTMLParser):
    """The visible text of an HTML fragment (entities unescaped) and its `<a href>` links."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            self.hrefs.extend(value for name, value in attrs if name == "href" and value)
        self.parts.append(" ")

    def handle_endtag(self, tag: str) -> None:
        self.parts.append(" ")

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def _read_html(fragment: str) -> tuple[str, list[str]]:
    """(text, links) of an HTML fragment: `&amp;`, `&#8217;`, `&nbsp;` read as characters,
    whitespace collapsed, and every `<a href>` kept."""
    parser = _Text()
    parser.feed(fragment)
    parser.close()
    text = " ".join("".join(parser.parts).replace("\xa0", " ").split())
    return text, parser.hrefs


def _absolute(link: str, base: str) -> str | None:
    """`link` made absolute against `base`; None for a link that cannot be read."""
    try:
        url = urljoin(base, link.strip())
        parts = urlsplit(url)
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return None
    return url


def _post(entry: Any, feed_title: str, feed_url: str, base: str) -> tuple[Source, Snapshot] | None:
    """One post, or None when its own link cannot be read (the rest of the feed goes on)."""
    link = _absolute(str(entry.get("link") or entry.get("id") or ""), base)
    if link is None:
        return None
    html = " ".join(c.get("value", "") for c in entry.get("content", [])) or str(
        entry.get("summary", "")
    )
    text, hrefs = _read_html(html)
    summary, _ = _read_html(str(entry.get("summary", "")))
    title, _ = _read_html(str(entry.get("title", "")))
    digest = hashlib.sha256(f"{title}\n{text}".encode()).hexdigest()
    published = _when(entry.get("published_parsed")) or _when(entry.get("updated_parsed"))
    updated = _when(entry.get("updated_parsed")) or published
    found = [*hrefs, *(u.rstrip(".,;") for u in _URL.findall(text))]
    links = [url for url in (_absolute(item, link) for item in found) if url is not None]
    source = Source(
        key=post_key(link),
        kind=SourceKind.BLOG,
        url=link,
        title=title,
        summary=summary,
        text=text,
        created_at=published,
        updated_at=updated,
        meta={
            "feed": feed_title,
            "feed_url": feed_url,
            "author": entry.get("author"),
            "published": published.isoformat() if published else None,
            "updated": updated.isoformat() if updated else None,
            "links": list(dict.fromkeys(links)),
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
    """Posts of a feed with their content-hash snapshots.

    Relative links resolve against the response's Content-Location (else the feed's URL);
    a post whose link cannot be read is skipped, not the feed.
    """
    headers = {key.lower(): value for key, value in raw.headers.items()}
    base = headers.get("content-location") or raw.final_url or feed_url
    import feedparser  # a heavy import, paid only by runs that read feeds (#19)

    feed = feedparser.parse(raw.body, response_headers={"content-location": base})
    if feed.get("bozo") and not feed.entries:
        raise SourceError(f"not a readable feed ({feed.get('bozo_exception')})", SOURCE, feed_url)
    title = _read_html(str(feed.feed.get("title", "")))[0] or feed_url
    posts = []
    try:
        for entry in feed.entries:
            if entry.get("link") or entry.get("id"):
                post = _post(entry, title, feed_url, base)
                if post is not None:
                    posts.append(post)
    except (LookupError, TypeError, AttributeError, ValueError) as exc:
        # a post the models reject: the feed is malformed (#3)
        detail = " ".join(str(exc).split())[:100]
        message = f"malformed post ({type(exc).__name__}: {detail})"
        raise SourceError(message, SOURCE, feed_url) from exc
    return posts
