"""The analyst's pass over the day's findings: prior art searched and ranked, the
structural difference from the nearest earlier findings and the family, and the facts of
the insight. Pure apart from the offline embedder of the default ranking."""

from __future__ import annotations

from collections.abc import Sequence

from research_radar.analyse.difference import difference
from research_radar.analyse.insight import insight
from research_radar.analyse.prior_art import Similarity, search_prior_art
from research_radar.models import Finding, PriorWork, Source

__all__ = ["analyse"]


def analyse(
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
) -> list[Finding]:
    """Copies of the findings with `prior_works`, `prior_search`, `difference` (when there
    are earlier findings to compare with: the family and the nearest prior art) and
    `insight`. A structural difference replaces the to-do of `differs_pending`."""
    results = search_prior_art(
        findings,
        history=history,
        papers=papers,
        texts=texts,
        down=down,
        own=own,
        similarity=similarity,
        min_score=min_score,
        queried=queried,
    )
    first: dict[str, Finding] = {}
    newest: dict[str, Finding] = {}
    for earlier in sorted(history, key=lambda f: f.date):
        first.setdefault(earlier.project_key, earlier)
        newest[earlier.project_key] = earlier
    today = {f.project_key: f for f in findings}
    out = []
    for finding, (works, search) in zip(findings, results, strict=True):
        by_work = {work.key: work for work in works}
        keys = [*finding.related, *(w.key for w in works)]
        compared: list[Finding] = []
        against: list[PriorWork] = []
        for key in dict.fromkeys(keys):
            other = newest.get(key) or (today.get(key) if key in by_work else None)
            if other is None or key == finding.project_key:
                continue
            compared.append(other)
            against.append(
                by_work.get(key)
                or PriorWork(
                    key=key,
                    name=other.name,
                    when=first[key].date if key in first else other.date,
                    origin="history",
                )
            )
        update: dict[str, object] = {
            "prior_works": works,
            "prior_search": search,
            "insight": insight(finding),
        }
        if compared:
            update["difference"] = difference(finding, compared, against[:3])
            update["differs_pending"] = None
        out.append(finding.model_copy(update=update))
    return out
