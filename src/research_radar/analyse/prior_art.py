"""Prior-art search: the nearest earlier works of each finding, ranked by similarity.

Candidates come from (a) the store's earlier findings, (b) arXiv papers in the store (what
the arXiv collector fetched, live or from the replay), (c) works the finding's own README or
abstract links to (and the project it derives from) and (d) the other findings of the day.
Only works dated before the finding's first date count. Ranking uses the WordLlama
embeddings of the classifier (BM25 via bm25s when they cannot load). Pure apart from the
embedder, which is loaded offline; the caller hands in everything read from the store.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime

import numpy as np

from research_radar.models import Finding, PriorSearch, PriorWork, Source, SourceKind
from research_radar.resolve.keys import github_key

__all__ = [
    "MIN_SCORE",
    "Candidate",
    "Similarity",
    "bm25_similarity",
    "candidates_from_findings",
    "candidates_from_papers",
    "embedding_similarity",
    "first_date",
    "linked_keys",
    "search_prior_art",
]

MIN_SCORE = 0.62
"""Embedding cosine from which an earlier work counts as near (linked works always do)."""
MIN_BM25 = 0.2
"""Normalised BM25 score from which an earlier work counts as near (fallback ranking)."""
QUERIED_FACTOR = 0.8
"""A paper the finding's own arXiv query returned (its mechanism terms matched) is near
from this share of the floor: two signals, the terms and the similarity."""
TOP_K = 3
"""How many nearest earlier works are kept."""

_ARXIV_LINK = re.compile(r"arxiv\.org/(?:abs|pdf)/(\d{4}\.\d{4,5})", re.I)
_GH_LINK = re.compile(r"github\.com/([\w.-]+/[\w.-]+?)(?:\.git)?(?=[/\s)#\]\"'`]|$)", re.I)

Similarity = Callable[[Sequence[str], Sequence[str]], "np.ndarray"]
"""(queries, documents) -> (queries, documents) similarity matrix in 0..1."""


@dataclass(frozen=True)
class Candidate:
    """An earlier work that may be prior art, with the text it is compared by."""

    key: str
    name: str
    text: str
    when: date | None
    origin: str
    """history, arxiv or today ("linked" is decided per finding)."""


def _day(moment: datetime | date | str | None) -> date | None:
    if moment is None:
        return None
    if isinstance(moment, str):
        try:
            return datetime.fromisoformat(moment).date()
        except ValueError:
            return None
    return moment.date() if isinstance(moment, datetime) else moment


def first_date(finding: Finding) -> date:
    """The finding's first date: created / first posted, else its version date, else its date."""
    snap = finding.snapshot
    created = _day(snap.meta.get("created_at")) if snap else None
    return created or (_day(snap.version_date) if snap else None) or finding.date


def finding_text(finding: Finding) -> str:
    """What a finding is compared by: name, mechanism sentence and tag values."""
    tags = " ".join(tag.value for tags in finding.tags.values() for tag in tags)
    return f"{finding.name}. {finding.mechanism} {finding.prior_art} {tags}".strip()


def candidates_from_findings(findings: Sequence[Finding], origin: str) -> list[Candidate]:
    """One candidate per project (its newest finding); dated by its first report or creation."""
    newest: dict[str, Finding] = {}
    first: dict[str, date] = {}
    for finding in findings:
        key = finding.project_key
        if key not in newest or finding.date >= newest[key].date:
            newest[key] = finding
        first[key] = min(first.get(key, finding.date), finding.date)
    out = []
    for key, finding in newest.items():
        when = first[key] if origin == "history" else first_date(finding)
        out.append(Candidate(key, finding.name, finding_text(finding), when, origin))
    return out


def candidates_from_papers(sources: Sequence[Source]) -> list[Candidate]:
    """arXiv papers held in the store, dated by their first submission."""
    return [
        Candidate(
            source.key,
            source.title or source.key,
            f"{source.title}. {source.summary or source.text[:600]}",
            _day(source.created_at),
            "arxiv",
        )
        for source in sources
        if source.kind is SourceKind.PAPER
    ]


def linked_keys(text: str) -> set[str]:
    """Canonical keys of the papers and repositories a README or abstract links to."""
    keys = {f"arxiv:{found}" for found in _ARXIV_LINK.findall(text)}
    keys |= {github_key(found) for found in _GH_LINK.findall(text)}
    return keys


