"""The stages of the daily pipeline, each a function that runs inside one recorded stage
(`StageRecorder.stage`) and writes in one transaction. `pipeline.run` calls them in order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import date, datetime
from typing import Any

from research_radar import assess
from research_radar.analyse.analysis import analyse
from research_radar.analyse.llm import LlmStats, write_insight
from research_radar.classify.model import Taxonomy
from research_radar.collect.stage import collect
from research_radar.collect.window import live_settings, live_window_start
from research_radar.config import Language, Policy, Settings
from research_radar.extract.claims import extract_claims
from research_radar.history import decide as history
from research_radar.hostmap.index import HostIndex, map_findings
from research_radar.models import (
    Coverage,
    Exclusion,
    ExclusionReason,
    Finding,
    PendingDifference,
    Project,
    Report,
    SourceKind,
)
from research_radar.pipeline.analyst import LlmRun, search_arxiv
from research_radar.pipeline.candidates import (
    FINDING_KINDS,
    build_candidate,
    latest_snapshot,
    primary_source,
    source_where,
)
from research_radar.pipeline.host import load_host, recheck_host, remote_host_sha
from research_radar.report.compose import build_report
from research_radar.report.markdown import render_markdown
from research_radar.resolve.families import FamilyIndex, assign_family
from research_radar.resolve.keys import github_repo, key_name, load_aliases_file
from research_radar.resolve.projects import resolve
from research_radar.store.store import Store

__all__ = [
    "Progress",
    "StageRecorder",
    "assess_stage",
    "classify_stage",
    "collect_stage",
    "compose_stage",
    "decide_stage",
    "extract_stage",
    "map_stage",
    "publish_stage",
    "refuse_stage",
    "resolve_stage",
    "review_stage",
]

Progress = Callable[[str, str], None]
"""progress(stage, "start" | "done")."""


class StageRecorder:
    """Records stages of one run in the store."""

    def __init__(self, store: Store, run_id: int, progress: Progress | None):
        self.store, self.run_id, self.progress = store, run_id, progress
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
        if self.progress:
            self.progress(name, "done")


def collect_stage(
    run: StageRecorder,
    store: Store,
    settings: Settings,
    cutoff: datetime,
    taxonomy: Taxonomy,
    since: datetime | None,
) -> tuple[Coverage, set[str]]:
    """Collect; return what was covered (health, queries, window) and the keys it touched.

    The window starts at `since` when given, else where the last window ended (less the
    overlap); it ends at the cut-off.
    """
    with run.stage("collect") as counts:
        if since is None:
            since = live_window_start(store.load_cursor("collect", "window_end"), cutoff)
        reported = [repo for f in store.load_findings() if (repo := github_repo(f.project_key))]
        live = live_settings(settings, taxonomy, cutoff.date(), reported)
        summary = collect(store, live, since=since, until=max(cutoff, since))
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
    return covered, set(summary.keys)


def resolve_stage(run: StageRecorder, store: Store, settings: Settings) -> list[Project]:
    with run.stage("resolve") as counts:
        sources = [s for s in store.load_sources() if s.kind in FINDING_KINDS]
        aliases = store.load_aliases()
        if settings.aliases_file is not None:
            aliases |= load_aliases_file(settings.aliases_file)
        known = {project.key: project for project in store.load_projects()}
        projects = resolve(sources, aliases, known)
        with store.transaction() as conn:
            for project in projects:
                store.save_project(conn, project)
                for alias in project.aliases:
                    if alias.lower() not in {project.key, key_name(project.key)}:
                        store.save_alias(conn, alias, project.key, "same-as", "resolve")
        counts.update(sources=len(sources), projects=len(projects))
    return projects


def extract_stage(run: StageRecorder, store: Store, projects: list[Project]) -> None:
    with run.stage("extract") as counts:
        by_key = {source.key: source for source in store.load_sources()}
        added = 0
        with store.transaction() as conn:
            for project in projects:
                source = primary_source(project, by_key)
                if source is None or not source.text:
                    continue
                snapshot = latest_snapshot(store.load_snapshots(source.key))
                claims = extract_claims(source.text, where=source_where(source, snapshot))
                added += store.save_claims(
                    conn, source.key, snapshot.version if snapshot else "", claims
                )
        counts["claims_added"] = added


def classify_stage(
    run: StageRecorder,
    store: Store,
    projects: list[Project],
    taxonomy: Taxonomy,
    day: date,
    host_key: str | None,
    touched: set[str],
) -> list[Finding]:
    """Candidates: repositories, papers and posts this run collected (or re-read); never the
    host project or its PRs. Projects not touched today are not weighed again."""
    with run.stage("classify") as counts:
        by_key = {source.key: source for source in store.load_sources()}
        candidates = []
        for project in projects:
            source = primary_source(project, by_key)
            if source is None or source.kind not in FINDING_KINDS or project.key == host_key:
                continue
            if not touched & {project.key, *project.sources}:
                counts["untouched"] = counts.get("untouched", 0) + 1
                continue
            snapshot = latest_snapshot(store.load_snapshots(source.key))
            candidates.append(build_candidate(project, source, snapshot, taxonomy, day))
        counts["candidates"] = len(candidates)
    return candidates


def decide_stage(
    run: StageRecorder, store: Store, settings: Settings, candidates: list[Finding], day: date
) -> tuple[list[Finding], list[Finding], list[Exclusion]]:
    """Keep what is new (or a substantive update, by policy).

    Returns the kept findings, the prior findings and why the others were left out.
    """
    with run.stage("decide") as counts:
        prior = store.load_findings(before=day)
        projects = {project.key: project for project in store.load_projects()}
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
            decision = _decision(store, settings, project, finding, prior, day)
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
    store: Store,
    settings: Settings,
    project: Project,
    finding: Finding,
    prior: list[Finding],
    day: date,
) -> history.Decision:
    created = finding.snapshot.meta.get("created_at") if finding.snapshot else None
    return history.decide(
        project,
        store.load_snapshots(finding.project_key),
        [f for f in prior if f.project_key == project.key],
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
    health: dict[str, str] | None = None,
    *,
    settings: Settings | None = None,
    llm: LlmRun | None = None,
) -> list[Finding]:
    """Family, prior art and difference, gates, maturity, recommendation and proposal of
    each kept finding.

    Runs after `map`: the value gate needs the host touch points. `health` is the
    collect stage's source health: a source that was down is not searched for prior art.
    With `settings`, arXiv (when it was collected this run) is also asked live for papers
    on each finding's mechanism terms submitted before its first date; with `llm`, the
    configured writer rephrases each insight (grounded sentences only).
    """
    with run.stage("assess") as counts:
        index = FamilyIndex()
        for finding in prior:
            index.add(finding)
        familied = []
        for finding in kept:
            parent = finding.related
            finding = assign_family(finding, index)
            related = list(dict.fromkeys([*parent, *finding.related]))[:3]
            finding = finding.model_copy(update={"related": related})
            if related and not (finding.differs or finding.differs_pending):
                finding = finding.model_copy(update={"differs_pending": _differs(index, finding)})
            familied.append(finding)
        sources = store.load_sources()
        down = [name for name in ("arxiv",) if (health or {}).get(name, "ok") != "ok"]
        papers = [s for s in sources if s.kind is SourceKind.PAPER]
        queried: dict[str, set[str]] = {}
        if settings is not None and (health or {}).get("arxiv") == "ok" and familied:
            live = search_arxiv(settings, familied)
            counts["arxiv_queries"] = live.queries
            papers += live.papers
            queried = live.queried
            if live.down:
                down.append("arxiv")
                counts["errors"] = {"arxiv": live.down}
        texts = {s.key: s.text for s in sources if s.text}
        analysed = analyse(
            familied,
            history=prior,
            papers=papers,
            texts=texts,
            down=down,
            own={p.key: set(p.sources) for p in store.load_projects()},
            queried=queried,
        )
        assessed = []
        for finding in analysed:
            snapshots = store.load_snapshots(finding.project_key)
            assessed.append(
                assess.assess(
                    finding,
                    snapshots=snapshots,
                    now=cutoff,
                    prior=prior,
                    host_touch_points=bool(finding.touch_points) if finding.relation else None,
                )
            )
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
    return assessed


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


def compose_stage(
    run: StageRecorder,
    store: Store,
    findings: list[Finding],
    prior: list[Finding],
    *,
    cutoff: datetime,
    host: HostIndex | None,
    taxonomy: Taxonomy,
    language: Language,
    coverage: Coverage,
) -> tuple[Report, str]:
    with run.stage("compose") as counts:
        host, findings, rechecked = recheck_host(host, findings)
        sha = host.head_sha if host else None
        remote = remote_host_sha(store, host)
        corrections = history.corrections(prior, findings)
        coverage = coverage.model_copy(update={"dedup_scope": len({f.project_key for f in prior})})
        report = build_report(
            findings,
            now=cutoff,
            host_name=host.repo or host.name if host else None,
            host_sha=sha,
            host_rechecked=rechecked and remote is None,
            host_remote_sha=remote,
            coverage=coverage,
            corrections=corrections,
            language=language,
        )
        markdown = render_markdown(report, taxonomy)
        with store.transaction() as conn:
            for finding in report.findings:
                store.save_finding(conn, finding)
            data = {
                "cutoff": cutoff.isoformat(),
                "findings": [f.project_key for f in report.findings],
            }
            store.save_report(conn, report.date, language, markdown, data)
        counts.update(findings=len(report.findings), corrections=len(corrections))
    return report, markdown


def review_stage(
    run: StageRecorder, store: Store, markdown: str, prior: list[Finding], host: HostIndex | None
) -> tuple[Any, int]:
    """Review our own report: house rules, and its SHAs and numbers against the store."""
    from research_radar.review import run as review
    from research_radar.review.verifiers import StoreVerifier

    with run.stage("review") as counts:
        result = review.review_report(
            markdown,
            history=prior,
            aliases=store.load_aliases(),
            host_repo=host.repo if host else None,
            verifier=StoreVerifier(store),
        )
        blocking = sum(1 for item in result.findings if item.severity == "blocking")
        counts.update(
            findings=len(result.findings), blocking=blocking, verified=len(result.verified)
        )
    return result, blocking


def publish_stage(
    run: StageRecorder,
    store: Store,
    settings: Settings,
    report: Report,
    markdown: str,
    confirm: bool,
) -> Any:
    from research_radar.github import open_github_client
    from research_radar.publish import index_issue as publish
    from research_radar.publish.gate import allowed_hosts

    with run.stage("publish") as counts:
        if not settings.index_issue:
            counts["skipped"] = "no index issue configured (index_issue / --issue)"
            return None
        private = set(settings.publish.private_repos)  # the store's are added inside
        with open_github_client(settings.github_api_url, settings.github_token) as github:
            result = publish.publish_report(
                github,
                target=settings.index_issue,
                markdown=markdown,
                report_date=report.date,
                store=store,
                dry_run=not confirm,
                private_repos=private,
                allowed_hosts=allowed_hosts(settings.publish.allowed_hosts),
            )
        counts["dry_run"] = not confirm
    return result


def refuse_stage(run: StageRecorder, reason: str) -> None:
    with run.stage("publish") as counts:
        counts["refused"] = reason
