"""Verify a report's claims against their sources: local git checkouts, the store, GitHub.

Three kinds of claim are checked wherever a source is reachable:

- a pinned commit exists and its committer date matches the date the report gives;
- a quoted number appears in the cited file at that commit (`.../blob/<sha>/<path>`), with
  the unit the report gives it;
- a PR/issue is in the state the report says (merged / open / draft / closed unmerged),
  and the host SHA of the header is the default branch's head at the cut-off.

`verify_report` is pure over a `Verifier`; the verifiers (verify_sources.py) are the I/O
edge. Each check ends as a `Check`: ok True (verified), False (contradicted) or None (could
not be checked), holding the fact as a kind and its parameters; the review words it in the
report's language (`review.wording.fact_text`, the `facts` of report/review_strings.toml).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any

from research_radar.models import BEIJING
from research_radar.report.parse import ParsedEntry, ParsedReport
from research_radar.review.verifiers import (
    CommitCheck,
    IssueCheck,
    Outcome,
    Verifier,
)

__all__ = ["Check", "parse_state", "verify_report"]


@dataclass(frozen=True)
class Check:
    """One verified, contradicted or uncheckable claim, as a fact to be worded.

    `fact` names the kind of statement (a key of `facts` in report/review_strings.toml, and
    of `fact_fixes` when it can be contradicted); `params` fills its placeholders.
    """

    ok: bool | None
    fact: str
    line: int
    entry: str | None = None
    params: Mapping[str, str] = field(default_factory=dict)


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
_UNITS = (
    r"tok/s|tokens?/s|TPS|ms\b|[uµμ]s\b|s/it|it/s|s(?![A-Za-z0-9/])|毫秒|微秒|秒|×|倍|%|fps|GB/s"
)
"""The units a performance number is checked with, in the report and in the source."""
_PERF = re.compile(rf"(?<![\w.])(?P<num>\d+(?:\.\d+)?)\s*(?P<unit>{_UNITS}|x(?![A-Za-z0-9]))")
_UNIT_CLASS = {
    "tok/s": "throughput",
    "token/s": "throughput",
    "tokens/s": "throughput",
    "TPS": "throughput",
    "tps": "throughput",
    "ms": "milliseconds",
    "毫秒": "milliseconds",
    "us": "microseconds",
    "µs": "microseconds",
    "μs": "microseconds",
    "微秒": "microseconds",
    "s": "seconds",
    "秒": "seconds",
    "s/it": "time-per-step",
    "it/s": "steps",
    "×": "ratio",
    "x": "ratio",
    "倍": "ratio",
    "%": "percent",
    "fps": "fps",
    "GB/s": "bandwidth",
}
_FILE_UNIT = re.compile(rf"^\s*({_UNITS}|tps|x\b)")
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
    from research_radar.report.parse import find_repo

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
        return [Check(False, "host-absent", 1, params={"sha": sha, "repo": host_repo})]
    if found.outcome is Outcome.UNREACHABLE:
        return [Check(None, "host-unreachable", 1, params={"sha": sha, "repo": host_repo})]
    source = {"sha": sha, "repo": host_repo, "source": found.source}
    checks = [Check(True, "host-exists", 1, params=source)]
    if report.cutoff_at is None:
        return checks
    head: CommitCheck = memo.ask("branch_head", host_repo, report.cutoff_at)
    when = report.cutoff_at.astimezone(BEIJING).strftime("%Y-%m-%d %H:%M")
    at = {"sha": sha, "repo": host_repo, "when": when}
    if head.outcome is not Outcome.FOUND:
        checks.append(Check(None, "head-unknown", 1, params=at))
    elif head.sha.startswith(sha) or sha.startswith(head.sha):
        checks.append(Check(True, "host-head", 1, params=at))
    else:
        checks.append(Check(False, "host-not-head", 1, params=at | {"head": head.sha[:12]}))
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
            checks.append(Check(None, "pin-no-repo", scope.line, scope.entry, {"sha": sha}))
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
    pin = {"pin": f"{repo}@{(found.sha or sha)[:12]}"}
    if found.outcome is Outcome.UNREACHABLE:
        return Check(None, "pin-unreachable", scope.line, scope.entry, pin)
    if found.outcome is Outcome.ABSENT:
        return Check(False, "pin-absent", scope.line, scope.entry, pin)
    if stated is None or found.committed_at is None:
        return Check(True, "pin-exists", scope.line, scope.entry, pin | {"source": found.source})
    when = found.committed_at
    days = {when.date()}
    if when.tzinfo is not None:
        days |= {when.astimezone(UTC).date(), when.astimezone(BEIJING).date()}
    if stated in days:
        return Check(True, "pin-date", scope.line, scope.entry, pin | {"date": stated.isoformat()})
    actual = found.committed_at.date().isoformat()
    dates = {"actual": actual, "stated": stated.isoformat()}
    return Check(False, "pin-date-wrong", scope.line, scope.entry, pin | dates)


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
            Check(None, "files-unreadable", scope.line, scope.entry, {"entry": str(scope.entry)})
        ]
    only_files = len(set(re.findall(r"https?://\S+", scope.text))) == len(set(files))
    return [_number_check(scope, number, unit, texts, only_files) for number, unit in numbers]


def _number_check(
    scope: _Scope, number: str, unit: str, texts: Iterable[tuple[str, str]], only_files: bool
) -> Check:
    conflicts = []
    quoted = {"number": number, "unit": unit}
    for name, text in texts:
        agree, conflict = _occurrences(number, unit, text)
        if agree:
            return Check(True, "number-found", scope.line, scope.entry, quoted | {"file": name})
        if conflict:
            conflicts.append(name)
    if conflicts:
        params = quoted | {"file": conflicts[0]}
        return Check(False, "number-other-unit", scope.line, scope.entry, params)
    if only_files:
        return Check(False, "number-absent", scope.line, scope.entry, quoted)
    return Check(None, "number-unreadable", scope.line, scope.entry, quoted)


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
                params = {"number": str(number), "claimed": claimed}
                checks.append(Check(None, "ref-no-repo", scope.line, scope.entry, params))
                continue
            found: IssueCheck = memo.ask("issue", repo, number)
            checks.append(_state_check(scope, f"{repo}#{number}", claimed, found, cutoff))
    return checks


def _state_check(
    scope: _Scope, ref: str, claimed: str, found: IssueCheck, cutoff: datetime | None
) -> Check:
    params = {"ref": ref, "claimed": claimed}
    if found.outcome is Outcome.UNREACHABLE:
        return Check(None, "ref-unreachable", scope.line, scope.entry, params)
    if found.outcome is Outcome.ABSENT:
        return Check(False, "ref-absent", scope.line, scope.entry, {"ref": ref})
    params["state"] = found.state
    if _state_agrees(claimed, found, cutoff):
        return Check(True, "ref-state", scope.line, scope.entry, params)
    return Check(False, "ref-state-wrong", scope.line, scope.entry, params)
