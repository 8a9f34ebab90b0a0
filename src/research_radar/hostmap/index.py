"""Host-project mapping: index a host checkout, map each finding to concrete touch points.

The sixth dimension (relation to the host) must name a real module, skill, doc or PR/issue
number, and say whether the host already has the capability or only a place to extend it.
`build_host_index` and `map_finding` are pure; `load_host_index` and `check_host_sha` are
the I/O edge (files and `git`). One bilingual BM25 index is built per host and reused for
every finding; jieba is initialised lazily, once, and only when Chinese text shows up.

The tokeniser lives in `hostmap_text`, the git and file reads in `hostmap_checkout`; their
public names are re-exported here.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from research_radar.errors import ConfigError
from research_radar.hostmap.bm25 import Bm25
from research_radar.hostmap.checkout import (
    HostDocument,
    check_git_checkout,
    git_branch_sha,
    git_default_branch,
    load_host_documents,
)
from research_radar.hostmap.text import token_pairs, tokenize
from research_radar.models import Finding, Recommendation, Source, SourceKind, TouchPoint

__all__ = [
    "RELATIONS",
    "HostIndex",
    "HostItem",
    "build_host_index",
    "format_ref",
    "load_host_index",
    "reload_host_index",
    "map_finding",
    "map_findings",
    "parse_host_items",
    "host_items_from_sources",
    "qualify_bare_refs",
]

RELATIONS = ("existing-capability", "open-issue-pr", "extensible-gap", "not-recommended")
_STRONG_COVERAGE = 0.15
"""Share of the mechanism query's idf weight an entry must match to count as covering it."""
_STRONG_TERMS = 3
_OPEN_STATES = frozenset({"open", "draft"})
_PATH_KINDS = frozenset({"skill", "doc", "module", "test", "path"})


@dataclass(frozen=True)
class HostItem:
    """One pull request or issue of the host repository."""

    number: int
    kind: str
    """pr or issue."""
    title: str
    body: str = ""
    state: str = "open"
    """open, draft, merged or closed (closed without merge)."""
    url: str = ""
    labels: tuple[str, ...] = ()
    updated_at: str = ""

    @property
    def is_open(self) -> bool:
        return self.state in _OPEN_STATES


@dataclass(frozen=True)
class _Entry:
    """A retrievable unit: a document or a PR/issue, with its token set."""

    kind: str
    ref: str
    state: str | None
    terms: frozenset[str]


@dataclass(frozen=True)
class HostIndex:
    """A host project ready to map findings onto: its files, PRs/issues and BM25 index."""

    name: str
    documents: tuple[HostDocument, ...]
    items: tuple[HostItem, ...]
    repo: str | None = None
    """owner/name on GitHub; PR/issue refs of this repo are written `#N`."""
    root: Path | None = None
    default_branch: str = "main"
    head_sha: str = ""
    _entries: tuple[_Entry, ...] = field(default=(), repr=False, compare=False)
    _idf: Mapping[str, float] = field(default_factory=dict, repr=False, compare=False)
    _bm25: Bm25 | None = field(default=None, repr=False, compare=False)

    def counts(self) -> dict[str, int]:
        """Number of documents per kind plus PRs and issues."""
        counted = Counter(doc.kind for doc in self.documents)
        counted.update(item.kind for item in self.items)
        return dict(sorted(counted.items()))

    def open_items(self) -> list[HostItem]:
        """Open and draft PRs/issues, newest number first."""
        return sorted((i for i in self.items if i.is_open), key=lambda i: -i.number)


# --- building the index -------------------------------------------------------------


def _document_tokens(doc: HostDocument) -> list[str]:
    """Path and heading words count twice: a file named after a mechanism is about it."""
    headings = "\n".join(line for line in doc.text.splitlines() if line.startswith("#"))
    emphasis = tokenize(doc.path.replace("/", " ") + " " + doc.title + " " + headings)
    return emphasis * 2 + tokenize(doc.text)


def _item_tokens(item: HostItem) -> list[str]:
    return tokenize(item.title) * 2 + tokenize(" ".join(item.labels) + " " + item.body)


def _build_entries(
    documents: Sequence[HostDocument], items: Sequence[HostItem]
) -> tuple[list[_Entry], list[list[str]]]:
    entries: list[_Entry] = []
    corpus: list[list[str]] = []
    for doc in documents:
        tokens = _document_tokens(doc)
        entries.append(_Entry(doc.kind, doc.path, None, frozenset(tokens)))
        corpus.append(tokens)
    for item in items:
        tokens = _item_tokens(item)
        entries.append(_Entry(item.kind, f"#{item.number}", item.state, frozenset(tokens)))
        corpus.append(tokens)
    return entries, corpus


def _idf(entries: Sequence[_Entry]) -> dict[str, float]:
    df: Counter[str] = Counter()
    for entry in entries:
        df.update(entry.terms)
    total = len(entries)
    return {t: math.log(1 + (total - n + 0.5) / (n + 0.5)) for t, n in df.items()}


