"""What the site shows, read from the store and passed through the public-only gate.

Everything is read once: the findings, projects and aliases, the stored reports, the
sources' current health and the run records (for health over time). A finding of a
private repository, or one whose text the publish gate refuses (links to private
repositories or to hosts not allowed, local paths, token-like strings), never reaches
the site; neither does a report the gate refuses. What was withheld is counted.

The gate's regular expressions cost milliseconds per finding, minutes for a store of
100,000. So a cheap, conservative pre-screen (`may_be_unsafe`) looks first for anything
that could make the gate object (a link to a host other than github.com or arxiv.org, a
`www.` link, a private repository's name, a rooted path, a home folder, a drive letter,
a token prefix); only the lines it flags go through `check_public`, line by line as the
gate reads them. Text the pre-screen passes, the gate would pass too (tested). It reads
runs of findings (and of reports) joined by line breaks first, and each text of a run
only when the run is flagged.
"""

from __future__ import annotations

import gc
import hashlib
import json
import re
from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from research_radar.models import Finding, Project
from research_radar.publish.gate import check_public
from research_radar.report.html import reuse_body
from research_radar.store.store import Store

__all__ = [
    "HealthPoint",
    "SiteData",
    "gate_problems",
    "load_site_data",
    "may_be_unsafe",
    "paused_gc",
]


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
    bodies: dict[date, str] = field(default_factory=dict)
    """Day -> the report's HTML body as stored with it (`reuse_body`), when it was."""
    withheld_findings: int = 0
    withheld_reports: list[date] = field(default_factory=list)
    digest: str = ""
    """A hash of everything above, as read ("": not known); a build whose inputs have
    the same hash as the last one's has nothing to do."""


_SAFE_LINK = re.compile(r"(?:www\.)?(?:github\.com|arxiv\.org)(?:[/?#\s)\]>\"'`|,;]|$)")
_ROOTED = re.compile(r"/[\w.-]+/")
_PATH_BEFORE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./:~@-")
_SPACE = re.compile(r"\s")
_ASCII_START = re.compile(r"/[A-Za-z]")
_FILE_DOT = re.compile(r"\.[A-Za-z]")
_DRIVE = re.compile(r"[a-z]:\\")
_MARKERS = (
    "www.",
    "file://",
    "/home/",
    "/users/",
    "/root/",
    "~/",
    "github_pat_",
    "sk-",
    "akia",
    "asia",
    "-----begin",
)
# token prefixes, each pattern one scan of the text rather than one per letter (a scan
# of a large store's text costs a tenth of a second)
_TOKENS = (re.compile(r"gh[pousr]_"), re.compile(r"xox[abpors]-"))


def _odd_link(lowered: str) -> bool:
    """A link whose host is not plainly github.com or arxiv.org."""
    start = lowered.find("://")
    while start != -1:
        scheme = lowered[max(0, start - 5) : start]
        if scheme.endswith(("http", "https")) and not _SAFE_LINK.match(lowered, start + 3):
            return True
        start = lowered.find("://", start + 3)
    return False


def _rooted_path(text: str) -> bool:
    """What the gate could read as a local path: a "/word/" not preceded by a letter,
    digit or one of _./:~@-, whose first word starts with an ASCII letter (every root it
    knows does) or whose run of non-space characters has a ".x" (a file name) in it."""
    for match in _ROOTED.finditer(text):
        at = match.start()
        if at and text[at - 1] in _PATH_BEFORE:
            continue
        end = _SPACE.search(text, at)
        run = text[at : end.start() if end else len(text)]
        if _ASCII_START.match(run) or _FILE_DOT.search(run):
            return True
    return False


def may_be_unsafe(text: str, private: Collection[str] = ()) -> bool:
    """False only when the public-only gate cannot object to `text` (a cheap pre-screen).

    Flags a link to any host but plain github.com or arxiv.org, any `www.`, a rooted
    path, a home folder, `file://`, `~/`, a drive letter, a token prefix, or the name of
    a private repository. Case is ignored throughout, so it flags more than the gate.

    Args:
        text: any text, one or many lines.
        private: lower-case `owner/name` of private repositories.
    """
    lowered = text.lower()
    if any(marker in lowered for marker in _MARKERS):
        return True
    if any(token.search(lowered) for token in _TOKENS):
        return True
    if "://" in lowered and _odd_link(lowered):
        return True
    if "/" in text and _rooted_path(text):
        return True
    if ":\\" in text and _DRIVE.search(lowered):
        return True
    return any(repo in lowered for repo in private)


def gate_problems(
    text: str, *, private: Collection[str] = (), hosts: Collection[str] = ()
) -> list[str]:
    """`check_public` on the lines the pre-screen flags (the gate reads line by line)."""
    if not may_be_unsafe(text, private):
        return []
    risky = [line for line in text.splitlines() if may_be_unsafe(line, private)]
    return check_public("\n".join(risky), private_repos=private, allowed_hosts=hosts)


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


