"""The daily pipeline: collect → resolve → extract → classify → decide → map → assess →
compose → review → publish.

`map` runs before `assess` (DESIGN.md draws them the other way round) because the value
gate of `assess` weighs the host touch points that `map` finds.

Each stage is a plain function of the stage's module; this module only runs them in
order, records every run and stage in the store (start, end, counts, errors per source)
and keeps each stage's writes in one transaction. A crash mid-run leaves the store as the
last finished stage left it; running again finishes the work without duplicates, and a
second run on the same day writes the same report (the cut-off of the first run is kept).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date, datetime, time
from pathlib import Path
from typing import Any

from research_radar import assess as assess_stage
from research_radar.classify.model import Taxonomy
from research_radar.classify.profile import load_taxonomy
from research_radar.collect import stage as collect_stage
from research_radar.config import Settings
from research_radar.extract import claims as extract
from research_radar.history import decide as history
from research_radar.history.imports import import_reports
from research_radar.hostmap import index as hostmap
from research_radar.models import (
    BEIJING,
    Coverage,
    Exclusion,
    ExclusionReason,
    Finding,
    PendingDifference,
    Project,
    Report,
)
from research_radar.pipeline.inputs import (
    FINDING_KINDS,
    SAMPLE_HISTORY,
    build_candidate,
    latest_snapshot,
    live_settings,
    live_window_start,
    load_host,
    primary_source,
    recheck_host,
    remote_host_sha,
    source_where,
)
from research_radar.report import compose
from research_radar.report.markdown import render_markdown
from research_radar.resolve import keys as identity
from research_radar.resolve.families import FamilyIndex, assign_family
from research_radar.resolve.projects import resolve
from research_radar.sample.host import SAMPLE_HOST_REPO
from research_radar.store.store import Store

__all__ = ["DailyResult", "SAMPLE_DATE", "STAGES", "default_cutoff", "publish_refusal", "run_daily"]

log = logging.getLogger(__name__)

STAGES = (
    "collect",
    "resolve",
    "extract",
    "classify",
    "decide",
    "map",
    "assess",
    "compose",
    "review",
    "publish",
)
SAMPLE_DATE = date(2026, 8, 29)
"""The day the bundled sample stands on: the morning after its newest evidence."""

Progress = Callable[[str, str], None]


@dataclass
class DailyResult:
    report: Report
    markdown: str
    path: Path | None
    run_id: int
    counts: dict[str, dict[str, Any]] = field(default_factory=dict)
    health: dict[str, str] = field(default_factory=dict)
    review: Any = None
    blocking: int = 0
    published: Any = None
    refused: str | None = None
    """Why publishing was refused, when it was asked for and refused."""
    files: list[Path] = field(default_factory=list)
    """The report and, beside it, its HTML page and the CSV/XLSX exports."""


def default_cutoff(day: date) -> datetime:
    """08:30 Beijing time on `day`: the house cut-off of a morning report."""
    return datetime.combine(day, time(8, 30), tzinfo=BEIJING)


class _Run:
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


def _kept_cutoff(store: Store, day: date, language: str) -> datetime | None:
    """The cut-off of an earlier run the same day, so a re-run writes the same report."""
    kept = store.load_report_data(day, language)
    value = kept.get("cutoff") if kept else None
    return datetime.fromisoformat(value) if value else None


def _collect(
    run: _Run,
    store: Store,
    settings: Settings,
    cutoff: datetime,
    sample: bool,
    taxonomy: Taxonomy,
) -> tuple[Coverage, set[str]]:
    """Collect; return what was covered (health, queries, window) and the keys it touched."""
    with run.stage("collect") as counts:
        if sample:
            imported = import_reports(store, sorted(SAMPLE_HISTORY.glob("*.md")))
            counts["history_findings"] = imported.findings
            summary = collect_stage.collect_sample(store, now=cutoff)
        else:
            since = live_window_start(store.load_cursor("collect", "window_end"), cutoff)
            live = live_settings(settings, taxonomy, store, cutoff.date())
            summary = collect_stage.collect(store, live, since=since, until=cutoff)
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


def _resolve(run: _Run, store: Store, settings: Settings) -> list[Project]:
    with run.stage("resolve") as counts:
        sources = [s for s in store.load_sources() if s.kind in FINDING_KINDS]
        aliases = store.load_aliases()
        if settings.extra.get("aliases_file"):
            aliases |= identity.load_aliases_file(Path(str(settings.extra["aliases_file"])))
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


def _extract(run: _Run, store: Store, projects: list[Project]) -> None:
    with run.stage("extract") as counts:
        by_key = {source.key: source for source in store.load_sources()}
        added = 0
        with store.transaction() as conn:
            for project in projects:
                source = primary_source(project, by_key)
                if source is None or not source.text:
                    continue
                snapshot = latest_snapshot(store.load_snapshots(source.key))
                claims = extract.extract_claims(source.text, where=source_where(source, snapshot))
                added += store.save_claims(
                    conn, source.key, snapshot.version if snapshot else "", claims
                )
        counts["claims_added"] = added


def _classify(
    run: _Run,
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


def _decide(
    run: _Run, store: Store, settings: Settings, candidates: list[Finding], day: date
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
                decision.status == "update" and settings.policy != "first-discovered"
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


def _assess(
    run: _Run, store: Store, kept: list[Finding], prior: list[Finding], cutoff: datetime
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
            if related and not (finding.differs or finding.differs_pending):
                finding = finding.model_copy(update={"differs_pending": _differs(index, finding)})
            snapshots = store.load_snapshots(finding.project_key)
            assessed.append(
                assess_stage.assess(
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


def _differs(index: FamilyIndex, finding: Finding) -> PendingDifference:
    """The slot for what is new relative to the nearest earlier project (filled by a person)."""
    nearest = finding.related[0]
    return PendingDifference(names=[index.name_of(nearest) or nearest.split(":", 1)[-1]])


def _map(
    run: _Run, settings: Settings, findings: list[Finding], *, sample: bool, cache_dir: Path
) -> tuple[hostmap.HostIndex | None, list[Finding]]:
    """Index the host (the sample's, or the configured checkout) and map every finding."""
    with run.stage("map") as counts:
        host = load_host(settings, sample=sample, cache_dir=cache_dir)
        if host is None:
            counts["skipped"] = "no host configured"
            return None, findings
        mapped = hostmap.map_findings(host, findings)
        counts.update(mapped=len(mapped), host_sha=host.head_sha)
    return host, mapped


def _compose(
    run: _Run,
    store: Store,
    findings: list[Finding],
    prior: list[Finding],
    *,
    cutoff: datetime,
    host: hostmap.HostIndex | None,
    taxonomy: Taxonomy,
    language: str,
    coverage: Coverage,
) -> tuple[Report, str]:
    with run.stage("compose") as counts:
        host, findings, rechecked = recheck_host(host, findings)
        sha = host.head_sha if host else None
        remote = remote_host_sha(store, host)
        corrections = history.corrections(prior, findings)
        coverage = coverage.model_copy(update={"dedup_scope": len({f.project_key for f in prior})})
        report = compose.build_report(
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


def _review(
    run: _Run, store: Store, markdown: str, prior: list[Finding], host: hostmap.HostIndex | None
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


def _publish(
    run: _Run, store: Store, settings: Settings, report: Report, markdown: str, confirm: bool
) -> Any:
    from research_radar.publish import index_issue as publish
    from research_radar.publish.gate import load_allowed_hosts, load_private_repos

    with run.stage("publish") as counts:
        if not settings.index_issue:
            counts["skipped"] = "no index issue configured (index_issue / --issue)"
            return None
        private = load_private_repos(extra=settings.extra)  # the store's are added inside
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
                allowed_hosts=load_allowed_hosts(settings.extra),
            )
        counts["dry_run"] = not confirm
    return result


def publish_refusal(blocking: int, health: dict[str, str]) -> str | None:
    """Why a report must not be posted: its own review blocks it, or no source worked."""
    if blocking:
        return f"the report's own review found {blocking} blocking problem(s); see `radar review`"
    if health and all(state.startswith(("failed", "stale")) for state in health.values()):
        return "every source failed, so the report says nothing reliable; see `radar runs`"
    return None


def _refuse(run: _Run, reason: str) -> None:
    with run.stage("publish") as counts:
        counts["refused"] = reason


def _write_outputs(path: Path, report: Report, markdown: str, taxonomy: Taxonomy) -> list[Path]:
    """Write the report, its HTML page and the CSV/XLSX of its findings side by side."""
    from research_radar.publish.export import export_findings
    from research_radar.report.html import render_html

    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(markdown, encoding="utf-8")
    page = path.with_suffix(".html")
    title = f"Research Radar {report.date.isoformat()}"
    page.write_text(render_html(markdown, title=title), encoding="utf-8")
    exports = export_findings(
        report.findings, path.parent, stem=path.stem, taxonomy=taxonomy, language=report.language
    )
    return [path, page, *exports]


def run_daily(
    store: Store,
    settings: Settings,
    *,
    day: date,
    sample: bool = False,
    out: Path | None = None,
    cutoff: datetime | None = None,
    publish: bool = False,
    confirm: bool = False,
    force: bool = False,
    cache_dir: Path | None = None,
    progress: Progress | None = None,
) -> DailyResult:
    """Run every stage for `day` and write the report. See the module docstring.

    Publishing is refused (see `publish_refusal`) unless `force` is set.
    """
    published: Any = None
    refused: str | None = None
    language = settings.language
    cutoff = cutoff or _kept_cutoff(store, day, language) or default_cutoff(day)
    run_id = store.start_run("daily --sample" if sample else "daily")
    run = _Run(store, run_id, progress)
    try:
        taxonomy = load_taxonomy(settings.profile)
        covered, touched = _collect(run, store, settings, cutoff, sample, taxonomy)
        projects = _resolve(run, store, settings)
        _extract(run, store, projects)
        host_repo = SAMPLE_HOST_REPO if sample else settings.host_repo
        host_key = f"gh:{host_repo.lower()}" if host_repo else None
        candidates = _classify(run, store, projects, taxonomy, day, host_key, touched)
        kept, prior, excluded = _decide(run, store, settings, candidates, day)
        cache = cache_dir or Path(".radar-cache")
        host, mapped = _map(run, settings, kept, sample=sample, cache_dir=cache)
        assessed = _assess(run, store, mapped, prior, cutoff)
        report, markdown = _compose(
            run,
            store,
            assessed,
            prior,
            cutoff=cutoff,
            host=host,
            taxonomy=taxonomy,
            language=language,
            coverage=covered.model_copy(update={"excluded": excluded}),
        )
        path = out or settings.reports_dir / f"{day.isoformat()}.md"
        files = _write_outputs(path, report, markdown, taxonomy)
        review_result, blocking = _review(run, store, markdown, prior, host)
        refused = publish_refusal(blocking, covered.sources) if publish and not force else None
        if refused:
            _refuse(run, refused)
        elif publish:
            published = _publish(run, store, settings, report, markdown, confirm)
    except BaseException as exc:
        store.end_run(
            run_id, "failed", {"error": f"{type(exc).__name__}: {exc}", "stages": run.counts}
        )
        raise
    store.end_run(run_id, "ok", {"stages": run.counts})
    return DailyResult(
        report=report,
        markdown=markdown,
        path=path,
        run_id=run_id,
        counts=run.counts,
        health=covered.sources,
        review=review_result,
        blocking=blocking,
        published=published,
        refused=refused,
        files=files,
    )
