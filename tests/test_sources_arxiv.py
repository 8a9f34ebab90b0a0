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
