"""The host project as the pipeline sees it: its index (checkout plus the PRs and issues
collected today), GitHub's head of its default branch, and the re-check before composing."""

from __future__ import annotations

import logging

from research_radar.config import Settings
from research_radar.hostmap.checkout import check_host_sha
from research_radar.hostmap.index import (
    HostIndex,
    host_items_from_sources,
    load_host_index,
    map_findings,
    reload_host_index,
)
from research_radar.models import Finding, SourceKind
from research_radar.pipeline.candidates import latest_snapshot
from research_radar.resolve.keys import github_key
from research_radar.store.store import Store

__all__ = ["load_host", "recheck_host", "remote_host_sha"]

log = logging.getLogger(__name__)


def load_host(settings: Settings, store: Store) -> HostIndex | None:
    """The host index of the configured checkout, with the host's PRs and issues as the
    `host` collector stored them; None when no checkout is configured."""
    if settings.host_path is None:
        return None
    repo = settings.host_repo
    items = []
    if repo:
        prefix = github_key(repo) + "#"
        items = [
            source
            for kind in (SourceKind.PULL, SourceKind.ISSUE)
            for source in store.load_sources(kind.value)
            if source.key.startswith(prefix)
        ]
    return load_host_index(settings.host_path, repo=repo, items=host_items_from_sources(items))


def remote_host_sha(store: Store, host: HostIndex | None) -> str | None:
    """GitHub's head of the host's default branch (as collected today), when it is not the
    commit the local checkout is at; None when they agree or GitHub was not asked."""
    if host is None or not host.repo or not host.head_sha:
        return None
    remote = latest_snapshot(store.load_snapshots(github_key(host.repo)))
    if (
        remote is None
        or remote.version.startswith(host.head_sha)
        or host.head_sha.startswith(remote.version)
    ):
        return None
    return remote.version


def recheck_host(
    host: HostIndex | None, findings: list[Finding]
) -> tuple[HostIndex | None, list[Finding], bool]:
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
    fresh = reload_host_index(host)
    return fresh, map_findings(fresh, findings), True
