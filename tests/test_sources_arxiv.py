"""arXiv adapter: queries against the replay server, feedparser decoding."""

from __future__ import annotations

import contextlib
from datetime import UTC, datetime

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from research_radar.errors import SourceError
from research_radar.replay.server import serve_replay
from research_radar.sources import arxiv as ax
from research_radar.sources.http import RawResponse, RetryPolicy


def test_query_window_versions_and_code_links() -> None:
    with serve_replay() as server, httpx.Client() as client:
        api = ax.ArxivApi(client, server.arxiv_url, delay=0.0, policy=RetryPolicy(backoff=0.0))
        query = ax.build_query(
            "all:attention OR all:inference",
            datetime(2024, 9, 1, tzinfo=UTC),
            datetime(2024, 12, 1, tzinfo=UTC),
        )
        papers, total = ax.parse_feed(ax.fetch_query(api, query))
    assert total == 1
    source, snapshot = papers[0]
    assert source.key == "arxiv:2409.10516" and source.meta["versions"] == 2
    assert source.meta["code_links"] == ["https://github.com/microsoft/RetrievalAttention"]
    assert source.created_at == datetime(2024, 9, 16, 17, 59, 52, tzinfo=UTC)
    assert (snapshot.version, snapshot.url) == ("v2", "https://arxiv.org/abs/2409.10516v2")


def test_throttle_spaces_requests() -> None:
    slept: list[float] = []
    api = ax.ArxivApi(httpx.Client(), delay=3.0, policy=RetryPolicy(sleep=slept.append))
    api.throttle()
    api.throttle()
    api.client.close()
    assert len(slept) == 1 and 2.9 < slept[0] <= 3.0


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("http://arxiv.org/abs/2409.10516v2", ("2409.10516", "v2"), id="url"),
        pytest.param("2608.20359", ("2608.20359", "v1"), id="bare"),
        pytest.param(
            "http://arxiv.org/abs/hep-th/9901001v3", ("hep-th/9901001", "v3"), id="old-style"
        ),
    ],
)
def test_split_id(text: str, expected: tuple[str, str]) -> None:
    assert ax.split_id(text) == expected
    assert ax.arxiv_key(text) == f"arxiv:{expected[0]}"


def test_build_query_without_window() -> None:
    assert ax.build_query("cat:cs.LG", None, None) == "cat:cs.LG"


@given(st.binary(max_size=300))
def test_parse_feed_never_crashes_on_junk(body: bytes) -> None:
    with contextlib.suppress(SourceError, ValueError):
        ax.parse_feed(RawResponse("/api/query", 200, body))


def test_entry_without_an_arxiv_id_is_a_source_error() -> None:
    atom = (
        '<feed xmlns="http://www.w3.org/2005/Atom"><entry>'
        "<id>http://arxiv.org/abs/not-an-id</id><title>x</title></entry></feed>"
    )
    with pytest.raises(SourceError, match=r"malformed entry.*\(/api/query\)"):
        ax.parse_feed(RawResponse("/api/query", 200, atom.encode()))


# -- the plain Atom reader gives what feedparser gives (issue #19) ---------------------

_HEAD = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<feed xmlns="http://www.w3.org/2005/Atom" xmlns:arxiv="http://arxiv.org/schemas/atom"'
    ' xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">'
    "<opensearch:totalResults>{total}</opensearch:totalResults>"
)
_ENTRY = (
    "<entry><id>http://arxiv.org/abs/2501.0{n:04d}v{v}</id>"
    "<updated>{updated}</updated><published>{published}</published>"
    "<title>{title}</title><summary>{summary}</summary>"
    "<author><name>{author}</name><arxiv:affiliation>Lab</arxiv:affiliation></author>"
    "<author><name> Second  Author </name></author>"
    '<arxiv:comment xmlns:arxiv="http://arxiv.org/schemas/atom">{comment}</arxiv:comment>'
    '<link href="http://arxiv.org/abs/2501.0{n:04d}v{v}" rel="alternate" type="text/html"/>'
    '<arxiv:primary_category term="cs.LG" scheme="http://arxiv.org/schemas/atom"/>'
    '<category term="cs.LG" scheme="http://arxiv.org/schemas/atom"/>'
    '<category term="cs.LG" scheme="http://arxiv.org/schemas/atom"/>'
    '<category term="cs.DC"/>{extra}</entry>'
)


