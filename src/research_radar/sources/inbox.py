"""The team inbox: analysts' notes, paper cards, living knowledge documents, a work queue.

Layout under one root (every part can be given its own path):

    inbox/<analyst>/*.md      notes; timestamp in the file name or in front matter
    paper_cards/NNNN-*.md     numbered cards naming arXiv ids and a primary category
    knowledge/<topic>.md      the living document of a topic (`## §N ...` sections)
    work-queue.md             the queue of pending work

Every `parse_*` here is pure; `sources.inbox_files.load_inbox` reads the files.
The text layer beneath (items, identifiers, numbers, topics, timestamps, front matter)
lives in `sources.notes`; its public names are re-exported here. Bad input (no timestamp,
duplicate card numbers, broken links, unreadable files) is recorded as a `Problem`, never
dropped silently (refs #9, #3).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from research_radar.sources.note_meta import (
    parse_front_matter,
    parse_meta_timestamp,
    parse_timestamp,
)
from research_radar.sources.notes import (
    NoteItem,
    Problem,
    parse_arxiv_ids,
    parse_item,
    parse_items,
    parse_links,
    parse_sections,
    strip_markup,
)

__all__ = [
    "Card",
    "Inbox",
    "KnowledgeDoc",
    "KnowledgeSection",
    "Note",
    "WorkQueue",
    "parse_card",
    "parse_knowledge",
    "parse_note",
    "parse_queue",
]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Note(_Model):
    path: str
    """Relative to the root when under it (POSIX separators)."""
    analyst: str
    title: str = ""
    timestamp: datetime | None = None
    """Timezone-aware; naive times are read as Asia/Shanghai."""
    date_only: bool = False
    """Only a date was given: the timestamp is that day's 00:00 in Shanghai."""
    items: list[NoteItem] = Field(default_factory=list)
    links: list[str] = Field(default_factory=list)
    """Relative link targets, checked for existence by load_inbox."""


class Card(_Model):
    path: str
    number: int | None = None
    title: str = ""
    arxiv_ids: list[str] = Field(default_factory=list)
    category: str = ""
    timestamp: datetime | None = None
    text: str = ""
    item: NoteItem | None = None
    """The card read as one item (title, ids, numbers, topic terms), to dedup with notes."""


class KnowledgeSection(_Model):
    id: str
    """`§1.(3)` when the heading carries one, else the heading text."""
    heading: str
    level: int
    text: str
    arxiv_ids: list[str] = Field(default_factory=list)


class KnowledgeDoc(_Model):
    path: str
    topic: str
    title: str = ""
    sections: list[KnowledgeSection] = Field(default_factory=list)
    arxiv_ids: list[str] = Field(default_factory=list)
    text: str = ""


class WorkQueue(_Model):
    path: str
    items: list[NoteItem] = Field(default_factory=list)
    lines: int = 0


class Inbox(_Model):
    """Everything read from one inbox root."""

    root: str
    notes: list[Note] = Field(default_factory=list)
    cards: list[Card] = Field(default_factory=list)
    knowledge: dict[str, KnowledgeDoc] = Field(default_factory=dict)
    queue: WorkQueue | None = None
    problems: list[Problem] = Field(default_factory=list)


# --- notes, cards, the living document and the queue -------------------------------------


def _first_h1(body: str) -> str:
    match = re.search(r"^#\s+(.+?)\s*#*\s*$", body, re.MULTILINE)
    return strip_markup(match.group(1)) if match else ""


def _body_line(text: str, body: str) -> int:
    index = text.find(body[:80]) if body else 0
    return text[: max(index, 0)].count("\n") + 1


def parse_note(text: str, *, path: str, analyst: str) -> tuple[Note, list[Problem]]:
    """A note's timestamp, title, items and links, plus the problems found in it."""
    meta, body, problems = parse_front_matter(text, path)
    stamp, date_only = parse_timestamp(path.rsplit("/", 1)[-1], meta)
    if stamp is None:
        problems.append(
            Problem(
                path=path,
                kind="no-timestamp",
                message="no timestamp in the file name or front matter; not placed in any window"
                " (rename to YYYY-MM-DD_HHMM_*.md or add `date:` front matter)",
            )
        )
    title = str(meta.get("title") or _first_h1(body))
    links, link_problems = parse_links(body, path)
    items = parse_items(body, title=title, first_line=_body_line(text, body))
    note = Note(
        path=path,
        analyst=analyst,
        title=title,
        timestamp=stamp,
        date_only=date_only,
        items=items,
        links=links,
    )
    return note, problems + link_problems


