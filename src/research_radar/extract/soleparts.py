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
from research_radar.extract.context import is_host_line, not_where_run
from research_radar.extract.markdown import Segment
from research_radar.extract.scopes import is_setup_heading, is_setup_line
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

    A host CPU does not count as a second part: one named beside the accelerator, in
    the same statement (`RTX2070 + AMD Ryzen 7 1700 + 64G Memory`) or a host line
    (`- CPU: Xeon Platinum 8369B` over `- GPU: NVIDIA A10`), that no number ran on alone.
    A part first stated as the page's set-up (`_states_setup`) holds for all its numbers,
    those above it too.

    Args:
        claims: the document's claims: the parts their numbers have (a table row's own
            among them: rows are not read again here, issue #19), and the lines they
            measure on: a list item that measures on a part (`- [ChatGLM3-TPU]: 在
            BM1684X 上约 7.5 token/s`, one of a list of ports) names it for its number.
    """
    parts = _Parts(cat)
    for claim in claims:
        parts.add(claim.conditions.hardware, host=len(claim.conditions.hardware) > 1)
    if parts.several():
        return SolePart()  # most documents with parts: several of them
    measured = {c.line or 0 for c in claims if c.metrics}
    first = 0
    upward = False
    aside = 0
    """The level of the survey or requirements section being read (`## Supported boards`,
    `## Hardware requirements`), 0 outside one."""
    setup = 0
    """The level of the set-up section being read (`## Environment`), 0 outside one."""
    previous: Segment | None = None
    for segment in segments:
        if segment.block == "table":
            continue
        if segment.block == "heading" and (not aside or segment.level <= aside):
            aside = segment.level if not_where_run(segment.text) else 0
        if segment.block == "heading" and (not setup or segment.level <= setup):
            setup = segment.level if is_setup_heading(segment.text) else 0
        found = cat.find("hardware", segment.text)
        if found:
            # most statements name no part (their mentions are cached: issue #19)
            names = [m.name for m in found]
            parts.add(names, host=len(names) > 1 or is_host_line(segment.text))
            if parts.several():
                return SolePart()
            if not first and not aside and _states(segment, measured):
                first = segment.line
                upward = bool(setup) or _states_setup(segment, previous)
        previous = segment
    name = parts.sole()
    if not name or not first:
        return SolePart()
    return SolePart(name, 0 if upward else first)


class _Parts:
    """The parts a document names: its accelerators, and its CPUs with whether each is
    only ever a host (named beside another part, or on a host line; never a number's
    only part)."""

    def __init__(self, cat: Catalog) -> None:
        self.cat = cat
        self.others: set[str] = set()
        self.cpus: dict[str, bool] = {}

    def add(self, names: Sequence[str], *, host: bool) -> None:
        for name in names:
            if self.cat.part_class(name) != "cpu":
                self.others.add(name)
            else:
                self.cpus[name] = self.cpus.get(name, True) and host

    def several(self) -> bool:
        return len(self.others) + len(self.cpus) > 1 and (
            len(self.others) > 1 or not all(self.cpus.values()) or not self.others
        )

    def sole(self) -> str:
        if self.several():
            return ""
        named = self.others or set(self.cpus)
        return next(iter(named), "")


def _states_setup(segment: Segment, previous: Segment | None) -> bool:
    """Whether a statement names its part as the page's set-up: a set-up line (`- GPU:
    NVIDIA A10(24G)`, `- **Hardware**: ...`) or an item of a list a set-up word heads
    (`- Environment` over `  - NVIDIA Tesla A10 24GB`)."""
    if is_setup_line(segment.text):
        return True
    return (
        segment.block == "list"
        and previous is not None
        and previous.block == "list"
        and len(previous.text.split()) <= 3
        and is_setup_heading(previous.text)
    )


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
