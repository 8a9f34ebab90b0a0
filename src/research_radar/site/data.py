"""What the site shows, read from the store and passed through the public-only gate.

Everything is read once: the findings, projects and aliases, the stored reports, the
sources' current health and the run records (for health over time). A finding of a
private repository, or one whose text the publish gate refuses (links to private
repositories or to hosts not allowed, local paths, token-like strings), never reaches
the site; neither does a report the gate refuses. What was withheld is counted.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from research_radar.history.imports import load_report_dates
from research_radar.models import Finding, Project
from research_radar.publish.gate import check_public
from research_radar.store.store import Store

__all__ = ["HealthPoint", "SiteData", "load_site_data"]


@dataclass(frozen=True)
class HealthPoint:
    """One source's state in one run: ok, partial: ..., failed: ... or stale since ..."""

    source: str
    when: datetime
    state: str

    @property
    def ok(self) -> bool:
        return self.state == "ok"


@dataclass
class SiteData:
    """The public-only contents of the site."""

    findings: list[Finding]
    """Oldest first (by date, then as stored)."""
    projects: dict[str, Project]
    aliases: dict[str, list[str]]
    """Project key -> aliases recorded for it in the store."""
    reports: dict[date, str]
    """Day -> the report's Markdown, oldest first."""
    health: dict[str, dict[str, Any]]
    """Source -> its current health row."""
    history: list[HealthPoint]
    """Sources' states per collect run, oldest first."""
    language: str = "zh"
    withheld_findings: int = 0
    withheld_reports: list[date] = field(default_factory=list)


def _finding_problems(
    finding: Finding, private: Collection[str], hosts: Collection[str]
) -> list[str]:
    text = json.dumps(finding.model_dump(mode="json"), ensure_ascii=False)
    return check_public(text, private_repos=private, allowed_hosts=hosts)


def _is_private(key: str, private: Collection[str]) -> bool:
    return key.startswith("gh:") and key[3:].lower() in private


def _health_history(store: Store, limit: int) -> list[HealthPoint]:
    known = sorted(store.load_health())
    points: list[HealthPoint] = []
    for run in reversed(store.load_runs(limit)):
        for stage in run.get("stages", []):
            if stage.get("stage") != "collect" or stage.get("status") == "running":
                continue
            errors = stage.get("errors") or {}
            failed = errors if isinstance(errors, dict) else {}
            when = stage.get("started_at") or run["started_at"]
            for source in sorted({*known, *failed}):
                points.append(HealthPoint(source, when, str(failed.get(source, "ok"))))
    return points


def load_site_data(
    store: Store,
    *,
    private_repos: Collection[str] = (),
    allowed_hosts: Collection[str] = (),
    language: str = "zh",
    runs: int = 400,
) -> SiteData:
    """Read the store for the site, leaving out anything private.

    Args:
        store: the store to read (never written).
        private_repos: `owner/name` of private repositories (see `load_private_repos`).
        allowed_hosts: extra hosts links may point to (`[publish] allowed_hosts`).
        language: the reports' language.
        runs: how many recent runs the health history covers.
    """
    private = {repo.lower().removeprefix("gh:") for repo in private_repos}
    kept: list[Finding] = []
    withheld = 0
    for finding in store.load_findings():
        if _is_private(finding.project_key, private) or _finding_problems(
            finding, private, allowed_hosts
        ):
            withheld += 1
            continue
        kept.append(finding)
    shown = {finding.project_key for finding in kept}
    projects = {project.key: project for project in store.load_projects() if project.key in shown}
    aliases: dict[str, list[str]] = {}
    for alias, key in sorted(store.load_aliases().items()):
        if key in projects:
            aliases.setdefault(key, []).append(alias)
    reports: dict[date, str] = {}
    refused: list[date] = []
    for day in load_report_dates(store, language):
        markdown = store.load_report(day, language)
        if markdown is None:
            continue
        if check_public(markdown, private_repos=private, allowed_hosts=allowed_hosts):
            refused.append(day)
        else:
            reports[day] = markdown
    return SiteData(
        findings=kept,
        projects=projects,
        aliases=aliases,
        reports=reports,
        health=store.load_health(),
        history=_health_history(store, runs),
        language=language,
        withheld_findings=withheld,
        withheld_reports=refused,
    )