def build_host_index(
    name: str,
    documents: Iterable[HostDocument],
    items: Iterable[HostItem] = (),
    *,
    repo: str | None = None,
    root: Path | None = None,
    default_branch: str = "main",
    head_sha: str = "",
) -> HostIndex:
    """Build the host index (and its one BM25 retriever) from in-memory documents."""
    docs = tuple(sorted(documents, key=lambda d: d.path))
    its = tuple(sorted(items, key=lambda i: (i.kind, i.number)))
    entries, corpus = _build_entries(docs, its)
    retriever = None
    if corpus:
        retriever = Bm25([tokens or ["_empty_"] for tokens in corpus])
    return HostIndex(
        name=name,
        documents=docs,
        items=its,
        repo=repo,
        root=root,
        default_branch=default_branch,
        head_sha=head_sha,
        _entries=tuple(entries),
        _idf=_idf(entries),
        _bm25=retriever,
    )


# --- mapping findings ----------------------------------------------------------------


def _finding_queries(finding: Finding) -> tuple[list[tuple[str, str]], set[str]]:
    """The ranking query (name, mechanism, tag terms, why) and the mechanism core terms."""
    tag_terms = [term for tags in finding.tags.values() for tag in tags for term in tag.terms]
    mechanisms = [tag.value.replace("-", " ") for tag in finding.tags.get("mechanism", [])]
    core_text = " ".join([finding.name, finding.mechanism, *tag_terms, *mechanisms])
    core = token_pairs(core_text)
    return core + token_pairs(finding.why), {stem for stem, _ in core}


def _coverage(index: HostIndex, entry: _Entry, core: set[str]) -> tuple[float, int]:
    """idf-weighted share of the core terms found in the entry; unknown terms weigh most."""
    unknown = math.log(1 + (len(index._entries) + 0.5) / 0.5)
    total = sum(index._idf.get(t, unknown) for t in core)
    matched = [t for t in core if t in entry.terms]
    if not total:
        return 0.0, 0
    return sum(index._idf[t] for t in matched) / total, len(matched)


def _reason(entry: _Entry, query: Sequence[tuple[str, str]], coverage: float) -> str:
    seen: dict[str, str] = {}
    for stem, surface in query:
        if stem in entry.terms and stem not in seen:
            seen[stem] = surface
    words = ", ".join(list(seen.values())[:8])
    return f"matched: {words} (coverage {coverage:.2f})"


def _ranked(index: HostIndex, finding: Finding) -> list[tuple[TouchPoint, float, int]]:
    query, core = _finding_queries(finding)
    stems = list(dict.fromkeys(stem for stem, _ in query))
    if index._bm25 is None or not stems:
        return []
    scores = index._bm25.get_scores(stems)
    ranked = []
    for entry, score in zip(index._entries, scores, strict=True):
        if score <= 0:
            continue
        coverage, matched = _coverage(index, entry, core)
        point = TouchPoint(
            kind=entry.kind,
            ref=entry.ref,
            reason=_reason(entry, query, coverage),
            score=round(float(score), 3),
            state=entry.state,
        )
        ranked.append((point, coverage, matched))
    ranked.sort(key=lambda row: (-row[0].score, row[0].ref))
    return ranked


def _relation(finding: Finding, top: Sequence[tuple[TouchPoint, float, int]]) -> str:
    if finding.recommendation in (Recommendation.DEFER, Recommendation.COUNTEREXAMPLE):
        return "not-recommended"
    if not top:
        return "not-recommended"
    strong = [p for p, cov, n in top if cov >= _STRONG_COVERAGE and n >= _STRONG_TERMS]
    if any(p.state in _OPEN_STATES for p in strong):
        return "open-issue-pr"
    if any(p.kind in _PATH_KINDS or p.state == "merged" for p in strong):
        return "existing-capability"
    return "extensible-gap"


def map_finding(index: HostIndex, finding: Finding, *, k: int = 3) -> tuple[list[TouchPoint], str]:
    """The k best touch points of a finding in the host, and its relation label.

    Relation: `open-issue-pr` when an open/draft PR or issue covers the mechanism strongly,
    `existing-capability` when a doc, skill, module or merged PR does, `extensible-gap` for
    weaker partial matches (the nearest path is always among the touch points, as the place
    to extend), `not-recommended` when the finding is `defer`/`counterexample` or nothing
    matches.
    """
    ranked = _ranked(index, finding)
    top = ranked[:k]
    relation = _relation(finding, top)
    points = [point for point, _, _ in top]
    if relation == "extensible-gap" and not any(p.kind in _PATH_KINDS for p in points):
        nearest = next((p for p, _, _ in ranked if p.kind in _PATH_KINDS), None)
        if nearest is not None:
            points = [*points[: k - 1], nearest]
    return points, relation


def map_findings(index: HostIndex, findings: Iterable[Finding], *, k: int = 3) -> list[Finding]:
    """Copies of the findings with touch points and relation filled in from the host."""
    mapped = []
    for finding in findings:
        points, relation = map_finding(index, finding, k=k)
        mapped.append(finding.model_copy(update={"touch_points": points, "relation": relation}))
    return mapped


