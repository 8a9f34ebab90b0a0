"""Candidate findings built from collected sources: the project's primary source, its
newest pinned snapshot, its claims and its six-dimension tags. Pure."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date

from research_radar.classify.classifier import Item, classify_item, classify_items, finding_tags
from research_radar.classify.model import Taxonomy
from research_radar.classify.rules import Classification
from research_radar.extract.claims import extract_claims
from research_radar.models import Claim, Derivation, Finding, Project, Snapshot, Source, SourceKind
from research_radar.resolve.keys import github_repo

__all__ = [
    "FINDING_KINDS",
    "build_candidate",
    "classifier_item",
    "classify_sources",
    "latest_snapshot",
    "primary_source",
    "source_where",
]

FINDING_KINDS = {SourceKind.REPO, SourceKind.PAPER, SourceKind.BLOG}
"""Kinds of source that become findings (PRs, issues and notes do not)."""


def primary_source(project: Project, by_key: dict[str, Source]) -> Source | None:
    """The source a project is read from: its own key first, then its linked sources."""
    if project.key in by_key:
        return by_key[project.key]
    for key in project.sources:
        if key in by_key:
            return by_key[key]
    return None


def latest_snapshot(snapshots: list[Snapshot]) -> Snapshot | None:
    """The newest of a source's snapshots (the store returns them newest first)."""
    return snapshots[0] if snapshots else None


def source_where(source: Source, snapshot: Snapshot | None) -> str:
    """Where a claim was read: `owner/name@sha:README.md`, or the pinned URL."""
    if snapshot is None:
        return source.url
    repo = github_repo(source.key)
    if repo:
        full = source.url.removeprefix("https://github.com/") or repo
        return f"{full}@{snapshot.version}:README.md"
    return snapshot.url or source.url


def classifier_item(source: Source, name: str) -> Item:
    """What the classifier reads of a candidate: its title (else its project's `name`),
    summary and text."""
    text = "\n".join(part for part in (source.summary, source.text) if part)
    return Item(source.title or name, text, source.kind.value)


def classify_sources(
    taxonomy: Taxonomy,
    pairs: Sequence[tuple[Project, Source]],
    known: Mapping[str, tuple[Item, Classification]] | None = None,
) -> list[Classification]:
    """The classification of each (project, primary source), in one batch: the classifier
    embeds a batch at once and matches the rules of a large one on two cores (#19).

    `known`: source key -> an item and its classification, made before (`ReadAhead`),
    used where the item is the one the candidate gives the classifier.
    """
    items = [classifier_item(source, project.name) for project, source in pairs]
    made = [
        _made(known or {}, source.key, item) for (_, source), item in zip(pairs, items, strict=True)
    ]
    left = [item for item, done in zip(items, made, strict=True) if done is None]
    fresh = iter(classify_items(taxonomy, left))
    return [next(fresh) if done is None else done for done in made]


def _made(
    known: Mapping[str, tuple[Item, Classification]], key: str, item: Item
) -> Classification | None:
    """The classification made before of `item`, if it is what was classified."""
    pair = known.get(key)
    return pair[1] if pair is not None and pair[0] == item else None


def build_candidate(
    project: Project,
    source: Source,
    snapshot: Snapshot | None,
    taxonomy: Taxonomy,
    day: date,
    claims: list[Claim] | None = None,
    classified: Classification | None = None,
) -> Finding:
    """A finding for `day`: tags, claims, pinned snapshot, fork parent and former names.

    `claims`: the source's claims when already extracted (the pipeline's extract stage);
    None extracts them here. `classified`: the source's classification when already made
    (`classify_sources`); None classifies it here."""
    if classified is None:
        item = classifier_item(source, project.name)
        classified = classify_item(taxonomy, item.title, item.text, kind=item.kind)
    if claims is None:
        claims = (
            extract_claims(source.text, where=source_where(source, snapshot)) if source.text else []
        )
    pinned = (
        snapshot.model_copy(update={"meta": {**snapshot.meta, "created_at": _created(source)}})
        if snapshot
        else None
    )
    return Finding(
        project_key=project.key,
        name=project.name,
        date=day,
        url=source.url,
        snapshot=pinned,
        mechanism=source.summary or source.title,
        derived_from=Derivation(parent=project.fork_of, evidence=project.derivative_evidence[:2])
        if project.fork_of
        else None,
        related=[project.fork_of] if project.fork_of else [],
        former_names=[str(name) for name in source.meta.get("renamed_from") or []],
        tags=finding_tags(classified),
        rsi_target=classified.target[0].value if classified.target else None,
        claims=claims,
    )


def _created(source: Source) -> str | None:
    return source.created_at.isoformat() if source.created_at else None