_FIELD = re.compile(
    r"^\s*(?:[-*]\s*)?(?:\*\*)?([A-Za-z][\w .\-]*?|[一-鿿]{1,6})(?:\*\*)?\s*[:：]\s*(.+)$"
)
_CARD_NUMBER = re.compile(r"^(\d{1,6})(?:[-_ .]|$)")
_CARD_ARXIV = re.compile(r"^\d{1,6}-(\d{2}(?:0[1-9]|1[0-2]))[-.](\d{4,5})(?!\d)")


def _fields(body: str, meta: Mapping[str, Any]) -> dict[str, Any]:
    """Front matter plus `key: value` lines of the body (front matter wins)."""
    found: dict[str, Any] = {}
    for line in body.splitlines():
        match = _FIELD.match(line)
        if match:
            found.setdefault(match.group(1).strip().lower(), match.group(2).strip())
    return {**found, **meta}


def _first_of(fields: Mapping[str, Any], *keys: str) -> str:
    for key in keys:
        value = fields.get(key)
        if value is not None and str(value).strip():
            return str(value[0] if isinstance(value, list) and value else value).strip()
    return ""


def parse_card(text: str, *, path: str) -> tuple[Card, list[Problem]]:
    """A paper card: number (from the file name), arXiv ids, primary category, date."""
    meta, body, problems = parse_front_matter(text, path)
    name = path.rsplit("/", 1)[-1]
    fields = _fields(body, meta)
    number = _CARD_NUMBER.match(name)
    from_name = _CARD_ARXIV.match(name)
    declared = " ".join(str(v) for k, v in fields.items() if k in {"arxiv", "arxiv_id", "arxiv id"})
    ids = parse_arxiv_ids(f"arXiv:{declared} " if declared else "") + parse_arxiv_ids(body)
    ids += re.findall(r"(?<![\d.])\d{4}\.\d{4,5}(?!\d)", declared)
    if from_name:
        ids.append(f"{from_name.group(1)}.{from_name.group(2)}")
    stamp, _ = parse_meta_timestamp(
        {k: v for k, v in fields.items() if k in {"date", "time", "added"}}
    )
    card = Card(
        path=path,
        number=int(number.group(1)) if number else None,
        title=strip_markup(_first_of(fields, "title", "标题") or _first_h1(body)),
        arxiv_ids=list(dict.fromkeys(ids)),
        category=_first_of(fields, "category", "primary_category", "primary category", "主分类"),
        timestamp=stamp,
        text=body,
    )
    item = parse_item(card.title, "\n".join(filter(None, [card.title, body])), "", 1)
    card.item = item.model_copy(update={"arxiv_ids": card.arxiv_ids})
    if card.number is None:
        message = "card file name does not start with its number (NNNN-*.md); rename it"
        problems.append(Problem(path=path, kind="card-without-number", message=message))
    if not card.arxiv_ids:
        message = "card names no arXiv id; add a line `arXiv: YYMM.NNNNN`"
        problems.append(Problem(path=path, kind="card-without-arxiv", message=message))
    return card, problems


_SECTION_ID = re.compile(r"§\s*[\w.()（）\-]*[\w)）]")


def parse_knowledge(text: str, *, path: str, topic: str) -> KnowledgeDoc:
    """The living document: its `##`/`###` sections and the arXiv ids anchored in each."""
    meta, body, _ = parse_front_matter(text, path)
    sections = []
    for heading, level, _line, lines in parse_sections(body):
        if level < 2:
            continue
        section_id = _SECTION_ID.search(heading)
        content = "\n".join(lines)
        sections.append(
            KnowledgeSection(
                id=section_id.group(0).replace(" ", "") if section_id else heading,
                heading=_SECTION_ID.sub("", heading).strip(" ·-—:：") or heading,
                level=level,
                text=content,
                arxiv_ids=parse_arxiv_ids(heading + "\n" + content),
            )
        )
    return KnowledgeDoc(
        path=path,
        topic=topic,
        title=str(meta.get("title") or _first_h1(body)),
        sections=sections,
        arxiv_ids=parse_arxiv_ids(body),
        text=body,
    )


def parse_queue(text: str, *, path: str) -> WorkQueue:
    """The work queue's items (same splitting as notes)."""
    _meta, body, _ = parse_front_matter(text, path)
    return WorkQueue(path=path, items=parse_items(body), lines=len(body.splitlines()))
