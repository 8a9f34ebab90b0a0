"""The digest's entries: one per group of mentions, with its credibility, key points,
place in the living document and value stars (rules: `digest.build`). Pure (refs #9)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from research_radar.digest.credibility import rate_credibility
from research_radar.digest.keypoints import ClaimPoints, extract_key_points, taken_names
from research_radar.digest.knowledge import (
    SectionWords,
    build_section_words,
    find_anchor,
    match_sections,
)
from research_radar.digest.signals import KeyPoint, Mention, SectionRef, normalise_title
from research_radar.sources.inbox import Card, Inbox, KnowledgeDoc
from research_radar.sources.notes import SHANGHAI, NoteItem, normalise_url, parse_arxiv_ids

__all__ = [
    "Citation",
    "Entry",
    "EntryContext",
    "add_key_points",
    "build_citation",
    "build_entry",
    "build_entry_context",
    "entity_of",
    "item_names",
    "primary_url",
]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Entry(_Model):
    """One main increment or adjacent item, deduplicated across notes and cards."""

    key: str
    title: str
    name: str = ""
    arxiv_ids: list[str] = Field(default_factory=list)
    urls: list[str] = Field(default_factory=list)
    status: Literal["net-new", "anchored"]
    anchored_by: str = ""
    cards: list[int] = Field(default_factory=list)
    venue: str = ""
    credibility: Literal["极高", "高", "中-低"]
    reasons: list[str] = Field(default_factory=list)
    sources: list[str] = Field(default_factory=list)
    first_seen: datetime
    key_points: list[KeyPoint] = Field(default_factory=list)
    relation: list[SectionRef] = Field(default_factory=list)
    suggested_section: str = ""
    stars: int = 1


class Citation(_Model):
    arxiv_id: str
    title: str
    facts: list[str] = Field(default_factory=list)


def primary_url(item: NoteItem) -> str:
    """The item's first URL that is not a paper page, normalised ("" when none)."""
    for url in item.urls:
        key = normalise_url(url)
        if not key.startswith(("arxiv.org", "huggingface.co/papers", "hf.co")) and "/" in key:
            return key
    return ""


def _stars(entry: Entry) -> int:
    bonus = {"极高": 2, "高": 1, "中-低": 0}[entry.credibility]
    extra = (len(entry.sources) >= 2) + bool(entry.key_points) + (entry.status == "net-new")
    return max(1, min(5, 1 + bonus + extra))


@dataclass(frozen=True)
class EntryContext:
    """What every entry reads of the inbox and the living document, prepared once (#19)."""

    doc: KnowledgeDoc | None
    sections: SectionWords | None
    cards: dict[str, list[tuple[int, Card]]]
    """arXiv id → the numbered cards that name it, with their place in the inbox."""
    taken: frozenset[str]
    """The items' names, as key points compare them (`keypoints.taken_names`)."""


def build_entry_context(inbox: Inbox, doc: KnowledgeDoc | None, names: list[str]) -> EntryContext:
    """The cards by arXiv id, the living document's section words and the taken names."""
    cards: dict[str, list[tuple[int, Card]]] = {}
    for place, card in enumerate(inbox.cards):
        if card.number is not None:
            for arxiv_id in dict.fromkeys(card.arxiv_ids):
                cards.setdefault(arxiv_id, []).append((place, card))
    sections = build_section_words(doc) if doc else None
    return EntryContext(doc, sections, cards, taken_names(names))


def _in_order(group: list[Mention]) -> list[Mention]:
    return sorted(group, key=lambda m: (m.when, m.source, m.item.line))


def build_entry(group: list[Mention], context: EntryContext) -> Entry:
    """The entry of one group of mentions (the same work in several notes or cards),
    without its key points and stars: `add_key_points` adds them once the claims of the
    digest's texts are read (#19)."""
    doc = context.doc
    group = _in_order(group)
    ids = sorted({m.item.arxiv_ids[0] for m in group if m.item.arxiv_ids})
    named = {place: card for i in ids for place, card in context.cards.get(i, [])}
    cards = [named[place] for place in sorted(named)]  # in the inbox's order
    card_titles = [c.title for c in sorted(cards, key=lambda c: c.number or 0) if c.title]
    urls = [f"https://arxiv.org/abs/{i}" for i in ids]
    for url in (u for m in group for u in m.item.urls):
        if set(parse_arxiv_ids(url)) & set(ids):
            continue  # the canonical abs URL stands for every version
        if normalise_url(url) not in {normalise_url(u) for u in urls}:
            urls.append(url)
    text = "\n".join([*(m.item.text for m in group), *(c.text for c in cards)])
    name = next((m.item.name for m in group if m.item.name), "")
    anchored_by, home = find_anchor(ids, name, doc)
    rating, reasons, venue = rate_credibility(text, urls)
    relation = [home] if home else (match_sections(text, doc, context.sections) if doc else [])
    first = group[0]
    key = (
        f"arxiv:{ids[0]}"
        if ids
        else (
            f"url:{primary_url(first.item)}"
            if primary_url(first.item)
            else f"title:{normalise_title(first.item.title)}"
        )
    )
    return Entry(
        key=key,
        title=card_titles[0] if card_titles else first.item.title,
        name=name,
        arxiv_ids=ids,
        urls=urls,
        status="anchored" if anchored_by else "net-new",
        anchored_by=anchored_by,
        cards=sorted({c.number for c in cards if c.number is not None}),
        venue=venue,
        credibility=rating,
        reasons=reasons,
        sources=list(dict.fromkeys(m.source for m in group)),
        first_seen=first.when,
        relation=relation,
        suggested_section=f"{relation[0].id} {relation[0].heading}".strip() if relation else "",
    )


def add_key_points(
    entry: Entry,
    group: list[Mention],
    context: EntryContext,
    claims: Mapping[str, ClaimPoints],
) -> None:
    """Give the entry of `group` its key points, from the claims read of its texts, and
    its stars, which count them."""
    entry.key_points = extract_key_points(_in_order(group), taken=context.taken, claims=claims)
    entry.stars = _stars(entry)


def build_citation(entry: Entry, arxiv_id: str) -> Citation:
    """Title plus venue, the number most sources agree on, and the date first seen."""
    facts = [entry.venue] if entry.venue else []
    heads = Counter(point.numbers[0] for point in entry.key_points)
    facts += [number for number, _ in heads.most_common(1)]
    facts.append(entry.first_seen.astimezone(SHANGHAI).strftime("%Y-%m-%d"))
    return Citation(arxiv_id=arxiv_id, title=entry.title, facts=facts)


def item_names(groups: list[list[Mention]]) -> list[str]:
    """Every item's leading name: never a condition of a claim."""
    return sorted({m.item.name for group in groups for m in group if len(m.item.name) >= 3})


def entity_of(group: list[Mention]) -> str:
    """What a group's contradictions are about: its name or first title, and arXiv id."""
    first = min(group, key=lambda m: (m.when, m.source, m.item.line))
    name = next((m.item.name for m in group if m.item.name), "")
    ids = sorted({m.item.arxiv_ids[0] for m in group if m.item.arxiv_ids})
    label = name or first.item.title
    return f"{label} (arXiv:{ids[0]})" if ids else label
