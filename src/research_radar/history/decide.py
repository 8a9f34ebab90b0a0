"""History: new / update / seen / historical decisions and corrections.

`decide` and `corrections` are pure. History import lives beside it: `history_import` turns
parsed house-style reports into a HistoryPlan (pure) and `history_store` is the edge that
reads report files and reads or writes the store; their public names are re-exported here.

Policies (CONVENTIONS §8): "first-discovered" — since the 2026-10-30 correction only first
discoveries are reported, an update of an already reported project is not a current
recommendation; "substantive-updates" — a new release or tag, a new arXiv version, a
changed post or enough non-documentation commits since the last report are reported too.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime

from research_radar.errors import ConfigError
from research_radar.models import ClaimKind, Correction, Finding, Novelty, Project, Snapshot

__all__ = ["POLICIES", "Decision", "corrections", "decide", "is_doc_only_commit"]

log = logging.getLogger(__name__)

POLICIES = ("first-discovered", "substantive-updates")
NEW_WITHIN_DAYS = 7
"""A project created at most this many days before the report date is a new release."""
COMMIT_THRESHOLD = 10
"""Non-documentation commits since the last report that make a substantive update."""


@dataclass(frozen=True)
class Decision:
    """What history says about a project on a date."""

    status: str
    """new, update, seen or historical."""
    novelty: Novelty | None
    """The novelty label when the project is reported (None when seen)."""
    reason: str
    last_reported: date | None
    changes: tuple[str, ...] = ()
    """Substantive changes since the last report (also listed when the policy hides them)."""

    @property
    def reported(self) -> bool:
        return self.status != "seen"


_DOC_MESSAGE = re.compile(
    r"^(?:docs?|readme|typo|chore\(docs?\)|style|ci)\b|^(?:update|fix|edit)\s+(?:the\s+)?readme\b",
    re.IGNORECASE,
)
_DOC_PATH = re.compile(
    r"(?:^|/)(?:docs?/|readme|changelog|license|notice)|\.(?:md|rst|txt|png|jpg|svg)$", re.I
)


def is_doc_only_commit(message: str, paths: Sequence[str] = ()) -> bool:
    """Whether a commit changes only documentation (by its paths when known, else its message)."""
    if paths:
        return all(_DOC_PATH.search(path) for path in paths)
    return bool(_DOC_MESSAGE.match(message.strip()))


def _prior_of(project: Project, prior: Iterable[Finding], on: date) -> list[Finding]:
    keys = {project.key, *project.sources}
    return sorted((f for f in prior if f.project_key in keys and f.date < on), key=lambda f: f.date)


def _changes(
    snapshots: Sequence[Snapshot],
    before: list[Finding],
    last: date,
    substantive_commits: int | None,
) -> list[str]:
    tags = {f.snapshot.tag for f in before if f.snapshot and f.snapshot.tag}
    hashes = {f.snapshot.content_hash for f in before if f.snapshot and f.snapshot.content_hash}
    versions = [_vnum(f.snapshot.version) for f in before if f.snapshot]
    top = max((v for v in versions if v is not None), default=None)
    found: list[str] = []
    for snap in snapshots:
        newer = snap.version_date is not None and snap.version_date.date() > last
        number = _vnum(snap.version)
        if snap.tag and snap.tag not in tags and newer:
            found.append(f"new release/tag {snap.tag} ({snap.version_date:%Y-%m-%d})")
        elif number is not None and (number > top if top is not None else newer):
            found.append(f"new arXiv version v{number}")
        elif snap.content_hash and hashes and snap.content_hash not in hashes and newer:
            found.append(f"post changed ({snap.version_date:%Y-%m-%d})")
    if substantive_commits is not None and substantive_commits >= COMMIT_THRESHOLD:
        found.append(f"{substantive_commits} non-documentation commits since {last}")
    return list(dict.fromkeys(found))


def _vnum(version: str) -> int | None:
    match = re.fullmatch(r"v(\d+)", version.strip())
    return int(match.group(1)) if match else None


def decide(
    project: Project,
    snapshots: list[Snapshot],
    prior: list[Finding],
    *,
    on: date,
    policy: str = "first-discovered",
    created_at: datetime | None = None,
    doc_only_commits: int = 0,
    commits_since: int | None = None,
    new_within_days: int = NEW_WITHIN_DAYS,
) -> Decision:
    """Decide whether a project is new, a substantive update, already seen or a historical find.

    Args:
        prior: earlier findings (any project; those of this project and its sources count;
            findings dated `on` or later are ignored so a re-run decides the same).
        created_at: when the project first existed (repository created, paper v1); unknown
            means a first discovery is historical, never "today's release".
        commits_since / doc_only_commits: commits since the last report and how many of them
            only touch documentation (`is_doc_only_commit`).
    """
    if policy not in POLICIES:
        raise ConfigError(f"unknown history policy {policy!r}; use one of {', '.join(POLICIES)}")
    if project.fork_of and not project.derivative:
        return Decision(
            "seen", None, f"ordinary fork of {project.fork_of}; forks are never new findings", None
        )
    before = _prior_of(project, prior, on)
    derived = f"; derivative of {project.fork_of} (prior art)" if project.fork_of else ""
    if not before:
        return _first_discovery(on, created_at, new_within_days, derived)
    last = before[-1].date
    commits = None if commits_since is None else max(0, commits_since - doc_only_commits)
    changes = tuple(_changes(snapshots, before, last, commits))
    if policy == "first-discovered":
        why = f"reported on {last}; policy first-discovered reports first discoveries only"
        return Decision(
            "seen",
            None,
            why + (f" (changes: {'; '.join(changes)})" if changes else ""),
            last,
            changes,
        )
    if changes:
        return Decision(
            "update",
            Novelty.NEW_PROGRESS,
            "substantive update: " + "; ".join(changes),
            last,
            changes,
        )
    return Decision("seen", None, f"reported on {last}; no substantive change since", last)


def _first_discovery(on: date, created_at: datetime | None, window: int, derived: str) -> Decision:
    if created_at is None:
        why = "first seen now; creation date unknown, so not labelled a new release"
        return Decision("historical", Novelty.HISTORICAL, why + derived, None)
    age = (on - created_at.date()).days
    if age <= window:
        return Decision(
            "new", Novelty.NEW_RELEASE, f"first seen; created {created_at:%Y-%m-%d}" + derived, None
        )
    why = f"historical first discovery: created {created_at:%Y-%m-%d}, {age} days before {on}"
    return Decision("historical", Novelty.HISTORICAL, why + derived, None)


_CORRECTING = re.compile(
    r"retract|withdr[ae]w|revert|roll(?:ed)?\s*back|closed\s+(?:without|un)\s*merg|unmerged|"
    r"correct(?:ed|ion)|superseded|no longer|撤回|回退|恢复默认|默认关闭|关闭(?:但)?未合并|修正|更正|否定|不再",
    re.IGNORECASE,
)
_CORRECTING_FLAGS = {
    "retracted",
    "reverted",
    "closed-unmerged",
    "corrected",
    "superseded",
    "counterexample",
}


def corrections(prior: list[Finding], current: list[Finding]) -> list[Correction]:
    """Corrections of earlier conclusions that today's findings carry.

    A current finding of an already reported project corrects it when it has a negative or
    status claim that says so (retracted number, reverted default, PR closed unmerged, ...)
    or a correcting flag. A correction already stated in an earlier finding is not repeated.
    """
    by_key: dict[str, list[Finding]] = {}
    for finding in prior:
        by_key.setdefault(finding.project_key, []).append(finding)
    result: list[Correction] = []
    for finding in current:
        earlier = [f for f in by_key.get(finding.project_key, []) if f.date < finding.date]
        if not earlier:
            continue
        said = {text for f in earlier for text in _correcting_texts(f)}
        said |= {claim.text for f in earlier for claim in f.claims}
        last = max(f.date for f in earlier).isoformat()
        for text in _correcting_texts(finding):
            if text not in said:
                result.append(
                    Correction(
                        project_key=finding.project_key,
                        name=finding.name,
                        text=text,
                        supersedes=last,
                    )
                )
    return result


def _correcting_texts(finding: Finding) -> list[str]:
    texts = [
        claim.text
        for claim in finding.claims
        if claim.kind in (ClaimKind.NEGATIVE, ClaimKind.STATUS) and _CORRECTING.search(claim.text)
    ]
    texts += [f"{finding.name}: {flag}" for flag in finding.flags if flag in _CORRECTING_FLAGS]
    return list(dict.fromkeys(texts))
