"""The stages of the daily pipeline up to the assessed findings, each a function that runs
inside one recorded stage (`StageRecorder.stage`) and writes in one transaction; the
report's stages are in `pipeline.report_stages`. `pipeline.run` calls them in order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date, datetime
from functools import partial
from typing import Any

from research_radar import assess
from research_radar.analyse.analysis import analyse
from research_radar.analyse.llm import LlmStats, write_insight
from research_radar.classify.model import Taxonomy
from research_radar.collect.stage import OnFound, collect, pending_keys
from research_radar.collect.window import live_settings, live_window_start
from research_radar.config import Settings
from research_radar.cores import FORK_MIN, aside
from research_radar.history import decide as history
from research_radar.history.families import load_family_index
from research_radar.hostmap.index import HostIndex, map_findings
from research_radar.models import (
    Claim,
    Coverage,
    Exclusion,
    ExclusionReason,
    Finding,
    PendingDifference,
    Project,
    Snapshot,
    Source,
    SourceKind,
)
from research_radar.pipeline.ahead import ClaimsAhead
from research_radar.pipeline.analyst import ArxivSearch, LlmRun, search_arxiv
from research_radar.pipeline.candidates import (
    FINDING_KINDS,
    build_candidate,
    classify_sources,
    latest_snapshot,
    primary_source,
    source_where,
)
from research_radar.pipeline.host import load_host
from research_radar.resolve.families import FamilyIndex, assign_family
from research_radar.resolve.keys import key_name, load_aliases_file
from research_radar.resolve.projects import resolve
from research_radar.settings_file import Policy
from research_radar.store.history_reads import (
    load_findings_of,
    load_reported_repos,
)
from research_radar.store.store import Store

__all__ = [
    "Extracted",
    "Progress",
    "StageRecorder",
    "assess_stage",
    "classify_stage",
    "collect_stage",
    "decide_stage",
    "extract_stage",
    "map_stage",
    "resolve_stage",
]

Progress = Callable[[str, str], None]
"""progress(stage, "start" | "done")."""


class StageRecorder:
    """Records stages of one run in the store."""

    def __init__(
        self,
        store: Store,
        run_id: int,
        progress: Progress | None,
        settle: Callable[[], object] | None = None,
    ):
        """`settle`: called after each stage that ended well (`pipeline.run`'s `gc.freeze`)."""
        self.store, self.run_id, self.progress = store, run_id, progress
        self.settle = settle
        self.counts: dict[str, dict[str, Any]] = {}

    @contextmanager
    def stage(self, name: str) -> Iterator[dict[str, Any]]:
        if self.progress:
            self.progress(name, "start")
        stage_id = self.store.start_stage(self.run_id, name)
        counts: dict[str, Any] = {}
        try:
            yield counts
        except Exception as exc:
            self.store.end_stage(
                stage_id, "failed", counts, {"error": f"{type(exc).__name__}: {exc}"}
            )
            raise
        errors = counts.pop("errors", {})
        self.store.end_stage(stage_id, "ok" if not errors else "partial", counts, errors)
        self.counts[name] = counts
        if self.settle:
            self.settle()
        if self.progress:
            self.progress(name, "done")


def collect_stage(
    run: StageRecorder,
    store: Store,
    settings: Settings,
    cutoff: datetime,
    taxonomy: Taxonomy,
    since: datetime | None,
    on_found: OnFound | None = None,
) -> tuple[Coverage, set[str]]:
    """Collect; return what was covered (health, queries, window) and the keys it touched.

    The window starts at `since` when given, else where the last window ended (less the
    overlap); it ends at the cut-off. Under the first-discovered policy (and `[github]
    skip_reported`, the default), repositories already reported are left out of what
    GitHub returns: their updates are not reported again. `on_found`: told what each
    source found before it is written (`ClaimsAhead.found`).
    """
    with run.stage("collect") as counts:
        live = live_settings(settings, taxonomy, cutoff.date())
        skip = live.policy is Policy.FIRST_DISCOVERED and live.github.skip_reported
        pending = pending_keys(store)
        summary = collect(
            store,
            live,
            since=since,
            until=cutoff if since is None else max(cutoff, since),
            catch_up=lambda last_end: live_window_start(last_end, cutoff),
            reported=partial(load_reported_repos, store) if skip else None,
            on_found=on_found,
        )
        health = summary.health()
        counts.update(summary.counts())
        failed = {name: state for name, state in health.items() if state != "ok"}
        if failed:
            counts["errors"] = failed
    covered = Coverage(
        sources=health,
        queries=list(summary.queries),
        window_start=summary.window_start,
        window_end=summary.window_end,
    )
    return covered, set(summary.keys) | pending


def resolve_stage(run: StageRecorder, store: Store, settings: Settings) -> list[Project]:
    with run.stage("resolve") as counts:
        sources = [s for s in store.load_sources() if s.kind in FINDING_KINDS]
        aliases = store.load_aliases()
        if settings.aliases_file is not None:
            aliases |= load_aliases_file(settings.aliases_file)
        known = {project.key: project for project in store.load_projects()}
        projects = resolve(sources, aliases, known)
        same_as = {
            alias: (project.key, "same-as", "resolve")
            for project in projects
            for alias in project.aliases
            if alias.lower() not in {project.key, key_name(project.key)}
        }
        with store.transaction() as conn:
            store.save_projects(conn, projects)
            store.save_aliases(conn, same_as)
        counts.update(sources=len(sources), projects=len(projects))
    return projects


@dataclass(frozen=True)
class Extracted:
    """What `extract_stage` read, for `classify_stage`: each touched project's primary
    source, its newest snapshot and its claims (extracted once per run)."""

    sources: dict[str, Source]
    """project key → primary source (of every project)."""
    snapshots: dict[str, Snapshot | None]
    """source key → newest snapshot (touched projects)."""
    claims: dict[str, list[Claim]]
    """source key → claims of its text (touched projects)."""


def extract_stage(
    run: StageRecorder,
    store: Store,
    projects: list[Project],
    touched: set[str],
    ahead: ClaimsAhead | None = None,
) -> Extracted:
    """Claims of the projects this run collected (or re-read); the others were extracted
    by the run that touched them. Reads everything before the writing transaction.
    `ahead`: the claims the collect stage started extracting (#19)."""
    with run.stage("extract") as counts:
        by_key = {source.key: source for source in store.load_sources()}
        primary: dict[str, Source] = {}
        chosen: list[Source] = []
        for project in projects:
            source = primary_source(project, by_key)
            if source is None:
                continue
            primary[project.key] = source
            if touched & {project.key, *project.sources}:
                chosen.append(source)
        found = store.load_snapshots_of(source.key for source in chosen)
        latest = {key: latest_snapshot(found.get(key, [])) for key in found}
        texts = {
            source.key: (source.text, source_where(source, latest.get(source.key)))
            for source in chosen
            if source.text
        }
        found_claims = (ahead or ClaimsAhead()).claims(texts)  # on two cores (#19)
        extracted = Extracted(primary, latest, dict(zip(texts, found_claims, strict=True)))
        with store.transaction() as conn:
            counts["claims_added"] = store.save_claims_of(
                conn,
                (
                    (key, snapshot.version if (snapshot := latest.get(key)) else "", claims)
                    for key, claims in extracted.claims.items()
                ),
            )
    return extracted


def classify_stage(
    run: StageRecorder,
    extracted: Extracted,
    projects: list[Project],
    taxonomy: Taxonomy,
    day: date,
    host_key: str | None,
    touched: set[str],
) -> list[Finding]:
    """Candidates: repositories, papers and posts this run collected (or re-read); never the
    host project or its PRs. Projects not touched today are not weighed again."""
    with run.stage("classify") as counts:
        weighed: list[tuple[Project, Source]] = []
        for project in projects:
            source = extracted.sources.get(project.key)
            if source is None or source.kind not in FINDING_KINDS or project.key == host_key:
                continue
            if not touched & {project.key, *project.sources}:
                counts["untouched"] = counts.get("untouched", 0) + 1
                continue
            weighed.append((project, source))
        classified = classify_sources(taxonomy, weighed)
        candidates = [
            build_candidate(
                project,
                source,
                extracted.snapshots.get(source.key),
                taxonomy,
                day,
                extracted.claims.get(source.key, []),
                classification,
            )
            for (project, source), classification in zip(weighed, classified, strict=True)
        ]
        counts["candidates"] = len(candidates)
    return candidates


def decide_stage(
    run: StageRecorder, store: Store, settings: Settings, candidates: list[Finding], day: date
) -> tuple[list[Finding], list[Finding], list[Exclusion]]:
    """Keep what is new (or a substantive update, by policy).

    Returns the kept findings, the prior findings of the candidates' projects (and their
    sources) and why the others were left out. Reads only the candidates' history, each
    part in one query, and looks it up by key (issue #19).
    """
    with run.stage("decide") as counts:
        projects = store.load_projects_of(finding.project_key for finding in candidates)
        keys = {key for project in projects.values() for key in (project.key, *project.sources)}
        prior = load_findings_of(store, keys, before=day)
        by_key: dict[str, list[Finding]] = {}
        for finding in prior:
            by_key.setdefault(finding.project_key, []).append(finding)
        snapshots = store.load_snapshots_of(finding.project_key for finding in candidates)
        kept: list[Finding] = []
        excluded: list[Exclusion] = []
        tally = {"new": 0, "update": 0, "seen": 0, "historical": 0, "fork": 0}
        for finding in candidates:
            project = projects[finding.project_key]
            if project.fork_of and not project.derivative:
                tally["fork"] += 1
                excluded.append(
                    Exclusion(
                        name=finding.name,
                        project_key=project.key,
                        reason=ExclusionReason.PLAIN_FORK,
                        parent=project.fork_of,
                    )
                )
                continue
            decision = _decision(
                settings,
                project,
                finding,
                snapshots.get(finding.project_key, []),
                by_key.get(project.key, []),
                day,
            )
            tally[decision.status] = tally.get(decision.status, 0) + 1
            if decision.status in {"new", "historical"} or (
                decision.status == "update" and settings.policy is not Policy.FIRST_DISCOVERED
            ):
                kept.append(finding.model_copy(update={"novelty": decision.novelty}))
            else:
                excluded.append(
                    Exclusion(
                        name=finding.name,
                        project_key=project.key,
                        reason=ExclusionReason.UPDATE_NOT_REPORTED
                        if decision.status == "update"
                        else ExclusionReason.ALREADY_REPORTED,
                        last_reported=decision.last_reported,
                    )
                )
        counts.update(tally)
    return kept, prior, excluded


def _decision(
    settings: Settings,
    project: Project,
    finding: Finding,
    snapshots: list[Snapshot],
    prior: list[Finding],
    day: date,
) -> history.Decision:
    created = finding.snapshot.meta.get("created_at") if finding.snapshot else None
    return history.decide(
        project,
        snapshots,
        prior,
        on=day,
        policy=settings.policy,
        created_at=datetime.fromisoformat(created) if created else None,
    )


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
) -> tuple[list[Finding], list[Finding]]:
    """Family, prior art and difference, gates, maturity, recommendation and proposal of
    each kept finding.

    Runs after `map`: the value gate needs the host touch points. `health` is the collect
    stage's source health: a source that was down is not searched for prior art. The
    family index kept in the store retrieves the earlier findings near each kept one
    (issue #19); prior art is ranked among them. With `settings`, arXiv (when it was
    collected this run) is also asked live for papers on each finding's mechanism terms
    submitted before its first date; with `llm`, the configured writer rephrases each
    insight (grounded sentences only). Returns the assessed findings and the prior
    findings with those of the kept findings' families added.
    """
    asked = settings is not None and (health or {}).get("arxiv") == "ok" and bool(kept)

    def search() -> ArxivSearch | None:
        # a finding's query reads its tags and first date, which families do not change
        return search_arxiv(settings, kept) if settings is not None and asked else None

    # a long search (its parsing is Python work) runs in a forked process while this one
    # finds the families (#19)
    with (
        run.stage("assess") as counts,
        aside(search, fork=asked and len(kept) >= FORK_MIN) as searched,
    ):
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
        texts = {key: s.text for key, s in store.load_sources_of(keys).items() if s.text}
        own = {key: set(p.sources) for key, p in store.load_projects_of(keys).items()}
        snapshots = store.load_snapshots_of(keys)
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
