"""The E1 digest: what the inbox says about one topic in one window (refs #9).

Pure: `build_digest` reads an `Inbox` already loaded by `sources.inbox.load_inbox` and
returns a `Digest`; it never touches files or the clock (pass the window in).

How the digest decides (CONVENTIONS.md §11):

- An *item* is a heading section or a bullet of a note (or a paper card) that matches the
  topic's terms. Items are joined into one *entry* when they share their primary arXiv id,
  else their primary URL, else their leading name or a near-identical title (rapidfuzz);
  two entries with different arXiv ids are never joined.
- An entry with an arXiv id is a *main increment*; one without is an *adjacent* item.
- *NET-new* means not anchored in the living document (neither its arXiv id nor its name
  occurs there); it is not the same as newly published.
- *Credibility* scores signals found in the entry's text: peer-reviewed venue +2, known
  institution +1, public code +1, production data +1; single author -2, no code -1,
  missing metrics -1. A score of 4 or more is 极高, 1 to 3 高, below 1 中-低.
- *Value stars* (1-5): 1, +2 for 极高 or +1 for 高, +1 when two or more sources report it,
  +1 when it carries numbers, +1 when it is NET-new.

An entry and what it is made of (credibility, key points, living-doc sections) are made
in `digest.entries` from the signal rules beside it; contradictions in
`digest.contradictions`; which mentions are one entry in `digest.grouping`; the digest's
shape in `digest.shapes`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime

from research_radar.digest.contradictions import find_contradictions
from research_radar.digest.entries import (
    Entry,
    add_key_points,
    build_citation,
    build_entry,
    build_entry_context,
    entity_of,
    item_names,
)
from research_radar.digest.extraction import ClaimReading
from research_radar.digest.grouping import group_mentions
from research_radar.digest.shapes import Comparison, Digest, LivingDoc, SourceCount, Window
from research_radar.digest.signals import Contradiction, Mention
from research_radar.errors import ConfigError
from research_radar.sources.inbox import Card, Inbox, KnowledgeDoc
from research_radar.sources.notes import (
    SHANGHAI,
    TOPIC_TERMS,
    NoteItem,
    Problem,
)

__all__ = ["TOPIC_MIN", "TOPIC_WITHOUT_TERMS", "build_digest", "compare_digests"]


TOPIC_MIN = 0.5
"""The learned topic relevance from which an item with the topic's terms is on topic."""
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
TOPIC_WITHOUT_TERMS = 0.7
"""... and from which an item without them is. Was 0.9 while the head over-rated agent
papers; since it learned off-topic agent, RAG, judge and training work and is calibrated,
0.7 keeps 69% of held-out on-topic titles (0.9: 54%) and 1 of 24 off-topic ones (0: 0)."""


# --- gathering -----------------------------------------------------------------------------


def _in_window(when: datetime | None, window: Window) -> bool:
    return when is not None and window.start < when <= window.end


def _gather(inbox: Inbox, window: Window) -> tuple[list[Mention], list[SourceCount], int]:
    """Every item of the notes and cards in the window, and one (uncounted) row per source."""
    mentions: list[Mention] = []
    rows: list[SourceCount] = []
    outside = 0
    for note in sorted(inbox.notes, key=lambda n: (n.analyst, n.timestamp or window.end, n.path)):
        if note.timestamp is None:
            continue  # listed as a no-timestamp problem by the loader
        if not _in_window(note.timestamp, window):
            outside += 1
            continue
        mentions += [Mention(source=note.path, when=note.timestamp, item=i) for i in note.items]
        rows.append(
            SourceCount(
                path=note.path,
                analyst=note.analyst,
                kind="note",
                items=0,
                timestamp=note.timestamp,
                date_only=note.date_only,
            )
        )
    for card in sorted(inbox.cards, key=lambda c: (c.number or 0, c.path)):
        if card.item is None or card.timestamp is None:
            continue
        if not _in_window(card.timestamp, window):
            outside += 1
            continue
        mentions.append(Mention(source=card.path, when=card.timestamp, item=card.item))
        rows.append(
            SourceCount(
                path=card.path,
                analyst="paper_cards",
                kind="card",
                items=0,
                timestamp=card.timestamp,
                detail=_card_detail(card),
            )
        )
    return mentions, rows, outside


def _card_detail(card: Card) -> str:
    number = f"{card.number:04d}" if card.number is not None else "无编号"
    return " · ".join([number, *(f"arXiv:{i}" for i in card.arxiv_ids), card.category or "无分类"])


def _count(
    rows: list[SourceCount],
    groups: list[list[Mention]],
    inbox: Inbox,
    on_topic: Callable[[NoteItem], bool],
) -> None:
    """Fill each row with the titles of its items that belong to an on-topic entry."""
    by_path: dict[str, SourceCount] = {}
    for row in rows:
        by_path.setdefault(row.path, row)  # the first row of a path, as a scan would find
    for group in groups:
        for mention in group:
            row = by_path[mention.source]
            row.items += 1
            row.titles.append(mention.item.title)
    if inbox.queue is not None:
        titles = [item.title for item in inbox.queue.items if on_topic(item)]
        queue = SourceCount(
            path=inbox.queue.path,
            analyst="work-queue",
            kind="queue",
            items=len(titles),
            titles=titles,
        )
        rows.insert(0, queue)


