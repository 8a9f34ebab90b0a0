"""The one hardware part a whole document names: where its numbers below it ran when
nothing nearer says (issue #14).

Pure. A building block of `research_radar.extract.claims`; callers outside this package
use `research_radar.extract.claims` instead.

A page about one board, one phone or one GPU says so once (`Llama 3 在 K230 上的优化实现`,
`The tests were performed on a Samsung Galaxy A25`, `Profiling ... on H200 showed`) and
never again beside its numbers. When the whole document names one hardware part and no
other, its performance numbers below the part's first naming that have no hardware of
their own take it: a hardware stated once holds for every number below it unless
overridden. What does not state it: a table row (`| groq | ... |` names that row's
provider, not the page's part), a survey of what runs (`已原生支持昇腾 NPU 推理`, a
`## Supported boards` section), a list item that measures on the part (one of a list of
ports); a part named only after the numbers (`All experiments were run on ...` at the
page's end, a demo) holds for none of them; two parts anywhere and nothing is assumed.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from research_radar.extract.catalogue import Catalog
from research_radar.extract.context import not_where_run
from research_radar.extract.markdown import Segment
from research_radar.models import Claim, ClaimKind

__all__ = ["SolePart", "sole_part", "with_sole_part"]


@dataclass(frozen=True)
class SolePart:
    """The one part a document names, and the line that first states it."""

    name: str = ""
    line: int = 0


def sole_part(segments: list[Segment], cat: Catalog, claims: Sequence[Claim] = ()) -> SolePart:
    """The one hardware part the segments name and where a statement first states it
    for the page (an empty `SolePart` when they name none, or several).

    Args:
        claims: the document's claims: the parts their numbers have (a table row's own
            among them: rows are not read again here, issue #19), and the lines they
            measure on: a list item that measures on a part (`- [ChatGLM3-TPU]: 在
            BM1684X 上约 7.5 token/s`, one of a list of ports) names it for its number.
    """
    names = {name for c in claims for name in c.conditions.hardware}
    if len(names) > 1:
        return SolePart()  # most documents with parts: several of them
    measured = {c.line or 0 for c in claims if c.metrics}
    first = 0
    aside = 0
    """The level of the survey or requirements section being read (`## Supported boards`,
    `## Hardware requirements`), 0 outside one."""
    for segment in segments:
        if segment.block == "table":
            continue
        if segment.block == "heading" and (not aside or segment.level <= aside):
            aside = segment.level if not_where_run(segment.text) else 0
        found = cat.find("hardware", segment.text)
        if not found:
            continue  # most statements name no part (their mentions are cached: issue #19)
        names.update(m.name for m in found)
        if len(names) > 1:
            return SolePart()
        if not first and not aside and _states(segment, measured):
            first = segment.line
    if not names or not first:
        return SolePart()
    return SolePart(names.pop(), first)


def _states(segment: Segment, measured: Collection[int]) -> bool:
    """Whether a statement naming a part states it for the page: not a table's header,
    a survey, a requirement, a footnote nor a list item with a number of its own."""
    if segment.header or not_where_run(segment.text):
        return False
    return not (segment.block == "list" and segment.line in measured)


def with_sole_part(claims: list[Claim], part: SolePart) -> list[Claim]:
    """The claims, each performance claim from the part's first statement on with no
    hardware given the part."""
    if not part.name:
        return claims
    return [
        c.model_copy(
            update={"conditions": c.conditions.model_copy(update={"hardware": [part.name]})}
        )
        if c.kind is ClaimKind.PERFORMANCE
        and c.metrics
        and not c.conditions.hardware
        and (c.line or 0) >= part.line
        else c
        for c in claims
    ]
