"""How the review reads a report: entry text, columns, project names and mechanism families.

`project_key`, `family_of` and `build_findings` also turn earlier reports (written by
people) into history for later reviews. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from research_radar.models import Finding, Snapshot
from research_radar.report.parse import ParsedEntry, ParsedReport
from research_radar.resolve.keys import Key, github_key, github_repo
from research_radar.review.vocab import FAMILIES, SHA

__all__ = [
    "base_name",
    "build_findings",
    "entry_text",
    "family_of",
    "family_text",
    "first_cell",
    "header_text",
    "project_key",
    "relation_column",
    "same_project",
    "name_slug",
]


# -- names and history ----------------------------------------------------------------------


_NOT_SLUG = re.compile(r"[^0-9a-z]+")
_VERSION_TAIL = re.compile(r"\s+(?:v?\d+(?:\.\d+)+|#\d+)\s*$")
_PROJECT_HEAD = re.compile(r"^project\s+", re.I)


def name_slug(text: str) -> str:
    """Lower-case letters and digits only: the loose form names are compared in."""
    return _NOT_SLUG.sub("", text.lower())


def base_name(name: str) -> str:
    """A written name without trailing versions or PR numbers: "Strata 0.2.8" -> "Strata"."""
    name = _VERSION_TAIL.sub("", name.strip())
    return _PROJECT_HEAD.sub("", name).strip() or name


def project_key(
    name: str, repo: str | None = None, aliases: Mapping[str, str] | None = None
) -> str:
    """The canonical key of a written project: `gh:owner/name` or `name:<slug>`, alias-resolved."""
    aliases = aliases or {}
    candidates = [github_key(repo), repo, repo.lower()] if repo else []
    candidates += [
        name,
        base_name(name),
        base_name(name).lower(),
        f"name:{name_slug(base_name(name))}",
    ]
    for candidate in candidates:
        if candidate and candidate in aliases:
            return aliases[candidate]
    return github_key(repo) if repo else str(Key("name", name_slug(base_name(name))))


def same_project(entry: ParsedEntry, past: Finding, aliases: Mapping[str, str]) -> bool:
    """Whether an entry names a project of the history (key, alias or name prefix/suffix)."""
    key = project_key(entry.name, entry.repo, aliases)
    past_key = aliases.get(past.project_key, past.project_key)
    if key == past_key:
        return True
    if github_repo(key) and github_repo(past_key):
        return False
    mine, theirs = name_slug(base_name(entry.name)), name_slug(base_name(past.name))
    if len(mine) < 4 or len(theirs) < 4:
        return mine == theirs
    return (
        mine.startswith(theirs)
        or theirs.startswith(mine)
        or mine.endswith(theirs)
        or theirs.endswith(mine)
    )


def family_of(text: str) -> str | None:
    """The mechanism family of an entry's text (keyword families, most specific first)."""
    for family, patterns in FAMILIES:
        if all(re.search(pattern, text) for pattern in patterns):
            return family
    return None


def build_findings(report: ParsedReport, aliases: Mapping[str, str] | None = None) -> list[Finding]:
    """History findings from a parsed report: one per entry, keyed by project and family.

    Used to import earlier reports (written by people) as history for later reviews.
    """
    if report.date is None:
        return []
    findings = []
    for entry in report.entries:
        sha = re.search(SHA, entry_text(report, entry))
        repo = entry.repo
        snapshot = None
        if sha and repo:
            snapshot = Snapshot(source_key=github_key(repo), version=sha.group(0))
        findings.append(
            Finding(
                project_key=project_key(entry.name, repo, aliases),
                name=entry.name,
                date=report.date,
                url=entry.urls[0] if entry.urls else "",
                snapshot=snapshot,
                mechanism=family_text(entry)[:2000],
                family=family_of(family_text(entry)),
                evidence_id=entry.evidence_ids[0] if entry.evidence_ids else "",
            )
        )
    return findings


# -- reading entries -------------------------------------------------------------------------


def entry_text(report: ParsedReport, entry: ParsedEntry, *, header: bool = False) -> str:
    """An entry's row plus its evidence blocks.

    With `header`, a one-entry supplement's header counts too (it pins the project there),
    without the host SHA.
    """
    blocks = [report.evidence[ref].text for ref in entry.evidence_ids if ref in report.evidence]
    if header and len(report.entries) == 1:
        head = header_text(report)
        blocks.append(head.replace(report.host_sha, "") if report.host_sha else head)
    return "\n".join([entry.text, *blocks])


def family_text(entry: ParsedEntry) -> str:
    """The name cell and the mechanism cell: where a family shows (not the evidence)."""
    return "\n".join(list(entry.cells.values())[:2])


def header_text(report: ParsedReport) -> str:
    """The report's first ten lines, where header statements stand."""
    return "\n".join(report.text.splitlines()[:10])


def relation_column(entry: ParsedEntry) -> str | None:
    """The column that relates an entry to the host (the last such), if any."""
    matches = [
        col for col in entry.cells if re.search(r"InferRSI|宿主|host|接点|借鉴|价值", col, re.I)
    ]
    return matches[-1] if matches else None


def first_cell(entry: ParsedEntry) -> str:
    """The entry's first cell: category and name, where the workload is written."""
    return next(iter(entry.cells.values()), "")