def _records(feed: dict[str, object]) -> object:
    entries = feed["entries"]
    assert isinstance(entries, list)
    head = feed["feed"]
    assert isinstance(head, dict)
    return [ax._entry(entry) for entry in entries], head.get("opensearch_totalresults")


def _feed(**fields: object) -> bytes:
    values: dict[str, object] = {
        "n": 1, "v": 2, "total": 1, "updated": "2025-01-03T10:00:00Z",
        "published": "2025-01-02T09:30:15Z", "title": "A  title\n  over lines",
        "summary": "Text with &lt;b&gt; &amp; https://github.com/a/b. Code.", "author": "A. Person",
        "comment": "12 pages; code at https://example.org/x", "extra": "",
    }  # fmt: skip
    values.update(fields)
    return (_HEAD + _ENTRY + "</feed>").format(**values).encode()


PLAIN_FEEDS = {
    "usual": _feed(),
    "no total": _feed().replace(b"<opensearch:totalResults>1</opensearch:totalResults>", b""),
    "offset dates": _feed(
        updated="2025-01-03T01:00:00+05:30", published="2024-12-31T23:59:59-08:00"
    ),
    "no updated": _feed().replace(b"<updated>2025-01-03T10:00:00Z</updated>", b""),
    "non-ASCII": _feed(title="Ünïcode 模型 — “quotes”", summary="é ü ß 中文", author="José Ñ"),
    "double-encoded UTF-8": _feed(title="CafÃ© model"),
    "journal and doi": _feed(
        extra="<arxiv:journal_ref> J. Sys. 3 (2025) </arxiv:journal_ref><arxiv:doi>10.1/x</arxiv:doi>"
    ),
    "empty fields": _feed(comment="", summary=" "),
    "CDATA": _feed(summary="<![CDATA[raw <text> & more]]>"),
    "two entries": (_HEAD + _ENTRY + _ENTRY + "</feed>")
    .format(
        n=7,
        v=1,
        total=40,
        updated="2025-02-01T00:00:00Z",
        published="2025-02-01T00:00:00Z",
        title="t",
        summary="s",
        author="a",
        comment="c",
        extra="",
    )
    .encode(),  # fmt: skip
}
LEFT_TO_FEEDPARSER = {
    "html title": _feed().replace(b"<title>", b'<title type="html">'),
    "C1 control": _feed(title="bad \x85 char"),
    "date without zone": _feed(published="2025-01-02T09:30:15"),
    "latin-1": _feed().replace(b'encoding="UTF-8"', b'encoding="ISO-8859-1"'),
    "other prefix": _feed()
    .replace(b"xmlns:arxiv=", b"xmlns:ax=")
    .replace(b"<arxiv:", b"<ax:")
    .replace(b"</arxiv:", b"</ax:"),
    "content element": _feed(extra="<content>body</content>"),
    "malformed": _feed()[:-30],
}


@pytest.mark.filterwarnings("ignore:To avoid breaking existing software:DeprecationWarning")
@pytest.mark.parametrize("body", list(PLAIN_FEEDS.values()), ids=list(PLAIN_FEEDS))
def test_plain_reader_gives_feedparsers_records(body: bytes) -> None:
    plain = ax._read_plain_atom(body)
    assert plain is not None
    assert _records(plain) == _records(ax._read_with_feedparser(body))


@pytest.mark.parametrize("body", list(LEFT_TO_FEEDPARSER.values()), ids=list(LEFT_TO_FEEDPARSER))
def test_what_the_plain_reader_cannot_read_exactly_goes_to_feedparser(body: bytes) -> None:
    assert ax._read_plain_atom(body) is None


def test_plain_reader_on_the_recorded_papers() -> None:
    """Every page the replay server answers for the bundled papers, read both ways."""
    from research_radar.replay.server import sample_root

    recorded = (sample_root() / "arxiv" / "papers.xml").read_bytes()
    plain = ax._read_plain_atom(recorded)
    assert plain is not None and len(plain["entries"]) >= 5
    assert _records(plain) == _records(ax._read_with_feedparser(recorded))
    with serve_replay() as server, httpx.Client() as client:
        api = ax.ArxivApi(client, server.arxiv_url, delay=0.0, policy=RetryPolicy(backoff=0.0))
        for query in ("all:*", "all:attention", "cat:cs.LG", "all:nothing-matches-this"):
            body = ax.fetch_query(api, query).body
            fast = ax._read_plain_atom(body)
            assert fast is not None
            assert _records(fast) == _records(ax._read_with_feedparser(body))
