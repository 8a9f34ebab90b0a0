"""What the daily pipeline reads: the live collectors' queries, the sample, the host
index and the candidate findings built from collected sources.

Kept apart from `pipeline.py`, which only runs and records the stages.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Sequence
from dataclasses import replace
from datetime import date, datetime, timedelta
from pathlib import Path

from research_radar.classify import rules as classify_stage
from research_radar.classify.model import Taxonomy
from research_radar.config import Settings
from research_radar.extract import claims as extract
from research_radar.hostmap import index as hostmap
from research_radar.hostmap.checkout import check_host_sha
from research_radar.models import Derivation, Finding, Project, Snapshot, Source, SourceKind
from research_radar.sample.host import SAMPLE_HOST_REPO
from research_radar.store.store import Store

__all__ = [
    "ARXIV_QUERIES_PER_DAY",
    "FINDING_KINDS",
    "GITHUB_QUERIES_PER_DAY",
    "SAMPLE_HISTORY",
    "build_candidate",
    "latest_snapshot",
    "live_settings",
    "live_window_start",
    "load_host",
    "primary_source",
    "recheck_host",
    "remote_host_sha",
    "rotate_queries",
    "source_where",
]

log = logging.getLogger(__name__)

SAMPLE_HISTORY = Path(__file__).parent.parent / "sample" / "history"
"""Earlier reports shipped with the sample, imported so the demo shows dedup across dates."""


def primary_source(project: Project, by_key: dict[str, Source]) -> Source | None:
    if project.key in by_key:
        return by_key[project.key]
    for key in project.sources:
        if key in by_key:
            return by_key[key]
    return None


def latest_snapshot(snapshots: list[Snapshot]) -> Snapshot | None:
    return snapshots[0] if snapshots else None


def source_where(source: Source, snapshot: Snapshot | None) -> str:
    name = source.key.split(":", 1)[1]
    if snapshot is None:
        return source.url
    if source.key.startswith("gh:"):
        full = source.url.removeprefix("https://github.com/") or name
        return f"{full}@{snapshot.version}:README.md"
    return snapshot.url or source.url


def build_candidate(
    project: Project, source: Source, snapshot: Snapshot | None, taxonomy: Taxonomy, day: date
) -> Finding:
    text = "\n".join(part for part in (source.summary, source.text) if part)
    tags = classify_stage.classify(taxonomy, source.title or project.name, text)
    claims = (
        extract.extract_claims(source.text, where=source_where(source, snapshot))
        if source.text
        else []
    )
    pinned = (
        snapshot.model_copy(update={"meta": {**snapshot.meta, "created_at": _created(source)}})
        if snapshot
        else None
    )
    return Finding(
        project_key=project.key,
        name=project.name,
        date=day,
        url=source.url,
        snapshot=pinned,
        mechanism=source.summary or source.title,
        derived_from=Derivation(parent=project.fork_of, evidence=project.derivative_evidence[:2])
        if project.fork_of
        else None,
        related=[project.fork_of] if project.fork_of else [],
        former_names=[str(name) for name in source.meta.get("renamed_from") or []],
        tags=tags,
        rsi_target=classify_stage.classify_target(taxonomy, source.title, text),
        claims=claims,
    )


def _created(source: Source) -> str | None:
    return source.created_at.isoformat() if source.created_at else None


GITHUB_QUERIES_PER_DAY = 12
ARXIV_QUERIES_PER_DAY = 6


def rotate_queries(queries: Sequence[str], day: date, per_day: int) -> list[str]:
    """A day's share of the profile's queries: all of them are covered in turn."""
    if len(queries) <= per_day:
        return list(queries)
    start = (day.toordinal() * per_day) % len(queries)
    return [queries[(start + i) % len(queries)] for i in range(per_day)]


OVERLAP = timedelta(hours=24)
"""A live window starts this long before the last one ended (house style: 向前重叠 24h)."""
MAX_CATCH_UP = timedelta(days=14)
"""After a gap (a weekend, an outage) the window reaches back at most this far."""


def live_window_start(last_end: str | None, cutoff: datetime) -> datetime:
    """Where today's live collection starts: the last window's end minus the overlap, so a
    missed day is caught up; never later than 48 hours before the cut-off, never earlier
    than MAX_CATCH_UP before it."""
    start = cutoff - timedelta(hours=48)
    if last_end:
        start = min(start, datetime.fromisoformat(last_end) - OVERLAP)
    return max(start, cutoff - MAX_CATCH_UP)


def live_settings(settings: Settings, taxonomy: Taxonomy, store: Store, day: date) -> Settings:
    """Fill the collectors' queries from the profile unless radar.toml names its own.

    Under the first-discovered policy, repositories already reported are left out of the
    search results (their updates are not reported again).
    """
    github = dict(settings.extra.get("github", {}))
    if "queries" not in github:
        github["queries"] = rotate_queries(taxonomy.queries.github(), day, GITHUB_QUERIES_PER_DAY)
    if settings.policy == "first-discovered":
        known = [
            f.project_key[3:] for f in store.load_findings() if f.project_key.startswith("gh:")
        ]
        github["exclude"] = sorted({*map(str, github.get("exclude", [])), *known})
    arxiv = dict(settings.extra.get("arxiv", {}))
    if "queries" not in arxiv:
        queries = taxonomy.queries
        terms = [
            f'abs:"{term}" AND cat:{cat}'
            for term in queries.arxiv_terms
            for cat in queries.arxiv_categories
        ]
        arxiv["queries"] = rotate_queries(terms, day, ARXIV_QUERIES_PER_DAY)
    return replace(settings, extra={**settings.extra, "github": github, "arxiv": arxiv})


FINDING_KINDS = {SourceKind.REPO, SourceKind.PAPER, SourceKind.BLOG}


def _tree_digest(folder: Path) -> str:
    """A short digest of a folder's files, so a cached copy is rebuilt when they change."""
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        digest.update(path.relative_to(folder).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


def load_host(settings: Settings, *, sample: bool, cache_dir: Path) -> hostmap.HostIndex | None:
    """The host index: the bundled sample host, the configured checkout, or None."""
    if sample:
        from research_radar.sample.host import SAMPLE_FILES, build_sample_host, load_sample_items

        root = cache_dir / f"sample-host-{_tree_digest(SAMPLE_FILES)}"
        if not (root / ".git").exists():
            build_sample_host(root)
        pulls, issues = load_sample_items()
        return hostmap.load_host_index(root, repo=SAMPLE_HOST_REPO, pulls=pulls, issues=issues)
    if settings.host_path is None:
        return None
    return hostmap.load_host_index(settings.host_path, repo=settings.host_repo)


def remote_host_sha(store: Store, host: hostmap.HostIndex | None) -> str | None:
    """GitHub's head of the host's default branch (as collected today), when it is not the
    commit the local checkout is at; None when they agree or GitHub was not asked."""
    if host is None or not host.repo or not host.head_sha:
        return None
    remote = latest_snapshot(store.load_snapshots(f"gh:{host.repo.lower()}"))
    if (
        remote is None
        or remote.version.startswith(host.head_sha)
        or host.head_sha.startswith(remote.version)
    ):
        return None
    return remote.version


def recheck_host(
    host: hostmap.HostIndex | None, findings: list[Finding]
) -> tuple[hostmap.HostIndex | None, list[Finding], bool]:
    """Re-read the host's default branch right before composing.

    When it moved since mapping, index the host again and map every finding again, so
    the touch points and the SHA in the header belong to the same commit.
    """
    if host is None or host.root is None:
        return host, findings, False
    same, sha = check_host_sha(host.root, host.head_sha)
    if same:
        return host, findings, True
    log.warning("host default branch moved from %s to %s; mapping again", host.head_sha, sha)
    fresh = hostmap.reload_host_index(host)
    return fresh, hostmap.map_findings(fresh, findings), True
