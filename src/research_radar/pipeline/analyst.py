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
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, time
from functools import partial
from pathlib import Path

import httpx

from research_radar.analyse.chat import ChatWriter
from research_radar.analyse.prior_art import first_date
from research_radar.config import Settings
from research_radar.cores import aside
from research_radar.errors import SourceError
from research_radar.models import Finding, Snapshot, Source
from research_radar.sources.arxiv import ArxivApi, build_query, fetch_query, parse_feed
from research_radar.sources.http import RetryPolicy
from research_radar.sources.stateless import StatelessClient

__all__ = ["ArxivSearch", "LlmRun", "arxiv_search", "arxiv_terms", "llm_run", "search_arxiv"]

MAX_TERMS = 4
"""Mechanism terms per query."""
MAX_RESULTS = 10
"""Papers asked for per finding."""
THREADS = 4
"""Queries in flight at once when arXiv asks for no delay between them."""


def arxiv_terms(finding: Finding) -> list[str]:
    """The finding's first `MAX_TERMS` mechanism terms (the words its mechanism tags were
    chosen by), each once whatever its case."""
    terms: dict[str, str] = {}  # lower-case -> as first written
    for tag in finding.tags.get("mechanism", []):
        for term in tag.terms:
            cleaned = " ".join(term.replace('"', " ").split())
            if len(cleaned) > 2:
                terms.setdefault(cleaned.lower(), cleaned)
                if len(terms) == MAX_TERMS:  # the later terms are never asked (#19)
                    return list(terms.values())
    return list(terms.values())


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
    threads: int = THREADS,
) -> ArxivSearch:
    """One arXiv API query per finding with mechanism terms, restricted to submissions
    before its first date. Stops at the first failure (arXiv is then down for the gate).

    Findings alike in terms and first date ask once a run. Without a politeness delay
    (`settings.arxiv.delay` 0: a replay or a mirror) the distinct queries are sent by
    `threads` threads at once, so the waits for answers overlap (#19); the result is the
    one of asking in order: a query after the first failing one is neither counted nor
    read, and those not yet sent then are not sent.
    """
    out = ArxivSearch()
    policy = policy or RetryPolicy(retries=1, backoff=1.0, max_wait=30.0)
    own = client is None
    # no cookie jar, as collect's client: arXiv's API sets none (#19)
    http = client or StatelessClient(
        headers={"User-Agent": "research-radar"}, timeout=policy.timeout
    )
    api = ArxivApi(http, settings.arxiv_api_url, settings.arxiv.delay, policy)
    asked = [(finding, query) for finding in findings if (query := _query(finding))]
    distinct = list(dict.fromkeys(query for _, query in asked))
    found: dict[str, Source] = {}
    try:
        answers = list(_answers(api, distinct, threads if settings.arxiv.delay <= 0 else 1))
        out.queries = len(answers)
        pages: dict[str, list[tuple[Source, Snapshot]]] = {}
        for query, answer in zip(distinct, answers, strict=False):
            if isinstance(answer, SourceError):
                out.down = str(answer)  # a failure as its message: the result pickles
            else:
                pages[query] = answer
        for finding, query in asked:
            if query not in pages:
                break  # asked after arXiv failed
            for source, _snapshot in pages[query]:
                found.setdefault(source.key, source)
                out.queried.setdefault(finding.project_key, set()).add(source.key)
    finally:
        if own:
            http.close()
    out.papers = list(found.values())
    return out


@contextmanager
def arxiv_search(
    settings: Settings, findings: Sequence[Finding], *, fork: bool, threads: int = THREADS
) -> Iterator[Callable[[], ArxivSearch]]:
    """`search_arxiv` started: a function giving its result. With `fork` (on a machine
    that `cores.can_fork`), the search is made by a process forked on entering the block
    while the block goes on (a large search's parsing is Python work, #19); a failure
    of arXiv comes back in the result, as its message. Without, it is made on entering
    the block."""
    with aside(partial(search_arxiv, settings, findings, threads=threads), fork=fork) as found:
        yield found


def _query(finding: Finding) -> str | None:
    """The finding's arXiv query (None without mechanism terms)."""
    terms = arxiv_terms(finding)
    if not terms:
        return None
    clause = " OR ".join(f'abs:"{term}"' for term in terms)
    return build_query(clause, None, datetime.combine(first_date(finding), time(0), UTC))


Answer = list[tuple[Source, Snapshot]] | SourceError
"""The papers a query found, or why it failed."""


def _answers(api: ArxivApi, queries: list[str], threads: int) -> Iterator[Answer]:
    """The answer of each query in order, up to the first failure (its error included).

    With several threads, a query after one that failed is not sent (when it has not
    been yet); those before it are, as they would have been in order."""
    failed_at = [len(queries)]
    lock = threading.Lock()

    def ask(index: int) -> Answer | None:
        if index > failed_at[0]:
            return None  # after a failure: never read
        try:
            return parse_feed(fetch_query(api, queries[index], max_results=MAX_RESULTS))[0]
        except SourceError as error:
            with lock:
                failed_at[0] = min(failed_at[0], index)
            return error

    if threads <= 1:
        answers: Iterator[Answer | None] = map(ask, range(len(queries)))
        yield from _until_failure(answers)
        return
    with ThreadPoolExecutor(max_workers=threads) as pool:
        yield from _until_failure(pool.map(ask, range(len(queries))))


def _until_failure(answers: Iterator[Answer | None]) -> Iterator[Answer]:
    """The answers up to the first failure, that included (None: not asked, after it)."""
    for answer in answers:
        if answer is None:
            return
        yield answer
        if isinstance(answer, SourceError):
            return


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
