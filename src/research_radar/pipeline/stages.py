"""The stages of the daily pipeline up to the kept findings, each a function that runs
inside one recorded stage (`StageRecorder.stage`) and writes in one transaction; `map`
and `assess` are in `pipeline.assess_stages`, the report's stages in
`pipeline.report_stages`. `pipeline.run` calls them in order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date, datetime
from functools import partial
from typing import Any

from research_radar.classify.model import Taxonomy
from research_radar.collect.stage import OnFound, collect, pending_keys
from research_radar.collect.window import live_settings, live_window_start
from research_radar.config import Settings
from research_radar.history import decide as history
from research_radar.models import (
    Claim,
    Coverage,
    Exclusion,
    ExclusionReason,
    Finding,
    Project,
    Snapshot,
    Source,
)
from research_radar.pipeline.ahead import Classified, ReadAhead, claims_of_texts
from research_radar.pipeline.candidates import (
    FINDING_KINDS,
    build_candidate,
    classify_sources,
    latest_snapshot,
    primary_source,
    source_where,
)
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
    "Held",
    "Progress",
    "StageRecorder",
    "classify_stage",
    "collect_stage",
    "decide_stage",
    "extract_stage",
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
    source found before it is written (`ReadAhead.found`).
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


def resolve_stage(
    run: StageRecorder, store: Store, settings: Settings
) -> tuple[list[Project], list[Source]]:
    """The projects of the store's sources, saved with their aliases; returns them and
    every source as read (the extract stage looks the primary sources up among them:
    nothing writes sources in between, and reading them twice cost a second, #19)."""
    with run.stage("resolve") as counts:
        every = store.load_sources()
        sources = [s for s in every if s.kind in FINDING_KINDS]
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
    return projects, every


@dataclass(frozen=True)
class Held:
    """Sources and projects by key, as the store holds them: the run's own, read or written
    by the resolve stage (nothing writes either after it), so that later stages look
    them up instead of reading and validating them again (#19). So too the snapshots the
    extract stage read (nothing writes snapshots after the collect stage)."""

    sources: Mapping[str, Source]
    projects: Mapping[str, Project]
    snapshots: Mapping[str, list[Snapshot]] = field(default_factory=dict)
    """source key -> its snapshots, newest first, of every key read (empty: it has none)."""

    @classmethod
    def read(cls, store: Store, sources: Iterable[str], projects: Iterable[str]) -> Held:
        """The sources and the projects of some keys, read from the store."""
        return cls(store.load_sources_of(sources), store.load_projects_of(projects))

    def snapshots_of(self, store: Store, keys: Iterable[str]) -> dict[str, list[Snapshot]]:
        """`store.load_snapshots_of(keys)`: those held, the others read."""
        wanted = sorted(set(keys))
        found = store.load_snapshots_of(key for key in wanted if key not in self.snapshots)
        return {key: held for key in wanted if (held := self.snapshots.get(key) or found.get(key))}

    def of(self, keys: Iterable[str]) -> tuple[dict[str, Source], dict[str, Project]]:
        """The sources and the projects of `keys` that are held."""
        keys = list(keys)
        return (
            {key: self.sources[key] for key in keys if key in self.sources},
            {key: self.projects[key] for key in keys if key in self.projects},
        )


@dataclass(frozen=True)
class Extracted:
    """What `extract_stage` read, for `classify_stage`: each touched project's primary
    source, its newest snapshot and its claims (extracted once per run), and what was
    classified ahead."""

    sources: dict[str, Source]
    """project key → primary source (of every project)."""
    snapshots: dict[str, Snapshot | None]
    """source key → newest snapshot (touched projects)."""
    claims: dict[str, list[Claim]]
    """source key → claims of its text (touched projects)."""
    read: dict[str, list[Snapshot]] = field(default_factory=dict)
    """source key → its snapshots, newest first, as read (touched projects; empty: none)."""
    classified: dict[str, Classified] = field(default_factory=dict)
    """source key → what the classifier read of it and its classification, made ahead
    (`ReadAhead`; `classify_stage` uses it where it would read the same)."""


def extract_stage(
    run: StageRecorder,
    store: Store,
    projects: list[Project],
    touched: set[str],
    ahead: ReadAhead | None = None,
    sources: list[Source] | None = None,
) -> Extracted:
    """Claims of the projects this run collected (or re-read); the others were extracted
    by the run that touched them. Reads everything before the writing transaction.
    `ahead`: the claims (and classifications) the collect stage started reading (#19),
    whose forked process goes on while this one takes over from the back (so this stage
    also classifies what was read ahead). `sources`: every source of the store, when the
    caller has just read them (`resolve_stage`)."""
    with run.stage("extract") as counts:
        every = store.load_sources() if sources is None else sources
        by_key = {source.key: source for source in every}
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
        # on two cores (#19)
        made = ahead.claims(texts) if ahead else claims_of_texts(list(texts.values()))
        claims = dict(zip(texts, made, strict=True))
        read = {source.key: found.get(source.key, []) for source in chosen}
        classified = ahead.classified if ahead else {}
        extracted = Extracted(primary, latest, claims, read=read, classified=classified)
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
        classified = classify_sources(taxonomy, weighed, extracted.classified)
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
    run: StageRecorder,
    store: Store,
    settings: Settings,
    candidates: list[Finding],
    day: date,
    held: Held | None = None,
) -> tuple[list[Finding], list[Finding], list[Exclusion]]:
    """Keep what is new (or a substantive update, by policy).

    Returns the kept findings, the prior findings of the candidates' projects (and their
    sources) and why the others were left out. Reads only the candidates' history, each
    part in one query, and looks it up by key (issue #19). `held`: the projects the run
    resolved and the snapshots it read, looked up instead of read again.
    """
    with run.stage("decide") as counts:
        weighed = [finding.project_key for finding in candidates]
        projects = (held or Held.read(store, (), weighed)).of(weighed)[1]
        keys = {key for project in projects.values() for key in (project.key, *project.sources)}
        prior = load_findings_of(store, keys, before=day)
        by_key: dict[str, list[Finding]] = {}
        for finding in prior:
            by_key.setdefault(finding.project_key, []).append(finding)
        snapshots = (held or Held({}, {})).snapshots_of(
            store, (finding.project_key for finding in candidates)
        )
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