def embedding_similarity(queries: Sequence[str], documents: Sequence[str]) -> np.ndarray:
    """Cosine of WordLlama embeddings (the classifier's, loaded offline)."""
    return _embedded_rows(queries, documents)(0, len(queries))


def _embedded_rows(
    queries: Sequence[str], documents: Sequence[str], same: Sequence[int | None] = ()
) -> Callable[[int, int], np.ndarray]:
    """`embedding_similarity` of the queries [lo, hi), the texts embedded once.

    `same`: for each document, the query whose text it is (None: another text), whose
    vector it takes: each of the day's findings is a query and a candidate (#19). A text's
    vector does not depend on the texts embedded with it."""
    from research_radar.classify.learned import embed

    same = same or [None] * len(documents)
    fresh = [document for document, row in zip(documents, same, strict=True) if row is None]
    vectors = embed([*queries, *fresh])
    left, others = vectors[: len(queries)], iter(range(len(queries), len(vectors)))
    right = vectors[[next(others) if row is None else row for row in same]]

    def rows(lo: int, hi: int) -> np.ndarray:
        scores: np.ndarray = left[lo:hi] @ right.T
        return np.clip(scores, 0.0, 1.0, out=scores)  # in place: no second matrix (#19)

    return rows


ROWS = 2048
"""Findings scored against the pool at a time: 10,000 findings × a pool of 10,000 would
be a 400 MB matrix (#19). (A block's products may differ from the whole matrix's in the
last bit of a float32, so a day of at most this many findings is scored as one block.)"""


def _score_rows(
    similarity: Similarity,
    queries: Sequence[str],
    documents: Sequence[str],
    same: Sequence[int | None] = (),
) -> Callable[[int, int], np.ndarray]:
    """The similarity of the queries [lo, hi) to every document (`same`: see
    `_embedded_rows`)."""
    if not queries or not documents:
        return lambda lo, hi: np.zeros((len(queries[lo:hi]), len(documents)))
    if similarity is embedding_similarity:
        return _embedded_rows(queries, documents, same)
    return lambda lo, hi: similarity(queries[lo:hi], documents)


def bm25_similarity(queries: Sequence[str], documents: Sequence[str]) -> np.ndarray:
    """BM25 scores of each document for each query, scaled by the query's self-score."""
    import bm25s

    out = np.zeros((len(queries), len(documents)), dtype=np.float32)
    if not documents or not queries:
        return out
    retriever = bm25s.BM25()
    retriever.index(bm25s.tokenize(list(documents), show_progress=False), show_progress=False)
    for row, query in enumerate(queries):
        tokens = bm25s.tokenize([query], show_progress=False, return_ids=False)[0]
        scores = np.asarray(retriever.get_scores(tokens), dtype=np.float32)
        top = float(scores.max()) if scores.size else 0.0
        out[row] = scores / top if top > 0 else scores
    return out


def _similarity() -> tuple[Similarity, str, float]:
    try:
        from research_radar.classify.learned import load_embedder

        load_embedder()
    except (ImportError, OSError, ValueError):
        return bm25_similarity, "bm25", MIN_BM25
    return embedding_similarity, "embeddings", MIN_SCORE


