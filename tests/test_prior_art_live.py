"""The live arXiv prior-art search: one query per finding on its mechanism terms, before
its first date, through the arXiv adapter; a failing arXiv is named down (httpx mock
transport, no network)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib.resources import files

import httpx
import pytest

from research_radar.config import ArxivSettings, Settings
from research_radar.cores import can_fork
from research_radar.models import Finding, Snapshot, Tag
from research_radar.pipeline.analyst import arxiv_search, arxiv_terms, search_arxiv
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


def test_a_finding_asks_for_its_first_four_distinct_terms() -> None:
    tags = [
        Tag(dimension="mechanism", value=value, terms=terms)
        for value, terms in (
            ("quant-sparse-spec", ["KV cache", "kv  cache", "ab", "paged attention"]),
            ("kernel", ['"fused" kernel', "Paged Attention", "tiling", "warp specialisation"]),
        )
    ]
    finding = _finding().model_copy(update={"tags": {"mechanism": tags}})
    assert arxiv_terms(finding) == ["KV cache", "paged attention", "fused kernel", "tiling"]


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


def _findings(count: int) -> list[Finding]:
    """Findings each with a query of its own (their first dates differ)."""
    base = _finding()
    return [
        base.model_copy(
            update={
                "project_key": f"gh:o/p{n}",
                "snapshot": base.snapshot.model_copy(  # type: ignore[union-attr]
                    update={"meta": {"created_at": f"{date(2026, 6, 30) + timedelta(n + 1)}"}}
                ),
            }
        )
        for n in range(count)
    ]


def test_queries_in_flight_at_once_give_what_asking_in_order_gives() -> None:
    asked: list[str] = []
    both_in_flight = threading.Barrier(2, timeout=10)

    def answer(request: httpx.Request) -> httpx.Response:
        query = request.url.params["search_query"]
        asked.append(query)
        if "20260701" in query or "20260702" in query:
            both_in_flight.wait()  # passes only while the other one is in flight too
        return httpx.Response(200, content=PAPERS)

    def plain(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=PAPERS)

    findings = [*_findings(12), *_findings(3)]  # the last three ask what others asked
    with httpx.Client(transport=httpx.MockTransport(answer)) as client:
        together = search_arxiv(SETTINGS, findings, client=client, policy=_policy(), threads=4)
    with httpx.Client(transport=httpx.MockTransport(plain)) as client:
        in_order = search_arxiv(SETTINGS, findings, client=client, policy=_policy(), threads=1)
    assert together.queries == in_order.queries == len(asked) == len(set(asked)) == 12
    assert together.queried == in_order.queried and len(together.queried) == 12
    assert [p.key for p in together.papers] == [p.key for p in in_order.papers]
    assert together.down is None


@pytest.mark.parametrize("threads", [pytest.param(1, id="in-order"), pytest.param(4, id="four")])
def test_a_failure_among_queries_ends_the_search_where_it_would_in_order(threads: int) -> None:
    asked: list[str] = []

    def answer(request: httpx.Request) -> httpx.Response:
        query = request.url.params["search_query"]
        asked.append(query)
        if "20260705" in query:  # the fifth finding's query
            return httpx.Response(503, text="unavailable")
        return httpx.Response(200, content=PAPERS)

    with httpx.Client(transport=httpx.MockTransport(answer)) as client:
        found = search_arxiv(
            SETTINGS, _findings(40), client=client, policy=_policy(), threads=threads
        )
    assert found.queries == 5 and found.down and "503" in found.down
    assert sorted(found.queried) == [f"gh:o/p{n}" for n in range(4)] and found.papers
    assert len(asked) == 5 if threads == 1 else len(asked) >= 5


@pytest.fixture
def arxiv_server() -> Iterator[str]:
    """A local arXiv API: PAPERS for every query, 503 for the fifth and the thirty-fifth
    finding of `_findings` (first dates 2026-07-05 and 2026-08-04)."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            failing = "20260705" in self.path or "20260804" in self.path
            body = b"unavailable" if failing else PAPERS
            self.send_response(503 if failing else 200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/api/query"
    server.shutdown()
    server.server_close()


@pytest.mark.parametrize(
    ("count", "fork"),
    [
        pytest.param(30, False, id="in-this-process"),
        pytest.param(30, True, id="forked-failure"),
        pytest.param(4, True, id="forked-no-failure"),
        pytest.param(60, True, id="forked-two-failures"),
    ],
)
def test_a_search_started_ahead_gives_what_search_arxiv_gives(
    arxiv_server: str, count: int, fork: bool
) -> None:
    settings = Settings(arxiv_api_url=arxiv_server, arxiv=ArxivSettings(delay=0.0))
    findings = _findings(count)
    alone = search_arxiv(settings, findings)  # the policy arxiv_search asks with
    with arxiv_search(settings, findings, fork=fork and can_fork()) as started:
        ahead = started()
    assert (ahead.queries, ahead.down, ahead.queried) == (alone.queries, alone.down, alone.queried)
    assert [p.key for p in ahead.papers] == [p.key for p in alone.papers]
    assert alone.queries == (count if count < 5 else 5)
