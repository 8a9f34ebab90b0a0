"""Publish a report as NEW comments on the research-index issue (never an edit).

Safety first, in this order: the public-only gate (`check_public`) refuses private
repository links, local paths and token-like strings; `neutralise` defuses @-mentions and
raw HTML quoted from sources; the report is split into numbered parts that each fit
GitHub's comment limit; every part carries a hidden marker
`<!-- research-radar:report YYYY-MM-DD part i/n sha256:<16 hex> -->` so running again
posts nothing that is already on the issue. Dry run by default: nothing is sent.

The gate and `neutralise` live in `gate.py`, the splitting and markers in `comments.py`.
GitHub is reached through the one client (`research_radar.github`), whose retry policy
applies; a comment whose POST failed is sent again only when the issue's comments show
that the failed attempt left nothing.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Collection
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import select

from research_radar.errors import PublishError
from research_radar.github import GitHubClient, GitHubError
from research_radar.publish.comments import MARKER, CommentPart, build_parts
from research_radar.publish.gate import check_public, load_private_repos, neutralise
from research_radar.store.schema import publications
from research_radar.store.store import Store

__all__ = ["PartResult", "PublishResult", "parse_target", "publish_report"]

log = logging.getLogger(__name__)

_TARGET = re.compile(r"^\s*([A-Za-z0-9](?:[A-Za-z0-9-]{0,38}))/([A-Za-z0-9._-]{1,100})#(\d+)\s*$")


def parse_target(target: str) -> tuple[str, str, int]:
    """`owner/repo#12` -> ("owner", "repo", 12)."""
    match = _TARGET.match(target)
    if not match or int(match.group(3)) < 1:
        raise PublishError(
            f"not an issue target: {target!r}; "
            "write it as OWNER/REPO#N, e.g. example-org/research#177"
        )
    return match.group(1), match.group(2), int(match.group(3))


# -- GitHub ---------------------------------------------------------------------------------


@dataclass
class PartResult:
    """What happened (or would happen) to one part."""

    part: int
    total: int
    marker: str
    size: int
    status: str
    """would-post, posted or already-posted."""
    comment_id: str | None = None
    url: str | None = None
    body: str = field(default="", repr=False)


@dataclass
class PublishResult:
    target: str
    report_date: date
    dry_run: bool
    parts: list[PartResult]
    notes: list[str] = field(default_factory=list)

    @property
    def posted(self) -> int:
        return sum(part.status == "posted" for part in self.parts)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready summary (bodies left out)."""
        return {
            "target": self.target,
            "report_date": self.report_date.isoformat(),
            "dry_run": self.dry_run,
            "posted": self.posted,
            "notes": self.notes,
            "parts": [{k: v for k, v in vars(part).items() if k != "body"} for part in self.parts],
        }


def _refused(exc: GitHubError, target: str) -> PublishError:
    """Say what GitHub's refusal means for publishing to `target`, in GitHub's words too."""
    status = exc.status
    said = f"{status}: {exc.said}" if exc.said else str(status)
    if status == 401:
        text = (
            f"GitHub rejected the token ({said}); check GITHUB_TOKEN (expired, revoked or mistyped)"
        )
    elif exc.retry and status in (403, 429):
        text = f"GitHub rate limit reached for {target}: {exc.problem}; run again later"
    elif status == 403:
        text = (
            f"the token may not comment on {target} ({said}); it needs Issues: write on "
            "that repository (a fine-grained PAT in RADAR_TOKEN for another owner's issue)"
        )
    elif status in (404, 410):
        text = f"issue {target} not found ({said}), or the token cannot see that repository"
    elif status == 422:
        text = f"GitHub refused the comment on {target} ({said})"
    elif exc.retry:
        text = f"GitHub is failing for {target} ({exc.problem}); run again later"
    else:
        text = f"publishing to {target} failed ({exc.problem})"
    return PublishError(text, status=status)


def _list_markers(github: GitHubClient, path: str) -> dict[str, dict[str, Any]]:
    """marker -> comment, over every page of the issue's comments."""
    found: dict[str, dict[str, Any]] = {}
    for comment in github.get_list(path, {"per_page": 100}, max_pages=1000):
        body = str(comment.get("body") or "") if isinstance(comment, dict) else ""
        for match in MARKER.finditer(body):
            found.setdefault(match.group(0), comment)
    return found


