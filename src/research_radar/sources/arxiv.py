"""arXiv API adapter: Atom responses fetched over HTTP and decoded.

arXiv asks for at most one request every three seconds; `ArxivApi.delay` enforces that
between requests of one run (0 for the replay server).

The API answers with a plain Atom feed. `feedparser` decodes it in about 18 ms a page, most
of it general machinery (sniffing, sanitising, a SAX handler per element); a plain feed is
read with the standard library's ElementTree into the same entry fields in a fraction of
that (issue #19). Whatever the fast reader does not know how to read exactly as feedparser
would (another encoding, a DTD, markup inside a title, unknown elements, unusual dates,
malformed XML) goes to feedparser, so the records are the same either way.
"""

from __future__ import annotations

import calendar
import contextlib
import re
import threading
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit

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
    feed = _read_plain_atom(raw.body)
    if feed is None:
        feed = _read_with_feedparser(raw.body)
    if feed.get("bozo") and not feed["entries"]:
        raise SourceError(f"malformed Atom ({feed.get('bozo_exception')})", SOURCE, raw.request_key)
    entries = feed["entries"]
    items = []
    try:
        total = int(feed["feed"].get("opensearch_totalresults", len(entries)) or 0)
        for entry in entries:
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


def _read_with_feedparser(body: bytes) -> dict[str, Any]:
    """The page as feedparser reads it: `feed`, `entries`, `bozo`, `bozo_exception`."""
    import feedparser  # loaded only for the pages the plain reader leaves to it

    parsed = feedparser.parse(body)
    return {
        "feed": parsed.feed,
        "entries": parsed.entries,
        "bozo": parsed.get("bozo"),
        "bozo_exception": parsed.get("bozo_exception"),
    }


# -- the plain Atom reader ---------------------------------------------------------------

_ATOM = "{http://www.w3.org/2005/Atom}"
_ARXIV_NS = "http://arxiv.org/schemas/atom"
_SEARCH_NS = "http://a9.com/-/spec/opensearch/1.1/"
_ARXIV = "{" + _ARXIV_NS + "}"
_SEARCH = "{" + _SEARCH_NS + "}"
_DECLARATION = re.compile(rb"^\s*<\?xml[^>]*?encoding=[\"']([A-Za-z0-9_.-]+)[\"']")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:Z|[+-]\d{2}:\d{2})")
_C1 = re.compile("[\x80-\x9f]")
_TEXT_FIELDS = {
    _ATOM + "id": "id",
    _ATOM + "title": "title",
    _ATOM + "summary": "summary",
    _ARXIV + "comment": "arxiv_comment",
    _ARXIV + "journal_ref": "arxiv_journal_ref",
    _ARXIV + "doi": "arxiv_doi",
}
_DATE_FIELDS = {_ATOM + "published": "published", _ATOM + "updated": "updated"}
_IGNORED = {_ATOM + "link"}
_AUTHOR_PARTS = {_ATOM + "name", _ATOM + "uri", _ATOM + "email", _ARXIV + "affiliation"}


class _NotPlain(Exception):
    """The page holds something only feedparser reads exactly: leave the page to it."""


def _read_plain_atom(body: bytes) -> dict[str, Any] | None:
    """A plain arXiv Atom page read as feedparser would read it, or None to use feedparser.

    Plain: UTF-8, no DTD, the usual namespace prefixes, an Atom `feed` of entries made of
    the elements arXiv writes, text fields without markup, dates in RFC 3339."""
    declared = _DECLARATION.match(body)
    if declared and declared.group(1).lower() not in (b"utf-8", b"utf8"):
        return None
    if b"<!DOCTYPE" in body or b"<!ENTITY" in body or not body.lstrip().startswith(b"<"):
        return None
    for uri, prefix in ((_ARXIV_NS, b"arxiv"), (_SEARCH_NS, b"opensearch")):
        declared_as = re.findall(
            rb"xmlns(?::([\w.-]+))?\s*=\s*[\"']" + re.escape(uri.encode()), body
        )
        if any(name != prefix for name in declared_as):
            return None  # feedparser names unknown namespaces' elements by their prefix
    try:
        root = ET.fromstring(body)
        if root.tag != _ATOM + "feed":
            return None
        entries = [_plain_entry(node) for node in root.findall(_ATOM + "entry")]
        totals = root.findall(_SEARCH + "totalResults")
    except (ET.ParseError, _NotPlain):
        return None
    if len(totals) > 1:
        return None
    feed = {"opensearch_totalresults": _plain_text(totals[0])} if totals else {}
    return {"feed": feed, "entries": entries, "bozo": False, "bozo_exception": None}


def _plain_entry(node: ET.Element) -> dict[str, Any]:
    entry: dict[str, Any] = {}
    for child in node:
        tag = child.tag
        if tag in _TEXT_FIELDS:
            if _TEXT_FIELDS[tag] in entry or child.get("type", "text") != "text":
                raise _NotPlain
            entry[_TEXT_FIELDS[tag]] = _plain_text(child)
        elif tag in _DATE_FIELDS:
            key = _DATE_FIELDS[tag] + "_parsed"
            if key in entry:
                raise _NotPlain
            entry[key] = _plain_date(child)
        elif tag == _ATOM + "author":
            entry.setdefault("authors", []).append(_plain_author(child))
        elif tag == _ATOM + "category":
            _plain_tag(entry.setdefault("tags", []), child)
        elif tag == _ARXIV + "primary_category":
            if (
                "arxiv_primary_category" in entry
                or not child.attrib
                or len(child)
                or (child.text or "").strip()
            ):
                raise _NotPlain
            entry["arxiv_primary_category"] = dict(child.attrib)
        elif tag not in _IGNORED:
            raise _NotPlain
    if "updated_parsed" not in entry and "published_parsed" in entry:
        entry["updated_parsed"] = entry["published_parsed"]  # as feedparser falls back
    return entry


def _plain_text(node: ET.Element) -> str:
    """An element's text as feedparser leaves it (stripped; double-encoded UTF-8 undone)."""
    if len(node) or node.attrib.keys() - {"type"}:
        raise _NotPlain
    text = (node.text or "").strip()
    with contextlib.suppress(UnicodeEncodeError, UnicodeDecodeError):
        text = text.encode("iso-8859-1").decode("utf-8")
    if _C1.search(text):
        raise _NotPlain  # feedparser maps these to Windows-1252 characters
    return text


def _plain_date(node: ET.Element) -> time.struct_time:
    text = _plain_text(node)
    if not _DATE.fullmatch(text):
        raise _NotPlain
    when = datetime.fromisoformat(text.replace("Z", "+00:00"))
    return when.astimezone(UTC).timetuple()


def _plain_author(node: ET.Element) -> dict[str, str]:
    author: dict[str, str] = {}
    for part in node:
        if part.tag not in _AUTHOR_PARTS:
            raise _NotPlain
        if part.tag == _ATOM + "name":
            if "name" in author:
                raise _NotPlain
            author["name"] = _plain_text(part)
    if "name" not in author or (node.text or "").strip():
        raise _NotPlain
    return author


def _plain_tag(tags: list[dict[str, str | None]], node: ET.Element) -> None:
    """feedparser's tag list: (term, scheme, label) once each, empty ones left out."""
    if len(node) or (node.text or "").strip():
        raise _NotPlain
    tag = {"term": node.get("term"), "scheme": node.get("scheme"), "label": node.get("label")}
    if any(tag.values()) and tag not in tags:
        tags.append(tag)