_ESCAPE = re.compile(r"\\(?:u[0-9a-fA-F]{4}|.)")


def _finding_problems(
    finding: Finding, private: Collection[str], hosts: Collection[str]
) -> list[str]:
    """The gate on every string of the finding, each line as the gate reads it."""
    text = "\n".join(_strings(finding.model_dump(mode="json")))
    return gate_problems(text, private=private, hosts=hosts)


_SCREEN_CHUNK = 64


def _screened(texts: Sequence[str], private: Collection[str], *, escaped: bool) -> set[int]:
    """Indexes of the texts the pre-screen flags, read `_SCREEN_CHUNK` at a time.

    With `escaped`, a text is JSON as stored and is read with every escape (\\n, \\",
    \\u0007, an escaped CJK character...) turned into a line break, so no escape can hide
    a line start; the validated finding's strings are the stored ones, or parts of them (a
    legacy row's sentence read back into fields), so what the pre-screen passes in the
    stored text it would pass in the finding.

    Texts joined by line breaks are screened together first, and one by one only when
    the whole flags: no flag of the pre-screen reaches across a line break, so a text
    flagged alone is flagged in any joined run of texts (tested). Most runs pass whole:
    the pre-screen reads a store once, not once per finding.
    """
    flagged: set[int] = set()
    for start in range(0, len(texts), _SCREEN_CHUNK):
        run = "\n".join(texts[start : start + _SCREEN_CHUNK])
        if not may_be_unsafe(_ESCAPE.sub("\n", run) if escaped else run, private):
            continue
        for index in range(start, min(start + _SCREEN_CHUNK, len(texts))):
            text = _ESCAPE.sub("\n", texts[index]) if escaped else texts[index]
            if may_be_unsafe(text, private):
                flagged.add(index)
    return flagged


@contextmanager
def paused_gc() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while a large structure without cycles is
    built (the site's data, its pages).

    Reading 100,000 findings makes tens of millions of objects, and the collector walks
    the ones that survive again and again as they pile up: it took more than half of the
    read (issue #18). Reference counting still frees whatever is dropped; the collector
    runs again once the outermost pause ends, but never walks what was alive then
    (`gc.freeze`): the first collection after the pause would otherwise walk all of it
    once more, seconds for a large store. Cycles among those objects are never collected,
    a small cost for a command that builds the site and ends.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.enable()


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
    with paused_gc():
        return _load_site_data(store, private_repos, allowed_hosts, language, runs)


def _load_site_data(
    store: Store,
    private_repos: Collection[str],
    allowed_hosts: Collection[str],
    language: str,
    runs: int,
) -> SiteData:
    private = {repo.lower().removeprefix("gh:") for repo in private_repos}
    kept: list[Finding] = []
    withheld = 0
    digest = hashlib.sha256(f"{language}\n".encode())
    texts = store.load_finding_texts()
    flagged = _screened(texts, private, escaped=True)
    for index, stored in enumerate(texts):
        # validated from the stored text: every check and legacy migration still runs
        finding = Finding.model_validate_json(stored)
        if _is_private(finding.project_key, private) or (
            index in flagged and _finding_problems(finding, private, allowed_hosts)
        ):
            withheld += 1
            continue
        kept.append(finding)
        digest.update(stored.encode("utf-8"))
        digest.update(b"\0")
    shown = {finding.project_key for finding in kept}
    projects = {project.key: project for project in store.load_projects() if project.key in shown}
    aliases: dict[str, list[str]] = {}
    for alias, key in sorted(store.load_aliases().items()):
        if key in projects:
            aliases.setdefault(key, []).append(alias)
    reports: dict[date, str] = {}
    bodies: dict[date, str] = {}
    refused: list[date] = []
    stored_reports = store.load_reports(language)
    risky = _screened([markdown for _, markdown, _ in stored_reports], private, escaped=False)
    for index, (day, markdown, report_data) in enumerate(stored_reports):
        if index in risky and gate_problems(markdown, private=private, hosts=allowed_hosts):
            refused.append(day)
            continue
        reports[day] = markdown
        # the HTML stored with the report is made from this Markdown (checked), which
        # passed the gate; a report saved without one, or by another renderer, has none
        body = reuse_body(markdown, report_data.get("body"))
        if body is not None:
            bodies[day] = str(body)
    health = store.load_health()
    history = _health_history(store, runs)
    rest = [
        [project.model_dump(mode="json") for project in projects.values()],
        aliases,
        {day.isoformat(): markdown for day, markdown in reports.items()},
        health,
        [[point.source, point.when, point.state] for point in history],
        withheld,
        refused,
    ]
    digest.update(json.dumps(rest, default=str, sort_keys=True).encode("utf-8"))
    return SiteData(
        findings=kept,
        projects=projects,
        aliases=aliases,
        reports=reports,
        bodies=bodies,
        health=health,
        history=history,
        language=language,
        withheld_findings=withheld,
        withheld_reports=refused,
        digest=digest.hexdigest(),
    )
