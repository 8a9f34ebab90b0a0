"""The live arXiv prior-art search: one query per finding on its mechanism terms, before
its first date, through the arXiv adapter; a failing arXiv is named down (httpx mock
transport, no network)."""

from __future__ import annotations

from datetime import UTC, date, datetime
from importlib.resources import files

import httpx

from research_radar.config import ArxivSettings, Settings
from research_radar.models import Finding, Snapshot, Tag
from research_radar.pipeline.analyst import arxiv_terms, search_arxiv
from research_radar.sources.http import RetryPolicy

PAPERS = files("research_radar.sample").joinpath("replay/arxiv/papers.xml").read_bytes()
SETTINGS = Settings(arxiv_api_url="http://arxiv.test/api/query", arxiv=ArxivSettings(delay=0.0))


def _finding() -> Finding:
    return Finding(
        project_key="arxiv:2608.20359", name="SSR", date=date(2026, 8, 29),
        url="https://arxiv.org/abs/2608.20359", mechanism="self-speculative decoding",
        snapshot=Snapshot(source_key="arxiv:2608.20359", version="v1",
                          version_date=datetime(2026, 8, 28, 15, tzinfo=UTC),
                          meta={"created_at": "2026-08-28T15:00:00+00:00"}),
        tags={"mechanism": [Tag(dimension="mechanism", value="quant-sparse-spec",
                                terms=["speculative decoding", 'draft "model"'])]},
    )  # fmt: skip


def _policy() -> RetryPolicy:
    return RetryPolicy(retries=0, sleep=lambda _: None)


def test_one_query_per_finding_on_its_terms_before_its_first_date() -> None:
    asked: list[str] = []

    def answer(request: httpx.Request) -> httpx.Response:
        asked.append(request.url.params["search_query"])
        return httpx.Response(200, content=PAPERS)

    assert arxiv_terms(_finding()) == ["speculative decoding", "draft model"]
    with httpx.Client(transport=httpx.MockTransport(answer)) as client:
        found = search_arxiv(SETTINGS, [_finding()], client=client, policy=_policy())
    assert asked == [
        '(abs:"speculative decoding" OR abs:"draft model") '
        "AND submittedDate:[199101010000 TO 202608280000]"
    ]
    assert found.queries == 1 and found.down is None
    assert "arxiv:2309.08168" in found.queried["arxiv:2608.20359"]


def test_a_failing_arxiv_is_down_for_the_gate() -> None:
    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(503, text="unavailable")

    with httpx.Client(transport=httpx.MockTransport(answer)) as client:
        found = search_arxiv(SETTINGS, [_finding(), _finding()], client=client, policy=_policy())
    assert found.down and "arxiv" in found.down and found.queries == 1 and not found.papers
