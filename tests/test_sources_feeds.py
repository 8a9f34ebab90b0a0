"""Feeds: fetched from the replay server; an edited post is a new snapshot."""

from __future__ import annotations

import contextlib

import httpx
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


def _atom(*entries: str, headers: dict[str, str] | None = None) -> RawResponse:
    xml = '<feed xmlns="http://www.w3.org/2005/Atom"><title>Notes &amp; more</title>' + "".join(
        f"<entry>{entry}</entry>" for entry in entries
    )
    return RawResponse(
        "https://b.example/feed", 200, (xml + "</feed>").encode(), None, headers or {}
    )


def test_one_unreadable_link_skips_that_post_not_the_feed() -> None:
    raw = _atom(
        '<title>bad</title><link href="http://[::1/p"/>',
        '<title>good</title><link href="https://b.example/good"/>',
    )
    posts = feeds.parse_feed(raw, "https://b.example/feed")
    assert [source.url for source, _ in posts] == ["https://b.example/good"]


def test_posts_keep_their_a_href_links_and_read_entities() -> None:
    content = (
        "&lt;p&gt;We ported &lt;a href=&quot;https://github.com/Neroued/ninfer&quot;&gt;NInfer"
        "&lt;/a&gt; &amp;amp; read &lt;a href=&quot;/papers/mtp&quot;&gt;the paper&lt;/a&gt;"
        " &amp;#8217;s tables&amp;nbsp;today &lt;a href=&quot;http://[broken&quot;&gt;x&lt;/a&gt;&lt;/p&gt;"
    )
    raw = _atom(
        '<title>It&#8217;s fast &amp;amp; small</title><link href="/2026/08/post"/>'
        f'<content type="html">{content}</content>',
        headers={"Content-Location": "https://blog.example.org/feed/"},
    )
    [(post, _)] = feeds.parse_feed(raw, "https://b.example/feed")
    assert post.url == "https://blog.example.org/2026/08/post"
    assert post.key == "url:https://blog.example.org/2026/08/post"
    assert post.title == "It\u2019s fast & small"
    assert "&amp;" not in post.text and "&#8217;" not in post.text and "&nbsp;" not in post.text
    assert "NInfer & read the paper \u2019s tables today" in post.text
    assert post.meta["links"] == [
        "https://github.com/Neroued/ninfer",
        "https://blog.example.org/papers/mtp",
    ]


def test_relative_links_without_content_location_resolve_against_the_feed_url() -> None:
    raw = _atom('<title>p</title><link href="relative/uri"/>')
    [(post, _)] = feeds.parse_feed(raw, "https://b.example/blog/feed.xml")
    assert post.url == "https://b.example/blog/relative/uri"
