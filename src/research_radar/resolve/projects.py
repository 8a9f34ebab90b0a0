"""Projects: part-of links, forks, and joining sources into Projects.

Pure: no network, no database, no clock. Builds on `identity` (canonical keys, name
matching); its public names are re-exported from `identity`.

Source.meta keys read here (as the GitHub collector writes them, all optional): `fork`
(bool), `parent` (full name, URL, key or a {"full_name": ...} dict), `id` (repository id),
`full_name`, `renamed_from` (str or list), `root_commits` / `root_sha`, `commits_ahead`,
`releases` (int), `homepage`, `comment` (arXiv comments).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rapidfuzz import fuzz

from research_radar.models import Project, Source, SourceKind
from research_radar.resolve.keys import (
    NameIndex,
    canonical_key,
    find_keys,
    find_same_as,
    normalise_name,
    repo_name,
    same_name,
)

__all__ = ["ForkDecision", "classify_fork", "find_part_of", "resolve"]

# -- part-of links ----------------------------------------------------------------------

_OFFICIAL = re.compile(
    r"official\s+(?:implementation|code|repo)|our\s+paper|this\s+(?:repo|repository)\s+"
    r"(?:contains|implements|accompanies)|paper\s*[:：]|官方实现|官方代码|论文|本仓库|citation|cite",
    re.IGNORECASE,
)
_BLOG_WORDS = re.compile(r"blog|post|article|write-?up|博客|文章", re.IGNORECASE)


def find_part_of(source: Source) -> list[tuple[str, str]]:
    """Part-of links a source states: `(canonical key, evidence)` pairs.

    A repository's README: arXiv links on a line that says it is the paper's official code
    (or the only arXiv link in it), blog links on a line that calls them a post. A paper's
    abstract and comments: GitHub links. A blog post: GitHub and arXiv links.
    """
    own = source.key
    if source.kind == SourceKind.PAPER:
        text = "\n".join([source.summary, str(source.meta.get("comment", "")), source.text[:2000]])
        return _links(text, own, lambda key, line: key.startswith("gh:"), "paper links code")
    if source.kind == SourceKind.BLOG:
        return _links(
            source.text or source.summary, own,
            lambda key, line: key.startswith(("gh:", "arxiv:")), "post links",
        )  # fmt: skip
    text = source.text or source.summary
    papers = {key for key in find_keys(text) if key.startswith("arxiv:")}

    def wanted(key: str, line: str) -> bool:
        if key.startswith("arxiv:"):
            return len(papers) == 1 or bool(_OFFICIAL.search(line))
        return key.startswith("url:") and bool(_BLOG_WORDS.search(line))

    links = _links(text, own, wanted, "README links")
    homepage = canonical_key(str(source.meta.get("homepage") or ""))
    if homepage and homepage != own and homepage.startswith(("arxiv:", "url:")):
        links.append((homepage, "repository homepage"))
    return links


def _links(text: str, own: str, wanted: Any, what: str) -> list[tuple[str, str]]:
    found: dict[str, str] = {}
    for line in text.splitlines():
        for key in find_keys(line):
            if key != own and key not in found and wanted(key, line):
                found[key] = f"{what} {key}: {line.strip()[:160]}"
    return list(found.items())


# -- forks ------------------------------------------------------------------------------

_BASED_ON = re.compile(
    r"(?:based\s+on|built\s+(?:on|upon)|derived\s+from|forked\s+from|fork\s+of|port(?:ed)?\s+(?:of|from)|"
    r"基于|源自|移植自|派生自)\s*[`\"'“]?(?P<ref>[\w./:-]+)",
    re.IGNORECASE,
)
_OWN_WORK = re.compile(
    r"\b(?:adds?|added|ports?|ported|support(?:s|ed)?|optimi[sz]ed?|new\s+features?|our\s+own|"
    r"rewrit\w*|extend(?:s|ed)?)\b|新增|移植|支持|优化|适配|改写",
    re.IGNORECASE,
)
AHEAD_THRESHOLD = 20
"""Commits ahead of the parent from which a fork counts as carrying its own work."""


@dataclass(frozen=True)
class ForkDecision:
    """Ordinary fork or independent derivative, with the evidence for the decision."""

    derivative: bool
    evidence: list[str]
    fork_of: str | None = None


def _parent_key(source: Source, parent: Source | None) -> str | None:
    if parent is not None:
        return parent.key
    raw = source.meta.get("parent")
    if isinstance(raw, dict):
        raw = raw.get("full_name") or raw.get("html_url")
    return canonical_key(str(raw)) if raw else None


def _roots(source: Source) -> set[str]:
    roots = source.meta.get("root_commits") or source.meta.get("root_sha") or []
    items = roots if isinstance(roots, list) else [roots]
    return {str(item.get("sha") if isinstance(item, dict) else item) for item in items if item}


def classify_fork(
    source: Source,
    parent: Source | None,
    *,
    commits_ahead: int | None,
    own_releases: int,
    readme: str,
) -> ForkDecision:
    """Decide whether a fork (or a repository based on another) is an independent derivative.

    A fork is a derivative when it shows at least two kinds of its own work: ≥ 20 commits
    ahead, releases of its own, a README of its own that says what it adds. A repository that
    is not a GitHub fork and shares no history is its own project even when it says "based on".
    """
    parent_key = _parent_key(source, parent)
    evidence: list[str] = []
    flagged = bool(source.meta.get("fork"))
    shared = parent is not None and bool(_roots(source) & _roots(parent))
    if flagged:
        evidence.append(f"GitHub fork flag set (parent {parent_key or 'unknown'})")
    if shared:
        evidence.append(
            "shares root commit(s) with the parent: " + ", ".join(sorted(_roots(source))[:2])
        )
    based = _based_on(readme, parent_key)
    if based:
        evidence.append(f"README says it is based on {based}")
        parent_key = parent_key or canonical_key(based)
    if parent_key is None:
        return ForkDecision(True, evidence + ["no parent: not a fork"], None)
    own = _own_work(commits_ahead, own_releases, readme, parent)
    evidence += own
    if not flagged and not shared:
        return ForkDecision(
            True, evidence + ["not a GitHub fork and no shared history"], parent_key
        )
    derivative = len(own) >= 2
    if not derivative:
        ahead = "unknown" if commits_ahead is None else str(commits_ahead)
        evidence.append(
            f"ordinary fork: {ahead} commits ahead, {own_releases} releases, README adds little"
        )
    return ForkDecision(derivative, evidence, parent_key)


def _based_on(readme: str, parent_key: str | None) -> str | None:
    for match in _BASED_ON.finditer(readme):
        ref = match.group("ref").rstrip(".,;:)")
        key = canonical_key(ref)
        if parent_key is None or key == parent_key or same_name(ref, repo_name(parent_key) or ""):
            return ref
    return None


def _own_work(ahead: int | None, releases: int, readme: str, parent: Source | None) -> list[str]:
    found = []
    if ahead is not None and ahead >= AHEAD_THRESHOLD:
        found.append(f"{ahead} commits ahead of the parent")
    if releases > 0:
        found.append(f"{releases} release(s) of its own")
    similarity = fuzz.ratio(readme[:4000], parent.text[:4000]) if parent and parent.text else 0.0
    claim = _OWN_WORK.search(readme)
    if readme.strip() and similarity < 60 and claim:
        found.append(
            f"README of its own (similarity to parent {similarity:.0f}%) stating new work: {claim.group(0)!r}"
        )
    return found


# -- joining sources into projects ---------------------------------------------------------


class _Union:
    def __init__(self) -> None:
        self.parent: dict[str, str] = {}

    def find(self, key: str) -> str:
        self.parent.setdefault(key, key)
        while self.parent[key] != key:
            self.parent[key] = self.parent[self.parent[key]]
            key = self.parent[key]
        return key

    def join(self, a: str, b: str) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)


def _former_keys(source: Source) -> list[str]:
    raw = source.meta.get("renamed_from") or []
    items = raw if isinstance(raw, list) else [raw]
    return [key for key in (canonical_key(str(item)) for item in items) if key]


def resolve(
    sources: list[Source], aliases: dict[str, str], known: dict[str, Project]
) -> list[Project]:
    """Join sources into Projects by same-as and part-of links; forks stay apart.

    Same-as: GitHub renames (`meta["renamed_from"]`), one repository id under a new full name,
    "formerly X" statements, the aliases file (alias → key). Part-of: `find_part_of`. A known
    project keeps its key and aliases. Forks get `fork_of` and a `classify_fork` decision.
    """
    union = _Union()
    by_key = {source.key: source for source in sources}
    former: dict[str, list[str]] = {}
    owner_of = {
        key: project.key for project in known.values() for key in [project.key, *project.sources]
    }
    names = NameIndex()
    for project in known.values():
        for name in [project.name, *project.aliases]:
            names.add(name, project.key)
    for alias, key in aliases.items():
        names.add(alias, key)
    for source in sources:
        union.find(source.key)
        names.add(source.title or (repo_name(source.key) or ""), source.key)
        names.add_repo(source.key)
    _join_same_as(sources, union, former, names, aliases)
    for source in sources:
        for key, _evidence in find_part_of(source):
            if key in by_key or key in owner_of:
                union.join(source.key, key)
        if source.key in owner_of:
            union.join(source.key, owner_of[source.key])
    return _projects(sources, union, former, known, owner_of)


def _join_same_as(
    sources: list[Source],
    union: _Union,
    former: dict[str, list[str]],
    names: NameIndex,
    aliases: Mapping[str, str],
) -> None:
    by_id: dict[str, str] = {}
    for source in sources:
        olds = _former_keys(source)
        for old in olds:
            union.join(source.key, old)
        repo_id = source.meta.get("id")
        if repo_id is not None and source.kind == SourceKind.REPO:
            if str(repo_id) in by_id:
                union.join(by_id[str(repo_id)], source.key)
            by_id.setdefault(str(repo_id), source.key)
        stated = find_same_as(source.text)
        for name in stated:
            target = canonical_key(name) if "/" in name else names.lookup(name)
            if target and target != source.key:
                union.join(source.key, target)
        former[source.key] = olds + stated
        for alias in (source.key, source.title):
            target = aliases.get(alias) or (aliases.get(normalise_name(alias)) if alias else None)
            if target:
                union.join(source.key, canonical_key(target) or target)


def _projects(
    sources: list[Source],
    union: _Union,
    former: dict[str, list[str]],
    known: dict[str, Project],
    owner_of: dict[str, str],
) -> list[Project]:
    groups: dict[str, list[Source]] = {}
    for source in sources:
        groups.setdefault(union.find(source.key), []).append(source)
    nodes: dict[str, list[str]] = {}
    for node in list(union.parent):
        nodes.setdefault(union.find(node), []).append(node)
    result = []
    for members in groups.values():
        keys = nodes.get(union.find(members[0].key), [])
        members.sort(key=_preference)
        head = members[0]
        known_key = next((owner_of[k] for k in keys if k in owner_of), None)
        base = known.get(known_key) if known_key else None
        project = Project(
            key=base.key if base else head.key,
            name=base.name if base else (head.title or repo_name(head.key) or head.key),
            aliases=sorted(set(base.aliases if base else []) | _aliases(members, former)),
            sources=sorted({*(base.sources if base else []), *(s.key for s in members)}),
            family=base.family if base else None,
        )
        _set_fork(project, head, members)
        result.append(project)
    return sorted(result, key=lambda p: p.key)


def _preference(source: Source) -> tuple[int, int, str]:
    order = {"gh": 0, "arxiv": 1, "doi": 2, "url": 3}
    renamed_away = 1 if source.meta.get("renamed_to") else 0
    return (renamed_away, order.get(source.key.split(":")[0], 4), source.key)


def _aliases(members: list[Source], former: dict[str, list[str]]) -> set[str]:
    names: set[str] = set()
    for source in members:
        names.update(former.get(source.key, []))
        if source.meta.get("full_name"):
            names.add(str(source.meta["full_name"]))
    return names


def _set_fork(project: Project, head: Source, members: list[Source]) -> None:
    forked = next((s for s in members if s.meta.get("fork") or s.meta.get("parent")), None)
    if forked is None:
        return
    decision = classify_fork(
        forked,
        None,
        commits_ahead=_int(forked.meta.get("commits_ahead")),
        own_releases=_count(forked.meta.get("releases")),
        readme=forked.text,
    )
    project.fork_of = decision.fork_of
    project.derivative = decision.derivative
    project.derivative_evidence = decision.evidence


def _count(value: Any) -> int:
    """A count kept either as a number or as the list of things counted."""
    if isinstance(value, list | tuple):
        return len(value)
    return _int(value) or 0


def _int(value: Any) -> int | None:
    try:
        return None if value is None else int(value)
    except (TypeError, ValueError):
        return None