def _topic_test(topic: str, items: list[NoteItem]) -> Callable[[NoteItem], bool]:
    """Whether an item is about the topic: for `inference`, the learned topic relevance
    (at least TOPIC_MIN, or TOPIC_WITHOUT_TERMS when none of the topic's terms occurs)
    of an item written in English only (classify.classifier; a term such as "decoding"
    or "serving" alone does not make a RAG reranker or an LLM judge inference work, and a
    KV-eviction paper without the listed terms is still on topic); for an item with
    Chinese, which the embedding reads poorly, and for other topics, their terms."""
    if topic != "inference" or not items:
        return lambda item: topic in item.topics
    from research_radar.classify.classifier import topic_relevance

    english = [item for item in items if not _CJK.search(f"{item.title}\n{item.text}")]
    scores = topic_relevance([(item.title, item.text) for item in english])
    learned = {
        id(item): score >= (TOPIC_MIN if topic in item.topics else TOPIC_WITHOUT_TERMS)
        for item, score in zip(english, scores, strict=True)
    }
    return lambda item: learned.get(id(item), topic in item.topics)


# --- entries -----------------------------------------------------------------------------


def _living_doc(doc: KnowledgeDoc | None) -> LivingDoc | None:
    if doc is None:
        return None
    return LivingDoc(
        path=doc.path, title=doc.title, sections=len(doc.sections), arxiv_ids=len(doc.arxiv_ids)
    )


def _open_items(digest: Digest) -> dict[str, tuple[str, str]]:
    """Entry key -> (name, why) for everything the digest leaves to verify."""
    entries = {e.key: e for e in [*digest.increments, *digest.adjacent]}
    found: dict[str, tuple[str, str]] = {}
    for item in digest.contradictions:
        if item.entry_key in entries:
            name = entries[item.entry_key].name or entries[item.entry_key].title
            why = "状态矛盾" if item.kind == "status" else "数字矛盾"
            previous = found.get(item.entry_key, (name, ""))[1]
            found[item.entry_key] = (name, "、".join(filter(None, [previous, why])))
    for entry in entries.values():
        if entry.credibility == "中-低" and entry.key not in found:
            found[entry.key] = (entry.name or entry.title, "可信度中-低")
    return found


def compare_digests(previous: Digest, current: Digest) -> Comparison:
    """What moved from "to verify" to confirmed since `previous`, and what is still open."""
    before, now = _open_items(previous), _open_items(current)
    seen = {e.key: e for e in [*current.increments, *current.adjacent]}
    confirmed, still_open = [], []
    for key, (name, why) in before.items():
        if key in now:
            still_open.append(f"{name}（前一棒：{why}；本棒：{now[key][1]}）")
        elif key in seen:
            confirmed.append(
                f"{name}（前一棒：{why} → 本棒可信度 {seen[key].credibility}，无矛盾）"
            )
        else:
            still_open.append(f"{name}（本棒无新消息；前一棒：{why}）")
    return Comparison(
        previous_end=previous.window.end,
        increments=len(previous.increments),
        adjacent=len(previous.adjacent),
        confirmed=confirmed,
        still_open=still_open,
        new_open=[f"{name}（{why}）" for key, (name, why) in now.items() if key not in before],
    )


def build_digest(
    inbox: Inbox,
    *,
    topic: str,
    start: datetime,
    end: datetime,
    previous: Digest | None = None,
) -> Digest:
    """The digest of `inbox` for `topic` over the window start < t <= end (aware datetimes).

    With `previous` (an earlier digest of the topic), the digest says what moved from
    "to verify" to confirmed and what is still open.

    Raises:
        ConfigError: unknown topic, naive or empty window.
    """
    if topic not in TOPIC_TERMS:
        known = ", ".join(sorted(TOPIC_TERMS))
        raise ConfigError(f"unknown topic {topic!r}; known topics: {known}")
    if start.tzinfo is None or end.tzinfo is None or start >= end:
        raise ConfigError("the digest window needs timezone-aware start < end")
    window = Window(start=start.astimezone(SHANGHAI), end=end.astimezone(SHANGHAI))
    doc = inbox.knowledge.get(topic)
    problems = list(inbox.problems)
    if doc is None:
        message = (
            f"no living document for topic {topic!r} (knowledge/{topic}.md); all items NET-new"
        )
        problems.append(
            Problem(path=f"knowledge/{topic}.md", kind="no-living-doc", message=message)
        )
    mentions, sources, outside = _gather(inbox, window)
    queued = inbox.queue.items if inbox.queue is not None else []
    on_topic = _topic_test(topic, [m.item for m in mentions] + list(queued))
    entries: list[Entry] = []
    contradictions: list[Contradiction] = []
    # A worker reads the claims of the items on topic, if there are many, from before the
    # grouping on (#19); an item off topic in a group on topic is read with its key points.
    with ClaimReading(m.item.text for m in mentions if on_topic(m.item)) as reading:
        groups = [g for g in group_mentions(mentions) if any(on_topic(m.item) for m in g)]
        _count(sources, groups, inbox, on_topic)
        context = build_entry_context(inbox, doc, item_names(groups))
        for group in groups:
            entries.append(build_entry(group, context))
            contradictions += find_contradictions(entity_of(group), group, entries[-1].key)
        claims = reading.result()
    for group, entry in zip(groups, entries, strict=True):
        add_key_points(entry, group, context, claims)
    entries.sort(key=lambda e: (-e.stars, e.first_seen, e.title))
    increments = [e for e in entries if e.arxiv_ids]
    digest = Digest(
        topic=topic,
        window=window,
        living_doc=_living_doc(doc),
        sources=sources,
        increments=increments,
        adjacent=[e for e in entries if not e.arxiv_ids],
        contradictions=contradictions,
        net_new_arxiv=[
            build_citation(e, i) for e in increments if e.status == "net-new" for i in e.arxiv_ids
        ],
        outside_window=outside,
        problems=problems,
    )
    if previous is not None:
        digest.comparison = compare_digests(previous, digest)
    return digest
