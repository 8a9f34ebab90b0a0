"""Where a report's claims are checked: the `Verifier` protocol, its answers, and adapters.

`GitVerifier` reads local git checkouts, `StoreVerifier` what the collectors saved,
`GitHubVerifier` the GitHub REST API (through the one GitHub client); `ChainVerifier` asks
them in turn. This is the I/O edge of verify.py: every method answers UNREACHABLE when it
cannot tell, never raises.
"""

from __future__ import annotations

import logging
import re
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from typing import Any, Protocol

from research_radar.errors import SourceError
from research_radar.github import RAW_MEDIA, GitHubClient
from research_radar.models import BEIJING
from research_radar.resolve.keys import github_key
from research_radar.sources.http import request_key
from research_radar.store.store import Store

__all__ = [
    "ChainVerifier",
    "CommitCheck",
    "FileCheck",
    "GitHubVerifier",
    "GitVerifier",
    "IssueCheck",
    "Outcome",
    "StoreVerifier",
    "Verifier",
]

log = logging.getLogger(__name__)


class Outcome(StrEnum):
    FOUND = "found"
    ABSENT = "absent"
    """The source answered and the thing does not exist."""
    UNREACHABLE = "unreachable"
    """No source could answer (not configured, network error, rate limit)."""


@dataclass(frozen=True)
class CommitCheck:
    outcome: Outcome
    sha: str = ""
    committed_at: datetime | None = None
    source: str = ""


@dataclass(frozen=True)
class FileCheck:
    outcome: Outcome
    text: str = ""
    source: str = ""


@dataclass(frozen=True)
class IssueCheck:
    outcome: Outcome
    state: str = ""
    """open, closed (issues); open, draft, merged, closed-unmerged (pull requests)."""
    merged_at: datetime | None = None
    closed_at: datetime | None = None
    source: str = ""


class Verifier(Protocol):
    """Answers questions about sources. Every method returns UNREACHABLE when it cannot tell."""

    def commit(self, repo: str, sha: str) -> CommitCheck: ...

    def file(self, repo: str, sha: str, path: str) -> FileCheck: ...

    def issue(self, repo: str, number: int) -> IssueCheck: ...

    def branch_head(self, repo: str, at: datetime) -> CommitCheck:
        """The default branch's head commit at a moment."""
        ...


_UNREACHABLE_COMMIT = CommitCheck(Outcome.UNREACHABLE)
_UNREACHABLE_FILE = FileCheck(Outcome.UNREACHABLE)
_UNREACHABLE_ISSUE = IssueCheck(Outcome.UNREACHABLE)


# -- adapters ---------------------------------------------------------------------------------