def _post(github: GitHubClient, path: str, target: str, part: CommentPart) -> dict[str, Any]:
    """POST one comment. After a 5xx, look before posting again: never post twice."""
    try:
        comment = github.post(
            path, {"body": part.body}, recover=lambda: _list_markers(github, path).get(part.marker)
        )
    except GitHubError as exc:
        if not exc.retry or exc.status in (403, 429):
            raise _refused(exc, target) from exc
        raise PublishError(
            f"GitHub kept failing while posting part {part.part}/{part.total} to {target} "
            f"({exc.problem}); nothing was posted twice; run again later",
            status=exc.status,
        ) from exc
    if not isinstance(comment, dict):
        raise PublishError(f"GitHub answered the comment on {target} with something else")
    return comment


def _stored_markers(store: Store | None, target: str) -> set[str]:
    if store is None:
        return set()
    with store.engine.connect() as conn:
        rows = conn.execute(select(publications.c.marker).where(publications.c.target == target))
        return {str(row[0]) for row in rows}


def _save_publication(
    store: Store | None, target: str, report_date: date, part: PartResult
) -> None:
    if store is None or part.marker in _stored_markers(store, target):
        return
    with store.transaction() as conn:
        conn.execute(
            publications.insert().values(
                target=target,
                report_date=report_date,
                part=part.part,
                marker=part.marker,
                comment_id=part.comment_id,
                url=part.url,
                published_at=datetime.now(UTC),
            )
        )


def _other_versions(
    markers: Collection[str], report_date: date, parts: list[CommentPart], kind: str
) -> list[str]:
    """Markers of the same day whose content hash differs from ours."""
    ours = {part.marker for part in parts}
    day = report_date.isoformat()
    return sorted(
        m
        for m in markers
        if (g := MARKER.match(m)) and g.group(1) == kind and g.group(2) == day and m not in ours
    )


def publish_report(
    github: GitHubClient,
    *,
    target: str,
    markdown: str,
    report_date: date,
    store: Store | None = None,
    dry_run: bool = True,
    private_repos: Collection[str] = (),
    allowed_hosts: Collection[str] = (),
    allow_new_version: bool = False,
    kind: str = "report",
) -> PublishResult:
    """Post a report as new comments on `target` (OWNER/REPO#N); dry run by default.

    Args:
        private_repos: `owner/name` of private repositories (the store's are added).
        allowed_hosts: link hosts allowed beyond the public code/paper hosts
            (`[publish] allowed_hosts`).
        allow_new_version: post even when a different report for the same day is
            already on the issue (as new comments; earlier ones are never edited).
        kind: "report", or "review" for a review of a report (its own markers, so a
            review never counts as another version of the day's report).

    A dry run makes no network call; it reports parts already recorded in the store.
    """
    owner, repo, number = parse_target(target)
    problems = check_public(
        markdown,
        private_repos={*private_repos, *load_private_repos(store)},
        allowed_hosts=allowed_hosts,
    )
    if problems:
        raise PublishError("refusing to publish (public-only gate):\n  " + "\n  ".join(problems))
    if kind not in {"report", "review"}:
        raise PublishError(f"unknown comment kind {kind!r}; use report or review")
    parts = build_parts(neutralise(markdown), report_date, kind=kind)
    if dry_run:
        return _dry_run(store, target, report_date, parts, kind)
    path = f"/repos/{owner}/{repo}/issues/{number}/comments"
    try:
        existing = _list_markers(github, path)
    except GitHubError as exc:
        raise _refused(exc, target) from exc
    others = _other_versions(existing, report_date, parts, kind)
    if others and not allow_new_version and not any(p.marker in existing for p in parts):
        url = existing[others[0]].get("html_url", "")
        raise PublishError(
            f"a different report for {report_date} is already on {target} ({url}); earlier "
            "comments are never edited; pass --new-version to post this one as new comments"
        )
    result = PublishResult(target, report_date, False, [])
    for part in parts:
        comment = existing.get(part.marker)
        status = "already-posted" if comment is not None else "posted"
        if comment is None:
            comment = _post(github, path, target, part)
            log.info("posted part %d/%d of %s to %s", part.part, part.total, report_date, target)
        done = PartResult(
            part.part,
            part.total,
            part.marker,
            len(part.body),
            status,
            str(comment.get("id", "")) or None,
            comment.get("html_url"),
            part.body,
        )
        _save_publication(store, target, report_date, done)
        result.parts.append(done)
    return result


def _dry_run(
    store: Store | None, target: str, report_date: date, parts: list[CommentPart], kind: str
) -> PublishResult:
    recorded = _stored_markers(store, target)
    result = PublishResult(target, report_date, True, [])
    for part in parts:
        status = "already-posted" if part.marker in recorded else "would-post"
        result.parts.append(
            PartResult(part.part, part.total, part.marker, len(part.body), status, body=part.body)
        )
    others = _other_versions(recorded, report_date, parts, kind)
    if others:
        result.notes.append(
            f"the store records a different report for {report_date} on {target}; "
            "publishing this one needs --new-version"
        )
    return result
