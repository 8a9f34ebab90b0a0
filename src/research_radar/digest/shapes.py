"""The digest's shape: its window, its sources, the living document and the comparison
with the previous digest; `digest.build` fills it, `digest.render` writes it."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from research_radar.digest.entries import Citation, Entry
from research_radar.digest.signals import Contradiction
from research_radar.sources.notes import Problem

__all__ = ["Comparison", "Digest", "LivingDoc", "SourceCount", "Window"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Window(_Model):
    start: datetime
    end: datetime
    """Both in Asia/Shanghai; a note belongs to the window when start < time <= end."""


class SourceCount(_Model):
    path: str
    analyst: str
    kind: Literal["note", "card", "queue"]
    items: int
    """Items on the topic (before dedup); zero counts are kept."""
    timestamp: datetime | None = None
    date_only: bool = False
    detail: str = ""
    """For a card: its number, arXiv ids and primary category."""
    titles: list[str] = Field(default_factory=list)


class LivingDoc(_Model):
    path: str
    title: str
    sections: int
    arxiv_ids: int


class Comparison(_Model):
    """What changed since the previous digest (refs #17)."""

    previous_end: datetime
    increments: int
    adjacent: int
    confirmed: list[str] = Field(default_factory=list)
    """To verify in the previous digest, settled now (seen again, no contradiction)."""
    still_open: list[str] = Field(default_factory=list)
    new_open: list[str] = Field(default_factory=list)


class Digest(_Model):
    topic: str
    window: Window
    living_doc: LivingDoc | None = None
    sources: list[SourceCount] = Field(default_factory=list)
    increments: list[Entry] = Field(default_factory=list)
    adjacent: list[Entry] = Field(default_factory=list)
    contradictions: list[Contradiction] = Field(default_factory=list)
    net_new_arxiv: list[Citation] = Field(default_factory=list)
    outside_window: int = 0
    """Notes and cards with a timestamp outside the window (not checked)."""
    problems: list[Problem] = Field(default_factory=list)
    comparison: Comparison | None = None
    """Against the previous digest, when one was given."""

    @property
    def carried(self) -> list[Entry]:
        """Entries already anchored in the living document (沿用件)."""
        return [e for e in [*self.increments, *self.adjacent] if e.status == "anchored"]

    @property
    def not_included(self) -> list[SourceCount]:
        return [source for source in self.sources if not source.items]
