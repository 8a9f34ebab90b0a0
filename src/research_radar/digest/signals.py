"""The data the digest's signal rules hand over (mentions, key points, section references,
statements, contradictions) and the title key. The rules live beside it: credibility in
`digest.credibility`, key points in `digest.keypoints`, the living document in
`digest.knowledge`, contradictions in `digest.contradictions`. Pure (refs #9)."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from research_radar.sources.notes import NoteItem

__all__ = ["Contradiction", "KeyPoint", "Mention", "SectionRef", "Statement", "normalise_title"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Mention(_Model):
    """One item of a note or card, with the source and time that gave it."""

    source: str
    when: datetime
    item: NoteItem


class KeyPoint(_Model):
    text: str
    numbers: list[str]
    conditions: list[str] = Field(default_factory=list)
    """Hardware, model, precision, baseline and context found on the same line."""
    source: str


class SectionRef(_Model):
    id: str
    heading: str
    shared: list[str] = Field(default_factory=list)
    """Words the entry shares with the section (or `arXiv:ID` when anchored there)."""


class Statement(_Model):
    source: str
    text: str
    state: str = ""
    """For a status: what the source says (`accepted`, `accepted?` when hedged, `denied`)."""


class Contradiction(_Model):
    entity: str
    kind: Literal["number", "status"]
    about: str
    """The metric (`speedup ×`) or the kind of status (`venue`, `merge`, `release`)."""
    statements: list[Statement]
    entry_key: str = ""
    """The digest entry the contradiction is about (to compare with the previous digest)."""
    verify: str = ""
    """What to check to settle it."""


def normalise_title(title: str) -> str:
    """A comparison key: lower-case words separated by single spaces."""
    return re.sub(r"[\W_]+", " ", title.lower()).strip()