def search_prior_art(
    findings: Sequence[Finding],
    *,
    history: Sequence[Finding],
    papers: Sequence[Source],
    texts: dict[str, str] | None = None,
    down: Sequence[str] = (),
    own: dict[str, set[str]] | None = None,
    similarity: Similarity | None = None,
    min_score: float | None = None,
    queried: dict[str, set[str]] | None = None,
) -> list[tuple[list[PriorWork], PriorSearch]]:
    """For each finding, its 1-3 nearest earlier works and what was searched.

    Args:
        findings: the day's findings (each is also a candidate for the others).
        history: the store's earlier findings.
        papers: paper sources in the store (arXiv).
        texts: project key -> the source's own README/abstract text (for its links).
        down: search origins whose source was down ("arxiv").
        own: project key -> the keys of its own sources (its paper is not its prior art).
        similarity: a ranking function; default embeddings, BM25 when they cannot load.
        min_score: the similarity from which a work is near (with `similarity`).
        queried: project key -> the papers its own live arXiv query returned.
    """
    if similarity is None:
        similarity, method, floor = _similarity()
    else:
        method, floor = "given", MIN_SCORE
    floor = floor if min_score is None else min_score
    pool = [
        *candidates_from_findings(history, "history"),
        *([] if "arxiv" in down else candidates_from_papers(papers)),
        *candidates_from_findings(findings, "today"),
    ]
    pool = _dedup(pool)
    texts = texts or {}
    queries = [finding_text(f) for f in findings]
    row_of = {f.project_key: row for row, f in enumerate(findings)}
    same = [
        row
        if candidate.origin == "today"
        and (row := row_of.get(candidate.key)) is not None
        and queries[row] == candidate.text
        else None
        for candidate in pool
    ]
    score_rows = _score_rows(similarity, queries, [c.text for c in pool], same)
    columns = _PoolColumns.of(pool)
    results = []
    block = np.zeros((0, len(pool)))
    for row, finding in enumerate(findings):
        if row % ROWS == 0:
            block = score_rows(row, row + ROWS)
        scores = block[row % ROWS]
        start = first_date(finding)
        mine = (own or {}).get(finding.project_key, set())
        asked = (queried or {}).get(finding.project_key, set())
        links = linked_keys(texts.get(finding.project_key, ""))
        if finding.derived_from:
            links.add(finding.derived_from.parent)
        # numpy narrows the pool to the dated candidates and to those near enough under
        # the lower (queried) floor; the exact test below then runs on those few (#19)
        dated = columns.history | (columns.when < start.toordinal())
        row_scores = np.asarray(scores, dtype=np.float64) if pool else np.zeros(0)
        near = dated & (row_scores >= min(floor, floor * QUERIED_FACTOR))
        shortlist = set(np.flatnonzero(near).tolist())
        shortlist |= {columns.index[key] for key in links if key in columns.index}
        skipped = {
            columns.index[key] for key in {finding.project_key, *mine} if key in columns.index
        }
        counts = {
            origin: int(np.count_nonzero(dated & mask))
            - sum(1 for column in skipped if dated[column] and pool[column].origin == origin)
            for origin, mask in columns.origins.items()
        }
        works = []
        for column in sorted(shortlist - skipped):
            candidate = pool[column]
            if not dated[column]:
                continue
            linked = candidate.key in links
            origin = "linked" if linked else candidate.origin
            score = float(scores[column])
            if linked or score >= (floor * QUERIED_FACTOR if candidate.key in asked else floor):
                works.append(
                    PriorWork(
                        key=candidate.key,
                        name=candidate.name,
                        when=candidate.when,
                        origin=origin,  # type: ignore[arg-type]
                        score=round(1.0 if linked else score, 3),
                    )
                )
        works.sort(key=lambda w: (-w.score, w.when or date.min, w.key))
        searched = {origin: counts.get(origin, 0) for origin in ("history", "arxiv", "today")}
        for origin in down:
            searched.pop(origin, None)
        results.append(
            (works[:TOP_K], PriorSearch(searched=searched, down=sorted(down), method=method))
        )
    return results


@dataclass(frozen=True)
class _PoolColumns:
    """The pool as arrays, for the per-finding filters."""

    history: np.ndarray
    """True for the history's candidates (dated by their first report: always earlier)."""
    when: np.ndarray
    """Each candidate's date as an ordinal; undated ones never count as earlier."""
    origins: dict[str, np.ndarray]
    index: dict[str, int]

    @classmethod
    def of(cls, pool: Sequence[Candidate]) -> _PoolColumns:
        never = date.max.toordinal() + 1
        return cls(
            history=np.array([c.origin == "history" for c in pool], dtype=bool),
            when=np.array([c.when.toordinal() if c.when else never for c in pool], dtype=np.int64),
            origins={
                origin: np.array([c.origin == origin for c in pool], dtype=bool)
                for origin in dict.fromkeys(c.origin for c in pool)
            },
            index={c.key: n for n, c in enumerate(pool)},
        )


def _dedup(pool: list[Candidate]) -> list[Candidate]:
    """One candidate per key; the history's entry (first reported) wins over today's."""
    seen: dict[str, Candidate] = {}
    for candidate in pool:
        seen.setdefault(candidate.key, candidate)
    return list(seen.values())
