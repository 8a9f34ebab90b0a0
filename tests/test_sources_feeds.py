"""Feeds: fetched from the replay server; an edited post is a new snapshot."""

from __future__ import annotations

import contextlib

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.provisional import urls

from research_radar.replay.server import serve_replay
from research_radar.sources import feeds
from research_radar.sources.http import RawResponse


def test_feed_posts() -> None:
    with serve_replay() as server, httpx.Client() as client:
        url = server.feed_url("inference-notes.xml")
        posts = feeds.parse_feed(feeds.fetch_feed(client, url), url)
    keys = [source.key for source, _ in posts]
    assert keys == [
        "url:https://blog.example.org/2026/08/infera-kv-aware-routing",
        "url:https://blog.example.org/2026/08/ninfer-mtp-conditions",
    ]
    first, snapshot = posts[0]
    assert "https://github.com/AMD-AGI/Infera" in first.meta["links"]
    assert first.updated_at is not None and first.updated_at.day == 26
    assert snapshot.content_hash == first.meta["content_hash"]


def _feed(body: str) -> RawResponse:
    xml = (
        '<rss version="2.0"><channel><title>t</title><item><title>Post</title>'
        f"<link>https://b.example/p</link><description>{body}</description></item></channel></rss>"
    )
    return RawResponse("https://b.example/rss", 200, xml.encode())


def test_edit_changes_the_version() -> None:
    ((_, before),) = feeds.parse_feed(_feed("first text"), "https://b.example/rss")
    ((_, same),) = feeds.parse_feed(_feed("first text"), "https://b.example/rss")
    ((_, after),) = feeds.parse_feed(_feed("edited text"), "https://b.example/rss")
    assert before.version == same.version != after.version


@given(urls())
def test_post_key_is_stable(url: str) -> None:
    key = feeds.post_key(url)
    assert key.startswith("url:https://")
    assert feeds.post_key(key.removeprefix("url:")) == key


@given(st.text(max_size=200))
def test_parse_feed_on_any_text(text: str) -> None:
    with contextlib.suppress(feeds.SourceError):
        feeds.parse_feed(RawResponse("x", 200, text.encode()), "x")


def test_unreadable_link_is_a_source_error() -> None:
    raw = _feed("text")
    bad = RawResponse(
        raw.request_key, 200, raw.body.replace(b"https://b.example/p", b"http://[::1/p")
    )
    with pytest.raises(feeds.SourceError, match=r"malformed post.*\(https://b.example/rss\)"):
        feeds.parse_feed(bad, "https://b.example/rss")
