"""Verify a report's claims against their sources: local git checkouts, the store, GitHub.

Three kinds of claim are checked wherever a source is reachable:

- a pinned commit exists and its committer date matches the date the report gives;
- a quoted number appears in the cited file at that commit (`.../blob/<sha>/<path>`), with
  the unit the report gives it;
- a PR/issue is in the state the report says (merged / open / draft / closed unmerged),
  and the host SHA of the header is the default branch's head at the cut-off.

`verify_report` is pure over a `Verifier`; the verifiers are the I/O edge. Each check ends
as a `Check`: ok True (verified), False (contradicted) or None (could not be checked).
"""

from __future__ import annotations

import logging
import re
import subprocess
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from enum import StrEnum
from pathlib import Path
from typing import Any, Protocol

import httpx

from .reportparse import BEIJING, ParsedEntry, ParsedReport
from .store import Store

__all__ = [
    "ChainVerifier",
    "Check",
    "CommitCheck",
    "FileCheck",
    "GitHubVerifier",
    "GitVerifier",
    "IssueCheck",
    "Outcome",
    "StoreVerifier",
    "Verifier",
    "parse_state",
    "verify_report",
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


@dataclass(frozen=True)
class Check:
    """One verified, contradicted or uncheckable claim."""

    ok: bool | None
    statement: str
    line: int
    entry: str | None = None
    fix: str = ""


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
        for snapshot in self.store.load_snapshots(f"gh:{repo.lower()}"):
            if snapshot.version.startswith(sha) or sha.startswith(snapshot.version):
                return CommitCheck(Outcome.FOUND, snapshot.version, snapshot.version_date, "store")
        return _UNREACHABLE_COMMIT  # the store keeps some snapshots only: absence proves nothing

    def file(self, repo: str, sha: str, path: str) -> FileCheck:
        source = self.store.load_source(f"gh:{repo.lower()}")
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
    """The GitHub REST API through an httpx.Client whose base_url is settings.github_api_url."""

    def __init__(self, client: httpx.Client):
        self.client = client

    def _get(self, path: str, **params: str) -> httpx.Response | None:
        try:
            response = self.client.get(path, params=params or None)
        except httpx.HTTPError as exc:
            log.warning("GitHub API %s failed: %s", path, exc)
            return None
        if response.status_code in (200, 404, 422):
            return response
        log.warning("GitHub API %s answered %s", path, response.status_code)
        return None

    def commit(self, repo: str, sha: str) -> CommitCheck:
        response = self._get(f"/repos/{repo}/commits/{sha}")
        if response is None:
            return _UNREACHABLE_COMMIT
        if response.status_code != 200:
            return CommitCheck(Outcome.ABSENT, source="github")
        data = response.json()
        committed = _when(data.get("commit", {}).get("committer", {}).get("date"))
        return CommitCheck(Outcome.FOUND, str(data.get("sha", sha)), committed, "github")

    def file(self, repo: str, sha: str, path: str) -> FileCheck:
        try:
            response = self.client.get(
                f"/repos/{repo}/contents/{path}",
                params={"ref": sha},
                headers={"Accept": "application/vnd.github.raw"},
            )
        except httpx.HTTPError as exc:
            log.warning("GitHub API contents %s failed: %s", path, exc)
            return _UNREACHABLE_FILE
        if response.status_code == 404:
            return FileCheck(Outcome.ABSENT, source="github")
        if response.status_code != 200:
            return _UNREACHABLE_FILE
        return FileCheck(Outcome.FOUND, response.text, "github")

    def issue(self, repo: str, number: int) -> IssueCheck:
        for kind in ("pulls", "issues"):
            response = self._get(f"/repos/{repo}/{kind}/{number}")
            if response is None:
                return _UNREACHABLE_ISSUE
            if response.status_code == 200:
                return _issue_from_payload(response.json(), "github")
        return IssueCheck(Outcome.ABSENT, source="github")

    def branch_head(self, repo: str, at: datetime) -> CommitCheck:
        meta = self._get(f"/repos/{repo}")
        if meta is None or meta.status_code != 200:
            return _UNREACHABLE_COMMIT
        branch = str(meta.json().get("default_branch", "main"))
        until = at.astimezone(BEIJING).isoformat()
        listing = self._get(f"/repos/{repo}/commits", sha=branch, until=until, per_page="1")
        if listing is None or listing.status_code != 200 or not listing.json():
            return _UNREACHABLE_COMMIT
        first = listing.json()[0]
        committed = _when(first.get("commit", {}).get("committer", {}).get("date"))
        return CommitCheck(Outcome.FOUND, str(first.get("sha", "")), committed, "github")


class ChainVerifier:
    """Ask each verifier in turn; the first that can answer wins."""

    def __init__(self, verifiers: Sequence[Verifier]):
        self.verifiers = list(verifiers)

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


# -- what a report claims ---------------------------------------------------------------------

_SHA = r"(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}"
_URL_PIN = re.compile(
    rf"https?://github\.com/(?P<repo>[\w.-]+/[\w.-]+)/(?P<kind>tree|blob|commit)/(?P<sha>{_SHA})"
    r"(?:/(?P<path>[^\s，。；、）)\]>\"'`|#?]+))?"
)
_AT_PIN = re.compile(
    rf"(?<![\w/.-])(?P<repo>[A-Za-z0-9][\w.-]*/[\w.-]+)@(?P<sha>{_SHA})(?![0-9a-z])"
)
_MARKED_PIN = re.compile(
    rf"(?:head|HEAD|SHA|sha|源码|当前|主线|main|release|commit|提交)\s*[：:]?\s*`?(?P<sha>{_SHA})`?"
    r"(?![0-9a-zA-Z])"
)
_AFTER_DATE = re.compile(
    r"^`?\s*[（(，,、]?\s*(?:提交于\s*)?(?P<d>(?:20\d\d-)?\d{1,2}-\d{1,2}|\d{1,2}/\d{1,2})(?!\d)"
)
_PERF = re.compile(
    r"(?<![\w.])(?P<num>\d+(?:\.\d+)?)\s*"
    r"(?P<unit>tok/s|tokens?/s|TPS|ms\b|s/it|it/s|×|x(?![A-Za-z0-9])|倍|%|fps|GB/s)"
)
_UNIT_CLASS = {
    "tok/s": "throughput",
    "token/s": "throughput",
    "tokens/s": "throughput",
    "TPS": "throughput",
    "tps": "throughput",
    "ms": "time",
    "s/it": "time-per-step",
    "it/s": "steps",
    "×": "ratio",
    "x": "ratio",
    "倍": "ratio",
    "%": "percent",
    "fps": "fps",
    "GB/s": "bandwidth",
}
_FILE_UNIT = re.compile(r"^\s*(tok/s|tokens?/s|TPS|tps|ms\b|s/it|it/s|×|x\b|倍|%|fps|GB/s)")
_REF_GROUP = re.compile(
    r"(?:(?P<repo>[A-Za-z0-9][\w.-]*/[\w.-]+)#|(?<![\w/&])#)(?P<first>\d{1,6})"
    r"(?P<more>(?:\s*[/、,，]\s*#\d{1,6})*)"
)
_STATES = (
    ("closed-unmerged", r"关闭(?:但)?未合并|closed unmerged|closed without merg|未合并"),
    ("merged", r"已合并|已合入|合入|合并|merged"),
    ("draft", r"Draft|DRAFT|草稿"),
    ("open", r"仍\s*open|开放|\bopen\b|OPEN|在途|仍开放"),
    ("closed", r"关闭|closed"),
)


def parse_state(text: str) -> str | None:
    """The PR/issue state a phrase claims: merged, open, draft, closed-unmerged or closed."""
    for state, pattern in _STATES:
        if re.search(pattern, text):
            return state
    return None


def _state_agrees(claimed: str, found: IssueCheck, cutoff: datetime | None) -> bool:
    actual = found.state
    if claimed == "merged":
        return actual == "merged"
    if claimed == "draft":
        return actual == "draft"
    if claimed == "closed-unmerged":
        return actual in ("closed-unmerged", "closed")
    if claimed == "closed":
        return actual in ("closed", "closed-unmerged", "merged")
    if actual in ("open", "draft"):
        return True
    ended = found.merged_at or found.closed_at
    return bool(cutoff and ended and ended > cutoff)  # open at the cut-off, ended later


def _stated_date(after: str, year: int) -> date | None:
    match = _AFTER_DATE.match(after)
    if match is None:
        return None
    parts = [int(part) for part in re.split(r"[-/]", match.group("d"))]
    if len(parts) == 3:
        year, parts = parts[0], parts[1:]
    try:
        return date(year, parts[0], parts[1])
    except ValueError:
        return None


@dataclass
class _Scope:
    """One place claims come from: an entry's row + evidence, or the report header."""

    text: str
    line: int
    entry: str | None
    repo: str | None


def _scopes(report: ParsedReport) -> list[_Scope]:
    from .reportparse import find_repo

    scopes = []
    for entry in report.entries:
        blocks = [report.evidence[ref] for ref in entry.evidence_ids if ref in report.evidence]
        text = "\n".join([_without_relation(entry), *(block.text for block in blocks)])
        scopes.append(_Scope(text, entry.line, entry.name, entry.repo or find_repo(text)))
    return scopes


_RELATION_COLUMN = r"InferRSI|宿主|host|接点|借鉴|价值"


def _without_relation(entry: ParsedEntry) -> str:
    cells = [
        cell
        for column, cell in entry.cells.items()
        if not re.search(_RELATION_COLUMN, column, re.I)
    ]
    return "\n".join(cells) if entry.kind == "row" else entry.text


class _Memo:
    """Ask the verifier each question once per review."""

    def __init__(self, verifier: Verifier):
        self.verifier = verifier
        self.cache: dict[tuple[Any, ...], Any] = {}

    def ask(self, name: str, *args: Any) -> Any:
        key = (name, *args)
        if key not in self.cache:
            self.cache[key] = getattr(self.verifier, name)(*args)
        return self.cache[key]


def verify_report(
    report: ParsedReport, verifier: Verifier, *, host_repo: str | None = None
) -> list[Check]:
    """Check a parsed report's commits, numbers and PR/issue states against the verifier."""
    memo = _Memo(verifier)
    checks = _check_host(report, memo, host_repo) if host_repo and report.host_sha else []
    year = report.date.year if report.date else None
    for scope in _scopes(report):
        checks += _check_pins(scope, memo, year)
        checks += _check_numbers(scope, memo)
        checks += _check_states(scope, memo, report.cutoff_at)
    rows = [entry for entry in report.entries if entry.kind == "row"] if host_repo else []
    for entry in rows:
        relation = "\n".join(
            cell
            for column, cell in entry.cells.items()
            if re.search(_RELATION_COLUMN, column, re.I)
        )
        scope = _Scope(relation, entry.line, entry.name, host_repo)
        checks += _check_states(scope, memo, report.cutoff_at)
    return checks


def _check_host(report: ParsedReport, memo: _Memo, host_repo: str) -> list[Check]:
    sha = report.host_sha or ""
    found: CommitCheck = memo.ask("commit", host_repo, sha)
    if found.outcome is Outcome.ABSENT:
        return [
            Check(
                False,
                f"host SHA {sha} does not exist in {host_repo}",
                1,
                None,
                "give the host default-branch SHA that was current at the cut-off",
            )
        ]
    if found.outcome is Outcome.UNREACHABLE:
        return [Check(None, f"host SHA {sha} in {host_repo}: no source could answer", 1)]
    checks = [Check(True, f"host SHA {sha} exists in {host_repo} ({found.source})", 1)]
    if report.cutoff_at is None:
        return checks
    head: CommitCheck = memo.ask("branch_head", host_repo, report.cutoff_at)
    when = report.cutoff_at.astimezone(BEIJING).strftime("%Y-%m-%d %H:%M Beijing")
    if head.outcome is not Outcome.FOUND:
        checks.append(Check(None, f"default-branch head of {host_repo} at {when}: unknown", 1))
    elif head.sha.startswith(sha) or sha.startswith(head.sha):
        checks.append(Check(True, f"host SHA {sha} was the default-branch head at {when}", 1))
    else:
        checks.append(
            Check(
                False,
                f"host SHA {sha} was not the default-branch head at {when} (head {head.sha[:12]})",
                1,
                None,
                "re-check the host default branch before publishing and give its SHA",
            )
        )
    return checks


def _pins(scope: _Scope) -> dict[tuple[str | None, str], str]:
    """(repo, sha) -> the text right after the SHA (where a date may stand)."""
    pins: dict[tuple[str | None, str], str] = {}

    def keep(key: tuple[str | None, str], after: str) -> None:
        if not pins.get(key):
            pins[key] = after

    for match in _URL_PIN.finditer(scope.text):
        keep((match.group("repo"), match.group("sha")), "")
    bare = _URL_PIN.sub(" ", scope.text)
    for match in _AT_PIN.finditer(bare):
        keep((match.group("repo"), match.group("sha")), bare[match.end() : match.end() + 24])
    bare = _AT_PIN.sub(" ", bare)
    for match in _MARKED_PIN.finditer(bare):
        keep((scope.repo, match.group("sha")), bare[match.end() : match.end() + 24])
    return pins


def _check_pins(scope: _Scope, memo: _Memo, year: int | None) -> list[Check]:
    checks = []
    seen: set[tuple[str, str]] = set()
    dated_first = sorted(_pins(scope).items(), key=lambda item: not _AFTER_DATE.match(item[1]))
    for (repo, sha), after in dated_first:
        if repo is None:
            checks.append(
                Check(None, f"{sha}: no repository named to check it in", scope.line, scope.entry)
            )
            continue
        if (repo.lower(), sha[:7]) in seen:
            continue
        seen.add((repo.lower(), sha[:7]))
        found: CommitCheck = memo.ask("commit", repo, sha)
        stated = _stated_date(after, year) if year else None
        checks.append(_pin_check(scope, repo, sha, stated, found))
    return checks


def _pin_check(
    scope: _Scope, repo: str, sha: str, stated: date | None, found: CommitCheck
) -> Check:
    pin = f"{repo}@{(found.sha or sha)[:12]}"
    if found.outcome is Outcome.UNREACHABLE:
        return Check(None, f"{pin}: no source could answer", scope.line, scope.entry)
    if found.outcome is Outcome.ABSENT:
        return Check(
            False,
            f"{pin} does not exist",
            scope.line,
            scope.entry,
            "cite a commit that exists (full SHA in the evidence index)",
        )
    if stated is None or found.committed_at is None:
        return Check(True, f"{pin} exists ({found.source})", scope.line, scope.entry)
    when = found.committed_at
    days = {when.date()}
    if when.tzinfo is not None:
        days |= {when.astimezone(UTC).date(), when.astimezone(BEIJING).date()}
    if stated in days:
        return Check(
            True, f"{pin} exists, committed {stated.isoformat()} as stated", scope.line, scope.entry
        )
    actual = found.committed_at.date().isoformat()
    return Check(
        False,
        f"{pin} was committed {actual}, the report says {stated.isoformat()}",
        scope.line,
        scope.entry,
        f"write the commit date {actual}",
    )


def _occurrences(number: str, unit: str, text: str) -> tuple[int, int]:
    """How often a number stands in a text with a compatible unit (or none), and with another."""
    agree = conflict = 0
    wanted = _UNIT_CLASS.get(unit, unit)
    for match in re.finditer(rf"(?<![\d.]){re.escape(number)}(?!\.?\d)", text):
        written = _FILE_UNIT.match(text[match.end() : match.end() + 8])
        if written and _UNIT_CLASS.get(written.group(1), written.group(1)) != wanted:
            conflict += 1
        else:
            agree += 1
    return agree, conflict


def _check_numbers(scope: _Scope, memo: _Memo) -> list[Check]:
    files = [
        (match.group("repo"), match.group("sha"), match.group("path"))
        for match in _URL_PIN.finditer(scope.text)
        if match.group("kind") == "blob" and match.group("path")
    ]
    numbers = list(
        dict.fromkeys((m.group("num"), m.group("unit")) for m in _PERF.finditer(scope.text))
    )
    if not files or not numbers:
        return []
    read = [
        (f"{repo}@{sha[:8]}:{path}", memo.ask("file", repo, sha, path)) for repo, sha, path in files
    ]
    texts = [(name, found.text) for name, found in read if found.outcome is Outcome.FOUND]
    if not texts:
        return [
            Check(None, f"cited files of {scope.entry} could not be read", scope.line, scope.entry)
        ]
    only_files = len(set(re.findall(r"https?://\S+", scope.text))) == len(set(files))
    return [_number_check(scope, number, unit, texts, only_files) for number, unit in numbers]


def _number_check(
    scope: _Scope, number: str, unit: str, texts: Iterable[tuple[str, str]], only_files: bool
) -> Check:
    conflicts = []
    for name, text in texts:
        agree, conflict = _occurrences(number, unit, text)
        if agree:
            return Check(True, f"{number} {unit} appears in {name}", scope.line, scope.entry)
        if conflict:
            conflicts.append(name)
    if conflicts:
        return Check(
            False,
            f"{number} appears in {conflicts[0]} only with another unit than {unit}",
            scope.line,
            scope.entry,
            "quote the number in the sense the source gives it",
        )
    if only_files:
        return Check(
            False,
            f"{number} {unit} appears in none of the cited files",
            scope.line,
            scope.entry,
            "cite the file and commit the number comes from",
        )
    return Check(
        None,
        f"{number} {unit}: not in the cited files (other sources not readable)",
        scope.line,
        scope.entry,
    )


def _check_states(scope: _Scope, memo: _Memo, cutoff: datetime | None) -> list[Check]:
    checks = []
    text = re.sub(r"https?://\S+", " ", scope.text)
    for match in _REF_GROUP.finditer(text):
        after = text[match.end() : match.end() + 16]
        before = text[max(0, match.start() - 10) : match.start()]
        claimed = parse_state(re.split(r"[；;。\n]", after)[0]) or parse_state(
            before.split("；")[-1]
        )
        repo = match.group("repo") or scope.repo
        if claimed is None:
            continue
        numbers = [int(match.group("first"))] + [
            int(n) for n in re.findall(r"\d+", match.group("more"))
        ]
        for number in numbers:
            if repo is None:
                checks.append(
                    Check(
                        None, f"#{number} ({claimed}): no repository named", scope.line, scope.entry
                    )
                )
                continue
            found: IssueCheck = memo.ask("issue", repo, number)
            checks.append(_state_check(scope, f"{repo}#{number}", claimed, found, cutoff))
    return checks


def _state_check(
    scope: _Scope, ref: str, claimed: str, found: IssueCheck, cutoff: datetime | None
) -> Check:
    if found.outcome is Outcome.UNREACHABLE:
        return Check(None, f"{ref} ({claimed}): no source could answer", scope.line, scope.entry)
    if found.outcome is Outcome.ABSENT:
        return Check(
            False, f"{ref} does not exist", scope.line, scope.entry, "cite an existing PR/issue"
        )
    if _state_agrees(claimed, found, cutoff):
        return Check(True, f"{ref} is {found.state} as stated ({claimed})", scope.line, scope.entry)
    return Check(
        False,
        f"{ref} is {found.state}, the report says {claimed}",
        scope.line,
        scope.entry,
        f"write the state as {found.state} (at the cut-off)",
    )
