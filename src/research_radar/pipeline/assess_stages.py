"""The stages that weigh the kept findings: `map` (onto the host) and `assess` (family,
prior art and difference, gates, maturity, recommendation). Split from `pipeline.stages`,
which holds the stages up to the kept findings; `pipeline.run` calls them in order.
"""

from __future__ import annotations

from contextlib import nullcontext
from datetime import date, datetime

from research_radar import assess
from research_radar.analyse.analysis import analyse
from research_radar.analyse.llm import LlmStats, write_insight
from research_radar.config import Settings
from research_radar.cores import FORK_MIN, can_fork
from research_radar.history.families import load_family_index
from research_radar.hostmap.index import HostIndex, map_findings
from research_radar.models import Finding, PendingDifference, SourceKind
from research_radar.pipeline.analyst import ArxivSearch, LlmRun, arxiv_search
from research_radar.pipeline.host import load_host
from research_radar.pipeline.stages import Held, StageRecorder
from research_radar.resolve.families import FamilyIndex, assign_family
from research_radar.resolve.keys import key_name
from research_radar.store.history_reads import load_findings_of
from research_radar.store.store import Store

__all__ = ["assess_stage", "map_stage"]


def assess_stage(
    run: StageRecorder,
    store: Store,
    kept: list[Finding],
    prior: list[Finding],
    cutoff: datetime,
    day: date,
    health: dict[str, str] | None = None,
    *,
    settings: Settings | None = None,
    llm: LlmRun | None = None,
    held: Held | None = None,
) -> tuple[list[Finding], list[Finding]]:
    """Family, prior art and difference, gates, maturity, recommendation and proposal of
    each kept finding.

    Runs after `map`: the value gate needs the host touch points. `health` is the collect
    stage's source health: a source that was down is not searched for prior art. The
    family index kept in the store retrieves the earlier findings near each kept one
    (issue #19); prior art is ranked among them. With `settings`, arXiv (when it was
    collected this run) is also asked live for papers on each finding's mechanism terms
    submitted before its first date; with `llm`, the configured writer rephrases each
    insight (grounded sentences only). `held`: the sources and projects the run read
    and wrote before (`resolve_stage`), looked up instead of read again. Returns the
    assessed findings and the prior findings with those of the kept findings' families
    added.
    """
    asked = settings is not None and (health or {}).get("arxiv") == "ok" and bool(kept)
    # a finding's query reads its tags and first date, which families do not change; a
    # long search (its parsing is Python work) runs in a forked process while this one
    # finds the families (#19)
    search = (
        arxiv_search(settings, kept, fork=len(kept) >= FORK_MIN and can_fork())
        if settings is not None and asked
        else nullcontext(_no_search)
    )
    with run.stage("assess") as counts, search as searched:
        # each kept finding is signed once, for the index's neighbourhood and its family
        signatures = FamilyIndex().signatures(kept)
        index = load_family_index(store, before=day, queries=kept, signatures=signatures)
        familied = []
        for finding, signature in zip(kept, signatures, strict=True):
            parent = finding.related
            finding = assign_family(finding, index, signature=signature)
            related = list(dict.fromkeys([*parent, *finding.related]))[:3]
            finding = finding.model_copy(update={"related": related})
            if related and not (finding.differs or finding.differs_pending):
                finding = finding.model_copy(update={"differs_pending": _differs(index, finding)})
            familied.append(finding)
        prior = _with_family_members(store, prior, familied, day)
        keys = [finding.project_key for finding in familied]
        down = [name for name in ("arxiv",) if (health or {}).get(name, "ok") != "ok"]
        papers = store.load_sources(SourceKind.PAPER.value)
        # only the findings' own texts and projects are looked up: reading every source and
        # project of the store here grew with history (issue #19); read before waiting for
        # the live search, which runs meanwhile
        found, projects = (held or Held.read(store, keys, keys)).of(keys)
        texts = {key: source.text for key, source in found.items() if source.text}
        own = {key: set(project.sources) for key, project in projects.items()}
        snapshots = (held or Held({}, {})).snapshots_of(store, keys)
        queried: dict[str, set[str]] = {}
        live = searched()
        if live is not None:
            counts["arxiv_queries"] = live.queries
            papers += live.papers
            queried = live.queried
            if live.down:
                down.append("arxiv")
                counts["errors"] = {"arxiv": live.down}
        analysed = analyse(
            familied,
            history=prior,
            papers=papers,
            texts=texts,
            down=down,
            own=own,
            queried=queried,
        )
        assessed = [
            assess.assess(
                finding,
                snapshots=snapshots.get(finding.project_key, []),
                now=cutoff,
                prior=prior,
                host_touch_points=bool(finding.touch_points) if finding.relation else None,
            )
            for finding in analysed
        ]
        if llm is not None and llm.writer is not None:
            stats = LlmStats()
            assessed = [
                write_insight(
                    finding,
                    llm.writer,
                    llm.cache,
                    stats,
                    source_text=texts.get(finding.project_key, ""),
                    max_requests=llm.max_requests,
                )
                for finding in assessed
            ]
            counts.update(
                llm_requests=stats.requests,
                llm_cached=stats.cached,
                llm_kept=stats.kept,
                llm_dropped=stats.dropped,
                llm_failures=stats.failures,
                llm_tokens=llm.writer.tokens,
            )
            if stats.errors:
                counts["llm_errors"] = sorted(set(stats.errors))
        counts["assessed"] = len(assessed)
        counts["with_family"] = sum(1 for f in assessed if f.related)
        counts["with_prior_art"] = sum(1 for f in assessed if f.prior_works)
    return assessed, prior


def _no_search() -> ArxivSearch | None:
    return None


def _with_family_members(
    store: Store, prior: list[Finding], findings: list[Finding], day: date
) -> list[Finding]:
    """`prior` and the earlier findings of the findings' families, oldest first, once each."""
    families = {finding.family for finding in findings if finding.family}
    if not families:
        return prior
    keys = {finding.project_key for finding in prior}
    return load_findings_of(store, keys, families=families, before=day)


def _differs(index: FamilyIndex, finding: Finding) -> PendingDifference:
    """The slot for what is new relative to the nearest earlier project (filled by a person)."""
    nearest = finding.related[0]
    return PendingDifference(names=[index.name_of(nearest) or key_name(nearest)])


def map_stage(
    run: StageRecorder, store: Store, settings: Settings, findings: list[Finding]
) -> tuple[HostIndex | None, list[Finding]]:
    """Index the configured host checkout (with its collected PRs/issues) and map every
    finding onto it."""
    with run.stage("map") as counts:
        host = load_host(settings, store)
        if host is None:
            counts["skipped"] = "no host configured"
            return None, findings
        mapped = map_findings(host, findings)
        counts.update(mapped=len(mapped), host_sha=host.head_sha)
    return host, mapped
