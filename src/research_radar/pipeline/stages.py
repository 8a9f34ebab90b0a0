"""The stages of the daily pipeline, each a function that runs inside one recorded stage
(`StageRecorder.stage`) and writes in one transaction. `pipeline.run` calls them in order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import date, datetime
from typing import Any

from research_radar import assess
from research_radar.classify.model import Taxonomy
from research_radar.collect.stage import collect, pending_keys
from research_radar.collect.window import live_settings, live_window_start
from research_radar.config import Language, Policy, Settings
from research_radar.extract.claims import extract_claims
from research_radar.history import decide as history
from research_radar.hostmap.index import HostIndex, map_findings
from research_radar.models import Coverage, Finding, Project, Report
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
from research_radar.resolve.keys import load_aliases_file
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
        reported = [
            f.project_key[3:] for f in store.load_findings() if f.project_key.startswith("gh:")
        ]
        live = live_settings(settings, taxonomy, cutoff.date(), reported)
        pending = pending_keys(store)
        summary = collect(
            store,
            live,
            since=since,
            until=cutoff if since is None else max(cutoff, since),
            catch_up=lambda last_end: live_window_start(last_end, cutoff),
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
        with store.transaction() as conn:
            for project in projects:
                store.save_project(conn, project)
                for alias in project.aliases:
                    if alias.lower() not in {project.key, project.key[3:]}:
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
) -> tuple[list[Finding], list[Finding], list[str]]:
    """Keep what is new (or a substantive update, by policy).

    Returns the kept findings, the prior findings and why the others were left out.
    """
    with run.stage("decide") as counts:
        prior = store.load_findings(before=day)
        projects = {project.key: project for project in store.load_projects()}
        kept, excluded = [], []
        tally = {"new": 0, "update": 0, "seen": 0, "historical": 0, "fork": 0}
        for finding in candidates:
            project = projects[finding.project_key]
            if project.fork_of and not project.derivative:
                tally["fork"] += 1
                excluded.append(
                    f"{finding.name}（{project.fork_of.split(':', 1)[-1]} 的普通 fork）"
                )
                continue
            decision = _decision(store, settings, project, finding, prior, day)
            tally[decision.status] = tally.get(decision.status, 0) + 1
            if decision.status in {"new", "historical"} or (
                decision.status == "update" and settings.policy is not Policy.FIRST_DISCOVERED
            ):
                kept.append(finding.model_copy(update={"novelty": decision.novelty}))
            else:
                when = decision.last_reported.isoformat() if decision.last_reported else "此前"
                why = (
                    "有更新，但按只报首次发现的策略不重报"
                    if decision.status == "update"
                    else "无实质变化，不重报"
                )
                excluded.append(f"{finding.name}（已于 {when} 报告；{why}）")
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
    run: StageRecorder, store: Store, kept: list[Finding], prior: list[Finding], cutoff: datetime
) -> list[Finding]:
    """Family, gates, maturity, recommendation and proposal of each kept finding.

    Runs after `map`: the value gate needs the host touch points.
    """
    with run.stage("assess") as counts:
        index = FamilyIndex()
        for finding in prior:
            index.add(finding)
        assessed = []
        for finding in kept:
            parent = finding.related
            finding = assign_family(finding, index)
            related = list(dict.fromkeys([*parent, *finding.related]))[:3]
            finding = finding.model_copy(update={"related": related})
            if related and not finding.differs:
                finding = finding.model_copy(update={"differs": _differs(index, finding)})
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
        counts["assessed"] = len(assessed)
        counts["with_family"] = sum(1 for f in assessed if f.related)
    return assessed


def _differs(index: FamilyIndex, finding: Finding) -> str:
    """The slot for what is new relative to the nearest earlier project (filled by a person)."""
    nearest = finding.related[0]
    name = index.name_of(nearest) or nearest.split(":", 1)[-1]
    return f"待补：相对 {name} 的新增工作，需人工核对"


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
    from research_radar.publish import index_issue as publish
    from research_radar.publish.gate import allowed_hosts

    with run.stage("publish") as counts:
        if not settings.index_issue:
            counts["skipped"] = "no index issue configured (index_issue / --issue)"
            return None
        private = set(settings.publish.private_repos)  # the store's are added inside
        client = publish.build_github_client(settings.github_api_url, settings.github_token)
        with client:
            result = publish.publish_report(
                client,
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
