"""The one hardware part a whole document names in its preamble: where its numbers ran
when nothing nearer says (issue #14).

Pure. A building block of `research_radar.extract.claims`; callers outside this package
use `research_radar.extract.claims` instead.

A page about one board or one phone says so before its first section (`Llama 3 在 K230
上的优化实现`, `The tests were performed on a Samsung Galaxy A25`) and never again beside
its numbers. When that preamble (the title and the text above the first section heading,
no table) names a hardware part and the whole document names no other, its performance
numbers that have no hardware of their own take it. A part named only inside a section is
that section's business (`extract.scopes`: a set-up, an evaluation sentence, a list of
supported devices); two parts anywhere and nothing is assumed.
"""

from __future__ import annotations

from research_radar.extract.catalogue import Catalog
from research_radar.extract.markdown import Segment
from research_radar.models import Claim, ClaimKind

__all__ = ["sole_part", "with_sole_part"]


def sole_part(segments: list[Segment], cat: Catalog) -> str:
    """The one hardware part the segments name, when their preamble names it; else ""."""
    opening = _preamble(segments)
    names = {m.name for segment in segments[:opening] for m in cat.find("hardware", segment.text)}
    if len(names) != 1:
        return ""  # most documents: no part before their first section, nothing to look for
    for segment in segments[opening:]:
        names.update(m.name for m in cat.find("hardware", segment.text))
        if len(names) > 1:
            return ""
    return names.pop()


def _preamble(segments: list[Segment]) -> int:
    """How many segments open the document before its first section heading (a heading
    below a level-1 title) or its first table row."""
    for index, segment in enumerate(segments):
        if segment.block == "table" or (segment.block == "heading" and segment.level != 1):
            return index
    return len(segments)


def with_sole_part(claims: list[Claim], part: str) -> list[Claim]:
    """The claims, each performance claim with no hardware given `part`."""
    if not part:
        return claims
    return [
        c.model_copy(update={"conditions": c.conditions.model_copy(update={"hardware": [part]})})
        if c.kind is ClaimKind.PERFORMANCE and c.metrics and not c.conditions.hardware
        else c
        for c in claims
    ]
