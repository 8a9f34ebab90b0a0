"""The analyst's edges in the assess stage: the live arXiv prior-art search per finding and
the optional OpenAI-compatible writer with its answer cache.

arXiv is asked, through the collector's adapter, for papers on the finding's mechanism
terms submitted before the finding's first date; a failing request marks arXiv down for
the prior-art gate (the other origins are still searched). The writer is built only when
`[llm]` names a base URL and a model; its answers are cached by the evidence pack's hash
in a JSON file beside the repository cache, so a re-run makes no request.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, time
from pathlib import Path

import httpx

from research_radar.analyse.chat import ChatWriter
from research_radar.analyse.prior_art import first_date
from research_radar.config import Settings
from research_radar.errors import SourceError
from research_radar.models import Finding, Snapshot, Source
from research_radar.sources.arxiv import ArxivApi, build_query, fetch_query, parse_feed
from research_radar.sources.http import RetryPolicy

__all__ = ["ArxivSearch", "LlmRun", "arxiv_terms", "llm_run", "search_arxiv"]

MAX_TERMS = 4
"""Mechanism terms per query."""
MAX_RESULTS = 10
"""Papers asked for per finding."""


def arxiv_terms(finding: Finding) -> list[str]:
    """The finding's mechanism terms (the words its mechanism tags were chosen by)."""
    terms: list[str] = []
    for tag in finding.tags.get("mechanism", []):
        for term in tag.terms:
            cleaned = " ".join(term.replace('"', " ").split())
            if len(cleaned) > 2 and cleaned.lower() not in (t.lower() for t in terms):
                terms.append(cleaned)
    return terms[:MAX_TERMS]


@dataclass
class ArxivSearch:
    """What the live search found: papers (a pool shared by the day's findings; each is
    compared only with papers dated before it), requests made, and why arXiv was down."""

    papers: list[Source] = field(default_factory=list)
    queried: dict[str, set[str]] = field(default_factory=dict)
    """project key -> the papers its own query returned."""
    queries: int = 0
    down: str | None = None


def search_arxiv(
    settings: Settings,
    findings: Sequence[Finding],
    *,
    client: httpx.Client | None = None,
    policy: RetryPolicy | None = None,
) -> ArxivSearch:
    """One arXiv API query per finding with mechanism terms, restricted to submissions
    before its first date. Stops at the first failure (arXiv is then down for the gate)."""
    out = ArxivSearch()
    policy = policy or RetryPolicy(retries=1, backoff=1.0, max_wait=30.0)
    own = client is None
    http = client or httpx.Client(headers={"User-Agent": "research-radar"}, timeout=policy.timeout)
    api = ArxivApi(http, settings.arxiv_api_url, settings.arxiv.delay, policy)
    found: dict[str, Source] = {}
    # query -> its papers: findings alike in terms and first date ask once a run (#19)
    pages: dict[str, list[tuple[Source, Snapshot]]] = {}
    try:
        for finding in findings:
            terms = arxiv_terms(finding)
            if not terms:
                continue
            clause = " OR ".join(f'abs:"{term}"' for term in terms)
            until = datetime.combine(first_date(finding), time(0), UTC)
            query = build_query(clause, None, until)
            if query not in pages:
                out.queries += 1
                try:
                    raw = fetch_query(api, query, max_results=MAX_RESULTS)
                    pages[query] = parse_feed(raw)[0]
                except SourceError as error:
                    out.down = str(error)
                    break
            items = pages[query]
            for source, _snapshot in items:
                found.setdefault(source.key, source)
                out.queried.setdefault(finding.project_key, set()).add(source.key)
    finally:
        if own:
            http.close()
    out.papers = list(found.values())
    return out


@dataclass
class LlmRun:
    """The writer of one run, its answer cache and budget."""

    writer: ChatWriter | None = None
    cache: dict[str, str] = field(default_factory=dict)
    max_requests: int = 0


def _cache_file(settings: Settings) -> Path:
    return settings.git.cache_dir.parent / "llm-answers.json"


@contextmanager
def llm_run(settings: Settings, client: httpx.Client | None = None) -> Iterator[LlmRun]:
    """The configured writer (none when `[llm]` is off) with its cache, saved on exit."""
    llm = settings.llm
    if not llm.enabled or llm.base_url is None or llm.model is None:
        yield LlmRun()
        return
    path = _cache_file(settings)
    try:
        cache = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    except (OSError, ValueError):
        cache = {}
    own = client is None
    http = client or httpx.Client(headers={"User-Agent": "research-radar"})
    writer = ChatWriter(http, llm.base_url, llm.model, settings.llm_api_key, llm.timeout)
    run = LlmRun(writer, cache if isinstance(cache, dict) else {}, llm.max_requests)
    try:
        yield run
    finally:
        if own:
            http.close()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(run.cache, ensure_ascii=False, indent=1), "utf-8")
        except OSError:
            pass  # a cache that cannot be written costs requests next time, nothing more