# --- references ----------------------------------------------------------------------

_REPO = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9-]*)/[A-Za-z0-9._-]+$")
_BARE_REF = re.compile(r"(?<![\w/#&.\-])#(\d+)(?![\w-])")


def _check_repo(repo: str) -> str:
    if not _REPO.match(repo):
        raise ValueError(f"repository {repo!r} is not of the form owner/name")
    return repo


def format_ref(repo: str, number: int, host_repo: str) -> str:
    """`#N` for the host's own PR/issue, `owner/repo#N` for any other repository's."""
    if _check_repo(repo).lower() == _check_repo(host_repo).lower():
        return f"#{number}"
    return f"{repo}#{number}"


def qualify_bare_refs(text: str, repo: str, host_repo: str) -> str:
    """Rewrite bare `#N` in text about `repo` as `repo#N` unless `repo` is the host.

    On GitHub a bare `#125` links to the host's own #125, so a PR of another project
    must always carry its owner/name. Refs already qualified, HTML entities and URL
    fragments are left alone; the rewrite is idempotent.
    """
    if _check_repo(repo).lower() == _check_repo(host_repo).lower():
        return text
    return _BARE_REF.sub(lambda m: f"{repo}#{m.group(1)}", text)


# --- the I/O edge: a local checkout (git and file reads are in hostmap_checkout) ----


def _state_of(raw: Mapping[str, Any], is_pr: bool) -> str:
    if is_pr and raw.get("merged_at"):
        return "merged"
    if raw.get("state") == "open":
        return "draft" if raw.get("draft") else "open"
    return "closed"


def parse_host_items(
    pulls: Iterable[Mapping[str, Any]], issues: Iterable[Mapping[str, Any]]
) -> list[HostItem]:
    """HostItems from GitHub REST list payloads; issues that are PRs are skipped."""
    items = []
    for raw, is_pr in [(p, True) for p in pulls] + [(i, False) for i in issues]:
        if not is_pr and "pull_request" in raw:
            continue
        labels = tuple(
            str(label.get("name", "")) if isinstance(label, Mapping) else str(label)
            for label in raw.get("labels") or ()
        )
        items.append(
            HostItem(
                number=int(raw["number"]),
                kind="pr" if is_pr else "issue",
                title=str(raw.get("title") or ""),
                body=str(raw.get("body") or ""),
                state=_state_of(raw, is_pr),
                url=str(raw.get("html_url") or ""),
                labels=labels,
                updated_at=str(raw.get("updated_at") or ""),
            )
        )
    return items


def host_items_from_sources(sources: Iterable[Source]) -> list[HostItem]:
    """HostItems from the PR and issue Sources the `host` collector stored.

    Pull requests first, newest update first; then issues, newest first (the order of the
    GitHub lists they were read from).
    """
    pulls = [s for s in sources if s.kind is SourceKind.PULL]
    issues = [s for s in sources if s.kind is SourceKind.ISSUE]
    pulls.sort(key=lambda s: (s.updated_at is not None, s.updated_at), reverse=True)
    issues.sort(key=lambda s: (s.created_at is not None, s.created_at), reverse=True)
    return [
        HostItem(
            number=int(source.meta.get("number") or source.key.rsplit("#", 1)[-1]),
            kind="pr" if source.kind is SourceKind.PULL else "issue",
            title=source.title,
            body=source.text,
            state=str(source.meta.get("state") or "open"),
            url=source.url,
            labels=tuple(str(label) for label in source.meta.get("labels") or ()),
            updated_at=_github_time(source.updated_at),
        )
        for source in [*pulls, *issues]
    ]


def _github_time(moment: datetime | None) -> str:
    """A time as GitHub writes it (`2026-08-20T10:00:00Z`)."""
    if moment is None:
        return ""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def reload_host_index(index: HostIndex) -> HostIndex:
    """The same host read again from its checkout (files and SHA); PRs/issues are kept."""
    if index.root is None:
        raise ConfigError(f"host {index.name} has no local checkout to read again")
    root = Path(index.root)
    branch = git_default_branch(root)
    return build_host_index(
        index.name,
        load_host_documents(root),
        index.items,
        repo=index.repo,
        root=root,
        default_branch=branch,
        head_sha=git_branch_sha(root, branch),
    )


def load_host_index(
    root: Path,
    *,
    repo: str | None = None,
    items: Sequence[HostItem] = (),
) -> HostIndex:
    """Index a local checkout (tracked files) plus its PRs/issues, pinned at the default
    branch's HEAD SHA."""
    root = Path(root)
    check_git_checkout(root)
    branch = git_default_branch(root)
    name = repo.split("/", 1)[1] if repo else root.resolve().name
    return build_host_index(
        name,
        load_host_documents(root),
        items,
        repo=_check_repo(repo) if repo else None,
        root=root,
        default_branch=branch,
        head_sha=git_branch_sha(root, branch),
    )