class GitVerifier:
    """Local git checkouts: `owner/name` -> path."""

    def __init__(self, paths: Mapping[str, Path]):
        self.paths = {repo.lower(): Path(path) for repo, path in paths.items()}

    def _git(self, repo: str, *args: str) -> str | None:
        path = self.paths.get(repo.lower())
        if path is None:
            return None
        try:
            done = subprocess.run(
                ["git", "-C", str(path), *args], capture_output=True, timeout=30, check=False
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            log.warning("git %s in %s failed: %s", args[0], path, exc)
            return None
        return done.stdout.decode("utf-8", "replace") if done.returncode == 0 else ""

    def commit(self, repo: str, sha: str) -> CommitCheck:
        out = self._git(repo, "show", "-s", "--format=%H%x00%cI", f"{sha}^{{commit}}", "--")
        if out is None:
            return _UNREACHABLE_COMMIT
        if not out.strip():
            return CommitCheck(Outcome.ABSENT, source=f"git {repo}")
        full, when = out.strip().split("\x00")
        return CommitCheck(Outcome.FOUND, full, datetime.fromisoformat(when), f"git {repo}")

    def file(self, repo: str, sha: str, path: str) -> FileCheck:
        out = self._git(repo, "show", f"{sha}:{path}")
        if out is None:
            return _UNREACHABLE_FILE
        if out == "":
            return FileCheck(Outcome.ABSENT, source=f"git {repo}")
        return FileCheck(Outcome.FOUND, out, f"git {repo}")

    def issue(self, repo: str, number: int) -> IssueCheck:
        return _UNREACHABLE_ISSUE

    def branch_head(self, repo: str, at: datetime) -> CommitCheck:
        branch = (
            self._git(repo, "symbolic-ref", "--short", "refs/remotes/origin/HEAD") or ""
        ).strip()
        branch = branch or (self._git(repo, "symbolic-ref", "--short", "HEAD") or "").strip()
        if not branch:
            return _UNREACHABLE_COMMIT
        out = self._git(
            repo, "rev-list", "-1", "--first-parent", f"--before={at.isoformat()}", branch
        )
        if not out or not out.strip():
            return _UNREACHABLE_COMMIT
        return self.commit(repo, out.strip())


class StoreVerifier:
    """What the collectors saved: snapshots (commit + date), source prose and PR/issue sources."""

    def __init__(self, store: Store):
        self.store = store

    def commit(self, repo: str, sha: str) -> CommitCheck:
        for snapshot in self.store.load_snapshots(github_key(repo)):
            if snapshot.version.startswith(sha) or sha.startswith(snapshot.version):
                return CommitCheck(Outcome.FOUND, snapshot.version, snapshot.version_date, "store")
        return _UNREACHABLE_COMMIT  # the store keeps some snapshots only: absence proves nothing

    def file(self, repo: str, sha: str, path: str) -> FileCheck:
        source = self.store.load_source(github_key(repo))
        if source is None or not path.lower().startswith("readme"):
            return _UNREACHABLE_FILE
        if not any(snap.version.startswith(sha) for snap in self.store.load_snapshots(source.key)):
            return _UNREACHABLE_FILE
        return FileCheck(Outcome.FOUND, source.text, "store")

    def issue(self, repo: str, number: int) -> IssueCheck:
        wanted = re.compile(rf"github\.com/{re.escape(repo)}/(?:pull|issues)/{number}$", re.I)
        for kind in ("pull", "issue"):
            for source in self.store.load_sources(kind):
                if wanted.search(source.url.rstrip("/")):
                    return _issue_from_payload(source.meta, "store")
        return _UNREACHABLE_ISSUE

    def branch_head(self, repo: str, at: datetime) -> CommitCheck:
        return _UNREACHABLE_COMMIT


def _when(value: Any) -> datetime | None:
    if not isinstance(value, str) or not value:
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None


def _issue_from_payload(data: Mapping[str, Any], source: str) -> IssueCheck:
    merged_at = _when(data.get("merged_at"))
    state = str(data.get("state", ""))
    if merged_at or data.get("merged") is True:
        state = "merged"
    elif state == "open" and data.get("draft"):
        state = "draft"
    elif state == "closed" and ("merged_at" in data or "merged" in data):
        state = "closed-unmerged"
    return IssueCheck(Outcome.FOUND, state, merged_at, _when(data.get("closed_at")), source)


class GitHubVerifier:
    """The GitHub REST API, through a GitHubClient at settings.github_api_url.

    GitHub's "no" (404, or 422 for a malformed SHA) is ABSENT; any other error is
    UNREACHABLE and logged with GitHub's own message.
    """

    def __init__(self, github: GitHubClient):
        self.github = github
        # Requests that got no answer are not asked (nor logged) again: a file of several
        # reports is verified report by report, each with its own memo, so each
        # unreachable call was otherwise asked, and logged, once per report.
        self._failed: set[str] = set()
        self.unreachable = False
        """Set at the first connection-level failure: nothing more is asked (refs #17)."""

    def _ask(
        self, path: str, params: dict[str, str] | None = None, *, raw: bool = False
    ) -> tuple[Outcome, Any]:
        """FOUND and the decoded answer (text when `raw`), ABSENT, or UNREACHABLE and None."""
        key = request_key(path, params)
        if key in self._failed or self.unreachable:
            return Outcome.UNREACHABLE, None
        try:
            if raw:
                body = self.github.get(path, params, accept=RAW_MEDIA).body
                return Outcome.FOUND, body.decode("utf-8", "replace")
            return Outcome.FOUND, self.github.get_json(path, params)
        except SourceError as exc:
            if exc.status in (404, 422):
                log.debug("GitHub API says no: %s", exc)
                return Outcome.ABSENT, None
            if exc.status is None:  # no answer at all: GitHub is down for this review
                log.warning("GitHub unreachable (%s); not asking it again", exc)
                self.unreachable = True
            else:
                log.warning("GitHub API request failed: %s", exc)
            self._failed.add(key)
            return Outcome.UNREACHABLE, None

    def commit(self, repo: str, sha: str) -> CommitCheck:
        outcome, data = self._ask(f"/repos/{repo}/commits/{sha}")
        if outcome is Outcome.UNREACHABLE:
            return _UNREACHABLE_COMMIT
        if outcome is Outcome.ABSENT:
            return CommitCheck(Outcome.ABSENT, source="github")
        committed = _when(data.get("commit", {}).get("committer", {}).get("date"))
        return CommitCheck(Outcome.FOUND, str(data.get("sha", sha)), committed, "github")

    def file(self, repo: str, sha: str, path: str) -> FileCheck:
        outcome, text = self._ask(f"/repos/{repo}/contents/{path}", {"ref": sha}, raw=True)
        if outcome is Outcome.UNREACHABLE:
            return _UNREACHABLE_FILE
        return FileCheck(outcome, text or "", "github")

    def issue(self, repo: str, number: int) -> IssueCheck:
        for kind in ("pulls", "issues"):
            outcome, data = self._ask(f"/repos/{repo}/{kind}/{number}")
            if outcome is Outcome.UNREACHABLE:
                return _UNREACHABLE_ISSUE
            if outcome is Outcome.FOUND:
                return _issue_from_payload(data, "github")
        return IssueCheck(Outcome.ABSENT, source="github")

    def branch_head(self, repo: str, at: datetime) -> CommitCheck:
        outcome, meta = self._ask(f"/repos/{repo}")
        if outcome is not Outcome.FOUND:
            return _UNREACHABLE_COMMIT
        branch = str(meta.get("default_branch", "main"))
        until = at.astimezone(BEIJING).isoformat()
        params = {"sha": branch, "until": until, "per_page": "1"}
        outcome, listing = self._ask(f"/repos/{repo}/commits", params)
        if outcome is not Outcome.FOUND or not listing:
            return _UNREACHABLE_COMMIT
        first = listing[0]
        committed = _when(first.get("commit", {}).get("committer", {}).get("date"))
        return CommitCheck(Outcome.FOUND, str(first.get("sha", "")), committed, "github")


class ChainVerifier:
    """Ask each verifier in turn; the first that can answer wins."""

    def __init__(self, verifiers: Sequence[Verifier]):
        self.verifiers = list(verifiers)

    @property
    def unreachable(self) -> bool:
        """Whether a verifier of the chain found its host down (GitHub unreachable)."""
        return any(getattr(verifier, "unreachable", False) for verifier in self.verifiers)

    def commit(self, repo: str, sha: str) -> CommitCheck:
        return next(
            (
                found
                for v in self.verifiers
                if (found := v.commit(repo, sha)).outcome != Outcome.UNREACHABLE
            ),
            _UNREACHABLE_COMMIT,
        )

    def file(self, repo: str, sha: str, path: str) -> FileCheck:
        return next(
            (
                found
                for v in self.verifiers
                if (found := v.file(repo, sha, path)).outcome != Outcome.UNREACHABLE
            ),
            _UNREACHABLE_FILE,
        )

    def issue(self, repo: str, number: int) -> IssueCheck:
        return next(
            (
                found
                for v in self.verifiers
                if (found := v.issue(repo, number)).outcome != Outcome.UNREACHABLE
            ),
            _UNREACHABLE_ISSUE,
        )

    def branch_head(self, repo: str, at: datetime) -> CommitCheck:
        return next(
            (
                found
                for v in self.verifiers
                if (found := v.branch_head(repo, at)).outcome != Outcome.UNREACHABLE
            ),
            _UNREACHABLE_COMMIT,
        )
